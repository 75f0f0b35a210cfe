"""Quotes: versioned quote documents, the quote state machine, approvals bound to a hash.

A :class:`Quote` holds immutable :class:`QuoteVersion` s; editing appends a version
whose content hash differs, and every approval or fit confirmation bound to the old hash
stops counting. One shared ``transitions`` machine moves every quote; :func:`fire` and
:func:`edit_lines` explain refusals with sentences saying what to do.

Example:
    >>> from remit.quotes import Quote, TransitionContext, fire
    >>> quote = Quote("Q-1", lines=[line])
    >>> fire(quote, Action.CONFIGURE, TransitionContext(
    ...     actor_id="agent-1", role=Role.AGENT, now_minute=0)).to_state
    <QuoteState.CONFIGURED: 'configured'>
"""

from __future__ import annotations

from remit.quotes.context import TransitionContext
from remit.quotes.diagram import mermaid_diagram
from remit.quotes.documents import DEFAULT_CURRENCY, QuoteLine, QuoteVersion, content_hash
from remit.quotes.guards import guard_failures
from remit.quotes.machine import available_actions, edit_lines, fire, quote_machine
from remit.quotes.orders import GoodsReceipt, Invoice, OrderLine, PurchaseOrder, ReceiptLine
from remit.quotes.policy import CommercialPolicy
from remit.quotes.quote import (
    Approval,
    ApprovalDecision,
    FitConfirmation,
    Quote,
    Submission,
    TransitionRecord,
)
from remit.quotes.states import (
    TERMINAL_STATES,
    TRANSITIONS,
    QuoteState,
    TransitionSpec,
    actions_from,
    allowed_from,
    destination,
    is_terminal,
)

__all__ = [
    "DEFAULT_CURRENCY",
    "TERMINAL_STATES",
    "TRANSITIONS",
    "Approval",
    "ApprovalDecision",
    "CommercialPolicy",
    "FitConfirmation",
    "GoodsReceipt",
    "Invoice",
    "OrderLine",
    "PurchaseOrder",
    "Quote",
    "QuoteLine",
    "QuoteState",
    "QuoteVersion",
    "ReceiptLine",
    "Submission",
    "TransitionContext",
    "TransitionRecord",
    "TransitionSpec",
    "actions_from",
    "allowed_from",
    "available_actions",
    "content_hash",
    "destination",
    "edit_lines",
    "fire",
    "guard_failures",
    "is_terminal",
    "mermaid_diagram",
    "quote_machine",
]
