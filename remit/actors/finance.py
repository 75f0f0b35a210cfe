"""The finance persona: approves within the commercial policy and releases payment.

Finance knows the commercial policy of the quote (:class:`remit.quotes.CommercialPolicy`)
and holds no site facts. It acts on hand-offs by rule:

- ``approve``: approves a submitted quote (state ``approval_pending``) when every line's
  discount is within the standard discount, or within the ceiling and the submission
  carries a justification, and every margin is at least the minimum or justified;
  otherwise it denies the quote with the reasons and declines the hand-off;
- ``release_payment``: releases payment only when the three-way match of purchase
  order, goods receipt and invoice holds; otherwise it declines with the mismatch and
  leaves the payment where it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from remit.actors.persona_base import PersonaBase
from remit.authority import Action, Role
from remit.quotes import Quote, QuoteState, TransitionContext, guard_failures
from remit.world import Handoff, World

__all__ = ["Finance", "approval_problems", "payment_problems"]


def approval_problems(quote: Quote) -> list[str]:
    """Why finance would not approve the quote's current version (empty: it approves).

    A justification counts only when it was submitted with the current content.
    """
    policy = quote.policy
    submission = quote.submission
    justified = (submission is not None and submission.version_hash == quote.current_hash
                 and bool(submission.justification.strip()))
    problems: list[str] = []
    if submission is None or submission.version_hash != quote.current_hash:
        problems.append(f"version {quote.current.number} of {quote.id} is not the submitted "
                        "content; submit the current version first")
    for line in quote.current.lines:
        discount = line.discount_pct
        if discount > policy.max_discount_pct:
            problems.append(f"line sku={line.sku!r} discount_pct={discount} exceeds the "
                            f"ceiling max_discount_pct={policy.max_discount_pct}; lower the "
                            "discount, no justification allows it")
        elif discount > policy.standard_discount_pct and not justified:
            problems.append(f"line sku={line.sku!r} discount_pct={discount} is above "
                            f"standard_discount_pct={policy.standard_discount_pct} and the "
                            "submission carries no justification; revise and submit with one")
        if line.margin_pct < policy.min_margin_pct and not justified:
            problems.append(f"line sku={line.sku!r} margin is below min_margin_pct="
                            f"{policy.min_margin_pct} and the submission carries no "
                            "justification; revise and submit with one or raise the price")
    return problems


def payment_problems(world: World, quote: Quote) -> list[str]:
    """The three-way-match failures that block releasing payment on ``quote`` now."""
    ctx = TransitionContext(actor_id=world.actor_id(Role.FINANCE), role=Role.FINANCE,
                            now_minute=world.minute)
    return guard_failures(quote, Action.RELEASE_PAYMENT, ctx)


class Finance(PersonaBase):
    """Finance: see the module docstring for its rules."""

    ROLE = Role.FINANCE
    ACTIONS = frozenset({Action.APPROVE, Action.RELEASE_PAYMENT})

    def answer(self, world: World, facts: Sequence[str]) -> str:
        """Finance holds no site facts."""
        return (f"Finance holds none of these facts ({', '.join(facts)}): ask the buyer for "
                "operating facts and consent, the technical owner for installation facts.")

    def review(self, world: World, handoff: Handoff, quote: Quote) -> None:
        """Approve or release by policy, or deny/decline with the reasons."""
        if handoff.action is Action.APPROVE:
            self._approve(world, handoff, quote)
        else:
            self._release(world, handoff, quote)

    def _approve(self, world: World, handoff: Handoff, quote: Quote) -> None:
        problem = self.not_in_state(handoff, quote, QuoteState.APPROVAL_PENDING.value,
                                    "price and submit the quote first")
        if problem is not None:
            self.decline(world, handoff, problem)
            return
        problems = approval_problems(quote)
        if problems:
            reason = " ".join(problems)
            self.perform(world, handoff, Action.DENY, reason=reason)
            self.decline(world, handoff, reason)
            return
        self.perform_or_decline(world, handoff, Action.APPROVE,
                                f"Quote {quote.id} version {quote.current.number} is approved "
                                "within policy.")

    def _release(self, world: World, handoff: Handoff, quote: Quote) -> None:
        problem = self.not_in_state(handoff, quote, QuoteState.INVOICED.value,
                                    "invoice the delivered goods first")
        if problem is not None:
            self.decline(world, handoff, problem)
            return
        problems = payment_problems(world, quote)
        if problems:
            self.decline(world, handoff, " ".join(problems))
            return
        self.perform_or_decline(world, handoff, Action.RELEASE_PAYMENT,
                                f"Payment for {quote.id} is released: purchase order, receipt "
                                "and invoice match.")
