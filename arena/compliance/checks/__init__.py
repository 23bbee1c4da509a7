"""The checks, in the order they run."""

from __future__ import annotations

from ..check import Check
from .fallbacks import NO_FALLBACKS
from .fault_checks import FAULT_CHECKS
from .hello import HELLO
from .message_kinds import MESSAGE_KINDS
from .multi_seat import MULTI_SEAT_CHECKS
from .opponent_fault import OPPONENT_FAULT
from .reading import KEEPS_READING
from .reconnect import RECONNECT
from .series import SERIES
from .variants import VARIANT_CHECKS

# Games first; the verdicts over all games next; last the checks that
# disturb the streams on purpose (a reading test may close one, the
# reconnect test does).
CHECKS: tuple[Check, ...] = (
    HELLO,
    *VARIANT_CHECKS,
    *MULTI_SEAT_CHECKS,
    SERIES,
    OPPONENT_FAULT,
    MESSAGE_KINDS,
    *FAULT_CHECKS,
    NO_FALLBACKS,
    KEEPS_READING,
    RECONNECT,
)

__all__ = ["CHECKS"]
