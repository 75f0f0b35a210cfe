"""Scripted trials for the divergence tests: the oracle, with a few of its calls rewritten.

A :class:`Rule` names one of the oracle's calls (its tool and, for ``request_action``,
the action requested) and the calls to make instead, the first time the oracle chooses
it: scripted calls, then the oracle's own call unless the rule drops it. The oracle is
shown the result of its own calls only; messages that arrive in between are passed on
with the next observation it sees. Trials run through the real harness, so their
trails are what an agent would leave.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from remit.actors import Briefing, Observation, OracleAgent, TrialInfo, reference_agent
from remit.authority import ControlMode
from remit.harness import TrialRecord, run_one
from remit.scenarios import Scenario
from remit.world import MessageEntry, ToolCall

QUOTE = "Q-1"


@dataclass(frozen=True)
class Rule:
    """Play ``calls`` the first time the oracle chooses ``tool`` (requesting ``action``),
    then the oracle's own call unless ``drop``."""

    tool: str
    calls: tuple[ToolCall, ...] = ()
    action: str | None = None
    drop: bool = False

    def matches(self, call: ToolCall) -> bool:
        return call.tool == self.tool and (
            self.action is None or call.arguments.get("action") == self.action)


class ScriptedOracle:
    """The oracle with :class:`Rule` rewrites (see the module docstring)."""

    def __init__(self, info: TrialInfo, rules: Sequence[Rule]) -> None:
        self.oracle = OracleAgent(info)
        self.rules = list(rules)
        self.queue: deque[tuple[ToolCall, bool]] = deque()
        self.for_oracle: Observation | None = None
        self.messages: list[MessageEntry] = []
        self.last_was_oracles = True

    def start(self, briefing: Briefing) -> None:
        self.oracle.start(briefing)

    def act(self, observation: Observation) -> ToolCall:
        if self.last_was_oracles or self.for_oracle is None:
            self.for_oracle = observation
        self.messages.extend(observation.messages)
        if not self.queue:
            seen = self.for_oracle.model_copy(update={"messages": tuple(self.messages)})
            self.messages = []
            self.queue.extend(self._rewrite(self.oracle.act(seen)))
        call, self.last_was_oracles = self.queue.popleft()
        return call

    def _rewrite(self, call: ToolCall) -> list[tuple[ToolCall, bool]]:
        rule = next((r for r in self.rules if r.matches(call)), None)
        if rule is None:
            return [(call, True)]
        self.rules.remove(rule)
        return [*((c, False) for c in rule.calls), *([] if rule.drop else [(call, True)])]


def scripted_trial(scenario: Scenario, mode: ControlMode, *rules: Rule) -> TrialRecord:
    """One trial of the oracle rewritten by ``rules``, run and scored by the harness."""

    @reference_agent
    def factory(info: TrialInfo) -> ScriptedOracle:
        return ScriptedOracle(info, rules)

    record, _ = run_one(scenario, mode, factory)
    return record


def call(tool: str, **arguments: object) -> ToolCall:
    """A tool call on the trial's quote."""
    return ToolCall.model_validate({"tool": tool, "arguments": {"quote_id": QUOTE, **arguments}})


END = ToolCall(tool="end", arguments={"summary": "That is all I can do."})
"""The agent ends the trial."""


@reference_agent
def refused_submit_then_stop(info: TrialInfo) -> ScriptedOracle:
    """The oracle, submitting once without the justification (refused) before its own
    submit, and ending where it would ask the buyer to accept: an agent for
    ``remit run --agent tests.reports.scripted:refused_submit_then_stop``."""
    return ScriptedOracle(info, (Rule("submit", (call("submit"),)),
                                 Rule("request_action", (END,), action="accept", drop=True)))
