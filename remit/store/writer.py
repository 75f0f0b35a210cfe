"""Saving a run's trials as they finish, a batch per transaction.

A transaction per trial cost as much as a fast trial itself (a commit, a connection,
the statements prepared again), so :class:`TrialWriter` keeps finished trials and saves
them together (:meth:`remit.store.Store.save_trials`): when :data:`BATCH_TRIALS` are
waiting, when :data:`BATCH_SECONDS` have passed since the last save (so slow trials,
an LLM agent's, are saved one by one as before), and when the run ends, whether it
finished, failed or was interrupted (Ctrl-C included: the writer is a context manager).

What a resume relies on still holds: a trial is reported finished (``on_saved``: the
progress bar, ``remit run``'s count of kept trials) only once its batch is committed,
and a batch commits whole or not at all, so a process killed outright (``kill -9``)
loses at most the trials of the batch it had not saved yet, which ``remit run
--resume`` runs again; and a trial is never stored twice (one already stored, by
another process resuming the same run, is skipped). Ctrl-C while a batch is being saved
lets the save finish, then interrupts (a second Ctrl-C interrupts at once); while
:func:`remit.harness.drive` runs a run, its own handling does the same.

Example:
    >>> with TrialWriter(store, manifest.run_id) as writer:      # doctest: +SKIP
    ...     for record in records:
    ...         writer.add(record)
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Self

from remit.harness import TrialRecord
from remit.store.errors import StoreError
from remit.store.rows import trial_id_for
from remit.store.store import Store

__all__ = ["BATCH_SECONDS", "BATCH_TRIALS", "TrialWriter"]

_LOG = logging.getLogger(__name__)

BATCH_TRIALS = 64
"""Trials saved per transaction at most. Past a few dozen, a batch saves no more time
(the commit is then a few per cent of a fast trial's cost) and only risks more trials
when the process is killed."""

BATCH_SECONDS = 0.5
"""A trial waits at most about this long (plus the next trial's duration) to be saved."""


@contextmanager
def _whole() -> Iterator[None]:
    """Ctrl-C inside waits for the inside to finish, then interrupts; a second Ctrl-C
    interrupts at once. Only where Python's own handler has SIGINT (the main thread,
    outside :func:`remit.harness.drive`, which defers it alike)."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    pressed: list[int] = []

    def wait(signum: int, frame: FrameType | None) -> None:
        if pressed:
            raise KeyboardInterrupt
        pressed.append(signum)

    signal.signal(signal.SIGINT, wait)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt


class TrialWriter:
    """Saves one run's finished trials in batches (see the module docstring).

    Args:
        store: where the run is stored.
        run_id: the run (already created).
        on_saved: called with each trial once it is stored (or was found stored), in
            the order trials were added.
        batch: trials per transaction at most.
        seconds: how long a trial may wait for its batch.
        clock: the clock that measures ``seconds`` (tests pass their own).

    Attributes:
        skipped: how many added trials were found already stored (by another process
            resuming the same run) instead of being saved by this writer.
    """

    def __init__(self, store: Store, run_id: str, *,
                 on_saved: Callable[[TrialRecord], None] | None = None,
                 batch: int = BATCH_TRIALS, seconds: float = BATCH_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if batch < 1:
            raise ValueError(f"batch={batch!r} must be at least 1")
        self._store = store
        self._run_id = run_id
        self._on_saved = on_saved
        self._batch = batch
        self._seconds = seconds
        self._clock = clock
        self._waiting: list[TrialRecord] = []
        self._saved_at = clock()
        self.skipped = 0

    def add(self, record: TrialRecord) -> None:
        """Keep a finished trial; save the batch when it is full or has waited long
        enough.

        Raises:
            StoreError: the batch could not be saved (its trials stay waiting).
        """
        self._waiting.append(record)
        if len(self._waiting) >= self._batch or \
                self._clock() - self._saved_at >= self._seconds:
            self.flush()

    def flush(self) -> None:
        """Save the waiting trials now, in one transaction.

        Raises:
            StoreError: they could not be saved (they stay waiting).
        """
        waiting = self._waiting
        if waiting:
            with _whole():
                saved = set(self._store.save_trials(self._run_id, waiting))
                self._waiting = []
            self.skipped += len(waiting) - len(saved)
            for record in waiting:
                s = record.scored
                if len(saved) < len(waiting) and \
                        trial_id_for(self._run_id, s.scenario_id, s.mode, s.trial) not in saved:
                    # Another process resuming the same run stored it first; trials are
                    # deterministic given their seed, so the stored one stands for it.
                    _LOG.info("trial %s/%s/%d of %s was already stored by another process",
                              s.scenario_id, s.mode, s.trial, self._run_id)
                if self._on_saved is not None:
                    self._on_saved(record)
        self._saved_at = self._clock()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        # Saved however the run ends, unless saving is what failed (a locked or lost
        # database would only fail again, after as long a wait).
        if exc_type is None or not issubclass(exc_type, StoreError):
            self.flush()
