"""Run scenarios x modes x trials with one agent, score every trial, aggregate per mode.

This is the synchronous, in-memory runner; it is what ``remit run`` and the pytest
plugin call. Each trial gets a fresh agent from the factory and a stable seed derived
from the run seed, so a run is reproducible trial by trial.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Sequence
from typing import cast

from pydantic import BaseModel, ConfigDict

from remit.actors import Agent, AgentFactory, TrialInfo
from remit.authority import ControlMode
from remit.harness.aggregate import ModeSummary, ScoredTrial, summarise
from remit.harness.orchestrator import run_trial, run_trial_async, trial_seed
from remit.harness.scoring import score_trial
from remit.scenarios import Scenario
from remit.world import TrailEntry, World

__all__ = ["RunResult", "TrialRecord", "run", "run_one"]


class TrialRecord(BaseModel):
    """One finished trial: its identity, its score and its trail."""

    model_config = ConfigDict(frozen=True)

    scored: ScoredTrial
    seed: int
    trail: tuple[TrailEntry, ...]


class RunResult(BaseModel):
    """Every trial of a run, and the per-mode summaries.

    Attributes:
        trials: in run order (scenario, then mode, then trial index).
        summaries: per mode, in the order the modes were given.
    """

    model_config = ConfigDict(frozen=True)

    trials: tuple[TrialRecord, ...]
    summaries: dict[str, ModeSummary]


def run_one(scenario: Scenario, mode: ControlMode, factory: AgentFactory, *, trial: int = 0,
            run_seed: int = 0) -> tuple[TrialRecord, World]:
    """Run and score one trial; return its record and the finished world."""
    seed = trial_seed(run_seed, scenario.id, mode.name, trial)
    info = TrialInfo(scenario_id=scenario.id, mode=mode.name, trial=trial, seed=seed,
                     plan=scenario.plan, scenario=scenario)
    agent = factory(info)
    if inspect.iscoroutinefunction(agent.act) or inspect.iscoroutinefunction(agent.start):
        world = asyncio.run(run_trial_async(scenario, mode, agent, seed=seed))
    else:
        world = run_trial(scenario, mode, cast(Agent, agent), seed=seed)
    score = score_trial(scenario, world)
    scored = ScoredTrial(scenario_id=scenario.id, mode=mode.name, trial=trial, score=score)
    return TrialRecord(scored=scored, seed=seed, trail=tuple(world.trail)), world


def run(scenarios: Sequence[Scenario], modes: Sequence[ControlMode], factory: AgentFactory,
        *, trials: int = 1, seed: int = 0,
        progress: Callable[[TrialRecord], None] | None = None) -> RunResult:
    """Run every scenario in every mode ``trials`` times.

    Args:
        scenarios: the scenarios.
        modes: the control modes.
        factory: builds a fresh agent per trial.
        trials: trials per scenario and mode (``n`` of pass^k).
        seed: the run seed.
        progress: called after each trial (the CLI advances its progress bar).
    """
    if trials < 1:
        raise ValueError(f"trials={trials!r} must be at least 1")
    records = []
    for scenario in scenarios:
        for mode in modes:
            for index in range(trials):
                record, _ = run_one(scenario, mode, factory, trial=index, run_seed=seed)
                records.append(record)
                if progress is not None:
                    progress(record)
    summaries = summarise([r.scored for r in records])
    ordered = {m.name: summaries[m.name] for m in modes if m.name in summaries}
    return RunResult(trials=tuple(records), summaries=ordered)
