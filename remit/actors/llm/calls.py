"""Reading tool calls out of a model's reply: native ``tool_calls`` or JSON in the content.

What models really write, and what becomes of it:

- a reply cut off by ``max_tokens`` (``finish_reason: "length"``): nothing in it is a
  call or a message, whatever it looks like (:attr:`ReplyIssue.TRUNCATED`);
- native ``tool_calls`` (every format honours them);
- in ``content-json`` or ``auto`` format, a call written in the content: a bare JSON
  object or one inside a fenced block, shaped ``{"name": ..., "arguments": {...}}``
  (``tool``/``parameters``/``args`` and ``{"function": {...}}`` are accepted too; in
  ``content-json`` also a list of calls or ``{"tool_calls": [...]}``); ``arguments``
  may itself be a JSON string;
- arguments that are not a JSON object, or nest deeper than :data:`MAX_ARGUMENT_DEPTH`
  levels: a :class:`ParsedCall` with ``error`` set (:attr:`ReplyIssue.INVALID_JSON`),
  which the agent answers with an error message instead of calling the world;
- lone UTF-16 surrogates (``"\\ud800"`` in the JSON a model writes) in a call's name
  or arguments: replaced by U+FFFD (:func:`remit.world.untrusted.clean`), as the world
  would; arguments beyond the world's other limits (size, string length, items) are
  the world's to refuse, with ``bad_arguments``;
- text and calls in one reply: the calls are made; the text stays in the model's own
  history but is not sent (:attr:`ReplyForm.TEXT_AND_CALLS`);
- several calls: all are made, in order, one per step (:attr:`ReplyForm.SEVERAL_CALLS`);
- no text and no call: :attr:`ReplyIssue.EMPTY_REPLY`;
- text only: a message to the buyer (decided by the agent, not here).

:class:`ReplyIssue` is the closed set of ways a reply can be unusable; :class:`ReplyForm`
notes how a usable reply was written when not in the plain way.

Example:
    >>> reply = parse_reply({"content": '```json\\n{"name": "get_quote", '
    ...                      '"arguments": {"quote_id": "Q-1"}}\\n```'}, ToolCallFormat.AUTO)
    >>> reply.calls[0].tool, reply.calls[0].arguments
    ('get_quote', {'quote_id': 'Q-1'})
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors.llm.config import ToolCallFormat
from remit.world.untrusted import MAX_ARGUMENT_DEPTH, clean, depth

__all__ = ["MAX_ARGUMENT_DEPTH", "ParsedCall", "ParsedReply", "ReplyForm", "ReplyIssue",
           "parse_arguments", "parse_reply"]

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|tool_call)?[ \t]*\n?(.*?)```", re.DOTALL)
_NAME = re.compile(r'"(?:name|tool)"\s*:\s*"([^"]+)"')
_CUT_OFF = "the reply was cut off at max_tokens before this call was complete"


class ReplyIssue(StrEnum):
    """Why a model reply could not be used as it was: a closed set, counted per trial.

    Each one is sent back to the model as an error it can act on, and counted in
    ``agent.stats.issues`` and the trial's ``AgentUsage.reply_issues`` by its value:

    ``truncated``: the reply was cut off at ``max_tokens`` (``finish_reason: "length"``);
    nothing in it is made or sent.
    ``invalid_json``: a call that could not be read (unparseable): its arguments, or the
    call written in the content, are not one JSON object, or nest too deep; it is not made.
    ``unknown_tool`` / ``bad_arguments``: the world refused the call for that reason.
    ``repeated_call``: the same tool with the same arguments as the call made just
    before, with no message arriving in between; it is not made.
    ``empty_reply``: neither text nor a call.
    """

    TRUNCATED = "truncated"
    INVALID_JSON = "invalid_json"
    UNKNOWN_TOOL = "unknown_tool"
    BAD_ARGUMENTS = "bad_arguments"
    REPEATED_CALL = "repeated_call"
    EMPTY_REPLY = "empty_reply"


class ReplyForm(StrEnum):
    """How a usable reply was written when not in the plain way: noted, not an issue.

    ``text_and_calls``: text beside calls (the calls are made; the text is not sent).
    ``several_calls``: more than one call in one reply (all are made, in order).
    ``content_json_call``: a call written as JSON in the content, not natively.
    """

    TEXT_AND_CALLS = "text_and_calls"
    SEVERAL_CALLS = "several_calls"
    CONTENT_JSON_CALL = "content_json_call"


class ParsedCall(BaseModel):
    """One call read from a reply.

    Attributes:
        id: the native call's id (``None`` for a call written in the content).
        tool: the tool name as written (may be unknown to the world, or empty).
        arguments: the arguments, or ``None`` when they could not be read.
        raw_arguments: the arguments as the model wrote them.
        error: why the arguments could not be read (``None`` when they could).
        source: ``native`` (``tool_calls``) or ``content``.
    """

    model_config = ConfigDict(frozen=True)

    id: str | None
    tool: str
    arguments: dict[str, JsonValue] | None
    raw_arguments: str
    error: str | None = None
    source: Literal["native", "content"]


class ParsedReply(BaseModel):
    """A reply read into text, calls, issues and forms.

    Attributes:
        text: the text meant for a reader (the content less any call written in it).
        content: the content exactly as received.
        calls: the calls, in the order written (none is to be made when ``truncated``).
        issues: why the reply, or some of its calls, cannot be used (each at most once).
        forms: how the reply was written, when not in the plain way (each at most once).
        truncated: the reply was cut off at ``max_tokens``.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    content: str
    calls: tuple[ParsedCall, ...]
    issues: tuple[ReplyIssue, ...]
    forms: tuple[ReplyForm, ...] = ()
    truncated: bool = False


