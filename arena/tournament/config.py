"""Tournament configuration from a TOML file; every problem is a ConfigError
whose message starts with the key it is about.

Example::

    name = "weekly"
    variant = "uruguayo"
    games_per_pairing = 20     # duplicate pairing: an even number
    pairing = "duplicate"      # or "independent"; default: see below
    seed = 42                  # optional: makes the run reproducible AND its deals predictable
    concurrency = 4            # games at once (in each worker)
    workers = 2                # worker processes, each with its own arena and bots; default: one per core
    absent_wait_seconds = 60   # how long a missing bot is waited for before it forfeits its games

    [options]                  # overrides of the variant preset; seats = 4 or 6: team games
    target = 30

    [time_control]
    move_seconds = 2.0         # allowance per decision, 0.01 <= x <= 3600
    bank_seconds = 30.0        # extra time over a whole game, 0 <= x <= 86400

    [[bots]]
    name = "random"
    command = ["python", "-m", "sample_bots.random_bot"]

    [[bots]]
    name = "mybot"             # no command: it connects by itself with a token

``pairing`` defaults to "duplicate" when the arena launches every bot (code
under test, trusted) and to "independent" as soon as one bot connects by
itself (docs/fair-play.md explains why).

With ``options.seats`` 4 or 6 every game is a team game between two bots:
each plays all the seats of its team (docs/protocol.md, "Team games").

Scaling out (docs/scaling.md): ``workers`` worker processes (default: one per
core) each run an arena of their own with their own copies of the launched
bots; ``ray = "HOST:PORT"`` runs them as tasks on a Ray cluster instead,
with ``ray_runtime_env`` (a Ray runtime environment) to bring the bots to
every node and ``batch_pairs`` duplicate pairs per task. Games with a bot
that connects by itself are played on the tournament's own arena.

A results database keeps ``canonical(config)``: the config as a document of
these same keys, every one spelled out, that ``parse_config`` reads back into
the same value (docs/results-store.md).
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from ..engine import Options
from ..games.playing import PlaySettings
from ..games.schedule import Pairing
from ..games.settings import (
    DEFAULT_TIME_CONTROL,
    MAX_CONCURRENCY,
    ClockTable,
    ConfigError,
    bounds,
    check_address,
    decode,
    one_of,
    read_toml,
    rules,
)
from ..protocol.stdio import GRPC, PROTOCOLS
from ..sandbox import BOUNDS, LIMIT_KEYS, Containment, Limits, SandboxMode, SandboxUnavailableError, find_bwrap, probe
from ..server import TimeControl
from ..server.tokens import TokenFileError, check_name, load_tokens
from .formats import KEYS as FORMAT_KEYS
from .formats import AnyFormat, Field, format_in
from .formats.match_plan import MatchPlan, Windowed
from .formats.round_robin import RoundRobin, games_in
from .scale import MAX_WORKERS, ScaleOut

# The schedule is built in memory, a few hundred bytes per game: 10 million
# games is a few GB already and years of play.
MAX_GAMES = 10_000_000
# A bot that is not connected (or crashed for good) is waited for this long,
# then loses every game it cannot play; the run goes on with the others.
DEFAULT_ABSENT_WAIT = 60.0
MAX_ABSENT_WAIT = 86400.0
# Every launched bot must have said hello this soon after it was started,
# before the first game; one that cannot start stops the run at once.
DEFAULT_START_SECONDS = 30.0
MAX_START_SECONDS = 3600.0
MAX_ENV_VARS = 100
# The version of the canonical encoding a results database keeps (``canonical``).
# A stored config without the key was stored as its file said it (before
# version 1) and reads the same way; a later version, one this code does not
# know, is refused rather than read with the wrong meaning.
SPEC_VERSION = 1
TEAM_SEATS = (2, 4, 6)  # 2: one bot a side; 4 and 6: one bot plays a whole team
# "python" in a command means the arena's own interpreter (see launcher).
PYTHON_ALIASES = ("python", "python3")


@dataclass(frozen=True)
class BotSpec:
    """One bot of a tournament, as the arena launches it or waits for it."""

    name: str
    command: tuple[str, ...] | None = None
    """The command line; None: the bot connects by itself."""
    dir: Path | None = None
    """The bot's folder (absolute): its working folder, and all of the
    organizer's files its sandbox shows it. None: it sees none of them."""
    env: tuple[tuple[str, str], ...] = ()
    """Extra environment variables, as given."""
    limits: Limits = Limits()
    """What each of its processes may use in its sandbox."""
    protocol: str = GRPC
    """"grpc": the command dials the arena itself; "stdio": it speaks JSON lines
    on stdin/stdout and the SDK's bridge dials for it (docs/protocol.md, "Stdio bots")."""


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament as its file says it, checked (the module's docstring shows the keys)."""

    name: str
    variant: str
    options: Options
    bots: tuple[BotSpec, ...]
    games_per_pairing: int = 10
    pairing: Pairing = Pairing.DUPLICATE
    seed: int | None = None
    """None: a fresh secret, deals nobody can predict."""
    concurrency: int = 1
    """Games at once (in each worker)."""
    time_control: TimeControl = DEFAULT_TIME_CONTROL
    address: str = "127.0.0.1:0"
    """Where the arena listens; external bots need a fixed port."""
    tokens: str | None = None
    """The token file of the bots that connect by themselves."""
    tls_cert: str | None = None
    """PEM certificate and key: the arena serves TLS only."""
    tls_key: str | None = None
    absent_wait: float = DEFAULT_ABSENT_WAIT
    """Seconds a missing bot is waited for before it forfeits."""
    format: AnyFormat = RoundRobin()
    """Its keys, checks and scheduler (arena/tournament/formats/)."""
    alternate_seats: bool = True
    """Independent pairing: the bot in seat 0 alternates between the two bots;
    False: the first in config order keeps it."""
    scale: ScaleOut = field(default=ScaleOut(), compare=False)
    """Workers, or a Ray cluster (docs/scaling.md): what the file asks for; a
    run resolves it into its ``RunPlan``, and it makes no two tournaments differ."""
    sandbox: SandboxMode = SandboxMode.BWRAP
    """Every launched bot in a sandbox (docs/sandbox.md)."""
    containment: Containment = Containment.FULL
    """"full": refuse to start where memory, processes or CPU cannot be limited per bot; "best-effort": run anyway."""
    start_seconds: float = DEFAULT_START_SECONDS
    """Every launched bot says hello within this, or the run stops."""
    base_dir: Path | None = field(default=None, compare=False)
    """The config file's folder: relative paths start here."""

    @property
    def play_settings(self) -> PlaySettings:
        return PlaySettings(self.options, self.time_control)

    @property
    def match(self) -> MatchPlan | None:
        """What a match or gauntlet follows; None for the other formats."""
        return self.format.plan([b.name for b in self.bots]) if isinstance(self.format, Windowed) else None

    @property
    def field(self) -> Field:
        """What the format is given of the rest of the config."""
        return Field(tuple(b.name for b in self.bots), self.games_per_pairing, self.pairing, self.concurrency,
                     self.alternate_seats)

    @property
    def seats_per_bot(self) -> int:
        """Seats each bot of a game plays: 1, or 2/3 in a 4/6-seat team game."""
        return self.options.seats // 2


class _LimitsTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Sandbox limits of each of a bot's processes (``arena.sandbox.limits``), as
    written in ``[limits]`` or a ``[[bots]]`` table; none given: the default."""

    memory_mb: Annotated[int, bounds(*BOUNDS["memory_mb"])] | None = None
    processes: Annotated[int, bounds(*BOUNDS["processes"])] | None = None
    open_files: Annotated[int, bounds(*BOUNDS["open_files"])] | None = None
    scratch_mb: Annotated[int, bounds(*BOUNDS["scratch_mb"])] | None = None
    cpus: Annotated[int, bounds(*BOUNDS["cpus"])] | None = None
    log_mb: Annotated[int, bounds(*BOUNDS["log_mb"])] | None = None

    def over(self, base: Limits) -> Limits:
        """``base`` with the limits given here."""
        given = {k: getattr(self, k) for k in LIMIT_KEYS}
        return dataclasses.replace(base, **{k: v for k, v in given.items() if v is not None})


class _BotTable(_LimitsTable, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A ``[[bots]]`` table as written: types and keys checked by msgspec."""

    name: str
    """Its name in the tournament and in its token."""
    command: str | list[str] | None = None
    """How the arena launches it (a shell-like string or a list); none: it connects by itself."""
    args: list[str] | None = None
    """Arguments after the command."""
    dir: str | None = None
    """Its folder: its working folder and all of the organizer's files its sandbox shows it."""
    env: dict[str, str] | None = None
    """Extra environment variables."""
    protocol: str | None = None
    """"grpc": the command dials the arena itself; "stdio": it speaks JSON lines (docs/protocol.md)."""


class _Document(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The keys common to every format, as written in the file (the module's
    docstring shows them); a format's own keys are read by its class."""

    bots: list[_BotTable]
    name: str | None = None
    variant: str = "argentino"
    options: dict[str, Any] = {}
    games_per_pairing: Annotated[int, bounds(1)] = 10
    pairing: Pairing | None = None
    seed: int | None = None
    concurrency: Annotated[int, bounds(1, MAX_CONCURRENCY)] = 1
    time_control: ClockTable = ClockTable()
    address: str = "127.0.0.1:0"
    tokens: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    absent_wait_seconds: Annotated[float, bounds(0.0, MAX_ABSENT_WAIT)] = DEFAULT_ABSENT_WAIT
    start_seconds: Annotated[float, bounds(0.1, MAX_START_SECONDS)] = DEFAULT_START_SECONDS
    workers: Annotated[int, bounds(1, MAX_WORKERS)] | None = None
    ray: str | None = None
    ray_runtime_env: dict[str, Any] | None = None
    batch_pairs: Annotated[int, bounds(1, MAX_GAMES)] | None = None
    sandbox: str = SandboxMode.BWRAP.value
    containment: str = Containment.FULL.value
    limits: _LimitsTable = _LimitsTable()
    alternate_seats: bool = True
    spec_version: int | None = None
    """``SPEC_VERSION`` in a stored canonical config (``canonical``); absent in a file a person writes."""


_TOP = {*_Document.__struct_fields__, *FORMAT_KEYS}
_ROUND_ROBIN = RoundRobin()


# Variables the sandbox's own start, or the bot's interpreter, depends on: a
# bot's env may not change them (the sandbox sets PATH, HOME, PYTHONPATH).
_RESERVED_ENV = ("PATH", "HOME", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "IFS", "ENV",
                 "BASH_ENV", "SHELL", "TMPDIR", "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES")
_RESERVED_PREFIXES = ("LD_", "MALLOC_", "GLIBC_")


def _command(b: _BotTable, where: str) -> list[str] | None:
    command = b.command
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"{where}.command: cannot split {command!r}: {exc}") from None
    if command is None:
        if b.args is not None:
            raise ConfigError(f"{where}.args: only with a command")
        return None
    command = command + (b.args or [])
    if not command or not all(command):
        raise ConfigError(f"{where}.command: expected a non-empty list of non-empty strings")
    if any("\0" in c for c in command):
        raise ConfigError(f"{where}.command: contains a NUL character")
    return command


def _env(b: _BotTable, where: str) -> tuple[tuple[str, str], ...]:
    env = b.env or {}
    if len(env) > MAX_ENV_VARS:
        raise ConfigError(f"{where}.env: at most {MAX_ENV_VARS} variables, got {len(env)}")
    for key, value in env.items():
        if not (key.isascii() and (key.replace("_", "a").isalnum()) and not key[0].isdigit()):
            raise ConfigError(f"{where}.env: {key!r} is not a variable name (letters, digits, _)")
        if key.startswith("TRUCO_ARENA_"):
            raise ConfigError(f"{where}.env.{key}: the TRUCO_ARENA_ variables are set by the arena")
        if key in _RESERVED_ENV or key.startswith(_RESERVED_PREFIXES):
            raise ConfigError(f"{where}.env.{key}: bot {b.name} may not set {key}: the sandbox's "
                              f"own start depends on it (PATH, HOME, PYTHONPATH and LD_* are the arena's)")
        if "\0" in value:
            raise ConfigError(f"{where}.env.{key}: contains a NUL character")
    return tuple(sorted(env.items()))  # their order means nothing: equal sets of variables, equal bots


def _from_base(path: str | None, base: Path | None) -> str | None:
    """A path of the config: a relative one starts from the config file's folder."""
    if path is None or base is None or Path(path).is_absolute():
        return path
    return str(base / path)


def _bot_dir(b: _BotTable, where: str, base: Path | None) -> Path | None:
    if b.dir is None:
        return None
    if not b.dir or "\0" in b.dir:
        raise ConfigError(f"{where}.dir: expected a folder path, got {b.dir!r}")
    path = Path(b.dir).expanduser()
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    return Path(os.path.realpath(path))


def _bots(doc: _Document, base: Path | None, limits: Limits) -> tuple[BotSpec, ...]:
    bots: list[BotSpec] = []
    for i, b in enumerate(doc.bots):
        where = f"bots[{i}]"
        command = _command(b, where)
        launched_only = [k for k in ("dir", "env", "protocol", *LIMIT_KEYS) if getattr(b, k) is not None]
        if command is None and launched_only:
            raise ConfigError(f"{where}.{launched_only[0]}: only for a bot the arena launches (give a command)")
        protocol = b.protocol or GRPC
        if protocol not in PROTOCOLS:
            raise ConfigError(f"{where}.protocol: expected {' or '.join(map(repr, PROTOCOLS))}, got {protocol!r}")
        bots.append(BotSpec(b.name, tuple(command) if command else None, _bot_dir(b, where, base), _env(b, where),
                            b.over(limits), protocol))
    return tuple(bots)


def parse_config(data: dict[str, Any], default_name: str = "tournament", base: Path | None = None
                 ) -> TournamentConfig:
    """The config in ``data``; relative paths in it are relative to ``base``
    (the config file's folder), or to the current folder if None."""
    doc = decode({k: v for k, v in data.items() if k not in FORMAT_KEYS}, _Document, others=FORMAT_KEYS)
    if doc.spec_version is not None and doc.spec_version != SPEC_VERSION:
        raise ConfigError(f"spec_version: this truco-arena reads version {SPEC_VERSION}, the config says "
                          f"{doc.spec_version} (written by a newer truco-arena?)")
    options = rules(doc.variant, doc.options)
    if (doc.tls_cert is None) != (doc.tls_key is None):
        raise ConfigError("tls_cert, tls_key: give both or neither")
    sandbox = one_of(doc.sandbox, SandboxMode, "sandbox", '"bwrap" or "none" (for bot code you trust)')
    containment = one_of(doc.containment, Containment, "containment",
                         '"full" or "best-effort" (run where memory, processes or CPU cannot be limited per bot)')
    if doc.tokens is not None and (not doc.tokens or "\0" in doc.tokens):
        raise ConfigError(f"tokens: expected a file path, got {doc.tokens!r}")
    return tournament_config(
        doc.name if doc.name is not None else default_name, doc.variant, _bots(doc, base, doc.limits.over(Limits())),
        format_in(data), options=options,
        games_per_pairing=doc.games_per_pairing if "games_per_pairing" in data else None,
        pairing=doc.pairing,
        seed=doc.seed, concurrency=doc.concurrency, time_control=doc.time_control.clock,
        address=check_address(doc.address), tokens=_from_base(doc.tokens, base),
        tls_cert=_from_base(doc.tls_cert, base), tls_key=_from_base(doc.tls_key, base),
        absent_wait=doc.absent_wait_seconds, alternate_seats=doc.alternate_seats, scale=_scale(doc),
        sandbox=sandbox, containment=containment, start_seconds=doc.start_seconds, base_dir=base)


def tournament_config(name: str, variant: str, bots: Sequence[BotSpec], format: AnyFormat = _ROUND_ROBIN, *,
                      options: Options | None = None, games_per_pairing: int | None = None,
                      pairing: Pairing | None = None,
                      **more: Any) -> TournamentConfig:
    """A checked config from typed values, as a file read by ``parse_config``
    or a command (``demo``, ``match``, ``ladder``) gives them; a ConfigError
    names the key a file would have. ``options``: the variant's by default;
    ``games_per_pairing``: 10 if None (not given); ``pairing``: duplicate
    where every bot is launched, else independent; ``more``: the other
    fields of ``TournamentConfig``. What a store keeps of it is ``canonical``."""
    options = rules(variant, {}) if options is None else options
    if options.seats not in TEAM_SEATS:
        raise ConfigError(f"options.seats: tournaments run 2-, 4- or 6-seat games, got {options.seats}")
    for i, bot in enumerate(bots):
        try:
            check_name(bot.name)  # the rule the arena's tokens apply: a name it accepts can connect
        except ValueError as exc:
            raise ConfigError(f"bots[{i}].name: {exc}") from None
        if any(other.name == bot.name for other in bots[:i]):
            raise ConfigError(f"bots[{i}].name: {bot.name!r} appears twice")
    if len(bots) < 2:
        raise ConfigError("bots: a tournament needs at least two bots")
    games = 10 if games_per_pairing is None else games_per_pairing
    # Before anything is built: the schedule's size is known from two numbers.
    total = games_in(len(bots), games)
    if total > MAX_GAMES:
        raise ConfigError(f"games_per_pairing: {games} games for each of {total // games} pairings is "
                          f"{total} games, more than the {MAX_GAMES} a tournament may have")
    if pairing is None:
        pairing = Pairing.DUPLICATE if all(b.command is not None for b in bots) else Pairing.INDEPENDENT
    if pairing is Pairing.DUPLICATE and games % 2:
        raise ConfigError(f"games_per_pairing: must be even with duplicate pairing (each deal is played "
                          f"twice), got {games}")
    config = TournamentConfig(name, variant, options, tuple(bots), games, pairing, format=format, **more)
    if not config.alternate_seats and pairing is not Pairing.INDEPENDENT:
        raise ConfigError('alternate_seats: only with pairing = "independent" (a duplicate pair swaps the seats)')
    try:
        format.check(config.field, () if games_per_pairing is None else ("games_per_pairing",))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return config


def _scale(doc: _Document) -> ScaleOut:
    if doc.ray is not None and (not doc.ray or not doc.ray.isprintable()):
        raise ConfigError(f"ray: expected a Ray cluster address, got {doc.ray!r}")
    if doc.ray_runtime_env is not None and doc.ray is None:
        raise ConfigError("ray_runtime_env: only with ray (a Ray cluster address)")
    return ScaleOut(workers=doc.workers, ray_address=doc.ray, ray_runtime_env=doc.ray_runtime_env,
                    batch_pairs=doc.batch_pairs)


def canonical(config: TournamentConfig) -> dict[str, Any]:
    """``config`` as one document every reader decodes into the same value
    (``parse_config(canonical(c)) == c``): every key spelled out with its
    resolved value (defaults filled, the format's keys, each bot's limits and
    absolute folder), keys sorted at every level, ``spec_version`` set. Two
    equal configs give the same document, whatever their files looked like.

    Two kinds of key are left out where a config cannot hold them: a bot
    that connects by itself has no command, folder, env, protocol or limits
    (the top-level ``limits`` stand for it), and a match or gauntlet has no
    ``games_per_pairing``. The scale-out keys (``workers``, ``ray``...) are
    what the file asked of the machine, not part of the tournament: kept
    when the file gave them, so that a resume spreads the games as the file
    says, and never filled in."""
    external = next((b.limits for b in config.bots if b.command is None), Limits())
    scale = config.scale
    doc = _Document(
        spec_version=SPEC_VERSION,
        name=config.name,
        variant=config.variant,
        options={k: v for k, v in config.options.to_dict().items() if k != "variant"},
        bots=[_bot_table(b) for b in config.bots],
        games_per_pairing=config.games_per_pairing,
        pairing=config.pairing,
        seed=config.seed,
        concurrency=config.concurrency,
        time_control=ClockTable(config.time_control.move_time, config.time_control.bank),
        address=config.address,
        tokens=config.tokens,
        tls_cert=config.tls_cert,
        tls_key=config.tls_key,
        absent_wait_seconds=config.absent_wait,
        start_seconds=config.start_seconds,
        workers=scale.workers,
        ray=scale.ray_address,
        ray_runtime_env=scale.ray_runtime_env,
        batch_pairs=scale.batch_pairs,
        sandbox=config.sandbox.value,
        containment=config.containment.value,
        limits=_LimitsTable(**dataclasses.asdict(external)),
        alternate_seats=config.alternate_seats,
    )
    data: dict[str, Any] = msgspec.to_builtins(doc)
    for key in ("workers", "ray", "ray_runtime_env", "batch_pairs"):
        if data[key] is None:
            del data[key]
    if not config.format.uses_games_per_pairing:
        del data["games_per_pairing"]
    data["bots"] = [{k: v for k, v in b.items() if v is not None} for b in data["bots"]]  # null: not given
    data.update(msgspec.to_builtins(config.format))
    sorted_data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(data, order="sorted"))
    return sorted_data


