"""Results that finish in any order, handed over in the order they were planned.

Every executor that runs a run's trials elsewhere (worker processes,
:mod:`remit.harness.pool`; Ray actors, :mod:`remit.harness.ray_executor`) receives
finished trials in whatever order they end, and hands them to the one writer in the
order the trials were planned to start, so a run stores its trials in the order one
process would. :class:`InOrder` is that hand-over, shared by both, and
:func:`no_full_collections` keeps the garbage collector from traversing the records
again and again as they stream in.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

__all__ = ["InOrder", "no_full_collections"]

_R = TypeVar("_R")
_NO_FULL_COLLECTIONS = 1_000_000
"""The third ``gc`` threshold while records stream in: no automatic full collection."""


class InOrder(Generic[_R]):
    """Hand results to ``on_result`` in index order, as far as they go without a gap.

    Args:
        count: how many results are expected (indices ``0 .. count - 1``).
        on_result: called with each result's index and the result, in index order.

    Attributes:
        results: the results handed over so far, in index order.
        handing: whether ``on_result`` is running now (an error raised there stops the
            hand-over: handing over again would only fail again).

    Example:
        >>> seen = []
        >>> order = InOrder(3, lambda index, result: seen.append(result))
        >>> order.add(1, "b"); order.add(0, "a"); seen
        ['a', 'b']
    """

    def __init__(self, count: int, on_result: Callable[[int, _R], None]) -> None:
        self.count = count
        self.on_result = on_result
        self.finished: dict[int, _R] = {}
        self.results: list[_R] = []
        self.handing = False

    @property
    def complete(self) -> bool:
        """Whether every expected result has been handed over."""
        return len(self.results) >= self.count

    def add(self, index: int, result: _R) -> None:
        """Keep the result of ``index``, then hand over what is ready."""
        self.finished[index] = result
        self.hand_over()

    def hand_over(self, *, everything: bool = False) -> None:
        """Hand the finished results to ``on_result`` in index order, as far as they go
        without a gap (``everything``: the rest too, when the run stops early)."""
        self.handing = True
        while (index := len(self.results)) in self.finished:
            result = self.finished.pop(index)
            self.on_result(index, result)
            self.results.append(result)
        if everything:
            for index in sorted(self.finished):
                self.on_result(index, self.finished.pop(index))
        self.handing = False


@contextmanager
def no_full_collections() -> Iterator[None]:
    """Leave this process's oldest generation alone while records stream in.

    Every record received lives until the run ends, so each full collection the
    records trigger would traverse all of them again (half the receiving process's
    time); young objects are still collected as usual, and the thresholds are restored
    afterwards.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], _NO_FULL_COLLECTIONS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
