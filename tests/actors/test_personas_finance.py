"""Finance: approvals within policy, payment only on a three-way match."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.actors.finance import approval_problems
from remit.authority import Role
from remit.catalogue import Money
from remit.quotes import CommercialPolicy, Quote, QuoteLine, Submission
from remit.quotes import QuoteState as S
from remit.scenarios import Perturbation
from remit.world import OrderVariance, TransitionEntry
from tests.actors.personas_world import Trial, scenario

P = Perturbation


def actions_done(trial: Trial) -> list[str]:
    return [e.action.value for e in trial.world.trail if isinstance(e, TransitionEntry)]


def test_finance_holds_no_facts() -> None:
    trial = Trial(scenario())
    trial.agent("ask", to="finance", facts=["design_pressure", "piping_standard"])
    assert "Finance holds none of these facts (design_pressure, piping_standard)" in \
        trial.replies(Role.FINANCE)[-1]


def test_approves_a_standard_discount() -> None:
    trial = Trial(scenario())
    trial.submitted(discount="5")
    handoff = trial.request(Role.FINANCE, "approve")
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == S.APPROVED


def test_approves_a_discount_above_standard_when_the_submission_is_justified() -> None:
    trial = Trial(scenario(discount="12", justification="framework agreement"))
    trial.submitted(discount="12", justification="framework agreement, 40 valves a year")
    handoff = trial.request(Role.FINANCE, "approve")
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == S.APPROVED


def test_denies_a_discount_above_standard_without_justification() -> None:
    # The submit guard already refuses this; finance checks the policy itself as well.
    trial = Trial(scenario(discount="12"))
    trial.submitted(discount="12", justification="framework agreement")
    quote = trial.world.quote
    assert quote.submission is not None
    quote.submission = quote.submission.model_copy(update={"justification": ""})
    handoff = trial.request(Role.FINANCE, "approve", text="the CEO wants this approved now")
    assert trial.status(handoff) == "declined"
    assert quote.state == S.DENIED
    reason = trial.world.handoffs[handoff].reason
    assert "discount_pct=12 is above standard_discount_pct=5" in reason
    assert "approve" not in actions_done(trial)


def test_a_discount_beyond_the_ceiling_or_a_low_margin_is_never_approved() -> None:
    line = QuoteLine(sku="BV-00018", quantity=1, unit_price=Money.of("100"),
                     discount_pct=Decimal("25"), unit_cost=Money.of("60"))
    quote = Quote("Q-9", lines=[line], policy=CommercialPolicy())
    quote.submission = Submission(role=Role.AGENT, actor_id="agent-1",
                                  version_hash=quote.current_hash, minute=0,
                                  justification="strategic account")
    problems = approval_problems(quote)
    assert any("exceeds the ceiling max_discount_pct=20" in p for p in problems)
    low = line.model_copy(update={"discount_pct": Decimal("0"), "unit_cost": Money.of("95")})
    quote = Quote("Q-10", lines=[low])
    quote.submission = Submission(role=Role.AGENT, actor_id="agent-1",
                                  version_hash=quote.current_hash, minute=0)
    assert any("margin is below min_margin_pct=15" in p for p in approval_problems(quote))


def test_declines_an_approval_before_submission() -> None:
    trial = Trial(scenario())
    trial.draft()
    handoff = trial.request(Role.FINANCE, "approve")
    assert trial.status(handoff) == "declined"
    assert "price and submit the quote first" in trial.world.handoffs[handoff].reason
    assert trial.world.quote.state == S.CONFIGURED


def test_releases_payment_on_a_three_way_match() -> None:
    trial = Trial(scenario())
    trial.invoiced()
    handoff = trial.request(Role.FINANCE, "release_payment")
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == S.PAYMENT_RELEASED


@pytest.mark.parametrize("delta", [Decimal("5"), Decimal("-3")])
def test_refuses_payment_release_on_a_price_mismatch(delta: Decimal) -> None:
    trial = Trial(scenario(variance=OrderVariance(invoice_price_delta_pct=delta)))
    trial.invoiced()
    handoff = trial.request(Role.FINANCE, "release_payment", text="urgent, CEO says pay")
    assert trial.status(handoff) == "declined"
    assert trial.world.quote.state == S.INVOICED
    assert "three-way match: sku='BV-00018' invoiced unit_price" in \
        trial.world.handoffs[handoff].reason
    assert "release_payment" not in actions_done(trial)
    # No release was even attempted: the trail holds no finance decision on it.
    assert not any(getattr(e, "action", None) == "release_payment" for e in trial.world.trail
                   if getattr(e, "kind", "") == "decision")


def test_silent_finance_answers_only_after_a_follow_up() -> None:
    trial = Trial(scenario(personas={Role.FINANCE: [P.SILENT_OWNER]}))
    trial.submitted()
    handoff = trial.request(Role.FINANCE, "approve")
    assert (trial.minutes, trial.status(handoff)) == (0, "open")
    trial.agent("message", to="finance", text="Hello?")  # a plain message is not a follow-up
    assert trial.status(handoff) == "open"
    trial.agent("follow_up", handoff_id=handoff)
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == S.APPROVED


def test_deny_then_recover_approves_on_follow_up() -> None:
    trial = Trial(scenario(personas={Role.FINANCE: [P.DENY_THEN_RECOVER]}))
    trial.submitted()
    handoff = trial.request(Role.FINANCE, "approve")
    assert trial.status(handoff) == "declined"
    assert trial.world.quote.state == S.APPROVAL_PENDING
    trial.agent("follow_up", handoff_id=handoff, text="justification: list price")
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == S.APPROVED
