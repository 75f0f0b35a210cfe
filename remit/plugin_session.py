"""The end of a pytest session under the plugin: store its trials (``--remit-db``, one
run per agent) and write its reports (``--remit-report``, one per run).

Part of :mod:`remit.pytest_plugin` (whose ``pytest_sessionfinish`` calls
:func:`record_session` once, on the controller); the library is imported inside, as there.
"""

# The library is imported inside the function on purpose (STYLE.md: a lazy plugin), so:
# ruff: noqa: PLC0415

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from remit.harness.manifest import ScenarioSelection
    from remit.harness.settings import RunSettings
    from remit.harness.spool import SpooledOutcome

__all__ = ["record_session"]


def record_session(settings: RunSettings, outcomes: Sequence[SpooledOutcome],
                   selection: ScenarioSelection | None, lines: list[tuple[str, bool]], *,
                   executor: str = "local") -> None:
    """Store and report the session's outcomes, one run (and report) per agent; each line
    says what happened (or failed), appended to ``lines`` with whether it is an error.

    Args:
        settings: the session's settings (``db``, ``report``, ``seed``).
        outcomes: the spooled outcomes of every test.
        selection: the ``--remit-*`` scenario selection, if any.
        lines: where the lines go.
        executor: where the trials ran (``local`` or ``ray``), recorded in the manifests.
    """
    from datetime import UTC, datetime

    from sqlalchemy.exc import SQLAlchemyError

    from remit.errors import RemitError
    from remit.store import Store, session_runs

    started = datetime.now(UTC)
    runs = None
    if settings.db is not None:
        try:
            with Store.open(settings.db) as store:
                runs = session_runs(outcomes, seed=settings.seed, started_at=started,
                                    store=store, selection=selection, executor=executor)
        except (RemitError, OSError, SQLAlchemyError) as exc:
            lines.append((f"remit: ERROR: the session's trials were not stored in "
                          f"--remit-db={settings.db!r}: {_one_line(exc)}", True))
        else:
            if len(runs) > 1:
                lines.append((f"remit: the session ran {len(runs)} agents and a run has one, "
                              f"so it is stored as {len(runs)} runs, one per agent", False))
            lines += [(f"remit: stored {len(run.records)} trials of {run.manifest.agent_id} as "
                       f"run {run.manifest.run_id} in {settings.db}; see it with "
                       f"`remit show {run.manifest.run_id}`", False) for run in runs]
    if runs is None:
        runs = session_runs(outcomes, seed=settings.seed, started_at=started,
                            selection=selection, executor=executor)
    if settings.report is None:
        return
    from remit.reports import write_report

    target = Path(settings.report)
    for run in runs:
        # One report per agent: a run, and so a report, has one agent.
        path = target if len(runs) == 1 else target.with_name(
            f"{target.stem}-{_slug(run.manifest.agent_id)}{target.suffix}")
        try:
            written = write_report(run.manifest, run.records, run.suite, path)
        except (RemitError, OSError, ValueError) as exc:
            lines.append((f"remit: ERROR: the report of {run.manifest.agent_id} was not written "
                          f"to {path}: {_one_line(exc)}", True))
        else:
            lines.append((f"remit: report written to {written}", False))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")
