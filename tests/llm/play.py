"""Run one trial with an LLM agent against a fake server, and read what it sent."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from remit.actors import Observation, TrialInfo
from remit.actors.llm import LlmAgent, LlmConfig, llm_agent_factory
from remit.authority import builtin_modes
from remit.harness.orchestrator import briefing_for, run_trial_async
from remit.scenarios.builtin import scenario_by_id
from remit.world import ToolCall, World

SCENARIO = "discount-exception"


def config(base_url: str, **options: Any) -> LlmConfig:
    """A config for the fake server: no backoff, a small model name."""
    values: dict[str, Any] = {"model": "fake-model", "base_url": base_url,
                              "backoff_seconds": 0.0, **options}
    return LlmConfig.model_validate(values)


def info(scenario_id: str = SCENARIO, mode: str = "dual_control", trial: int = 0) -> TrialInfo:
    """The TrialInfo of one trial (seed 0)."""
    return TrialInfo(scenario_id=scenario_id, mode=mode, trial=trial, seed=0,
                     plan=scenario_by_id(scenario_id).plan)


def play(llm_config: LlmConfig, *, scenario_id: str = SCENARIO, mode: str = "dual_control",
         max_steps: int | None = None) -> tuple[World, LlmAgent]:
    """Run one trial; return the finished world and the agent (with its stats)."""
    scenario = scenario_by_id(scenario_id)
    if max_steps is not None:
        scenario = scenario.model_copy(update={"max_steps": max_steps})
    agent = llm_agent_factory(llm_config)(info(scenario_id, mode))
    world = asyncio.run(run_trial_async(scenario, builtin_modes()[mode], agent, seed=0))
    return world, agent


def first_call(llm_config: LlmConfig, *, scenario_id: str = SCENARIO,
               mode: str = "dual_control") -> ToolCall:
    """Start an agent and ask it for its first call, outside the turn loop (errors escape)."""
    scenario = scenario_by_id(scenario_id)
    control = builtin_modes()[mode]
    agent = llm_agent_factory(llm_config)(info(scenario_id, mode))
    opening = Observation(step=0, minute=0)

    async def go() -> ToolCall:
        await agent.start(briefing_for(scenario, control))
        return await agent.act(opening)

    return asyncio.run(go())


def assert_valid_history(messages: list[dict[str, Any]]) -> None:
    """Every assistant tool call is answered by a tool message before anything else."""
    open_ids: set[str] = set()
    for message in messages:
        role = message["role"]
        if role == "tool":
            assert message["tool_call_id"] in open_ids, message
            open_ids.discard(message["tool_call_id"])
            continue
        assert not open_ids, f"unanswered tool calls {open_ids} before a {role} message"
        if role == "assistant":
            open_ids = {c["id"] for c in message.get("tool_calls") or []}
    roles = [m["role"] for m in messages]
    assert all(a != b or a == "tool" for a, b in itertools.pairwise(roles)), roles
