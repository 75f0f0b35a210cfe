"""What is asked of the authority map: who wants to do what, to which record, in which context.

A :class:`Request` is built by the world's gate for every write, whoever makes it, and
passed to :func:`remit.authority.decide`. Its context carries only the facts that the
conditions of a map can test: numbers (discount, margin, amount, quantity), the
evidence the actor cites, and who performed earlier actions on the same record (for
separation of duties). A missing fact is ``None`` and never satisfies a condition that
needs it: conditions fail closed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from remit.authority.roles import Action, Role

__all__ = [
    "CitedEvidence",
    "ContextAttribute",
    "EvidenceKindName",
    "Request",
    "RequestContext",
    "Resource",
]

ContextAttribute = Literal["discount_pct", "margin_pct", "amount", "quantity"]
"""The numeric request-context attributes that threshold and delegation conditions test."""

EvidenceKindName = Literal["datasheet", "certificate"]
"""Kinds of evidence document; the values of :class:`remit.catalogue.attributes.EvidenceKind`.

Kept as a literal here so that the authority layer does not import the catalogue (both
sit at the bottom of the import graph); a test checks that the two sets agree.
"""


class Resource(BaseModel):
    """The record an action is performed on.

    Attributes:
        kind: the record's kind; remit's writes are on quotes.
        id: the record's id, e.g. ``Q-17``.
        state: the record's current state name (``draft``, ``priced``...), if known.
        version_hash: the content hash of the record's current version, if known.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = "quote"
    id: str
    state: str | None = None
    version_hash: str | None = None

    def label(self) -> str:
        """A short name for sentences, e.g. ``quote Q-17``."""
        return f"{self.kind} {self.id}"


class CitedEvidence(BaseModel):
    """An evidence document the actor cites with the request.

    Attributes:
        id: the document id, e.g. ``DS-BV-0012-r3``.
        kind: datasheet or certificate.
        released: whether the document is released (draft documents may not be relied on).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: EvidenceKindName
    released: bool

    def label(self) -> str:
        """A short description, e.g. ``DS-1 (datasheet, released)``."""
        return f"{self.id} ({self.kind}, {'released' if self.released else 'draft'})"


class RequestContext(BaseModel):
    """The facts of a request that a map's conditions may test.

    Attributes:
        discount_pct: the quote's discount in percent (``Decimal("4.5")`` is 4.5 %).
        margin_pct: the quote's margin in percent.
        amount: the quote's total in the quote's currency.
        quantity: the quantity concerned (e.g. of a purchase order line).
        evidence: the evidence documents cited with the request.
        prior_actors: who performed earlier actions on the same record, by action
            (the latest performer of each action).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    discount_pct: Decimal | None = None
    margin_pct: Decimal | None = None
    amount: Decimal | None = None
    quantity: Decimal | None = None
    evidence: tuple[CitedEvidence, ...] = ()
    prior_actors: dict[Action, str] = Field(default_factory=dict)


class Request(BaseModel):
    """One actor asking to perform one action on one record.

    Attributes:
        actor_id: the acting party's id (one person or agent; an actor may hold a role).
        role: the role the actor acts in.
        action: the action asked for.
        resource: the record acted on.
        context: the facts that the map's conditions test.

    Example:
        >>> request = Request(
        ...     actor_id="u-fin", role=Role.FINANCE, action=Action.APPROVE,
        ...     resource=Resource(id="Q-1", state="approval_pending"),
        ...     context=RequestContext(discount_pct=Decimal("4.5"),
        ...                            prior_actors={Action.SUBMIT: "u-agent"}))
        >>> request.resource.label()
        'quote Q-1'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor_id: str
    role: Role
    action: Action
    resource: Resource
    context: RequestContext = Field(default_factory=RequestContext)
