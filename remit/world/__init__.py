"""One trial's world: state, trail and the tool surface behind one authority gate.

What an agent sends enters through :mod:`remit.world.untrusted` (cleaned of lone
surrogates, bounded, quoted short in errors) before :meth:`World.call` records it.

Example:
    >>> world = World(setup)                       # doctest: +SKIP
    >>> world.call(Role.AGENT, ToolCall(tool="get_quote", arguments={"quote_id": "Q-1"}))
"""

from __future__ import annotations

from remit.world.calls import ToolCall, ToolError, ToolResult
from remit.world.conversation import decline
from remit.world.handoffs import Handoff, HandoffStatus
from remit.world.setup import ACTOR_IDS, OrderVariance, QuoteTerms, WorldSetup
from remit.world.tools import Fact, ToolGroup, ToolSpec, tool_spec, tool_specs
from remit.world.trail import (
    Claim,
    DecisionEntry,
    EndEntry,
    EndReason,
    ErrorCode,
    ErrorEntry,
    HandoffEntry,
    HandoffEvent,
    MessageEntry,
    ToolCallEntry,
    TrailEntry,
    TransitionEntry,
)
from remit.world.world import World, product_record, quote_view

__all__ = [
    "ACTOR_IDS",
    "Claim",
    "DecisionEntry",
    "EndEntry",
    "EndReason",
    "ErrorCode",
    "ErrorEntry",
    "Fact",
    "Handoff",
    "HandoffEntry",
    "HandoffEvent",
    "HandoffStatus",
    "MessageEntry",
    "OrderVariance",
    "QuoteTerms",
    "ToolCall",
    "ToolCallEntry",
    "ToolError",
    "ToolGroup",
    "ToolResult",
    "ToolSpec",
    "TrailEntry",
    "TransitionEntry",
    "World",
    "WorldSetup",
    "decline",
    "product_record",
    "quote_view",
    "tool_spec",
    "tool_specs",
]
