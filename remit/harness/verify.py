"""Plan verification: replay a scenario's reference plan and check that it solves it.

Modelled on tau2-bench's ``verify_task``: a scenario is only as good as the proof that
it can be solved. :func:`replay_plan` performs the reference plan through the world's
one gate, as the turn loop would:

- an agent step is the agent's tool call (one simulated minute), and the messages it
  sends are handled by the addressed personas (their review time passes on the clock);
- an owner step is performed by its owner, after the owner's review time, or by the
  agent when the mode gives the agent that action (all-tools);
- a hand-off the plan itself opens (``request_action``, e.g. the buyer's consent) is
  followed up like the oracle does while it is open or declined and its action is
  still possible, so silent and deny-then-recover owners get their follow-ups;
- the system expires a presented or approved quote past its validity date, and the
  replay stops when the quote reaches a terminal state.

:func:`verify_scenario` replays the plan in every mode and returns every problem, one
sentence each: a plan step the gate or a guard refused, the expected final state
reached before the last plan step, or a replayed world that fails the scenario's goal
(``score_trial(...).passed``). It also checks that the plan quotes acceptable SKUs and
cites released facts only. An empty list means the scenario is verified.

Example:
    >>> from remit.scenarios import scenario_by_id
    >>> verify_scenario(scenario_by_id("fff-substitution"))
    []
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors import Persona, build_personas
from remit.authority import Action, ControlMode, Role, builtin_modes, who_can
from remit.catalogue import acceptable_skus, shared_catalogue
from remit.harness.orchestrator import AGENT_STEP_MINUTES, world_for
from remit.harness.scoring import score_trial
from remit.quotes import QuoteState, actions_from, is_terminal
from remit.scenarios import PlanStep, Scenario
from remit.world import MessageEntry, ToolCall, ToolResult, World

__all__ = ["MAX_REPLAY_FOLLOW_UPS", "PlanReplay", "plan_problems", "replay_plan",
           "verify_scenario"]

MAX_REPLAY_FOLLOW_UPS = 3
"""Follow-ups the replay sends on a hand-off the plan opens (as many as the oracle)."""

_EXPIRABLE = (QuoteState.PRESENTED.value, QuoteState.APPROVED.value)
_SETTLED = ("completed", "withdrawn")


class PlanReplay(BaseModel):
    """A replayed plan.

    Attributes:
        mode: the control mode's name.
        world: the world after the replay (its quote, hand-offs and trail).
        actors: who performed each plan step.
        results: the result of each plan step's own call.
        states: the quote's state after each plan step.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    mode: str
    world: World
    actors: tuple[Role, ...]
    results: tuple[ToolResult, ...]
    states: tuple[str, ...]


class _Replayer:
    """One replay: the world, the personas, and the turn loop's clock and routing."""

    def __init__(self, scenario: Scenario, mode: ControlMode, seed: int) -> None:
        self.scenario = scenario
        self.mode = mode
        self.world = world_for(scenario, mode)
        self.personas: dict[Role, Persona] = build_personas(scenario, seed)
        self.personas[Role.BUYER].opening(self.world)

    def actor(self, step: PlanStep) -> Role:
        """Who performs ``step`` in this mode."""
        try:
            action = Action(step.tool)
        except ValueError:
            return step.role
        if step.role is not Role.AGENT and Role.AGENT in who_can(self.mode, action):
            return Role.AGENT
        return step.role

    def call(self, actor: Role, tool: str, arguments: dict[str, JsonValue]) -> ToolResult:
        """One call by ``actor``, its messages handled, the clock and the end checked."""
        world = self.world
        if actor is Role.AGENT:
            world.advance(AGENT_STEP_MINUTES)
        else:
            world.advance(self.scenario.persona(actor).review_minutes)
        before = len(world.trail)
        result = world.call(actor, ToolCall(tool=tool, arguments=arguments))
        for entry in world.trail[before:]:
            if isinstance(entry, MessageEntry) and entry.sender is Role.AGENT:
                persona = self.personas.get(entry.to)
                if persona is not None:
                    persona.handle(world, entry)
        quote = world.quote
        if quote.state in _EXPIRABLE and world.minute > quote.valid_until_minute:
            world.call(Role.SYSTEM, ToolCall(tool="expire", arguments={"quote_id": quote.id}))
        if world.ended is None and is_terminal(world.quote.state):
            world.end("terminal_state", f"quote reached {world.quote.state}")
        return result

    def see_through(self, result: ToolResult, action: Action) -> None:
        """Follow up a hand-off the plan opened, as the oracle would, then settle it."""
        content = result.content
        handoff_id = content.get("handoff_id") if isinstance(content, dict) else None
        handoff = self.world.handoffs.get(str(handoff_id))
        if not result.ok or handoff is None:
            return
        for _ in range(MAX_REPLAY_FOLLOW_UPS):
            if (handoff.status in _SETTLED or self.world.ended is not None
                    or action not in actions_from(self.world.quote.state)):
                break
            self.call(Role.AGENT, "follow_up", {"handoff_id": handoff.id,
                                               "text": f"Following up on {handoff.id}."})
        if handoff.status not in _SETTLED and self.world.ended is None:
            self.call(Role.AGENT, "withdraw", {"handoff_id": handoff.id,
                                              "reason": "the replay goes on without it"})


