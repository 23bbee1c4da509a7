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
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Options
from ..games.playing import PlaySettings
from ..games.schedule import Pairing
from ..games.settings import (
    DEFAULT_TIME_CONTROL,
    MAX_CONCURRENCY,
    PAIRINGS,
    ConfigError,
    check_address,
    expect,
    known_keys,
    name_and_game,
    one_of,
    parse_time_control,
    read_toml,
    seconds,
    whole,
)
from ..protocol.stdio import GRPC, PROTOCOLS
from ..sandbox import BOUNDS, LIMIT_KEYS, Containment, Limits, SandboxMode, SandboxUnavailableError, find_bwrap, probe
from ..server import TimeControl
from ..server.tokens import TokenFileError, check_name, load_tokens
from .formats import KEYS as FORMAT_KEYS
from .formats import AnyFormat, Field, format_of
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
TEAM_SEATS = (2, 4, 6)  # 2: one bot a side; 4 and 6: one bot plays a whole team
# "python" in a command means the arena's own interpreter (see launcher).
PYTHON_ALIASES = ("python", "python3")


@dataclass(frozen=True)
class BotSpec:
    name: str
    command: tuple[str, ...] | None = None  # None: the bot connects by itself
    # The bot's folder (absolute): its working folder, and all of the
    # organizer's files its sandbox shows it. None: it sees none of them.
    dir: Path | None = None
    env: tuple[tuple[str, str], ...] = ()  # extra environment variables, as given
    limits: Limits = Limits()  # what each of its processes may use in its sandbox
    # "grpc": the command dials the arena itself; "stdio": it speaks JSON lines
    # on stdin/stdout and the SDK's bridge dials for it (docs/protocol.md, "Stdio bots")
    protocol: str = GRPC


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    variant: str
    options: Options
    bots: tuple[BotSpec, ...]
    games_per_pairing: int = 10
    pairing: Pairing = Pairing.DUPLICATE
    seed: int | None = None  # None: a fresh secret, deals nobody can predict
    concurrency: int = 1
    time_control: TimeControl = DEFAULT_TIME_CONTROL
    address: str = "127.0.0.1:0"  # where the arena listens; external bots need a fixed port
    tokens: str | None = None  # token file for external bots
    tls_cert: str | None = None  # PEM certificate and key: the arena serves TLS only
    tls_key: str | None = None
    absent_wait: float = DEFAULT_ABSENT_WAIT  # seconds a missing bot is waited for before it forfeits
    raw: dict[str, Any] = field(default_factory=dict, compare=False)  # as read, stored with results
    format: AnyFormat = RoundRobin()  # its keys, checks and scheduler (arena/tournament/formats/)
    # independent pairing: the bot in seat 0 alternates between the two bots; false: the first in config order keeps it
    alternate_seats: bool = True
    scale: ScaleOut = ScaleOut()  # workers, or a Ray cluster (docs/scaling.md)
    sandbox: SandboxMode = SandboxMode.BWRAP  # every launched bot in a sandbox (docs/sandbox.md)
    # "full": refuse to start where memory, processes or CPU cannot be limited per bot; "best-effort": run anyway
    containment: Containment = Containment.FULL
    start_seconds: float = DEFAULT_START_SECONDS  # every launched bot says hello within this, or the run stops
    base_dir: Path | None = field(default=None, compare=False)  # the config file's folder: relative paths start here

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


_TOP = {"name", "variant", "options", "bots", "games_per_pairing", "pairing", "seed", "concurrency",
        "time_control", "address", "tokens", "tls_cert", "tls_key", "absent_wait_seconds", *FORMAT_KEYS,
        "workers", "ray", "ray_runtime_env", "batch_pairs", "sandbox", "containment", "limits",
        "start_seconds", "alternate_seats"}
_BOT_KEYS = ("name", "command", "args", "dir", "env", "protocol", *LIMIT_KEYS)


def _limits(table: dict[str, Any], where: str, base: Limits) -> Limits:
    """The limits keys of ``table`` over ``base``; each a whole number within BOUNDS."""
    values = {}
    for key in LIMIT_KEYS:
        if key in table:
            values[key] = whole(table[key], f"{where}{key}", *BOUNDS[key])
    return dataclasses.replace(base, **values)


def _default_limits(data: dict[str, Any]) -> Limits:
    table = expect(data.get("limits", {}), dict, "limits", "a table")
    known_keys(table, LIMIT_KEYS, "limits.")
    return _limits(table, "limits.", Limits())


def _sandbox(data: dict[str, Any]) -> SandboxMode:
    return one_of(data.get("sandbox", SandboxMode.BWRAP.value), SandboxMode, "sandbox",
                  '"bwrap" or "none" (for bot code you trust)')


def _containment(data: dict[str, Any]) -> Containment:
    return one_of(data.get("containment", Containment.FULL.value), Containment, "containment",
                  '"full" or "best-effort" (run where memory, processes or CPU cannot be limited per bot)')


