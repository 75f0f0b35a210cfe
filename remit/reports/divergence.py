"""Where a failing trial went wrong: its trail as steps, and the first step at which
the agent left the reference plan for good (:func:`divergence`).

:mod:`remit.reports.explain` renders the steps and marks this divergence ``>>``; the
approval trails and the HTML report show it too. The rule is deterministic and reads
only the trail and the scenario (see :func:`divergence`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

from pydantic import JsonValue

from remit.authority import Action, ControlMode, Role, mode_by_name, who_can
from remit.harness.runner import TrialRecord
from remit.quotes import QuoteState, allowed_from
from remit.reports.model import Divergence
from remit.reports.safe import visible
from remit.scenarios import PlanStep, Scenario
from remit.world import (
    DecisionEntry,
    EndEntry,
    ErrorEntry,
    HandoffEntry,
    ToolCallEntry,
    ToolGroup,
    TrailEntry,
    TransitionEntry,
    tool_spec,
)

__all__ = ["Step", "as_divergence", "divergence", "find_divergence", "first_divergence",
           "mode_of", "steps_of"]

_UNCOMPARED = frozenset({"ask", "follow_up", "withdraw", "end", "message"})
"""Agent tools left out of the comparison with the plan: how the agent gathers facts
(asking, or in all-tools reading the site facts), bookkeeping, chat and the end. The
divergence is about the commercial path, the writes and hand-offs, where a departure is
what decides a trial; compared on asks too, nearly every trail of a capable agent
"diverged" at its first question, passing ones included."""

_LINE_CHARS = 150
_TEXT_CHARS = 50

_Key = tuple[str, ...]


def _is_read(tool: str) -> bool:
    spec = tool_spec(tool)
    return spec is not None and spec.group is ToolGroup.READ


def _clip(text: str, limit: int) -> str:
    text = " ".join(visible(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- steps -------------------------------------------------------------------------------


def _call_label(call: ToolCallEntry) -> str:
    """A tool call with its key arguments, e.g. ``request_action(to=finance, action=approve)``."""
    args = call.arguments
    raw_lines = args.get("lines")
    if call.tool == Action.EDIT_LINES.value and isinstance(raw_lines, list):
        lines = [line for line in raw_lines if isinstance(line, dict)]
        return "edit_lines(" + ", ".join(
            f"{line.get('sku')} x{line.get('quantity')}"
            + (f" -{line['discount_pct']}%" if line.get("discount_pct") else "")
            for line in lines) + ")"
    if call.tool in ("ask", "request_action", "message"):
        parts = [f"to={args.get('to')}"]
        if call.tool == "request_action":
            parts.append(f"action={args.get('action')}")
        facts = args.get("facts")
        if call.tool == "ask" and isinstance(facts, list):
            parts.append("facts=" + "+".join(map(str, facts)))
        said = f' "{_clip(str(args.get("text", "")), _TEXT_CHARS)}"' \
            if call.tool == "message" else ""
        return f"{call.tool}({', '.join(parts)}){said}"
    if call.tool in ("follow_up", "withdraw"):
        return f"{call.tool}({args.get('handoff_id')})"
    if _is_read(call.tool):
        first = next((v for v in args.values() if isinstance(v, str | int)), "")
        return f"{call.tool}({first})"
    evidence = args.get("evidence")
    cited = f"(evidence={','.join(map(str, evidence))})" \
        if isinstance(evidence, list) and evidence else ""
    return f"{call.tool}{cited}"


class Step:
    """One numbered step: a tool call with its effects, an owner's answer, or the end."""

    def __init__(self, step: int, minute: int, actor: str,
                 call: ToolCallEntry | None = None) -> None:
        self.step = step
        self.minute = minute
        self.actor = actor
        self.call = call
        self.effects: list[TrailEntry] = []

    @property
    def by_agent(self) -> bool:
        return self.actor == Role.AGENT.value

    @property
    def read(self) -> bool:
        """A read that went through: noise."""
        return (self.call is not None and _is_read(self.call.tool)
                and not any(isinstance(e, ErrorEntry) for e in self.effects))

    @property
    def chat(self) -> bool:
        """A persona's message: context, shown when there is room."""
        return (self.call is not None and self.call.tool == "message" and not self.by_agent
                and len(self.effects) <= 1)

    @property
    def is_end(self) -> bool:
        return any(isinstance(e, EndEntry) for e in self.effects)

    def label(self) -> str:
        call = self.call
        if call is None:
            answered = next((e for e in self.effects if isinstance(e, HandoffEntry)), None)
            if answered is not None:
                return f"answers {answered.handoff_id} ({answered.action.value})"
            return "ends the trial" if self.is_end else "acts"
        return _call_label(call)

    def outcome(self) -> str:
        parts: list[str] = []
        denied = False
        for entry in self.effects:
            if isinstance(entry, DecisionEntry) and not entry.allowed:
                denied = True
                parts.append(f"denied: {(entry.unmet or entry.reasons or ('no grant',))[0]}")
            elif isinstance(entry, ErrorEntry) and not (denied and entry.code == "denied"):
                parts.append(f"{entry.code}: {entry.message}")
            elif isinstance(entry, TransitionEntry):
                parts.append(f"v{entry.version}" if entry.from_state == entry.to_state
                             else f"{entry.from_state} -> {entry.to_state}")
            elif isinstance(entry, HandoffEntry):
                verb = {"opened": "opened", "followed_up": "followed up",
                        "completed": "completed", "declined": "declined",
                        "withdrawn": "withdrew"}[entry.event]
                why = f": {entry.reason}" if entry.event == "declined" and entry.reason else ""
                parts.append(f"{verb} {entry.handoff_id}{why}")
            elif isinstance(entry, EndEntry):
                parts.append(f"ended ({entry.reason})")
        if parts:
            return "; ".join(parts)
        return "sent" if self.call is not None and self.call.tool in (
            "message", "ask") else "ok"

    def render(self) -> str:
        text = f"{self.step:02d} [t={self.minute:>3}m] {self.actor} {self.label()} " \
               f"-> {self.outcome()}"
        return text if len(text) <= _LINE_CHARS else text[:_LINE_CHARS - 3] + "..."


