# mypy: ignore-errors
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    TERMINATION_TARGET_REACHED: _ClassVar[Termination]
    TERMINATION_TIMEOUT: _ClassVar[Termination]
    TERMINATION_DISCONNECT: _ClassVar[Termination]
    TERMINATION_ILLEGAL_ACTION: _ClassVar[Termination]
    TERMINATION_PROTOCOL_ERROR: _ClassVar[Termination]
    TERMINATION_INTERRUPTED: _ClassVar[Termination]

class StatusCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_CODE_UNSPECIFIED: _ClassVar[StatusCode]
    STATUS_CODE_UNAUTHENTICATED: _ClassVar[StatusCode]
    STATUS_CODE_PROTOCOL_VERSION: _ClassVar[StatusCode]
    STATUS_CODE_NAME_TAKEN: _ClassVar[StatusCode]
    STATUS_CODE_BAD_HELLO: _ClassVar[StatusCode]
    STATUS_CODE_TIMEOUT: _ClassVar[StatusCode]
    STATUS_CODE_ILLEGAL_ACTION: _ClassVar[StatusCode]
    STATUS_CODE_PROTOCOL_ERROR: _ClassVar[StatusCode]
    STATUS_CODE_SHUTDOWN: _ClassVar[StatusCode]
TERMINATION_UNSPECIFIED: Termination
TERMINATION_TARGET_REACHED: Termination
TERMINATION_TIMEOUT: Termination
TERMINATION_DISCONNECT: Termination
TERMINATION_ILLEGAL_ACTION: Termination
TERMINATION_PROTOCOL_ERROR: Termination
TERMINATION_INTERRUPTED: Termination
STATUS_CODE_UNSPECIFIED: StatusCode
STATUS_CODE_UNAUTHENTICATED: StatusCode
STATUS_CODE_PROTOCOL_VERSION: StatusCode
STATUS_CODE_NAME_TAKEN: StatusCode
STATUS_CODE_BAD_HELLO: StatusCode
STATUS_CODE_TIMEOUT: StatusCode
STATUS_CODE_ILLEGAL_ACTION: StatusCode
STATUS_CODE_PROTOCOL_ERROR: StatusCode
STATUS_CODE_SHUTDOWN: StatusCode

