"""A standing arena: bots connect with a token whenever they like and the
league keeps scheduling games among the connected ones, recording each in
the same results store tournaments use (docs/league.md).

``serve_league`` serves one; ``League`` is the loop; ``pick`` the pure
matchmaker; ``LeagueConfig`` its TOML config.
"""

from .config import LeagueConfig, load_league_config, parse_league_config
from .database import LeagueDatabase, LeagueDatabaseError
from .league import League, serve_league
from .matchmaker import Entrant, Round, pick
from .status import LeagueStatus, StatusError

__all__ = [
    "Entrant", "League", "LeagueConfig", "LeagueDatabase", "LeagueDatabaseError", "LeagueStatus", "Round",
    "StatusError", "load_league_config", "parse_league_config", "pick", "serve_league",
]
