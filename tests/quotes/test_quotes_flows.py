"""Whole stories through the quote state machine: the happy path, fit review, approvals
bound to a content hash, re-quoting, the three-way match, and the shared machine."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.authority.roles import Action, Role
from remit.catalogue.attributes import CertificateGrade
from remit.catalogue.money import Money
from remit.errors import GuardFailedError, InvalidTransitionError
from remit.quotes import (
    TRANSITIONS,
    Invoice,
    OrderLine,
    Quote,
    QuoteState,
    available_actions,
    edit_lines,
    fire,
    guard_failures,
    is_terminal,
    mermaid_diagram,
    quote_machine,
)
from tests.quotes.strategies import (
    LATE,
    VALID_UNTIL,
    certificate,
    ctx,
    drive,
    good_ctx,
    line,
    matching_receipt,
    new_quote,
    quote_in,
)


def _invoice_at(quote: Quote, bv_price: str) -> Invoice:
    return Invoice(
        invoice_number="INV-3",
        lines=(
            OrderLine(sku="BV-1", quantity=2, unit_price=Money.of(bv_price)),
            OrderLine(sku="ACT-7", quantity=2, unit_price=Money.of("250.00")),
        ),
    )


def test_happy_path_from_draft_to_payment_released() -> None:
    quote = new_quote()

    records = drive(quote, QuoteState.PAYMENT_RELEASED)

    assert [r.action for r in records] == [
        Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.APPROVE, Action.PRESENT,
        Action.ACCEPT, Action.RECEIVE_PO, Action.RECORD_RECEIPT, Action.INVOICE,
        Action.RELEASE_PAYMENT,
    ]  # fmt: skip
    assert [r.to_state for r in records][-1] == QuoteState.PAYMENT_RELEASED
    assert all(a.from_state == b.to_state for a, b in zip(records[1:], records, strict=False))
    assert quote.history == records
    assert quote.submitted_by == "agent-1"
    approval = quote.valid_approval()
    assert approval is not None
    assert (approval.role, approval.actor_id) == (Role.FINANCE, "finance-1")
    assert quote.purchase_order is not None
    assert quote.receipt is not None
    assert quote.invoice is not None
    assert is_terminal(quote.state)
    assert available_actions(quote) == ()


def test_path_with_fit_review() -> None:
    quote = new_quote(fit_required=True)
    fire(quote, Action.CONFIGURE, ctx(Action.CONFIGURE))
    with pytest.raises(GuardFailedError, match="fit review is required before pricing"):
        fire(quote, Action.PRICE, ctx(Action.PRICE))

    fire(quote, Action.REQUEST_FIT, ctx(Action.REQUEST_FIT))
    fire(quote, Action.CONFIRM_FIT, ctx(Action.CONFIRM_FIT, evidence=(
        certificate("BV-1"), good_ctx(quote, Action.CONFIRM_FIT).evidence[0])))
    record = fire(quote, Action.PRICE, ctx(Action.PRICE))

    assert [r.to_state for r in quote.history] == [
        QuoteState.CONFIGURED, QuoteState.FIT_PENDING, QuoteState.FIT_CONFIRMED,
        QuoteState.PRICED,
    ]  # fmt: skip
    assert record.from_state == QuoteState.FIT_CONFIRMED
    confirmation = quote.valid_fit_confirmation()
    assert confirmation is not None
    assert confirmation.role == Role.TECHNICAL_OWNER
    assert confirmation.evidence_ids == ("CERT-BV-1-3.1", "DS-BV-1-r2")
    assert confirmation.version_hash == quote.current_hash


def test_rejected_fit_goes_back_to_configured_and_edits_void_the_fit() -> None:
    quote = quote_in(QuoteState.FIT_PENDING, fit_required=True)
    fire(quote, Action.REJECT_FIT, ctx(Action.REJECT_FIT, reason="C2: torque too low"))
    assert quote.state == QuoteState.CONFIGURED
    assert quote.history[-1].reason == "C2: torque too low"

    fire(quote, Action.REQUEST_FIT, ctx(Action.REQUEST_FIT))
    fire(quote, Action.CONFIRM_FIT, good_ctx(quote, Action.CONFIRM_FIT))
    edit_lines(quote, (line("BV-1", 4), line("ACT-7", 4)), ctx(Action.EDIT_LINES))

    assert quote.valid_fit_confirmation() is None
    fire(quote, Action.CONFIGURE, ctx(Action.CONFIGURE))
    with pytest.raises(GuardFailedError, match="fit review is required before pricing"):
        fire(quote, Action.PRICE, ctx(Action.PRICE))


def test_approval_binds_to_the_content_hash() -> None:
    quote = quote_in(QuoteState.APPROVED)
    approved_hash = quote.current_hash
    assert quote.valid_approval() is not None

    edit_lines(quote, (line("BV-1", 5, discount="5"), line("ACT-7")), ctx(Action.EDIT_LINES))

    assert quote.state == QuoteState.DRAFT
    assert quote.valid_approval() is None
    assert quote.approvals[-1].version_hash == approved_hash != quote.current_hash
    reasons = guard_failures(quote, Action.PRESENT, ctx(Action.PRESENT))
    assert reasons == [
        f"the approval of content hash={approved_hash[:12]!r} no longer counts: the quote "
        f"changed to version 2 (hash={quote.current.short_hash!r}); re-approval needed: "
        "submit version 2 and have finance approve it"
    ]
    with pytest.raises(InvalidTransitionError, match="present is valid from: approved"):
        fire(quote, Action.PRESENT, ctx(Action.PRESENT))

    for action in (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.APPROVE):
        fire(quote, action, good_ctx(quote, action))
    record = fire(quote, Action.PRESENT, ctx(Action.PRESENT))

    assert record.version_number == 2
    approval = quote.valid_approval()
    assert approval is not None
    assert approval.version_hash == quote.current_hash
    assert len(quote.approvals) == 2


def test_a_denial_after_an_approval_voids_it() -> None:
    quote = quote_in(QuoteState.APPROVED)
    edit_lines(quote, (line("BV-1", 3),), ctx(Action.EDIT_LINES))
    edit_lines(quote, quote.versions[0].lines, ctx(Action.EDIT_LINES))
    assert quote.current.content_hash == quote.versions[0].content_hash
    assert quote.valid_approval() is not None, "identical content keeps its approval"

    for action in (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.DENY):
        fire(quote, action, good_ctx(quote, action))

    assert quote.valid_approval() is None
    assert quote.approvals[-1].decision == "deny"
    assert quote.approvals[-1].reason == "buyer changed the design pressure"


def test_revise_opens_version_n_plus_one_with_the_same_content() -> None:
    for state in (QuoteState.DENIED, QuoteState.REJECTED, QuoteState.EXPIRED):
        quote = quote_in(state)
        old = quote.current

        record = fire(quote, Action.REVISE, ctx(Action.REVISE, now=77))

        assert quote.state == QuoteState.DRAFT
        assert quote.current.number == old.number + 1 == record.version_number
        assert quote.current.lines == old.lines
        assert quote.current.content_hash == old.content_hash
        assert quote.current.created_minute == 77
        assert len(quote.versions) == 2


def test_expiry_from_approved_and_presented_then_requote() -> None:
    approved = quote_in(QuoteState.APPROVED)
    fire(approved, Action.EXPIRE, ctx(Action.EXPIRE, now=LATE))
    assert approved.state == QuoteState.EXPIRED

    presented = quote_in(QuoteState.PRESENTED)
    with pytest.raises(GuardFailedError, match="validity ended"):
        fire(presented, Action.ACCEPT, ctx(Action.ACCEPT, now=LATE))
    fire(presented, Action.EXPIRE, ctx(Action.EXPIRE, now=LATE))
    fire(presented, Action.REVISE, ctx(Action.REVISE, now=LATE))
    assert presented.state == QuoteState.DRAFT


def test_three_way_match_price_tolerance() -> None:
    within = quote_in(QuoteState.DELIVERED)
    # ordered at 95.00; 96.90 is +2.00 %, exactly at the tolerance
    fire(within, Action.INVOICE, ctx(Action.INVOICE, invoice=_invoice_at(within, "96.90")))
    fire(within, Action.RELEASE_PAYMENT, ctx(Action.RELEASE_PAYMENT))
    assert within.state == QuoteState.PAYMENT_RELEASED

    beyond = quote_in(QuoteState.DELIVERED)
    # 97.375 -> 97.38 is +2.5 %
    fire(beyond, Action.INVOICE, ctx(Action.INVOICE, invoice=_invoice_at(beyond, "97.38")))
    with pytest.raises(GuardFailedError, match=r"invoiced unit_price='97.38 EUR' differs from "
                       r"the ordered '95.00 EUR' by 2.51% \(price_tolerance_pct=2\)") as exc:
        fire(beyond, Action.RELEASE_PAYMENT, ctx(Action.RELEASE_PAYMENT))
    assert len(exc.value.reasons) == 1
    assert beyond.state == QuoteState.INVOICED


def test_three_way_match_quantities_must_be_exact() -> None:
    quote = quote_in(QuoteState.DELIVERED)
    short = Invoice(
        invoice_number="INV-3",
        lines=(OrderLine(sku="BV-1", quantity=2, unit_price=Money.of("95.00")),),
    )
    fire(quote, Action.INVOICE, ctx(Action.INVOICE, invoice=short))

    with pytest.raises(GuardFailedError, match=r"sku='ACT-7' ordered=2, received=2, invoiced=0"):
        fire(quote, Action.RELEASE_PAYMENT, ctx(Action.RELEASE_PAYMENT))


def test_required_3_1_certificate_missing_blocks_receipt() -> None:
    quote = quote_in(QuoteState.ORDERED, certificate_required=CertificateGrade.TYPE_3_1)
    no_certs = matching_receipt(quote).model_copy(update={"certificates": ()})

    with pytest.raises(GuardFailedError, match=r"no released EN 10204 3.1 certificate for "
                       r"sku='BV-1' in the goods receipt \(C7") as exc:
        fire(quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=no_certs))
    assert len(exc.value.reasons) == 2
    assert quote.receipt is None

    fire(quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=matching_receipt(quote)))
    assert quote.state == QuoteState.DELIVERED


def test_without_certificate_requirement_no_certificate_is_needed() -> None:
    quote = quote_in(QuoteState.ORDERED)
    no_certs = matching_receipt(quote).model_copy(update={"certificates": ()})

    fire(quote, Action.RECORD_RECEIPT, ctx(Action.RECORD_RECEIPT, receipt=no_certs))

    assert quote.state == QuoteState.DELIVERED


def test_cancel_from_any_non_terminal_state_and_never_after() -> None:
    for state in QuoteState:
        quote = quote_in(state)
        if is_terminal(state):
            with pytest.raises(InvalidTransitionError, match="cancel is valid from: draft"):
                fire(quote, Action.CANCEL, good_ctx(quote, Action.CANCEL))
            continue
        fire(quote, Action.CANCEL, good_ctx(quote, Action.CANCEL))
        assert quote.state == QuoteState.CANCELLED


# the shared machine -----------------------------------------------------------------


def test_one_machine_is_shared_and_holds_no_models() -> None:
    machine = quote_machine()
    assert quote_machine() is machine
    models_before = list(machine.models)

    first, second = new_quote(quote_id="Q-1"), new_quote(quote_id="Q-2")
    drive(first, QuoteState.APPROVED)
    fire(second, Action.CONFIGURE, ctx(Action.CONFIGURE))

    assert (first.state, second.state) == (QuoteState.APPROVED, QuoteState.CONFIGURED)
    assert machine.models == models_before == []
    assert not hasattr(first, "trigger")
    assert not hasattr(first, "to_draft"), "auto transitions would bypass the guards"
    assert set(machine.events) == {spec.trigger.value for spec in TRANSITIONS}


def test_machine_conditions_are_a_safety_net_for_direct_triggers() -> None:
    event = quote_machine().events[Action.CONFIGURE.value]
    unconfigurable = new_quote(lines=())

    assert event.trigger(unconfigurable, ctx=ctx(Action.CONFIGURE)) is False
    assert event.trigger(new_quote(), ctx=None) is False
    assert unconfigurable.state == QuoteState.DRAFT

    ready = new_quote()
    assert event.trigger(ready, ctx=ctx(Action.CONFIGURE)) is True
    assert ready.state == QuoteState.CONFIGURED


def test_quote_state_accepts_members_and_refuses_unknown_states() -> None:
    quote = new_quote()
    quote.state = QuoteState.PRICED
    assert type(quote.state) is str
    assert quote.state == "priced"
    with pytest.raises(ValueError, match="'paid' is not a valid QuoteState"):
        quote.state = "paid"


def test_quote_defaults() -> None:
    quote = Quote("Q-5", lines=(line(),), created_minute=100)

    assert quote.valid_until_minute == 100 + quote.policy.validity_minutes
    assert quote.current.number == 1
    assert quote.current.created_minute == 100
    assert quote.valid_approval() is None
    assert quote.submitted_by is None
    assert "Q-5" in repr(quote)
    assert quote.current.total == Money(amount=Decimal("200.00"))


def test_mermaid_diagram_shows_every_state_and_trigger() -> None:
    text = mermaid_diagram()

    assert "stateDiagram-v2" in text
    assert "[*] --> draft" in text
    for state in QuoteState:
        assert f'state "{state.value}" as {state.value}' in text
    edges = {
        tuple(row.strip().split(": ", 1)[0].split(" --> ")): row.split(": ", 1)[1].split(" | ")
        for row in text.splitlines()
        if " --> " in row and not row.strip().startswith("[*]")
    }
    for spec in TRANSITIONS:
        for source in spec.sources:
            assert spec.trigger.value in edges[(source.value, spec.dest.value)]
    assert quote_machine().models == []


def test_revise_after_expiry_starts_a_fresh_validity_period() -> None:
    quote = quote_in(QuoteState.EXPIRED)
    assert quote.valid_until_minute == VALID_UNTIL
    fire(quote, Action.REVISE, ctx(Action.REVISE, now=LATE))
    assert quote.state == QuoteState.DRAFT
    assert quote.valid_until_minute == LATE + quote.validity_minutes
    assert quote.validity_minutes == VALID_UNTIL
