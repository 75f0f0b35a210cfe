"""What an MCP client reads back: the briefing, and one report per tool call.

Every tool result the server returns is one JSON document, as text content and as
structured content. A :class:`TurnReport` carries what an in-process agent's next
:class:`~remit.actors.Observation` would (the step, the simulated minute, the tool's
result, the messages addressed to the agent since its previous call) plus whether the
trial has ended, so an external agent sees exactly what an in-process one sees. A
:class:`BriefingReport` carries the agent's :class:`~remit.actors.Briefing` (without the
tools, which ``tools/list`` already gives) and the buyer's opening message.

Example:
    A client's first call, before the buyer has been answered::

        {"step": 1, "minute": 1, "ended": false, "end_reason": null, "end_summary": "",
         "result": {"tool": "get_quote", "ok": true, "content": {...}, "error": null},
         "messages": [{"sender": "buyer", "to": "agent", "tool": "message",
                       "text": "We need ...", ...}]}
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors import Briefing, Observation
from remit.world import EndReason, MessageEntry, ToolResult

__all__ = ["BriefingReport", "TurnReport"]


class TurnReport(BaseModel):
    """What the client sees after one tool call.

    Attributes:
        step: tool calls made so far in the trial, by every party.
        minute: the simulated clock.
        result: the call's result: ``ok`` with ``content``, or an ``error`` with a code
            and a sentence saying what to do instead.
        messages: messages addressed to the agent that the client has not been shown
            yet (the buyer's opening on the first call unless the briefing showed it;
            the replies of the parties the call addressed).
        ended: whether the trial has ended; later calls are refused.
        end_reason: how it ended (``agent_end``, ``max_steps``, ``terminal_state``,
            ``agent_error``), once it has.
        end_summary: the ending's summary (the agent's own, for ``end``).
    """

    model_config = ConfigDict(frozen=True)

    step: int
    minute: int
    result: ToolResult
    messages: tuple[MessageEntry, ...] = ()
    ended: bool = False
    end_reason: EndReason | None = None
    end_summary: str = ""

    def observation(self) -> Observation:
        """The in-process agent's view of this report (what ``act`` would be given)."""
        return Observation(step=self.step, minute=self.minute, result=self.result,
                           messages=self.messages)

    def document(self) -> dict[str, JsonValue]:
        """The report as a JSON object (the tool result's structured content)."""
        return self.model_dump(mode="json")


class BriefingReport(BaseModel):
    """The result of the briefing tool: who the agent is, and the buyer's opening.

    Attributes:
        briefing: the agent's briefing (role, mode, policy, who holds each action in
            this mode, quote id, step budget, and the plan in ``oracle_plan``). Its
            ``tools`` are left out of :meth:`document`: ``tools/list`` gives them.
        opening: the messages the buyer opened the conversation with.
        step: tool calls made so far in the trial.
        minute: the simulated clock.
        ended: whether the trial has ended.
    """

    model_config = ConfigDict(frozen=True)

    briefing: Briefing
    opening: tuple[MessageEntry, ...]
    step: int
    minute: int
    ended: bool

    def document(self) -> dict[str, JsonValue]:
        """The report as a JSON object, without the briefing's tools."""
        return self.model_dump(mode="json", exclude={"briefing": {"tools"}})
