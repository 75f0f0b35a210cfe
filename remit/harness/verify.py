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
:func:`plan_checks` and :func:`replay_checks` give the same problems as
:class:`ScenarioProblem` records, each under the stable id of the rule it breaks
(:data:`RULES`); :mod:`remit.harness.check` adds the oracle's trial and scenario files.

Example:
    >>> from remit.scenarios import scenario_by_id
    >>> verify_scenario(scenario_by_id("fff-substitution"))
    []
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors import Persona, build_personas
from remit.authority import (
    Action,
    ControlMode,
    Role,
    builtin_modes,
    describe_authority,
    who_can,
)
from remit.catalogue import (
    Catalogue,
    Family,
    acceptable_skus,
    c1_flange_match,
    c1_mounting_flange,
    c2_torque_margin,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
    dn_match,
    shared_catalogue,
    unacceptable_because,
)
from remit.harness.orchestrator import AGENT_STEP_MINUTES, world_for
from remit.harness.scoring import score_trial
from remit.quotes import QuoteState, actions_from, is_terminal
from remit.scenarios import PlanStep, Scenario
from remit.world import MessageEntry, ToolCall, ToolResult, World
from remit.world.gate import line_facts

__all__ = ["MAX_REPLAY_FOLLOW_UPS", "RULES", "PlanReplay", "ScenarioProblem", "ScenarioRule",
           "plan_checks", "plan_problems", "replay_checks", "replay_plan", "verify_scenario"]

MAX_REPLAY_FOLLOW_UPS = 3
"""Follow-ups the replay sends on a hand-off the plan opens (as many as the oracle)."""

_EXPIRABLE = (QuoteState.PRESENTED.value, QuoteState.APPROVED.value)
_SETTLED = ("completed", "withdrawn")

ScenarioRule = Literal["plan.sku-acceptable", "plan.cites-released", "plan.replays",
                       "plan.goal-at-end", "plan.reaches-goal", "oracle.passes"]
"""The stable id of a rule a scenario is checked against (see :data:`RULES`)."""

RULES: Mapping[ScenarioRule, str] = MappingProxyType({
    "plan.sku-acceptable": "every SKU the plan quotes is in the acceptable set (the "
                           "catalogue's fit rules applied to the requirement and the hidden "
                           "truths); a problem names the rules that exclude it",
    "plan.cites-released": "every attribute the plan's lines cite is released (no draft fact)",
    "plan.replays": "the gate and the guards accept every plan step, replayed in the mode",
    "plan.goal-at-end": "the expected final state is reached at the plan's last step, not "
                        "before",
    "plan.reaches-goal": "the replayed plan passes the scenario's expectations in the mode",
    "oracle.passes": "the oracle agent, following the plan in a real trial, passes the "
                     "scenario's expectations in the mode (within max_steps)",
})
"""The rules a scenario is checked against, by stable id, with what each requires."""


class ScenarioProblem(BaseModel):
    """One reason a scenario is not a fair test, under the rule it breaks.

    Attributes:
        rule: the rule's stable id (a key of :data:`RULES`).
        scenario_id: the scenario.
        message: what is wrong and what to do, one sentence (it names the plan step when
            there is one).
        mode: the control mode the problem shows in (``None``: in every mode).
        step: the plan step concerned, from 1 (``None``: no one step).
        fit_rules: for ``plan.sku-acceptable``, the catalogue's rules that exclude the
            SKU (``c3_pressure_rating``, ``S1 lifecycle``...).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: ScenarioRule
    scenario_id: str
    message: str
    mode: str | None = None
    step: int | None = None
    fit_rules: tuple[str, ...] = ()

    @property
    def sentence(self) -> str:
        """The message, after the mode when there is one (as :func:`verify_scenario` says it)."""
        return self.message if self.mode is None else f"{self.mode}: {self.message}"

    @property
    def line(self) -> str:
        """One line naming the scenario (``id[mode]`` as pytest names its items), the rule
        and the problem."""
        where = self.scenario_id if self.mode is None else f"{self.scenario_id}[{self.mode}]"
        return f"{where}: {self.rule}: {self.message}"


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
        """Who performs ``step`` in this mode: the agent when it holds the action and the
        quote is within the bounds of its grant (a delegation up to 5 % discount does
        not cover a 12 % quote), else the role the plan names."""
        try:
            action = Action(step.tool)
        except ValueError:
            return step.role
        if step.role is not Role.AGENT and Role.AGENT in who_can(self.mode, action):
            authority = describe_authority(self.mode)[action]
            facts = line_facts(self.world.quote.current.lines)
            if authority.within_bounds(Role.AGENT, facts) is not False:
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


_RULE_FUNCTIONS: Mapping[str, str] = MappingProxyType({
    "DN": dn_match.__name__, "C2": c2_torque_margin.__name__,
    "C3": c3_pressure_rating.__name__, "C4": c4_seat_temperature.__name__,
    "C5": c5_end_connection.__name__, "C6": c6_chlorides.__name__,
    "C7": c7_certificate.__name__, "S1": "S1 lifecycle", "S2": "S2 substitution",
})
"""The catalogue's rule behind each rule id of a fit verdict (C1 depends on the family)."""

