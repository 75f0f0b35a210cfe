"""Helpers for the tests that compare runs through the command line and the store
(``--workers``, ``--executor ray``): run ``remit run ... --json`` in this process, read
back a run's stored trials."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from remit.cli import app
from remit.harness import TrialRecord
from remit.store import Store

__all__ = ["invoke_run", "stored_trials"]


def invoke_run(*args: str) -> dict[str, object]:
    """``remit run ARGS --json`` in this process; its JSON (the run must succeed)."""
    result = CliRunner().invoke(app, ["run", *args, "--json"])
    assert result.exit_code == 0, result.output
    shown: dict[str, object] = json.loads(result.stdout)
    return shown


def stored_trials(db: Path, run_id: str) -> list[TrialRecord]:
    """A run's stored trials, without their durations (not part of what a trial is)."""
    with Store.open(str(db), read_only=True) as store:
        return [r.model_copy(update={"seconds": None}) for r in store.trials(run_id)]
