"""A read-only view of a list that the state keeps appending to.

The state hands out views, not its lists, so a caller cannot corrupt a game
by changing what it reads; a slice of a view is a tuple of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class ReadOnlyList(Sequence[T]):
    __slots__ = ("_items",)

    def __init__(self, items: list[T]) -> None:
        self._items = items

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[index])
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ReadOnlyList):
            return self._items == other._items
        return isinstance(other, (list, tuple)) and list(other) == self._items

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return f"ReadOnlyList({self._items!r})"


class LiveList(ReadOnlyList[T]):
    """A ``ReadOnlyList`` whose owner brings the list up to date before every
    read (``refresh``): the state builds its event objects only when they are
    read, and a view must still follow the game as it goes on."""

    __slots__ = ("_refresh",)

    def __init__(self, items: list[T], refresh: Callable[[], object]) -> None:
        super().__init__(items)
        self._refresh = refresh

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        self._refresh()
        return super().__getitem__(index)

    def __len__(self) -> int:
        self._refresh()
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        self._refresh()
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        self._refresh()
        if isinstance(other, LiveList):
            other._refresh()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._refresh()
        return f"LiveList({self._items!r})"
