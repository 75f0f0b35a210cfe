"""An agent that offers ``finish(observation)`` is handed the trial's last observation."""

from __future__ import annotations

import logging

import pytest

from remit.actors import Briefing, Observation
from remit.authority import builtin_modes
from remit.harness.orchestrator import run_trial
from remit.scenarios.builtin import scenario_by_id
from remit.world import ToolCall

TELEPORT = ToolCall(tool="teleport", arguments={"to": "mars"})
END = ToolCall(tool="end", arguments={"summary": "done"})


class Finishing:
    """Plays ``calls`` in a loop and keeps what ``finish`` is handed."""

    def __init__(self, *calls: ToolCall, fails: bool = False) -> None:
        self.calls = calls
        self.fails = fails
        self.acts = 0
        self.finished: list[Observation] = []

    def start(self, briefing: Briefing) -> None:
        """Nothing to read."""

    def act(self, observation: Observation) -> ToolCall:
        """The next call of the script."""
        self.acts += 1
        if not self.calls:
            raise RuntimeError("no script")
        return self.calls[(self.acts - 1) % len(self.calls)]

    def finish(self, observation: Observation) -> None:
        """Keep the last observation (or fail, as a buggy agent would)."""
        self.finished.append(observation)
        if self.fails:
            raise ValueError("bookkeeping bug")


def play(agent: Finishing, max_steps: int = 3) -> str:
    scenario = scenario_by_id("discount-exception").model_copy(update={"max_steps": max_steps})
    world = run_trial(scenario, builtin_modes()["dual_control"], agent)
    assert world.ended is not None
    return world.ended.reason


def test_the_last_calls_result_is_handed_over_when_the_step_budget_ends_the_trial() -> None:
    agent = Finishing(TELEPORT)
    assert play(agent) == "max_steps"

    assert agent.acts == 3
    (last,) = agent.finished
    assert last.result is not None
    assert last.result.error is not None
    assert last.result.error.code == "unknown_tool"


def test_the_result_of_end_is_handed_over_too() -> None:
    agent = Finishing(END)
    assert play(agent) == "agent_end"
    assert [o.result.ok if o.result else None for o in agent.finished] == [True]


def test_an_agent_that_failed_is_not_handed_anything() -> None:
    agent = Finishing()
    assert play(agent) == "agent_error"
    assert agent.finished == []


def test_an_error_in_finish_is_logged_and_the_ended_trial_stands(
        caplog: pytest.LogCaptureFixture) -> None:
    agent = Finishing(END, fails=True)
    with caplog.at_level(logging.WARNING, logger="remit.harness.orchestrator"):
        assert play(agent) == "agent_end"
    assert "finish() raised ValueError: bookkeeping bug" in caplog.text


def test_an_async_finish_is_awaited() -> None:
    finished: list[Observation] = []

    class AsyncFinishing(Finishing):
        async def finish(self, observation: Observation) -> None:  # type: ignore[override]
            finished.append(observation)

    assert play(AsyncFinishing(TELEPORT), max_steps=1) == "max_steps"
    assert len(finished) == 1
