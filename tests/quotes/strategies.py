"""Builders and hypothesis strategies for quote tests.

``drive(quote, state)`` moves a fresh quote to any state through the public API, with
contexts that satisfy every guard, so tests never poke at ``quote.state``.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import strategies as st

from remit.authority.roles import Action, Role
from remit.catalogue.attributes import (
    AttributeSnapshot,
    AttributeStatus,
    CertificateGrade,
    EvidenceDocument,
    EvidenceKind,
)
from remit.catalogue.money import Money
from remit.quotes import (
    CommercialPolicy,
    GoodsReceipt,
    Invoice,
    OrderLine,
    PurchaseOrder,
    Quote,
    QuoteLine,
    QuoteState,
    ReceiptLine,
    TransitionContext,
    TransitionRecord,
    fire,
)

VALID_UNTIL = 1_000
"""Every quote built here is valid until this minute; steps happen at minute 10."""
NOW = 10
LATE = 2_000

ROLE_OF: dict[Action, Role] = {
    Action.CONFIGURE: Role.AGENT,
    Action.REQUEST_FIT: Role.AGENT,
    Action.CONFIRM_FIT: Role.TECHNICAL_OWNER,
    Action.REJECT_FIT: Role.TECHNICAL_OWNER,
    Action.PRICE: Role.AGENT,
    Action.SUBMIT: Role.AGENT,
    Action.APPROVE: Role.FINANCE,
    Action.DENY: Role.FINANCE,
    Action.PRESENT: Role.AGENT,
    Action.ACCEPT: Role.BUYER,
    Action.REJECT: Role.BUYER,
    Action.EXPIRE: Role.SYSTEM,
    Action.RECEIVE_PO: Role.BUYER,
    Action.RECORD_RECEIPT: Role.BUYER,
    Action.INVOICE: Role.AGENT,
    Action.RELEASE_PAYMENT: Role.FINANCE,
    Action.REVISE: Role.AGENT,
    Action.CANCEL: Role.BUYER,
    Action.EDIT_LINES: Role.AGENT,
}


def snapshot(
    sku: str, name: str = "body_material", status: AttributeStatus = AttributeStatus.RELEASED
) -> AttributeSnapshot:
    """A cited fact of ``sku``."""
    return AttributeSnapshot(
        sku=sku, name=name, value="316", status=status, evidence_id=f"DS-{sku}-r2"
    )


def line(
    sku: str = "BV-1",
    quantity: int = 2,
    price: str = "100.00",
    discount: str = "0",
    cost: str = "70.00",
    *,
    cited: tuple[AttributeSnapshot, ...] | None = None,
    currency: str = "EUR",
) -> QuoteLine:
    """A quote line citing one released fact of its own SKU unless ``cited`` is given."""
    return QuoteLine(
        sku=sku,
        quantity=quantity,
        unit_price=Money.of(price, currency),
        discount_pct=Decimal(discount),
        unit_cost=Money.of(cost, currency),
        cited=(snapshot(sku),) if cited is None else cited,
    )


def two_lines() -> tuple[QuoteLine, QuoteLine]:
    """A valve and an actuator, within policy."""
    return (line("BV-1", 2, "100.00", "5"), line("ACT-7", 2, "250.00", "0", "180.00"))


def new_quote(
    *,
    lines: tuple[QuoteLine, ...] | None = None,
    fit_required: bool = False,
    certificate_required: CertificateGrade | None = None,
    policy: CommercialPolicy | None = None,
    quote_id: str = "Q-1",
) -> Quote:
    """A fresh draft quote valid until :data:`VALID_UNTIL`."""
    return Quote(
        quote_id,
        lines=two_lines() if lines is None else lines,
        policy=policy,
        valid_until_minute=VALID_UNTIL,
        fit_required=fit_required,
        certificate_required=certificate_required,
    )


def datasheet(sku: str, status: AttributeStatus = AttributeStatus.RELEASED) -> EvidenceDocument:
    """A datasheet revision of ``sku``."""
    return EvidenceDocument(
        id=f"DS-{sku}-r2", kind=EvidenceKind.DATASHEET, sku=sku, revision="r2", status=status
    )


def certificate(sku: str, grade: CertificateGrade = CertificateGrade.TYPE_3_1) -> EvidenceDocument:
    """An EN 10204 certificate of ``sku``."""
    return EvidenceDocument(
        id=f"CERT-{sku}-{grade.value}", kind=EvidenceKind.CERTIFICATE, sku=sku, grade=grade
    )


def matching_po(quote: Quote) -> PurchaseOrder:
    """A purchase order repeating the quote's current lines exactly."""
    return PurchaseOrder(
        po_number="PO-9",
        lines=tuple(
            OrderLine(sku=ln.sku, quantity=ln.quantity, unit_price=ln.net_unit_price)
            for ln in quote.current.lines
        ),
    )


def matching_receipt(quote: Quote) -> GoodsReceipt:
    """A receipt of exactly the quoted quantities, with 3.1 certificates for every SKU."""
    return GoodsReceipt(
        lines=tuple(ReceiptLine(sku=ln.sku, quantity=ln.quantity) for ln in quote.current.lines),
        certificates=tuple(certificate(ln.sku) for ln in quote.current.lines),
    )


def matching_invoice(quote: Quote) -> Invoice:
    """An invoice of exactly the quoted quantities at the quoted net unit prices."""
    return Invoice(
        invoice_number="INV-3",
        lines=tuple(
            OrderLine(sku=ln.sku, quantity=ln.quantity, unit_price=ln.net_unit_price)
            for ln in quote.current.lines
        ),
    )