# Variables the sandbox's own start, or the bot's interpreter, depends on: a
# bot's env may not change them (the sandbox sets PATH, HOME, PYTHONPATH).
_RESERVED_ENV = ("PATH", "HOME", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "IFS", "ENV",
                 "BASH_ENV", "SHELL", "TMPDIR", "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES")
_RESERVED_PREFIXES = ("LD_", "MALLOC_", "GLIBC_")


def _reserved(key: str) -> bool:
    return key in _RESERVED_ENV or key.startswith(_RESERVED_PREFIXES)


def _command(b: dict[str, Any], where: str) -> list[str] | None:
    command = b.get("command")
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"{where}.command: cannot split {command!r}: {exc}") from None
    if command is None:
        if "args" in b:
            raise ConfigError(f"{where}.args: only with a command")
        return None
    expect(command, list, f"{where}.command", "a command line (string or list)")
    args = expect(b.get("args", []), list, f"{where}.args", "a list of strings")
    command = list(command) + list(args)
    if not command or not all(isinstance(c, str) and c for c in command):
        raise ConfigError(f"{where}.command: expected a non-empty list of non-empty strings")
    if any("\0" in c for c in command):
        raise ConfigError(f"{where}.command: contains a NUL character")
    return command


def _env(b: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    table = expect(b.get("env", {}), dict, f"{where}.env", "a table of strings")
    if len(table) > MAX_ENV_VARS:
        raise ConfigError(f"{where}.env: at most {MAX_ENV_VARS} variables, got {len(table)}")
    out = []
    for key, value in table.items():
        if not (key.isascii() and (key.replace("_", "a").isalnum()) and not key[0].isdigit()):
            raise ConfigError(f"{where}.env: {key!r} is not a variable name (letters, digits, _)")
        if key.startswith("TRUCO_ARENA_"):
            raise ConfigError(f"{where}.env.{key}: the TRUCO_ARENA_ variables are set by the arena")
        if _reserved(key):
            raise ConfigError(f"{where}.env.{key}: bot {b.get('name', '?')} may not set {key}: the sandbox's "
                              f"own start depends on it (PATH, HOME, PYTHONPATH and LD_* are the arena's)")
        expect(value, str, f"{where}.env.{key}", "a string")
        if "\0" in value:
            raise ConfigError(f"{where}.env.{key}: contains a NUL character")
        out.append((key, value))
    return tuple(out)


def _from_base(path: str | None, base: Path | None) -> str | None:
    """A path of the config: a relative one starts from the config file's folder."""
    if path is None or base is None or Path(path).is_absolute():
        return path
    return str(base / path)


def _bot_dir(b: dict[str, Any], where: str, base: Path | None) -> Path | None:
    given = expect(b.get("dir"), (str, type(None)), f"{where}.dir", "a folder path")
    if given is None:
        return None
    if not given or "\0" in given:
        raise ConfigError(f"{where}.dir: expected a folder path, got {given!r}")
    path = Path(given).expanduser()
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    return Path(os.path.realpath(path))


def _bots(data: dict[str, Any], base: Path | None, limits: Limits) -> tuple[BotSpec, ...]:
    bots_data = expect(data.get("bots"), list, "bots", "a list of [[bots]] tables")
    bots: list[BotSpec] = []
    for i, b in enumerate(bots_data):
        where = f"bots[{i}]"
        expect(b, dict, where, "a table")
        known_keys(b, _BOT_KEYS, f"{where}.")
        name = expect(b.get("name"), str, f"{where}.name", "a bot name")
        try:
            check_name(name)  # the rule the arena's tokens apply: a name it accepts can connect
        except ValueError as exc:
            raise ConfigError(f"{where}.name: {exc}") from None
        if any(x.name == name for x in bots):
            raise ConfigError(f"{where}.name: {name!r} appears twice")
        command = _command(b, where)
        launched_only = [k for k in ("dir", "env", "protocol", *LIMIT_KEYS) if k in b]
        if command is None and launched_only:
            raise ConfigError(f"{where}.{launched_only[0]}: only for a bot the arena launches (give a command)")
        bots.append(BotSpec(name, tuple(command) if command else None, _bot_dir(b, where, base), _env(b, where),
                            _limits(b, f"{where}.", limits), _protocol(b, where)))
    if len(bots) < 2:
        raise ConfigError("bots: a tournament needs at least two bots")
    return tuple(bots)


def _protocol(b: dict[str, Any], where: str) -> str:
    protocol = b.get("protocol", GRPC)
    if protocol not in PROTOCOLS:
        raise ConfigError(f"{where}.protocol: expected {' or '.join(map(repr, PROTOCOLS))}, got {protocol!r}")
    return str(protocol)


def _pairing(data: dict[str, Any], bots: tuple[BotSpec, ...], games: int) -> Pairing:
    given = data.get("pairing")
    if given is None:
        pairing = Pairing.DUPLICATE if all(b.command is not None for b in bots) else Pairing.INDEPENDENT
    else:
        pairing = one_of(given, Pairing, "pairing", PAIRINGS)
    if pairing is Pairing.DUPLICATE and games % 2:
        raise ConfigError(f"games_per_pairing: must be even with duplicate pairing (each deal is played "
                          f"twice), got {games}")
    return pairing


def parse_config(data: dict[str, Any], default_name: str = "tournament", base: Path | None = None
                 ) -> TournamentConfig:
    """The config in ``data``; relative paths in it are relative to ``base``
    (the config file's folder), or to the current folder if None."""
    known_keys(data, _TOP)
    name, variant, options = name_and_game(data, default_name)
    tls_cert = expect(data.get("tls_cert"), (str, type(None)), "tls_cert", "a path")
    tls_key = expect(data.get("tls_key"), (str, type(None)), "tls_key", "a path")
    if (tls_cert is None) != (tls_key is None):
        raise ConfigError("tls_cert, tls_key: give both or neither")
    if options.seats not in TEAM_SEATS:
        raise ConfigError(f"options.seats: tournaments run 2-, 4- or 6-seat games, got {options.seats}")
    games = expect(data.get("games_per_pairing", 10), int, "games_per_pairing", "a whole number")
    if games < 1:
        raise ConfigError(f"games_per_pairing: must be at least 1, got {games}")
    seed = expect(data.get("seed"), (int, type(None)), "seed", "a whole number")
    concurrency = whole(data.get("concurrency", 1), "concurrency", 1, MAX_CONCURRENCY)
    time_control = parse_time_control(data)
    absent_wait = seconds(data, "absent_wait_seconds", DEFAULT_ABSENT_WAIT, 0.0, MAX_ABSENT_WAIT)
    start_seconds = seconds(data, "start_seconds", DEFAULT_START_SECONDS, 0.1, MAX_START_SECONDS)
    sandbox = _sandbox(data)
    containment = _containment(data)
    bots = _bots(data, base, _default_limits(data))
    # Before anything is built: the schedule's size is known from two numbers.
    total = games_in(len(bots), games)
    if total > MAX_GAMES:
        raise ConfigError(f"games_per_pairing: {games} games for each of {total // games} pairings is "
                          f"{total} games, more than the {MAX_GAMES} a tournament may have")
    pairing = _pairing(data, bots, games)
    alternate = expect(data.get("alternate_seats", True), bool, "alternate_seats", "true or false")
    if not alternate and pairing is not Pairing.INDEPENDENT:
        raise ConfigError('alternate_seats: only with pairing = "independent" (a duplicate pair swaps the seats)')
    fmt = format_of(data, Field(tuple(b.name for b in bots), games, pairing, concurrency, alternate))
    tokens = expect(data.get("tokens"), (str, type(None)), "tokens", "a path")
    if tokens is not None and (not tokens or "\0" in tokens):
        raise ConfigError(f"tokens: expected a file path, got {tokens!r}")
    return TournamentConfig(
        name=name,
        variant=variant,
        options=options,
        bots=bots,
        games_per_pairing=games,
        pairing=pairing,
        seed=seed,
        concurrency=concurrency,
        time_control=time_control,
        address=check_address(expect(data.get("address", "127.0.0.1:0"), str, "address", "HOST:PORT")),
        tokens=_from_base(tokens, base),
        tls_cert=_from_base(tls_cert, base),
        tls_key=_from_base(tls_key, base),
        absent_wait=absent_wait,
        raw=data,
        format=fmt,
        alternate_seats=alternate,
        scale=_scale(data),
        sandbox=sandbox,
        containment=containment,
        start_seconds=start_seconds,
        base_dir=base,
    )


def _scale(data: dict[str, Any]) -> ScaleOut:
    workers = None if data.get("workers") is None else whole(data["workers"], "workers", 1, MAX_WORKERS)
    ray = expect(data.get("ray"), (str, type(None)), "ray", "a Ray cluster address (HOST:PORT, or auto)")
    if ray is not None and (not ray or not ray.isprintable()):
        raise ConfigError(f"ray: expected a Ray cluster address, got {ray!r}")
    runtime_env = expect(data.get("ray_runtime_env"), (dict, type(None)), "ray_runtime_env", "a table")
    if runtime_env is not None and ray is None:
        raise ConfigError("ray_runtime_env: only with ray (a Ray cluster address)")
    batch = None if data.get("batch_pairs") is None else whole(data["batch_pairs"], "batch_pairs", 1, MAX_GAMES)
    return ScaleOut(workers=workers, ray_address=ray, ray_runtime_env=runtime_env, batch_pairs=batch)


def stored_form(config: TournamentConfig) -> dict[str, Any]:
    """What a results database keeps of ``config`` (``meta.config``): the file as read."""
    return config.raw


def with_overrides(config: TournamentConfig, **keys: Any) -> TournamentConfig:
    """``config`` with the given top-level keys (those not None) set as if the
    file said so: the command line's ``--concurrency``, ``--seed``..."""
    given = {k: v for k, v in keys.items() if v is not None}
    return parse_config({**config.raw, **given}, default_name=config.name, base=config.base_dir)


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
