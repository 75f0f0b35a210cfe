"""The oracle agent: follows a scenario's reference plan, through hand-offs where needed.

The oracle proves that a scenario is solvable in a mode: it must pass every built-in
scenario in every built-in mode. It knows nothing beyond the plan and what the world
tells it (its briefing, its tool results and its messages).

For each plan step:

- an agent step (``role`` is ``agent``: a read, an ``ask``, a write the agent owns, a
  message) is called as written; the answer to an ``ask`` arrives as a message;
- an owner step (``role`` is another party) is called directly when the briefing says
  the agent holds the action in this mode (all-tools; a custom mode's delegation, and if
  the delegation's limit denies it, the oracle asks the owner); otherwise it opens a
  hand-off with ``request_action`` (citing the step's evidence) and sees it through:
  it reads the quote to learn the hand-off's status and, while the hand-off is open
  (a silent owner) or declined (an owner who wants evidence first), follows up with
  the evidence, up to ``max_follow_ups`` times. A hand-off it will not see completed
  (follow-ups spent, or the quote moved to a state where the action is no longer
  possible, as when the buyer rejects instead of accepting) is withdrawn with a reason,
  and the buyer is told, so the oracle never leaves a hand-off behind.

After the last step it ends the conversation.

Example:
    >>> agent = oracle_factory(info)                    # doctest: +SKIP
    >>> world = run_trial(scenario, mode, agent)        # doctest: +SKIP
"""

from __future__ import annotations

from pydantic import JsonValue

from remit.actors.protocol import (
    Briefing,
    Observation,
    PlanStep,
    TrialInfo,
    reference_agent,
)
from remit.authority import Action, Role
from remit.quotes import actions_from
from remit.world import ToolCall, ToolResult

__all__ = ["DEFAULT_FOLLOW_UPS", "OracleAgent", "oracle_factory"]

DEFAULT_FOLLOW_UPS = 3
"""Follow-ups the oracle sends on one hand-off before it goes on without it."""

_FINISHED = ("completed", "withdrawn")


class _Pending:
    """A hand-off the oracle is seeing through: the step, its id, and what was sent last."""

    def __init__(self, step: PlanStep, action: Action) -> None:
        self.step = step
        self.action = action
        self.handoff_id: str | None = None
        self.follow_ups = 0
        self.checking = False
        self.withdrawing = False
        self.told = False
        self.reason = ""