def steps_of(trail: Sequence[TrailEntry]) -> list[Step]:
    """The trail grouped into steps: each tool call gathers the entries that follow it; an
    owner's answer to a hand-off reached without a call of its own is a step of its own."""
    steps: list[Step] = []
    current: Step | None = None
    for entry in trail:
        if isinstance(entry, ToolCallEntry):
            current = Step(entry.step, entry.minute, entry.actor.value, entry)
            steps.append(current)
        elif (isinstance(entry, HandoffEntry) and entry.event in ("completed", "declined")
              and (current is None or current.actor != entry.owner.value)):
            answer = Step(entry.step, entry.minute, entry.owner.value)
            answer.effects.append(entry)
            steps.append(answer)
        elif current is None or (isinstance(entry, EndEntry) and not (
                current.call is not None and current.call.tool == "end")):
            orphan = Step(entry.step, entry.minute, "system")
            orphan.effects.append(entry)
            steps.append(orphan)
        else:
            current.effects.append(entry)
    return steps


# -- divergence from the plan ----------------------------------------------------------


def _skus(arguments: dict[str, JsonValue]) -> _Key:
    """The SKUs of an ``edit_lines`` call's lines, sorted (quantities, discounts and
    citations left out)."""
    lines = arguments.get("lines")
    if not isinstance(lines, list):
        return ()
    return tuple(sorted(str(line.get("sku", "")) for line in lines if isinstance(line, dict)))


def _key(tool: str, arguments: dict[str, JsonValue]) -> _Key:
    """What must match between a call and a plan step: the tool and its key arguments."""
    if tool == "ask":
        return (tool, str(arguments.get("to", "")))
    if tool == "request_action":
        return (tool, str(arguments.get("to", "")), str(arguments.get("action", "")))
    if tool == Action.EDIT_LINES.value:
        return (tool, *_skus(arguments))
    return (tool,)


