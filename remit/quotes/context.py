"""What the caller of a transition supplies: who acts, when, why, and with which documents."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from remit.authority.roles import Role
from remit.catalogue.attributes import EvidenceDocument
from remit.quotes.orders import GoodsReceipt, Invoice, PurchaseOrder

__all__ = ["TransitionContext"]


class TransitionContext(BaseModel):
    """The input of one transition attempt, read by the guards.

    Authority (may this role do this?) is decided before a transition by
    :mod:`remit.authority`; the context only carries what the business rules need.

    Attributes:
        actor_id: who acts.
        role: in which role.
        now_minute: the simulated clock.
        reason: a reason (cancel, reject_fit, request_fit without fit requirement, deny).
        justification: exception justification for ``submit`` (discount above standard,
            margin below minimum).
        evidence: documents supplied with the action (datasheets for ``confirm_fit``).
        fit_failures: failed fit-rule sentences computed by the caller (C1-C7); any
            failure blocks ``confirm_fit``.
        purchase_order: the PO for ``receive_po``.
        receipt: the goods receipt for ``record_receipt``.
        invoice: the invoice for ``invoice``.

    Example:
        >>> TransitionContext(actor_id="fin-1", role=Role.FINANCE, now_minute=30)
        TransitionContext(actor_id='fin-1', role=<Role.FINANCE: 'finance'>, ...)
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor_id: str = Field(min_length=1)
    role: Role
    now_minute: int = Field(ge=0)
    reason: str = ""
    justification: str = ""
    evidence: tuple[EvidenceDocument, ...] = ()
    fit_failures: tuple[str, ...] = ()
    purchase_order: PurchaseOrder | None = None
    receipt: GoodsReceipt | None = None
    invoice: Invoice | None = None
