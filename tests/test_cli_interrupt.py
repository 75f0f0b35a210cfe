"""Ctrl-C during ``remit run``: every finished trial is kept, the way to resume is printed,
nothing else is (no asyncio tracebacks), and the resumed run completes exactly once.

The in-process tests press Ctrl-C with ``signal.raise_signal``, whose handler runs before
it returns, at a chosen point: inside a synchronous agent, while an asynchronous agent
waits, and in the middle of saving a trial.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine, event
from typer.testing import CliRunner

from remit.actors import Briefing, Observation, OracleAgent, TrialInfo, reference_agent
from remit.authority import mode_by_name
from remit.cli import app
from remit.harness import drive, run_async
from remit.harness.suites import builtin_suite
from remit.store import Store, resume_run, start_run
from remit.world import ToolCall
from tests.stored_runs import DEADLINE_SECONDS, run_env, wait_for_stored_trials

REMIT = [sys.executable, "-m", "remit.cli"]
TRIALS = 4
EXPECTED = 960
"""The core suite's 120 scenarios x 2 modes x 4 trials."""
STORED_BEFORE_CTRL_C = 40
"""Trials the run must have stored before the test interrupts it: well past start-up,
well before the end (the whole run takes seconds)."""


@pytest.mark.parametrize("concurrency", [1, 4])
def test_ctrl_c_mid_run_prints_only_the_resume_hint_and_the_resume_completes(
        tmp_path: Path, concurrency: int) -> None:
    assert len(builtin_suite("core")) * 2 * TRIALS == EXPECTED
    db = tmp_path / "r.db"
    with subprocess.Popen([*REMIT, "run", "--suite", "core", "--trials", str(TRIALS),
                           "--concurrency", str(concurrency), "--db", str(db)],
                          env=run_env(), cwd=tmp_path, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as process:
        try:
            wait_for_stored_trials(process, db, STORED_BEFORE_CTRL_C)
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=DEADLINE_SECONDS)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "never retrieved" not in stderr
    assert "destroyed but it is pending" not in stderr
    with Store.open(str(db), create=False) as store:
        [listing] = store.runs()
        run_id = listing.run_id
        kept = store.completed(run_id)
    assert STORED_BEFORE_CTRL_C <= len(kept) < EXPECTED
    assert listing.ended_at is None
    assert [line for line in stderr.splitlines() if line.strip()] == [
        f"interrupted: {len(kept)} finished trials of {run_id} are kept in {db}; "
        f"resume with `remit run --resume {run_id} --db {db}`"]

    resumed = CliRunner().invoke(app, ["run", "--resume", run_id, "--db", str(db), "--json",
                                       "--concurrency", str(concurrency)])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["run_id"] == run_id
    with Store.open(str(db), create=False) as store:
        [listing] = store.runs()
        records = store.trials(run_id)
    keys = [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in records]
    assert listing.trials == len(records) == len(set(keys)) == EXPECTED
    assert listing.ended_at is not None
    assert kept <= set(keys)
    assert {trial for _, _, trial in keys} == set(range(TRIALS))
    # A trial is saved with its trail in one transaction: none is stored without it.
    assert all(record.trail for record in records)


# -- in process: where Ctrl-C lands decides what it stops -------------------------------

CTRL_C_AT = 2
"""The trial (index) during which the in-process tests press Ctrl-C."""
END = ToolCall(tool="end", arguments={"summary": "done"})


def _asyncio_complaints(caplog: pytest.LogCaptureFixture) -> list[str]:
    gc.collect()  # asyncio reports unretrieved exceptions and pending tasks when collected
    return [r.getMessage() for r in caplog.records
            if r.name == "asyncio" and r.levelno >= logging.WARNING]


class PressesCtrlCInAct:
    """A synchronous agent that ends its trial at once, except in trial ``CTRL_C_AT``,
    where Ctrl-C comes in the middle of ``act``."""

    def __init__(self, info: TrialInfo, after_ctrl_c: list[int]) -> None:
        self.trial = info.trial
        self.after_ctrl_c = after_ctrl_c

    def start(self, briefing: Briefing) -> None:
        del briefing

    def act(self, observation: Observation) -> ToolCall:
        del observation
        if self.trial == CTRL_C_AT:
            signal.raise_signal(signal.SIGINT)
            self.after_ctrl_c.append(self.trial)  # never reached: the trial stops here
        return END


