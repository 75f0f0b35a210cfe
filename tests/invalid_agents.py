"""Agents that never produce a valid write: every call is an unknown tool or has bad
arguments, one of them repeated, and then they end.

:class:`InvalidCaller` reports its usage as an LLM agent would (``usage()``): one model
call per step and, by kind, the replies it could not use: each error its calls came back
with (``unknown_tool``, ``bad_arguments``) and each call repeating the one before
(``repeated_call``). :class:`SilentInvalidCaller` makes the same calls and reports no
usage, like any scripted agent. Load them with ``--agent tests.invalid_agents:invalid``
or ``tests.invalid_agents:silent``.
"""

from __future__ import annotations

from remit.actors import AgentUsage, Briefing, Observation, TrialInfo
from remit.world import ToolCall

ISSUES = {"bad_arguments": 2, "repeated_call": 1, "unknown_tool": 2}
"""The reply issues of one trial of :class:`InvalidCaller`."""

CALLS = 5
"""Its tool calls (model calls) per trial, ``end`` included."""


class SilentInvalidCaller:
    """Calls two tools that do not exist and ``edit_lines`` twice without a quantity,
    then ends; reports no usage."""

    def __init__(self, info: TrialInfo) -> None:
        self.info = info
        self.quote_id = ""
        self.made: list[ToolCall] = []
        self.issues: dict[str, int] = {}

    def start(self, briefing: Briefing) -> None:
        self.quote_id = briefing.quote_id

    def _script(self) -> list[ToolCall]:
        lines = {"quote_id": self.quote_id, "lines": [{"sku": "BV-00003"}]}
        return [ToolCall(tool="create_quote", arguments={"sku": "BV-00003"}),
                ToolCall(tool="edit_lines", arguments=lines),
                ToolCall(tool="edit_lines", arguments=lines),
                ToolCall(tool="approve_quote", arguments={"quote": self.quote_id}),
                ToolCall(tool="end", arguments={"summary": "done"})]

    def act(self, observation: Observation) -> ToolCall:
        result = observation.result
        if result is not None and result.error is not None:
            code = result.error.code
            self.issues[code] = self.issues.get(code, 0) + 1
        call = self._script()[len(self.made)]
        if self.made and call == self.made[-1]:
            self.issues["repeated_call"] = self.issues.get("repeated_call", 0) + 1
        self.made.append(call)
        return call


class InvalidCaller(SilentInvalidCaller):
    """:class:`SilentInvalidCaller` that reports its usage, reply issues by kind."""

    def usage(self) -> AgentUsage:
        """One model call per step and every reply it could not use."""
        return AgentUsage(model_calls=len(self.made), prompt_tokens=100 * len(self.made),
                          completion_tokens=10 * len(self.made),
                          reply_issues=dict(self.issues))


def invalid(info: TrialInfo) -> InvalidCaller:
    """An :class:`InvalidCaller` for the trial."""
    return InvalidCaller(info)


def silent(info: TrialInfo) -> SilentInvalidCaller:
    """A :class:`SilentInvalidCaller` for the trial."""
    return SilentInvalidCaller(info)