def ctx(action: Action, **fields: object) -> TransitionContext:
    """A context for ``action`` by its usual role at minute :data:`NOW` (``now=`` to change
    it); other fields go to the context."""
    role = ROLE_OF[action]
    now = fields.pop("now", NOW)
    actor_id = fields.pop("actor_id", f"{role.value}-1")
    return TransitionContext.model_validate(
        {"actor_id": actor_id, "role": role, "now_minute": now, **fields}
    )


def good_ctx(quote: Quote, action: Action) -> TransitionContext:
    """A context that satisfies ``action``'s guards on a quote built by :func:`new_quote`."""
    fields: dict[str, object] = {}
    if action is Action.REQUEST_FIT:
        fields["reason"] = "custom spec: 200 C steam"
    elif action is Action.CONFIRM_FIT:
        fields["evidence"] = (datasheet(quote.current.lines[0].sku),)
    elif action in (Action.REJECT_FIT, Action.CANCEL, Action.DENY, Action.REJECT):
        fields["reason"] = "buyer changed the design pressure"
    elif action is Action.EXPIRE:
        fields["now"] = LATE
    elif action is Action.RECEIVE_PO:
        fields["purchase_order"] = matching_po(quote)
    elif action is Action.RECORD_RECEIPT:
        fields["receipt"] = matching_receipt(quote)
    elif action is Action.INVOICE:
        fields["invoice"] = matching_invoice(quote)
    return ctx(action, **fields)


_TO_APPROVED = (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.APPROVE)
_TO_PRESENTED = (*_TO_APPROVED, Action.PRESENT)
_TO_ACCEPTED = (*_TO_PRESENTED, Action.ACCEPT)

PATHS: dict[QuoteState, tuple[Action, ...]] = {
    QuoteState.DRAFT: (),
    QuoteState.CONFIGURED: (Action.CONFIGURE,),
    QuoteState.FIT_PENDING: (Action.CONFIGURE, Action.REQUEST_FIT),
    QuoteState.FIT_CONFIRMED: (Action.CONFIGURE, Action.REQUEST_FIT, Action.CONFIRM_FIT),
    QuoteState.PRICED: (Action.CONFIGURE, Action.PRICE),
    QuoteState.APPROVAL_PENDING: (Action.CONFIGURE, Action.PRICE, Action.SUBMIT),
    QuoteState.APPROVED: _TO_APPROVED,
    QuoteState.DENIED: (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.DENY),
    QuoteState.PRESENTED: _TO_PRESENTED,
    QuoteState.ACCEPTED: _TO_ACCEPTED,
    QuoteState.REJECTED: (*_TO_PRESENTED, Action.REJECT),
    QuoteState.EXPIRED: (*_TO_PRESENTED, Action.EXPIRE),
    QuoteState.ORDERED: (*_TO_ACCEPTED, Action.RECEIVE_PO),
    QuoteState.DELIVERED: (*_TO_ACCEPTED, Action.RECEIVE_PO, Action.RECORD_RECEIPT),
    QuoteState.INVOICED: (
        *_TO_ACCEPTED,
        Action.RECEIVE_PO,
        Action.RECORD_RECEIPT,
        Action.INVOICE,
    ),
    QuoteState.PAYMENT_RELEASED: (
        *_TO_ACCEPTED,
        Action.RECEIVE_PO,
        Action.RECORD_RECEIPT,
        Action.INVOICE,
        Action.RELEASE_PAYMENT,
    ),
    QuoteState.CANCELLED: (Action.CANCEL,),
}
"""A shortest guard-satisfying path from draft to each state (fit not required)."""


def drive(quote: Quote, state: QuoteState) -> list[TransitionRecord]:
    """Move a fresh draft ``quote`` to ``state`` with guard-satisfying contexts."""
    return [fire(quote, action, good_ctx(quote, action)) for action in PATHS[state]]


def quote_in(
    state: QuoteState,
    *,
    lines: tuple[QuoteLine, ...] | None = None,
    fit_required: bool = False,
    certificate_required: CertificateGrade | None = None,
) -> Quote:
    """A quote built by :func:`new_quote` and driven to ``state``."""
    quote = new_quote(
        lines=lines, fit_required=fit_required, certificate_required=certificate_required
    )
    drive(quote, state)
    return quote


# hypothesis strategies -------------------------------------------------------------

skus = st.sampled_from(["BV-1", "BV-2", "BV-3", "ACT-7", "ACT-8", "GK-4"])
amounts = st.decimals(min_value=Decimal("1"), max_value=Decimal("5000"), places=2)
discounts = st.decimals(min_value=Decimal("0"), max_value=Decimal("30"), places=1)


@st.composite
def quote_lines(draw: st.DrawFn, sku: str | None = None) -> QuoteLine:
    """A valid quote line (any discount up to 30 %, any margin)."""
    chosen = sku if sku is not None else draw(skus)
    price = draw(amounts)
    return QuoteLine(
        sku=chosen,
        quantity=draw(st.integers(min_value=1, max_value=50)),
        unit_price=Money(amount=price),
        discount_pct=draw(discounts),
        unit_cost=Money(amount=draw(amounts)),
        cited=(snapshot(chosen),),
    )


@st.composite
def line_sets(draw: st.DrawFn) -> tuple[QuoteLine, ...]:
    """One to three lines with distinct SKUs."""
    chosen = draw(st.lists(skus, min_size=1, max_size=3, unique=True))
    return tuple(draw(quote_lines(sku)) for sku in chosen)