def _bot_table(bot: BotSpec) -> _BotTable:
    if bot.command is None:
        return _BotTable(name=bot.name)
    return _BotTable(name=bot.name, command=list(bot.command), dir=None if bot.dir is None else str(bot.dir),
                     env=dict(bot.env), protocol=bot.protocol, **dataclasses.asdict(bot.limits))


def stored_form(config: TournamentConfig) -> dict[str, Any]:
    """What a results database keeps of ``config`` (``meta.config``): its
    canonical document. Files written before it keep the config as their
    file said it; ``parse_config`` reads both into the same value."""
    return canonical(config)


def with_overrides(config: TournamentConfig, **keys: Any) -> TournamentConfig:
    """``config`` with the given top-level keys (those not None) set as if the
    file said so: the command line's ``--concurrency``, ``--seed``..."""
    given = {k: v for k, v in keys.items() if v is not None}
    return parse_config({**canonical(config), **given}, default_name=config.name, base=config.base_dir)


def load_config(path: Path) -> TournamentConfig:
    return parse_config(read_toml(path, "tournament"), default_name=path.stem, base=path.resolve().parent)


def check_environment(config: TournamentConfig) -> None:
    """What the file alone cannot tell, checked before a run starts: the
    token file is a readable file, every bot's program can be found, and
    a bot without a command has a token file to log in with (else the run
    would only find out after absent_wait_seconds). A token missing from the
    file is not refused: the arena rereads the file, so it may be minted
    once the run has started."""
    if config.tokens is not None:
        path = Path(config.tokens)
        if path.is_dir():
            raise ConfigError(f"tokens: {path} is a directory, not a token file")
        if not path.is_file():
            raise ConfigError(f"tokens: no token file at {path} (create it with `truco-arena token mint`)")
        try:
            load_tokens(path)
        except OSError as exc:
            raise ConfigError(f"tokens: cannot read {path}: {exc.strerror}") from None
        except (TokenFileError, UnicodeDecodeError) as exc:
            raise ConfigError(f"tokens: {exc}") from None
    for i, bot in enumerate(config.bots):
        if bot.command is None:
            if config.tokens is None:
                raise ConfigError(f"bots[{i}]: {bot.name} has no command and the config no tokens file, so it can "
                                  f"never connect: give it a command, or add tokens = FILE and run "
                                  f"`truco-arena token mint {bot.name} --tokens FILE`")
            continue
        if bot.dir is not None and not bot.dir.is_dir():
            raise ConfigError(f"bots[{i}].dir: no folder at {bot.dir} (bot {bot.name})")
        program = bot.command[0]
        if "/" in program:
            where = bot.dir or config.base_dir or Path.cwd()
            if not os.access(where / program, os.X_OK):
                raise ConfigError(f"bots[{i}].command: {program!r} is not an executable file in {where} "
                                  f"(bot {bot.name})")
        elif program not in PYTHON_ALIASES and shutil.which(program) is None:
            raise ConfigError(f"bots[{i}].command: program {program!r} not found on PATH (bot {bot.name})")
        script = next((a for a in bot.command[1:] if not a.startswith("-")), None)
        if program in PYTHON_ALIASES and script is not None and script.endswith(".py") and "-m" not in bot.command \
                and "-c" not in bot.command and config.scale.ray_runtime_env is None:  # Ray uploads its own files
            # Named as the user wrote it, in the folder it is looked for in: a
            # sandboxed bot would otherwise fail naming a path inside its sandbox.
            where = bot.dir or config.base_dir or Path.cwd()
            if not (where / script).is_file():
                home = f"its dir {bot.dir}" if bot.dir is not None else f"{where} (no dir given)"
                raise ConfigError(f"bots[{i}].command: no script {script!r} in {home} (bot {bot.name})")
        if config.sandbox is SandboxMode.BWRAP and bot.dir is None:
            base = config.base_dir or Path.cwd()
            hidden = [a for a in bot.command[1:] if a.endswith(".py") and (base / a).exists()]
            if hidden:
                raise ConfigError(f"bots[{i}].dir: the sandbox shows a bot only its own folder; set dir for "
                                  f"{hidden[0]!r} (bot {bot.name})")
    if config.sandbox is SandboxMode.BWRAP and any(b.command is not None for b in config.bots):
        try:
            find_bwrap()
            probe(config.containment)
        except SandboxUnavailableError as exc:
            raise ConfigError(f"sandbox: {exc}") from None


def check_reachable(config: TournamentConfig, private: dict[str, Path]) -> None:
    """Refuse a bot folder that holds one of the arena's ``private`` files
    (results database, logs): the sandbox shows a bot its whole folder, and
    the database holds the deal secret."""
    for i, bot in enumerate(config.bots):
        if bot.dir is None or config.sandbox is SandboxMode.NONE:
            continue
        for what, path in private.items():
            resolved = Path(os.path.realpath(path))
            if resolved == bot.dir or bot.dir in resolved.parents:
                raise ConfigError(f"bots[{i}].dir: the {what} {path} is inside {bot.dir}, which bot {bot.name} "
                                  f"can read; keep bots in folders of their own")
