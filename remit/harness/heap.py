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
page for page with forked workers), and no full collection starts automatically. Young
objects are still collected as usual, so a trial's own garbage cycles go as they did
(the built-in agents' trials leave about six objects a trial in cycles old enough to
wait for the run's end). Everything is restored when the run ends, however it ends (an
error, Ctrl-C). A worker process collects as a fresh interpreter does
(:data:`FRESH_THRESHOLDS`), whatever it inherited: its records leave with each trial.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["FRESH_THRESHOLDS", "NO_FULL_COLLECTIONS", "run_heap"]

NO_FULL_COLLECTIONS = 1_000_000
"""The third ``gc`` threshold during a run: no full collection starts on its own."""

FRESH_THRESHOLDS = (700, 10, 10)
"""CPython's own ``gc`` thresholds, which a worker process collects with."""


@contextmanager
def run_heap() -> Iterator[None]:
    """Inside, what existed on entering is frozen and full collections wait; both are
    restored on leaving (see the module docstring).

    Nested or overlapping uses leave it to the outer one: a heap frozen already (by
    this or by the caller) stays as it is, and so does a third threshold raised already.

    Example:
        >>> with run_heap():
        ...     gc.get_threshold()[2] == NO_FULL_COLLECTIONS
        True
    """
    freeze = gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    raise_threshold = thresholds[2] < NO_FULL_COLLECTIONS
    if freeze:
        gc.freeze()
    if raise_threshold:
        gc.set_threshold(thresholds[0], thresholds[1], NO_FULL_COLLECTIONS)
    try:
        yield
    finally:
        if raise_threshold:
            gc.set_threshold(*thresholds)
        if freeze:
            gc.unfreeze()
