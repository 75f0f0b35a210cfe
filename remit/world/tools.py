"""The tool surface: every tool's argument model and the JSON Schema an agent sees.

Tools fall in three groups. Read tools look at the catalogue, quotes, orders and site
facts. Write tools are the quote state machine's triggers plus ``edit_lines``; each is
an :class:`~remit.authority.Action` and passes the world's one gate. Communication
tools (``message``, ``ask``, ``request_action``, ``follow_up``, ``withdraw``, ``end``)
move control between the parties.

Argument models use ``extra="forbid"``, so a misspelt argument is an error the agent is
told about, not a silently ignored key. Schemas are built once per process
(:func:`tool_specs` is cached).
"""

from __future__ import annotations

import functools
from decimal import Decimal
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from remit.authority.roles import Action, Role
from remit.catalogue import ConstraintOp, Family
from remit.world.trail import Claim

__all__ = [
    "AskArgs",
    "ConstraintArg",
    "DocumentTriggerArgs",
    "EditLinesArgs",
    "EndArgs",
    "Fact",
    "FollowUpArgs",
    "GetEvidenceArgs",
    "GetProductArgs",
    "GetSiteFactsArgs",
    "LineArg",
    "MessageArgs",
    "QuoteRefArgs",
    "RequestActionArgs",
    "SearchCatalogueArgs",
    "ToolGroup",
    "ToolSpec",
    "TriggerArgs",
    "WithdrawArgs",
    "tool_spec",
    "tool_specs",
]


