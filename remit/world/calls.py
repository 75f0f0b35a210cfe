"""A tool call as any party makes it, and what comes back.

A :class:`ToolCall` is raw on purpose: its arguments are plain JSON, validated by the
world, so that a malformed call (an unknown tool, a wrong type, a missing field) is a
structured :class:`ToolResult` error the caller can learn from, never an exception.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.trusted import trusted
from remit.world.trail import ErrorCode

__all__ = ["ToolCall", "ToolError", "ToolResult"]


class ToolCall(BaseModel):
    """One tool call: a tool name and JSON arguments."""

    model_config = ConfigDict(frozen=True)

    tool: str
    arguments: dict[str, JsonValue] = {}


class ToolError(BaseModel):
    """Why a tool call did not go through, and what to do instead.

    Attributes:
        code: a closed error code (``denied``, ``guard_failed``, ``bad_arguments``...).
        message: one or more sentences, ending with what to do next.
    """

    model_config = ConfigDict(frozen=True)

    code: ErrorCode
    message: str


class ToolResult(BaseModel):
    """The outcome of a tool call: content on success, an error otherwise."""

    model_config = ConfigDict(frozen=True)

    tool: str
    ok: bool
    content: JsonValue = None
    error: ToolError | None = None

    @classmethod
    def success(cls, tool: str, content: JsonValue) -> ToolResult:
        """A successful result."""
        return cls(tool=tool, ok=True, content=content)

    @classmethod
    def answer(cls, tool: str, content: dict[str, JsonValue]) -> ToolResult:
        """A successful result whose content the world built from its own records.

        Such content is plain JSON by construction (``str``, ``int``, ``float``,
        ``bool``, ``None``, lists and string-keyed dicts, built fresh for this answer),
        so it is not validated again (:func:`~remit.trusted.trusted`): a tool result
        is the largest model of a step. Use :meth:`success` for content from anywhere
        else.
        """
        return trusted(cls, {"tool": tool, "ok": True, "content": content, "error": None})

    @classmethod
    def failure(cls, tool: str, code: ErrorCode, message: str) -> ToolResult:
        """A failed result with a structured error."""
        return cls(tool=tool, ok=False, error=ToolError(code=code, message=message))