def _describe(key: _Key) -> str:
    tool, *rest = key
    if tool == "ask":
        return f"ask(to={rest[0]})"
    if tool == "request_action":
        return f"request_action(to={rest[0]}, action={rest[1]})"
    if tool == Action.EDIT_LINES.value:
        return f"edit_lines({', '.join(rest)})"
    return tool


def _action(name: object) -> Action | None:
    try:
        return Action(str(name))
    except ValueError:
        return None


def _expected(step: PlanStep, mode: ControlMode | None) -> frozenset[_Key]:
    """The agent calls that carry out one plan step in ``mode`` (either form if unknown)."""
    direct = _key(step.tool, step.arguments)
    action = _action(step.tool)
    if action is None or step.role is Role.AGENT:
        return frozenset({direct})
    requested = ("request_action", step.role.value, action.value)
    if mode is None:
        return frozenset({direct, requested})
    return frozenset({direct if Role.AGENT in who_can(mode, action) else requested})


def _described(keys: frozenset[_Key]) -> str:
    return " or ".join(sorted(_describe(k) for k in keys))


def _went_through(step: Step) -> bool:
    """Whether the agent's call took effect: a write made its transition, a request
    opened its hand-off, any other call raised no error."""
    if any(isinstance(e, ErrorEntry) for e in step.effects) or step.call is None:
        return False
    if step.call.tool == "request_action":
        return any(isinstance(e, HandoffEntry) and e.event == "opened" for e in step.effects)
    if _action(step.call.tool) is not None:
        return _moved(step)
    return True


def _moved(step: Step) -> bool:
    """Whether the agent's call moved the quote (a transition of its own)."""
    return any(isinstance(e, TransitionEntry) and e.role is Role.AGENT for e in step.effects)


class _Need:
    """One step the reference plan needs done, with the SKUs the plan's quote has once
    it is done.

    Attributes:
        write: the write the step is (``None`` for a request or another call).
        action: the write it makes or requests.
        carried_by: the agent calls that carry it out: for an owner's write, doing it
            (where the mode lets the agent) or requesting it from the owner; the call
            itself otherwise.
        described: what the plan expects, in the form ``mode`` gives the agent.
    """

    def __init__(self, step: PlanStep, skus: _Key, mode: ControlMode | None) -> None:
        self.step = step
        self.skus = skus
        self.key = _key(step.tool, step.arguments)
        self.write = _action(step.tool)
        self.action = self.write or (_action(step.arguments.get("action"))
                                     if step.tool == "request_action" else None)
        self.carried_by = _expected(step, None)
        self._mode = mode

    @property
    def described(self) -> str:
        """What the plan expects, in the form the mode gives the agent (worked out only
        for the one need a divergence names)."""
        return _described(_expected(self.step, self._mode))

    @property
    def owners(self) -> bool:
        """An owner's write: the agent may do it itself only where the mode lets it."""
        return self.write is not None and self.step.role is not Role.AGENT

    def possible(self, state: str) -> bool:
        """Whether the quote's state lets the step happen now."""
        return self.action is None or state in {s.value for s in allowed_from(self.action)}

    def done_by(self, step: Step, skus: _Key) -> bool:
        """Whether ``step`` does it: a transition of the write (by whoever holds it) that
        leaves the quote with the plan's SKUs, or the agent's call that went through."""
        if self.write is not None:
            return skus == self.skus and any(
                isinstance(e, TransitionEntry) and e.action is self.write for e in step.effects)
        return (step.by_agent and step.call is not None and _went_through(step)
                and _key(step.call.tool, step.call.arguments) == self.key)


