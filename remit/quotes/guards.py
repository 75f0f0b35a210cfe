"""Guards: the business rules a transition must pass, as sentences saying what to do.

A ``transitions`` condition can only answer True or False. remit needs the reason, so
each guard here returns the list of failed rules, one sentence each, and the machine's
condition merely checks that the list is empty. Guards are business rules: they hold
in every control mode. Who may fire a trigger is decided elsewhere, by
:mod:`remit.authority` (e.g. "approver != submitter" is a separation-of-duties
condition there, not a guard here).

Example:
    >>> guard_failures(quote, Action.CANCEL, ctx)
    ['a reason is required to cancel; pass reason="..." saying why the quote is cancelled']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from types import MappingProxyType

from remit.authority.roles import Action
from remit.catalogue.attributes import AttributeStatus, CertificateGrade, EvidenceKind
from remit.catalogue.money import Money
from remit.quotes.context import TransitionContext
from remit.quotes.quote import Quote
from remit.quotes.states import QuoteState

__all__ = ["guard_failures"]

_HUNDRED = Decimal(100)

_Guard = Callable[[Quote, TransitionContext], list[str]]


def _configure(quote: Quote, ctx: TransitionContext) -> list[str]:
    version = quote.current
    if not version.lines:
        return [f"version {version.number} has no lines; add lines with edit_lines first"]
    return [
        f"line sku={line.sku!r} cites no released attribute snapshot of sku={line.sku!r}; "
        "cite the governed attributes the line relies on and edit the line"
        for line in version.lines
        if not line.governed_citations()
    ]


def _request_fit(quote: Quote, ctx: TransitionContext) -> list[str]:
    if quote.fit_required or ctx.reason.strip():
        return []
    return [
        "fit review is not required for this quote (fit_required=False); give a reason "
        "(custom spec or substitution) to request it"
    ]


def _confirm_fit(quote: Quote, ctx: TransitionContext) -> list[str]:
    failures: list[str] = []
    skus = set(quote.current.skus)
    datasheets = [
        doc
        for doc in ctx.evidence
        if doc.kind is EvidenceKind.DATASHEET
        and doc.status is AttributeStatus.RELEASED
        and doc.sku in skus
    ]
    if not datasheets:
        supplied = [doc.id for doc in ctx.evidence]
        failures.append(
            f"no released datasheet of a quoted SKU in evidence (supplied={supplied!r}); "
            f"attach the released datasheet revision of one of {sorted(skus)!r}"
        )
    failures.extend(
        f"fit rule failed: {failure}; fix the lines with edit_lines or reject_fit"
        for failure in ctx.fit_failures
    )
    return failures


def _reject_fit(quote: Quote, ctx: TransitionContext) -> list[str]:
    if ctx.reason.strip():
        return []
    return ['a reason is required to reject fit; pass reason="..." naming the fit fact that fails']


def _price(quote: Quote, ctx: TransitionContext) -> list[str]:
    if quote.state == QuoteState.CONFIGURED and quote.fit_required:
        return [
            "fit review is required before pricing (fit_required=True); request_fit and "
            "have the technical owner confirm_fit first"
        ]
    if quote.state == QuoteState.FIT_CONFIRMED and quote.valid_fit_confirmation() is None:
        confirmed = quote.fit_confirmation
        confirmed_hash = "none" if confirmed is None else confirmed.version_hash[:12]
        return [
            f"fit was confirmed for content hash={confirmed_hash!r}, not for version "
            f"{quote.current.number} (hash={quote.current.short_hash!r}); confirm fit for "
            "the current version"
        ]
    return []


def _pct(value: Decimal) -> str:
    return f"{value:.2f}" if value.is_finite() else str(value)


def _submit(quote: Quote, ctx: TransitionContext) -> list[str]:
    policy = quote.policy
    justified = bool(ctx.justification.strip())
    failures: list[str] = []
    for line in quote.current.lines:
        if line.discount_pct > policy.max_discount_pct:
            failures.append(
                f"line sku={line.sku!r} discount_pct={line.discount_pct} exceeds the ceiling "
                f"max_discount_pct={policy.max_discount_pct}; lower the discount with "
                "edit_lines (no justification allows it)"
            )
        elif line.discount_pct > policy.standard_discount_pct and not justified:
            failures.append(
                f"line sku={line.sku!r} discount_pct={line.discount_pct} is above "
                f"standard_discount_pct={policy.standard_discount_pct}; submit with a "
                "justification for the exception"
            )
        margin = line.margin_pct
        if margin < policy.min_margin_pct and not justified:
            failures.append(
                f"line sku={line.sku!r} margin_pct={_pct(margin)} is below "
                f"min_margin_pct={policy.min_margin_pct}; submit with a justification for "
                "the exception or raise the price"
            )
    return failures


def _approve(quote: Quote, ctx: TransitionContext) -> list[str]:
    policy = quote.policy
    failures = [
        f"line sku={line.sku!r} discount_pct={line.discount_pct} exceeds the ceiling "
        f"max_discount_pct={policy.max_discount_pct}; deny it and ask for a lower discount"
        for line in quote.current.lines
        if line.discount_pct > policy.max_discount_pct
    ]
    submitted = quote.submission
    if submitted is None or submitted.version_hash != quote.current_hash:
        submitted_hash = "none" if submitted is None else submitted.version_hash[:12]
        failures.append(
            f"version {quote.current.number} (hash={quote.current.short_hash!r}) is not the "
            f"submitted content (hash={submitted_hash!r}); submit the current version first"
        )
    return failures


def _still_valid(quote: Quote, ctx: TransitionContext, what: str) -> list[str]:
    if ctx.now_minute <= quote.valid_until_minute:
        return []
    return [
        f"the quote's validity ended: now_minute={ctx.now_minute} is after "
        f"valid_until_minute={quote.valid_until_minute}; {what}"
    ]


def _present(quote: Quote, ctx: TransitionContext) -> list[str]:
    failures: list[str] = []
    if quote.valid_approval() is None:
        version = quote.current
        older = [a for a in quote.approvals if a.decision == "approve"]
        if older and older[-1].version_hash != version.content_hash:
            failures.append(
                f"the approval of content hash={older[-1].version_hash[:12]!r} no longer "
                f"counts: the quote changed to version {version.number} "
                f"(hash={version.short_hash!r}); re-approval needed: submit version "
                f"{version.number} and have finance approve it"
            )
        else:
            failures.append(
                f"version {version.number} (hash={version.short_hash!r}) has no valid "
                "approval; re-approval needed: submit it and have finance approve it"
            )
    failures.extend(_still_valid(quote, ctx, "expire the quote and revise it"))
    return failures


def _accept(quote: Quote, ctx: TransitionContext) -> list[str]:
    return _still_valid(quote, ctx, "ask the agent for a revised quote")


def _expire(quote: Quote, ctx: TransitionContext) -> list[str]:
    if ctx.now_minute > quote.valid_until_minute:
        return []
    return [
        f"the quote is still valid: now_minute={ctx.now_minute} is not after "
        f"valid_until_minute={quote.valid_until_minute}; expire it only after its validity"
    ]


def _receive_po(quote: Quote, ctx: TransitionContext) -> list[str]:
    po = ctx.purchase_order
    if po is None:
        return ["no purchase order supplied; pass purchase_order= with the buyer's PO"]
    quantities, prices = po.quantities(), po.prices()
    fix = "the PO must repeat the accepted quote; ask the buyer for a corrected PO"
    failures: list[str] = []
    for line in quote.current.lines:
        if line.sku not in quantities:
            failures.append(f"purchase order {po.po_number} lacks sku={line.sku!r}; {fix}")
            continue
        if quantities[line.sku] != line.quantity:
            failures.append(
                f"purchase order {po.po_number} orders quantity={quantities[line.sku]} of "
                f"sku={line.sku!r}, the quote quantity={line.quantity}; {fix}"
            )
        if prices[line.sku] != line.net_unit_price:
            failures.append(
                f"purchase order {po.po_number} prices sku={line.sku!r} at "
                f"unit_price='{prices[line.sku]}', the quote's net unit price is "
                f"'{line.net_unit_price}'; {fix}"
            )
    quoted = set(quote.current.skus)
    failures.extend(
        f"purchase order {po.po_number} orders sku={sku!r}, which the quote does not "
        f"contain; {fix}"
        for sku in quantities
        if sku not in quoted
    )
    return failures


def _certificate_satisfies(grade: CertificateGrade | None, required: CertificateGrade) -> bool:
    # a 3.1 (per-heat, independently inspected) certificate also satisfies a 2.1 requirement
    return grade is required or grade is CertificateGrade.TYPE_3_1


def _record_receipt(quote: Quote, ctx: TransitionContext) -> list[str]:
    receipt = ctx.receipt
    if receipt is None:
        return ["no goods receipt supplied; pass receipt= with what arrived"]
    failures: list[str] = []
    received = receipt.quantities()
    ordered = quote.purchase_order.quantities() if quote.purchase_order is not None else {}
    for sku in sorted(set(ordered) | set(received)):
        got, want = received.get(sku, 0), ordered.get(sku, 0)
        if got != want:
            failures.append(
                f"goods receipt has quantity={got} of sku={sku!r}, the purchase order "
                f"quantity={want}; record the receipt only when it equals the order"
            )
    required = quote.certificate_required
    if required is not None:
        for sku in quote.current.skus:
            if not any(
                cert.kind is EvidenceKind.CERTIFICATE
                and cert.status is AttributeStatus.RELEASED
                and cert.sku == sku
                and _certificate_satisfies(cert.grade, required)
                for cert in receipt.certificates
            ):
                failures.append(
                    f"no released EN 10204 {required} certificate for sku={sku!r} in the "
                    f"goods receipt (C7: certificate_required={required.value!r}); obtain it "
                    "from the supplier before recording the receipt"
                )
    return failures


def _invoice(quote: Quote, ctx: TransitionContext) -> list[str]:
    if ctx.invoice is None:
        return ["no invoice supplied; pass invoice= with the supplier's invoice"]
    return []


def _price_deviation_pct(invoiced: Money, ordered: Money) -> Decimal:
    if ordered.amount == 0:
        return Decimal(0) if invoiced.amount == 0 else Decimal("Infinity")
    return abs(invoiced.amount - ordered.amount) / ordered.amount * _HUNDRED


def _release_payment(quote: Quote, ctx: TransitionContext) -> list[str]:
    po, receipt, invoice = quote.purchase_order, quote.receipt, quote.invoice
    if po is None or receipt is None or invoice is None:
        documents = (("purchase order", po), ("goods receipt", receipt), ("invoice", invoice))
        missing = [name for name, doc in documents if doc is None]
        return [f"three-way match needs {', '.join(missing)}; record them first"]
    tolerance = quote.policy.price_tolerance_pct
    ordered, received, invoiced = po.quantities(), receipt.quantities(), invoice.quantities()
    ordered_prices, invoiced_prices = po.prices(), invoice.prices()
    failures: list[str] = []
    for sku in sorted(set(ordered) | set(received) | set(invoiced)):
        counts = (ordered.get(sku, 0), received.get(sku, 0), invoiced.get(sku, 0))
        if len(set(counts)) > 1:
            failures.append(
                f"three-way match: sku={sku!r} ordered={counts[0]}, received={counts[1]}, "
                f"invoiced={counts[2]}; quantities must match exactly: ask the supplier for a "
                "corrected invoice"
            )
        if sku not in ordered_prices or sku not in invoiced_prices:
            continue
        want, got = ordered_prices[sku], invoiced_prices[sku]
        if want.currency != got.currency:
            failures.append(
                f"three-way match: sku={sku!r} invoiced in currency={got.currency!r}, ordered "
                f"in currency={want.currency!r}; ask for an invoice in the order's currency"
            )
            continue
        deviation = _price_deviation_pct(got, want)
        if deviation > tolerance:
            failures.append(
                f"three-way match: sku={sku!r} invoiced unit_price='{got}' differs from the "
                f"ordered '{want}' by {_pct(deviation)}% (price_tolerance_pct={tolerance}); "
                "ask for a corrected invoice"
            )
    return failures


def _cancel(quote: Quote, ctx: TransitionContext) -> list[str]:
    if ctx.reason.strip():
        return []
    return ['a reason is required to cancel; pass reason="..." saying why the quote is cancelled']


def _no_guard(quote: Quote, ctx: TransitionContext) -> list[str]:
    return []


_GUARDS: Mapping[Action, _Guard] = MappingProxyType(
    {
        Action.CONFIGURE: _configure,
        Action.REQUEST_FIT: _request_fit,
        Action.CONFIRM_FIT: _confirm_fit,
        Action.REJECT_FIT: _reject_fit,
        Action.PRICE: _price,
        Action.SUBMIT: _submit,
        Action.APPROVE: _approve,
        Action.DENY: _no_guard,
        Action.PRESENT: _present,
        Action.ACCEPT: _accept,
        Action.REJECT: _no_guard,
        Action.EXPIRE: _expire,
        Action.RECEIVE_PO: _receive_po,
        Action.RECORD_RECEIPT: _record_receipt,
        Action.INVOICE: _invoice,
        Action.RELEASE_PAYMENT: _release_payment,
        Action.REVISE: _no_guard,
        Action.CANCEL: _cancel,
        Action.EDIT_LINES: _no_guard,
    }
)


def guard_failures(quote: Quote, action: Action, ctx: TransitionContext) -> list[str]:
    """The business rules that block ``action`` on ``quote`` now, one sentence each.

    An empty list means the guards pass. The state itself is not checked here (that is
    :func:`remit.quotes.allowed_from`); guards that depend on the source state (``price``)
    read ``quote.state``.

    Args:
        quote: the quote.
        action: the trigger.
        ctx: who acts, when, and with which documents.

    Returns:
        Sentences naming the rule, the offending value and what to do next.
    """
    return _GUARDS[action](quote, ctx)
