"""The knobs of a compliance run."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from arena.games.settings import ConfigError
from arena.server import TimeControl
from arena.server.tokens import check_name

# In-process opponents; the bot under test may not take these names.
OPPONENT_NAME = "compliance-opponent"
STALLER_NAME = "compliance-staller"
RESERVED_NAMES = (OPPONENT_NAME, STALLER_NAME)


@dataclass(frozen=True, slots=True)
class CheckSettings:
    command: tuple[str, ...]  # the bot's command line, as a tournament config gives it
    log_dir: Path  # the bot's stderr goes to LOG_DIR/NAME.log
    name: str = "checked-bot"
    games: int = 3  # games in a row for the "series" check
    move_seconds: float = 1.0
    bank_seconds: float = 5.0
    # How long to wait for the bot to connect, to reconnect, and to read what
    # the arena sends it.
    timeout: float = 10.0
    streams: int = 3  # passed to the bot; 6-seat games need 3
    seed: int = 1  # deals and the seeds given to the bots
    sandbox: bool = False  # launch the bot in the tournaments' sandbox (arena/sandbox)
    # The folder the sandbox shows the bot; None: the folder of its script or program (``bot_folder``)
    dir: Path | None = None

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
