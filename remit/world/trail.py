"""The trail: every message, tool call, decision and transition of one trial, in order.

Entries are a discriminated union on ``kind``. Each carries the step it happened at
(the index of the acting party's tool call) and the simulated minute. The trail is
what scoring reads and what reports show; nothing is inferred from message strings.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from remit.authority.roles import Action, Role

__all__ = [
    "Claim",
    "DecisionEntry",
    "EndEntry",
    "EndReason",
    "ErrorCode",
    "ErrorEntry",
    "HandoffEntry",
    "HandoffEvent",
    "MessageEntry",
    "ToolCallEntry",
    "TrailEntry",
    "TransitionEntry",
]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int
    minute: int


class Claim(BaseModel):
    """A product fact stated to another party: ``sku``'s ``attribute`` is ``value`` ``unit``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str
    attribute: str
    value: float | str
    unit: str | None = None


class MessageEntry(_Entry):
    """A message between two parties (``ask`` and ``request_action`` included).

    Attributes:
        claims: structured product claims the sender attached; claims found in ``text``
            are extracted by scoring.
        facts: for an ``ask``, the facts asked for.
        handoff_id: the hand-off this message opens, follows up or answers.
    """

    kind: Literal["message"] = "message"
    sender: Role
    to: Role
    tool: str
    text: str
    claims: tuple[Claim, ...] = ()
    facts: tuple[str, ...] = ()
    handoff_id: str | None = None


class ToolCallEntry(_Entry):
    """A tool call as the actor made it, before validation.

    Attributes:
        tool: the tool name, cleaned of lone surrogates (and cut, with its length, past
            :data:`~remit.world.untrusted.MAX_TOOL_NAME_CHARS` characters).
        arguments: the arguments, cleaned of lone surrogates; arguments beyond the
            limits of :mod:`remit.world.untrusted` are recorded as ``{"not_recorded":
            why, "prefix": the first 200 characters of what was sent}``.
    """

    kind: Literal["tool_call"] = "tool_call"
    actor: Role
    tool: str
    arguments: dict[str, JsonValue]


ErrorCode = Literal[
    "unknown_tool",
    "bad_arguments",
    "not_found",
    "not_visible",
    "denied",
    "invalid_transition",
    "guard_failed",
    "bad_handoff",
    "unsupported_authority_claim",  # no longer produced (texts are scored, not refused);
    "agent_error",                  # kept so that trails stored by earlier versions read
]


class ErrorEntry(_Entry):
    """A tool call that did not go through, with what to do instead."""

    kind: Literal["error"] = "error"
    actor: Role
    tool: str
    code: ErrorCode
    message: str


class DecisionEntry(_Entry):
    """An authority decision on a write, allowed or denied, with its reasons."""

    kind: Literal["decision"] = "decision"
    actor_id: str
    role: Role
    action: Action
    quote_id: str
    version_hash: str
    allowed: bool
    grant_ids: tuple[str, ...]
    forbid_ids: tuple[str, ...]
    unmet: tuple[str, ...]
    reasons: tuple[str, ...]
    map_hash: str
    handoff_id: str | None = None
    evidence: tuple[str, ...] = ()


class TransitionEntry(_Entry):
    """A quote transition that happened."""

    kind: Literal["transition"] = "transition"
    quote_id: str
    action: Action
    from_state: str
    to_state: str
    version: int
    version_hash: str
    actor_id: str
    role: Role


HandoffEvent = Literal["opened", "followed_up", "completed", "declined", "withdrawn"]


class HandoffEntry(_Entry):
    """A change in a hand-off's life."""

    kind: Literal["handoff"] = "handoff"
    handoff_id: str
    event: HandoffEvent
    requester: Role
    owner: Role
    action: Action
    quote_id: str
    reason: str = ""


EndReason = Literal["agent_end", "max_steps", "terminal_state", "agent_error"]


class EndEntry(_Entry):
    """How the trial ended."""

    kind: Literal["end"] = "end"
    reason: EndReason
    summary: str = ""


TrailEntry = Annotated[
    MessageEntry
    | ToolCallEntry
    | ErrorEntry
    | DecisionEntry
    | TransitionEntry
    | HandoffEntry
    | EndEntry,
    Field(discriminator="kind"),
]
"""One entry of a trial's trail."""
