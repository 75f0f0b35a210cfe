"""The progress of ``remit run``, whichever executor runs its trials.

On a terminal, a live bar on stderr: trials done of the run's total, how many of them
fail, how many ended in an infrastructure error, how many are in flight, the time
elapsed and the time left at the pace so far. It disappears when the run ends (the
results table follows). Off a terminal (CI logs, a pipe), one line when the run ends
instead of a bar redrawn in the log.

"In flight" is an upper bound, not a count: the executor's capacity (``--concurrency``;
``--workers`` times the trials each worker holds; on Ray, each actor's concurrency plus
the few it holds in reserve), or the trials left when fewer are. No executor reports
when a trial starts, so the bar cannot count those actually running (a synchronous agent
at ``--concurrency 4`` runs one at a time).
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from remit.harness import RunManifest, TrialRecord
    from remit.reports.safe import SafeConsole

__all__ = ["RunProgress"]


class RunProgress:
    """Counts a run's trials as they are stored and shows them (see the module docstring).

    Args:
        out: the console to draw on (stderr).
        capacity: the most trials the executor holds in flight at once.
    """

    def __init__(self, out: SafeConsole, capacity: int) -> None:
        self.out = out
        self.capacity = max(1, capacity)
        self.run_id = ""
        self.total = 0
        self.done = 0
        self.failing = 0
        self.errors = 0
        self._began = time.perf_counter()
        self._bar: Progress | None = _bar(out) if out.is_terminal else None
        self._task: TaskID | None = None

    def __enter__(self) -> RunProgress:
        if self._bar is not None:
            self._bar.start()
            self._task = self._bar.add_task("trials", total=None, fields=self._fields())
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()
        if kind is None and self._bar is None and self.run_id:
            self.out.print(self.summary(), markup=False, soft_wrap=True)

    def stop(self) -> None:
        """Remove the bar (before the run's results or an error are printed)."""
        if self._bar is not None:
            self._bar.stop()

    def started(self, manifest: RunManifest, todo: int) -> None:
        """The run is recorded and ``todo`` trials are to run."""
        self.run_id = manifest.run_id
        self.total = todo
        self._began = time.perf_counter()
        self._update(description=manifest.run_id, total=todo)

    def finished(self, record: TrialRecord) -> None:
        """One more trial is stored."""
        self.done += 1
        if record.infra_error:
            self.errors += 1
        elif not record.scored.score.passed:
            self.failing += 1
        self._update(advance=1)

    @property
    def in_flight(self) -> int:
        """At most this many trials are in flight (an upper bound: see the module
        docstring)."""
        return min(self.capacity, max(0, self.total - self.done))

    def summary(self) -> str:
        """The one line shown off a terminal once the run has ended."""
        seconds = time.perf_counter() - self._began
        pace = f", {self.done / seconds:.1f} trials/s" if seconds > 0 and self.done else ""
        return (f"{self.run_id}: {self.done} of {self.total} trials done in {seconds:.1f} s"
                f"{pace}; {self.failing} failing, {self.errors} infrastructure errors")

    def _fields(self) -> dict[str, int]:
        return {"failing": self.failing, "errors": self.errors, "flight": self.in_flight}

    def _update(self, **changes: object) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, fields=self._fields(), **changes)  # type: ignore[arg-type]


def _bar(out: SafeConsole) -> Progress:
    from rich.progress import (  # drawn only when a run starts
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[fields][failing]} failing"),
                    TextColumn("{task.fields[fields][errors]} errors"),
                    TextColumn("{task.fields[fields][flight]} in flight"),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    console=out, transient=True)
