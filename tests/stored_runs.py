"""Helpers for the tests that compare runs through the command line and the store
(``--workers``, ``--executor ray``, Ctrl-C): run ``remit run ... --json`` in this
process, read back a run's stored trials, wait for a ``remit run`` subprocess to store
some."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from typer.testing import CliRunner

from remit.cli import app
from remit.harness import TrialRecord
from remit.store import Store

__all__ = ["DEADLINE_SECONDS", "invoke_run", "run_env", "stored_trials",
           "wait_for_stored_trials"]

POLL_SECONDS = 0.02
DEADLINE_SECONDS = 60.0
"""How long a test waits for a ``remit run`` subprocess before it fails."""


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


def run_env() -> dict[str, str]:
    """The environment of a ``remit run`` subprocess: this checkout importable (the tests'
    agents), and wide columns, so that a hint is printed on one line and can be compared
    whole."""
    return {**os.environ, "COLUMNS": "500",
            "PYTHONPATH": str(Path(__file__).resolve().parents[1])}


def wait_for_stored_trials(process: subprocess.Popen[str], db: Path, at_least: int) -> None:
    """Poll the database until the run ``process`` runs has stored ``at_least`` trials
    (bounded by :data:`DEADLINE_SECONDS`; the run must still be running)."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not db.exists():
        assert process.poll() is None, "remit run exited before creating its database"
        assert time.monotonic() < deadline, f"{db} was not created in {DEADLINE_SECONDS}s"
        time.sleep(POLL_SECONDS)
    with Store.open(str(db), create=False) as store:
        while True:
            assert process.poll() is None, "remit run exited before it was interrupted"
            if sum(listing.trials for listing in store.runs()) >= at_least:
                return
            assert time.monotonic() < deadline, (
                f"remit run stored fewer than {at_least} trials in {DEADLINE_SECONDS}s")
            time.sleep(POLL_SECONDS)