_VERDICT = re.compile(r"\b(C[1-7]|S[1-3]|DN) fails: ")
_LEAD = re.compile(r"^(?:(C[1-7]|S[1-3]|DN) fails|(scope)|(C1/C2)): ")


def _rule_name(rule: str, family: Family) -> str:
    if rule == "C1":
        return (c1_flange_match if family is Family.ACTUATOR else c1_mounting_flange).__name__
    return _RULE_FUNCTIONS.get(rule, rule)


def _excluded_by(reason: str, family: Family) -> tuple[str, tuple[str, ...]]:
    """One reason of :func:`unacceptable_because`: ``rule (why)``, and the rules named."""
    lead = _LEAD.match(reason)
    if lead is None:
        return f"the acceptable set ({reason.rstrip('.')})", ()
    if lead.group(2):
        rules: list[str] = ["scope"]
    elif lead.group(3):
        rules = [c1_flange_match.__name__, c2_torque_margin.__name__]
    else:
        rules = [_rule_name(rule, family) for rule in _VERDICT.findall(reason)]
    return f"{' and '.join(rules)} ({reason[lead.end():].rstrip('.')})", tuple(rules)


def _exclusion(catalogue: Catalogue, scenario: Scenario, sku: str,
               quoted: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """Why the fit rules exclude ``sku``: the sentence, and the rules by name."""
    family = catalogue.variant(sku).family
    parts: list[str] = []
    named: list[str] = []
    for reason in unacceptable_because(catalogue, sku, scenario.requirement, scenario.truths,
                                       quoted):
        part, rules = _excluded_by(reason, family)
        parts.append(part)
        named += rules
    return "; and by ".join(parts), tuple(dict.fromkeys(named))


def _line_checks(catalogue: Catalogue, scenario: Scenario, acceptable: frozenset[str],
                 index: int, lines: list[JsonValue]) -> list[ScenarioProblem]:
    shown = ", ".join(sorted(acceptable)) or "empty"
    quoted = tuple(str(ln.get("sku")) for ln in lines if isinstance(ln, dict))
    problems: list[ScenarioProblem] = []
    for line in lines:
        if not isinstance(line, dict):
            continue
        sku, cite = str(line.get("sku")), line.get("cite")
        if sku not in catalogue:
            problems.append(ScenarioProblem(
                rule="plan.sku-acceptable", scenario_id=scenario.id, step=index,
                message=f"plan step {index} quotes sku={sku!r}, which is not in the catalogue "
                        f"(seed {scenario.catalogue_seed}); quote one of the acceptable set: "
                        f"{shown}"))
            continue
        if sku not in acceptable:
            why, rules = _exclusion(catalogue, scenario, sku, quoted)
            problems.append(ScenarioProblem(
                rule="plan.sku-acceptable", scenario_id=scenario.id, step=index,
                fit_rules=rules,
                message=f"plan step {index} quotes sku={sku!r}, outside the acceptable set: "
                        f"{sku} is excluded by {why}; the acceptable set is {shown}"))
            continue
        cited = {str(c) for c in (cite if isinstance(cite, list) else [])}
        draft = set(catalogue.draft_attributes(sku))
        if cited & draft:
            released = sorted(set(catalogue.variant(sku).attributes) - draft)
            problems.append(ScenarioProblem(
                rule="plan.cites-released", scenario_id=scenario.id, step=index,
                message=f"plan step {index} cites draft facts {sorted(cited & draft)} of {sku}; "
                        f"cite released facts only ({sku} releases {', '.join(released)})"))
    return problems


def plan_checks(scenario: Scenario) -> list[ScenarioProblem]:
    """What is wrong with the plan's lines, before any replay: SKUs outside the
    acceptable set (``plan.sku-acceptable``, naming the fit rules that exclude each) and
    cited facts that are not released (``plan.cites-released``)."""
    catalogue = shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
    acceptable = acceptable_skus(catalogue, scenario.requirement, scenario.truths)
    problems: list[ScenarioProblem] = []
    for index, step in enumerate(scenario.plan, start=1):
        lines = step.arguments.get("lines") if step.tool == Action.EDIT_LINES.value else None
        if isinstance(lines, list):
            problems += _line_checks(catalogue, scenario, acceptable, index, lines)
    return problems


def plan_problems(scenario: Scenario) -> list[str]:
    """What is wrong with the plan's lines, before any replay, one sentence each (the
    messages of :func:`plan_checks`)."""
    return [problem.sentence for problem in plan_checks(scenario)]


def replay_checks(scenario: Scenario, replay: PlanReplay) -> list[ScenarioProblem]:
    """What a replay of the plan shows wrong: the first refused step (``plan.replays``;
    the steps refused after it are counted in its message, most follow from it), the
    goal reached early (``plan.goal-at-end``), and, when every step was accepted, a goal
    missed (``plan.reaches-goal``)."""
    mode = replay.mode
    refused = [(index, step, actor, result.error) for index, (step, actor, result) in enumerate(
        zip(scenario.plan, replay.actors, replay.results, strict=True), start=1)
        if not result.ok and result.error is not None]
    problems: list[ScenarioProblem] = []
    if refused:
        index, step, actor, error = refused[0]
        later = (f" ({len(refused) - 1} later step(s) failed after it)"
                 if len(refused) > 1 else "")
        problems.append(ScenarioProblem(
            rule="plan.replays", scenario_id=scenario.id, mode=mode, step=index,
            message=f"plan step {index} ({step.tool} by {actor}) failed: "
                    f"{error.code}: {error.message}{later}"))
    final = scenario.expect.final_state.value
    early = [i for i, state in enumerate(replay.states[:-1], start=1) if state == final]
    if early:
        problems.append(ScenarioProblem(
            rule="plan.goal-at-end", scenario_id=scenario.id, mode=mode, step=early[0],
            message=f"the expected final state {final!r} is reached at plan step {early[0]} "
                    f"of {len(scenario.plan)}, before the last step"))
    score = score_trial(scenario, replay.world)
    if not refused and not score.passed:
        problems.append(ScenarioProblem(
            rule="plan.reaches-goal", scenario_id=scenario.id, mode=mode,
            message="the replayed plan misses the goal: " + "; ".join(score.failures)))
    return problems


def verify_scenario(scenario: Scenario, modes: Sequence[ControlMode] | None = None, *,
                    seed: int = 0) -> list[str]:
    """Every reason ``scenario``'s plan does not prove it solvable (empty: verified).

    One sentence each, the mode first when the problem shows in one mode (the messages
    of :func:`plan_checks` and :func:`replay_checks`).

    Args:
        scenario: the scenario.
        modes: the control modes to replay in (default: the built-in modes).
        seed: the personas' seed (phrasing only).
    """
    problems = plan_checks(scenario)
    for mode in modes if modes is not None else builtin_modes().values():
        problems += replay_checks(scenario, replay_plan(scenario, mode, seed=seed))
    return [problem.sentence for problem in problems]
