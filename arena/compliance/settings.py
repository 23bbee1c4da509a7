"""The knobs of a compliance run."""

from __future__ import annotations

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
    dir: Path | None = None  # the bot's folder: its working folder, and what its sandbox shows

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
