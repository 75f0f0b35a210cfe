"""``remit run --workers N``: the same run as one process, resumable, stoppable with Ctrl-C,
and refused in one line for what it cannot run.

The runs are real (the core suite through a SQLite store); the Ctrl-C test presses it
the way a terminal does, to the whole process group, workers included.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.authority import mode_by_name
from remit.cli import app
from remit.harness import TrialRecord
from remit.store import Store, start_run
from tests.stored_runs import (
    DEADLINE_SECONDS,
    invoke_run,
    run_env,
    stored_trials,
    wait_for_stored_trials,
)

REMIT = [sys.executable, "-m", "remit.cli"]


def test_a_run_in_workers_is_the_run_one_process_makes(tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    one = invoke_run("--suite", "core", "--seed", "3", "--db", str(db))
    two = invoke_run("--suite", "core", "--seed", "3", "--db", str(db), "--workers", "2")
    assert two["modes"] == one["modes"]
    assert two["infra_errors"] == one["infra_errors"] == 0
    records = stored_trials(db, str(two["run_id"]))
    assert len(records) == 240
    assert records == stored_trials(db, str(one["run_id"]))
    manifests = [two["manifest"], one["manifest"]]
    for manifest in manifests:
        assert isinstance(manifest, dict)
        for varies in ("run_id", "started_at", "ended_at"):
            manifest.pop(varies)
    assert manifests[0] == manifests[1]  # workers is how a run ran, not what it is


def test_resume_in_workers_completes_a_run_as_one_process_would(tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    modes = [mode_by_name("all_tools"), mode_by_name("dual_control")]
    saved: list[TrialRecord] = []

    def stop_after_five(record: TrialRecord) -> None:
        saved.append(record)
        if len(saved) == 5:
            raise KeyboardInterrupt

    with Store.open(str(db)) as store, pytest.raises(KeyboardInterrupt):
        start_run(store, suite_spec="handwritten", modes=modes, agent_id="baseline",
                  trials=2, seed=9, on_trial=stop_after_five)
    with Store.open(str(db)) as store:
        [listing] = store.runs()
    resumed = invoke_run("--resume", listing.run_id, "--db", str(db), "--workers", "2")
    whole = invoke_run("--suite", "handwritten", "--agent", "baseline", "--trials", "2",
                    "--seed", "9", "--db", str(db))
    assert resumed["run_id"] == listing.run_id
    assert resumed["modes"] == whole["modes"]
    assert stored_trials(db, listing.run_id) == stored_trials(db, str(whole["run_id"]))


def test_resume_refuses_workers_with_concurrency_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    run_id = str(invoke_run("--suite", "handwritten", "--agent", "oracle", "--db", str(db))[
        "run_id"])
    before = stored_trials(db, run_id)
    refused = CliRunner().invoke(app, ["run", "--resume", run_id, "--db", str(db),
                                       "--workers", "2", "--concurrency", "2"])
    assert refused.exit_code == 2
    assert [line for line in refused.stderr.splitlines() if line.strip()] == [
        "error: cannot run with workers=2 (--workers): concurrency=2 (--concurrency) was "
        "given too; workers run a synchronous agent's trials side by side, concurrency "
        "overlaps an asynchronous agent's waiting: give one of them"]
    assert stored_trials(db, run_id) == before


def test_ctrl_c_in_a_terminal_stops_the_workers_and_the_run_resumes_in_workers(
        tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    expected = 120 * 2 * 2  # the core suite's scenarios x 2 modes x 2 trials
    with subprocess.Popen([*REMIT, "run", "--suite", "core", "--trials", "2", "--workers", "2",
                           "--db", str(db)], env=run_env(), cwd=tmp_path, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            wait_for_stored_trials(process, db, 40)
            workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                                     text=True, check=False).stdout.split()
            os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole group
            _, stderr = process.communicate(timeout=DEADLINE_SECONDS)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 130, stderr
    assert len(workers) == 2
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    with Store.open(str(db), create=False) as store:
        [listing] = store.runs()
        kept = store.completed(listing.run_id)
    assert 40 <= len(kept) < expected
    assert [line for line in stderr.splitlines() if line.strip()] == [
        f"interrupted: {len(kept)} finished trials of {listing.run_id} are kept in {db}; "
        f"resume with `remit run --resume {listing.run_id} --db {db}`"]

    resumed = invoke_run("--resume", listing.run_id, "--db", str(db), "--workers", "2")
    assert resumed["run_id"] == listing.run_id
    with Store.open(str(db), create=False) as store:
        [listing] = store.runs()
        keys = [(r.scored.scenario_id, r.scored.mode, r.scored.trial)
                for r in store.trials(listing.run_id, with_trails=False)]
    assert listing.trials == len(keys) == len(set(keys)) == expected
    assert listing.ended_at is not None
    assert kept <= set(keys)
