"""Replay a scenario's reference plan with each step performed by its own role.

Unlike the oracle, the replay does not hand off: an owner step is called by the owner
itself. The agent's messages (``ask``, ``request_action``) are routed to the personas,
as the orchestrator routes them, so that answers and persona decisions happen too.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from remit.actors.personas import build_personas
from remit.authority import Role, builtin_modes
from remit.harness.orchestrator import world_for
from remit.scenarios import Scenario
from remit.world import MessageEntry, ToolCall, ToolResult, World


class Replay(BaseModel):
    """The world after a replay, the result of each step and the quote state after it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    world: World
    results: tuple[ToolResult, ...]
    states: tuple[str, ...]


def replay(scenario: Scenario, *, mode: str = "dual_control", seed: int = 0) -> Replay:
    """Perform every plan step as its role, routing the agent's messages to the personas."""
    world = world_for(scenario, builtin_modes()[mode])
    personas = build_personas(scenario, seed)
    personas[Role.BUYER].opening(world)
    results: list[ToolResult] = []
    states: list[str] = []
    for step in scenario.plan:
        before = len(world.trail)
        results.append(world.call(step.role, ToolCall(tool=step.tool,
                                                      arguments=dict(step.arguments))))
        for entry in world.trail[before:]:
            if isinstance(entry, MessageEntry) and entry.sender is Role.AGENT:
                persona = personas.get(entry.to)
                if persona is not None:
                    world.advance(persona.handle(world, entry))
        states.append(world.quote.state)
    return Replay(world=world, results=tuple(results), states=tuple(states))
