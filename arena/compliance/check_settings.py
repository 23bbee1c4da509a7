"""The knobs of a compliance run."""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

from arena.games.settings import ConfigError
from arena.server import TimeControl
from arena.server.tokens import check_name

# Former names of the checker's opponents, still refused for the bot under
# test. The opponents' names are now drawn for each run (``opponent_names``).
RESERVED_NAMES = ("compliance-opponent", "compliance-staller")
# The opponents' names are drawn from these, as bot authors name their bots
# (a word, sometimes a second one, a suffix or a number), so that a name
# says nothing about the check.
_WORDS = ("ancho", "basto", "espada", "copa", "oro", "siete", "mano", "pie", "envido", "truco", "retruco",
          "vale", "flor", "mazo", "quiero", "pampa", "gaucho", "mate", "pardo", "tero", "zorro", "puma",
          "carpincho", "rio", "sur", "norte", "luna", "sol", "viento", "rayo", "nacho", "pepe", "tano",
          "negro", "flaco", "chino", "ruso", "alpha", "beta", "deep", "mcts", "greedy", "smart", "lucky")
_SUFFIXES = ("", "", "", "bot", "ai", "v2", "pro", "x")
_SEPARATORS = ("-", "_", "")


def opponent_names(rng: random.Random, avoid: str, count: int = 2) -> tuple[str, ...]:
    """``count`` distinct bot names drawn like a league's entrants' (none ``avoid``)."""
    names: list[str] = []
    while len(names) < count:
        parts = [rng.choice(_WORDS)]
        if rng.random() < 0.4:
            parts.append(rng.choice(_WORDS))
        suffix = rng.choice(_SUFFIXES) if rng.random() < 0.6 else str(rng.randrange(1, 100))
        if suffix:
            parts.append(suffix)
        name = rng.choice(_SEPARATORS).join(parts)
        if name != avoid and name not in names and name not in RESERVED_NAMES:
            names.append(name)
    return tuple(names)


def default_name(command: tuple[str, ...]) -> str:
    """The name a bot is checked under when none is given: its module,
    script or program's name (``python -m pkg.mybot``, ``python mybot.py``,
    ``./mybot``: "mybot"), as a tournament config would name it, not a name
    that says "check"; "bot" when none is usable."""
    stem = ""
    for i, arg in enumerate(command):
        if i > 0 and command[i - 1] == "-m":
            stem = arg.rsplit(".", 1)[-1]
            break
        if i > 0 and arg.endswith(".py"):
            stem = Path(arg).stem
            break
    if not stem and command:
        stem = Path(command[0]).name
    stem = re.sub(r"[^A-Za-z0-9_.-]", "-", stem).lstrip("._-")[:64]
    return stem if stem and stem not in RESERVED_NAMES else "bot"


@dataclass(frozen=True, slots=True)
class CheckSettings:
    command: tuple[str, ...]
    """The bot's command line, as a tournament config gives it."""
    log_dir: Path
    """The bot's stderr goes to LOG_DIR/NAME.log."""
    name: str = ""
    """The bot's name; "": ``default_name`` of the command."""
    games: int = 3
    """Games in a row for the "series" check."""
    move_seconds: float = 2.0
    """The clock of a tournament or league that sets none, as everything the bot sees is drawn
    like theirs.
    """
    bank_seconds: float = 30.0
    timeout: float = 10.0
    """How long to wait for the bot to connect, to reconnect, and to read what the arena sends
    it.
    """
    streams: int = 3
    """Passed to the bot; 6-seat games need 3."""
    seed: int | None = None
    """The deals, game ids, seeds and opponents' names of the run; None: fresh ones each run (a
    fixed set would let a bot learn the check's deals).
    """
    sandbox: bool = False
    """Launch the bot in the tournaments' sandbox (arena/sandbox)"""
    dir: Path | None = None
    """The folder the sandbox shows the bot; None: the folder of its script or program
    (``bot_folder``)
    """

    def bot_folder(self) -> tuple[tuple[str, ...], Path | None]:
        """The command with its program and script paths made absolute, and
        the folder the sandbox shows: ``dir``, else the folder of the first
        script argument (``python bot.py``), else of the program (``./mybot``)."""
        command = list(self.command)
        script: Path | None = None
        program: Path | None = None
        for i, arg in enumerate(command):
            if i == 0 and "/" in arg:
                command[0] = os.path.abspath(arg)  # not resolved: a venv's python is a link that must stay one
                if not Path(arg).name.startswith("python"):  # an interpreter's folder is not the bot's
                    program = Path(command[0]).parent
            elif i > 0 and arg.endswith(".py") and Path(arg).is_file():
                command[i] = os.path.abspath(arg)
                script = script or Path(command[i]).parent
        folder = self.dir.resolve() if self.dir is not None else script or program
        return tuple(command), folder

    def __post_init__(self) -> None:
        if not self.command:
            raise ConfigError("no bot command given")
        if not self.name:
            object.__setattr__(self, "name", default_name(self.command))
        check_name(self.name)
        if self.name in RESERVED_NAMES:
            raise ConfigError(f"bot name {self.name!r} is used by the checker's own opponents; pick another")
        if self.games < 1:
            raise ConfigError(f"games must be >= 1, got {self.games}")
        if self.timeout <= 0:
            raise ConfigError(f"timeout must be > 0, got {self.timeout}")
        if self.streams < 1:
            raise ConfigError(f"streams must be >= 1, got {self.streams}")
        TimeControl(self.move_seconds, self.bank_seconds)  # raises ValueError on bad values

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.move_seconds, self.bank_seconds)
