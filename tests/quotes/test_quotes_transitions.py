"""Every transition of the quote state machine: allowed from each source, refused from
every other state, and blocked by its guard with a reason saying what to do."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from remit.authority.roles import Action
from remit.catalogue.attributes import AttributeStatus, CertificateGrade
from remit.catalogue.money import Money
from remit.errors import GuardFailedError, InvalidTransitionError, QuoteEditError
from remit.quotes import (
    TRANSITIONS,
    GoodsReceipt,
    Invoice,
    OrderLine,
    PurchaseOrder,
    Quote,
    QuoteState,
    ReceiptLine,
    TransitionContext,
    allowed_from,
    edit_lines,
    fire,
    guard_failures,
)
from tests.quotes.strategies import (
    LATE,
    NOW,
    certificate,
    ctx,
    datasheet,
    good_ctx,
    line,
    matching_invoice,
    matching_po,
    matching_receipt,
    new_quote,
    quote_in,
    snapshot,
    two_lines,
)

FIRED = [spec for spec in TRANSITIONS if spec.trigger is not Action.EDIT_LINES]
ALLOWED_PAIRS = [
    pytest.param(spec.trigger, source, spec.dest, id=f"{spec.trigger}-from-{source}")
    for spec in FIRED
    for source in spec.sources
]
REFUSED_PAIRS = [
    pytest.param(spec.trigger, state, id=f"{spec.trigger}-from-{state}")
    for spec in TRANSITIONS
    for state in QuoteState
    if state not in spec.sources
]


def _snapshot(quote: Quote) -> tuple[str, int, int, int, object, object]:
    return (
        quote.state,
        len(quote.versions),
        len(quote.history),
        len(quote.approvals),
        quote.submission,
        quote.fit_confirmation,
    )


@pytest.mark.parametrize(("action", "source", "dest"), ALLOWED_PAIRS)
def test_transition_is_allowed_from_each_source(
    action: Action, source: QuoteState, dest: QuoteState
) -> None:
    quote = quote_in(source)
    context = good_ctx(quote, action)

    record = fire(quote, action, context)

    assert quote.state == dest
    assert (record.action, record.from_state, record.to_state) == (action, source, dest)
    assert (record.actor_id, record.role, record.minute) == (
        context.actor_id,
        context.role,
        context.now_minute,
    )
    assert record.version_hash == quote.current_hash
    assert quote.history[-1] == record


@pytest.mark.parametrize("source", allowed_from(Action.EDIT_LINES))
def test_edit_lines_is_allowed_from_each_editable_state(source: QuoteState) -> None:
    quote = quote_in(source)
    before = quote.current

    record = edit_lines(quote, (line("BV-1", 3), line("ACT-7", 2)), ctx(Action.EDIT_LINES))

    assert quote.state == QuoteState.DRAFT
    assert record.from_state == source
    assert quote.current.number == before.number + 1
    assert record.version_hash == quote.current_hash != before.content_hash


@pytest.mark.parametrize(("action", "state"), REFUSED_PAIRS)
def test_transition_is_refused_from_other_states(action: Action, state: QuoteState) -> None:
    quote = quote_in(state)
    before = _snapshot(quote)
    sources = tuple(s.value for s in allowed_from(action))

    def attempt() -> object:
        if action is Action.EDIT_LINES:
            return edit_lines(quote, (line("BV-9"),), ctx(action))
        return fire(quote, action, good_ctx(quote, action))

    refused = rf"cannot {action} quote Q-1 in state="
    with pytest.raises(InvalidTransitionError, match=refused) as exc:
        attempt()

    assert exc.value.allowed_from == sources
    assert (exc.value.state, exc.value.trigger) == (state.value, action.value)
    assert _snapshot(quote) == before


def test_edits_are_refused_in_fit_review_and_after_presentation() -> None:
    for state in (QuoteState.FIT_PENDING, QuoteState.PRESENTED, QuoteState.ACCEPTED):
        quote = quote_in(state)
        with pytest.raises(InvalidTransitionError, match="edit_lines is valid from: draft"):
            edit_lines(quote, (line("BV-1", 9),), ctx(Action.EDIT_LINES))


# guard failures --------------------------------------------------------------------

GuardCase = Callable[[], tuple[Quote, Action, TransitionContext]]


def _configure_without_citation() -> tuple[Quote, Action, TransitionContext]:
    draft_fact = snapshot("BV-1", status=AttributeStatus.DRAFT)
    other_sku = snapshot("BV-2")
    quote = new_quote(lines=(line("BV-1", cited=(draft_fact, other_sku)), line("ACT-7")))
    return quote, Action.CONFIGURE, ctx(Action.CONFIGURE)


def _configure_without_lines() -> tuple[Quote, Action, TransitionContext]:
    return new_quote(lines=()), Action.CONFIGURE, ctx(Action.CONFIGURE)


def _request_fit_without_reason() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.CONFIGURED), Action.REQUEST_FIT, ctx(Action.REQUEST_FIT)


def _confirm_fit_without_datasheet() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.FIT_PENDING)
    evidence = (datasheet("BV-1", AttributeStatus.DRAFT), datasheet("OTHER-1"))
    return quote, Action.CONFIRM_FIT, ctx(Action.CONFIRM_FIT, evidence=evidence)


def _confirm_fit_with_failed_rule() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.FIT_PENDING)
    context = ctx(
        Action.CONFIRM_FIT,
        evidence=(datasheet("BV-1"),),
        fit_failures=("C1: actuator flange F07 != valve flange F05",),
    )
    return quote, Action.CONFIRM_FIT, context


def _reject_fit_without_reason() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.FIT_PENDING), Action.REJECT_FIT, ctx(Action.REJECT_FIT)


def _price_without_fit() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.CONFIGURED, fit_required=True)
    return quote, Action.PRICE, ctx(Action.PRICE)


def _submit_above_ceiling() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.PRICED, lines=(line("BV-1", discount="25", cost="10.00"),))
    return quote, Action.SUBMIT, ctx(Action.SUBMIT, justification="strategic account")


def _submit_exception_unjustified() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.PRICED, lines=(line("BV-1", discount="10", cost="50.00"),))
    return quote, Action.SUBMIT, ctx(Action.SUBMIT)


def _submit_low_margin_unjustified() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.PRICED, lines=(line("BV-1", cost="90.00"),))
    return quote, Action.SUBMIT, ctx(Action.SUBMIT)


def _approve_above_ceiling() -> tuple[Quote, Action, TransitionContext]:
    # unreachable through fire (submit refuses it); the guard is the business ceiling
    quote = new_quote(lines=(line("BV-1", discount="25", cost="10.00"),))
    quote.state = QuoteState.APPROVAL_PENDING
    return quote, Action.APPROVE, ctx(Action.APPROVE)


def _present_after_validity() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.APPROVED), Action.PRESENT, ctx(Action.PRESENT, now=LATE)


def _present_without_approval() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.APPROVED)
    quote.approvals.clear()
    return quote, Action.PRESENT, ctx(Action.PRESENT)


def _accept_after_validity() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.PRESENTED), Action.ACCEPT, ctx(Action.ACCEPT, now=LATE)


def _expire_while_valid() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.PRESENTED), Action.EXPIRE, ctx(Action.EXPIRE, now=NOW)


def _receive_without_po() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.ACCEPTED), Action.RECEIVE_PO, ctx(Action.RECEIVE_PO)


def _receive_mismatched_po() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.ACCEPTED)
    po = PurchaseOrder(
        po_number="PO-9",
        lines=(
            OrderLine(sku="BV-1", quantity=3, unit_price=Money.of("95.00")),
            OrderLine(sku="ACT-7", quantity=2, unit_price=Money.of("240.00")),
            OrderLine(sku="GK-4", quantity=1, unit_price=Money.of("12.00")),
        ),
    )
    return quote, Action.RECEIVE_PO, ctx(Action.RECEIVE_PO, purchase_order=po)


def _receive_po_missing_line() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.ACCEPTED)
    po = PurchaseOrder(
        po_number="PO-9", lines=(OrderLine(sku="BV-1", quantity=2, unit_price=Money.of("95")),)
    )
    return quote, Action.RECEIVE_PO, ctx(Action.RECEIVE_PO, purchase_order=po)


def _record_short_receipt() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.ORDERED)
    receipt = GoodsReceipt(
        lines=(ReceiptLine(sku="BV-1", quantity=1), ReceiptLine(sku="ACT-7", quantity=2))
    )
    return quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=receipt)


def _record_receipt_without_certificate() -> tuple[Quote, Action, TransitionContext]:
    quote = quote_in(QuoteState.ORDERED, certificate_required=CertificateGrade.TYPE_3_1)
    weak = (certificate("BV-1"), certificate("ACT-7", CertificateGrade.TYPE_2_1))
    receipt = matching_receipt(quote).model_copy(update={"certificates": weak})
    return quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=receipt)


def _invoice_without_document() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.DELIVERED), Action.INVOICE, ctx(Action.INVOICE)


def _release_with_quantity_variance() -> tuple[Quote, Action, TransitionContext]:
    quote = new_quote()
    for action in (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.APPROVE):
        fire(quote, action, good_ctx(quote, action))
    fire(quote, Action.PRESENT, good_ctx(quote, Action.PRESENT))
    fire(quote, Action.ACCEPT, good_ctx(quote, Action.ACCEPT))
    fire(quote, Action.RECEIVE_PO, good_ctx(quote, Action.RECEIVE_PO))
    fire(quote, Action.RECORD_RECEIPT, good_ctx(quote, Action.RECORD_RECEIPT))
    invoice = Invoice(
        invoice_number="INV-3",
        lines=(
            OrderLine(sku="BV-1", quantity=3, unit_price=Money.of("95.00")),
            OrderLine(sku="ACT-7", quantity=2, unit_price=Money.of("250.00")),
        ),
    )
    fire(quote, Action.INVOICE, ctx(Action.INVOICE, invoice=invoice))
    return quote, Action.RELEASE_PAYMENT, ctx(Action.RELEASE_PAYMENT)


def _cancel_without_reason() -> tuple[Quote, Action, TransitionContext]:
    return quote_in(QuoteState.PRICED), Action.CANCEL, ctx(Action.CANCEL)


GUARD_CASES = [
    pytest.param(_configure_without_citation, r"line sku='BV-1' cites no released attribute"
                 r" snapshot of sku='BV-1'; cite the governed attributes", 1, id="configure"),
    pytest.param(_configure_without_lines, r"version 1 has no lines; add lines with edit_lines",
                 1, id="configure-empty"),
    pytest.param(_request_fit_without_reason, r"fit review is not required .*give a reason",
                 1, id="request_fit"),
    pytest.param(_confirm_fit_without_datasheet, r"no released datasheet of a quoted SKU in "
                 r"evidence \(supplied=\['DS-BV-1-r2', 'DS-OTHER-1-r2'\]\)", 1, id="confirm_fit"),
    pytest.param(_confirm_fit_with_failed_rule, r"fit rule failed: C1: actuator flange F07",
                 1, id="confirm_fit-rule"),
    pytest.param(_reject_fit_without_reason, r"a reason is required to reject fit", 1,
                 id="reject_fit"),
    pytest.param(_price_without_fit, r"fit review is required before pricing \(fit_required="
                 r"True\); request_fit and have the technical owner confirm_fit", 1, id="price"),
    pytest.param(_submit_above_ceiling, r"discount_pct=25 exceeds the ceiling "
                 r"max_discount_pct=20; lower the discount", 1, id="submit-ceiling"),
    pytest.param(_submit_exception_unjustified, r"discount_pct=10 is above "
                 r"standard_discount_pct=5; submit with a justification", 1, id="submit-discount"),
    pytest.param(_submit_low_margin_unjustified, r"margin_pct=10.00 is below min_margin_pct=15",
                 1, id="submit-margin"),
    pytest.param(_approve_above_ceiling, r"exceeds the ceiling max_discount_pct=20; deny it",
                 2, id="approve"),
    pytest.param(_present_after_validity, r"validity ended: now_minute=2000 is after "
                 r"valid_until_minute=1000; expire the quote", 1, id="present-validity"),
    pytest.param(_present_without_approval, r"has no valid approval; re-approval needed",
                 1, id="present-approval"),
    pytest.param(_accept_after_validity, r"validity ended: now_minute=2000", 1, id="accept"),
    pytest.param(_expire_while_valid, r"still valid: now_minute=10 is not after "
                 r"valid_until_minute=1000", 1, id="expire"),
    pytest.param(_receive_without_po, r"no purchase order supplied", 1, id="receive_po-none"),
    pytest.param(_receive_mismatched_po, r"orders quantity=3 of sku='BV-1', the quote "
                 r"quantity=2", 3, id="receive_po-mismatch"),
    pytest.param(_receive_po_missing_line, r"purchase order PO-9 lacks sku='ACT-7'", 1,
                 id="receive_po-missing"),
    pytest.param(_record_short_receipt, r"goods receipt has quantity=1 of sku='BV-1', the "
                 r"purchase order quantity=2", 1, id="record_receipt-qty"),
    pytest.param(_record_receipt_without_certificate, r"no released EN 10204 3.1 certificate "
                 r"for sku='ACT-7'", 1, id="record_receipt-certificate"),
    pytest.param(_invoice_without_document, r"no invoice supplied", 1, id="invoice"),
    pytest.param(_release_with_quantity_variance, r"three-way match: sku='BV-1' ordered=2, "
                 r"received=2, invoiced=3; quantities must match exactly", 1,
                 id="release_payment"),
    pytest.param(_cancel_without_reason, r"a reason is required to cancel", 1, id="cancel"),
]


@pytest.mark.parametrize(("case", "match", "count"), GUARD_CASES)
def test_guard_failure_explains_what_to_do(case: GuardCase, match: str, count: int) -> None:
    quote, action, context = case()
    before = _snapshot(quote)

    with pytest.raises(GuardFailedError, match=match) as exc:
        fire(quote, action, context)

    assert exc.value.trigger == action.value
    assert exc.value.quote_id == quote.id
    assert len(exc.value.reasons) == count
    assert exc.value.reasons == guard_failures(quote, action, context)
    assert _snapshot(quote) == before, "a refused transition changes nothing"


def test_receive_po_lists_every_mismatch() -> None:
    quote, action, context = _receive_mismatched_po()

    reasons = guard_failures(quote, action, context)

    assert any("quantity=3 of sku='BV-1'" in r for r in reasons)
    assert any("prices sku='ACT-7' at unit_price='240.00 EUR'" in r for r in reasons)
    assert any("orders sku='GK-4', which the quote does not contain" in r for r in reasons)


def test_submit_with_justification_passes_exceptions_but_not_the_ceiling() -> None:
    quote = quote_in(QuoteState.PRICED, lines=(line("BV-1", discount="12", cost="85.00"),))

    record = fire(quote, Action.SUBMIT, ctx(Action.SUBMIT, justification="framework contract"))

    assert quote.state == QuoteState.APPROVAL_PENDING
    assert record.reason == "framework contract"
    assert quote.submission is not None
    assert quote.submission.justification == "framework contract"


def test_guardless_triggers_have_no_failures() -> None:
    context = TransitionContext(actor_id="x", role=ctx(Action.DENY).role, now_minute=0)
    for state, action in (
        (QuoteState.APPROVAL_PENDING, Action.DENY),
        (QuoteState.PRESENTED, Action.REJECT),
        (QuoteState.DENIED, Action.REVISE),
    ):
        assert guard_failures(quote_in(state), action, context) == []


def test_request_fit_needs_no_reason_when_fit_is_required() -> None:
    quote = quote_in(QuoteState.CONFIGURED, fit_required=True)

    fire(quote, Action.REQUEST_FIT, ctx(Action.REQUEST_FIT))

    assert quote.state == QuoteState.FIT_PENDING


def test_fire_refuses_edit_lines_without_lines() -> None:
    quote = new_quote()
    with pytest.raises(QuoteEditError, match=r"call edit_lines\(quote, lines, ctx\)"):
        fire(quote, Action.EDIT_LINES, ctx(Action.EDIT_LINES))


def test_edit_lines_refuses_empty_identical_and_invalid_lines() -> None:
    quote = new_quote()
    context = ctx(Action.EDIT_LINES)

    with pytest.raises(QuoteEditError, match="no lines given"):
        edit_lines(quote, (), context)
    with pytest.raises(QuoteEditError, match=r"identical to version 1 \(hash="):
        edit_lines(quote, tuple(reversed(two_lines())), context)
    with pytest.raises(QuoteEditError, match="sku='BV-1' appears on two lines"):
        edit_lines(quote, (line("BV-1"), line("BV-1", 3)), context)
    with pytest.raises(QuoteEditError, match="currency='USD'"):
        edit_lines(quote, (line("BV-1"), line("ACT-7", currency="USD")), context)
    with pytest.raises(ValueError, match="identical"):
        edit_lines(quote, two_lines(), context)
    assert len(quote.versions) == 1
    assert quote.history == []


def test_certificate_2_1_requirement_is_met_by_a_3_1_certificate() -> None:
    quote = quote_in(QuoteState.ORDERED, certificate_required=CertificateGrade.TYPE_2_1)

    fire(quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=matching_receipt(quote)))

    assert quote.state == QuoteState.DELIVERED


def test_po_price_must_equal_the_net_unit_price() -> None:
    quote = quote_in(QuoteState.ACCEPTED)
    po = matching_po(quote)
    assert po.prices()["BV-1"] == Money.of("95.00")  # 100.00 less 5 %
    list_price_po = po.model_copy(
        update={"lines": (po.lines[0].model_copy(update={"unit_price": Money.of("100")}),
                          po.lines[1])}
    )

    with pytest.raises(GuardFailedError, match=r"the quote's net unit price is '95.00 EUR'"):
        fire(quote, Action.RECEIVE_PO, ctx(Action.RECEIVE_PO, purchase_order=list_price_po))

    fire(quote, Action.RECEIVE_PO, ctx(Action.RECEIVE_PO, purchase_order=po))
    assert quote.purchase_order == po


def test_invoice_attaches_the_document() -> None:
    quote = quote_in(QuoteState.DELIVERED)
    invoice = matching_invoice(quote)

    fire(quote, Action.INVOICE, ctx(Action.INVOICE, invoice=invoice))

    assert quote.invoice == invoice
    assert sum(ln.unit_price.amount * ln.quantity for ln in invoice.lines) == Decimal("690.00")


def test_the_shortcut_table_moves_a_quote_where_the_machine_would() -> None:
    """fire() moves a checked quote by the machine's own table instead of triggering it:
    every entry is the machine's first transition from that source, none has a callback,
    and a transition given one is left to the trigger."""
    from remit.quotes import machine as quote_machine_module  # noqa: PLC0415 - its privates

    machine = quote_machine_module.quote_machine()
    table = quote_machine_module._destinations()
    assert table  # the shortcut is taken for the machine as it is
    for (trigger, source), dest in table.items():
        first = machine.events[trigger].transitions[source][0]
        assert first.dest == dest
        assert [first.before, first.after, first.prepare] == [[], [], []]
        for state in (source, dest):
            assert [machine.states[state].on_enter, machine.states[state].on_exit] == [[], []]
    trigger, source = next(iter(table))
    first = machine.events[trigger].transitions[source][0]
    quote_machine_module._destinations.cache_clear()
    first.after.append(lambda *args, **kwargs: None)
    try:
        assert (trigger, source) not in quote_machine_module._destinations()
    finally:
        first.after.pop()
        quote_machine_module._destinations.cache_clear()
