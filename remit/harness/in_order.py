"""Results that finish in any order, handed over in the order they were planned.

Every executor that runs a run's trials elsewhere (worker processes,
:mod:`remit.harness.pool`; Ray actors, :mod:`remit.harness.ray_executor`) receives
finished trials in whatever order they end, and hands them to the one writer in the
order the trials were planned to start, so a run stores its trials in the order one
process would. :class:`InOrder` is that hand-over, shared by both (the garbage
collector is kept off the records as they stream in by the run itself:
:func:`~remit.harness.heap.run_heap`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["InOrder"]

_R = TypeVar("_R")


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

