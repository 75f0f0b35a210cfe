"""The chat history an LLM agent sends: its replies, tool results, and the parties' messages.

The history stays valid for the chat-completions API whatever the model did: a reply
with native calls is followed by one ``role: tool`` message per call id (results, or the
error of a call that could not be made) before anything else, and everything else the
agent has to say between two model calls (messages from the parties, results sent as
text, notes about an empty reply) goes into one ``user`` message, so roles alternate as
strict chat templates want.
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from remit.actors.llm.calls import ParsedCall, ParsedReply
from remit.actors.llm.config import ToolResultsAs
from remit.world import MessageEntry, ToolResult

__all__ = ["Transcript", "render_result"]

_NOTHING_NEW = "(no new messages)"


def _dumps(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def render_result(result: ToolResult) -> str:
    """A tool result as the model reads it: ``{"ok": true, "content": ...}`` or the error."""
    if result.ok:
        return _dumps({"ok": True, "content": result.content})
    error: JsonValue = None
    if result.error is not None:
        error = {"code": result.error.code, "message": result.error.message}
    return _dumps({"ok": False, "error": error})


def _incoming(entry: MessageEntry) -> str:
    details = []
    if entry.handoff_id:
        details.append(f"hand-off {entry.handoff_id}")
    if entry.facts:
        details.append("asks for " + ", ".join(entry.facts))
    suffix = f" ({'; '.join(details)})" if details else ""
    return f"From {entry.sender.value}{suffix}: {entry.text}"


def _call_json(call: ParsedCall) -> str:
    arguments: JsonValue = call.arguments if call.arguments is not None else call.raw_arguments
    return _dumps({"name": call.tool, "arguments": arguments})


def _history_arguments(call: ParsedCall) -> str:
    # Servers that re-parse the history (llama.cpp) refuse arguments that are not JSON;
    # the error answering the call quotes what the model wrote.
    return call.raw_arguments if call.error is None else "{}"


class Transcript:
    """One trial's chat history.

    Args:
        system: the system prompt.
        results_as: whether native calls' results go back as ``tool`` or ``user`` messages.
    """

    def __init__(self, system: str, results_as: ToolResultsAs) -> None:
        self.messages: list[JsonValue] = [{"role": "system", "content": system}]
        self.results_as = results_as
        self._pending: list[str] = []

    def _answers_by_id(self, call: ParsedCall) -> bool:
        return self.results_as is ToolResultsAs.TOOL and call.source == "native"

    def add_reply(self, reply: ParsedReply) -> None:
        """Add the model's reply, its native calls kept as such only in ``tool`` mode."""
        native = [call for call in reply.calls if self._answers_by_id(call)]
        if native:
            self.messages.append({
                "role": "assistant", "content": reply.content or None,
                "tool_calls": [{"id": call.id, "type": "function",
                                "function": {"name": call.tool,
                                             "arguments": _history_arguments(call)}}
                               for call in native]})
            return
        content = reply.content
        if any(call.source == "native" for call in reply.calls):
            content = "\n".join([reply.text, *(_call_json(c) for c in reply.calls)]).strip()
        self.messages.append({"role": "assistant", "content": content})

    def add_result(self, call: ParsedCall, result: ToolResult) -> None:
        """Add the result of a call the model made."""
        self._answer(call, render_result(result))

    def add_call_error(self, call: ParsedCall, code: str, message: str) -> None:
        """Answer a call that was not made (its arguments could not be read)."""
        self._answer(call, _dumps({"ok": False, "error": {"code": code, "message": message}}))

    def _answer(self, call: ParsedCall, text: str) -> None:
        if self._answers_by_id(call):
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
        else:
            self._pending.append(f"Result of {call.tool or 'your call'}: {text}")

    def add_incoming(self, messages: tuple[MessageEntry, ...]) -> None:
        """Add messages the parties sent the agent."""
        self._pending.extend(_incoming(entry) for entry in messages)

    def add_note(self, text: str) -> None:
        """Add a note for the model (the trial's briefing, or why its last reply could
        not be used); it goes into the next ``user`` message."""
        self._pending.append(text)

    def request_messages(self) -> list[JsonValue]:
        """The messages of the next request: pending text becomes one ``user`` message."""
        last = self.messages[-1]
        role = last.get("role") if isinstance(last, dict) else None
        if self._pending or role in ("system", "assistant"):
            self.messages.append({"role": "user",
                                  "content": "\n\n".join(self._pending) or _NOTHING_NEW})
            self._pending = []
        return list(self.messages)