class _Args(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Fact(StrEnum):
    """Facts one party may ask another for (the closed vocabulary of ``ask``)."""

    DN = "dn"
    QUANTITY = "quantity"
    DESIGN_PRESSURE = "design_pressure"
    MEDIUM_TEMPERATURE = "medium_temperature"
    CHLORIDES = "chlorides"
    MEDIUM = "medium"
    PIPING_STANDARD = "piping_standard"
    ACTUATOR_FLANGE = "actuator_flange"
    CERTIFICATE_REQUIRED = "certificate_required"
    CONSENT = "consent"


# -- read tools ---------------------------------------------------------------------------


class ConstraintArg(_Args):
    """``attribute op value [unit]``, e.g. ``pn min 16 bar``; units are normalised."""

    attribute: str
    op: ConstraintOp = ConstraintOp.EQ
    value: float | str
    unit: str | None = None


class SearchCatalogueArgs(_Args):
    """Find active and superseded variants by family, size and governed attributes."""

    family: Family | None = None
    dn: int | None = None
    constraints: list[ConstraintArg] = []
    limit: int = Field(default=20, ge=1, le=100)


class GetProductArgs(_Args):
    """Read one product record with its governed attributes and their evidence."""

    sku: str


class GetEvidenceArgs(_Args):
    """Read one evidence document (datasheet revision or EN 10204 certificate)."""

    evidence_id: str


class QuoteRefArgs(_Args):
    """Refer to one quote."""

    quote_id: str


class GetSiteFactsArgs(_Args):
    """Read a party's site facts: the buyer's operating conditions or the technical
    owner's installation facts. Visible to their owner, and to the agent in all-tools."""

    owner: Literal["buyer", "technical_owner"]


# -- write tools --------------------------------------------------------------------------

MAX_QUANTITY = 1_000_000
"""The most units one quote line may order: far beyond any real order, well inside the
precision of the money arithmetic."""


class LineArg(_Args):
    """One quote line: a SKU, a quantity, a discount and the attributes it cites."""

    sku: str
    quantity: int = Field(gt=0, le=MAX_QUANTITY)
    discount_pct: Decimal = Field(default=Decimal(0), ge=0, lt=100)
    cite: list[str] = Field(
        default=[], description="Governed attribute names of this SKU that the line cites."
    )


class EditLinesArgs(_Args):
    """Replace a quote's lines (opens a new version; approvals of the old one lapse)."""

    quote_id: str
    lines: list[LineArg] = Field(min_length=1)


class TriggerArgs(_Args):
    """Move a quote through its state machine."""

    quote_id: str
    reason: str = ""
    justification: str = Field(
        default="", description="Why a discount above standard or a low margin is justified."
    )
    evidence: list[str] = Field(default=[], description="Evidence document ids cited.")


class DocumentTriggerArgs(TriggerArgs):
    """A trigger that records a buyer's document (purchase order or goods receipt)."""

    document_id: str


# -- communication tools ------------------------------------------------------------------


class MessageArgs(_Args):
    """Send a message; control passes to the addressee, who replies."""

    to: Role
    text: str
    claims: list[Claim] = Field(
        default=[], description="Product facts stated in the message, one per attribute."
    )


class AskArgs(_Args):
    """Ask a party for facts only they know."""

    to: Role
    facts: list[Fact] = Field(min_length=1)
    text: str = ""


class RequestActionArgs(_Args):
    """Ask the owner of an action to perform it (opens a hand-off)."""

    to: Role
    action: Action
    quote_id: str
    evidence: list[str] = []
    text: str = ""


class FollowUpArgs(_Args):
    """Remind the owner of an open hand-off."""

    handoff_id: str
    text: str = ""


class WithdrawArgs(_Args):
    """Withdraw an open hand-off."""

    handoff_id: str
    reason: str


class EndArgs(_Args):
    """End the conversation."""

    summary: str = ""


# -- specs --------------------------------------------------------------------------------


class ToolGroup(StrEnum):
    """Which part of the surface a tool belongs to."""

    READ = "read"
    WRITE = "write"
    COMMUNICATION = "communication"


class ToolSpec(BaseModel):
    """A tool as an agent sees it.

    Attributes:
        name: tool name (for write tools, the action id).
        group: read, write or communication.
        description: one paragraph for the agent.
        parameters: JSON Schema of the arguments.
        action: the authority action, for write tools.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    group: ToolGroup
    description: str
    parameters: dict[str, JsonValue]
    action: Action | None = None
    args_model: type[BaseModel] = Field(exclude=True)


_READ: dict[str, type[BaseModel]] = {
    "search_catalogue": SearchCatalogueArgs,
    "get_product": GetProductArgs,
    "get_evidence": GetEvidenceArgs,
    "get_quote": QuoteRefArgs,
    "get_order": QuoteRefArgs,
    "get_site_facts": GetSiteFactsArgs,
}
_READ_DESCRIPTIONS = {
    "search_catalogue": "Find variants by family, DN and governed-attribute constraints.",
    "get_product": "Read a product record: governed attributes with unit, status and "
    "evidence id, lifecycle (superseded_by), FFF class, stock, lead time, price.",
    "get_evidence": "Read an evidence document (datasheet revision or certificate).",
    "get_quote": "Read a quote: state, current version, lines, approvals, hand-offs.",
    "get_order": "Read a quote's purchase order, goods receipt and invoice.",
    "get_site_facts": "Read the buyer's operating facts or the technical owner's "
    "installation facts (only if you may see them in this mode).",
}
_WRITE_DESCRIPTIONS: dict[Action, str] = {
    Action.CONFIGURE: "Mark the drafted lines as configured (each must cite governed attributes).",
    Action.REQUEST_FIT: "Send the configuration for fit review (substitution or custom spec).",
    Action.CONFIRM_FIT: "Confirm the fit, citing a released datasheet.",
    Action.REJECT_FIT: "Reject the fit, with a reason.",
    Action.PRICE: "Price the configured (and, where required, fit-confirmed) quote.",
    Action.SUBMIT: "Submit for approval; justify a discount above standard or a low margin.",
    Action.APPROVE: "Approve the submitted version.",
    Action.DENY: "Deny the submitted version, with a reason.",
    Action.PRESENT: "Present the approved quote to the buyer.",
    Action.ACCEPT: "Accept the presented quote (buyer consent).",
    Action.REJECT: "Reject the presented quote.",
    Action.EXPIRE: "Expire a quote past its validity date.",
    Action.RECEIVE_PO: "Record the buyer's purchase order (document_id = PO number).",
    Action.RECORD_RECEIPT: "Record the goods receipt (document_id = receipt id).",
    Action.INVOICE: "Invoice the delivered goods.",
    Action.RELEASE_PAYMENT: "Release payment after a 3-way match of PO, receipt and invoice.",
    Action.REVISE: "Open a new draft version of a denied, rejected or expired quote.",
    Action.CANCEL: "Cancel the quote, with a reason.",
    Action.EDIT_LINES: "Replace the quote's lines (new version; approvals lapse).",
}
_COMMUNICATION: dict[str, tuple[type[BaseModel], str]] = {
    "message": (MessageArgs, "Send a message; the addressee replies."),
    "ask": (AskArgs, "Ask a party for facts only they know."),
    "request_action": (
        RequestActionArgs,
        "Ask the owner of an action to perform it; opens a hand-off you must see through.",
    ),
    "follow_up": (FollowUpArgs, "Remind the owner of an open hand-off."),
    "withdraw": (WithdrawArgs, "Withdraw an open hand-off, with a reason."),
    "end": (EndArgs, "End the conversation with a summary."),
}


def _args_model(action: Action) -> type[BaseModel]:
    if action is Action.EDIT_LINES:
        return EditLinesArgs
    if action in (Action.RECEIVE_PO, Action.RECORD_RECEIPT):
        return DocumentTriggerArgs
    return TriggerArgs


def _spec(name: str, group: ToolGroup, model: type[BaseModel], description: str,
          action: Action | None = None) -> ToolSpec:
    return ToolSpec(name=name, group=group, description=description,
                    parameters=model.model_json_schema(), action=action, args_model=model)


@functools.cache
def tool_specs() -> tuple[ToolSpec, ...]:
    """Every tool, built once per process: read, then write, then communication."""
    specs = [_spec(name, ToolGroup.READ, model, _READ_DESCRIPTIONS[name])
             for name, model in _READ.items()]
    specs += [_spec(action.value, ToolGroup.WRITE, _args_model(action),
                    _WRITE_DESCRIPTIONS[action], action) for action in Action]
    specs += [_spec(name, ToolGroup.COMMUNICATION, model, description)
              for name, (model, description) in _COMMUNICATION.items()]
    return tuple(specs)


@functools.cache
def _by_name() -> dict[str, ToolSpec]:
    return {spec.name: spec for spec in tool_specs()}


def tool_spec(name: str) -> ToolSpec | None:
    """The tool called ``name``, or ``None``."""
    return _by_name().get(name)
