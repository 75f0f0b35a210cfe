"""Replay a scenario's reference plan (a thin shim over :mod:`remit.harness.verify`).

An owner step is performed by its owner (or by the agent where the mode gives it the
action); the agent's messages are routed to the personas, as the turn loop routes them.
"""

from __future__ import annotations

from remit.authority import builtin_modes
from remit.harness.verify import PlanReplay, replay_plan
from remit.scenarios import Scenario

Replay = PlanReplay
"""The world after a replay, the result of each step and the quote state after it."""


def replay(scenario: Scenario, *, mode: str = "dual_control", seed: int = 0) -> Replay:
    """Perform every plan step as its role, routing the agent's messages to the personas."""
    return replay_plan(scenario, builtin_modes()[mode], seed=seed)