@pytest.mark.usefixtures("python_sigint")
@pytest.mark.parametrize("concurrency", [1, 4])
def test_ctrl_c_inside_a_synchronous_agent_stops_its_trial_at_once(
        caplog: pytest.LogCaptureFixture, concurrency: int) -> None:
    scenario = builtin_suite("handwritten").scenarios[0]
    finished: list[int] = []
    after_ctrl_c: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        drive(run_async([scenario], [mode_by_name("dual_control")],
                        lambda info: PressesCtrlCInAct(info, after_ctrl_c), trials=6,
                        concurrency=concurrency,
                        on_trial=lambda record: finished.append(record.scored.trial)))
    assert finished == list(range(CTRL_C_AT))
    assert after_ctrl_c == []
    assert _asyncio_complaints(caplog) == []


class PressesCtrlCWhileWaiting:
    """An asynchronous agent that ends its trial after one wait, except in trial
    ``CTRL_C_AT``, where Ctrl-C comes and then it waits for a reply that never comes."""

    def __init__(self, info: TrialInfo, cancelled: list[int]) -> None:
        self.trial = info.trial
        self.cancelled = cancelled

    async def start(self, briefing: Briefing) -> None:
        del briefing

    async def act(self, observation: Observation) -> ToolCall:
        del observation
        await asyncio.sleep(0)
        if self.trial == CTRL_C_AT:
            signal.raise_signal(signal.SIGINT)
            try:
                await asyncio.get_running_loop().create_future()
            except asyncio.CancelledError:
                self.cancelled.append(self.trial)
                raise
        return END


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_while_an_asynchronous_agent_waits_cancels_the_wait(
        caplog: pytest.LogCaptureFixture) -> None:
    scenario = builtin_suite("handwritten").scenarios[0]
    finished: list[int] = []
    cancelled: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        drive(run_async([scenario], [mode_by_name("dual_control")],
                        lambda info: PressesCtrlCWhileWaiting(info, cancelled), trials=6,
                        on_trial=lambda record: finished.append(record.scored.trial)))
    assert finished == list(range(CTRL_C_AT))
    assert cancelled == [CTRL_C_AT]
    assert _asyncio_complaints(caplog) == []


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_in_the_middle_of_saving_a_batch_saves_it_whole_and_starts_no_more(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    built: list[int] = []
    at_interrupt: list[int] = []

    @reference_agent
    def oracle(info: TrialInfo) -> OracleAgent:
        built.append(info.trial)
        return OracleAgent(info)

    def press_ctrl_c_mid_save(*args: object) -> None:
        # After the batch's trial rows, before their events: inside its one transaction.
        # 70 trials: the first batch is saved before the run ends (BATCH_TRIALS = 64).
        if str(args[2]).startswith("INSERT INTO trials") and not at_interrupt:
            at_interrupt.append(len(built))
            signal.raise_signal(signal.SIGINT)

    url = f"sqlite:///{tmp_path / 'saving.db'}"
    event.listen(Engine, "after_cursor_execute", press_ctrl_c_mid_save)
    try:
        with Store.open(url) as store, pytest.raises(KeyboardInterrupt):
            start_run(store, suite_spec="handwritten", modes=[mode_by_name("dual_control")],
                      agent_id="oracle", trials=7, seed=0, factory=oracle)
    finally:
        event.remove(Engine, "after_cursor_execute", press_ctrl_c_mid_save)
    assert _asyncio_complaints(caplog) == []
    [finished] = at_interrupt
    assert finished < 70
    assert len(built) == finished  # no trial started after the interrupted save
    with Store.open(url) as store:
        [listing] = store.runs()
        saved = store.trials(listing.run_id)
        assert len(saved) == finished  # the interrupted batch, saved again, whole
        assert all(record.trail for record in saved)  # each saved with its whole trail
        assert listing.ended_at is None
        resumed = resume_run(store, listing.run_id)
        assert len(resumed.trials) == 70
        assert store.manifest(listing.run_id).ended_at is not None