class _Same:
    """A cache key that hashes and compares by identity and keeps its object alive: for
    immutable models that are not hashable (a plan's steps hold dicts)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


def _needs(plan: Sequence[PlanStep], mode: ControlMode | None) -> tuple[_Need, ...]:
    """The plan's steps that count: writes and requests, in order (worked out once per
    plan and mode: a report walks many trials of each scenario)."""
    return _needs_of(_Same(plan), _Same(mode))


@functools.lru_cache(maxsize=512)
def _needs_of(plan_key: _Same, mode_key: _Same) -> tuple[_Need, ...]:
    plan = cast("Sequence[PlanStep]", plan_key.value)
    mode = cast("ControlMode | None", mode_key.value)
    needs: list[_Need] = []
    skus: _Key = ()
    for step in plan:
        if step.tool in _UNCOMPARED or _is_read(step.tool):
            continue
        if step.tool == Action.EDIT_LINES.value:
            skus = _skus(step.arguments)
        needs.append(_Need(step, skus, mode))
    return tuple(needs)


def _fatal_actions(scenario: Scenario) -> frozenset[Action]:
    """Writes that fail the trial as soon as the agent makes them: those the scenario
    forbids and, when it checks collateral damage, those neither planned, required nor
    tolerated (as scoring counts them)."""
    expect = scenario.expect
    fatal = set(expect.forbidden_actions)
    if expect.no_collateral_damage:
        expected = (scenario.planned_actions() | set(expect.owner_actions)
                    | set(expect.tolerated_actions))
        fatal |= set(Action) - expected
    return frozenset(fatal)


class _Walk:
    """The trail walked against the plan's needs (see :func:`divergence` for the rule)."""

    def __init__(self, steps: Sequence[Step], scenario: Scenario,
                 mode: ControlMode | None) -> None:
        self.needs = _needs(scenario.plan, mode)
        self.done = 0
        self.last_done = -1
        self.departures: list[tuple[int, int, bool]] = []
        """(step index, needs done by then, idle: the call changed nothing)."""
        self.fatal: list[tuple[int, int]] = []
        self.carried: list[tuple[int, int]] = []
        """(step index, needs done by then) of the agent's calls that carried out the next
        need and went through: a retry that recovers from a failed call."""
        self.requested: dict[int, tuple[int, int]] = {}
        """Needs done -> (step index, trail step) of the first request for that owner's write."""
        fatal = _fatal_actions(scenario)
        state = QuoteState.DRAFT.value
        skus: _Key = ()
        for index, step in enumerate(steps):
            before = state
            for entry in step.effects:
                if isinstance(entry, TransitionEntry):
                    state = entry.to_state
                    if entry.action is Action.EDIT_LINES:  # lines unknown without the call
                        skus = _skus(step.call.arguments) if step.call is not None else ("?",)
            self._visit(index, step, before, skus, fatal)

    def _visit(self, index: int, step: Step, state: str, skus: _Key,
               fatal: frozenset[Action]) -> None:
        need = self.needs[self.done] if self.done < len(self.needs) else None
        if need is not None and need.done_by(step, skus):
            self.done += 1
            self.last_done = index
            return
        if not _compared(step) or step.call is None:
            return
        if _moved(step):
            self.departures.append((index, self.done, False))
            if any(isinstance(e, TransitionEntry) and e.role is Role.AGENT and e.action in fatal
                   for e in step.effects):
                self.fatal.append((index, self.done))
            return
        if need is None:
            return  # past the plan's end, only a write departs
        key = _key(step.call.tool, step.call.arguments)
        if key not in need.carried_by:
            if need.possible(state):
                self.departures.append((index, self.done, True))
        elif _went_through(step):
            self.carried.append((index, self.done))
            if need.owners and key[0] == "request_action":
                self.requested.setdefault(self.done, (index, step.step))

    def found(self, last: int) -> tuple[int, str] | None:
        """The divergence's step index and what the plan expected there; ``last`` is the
        index of the trail's last agent step or end."""
        kept = [(index, done) for index, done, idle in self.departures
                if index > self.last_done and not (idle and any(
                    later > index and at == done for later, at in self.carried))]
        kept += self.fatal
        if kept:
            index, done = min(kept)
        elif self.done < len(self.needs):
            index, done = last, self.done
        else:
            return None
        return index, self._expectation(index, done)

    def _expectation(self, index: int, done: int) -> str:
        if done >= len(self.needs):
            return "nothing more (the plan had ended)"
        need = self.needs[done]
        asked = self.requested.get(done)
        if asked is not None and asked[0] < index:
            return (f"{need.step.tool} by {need.step.role.value} (requested at step "
                    f"{asked[1]}, not yet done)")
        return need.described