def parse_arguments(raw: JsonValue) -> tuple[dict[str, JsonValue] | None, str | None]:
    """Arguments as a JSON object, from a JSON string or an object; else an error sentence.

    An empty string or ``null`` means no arguments (some servers send that for a call
    without parameters). Arguments nested deeper than :data:`MAX_ARGUMENT_DEPTH` levels
    are an error, as is JSON too deep for the reader itself.
    """
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, None
    value: JsonValue = raw
    if isinstance(raw, str):
        value, error = _loads(raw)
        if error is not None:
            return None, f"arguments are {error}"
    if not isinstance(value, dict):
        return None, f"arguments must be a JSON object, not a JSON {_json_kind(value)}"
    if depth(value) > MAX_ARGUMENT_DEPTH:
        return None, f"arguments nest deeper than {MAX_ARGUMENT_DEPTH} levels"
    return value, None


def _loads(raw: str) -> tuple[JsonValue, str | None]:
    """``raw`` read as JSON (lone surrogates replaced by U+FFFD), or why it cannot be:
    ``(None, "not valid JSON (...)")``."""
    try:
        value: JsonValue = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg} at character {exc.pos})"
    except RecursionError:
        return None, f"not valid JSON (nested deeper than {MAX_ARGUMENT_DEPTH} levels)"
    except ValueError as exc:  # an integer of more digits than Python converts
        return None, f"not valid JSON ({exc})"
    return clean(value), None


def _json_kind(value: JsonValue) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _native(raw_calls: JsonValue) -> list[ParsedCall]:
    calls: list[ParsedCall] = []
    for index, item in enumerate(raw_calls if isinstance(raw_calls, list) else []):
        entry = item if isinstance(item, dict) else {}
        function = entry.get("function")
        function = function if isinstance(function, dict) else {}
        name = function.get("name")
        raw = function.get("arguments")
        arguments, error = parse_arguments(raw)
        call_id = entry.get("id")
        calls.append(ParsedCall(
            id=call_id if isinstance(call_id, str) and call_id else f"call_{index}",
            tool=name if isinstance(name, str) else "",
            arguments=arguments, error=error, source="native", raw_arguments=_raw(raw)))
    return calls


def _raw(raw: JsonValue) -> str:
    """Arguments as the model wrote them (a string), or as JSON text."""
    if isinstance(raw, str):
        return raw
    try:
        return json.dumps(raw, sort_keys=True)
    except RecursionError:
        return "(too deep to show)"


