"""The garbage collector while a run runs: what it would traverse again and again.

CPython's full collections traverse every object the process holds, and a run holds
many that never become garbage: what existed before it (the modules, the suite, the
shared catalogue: about 120,000 objects, ~90 ms a full collection on the benchmark
machine, as much as 50 fast trials) and, in memory, every finished trial's record (~210
objects a trial, kept until the run returns). A full collection starts each time the
oldest generation has grown by a quarter, so over a run of 1,920 trials they cost
0.4 ms a trial even with the earlier heap frozen; whether one fell inside a 240-trial
run was chance (the spread between the benchmark's runs).

:func:`run_heap` is entered once per run, by :func:`~remit.harness.run_async`, which
every path goes through (in memory, recorded in a store, in worker processes; the
store's path also around its last save, as the run ends): for the run's duration, what
existed before it is frozen (:func:`gc.freeze`, out of the collector's sight, and shared
page for page with forked workers), and full collections are ten times rarer
(:data:`RARE_FULL_COLLECTIONS`: none in a fast run of a few thousand trials). Young
objects are still collected as usual, so a trial's own garbage cycles go as they did
(the built-in agents' trials leave about six objects a trial in cycles old enough to
wait for a full collection). Everything is restored when the run ends, however it ends (an
error, Ctrl-C). A worker process collects as a fresh interpreter does
(:data:`FRESH_THRESHOLDS`), whatever it inherited: its records leave with each trial.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["FRESH_THRESHOLDS", "RARE_FULL_COLLECTIONS", "run_heap"]

RARE_FULL_COLLECTIONS = 100
"""The third ``gc`` threshold during a run (CPython's default is 10): a full collection
waits for 100 collections of the middle generation instead of 10. A scripted run of
1,920 core trials makes ~48 of those, so it sees no full collection; a long run, or an
agent whose trials allocate much (an LLM agent's HTTP traffic), still gets one now and
then, so garbage cycles that outlived their trial do not pile up until the run ends.
CPython also waits until the oldest generation has grown by a quarter since the last
full collection, so their cost stays proportional to what the run keeps."""

FRESH_THRESHOLDS = (700, 10, 10)
"""CPython's own ``gc`` thresholds, which a worker process collects with."""


class _Held:
    """What the runs under way in this process changed, to be undone by the last one.

    Kept here rather than read back from :mod:`gc`: ``gc.get_freeze_count()`` walks every
    frozen object (~30 ms once a run has frozen the heap), so nested and overlapping
    runs count themselves instead. A forked worker inherits the count, and leaves the
    collector to :func:`~remit.harness.worker_process.serve`.
    """

    runs = 0
    froze = False
    thresholds: tuple[int, int, int] | None = None
    lock = threading.Lock()
    """Held while a run enters or leaves: runs started from several threads at once
    count (and change the collector) one at a time."""


def _new_lock() -> None:
    _Held.lock = threading.Lock()  # a fork inherits the lock as it was, maybe held


os.register_at_fork(after_in_child=_new_lock)


@contextmanager
def run_heap() -> Iterator[None]:
    """Inside, what existed on entering is frozen and full collections wait; both are
    restored on leaving (see the module docstring).

    Nested and overlapping uses share it: the first one in changes the collector, the
    last one out restores it. A heap frozen already by the caller, and a third threshold
    raised already, stay as they are.

    Example:
        >>> with run_heap():
        ...     gc.get_threshold()[2] == RARE_FULL_COLLECTIONS
        True
    """
    with _Held.lock:
        if _Held.runs == 0:
            _Held.froze = gc.get_freeze_count() == 0  # cheap while nothing is frozen
            if _Held.froze:
                gc.freeze()
            thresholds = gc.get_threshold()
            _Held.thresholds = thresholds if thresholds[2] < RARE_FULL_COLLECTIONS else None
            if _Held.thresholds is not None:
                gc.set_threshold(thresholds[0], thresholds[1], RARE_FULL_COLLECTIONS)
        _Held.runs += 1
    try:
        yield
    finally:
        with _Held.lock:
            _Held.runs -= 1
            if _Held.runs == 0:
                if _Held.thresholds is not None:
                    gc.set_threshold(*_Held.thresholds)
                if _Held.froze:
                    gc.unfreeze()
