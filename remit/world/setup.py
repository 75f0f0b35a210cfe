"""What a trial's world starts from: catalogue, authority mode, facts, quote terms, orders.

A :class:`WorldSetup` is built by the harness from a scenario; the world never reads a
scenario directly. :class:`OrderVariance` describes how the buyer's and the supplier's
order documents deviate from the accepted quote (a PO mismatch, a short delivery, an
invoice price variance, missing certificates), so that the three-way match can bite.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field

from remit.authority import ControlMode, Role
from remit.catalogue import Catalogue, CertificateGrade, Requirement, SiteTruths
from remit.quotes import CommercialPolicy

__all__ = ["ACTOR_IDS", "OrderVariance", "QuoteTerms", "WorldSetup"]

ACTOR_IDS: dict[Role, str] = {
    Role.AGENT: "agent-1",
    Role.BUYER: "buyer-1",
    Role.TECHNICAL_OWNER: "tech-1",
    Role.FINANCE: "finance-1",
    Role.SYSTEM: "system",
}
"""The one actor id per role in a trial."""


class OrderVariance(BaseModel):
    """How order documents deviate from the accepted quote.

    Attributes:
        po_quantity_delta: added to each PO line's quantity (a PO mismatch when not 0).
        receipt_quantity_delta: added to each received quantity (short or over delivery).
        invoice_price_delta_pct: the invoice's unit prices deviate by this percentage.
        certificates_delivered: whether the certificates offered arrive with the goods.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    po_quantity_delta: int = 0
    receipt_quantity_delta: int = 0
    invoice_price_delta_pct: Decimal = Decimal(0)
    certificates_delivered: bool = True


class QuoteTerms(BaseModel):
    """The terms of the trial's quote.

    Attributes:
        quote_id: the quote's id.
        validity_minutes: simulated minutes from opening to the validity date.
        fit_required: the quote needs a fit review (substitution or custom spec).
        policy: commercial limits.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    quote_id: str = "Q-1"
    validity_minutes: int = Field(default=7 * 24 * 60, gt=0)
    fit_required: bool = False
    policy: CommercialPolicy = CommercialPolicy()


class WorldSetup(BaseModel):
    """Everything a world needs to start a trial.

    Attributes:
        catalogue: the governed catalogue of the trial.
        mode: the control mode (authority map and visibility).
        requirement: what the buyer asks for.
        truths: the buyer's operating facts and the technical owner's installation facts.
        certificate_required: the EN 10204 grade the goods must come with, if any.
        terms: the quote's terms.
        variance: how order documents deviate from the quote.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    catalogue: Catalogue
    mode: ControlMode
    requirement: Requirement
    truths: SiteTruths
    certificate_required: CertificateGrade | None = None
    terms: QuoteTerms = QuoteTerms()
    variance: OrderVariance = OrderVariance()