@reference_agent
class OracleAgent:
    """An agent that follows ``info.plan`` (see the module docstring).

    Args:
        info: the trial; the oracle reads only its plan (a reference agent: see
            :func:`~remit.actors.protocol.reference_agent`).
        max_follow_ups: follow-ups per hand-off before going on.

    Attributes:
        plan: the reference plan followed.
        position: the index of the next plan step.
    """

    def __init__(self, info: TrialInfo, *, max_follow_ups: int = DEFAULT_FOLLOW_UPS) -> None:
        self.plan = info.plan
        self.position = 0
        self._max_follow_ups = max_follow_ups
        self._owners: dict[Action, tuple[Role, ...]] = {}
        self._pending: _Pending | None = None
        self._tried: _Pending | None = None  # an owner's action the oracle just performed

    def start(self, briefing: Briefing) -> None:
        """Remember who holds each action in this mode."""
        self._owners = dict(briefing.owners)

    def act(self, observation: Observation) -> ToolCall:
        """The next call: see a pending hand-off through, else take the next plan step."""
        tried, self._tried = self._tried, None
        if tried is not None and _denied(observation.result):
            # A custom mode may grant the agent an owner's action within limits only (a
            # delegated approval up to a 5% discount, say); denied, ask the owner instead.
            self._pending = tried
            return _request(tried.step, tried.action)
        if self._pending is not None:
            call = self._see_through(self._pending, observation.result)
            if call is not None:
                return call
            self._pending = None
        return self._next_step()

    # -- plan steps -----------------------------------------------------------------------

    def _next_step(self) -> ToolCall:
        if self.position >= len(self.plan):
            return ToolCall(tool="end", arguments={
                "summary": f"Followed the reference plan to its end ({len(self.plan)} steps)."})
        step = self.plan[self.position]
        self.position += 1
        action = _action_of(step.tool)
        if step.tool == "request_action":
            # A hand-off written into the plan itself: see it through like any other.
            self._pending = _Pending(step, Action(str(step.arguments["action"])))
            return ToolCall(tool=step.tool, arguments=dict(step.arguments))
        if step.role is Role.AGENT or action is None:
            return ToolCall(tool=step.tool, arguments=dict(step.arguments))
        if Role.AGENT in self._owners.get(action, ()):
            self._tried = _Pending(step, action)
            return ToolCall(tool=step.tool, arguments=dict(step.arguments))
        self._pending = _Pending(step, action)
        return _request(step, action)

    # -- hand-offs ------------------------------------------------------------------------

    def _see_through(self, pending: _Pending, result: ToolResult | None) -> ToolCall | None:
        """The next call for ``pending`` given the last result, or ``None`` to go on."""
        if pending.withdrawing:
            if pending.told:
                return None
            pending.told = True
            return ToolCall(tool="message", arguments={
                "to": Role.BUYER.value,
                "text": f"For your information: I have withdrawn my request {pending.handoff_id} "
                        f"for {pending.action.value} on {_quote_id(pending.step)}, because "
                        f"{pending.reason}."})
        if not pending.checking:
            return self._check(pending, result)
        pending.checking = False
        return self._decide_next(pending, result)

    @staticmethod
    def _check(pending: _Pending, result: ToolResult | None) -> ToolCall | None:
        """After a request or follow-up: read the quote to see where the hand-off stands."""
        if result is None or not result.ok:
            return None
        if pending.handoff_id is None:
            pending.handoff_id = _field(result.content, "handoff_id")
            if pending.handoff_id is None:
                return None
        pending.checking = True
        return ToolCall(tool="get_quote", arguments={"quote_id": _quote_id(pending.step)})

    def _decide_next(self, pending: _Pending, result: ToolResult | None) -> ToolCall | None:
        """After reading the quote: go on, follow up, or withdraw."""
        if _handoff_status(result, pending.handoff_id) in _FINISHED:
            return None
        state = _field(result.content, "state") if result is not None else None
        if state is not None and pending.action not in actions_from(state):
            return self._withdraw(pending, f"the quote is {state}; {pending.action.value} is "
                                           "no longer possible")
        if pending.follow_ups >= self._max_follow_ups:
            return self._withdraw(pending, f"no {pending.action.value} after "
                                           f"{pending.follow_ups} follow-ups")
        pending.follow_ups += 1
        return ToolCall(tool="follow_up", arguments={
            "handoff_id": pending.handoff_id,
            "text": f"Following up on {pending.handoff_id}: please "
                    f"{_wanted(pending.step, pending.action)}",
        })

    @staticmethod
    def _withdraw(pending: _Pending, reason: str) -> ToolCall:
        """Close a hand-off the oracle will not see completed, so none is left behind."""
        pending.withdrawing = True
        pending.reason = reason
        return ToolCall(tool="withdraw", arguments={"handoff_id": pending.handoff_id,
                                                    "reason": reason})


_ACTIONS = {action.value: action for action in Action}


def _action_of(tool: str) -> Action | None:
    return _ACTIONS.get(tool)


def _quote_id(step: PlanStep) -> str:
    value = step.arguments.get("quote_id")
    return value if isinstance(value, str) else ""


def _evidence(step: PlanStep) -> list[str]:
    value = step.arguments.get("evidence")
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]


def _wanted(step: PlanStep, action: Action) -> str:
    """What the oracle asks the owner for, e.g. ``approve quote Q-1. Evidence: ...``."""
    evidence = _evidence(step)
    cited = f" Evidence: {', '.join(evidence)}." if evidence else ""
    return f"{action.value} quote {_quote_id(step)}.{cited}"


def _denied(result: ToolResult | None) -> bool:
    return result is not None and result.error is not None and result.error.code == "denied"


def _request(step: PlanStep, action: Action) -> ToolCall:
    arguments: dict[str, JsonValue] = {
        "to": step.role.value,
        "action": action.value,
        "quote_id": _quote_id(step),
        "evidence": list[JsonValue](_evidence(step)),
        "text": f"Could you please {_wanted(step, action)}",
    }
    return ToolCall(tool="request_action", arguments=arguments)


def _field(content: JsonValue, name: str) -> str | None:
    if isinstance(content, dict):
        value = content.get(name)
        if isinstance(value, str):
            return value
    return None


def _handoff_status(result: ToolResult | None, handoff_id: str | None) -> str | None:
    """The status of ``handoff_id`` in a ``get_quote`` result, if it is there."""
    if result is None or not result.ok or not isinstance(result.content, dict):
        return None
    handoffs = result.content.get("handoffs")
    if not isinstance(handoffs, list):
        return None
    for handoff in handoffs:
        if _field(handoff, "id") == handoff_id:
            return _field(handoff, "status")
    return None


@reference_agent
def oracle_factory(info: TrialInfo) -> OracleAgent:
    """A fresh :class:`OracleAgent` for the trial.

    Usable as ``--agent remit.actors.oracle:oracle_factory``.
    """
    return OracleAgent(info)
