"""Random triggers by random roles through authority then the state machine.

A hypothesis state machine plays every party at once: each step picks an action and a
role, asks ``decide`` on the dual-control map, and fires the trigger only when authority
allows it. Whatever the order, two commercial invariants hold: payment is never released
without finance's grant and a passing three-way match, and an approval never survives
an edit of the quote.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from remit.authority import (
    Action,
    CitedEvidence,
    Request,
    RequestContext,
    Resource,
    Role,
    decide,
    default_map,
    grant_id,
    who_can,
)
from remit.errors import GuardFailedError, InvalidTransitionError, QuoteEditError
from remit.quotes import (
    Invoice,
    OrderLine,
    Quote,
    QuoteState,
    available_actions,
    edit_lines,
    fire,
)
from tests.quotes.strategies import ctx, good_ctx, line, new_quote

ROLES = [r for r in Role]
TRIGGERS = [a for a in Action if a is not Action.EDIT_LINES]
POLICY = default_map()
_DETOURS = {Action.EDIT_LINES, Action.CANCEL, Action.EXPIRE, Action.DENY, Action.REJECT,
            Action.REJECT_FIT}


class GatedQuote(RuleBasedStateMachine):
    """One quote, every party, authority first."""

    def __init__(self) -> None:
        super().__init__()
        self.quote: Quote = new_quote()
        self.releases: list[tuple[str, bool]] = []  # (deciding grant ids, matched)

    def _decide(self, role: Role, action: Action) -> tuple[bool, tuple[str, ...]]:
        request = Request(
            actor_id=f"{role.value}-1", role=role, action=action,
            resource=Resource(id=self.quote.id, state=self.quote.state,
                              version_hash=self.quote.current_hash),
            context=RequestContext(
                evidence=(CitedEvidence(id="DS-1", kind="datasheet", released=True),),
                prior_actors={r.action: r.actor_id for r in self.quote.history}),
        )
        decision = decide(POLICY, request)
        return decision.allowed, decision.grant_ids

    @rule(data=st.data(), price_off=st.sampled_from([Decimal(0), Decimal("1.5"), Decimal(3)]))
    def step(self, data: st.DataObject, price_off: Decimal) -> None:
        """Mostly a forward action by a role that holds it, so walks get deep; now and
        then any action by any role, so refusals and invalid sources are exercised."""
        forward = [a for a in available_actions(self.quote) if a not in _DETOURS]
        if forward and data.draw(st.integers(0, 3)):
            action = data.draw(st.sampled_from(forward))
            role = data.draw(st.sampled_from(sorted(who_can(POLICY, action))))
        else:
            action = data.draw(st.sampled_from(TRIGGERS))
            role = data.draw(st.sampled_from(ROLES))
        self.trigger(action, role, price_off)

    def trigger(self, action: Action, role: Role, price_off: Decimal) -> None:
        """Decide, then fire if allowed; guard refusals are part of the walk."""
        allowed, grants = self._decide(role, action)
        if not allowed:
            return
        context = good_ctx(self.quote, action).model_copy(
            update={"role": role, "actor_id": f"{role.value}-1"})
        if action is Action.INVOICE and self.quote.receipt is not None:
            factor = (100 + price_off) / 100
            context = context.model_copy(update={"invoice": Invoice(
                invoice_number="INV-1",
                lines=tuple(OrderLine(sku=ln.sku, quantity=ln.quantity,
                                      unit_price=ln.net_unit_price * factor)
                            for ln in self.quote.current.lines))})
        try:
            fire(self.quote, action, context)
        except (InvalidTransitionError, GuardFailedError):
            return
        if action is Action.RELEASE_PAYMENT:
            self.releases.append((",".join(grants), self._three_way_match()))

    @rule(role=st.sampled_from(ROLES), quantity=st.integers(min_value=1, max_value=9))
    def edit(self, role: Role, quantity: int) -> None:
        allowed, _ = self._decide(role, Action.EDIT_LINES)
        if not allowed:
            return
        approved_before = self.quote.valid_approval()
        try:
            edit_lines(self.quote, [line(quantity=quantity)],
                       ctx(Action.EDIT_LINES).model_copy(update={"role": role}))
        except (InvalidTransitionError, QuoteEditError):
            return
        if approved_before is not None:
            assert self.quote.valid_approval() is None, "an approval survived an edit"

    def _three_way_match(self) -> bool:
        q = self.quote
        if q.purchase_order is None or q.receipt is None or q.invoice is None:
            return False
        ordered, received = q.purchase_order.quantities(), q.receipt.quantities()
        invoiced, prices = q.invoice.quantities(), q.purchase_order.prices()
        return ordered == received == invoiced and all(
            abs(price.amount - prices[sku].amount) <= prices[sku].amount * Decimal("0.02")
            for sku, price in q.invoice.prices().items())

    @invariant()
    def payment_needs_finance_and_a_match(self) -> None:
        for grants, matched in self.releases:
            assert grants == grant_id(Role.FINANCE, Action.RELEASE_PAYMENT)
            assert matched
        if self.quote.state == QuoteState.PAYMENT_RELEASED:
            assert self.releases

    @invariant()
    def approval_is_bound_to_the_current_version(self) -> None:
        approval = self.quote.valid_approval()
        if approval is not None:
            assert approval.version_hash == self.quote.current_hash
            assert approval.role is Role.FINANCE


GatedQuote.TestCase.settings = settings(
    max_examples=200, stateful_step_count=60, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow], deadline=None)
TestGatedQuote = GatedQuote.TestCase


def test_the_machine_reaches_payment_release() -> None:
    """The random walk is not vacuous: the happy path passes the same checks."""
    machine = GatedQuote()
    for action in (Action.CONFIGURE, Action.PRICE, Action.SUBMIT, Action.APPROVE,
                   Action.PRESENT, Action.ACCEPT, Action.RECEIVE_PO, Action.RECORD_RECEIPT,
                   Action.INVOICE, Action.RELEASE_PAYMENT):
        owner = next(r for r in ROLES if machine._decide(r, action)[0])
        machine.trigger(action, owner, Decimal(0))
    assert machine.quote.state == QuoteState.PAYMENT_RELEASED
    assert machine.releases == [(grant_id(Role.FINANCE, Action.RELEASE_PAYMENT), True)]