def _call_from_object(obj: JsonValue, raw: str) -> ParsedCall | None:
    """A call from ``{"name": ..., "arguments": ...}`` and its variants, else ``None``."""
    if not isinstance(obj, dict):
        return None
    function = obj.get("function")
    if isinstance(function, dict):
        obj = function
    name = obj.get("name", obj.get("tool"))
    if not isinstance(name, str):
        return None
    if not set(obj) <= {"name", "tool", "arguments", "parameters", "args", "type", "id"}:
        return None
    raw_arguments = obj.get("arguments", obj.get("parameters", obj.get("args")))
    arguments, error = parse_arguments(raw_arguments)
    return ParsedCall(id=None, tool=name, arguments=arguments, error=error, source="content",
                      raw_arguments=raw)


def _calls_from_json(value: JsonValue, raw: str, many: bool) -> list[ParsedCall] | None:
    single = _call_from_object(value, raw)
    if single is not None:
        return [single]
    if not many:
        return None
    items: JsonValue = value
    if isinstance(value, dict) and set(value) == {"tool_calls"}:
        items = value["tool_calls"]
    if not isinstance(items, list) or not items:
        return None
    calls = [_call_from_object(item, _raw(item)) for item in items]
    if any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


def _candidate(content: str) -> tuple[str, str] | None:
    """The JSON a call may be written in, and the text around it; ``None`` if none."""
    fence = _FENCE.search(content)
    if fence is not None:
        around = (content[:fence.start()] + content[fence.end():]).strip()
        return fence.group(1).strip(), around
    stripped = content.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        return stripped, ""
    return None


def _content_calls(content: str, fmt: ToolCallFormat) -> tuple[list[ParsedCall], str]:
    """Calls written in the content, and the text left for a reader."""
    found = _candidate(content)
    if found is None:
        return [], content.strip()
    raw, around = found
    value, problem = _loads(raw)
    if problem is not None:
        looks_like_call = fmt is ToolCallFormat.CONTENT_JSON or _NAME.search(raw) is not None
        if not looks_like_call:
            return [], content.strip()
        name = _NAME.search(raw)
        return [ParsedCall(id=None, tool=name.group(1) if name else "", arguments=None,
                           raw_arguments=raw, error=f"the call is {problem}",
                           source="content")], around
    calls = _calls_from_json(value, raw, many=fmt is ToolCallFormat.CONTENT_JSON)
    if calls is None:
        return [], content.strip()
    return calls, around


def parse_reply(message: JsonValue, fmt: ToolCallFormat, *,
                finish_reason: JsonValue = None) -> ParsedReply:
    """Read one assistant message (``choices[0].message`` as JSON) into text and calls.

    Args:
        message: the message object of the response, as JSON.
        fmt: where calls may be written (see :class:`ToolCallFormat`).
        finish_reason: the choice's ``finish_reason``; ``"length"`` (cut off at
            ``max_tokens``) makes the reply :attr:`ReplyIssue.TRUNCATED`: its native
            calls are read only so they can be answered, each with ``error`` set, and
            its content is never read as a call.

    Returns:
        The reply's text, its calls in order, its issues and forms, every string in them
        cleaned of lone surrogates. Never raises: a message of any shape reads as some
        reply (an unreadable one as empty).
    """
    message = clean(message)
    entry = message if isinstance(message, dict) else {}
    raw_content = entry.get("content")
    content = raw_content if isinstance(raw_content, str) else ""
    calls = _native(entry.get("tool_calls"))
    text = content.strip()
    if finish_reason == "length":
        cut = [call.model_copy(update={"error": _CUT_OFF}) for call in calls]
        return ParsedReply(text=text, content=content, calls=tuple(cut),
                           issues=(ReplyIssue.TRUNCATED,), truncated=True)
    forms: list[ReplyForm] = []
    if not calls and fmt is not ToolCallFormat.NATIVE:
        calls, text = _content_calls(content, fmt)
        if calls:
            forms.append(ReplyForm.CONTENT_JSON_CALL)
    if calls and text:
        forms.append(ReplyForm.TEXT_AND_CALLS)
    if len(calls) > 1:
        forms.append(ReplyForm.SEVERAL_CALLS)
    issues: list[ReplyIssue] = []
    if any(call.error is not None for call in calls):
        issues.append(ReplyIssue.INVALID_JSON)
    if not calls and not text:
        issues.append(ReplyIssue.EMPTY_REPLY)
    return ParsedReply(text=text, content=content, calls=tuple(calls), issues=tuple(issues),
                       forms=tuple(forms))