def _compared(step: Step) -> bool:
    """An agent call the divergence looks at: neither a read (even a failed one) nor a
    call left out of the comparison with the plan."""
    return (step.by_agent and step.call is not None and not _is_read(step.call.tool)
            and step.call.tool not in _UNCOMPARED)


def find_divergence(steps: Sequence[Step], scenario: Scenario, mode: ControlMode | None,
                    failed: bool) -> tuple[int, str] | None:
    """The divergence's step index and what the plan expected there, or ``None`` (see
    :func:`divergence`)."""
    if not failed or not steps:
        return None
    ends = [i for i, s in enumerate(steps) if s.by_agent or s.is_end]
    return _Walk(steps, scenario, mode).found(ends[-1] if ends else len(steps) - 1)


def mode_of(record: TrialRecord, mode: ControlMode | None) -> ControlMode | None:
    """``mode``, or the built-in mode the record names (``None`` for a custom one)."""
    if mode is not None:
        return mode
    try:
        return mode_by_name(record.scored.mode)
    except ValueError:
        return None


def divergence(record: TrialRecord, scenario: Scenario, *,
               mode: ControlMode | None = None) -> Divergence | None:
    """Where a failing trial's failure became inevitable, measured against
    ``scenario``'s reference plan, and what the plan expected there (the step
    :func:`explain` marks ``>>``).

    The plan's steps that count are its writes and requests, in order (its asks and
    reads are how facts are gathered and are left out). A plan step is *done* when the
    trail shows its effect: a write's transition, by whoever holds it (the agent, or the
    owner it asked), made while the quote has the SKUs the plan's lines have by then; a
    request the plan makes itself when its hand-off opens. The divergence is the first
    agent step, after the last plan step done, of these (the earliest one wins):

    - a write of the agent that moved the quote somewhere the plan does not go next (a
      wrong variant, an action the plan does not take, a step the plan skipped);
    - a call that changed nothing and is not how the plan's next step is carried out
      (a request to the wrong party, a denied write of another role's action) while the
      quote's state allows that step, unless the agent later carries the step out with a
      call that goes through (a denied approval, then the request to finance);
    - when neither happened and the plan is not done: the agent's ``end`` (or the last
      agent step, when the trial ended otherwise), as the agent stopped short.

    Whatever the plan does afterwards, a write the scenario's expectations forbid (or,
    when it checks collateral damage, one neither planned, required nor tolerated) is a
    divergence at once. Calls that failed and were retried (a ``submit`` refused for
    its missing justification, then submitted with one), reads, asks, follow-ups,
    withdrawals and messages are never the divergence; an owner's write counts the
    same whether the agent does it (where the mode lets it) or requests it. The rule is
    deterministic and reads only the trail and the scenario.

    Args:
        record: the trial.
        scenario: its scenario.
        mode: its control mode (default: the built-in mode of the record's mode name); it
            decides only how the plan's expectation is worded.

    Returns:
        The divergence, or ``None`` when the trial passed or when every plan step was
        done and nothing the agent did afterwards moved the quote (the failure lies
        elsewhere, in what was said).
    """
    steps = steps_of(record.trail)
    found = find_divergence(steps, scenario, mode_of(record, mode),
                        failed=not record.scored.score.passed)
    return as_divergence(steps, found)


def as_divergence(steps: Sequence[Step], found: tuple[int, str] | None) -> Divergence | None:
    """What :func:`find_divergence` found, as the report model's :class:`Divergence`."""
    if found is None:
        return None
    step = steps[found[0]]
    return Divergence(step=step.step, minute=step.minute, expected=found[1])


def first_divergence(record: TrialRecord, scenario: Scenario,
                     mode: ControlMode | None = None) -> int | None:
    """The trail step at which the agent first departs from the reference plan, or
    ``None`` when it follows the plan (see :func:`divergence`)."""
    found = divergence(record, scenario, mode=mode)
    return None if found is None else found.step
