"""The closed vocabularies of authority: who acts (roles) and what they do (actions).

Action ids are the trigger names of the quote state machine, plus ``edit_lines``
(changing a quote's lines, which opens a new version). Every write in remit is one of
these actions, performed by one role, and is decided by the authority map.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Action", "Role"]


class Role(StrEnum):
    """A party that may act on a quote."""

    AGENT = "agent"
    BUYER = "buyer"
    TECHNICAL_OWNER = "technical_owner"
    FINANCE = "finance"
    SYSTEM = "system"


class Action(StrEnum):
    """A write on a quote; the value is the state machine's trigger name."""

    CONFIGURE = "configure"
    REQUEST_FIT = "request_fit"
    CONFIRM_FIT = "confirm_fit"
    REJECT_FIT = "reject_fit"
    PRICE = "price"
    SUBMIT = "submit"
    APPROVE = "approve"
    DENY = "deny"
    PRESENT = "present"
    ACCEPT = "accept"
    REJECT = "reject"
    EXPIRE = "expire"
    RECEIVE_PO = "receive_po"
    RECORD_RECEIPT = "record_receipt"
    INVOICE = "invoice"
    RELEASE_PAYMENT = "release_payment"
    REVISE = "revise"
    CANCEL = "cancel"
    EDIT_LINES = "edit_lines"