def replay_plan(scenario: Scenario, mode: ControlMode, *, seed: int = 0) -> PlanReplay:
    """Perform ``scenario``'s reference plan in ``mode`` (see the module docstring)."""
    replayer = _Replayer(scenario, mode, seed)
    actors: list[Role] = []
    results: list[ToolResult] = []
    states: list[str] = []
    for step in scenario.plan:
        actor = replayer.actor(step)
        result = replayer.call(actor, step.tool, dict(step.arguments))
        if step.tool == "request_action" and "action" in step.arguments:
            replayer.see_through(result, Action(str(step.arguments["action"])))
        actors.append(actor)
        results.append(result)
        states.append(replayer.world.quote.state)
    replayer.world.end("agent_end", "the reference plan was replayed to its end")
    return PlanReplay(mode=mode.name, world=replayer.world, actors=tuple(actors),
                      results=tuple(results), states=tuple(states))


def plan_problems(scenario: Scenario) -> list[str]:
    """What is wrong with the plan's lines, before any replay: SKUs outside the
    acceptable set and cited facts that are not released."""
    catalogue = shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
    acceptable = acceptable_skus(catalogue, scenario.requirement, scenario.truths)
    problems: list[str] = []
    for index, step in enumerate(scenario.plan, start=1):
        lines = step.arguments.get("lines") if step.tool == Action.EDIT_LINES.value else None
        for line in lines if isinstance(lines, list) else []:
            if not isinstance(line, dict):
                continue
            sku, cite = str(line.get("sku")), line.get("cite")
            if sku not in acceptable:
                problems.append(f"plan step {index} quotes sku={sku!r}, outside the acceptable "
                                f"set {sorted(acceptable)}")
                continue
            drafts = sorted(set(catalogue.draft_attributes(sku))
                            & {str(c) for c in (cite if isinstance(cite, list) else [])})
            if drafts:
                problems.append(f"plan step {index} cites draft facts {drafts} of {sku}; "
                                "cite released facts only")
    return problems


def _replay_problems(scenario: Scenario, replay: PlanReplay) -> list[str]:
    problems: list[str] = []
    for index, (step, actor, result) in enumerate(
            zip(scenario.plan, replay.actors, replay.results, strict=True), start=1):
        if not result.ok and result.error is not None:
            problems.append(f"{replay.mode}: plan step {index} ({step.tool} by {actor}) "
                            f"failed: {result.error.code}: {result.error.message}")
    final = scenario.expect.final_state.value
    early = [i for i, state in enumerate(replay.states[:-1], start=1) if state == final]
    if early:
        problems.append(f"{replay.mode}: the expected final state {final!r} is reached at "
                        f"plan step {early[0]} of {len(scenario.plan)}, before the last step")
    score = score_trial(scenario, replay.world)
    if not score.passed:
        problems.append(f"{replay.mode}: the replayed plan misses the goal: "
                        + "; ".join(score.failures))
    return problems


def verify_scenario(scenario: Scenario, modes: Sequence[ControlMode] | None = None, *,
                    seed: int = 0) -> list[str]:
    """Every reason ``scenario``'s plan does not prove it solvable (empty: verified).

    Args:
        scenario: the scenario.
        modes: the control modes to replay in (default: the built-in modes).
        seed: the personas' seed (phrasing only).
    """
    problems = plan_problems(scenario)
    for mode in modes if modes is not None else builtin_modes().values():
        problems += _replay_problems(scenario, replay_plan(scenario, mode, seed=seed))
    return problems