class PlayRequest(_message.Message):
    __slots__ = ("hello", "move", "proof")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    move: Move
    proof: Proof
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., proof: _Optional[_Union[Proof, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("welcome", "game_start", "decision", "hand_end", "game_end", "status", "challenge", "batch")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    GAME_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    HAND_END_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    game_start: GameStart
    decision: Decision
    hand_end: HandEnd
    game_end: GameEnd
    status: Status
    challenge: Challenge
    batch: Batch
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., game_start: _Optional[_Union[GameStart, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., hand_end: _Optional[_Union[HandEnd, _Mapping]] = ..., game_end: _Optional[_Union[GameEnd, _Mapping]] = ..., status: _Optional[_Union[Status, _Mapping]] = ..., challenge: _Optional[_Union[Challenge, _Mapping]] = ..., batch: _Optional[_Union[Batch, _Mapping]] = ...) -> None: ...

class Batch(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[PlayResponse]
    def __init__(self, messages: _Optional[_Iterable[_Union[PlayResponse, _Mapping]]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("bot_name", "bot_version", "protocol_version", "client_nonce")
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_NONCE_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    bot_version: str
    protocol_version: int
    client_nonce: bytes
    def __init__(self, bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., client_nonce: _Optional[bytes] = ...) -> None: ...

class Challenge(_message.Message):
    __slots__ = ("server_nonce",)
    SERVER_NONCE_FIELD_NUMBER: _ClassVar[int]
    server_nonce: bytes
    def __init__(self, server_nonce: _Optional[bytes] = ...) -> None: ...

class Proof(_message.Message):
    __slots__ = ("client_proof",)
    CLIENT_PROOF_FIELD_NUMBER: _ClassVar[int]
    client_proof: bytes
    def __init__(self, client_proof: _Optional[bytes] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("game_id", "seq", "action", "fallback", "forfeit", "stderr")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    action: str
    fallback: bool
    forfeit: str
    stderr: str
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., action: _Optional[str] = ..., fallback: _Optional[bool] = ..., forfeit: _Optional[str] = ..., stderr: _Optional[str] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "stream_id", "arena_version", "server_signature")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    STREAM_ID_FIELD_NUMBER: _ClassVar[int]
    ARENA_VERSION_FIELD_NUMBER: _ClassVar[int]
    SERVER_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    stream_id: str
    arena_version: str
    server_signature: bytes
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., stream_id: _Optional[str] = ..., arena_version: _Optional[str] = ..., server_signature: _Optional[bytes] = ...) -> None: ...

class VariantOptions(_message.Message):
    __slots__ = ("variant", "seats", "target", "flor", "falta_envido", "pico_a_pico")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    FLOR_FIELD_NUMBER: _ClassVar[int]
    FALTA_ENVIDO_FIELD_NUMBER: _ClassVar[int]
    PICO_A_PICO_FIELD_NUMBER: _ClassVar[int]
    variant: str
    seats: int
    target: int
    flor: bool
    falta_envido: str
    pico_a_pico: bool
    def __init__(self, variant: _Optional[str] = ..., seats: _Optional[int] = ..., target: _Optional[int] = ..., flor: _Optional[bool] = ..., falta_envido: _Optional[str] = ..., pico_a_pico: _Optional[bool] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("move_time_ms", "bank_ms")
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    move_time_ms: int
    bank_ms: int
    def __init__(self, move_time_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "team", "bot_name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    bot_name: str
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., bot_name: _Optional[str] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("game_id", "seat", "seats", "options", "time_control", "rng_seed")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    RNG_SEED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    options: VariantOptions
    time_control: TimeControl
    rng_seed: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., options: _Optional[_Union[VariantOptions, _Mapping]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., rng_seed: _Optional[int] = ...) -> None: ...

class SeatAction(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ...) -> None: ...

class PlayedCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[PlayedCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[PlayedCard, _Mapping]]] = ...) -> None: ...

class TrickResult(_message.Message):
    __slots__ = ("team",)
    TEAM_FIELD_NUMBER: _ClassVar[int]
    team: int
    def __init__(self, team: _Optional[int] = ...) -> None: ...

class PendingCall(_message.Message):
    __slots__ = ("chain", "calls", "caller", "answerer", "stake")
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    ANSWERER_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    chain: str
    calls: _containers.RepeatedScalarFieldContainer[str]
    caller: int
    answerer: int
    stake: int
    def __init__(self, chain: _Optional[str] = ..., calls: _Optional[_Iterable[str]] = ..., caller: _Optional[int] = ..., answerer: _Optional[int] = ..., stake: _Optional[int] = ...) -> None: ...

class Announcement(_message.Message):
    __slots__ = ("kind", "seat", "points")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    points: int
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "variant", "seats", "target", "scores", "hand_number", "mano", "hand_seats", "pico", "up_card", "hand", "dealt", "hand_start_scores", "history", "tricks", "trick_winners", "truco_level", "truco_value", "pending", "announced", "flor_declared", "to_act", "events")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MANO_FIELD_NUMBER: _ClassVar[int]
    HAND_SEATS_FIELD_NUMBER: _ClassVar[int]
    PICO_FIELD_NUMBER: _ClassVar[int]
    UP_CARD_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    HAND_START_SCORES_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_WINNERS_FIELD_NUMBER: _ClassVar[int]
    TRUCO_LEVEL_FIELD_NUMBER: _ClassVar[int]
    TRUCO_VALUE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    FLOR_DECLARED_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    variant: str
    seats: int
    target: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    hand_number: int
    mano: int
    hand_seats: _containers.RepeatedScalarFieldContainer[int]
    pico: bool
    up_card: str
    hand: _containers.RepeatedScalarFieldContainer[str]
    dealt: _containers.RepeatedScalarFieldContainer[str]
    hand_start_scores: _containers.RepeatedScalarFieldContainer[int]
    history: _containers.RepeatedCompositeFieldContainer[SeatAction]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    trick_winners: _containers.RepeatedCompositeFieldContainer[TrickResult]
    truco_level: int
    truco_value: int
    pending: PendingCall
    announced: _containers.RepeatedCompositeFieldContainer[Announcement]
    flor_declared: _containers.RepeatedScalarFieldContainer[int]
    to_act: int
    events: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., variant: _Optional[str] = ..., seats: _Optional[int] = ..., target: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., hand_number: _Optional[int] = ..., mano: _Optional[int] = ..., hand_seats: _Optional[_Iterable[int]] = ..., pico: _Optional[bool] = ..., up_card: _Optional[str] = ..., hand: _Optional[_Iterable[str]] = ..., dealt: _Optional[_Iterable[str]] = ..., hand_start_scores: _Optional[_Iterable[int]] = ..., history: _Optional[_Iterable[_Union[SeatAction, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., trick_winners: _Optional[_Iterable[_Union[TrickResult, _Mapping]]] = ..., truco_level: _Optional[int] = ..., truco_value: _Optional[int] = ..., pending: _Optional[_Union[PendingCall, _Mapping]] = ..., announced: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., flor_declared: _Optional[_Iterable[int]] = ..., to_act: _Optional[int] = ..., events: _Optional[_Iterable[str]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("game_id", "seq", "observation", "legal_actions", "move_time_ms", "bank_ms", "padding")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    PADDING_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    observation: Observation
    legal_actions: _containers.RepeatedScalarFieldContainer[str]
    move_time_ms: int
    bank_ms: int
    padding: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[str]] = ..., move_time_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., padding: _Optional[_Iterable[bytes]] = ...) -> None: ...

class ShownCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class HandEnd(_message.Message):
    __slots__ = ("game_id", "hand_number", "scores", "shown", "history", "trick_winners", "events", "padding")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    TRICK_WINNERS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    PADDING_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    hand_number: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    shown: _containers.RepeatedCompositeFieldContainer[ShownCards]
    history: _containers.RepeatedCompositeFieldContainer[SeatAction]
    trick_winners: _containers.RepeatedCompositeFieldContainer[TrickResult]
    events: _containers.RepeatedScalarFieldContainer[str]
    padding: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, game_id: _Optional[str] = ..., hand_number: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., shown: _Optional[_Iterable[_Union[ShownCards, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[SeatAction, _Mapping]]] = ..., trick_winners: _Optional[_Iterable[_Union[TrickResult, _Mapping]]] = ..., events: _Optional[_Iterable[str]] = ..., padding: _Optional[_Iterable[bytes]] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("game_id", "scores", "winner_team", "won", "termination", "faulty_seat", "hands_played", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNER_TEAM_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    FAULTY_SEAT_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    scores: _containers.RepeatedScalarFieldContainer[int]
    winner_team: int
    won: bool
    termination: Termination
    faulty_seat: int
    hands_played: int
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ..., winner_team: _Optional[int] = ..., won: _Optional[bool] = ..., termination: _Optional[_Union[Termination, str]] = ..., faulty_seat: _Optional[int] = ..., hands_played: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class Status(_message.Message):
    __slots__ = ("code", "message", "game_id", "seq", "closing", "restarting", "signature")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    CLOSING_FIELD_NUMBER: _ClassVar[int]
    RESTARTING_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    code: StatusCode
    message: str
    game_id: str
    seq: int
    closing: bool
    restarting: bool
    signature: bytes
    def __init__(self, code: _Optional[_Union[StatusCode, str]] = ..., message: _Optional[str] = ..., game_id: _Optional[str] = ..., seq: _Optional[int] = ..., closing: _Optional[bool] = ..., restarting: _Optional[bool] = ..., signature: _Optional[bytes] = ...) -> None: ...
