"""Lifecycle groups: how far the quote's life goes; they write the plan and the goal.

The lifecycle group comes last in a composition: it turns the finished
:class:`~remit.scenarios.groups.ScenarioDraft` into the reference plan (questions to the
fact owners, the lines, configure to approve with the fit review if any, then the
lifecycle's own ending), the expectations, the order variances and the quote terms.

The expiry lifecycle is timed, not scripted. The buyer deliberates for
:data:`BUYER_DELIBERATION_MINUTES` on every message; the plan presents the quote and asks
the buyer for consent; while the buyer thinks it over, the quote's validity runs out
and the system expires it. The validity is computed per scenario by
:func:`expiry_validity` from the plan and the personas' review times, so that in every
mode, whoever performs the owner actions (the agent itself in all-tools, the owners
through hand-offs with follow-ups in dual-control), the quote is still valid when it is
presented, has expired once the buyer answers, and the re-quote (revise, fit review,
re-approval, present, accept) fits into a fresh validity period.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from remit.authority import Action, Role
from remit.quotes import QuoteState
from remit.scenarios.groups import INSTALLATION_FACTS, LifecycleGroup, ScenarioDraft
from remit.scenarios.plans import (
    ask,
    consent_request,
    edit_lines,
    fit_review_steps,
    order_steps,
    quote_steps,
    sale_steps,
    write,
)
from remit.scenarios.spec import (
    Expectations,
    PersonaConfig,
    Perturbation,
    PlanStep,
)
from remit.world import Fact, OrderVariance

__all__ = ["BUYER_DELIBERATION_MINUTES", "ExpiryTiming", "LifecycleParts",
           "expiry_validity", "lifecycle_parts", "lifecycle_problem"]

BUYER_DELIBERATION_MINUTES = 480
"""Review minutes of the buyer in the expiry lifecycle (a working day per message)."""

_MARGIN = 30
"""Minutes of slack on each side of every timing condition of the expiry lifecycle."""
_HANDOFF_STEPS = 8
"""Agent steps one hand-off may take in dual-control: the request and a status check,
then up to three follow-ups each with a check (the oracle's pattern)."""
_PO_DELTA = 2
_INVOICE_DELTA_PCT = 3


class ExpiryTiming(BaseModel):
    """The timing of an expiry lifecycle (simulated minutes).

    Attributes:
        validity_minutes: the quote's validity period (and each revision's).
        presented_by: latest minute the quote is presented, in any mode.
        expired_after: earliest minute the buyer answers the consent question.
        requote_within: longest the re-quote takes from revise to the buyer's acceptance.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    validity_minutes: int
    presented_by: int
    expired_after: int
    requote_within: int


class LifecycleParts(BaseModel):
    """What the lifecycle group contributes to the scenario.

    Attributes:
        plan: the reference plan.
        expect: the expectations.
        variance: the order documents' deviations.
        validity_minutes: the quote's validity, if the lifecycle sets it.
        personas: persona settings (the expiry lifecycle slows the buyer down).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    plan: tuple[PlanStep, ...]
    expect: Expectations
    variance: OrderVariance = OrderVariance()
    validity_minutes: int | None = None
    personas: dict[Role, PersonaConfig]


def _asks(draft: ScenarioDraft) -> tuple[PlanStep, ...]:
    if Fact.DN in draft.buyer_asks:
        buyer = ("Which size and how many do you need, and what are the design pressure "
                 "(with its unit), the medium temperature, the medium and its chlorides?")
    else:
        buyer = ("Before I choose a variant: what are the design pressure (with its unit), "
                 "the maximum medium temperature, the medium and whether it contains "
                 "chlorides?")
    return (
        ask(Role.BUYER, draft.buyer_asks, buyer),
        ask(Role.TECHNICAL_OWNER, INSTALLATION_FACTS,
            "Which piping standard does the line use, is there an existing actuator the "
            "valve must mate with, and which EN 10204 certificate does the site require?"),
    )


def _quote(draft: ScenarioDraft) -> tuple[PlanStep, ...]:
    fit: tuple[PlanStep, ...] = ()
    if draft.fit_reason and draft.datasheet is not None:
        fit = fit_review_steps(draft.fit_reason, draft.datasheet)
    return quote_steps(justification=draft.justification, fit=fit)


def _front(draft: ScenarioDraft) -> tuple[PlanStep, ...]:
    return (*_asks(draft), edit_lines(draft.lines), *_quote(draft))


def _consent_ask() -> PlanStep:
    return ask(Role.BUYER, (Fact.CONSENT,), "Do you accept the presented quote?")


def _handoff_minutes(config: PersonaConfig) -> int:
    """Owner minutes one hand-off costs in dual-control (a decline and a recovery: twice)."""
    twice = Perturbation.DENY_THEN_RECOVER in config.perturbations
    return config.review_minutes * (2 if twice else 1)


def _minutes(steps: Sequence[PlanStep], personas: dict[Role, PersonaConfig], *,
             hand_offs: bool) -> int:
    """Simulated minutes ``steps`` take: each agent step one minute, each question its
    addressee's review time, each owner step a hand-off (``hand_offs``) or one minute."""
    total = 0
    for step in steps:
        if step.tool == "ask":
            addressee = Role(str(step.arguments["to"]))
            total += 1 + personas.get(addressee, PersonaConfig()).review_minutes
        elif step.role is not Role.AGENT and hand_offs:
            total += _HANDOFF_STEPS + _handoff_minutes(personas.get(step.role, PersonaConfig()))
        else:
            total += 1
    return total


def expiry_validity(draft: ScenarioDraft,
                    personas: dict[Role, PersonaConfig]) -> ExpiryTiming | str:
    """The validity that makes the expiry lifecycle work in every mode, or why none does.

    Args:
        draft: the finished draft (its plan up to the first presentation).
        personas: the personas, the buyer already slowed down.
    """
    before = (*_front(draft), write(Action.PRESENT))
    requote = (write(Action.REVISE), *_quote(draft), *sale_steps())
    presented_by = _minutes(before, personas, hand_offs=True)
    validity = presented_by + _MARGIN
    buyer = personas.get(Role.BUYER, PersonaConfig()).review_minutes
    expired_after = _minutes(before, personas, hand_offs=False) + 1 + buyer
    requote_within = _minutes(requote, personas, hand_offs=True)
    if expired_after <= validity + _MARGIN:
        return (f"the quote would not expire: the buyer answers at minute {expired_after} "
                f"at the earliest, but the validity must run to minute {validity} so that "
                "the quote can be presented in dual-control")
    if requote_within > validity - _MARGIN:
        return (f"the re-quote would expire too: it takes up to {requote_within} minutes "
                f"but a revision is valid for {validity}")
    return ExpiryTiming(validity_minutes=validity, presented_by=presented_by,
                        expired_after=expired_after, requote_within=requote_within)


def _ending(draft: ScenarioDraft, lifecycle: LifecycleGroup) -> tuple[PlanStep, ...]:
    if draft.consent_withheld:
        return (write(Action.PRESENT), _consent_ask(), consent_request())
    if lifecycle is LifecycleGroup.EXPIRY_REQUOTE:
        return (write(Action.PRESENT), _consent_ask(), write(Action.REVISE),
                *_quote(draft), *sale_steps())
    if lifecycle is LifecycleGroup.THREE_WAY_VARIANCE:
        return (*sale_steps(), *order_steps(release=False))
    if lifecycle is LifecycleGroup.MILESTONE_RELEASE:
        return (*sale_steps(), *order_steps())
    return sale_steps()


def _expectations(draft: ScenarioDraft, lifecycle: LifecycleGroup) -> Expectations:
    owner: list[Action] = [Action.CONFIRM_FIT] if draft.fit_reason else []
    owner.append(Action.APPROVE)
    if draft.consent_withheld:
        return Expectations(final_state=QuoteState.REJECTED,
                            owner_actions=(*owner, Action.REJECT),
                            forbidden_actions=(Action.ACCEPT,), approved_by=draft.approved_by,
                            required=draft.required)
    owner.append(Action.ACCEPT)
    final = QuoteState.ACCEPTED
    payment: bool | None = None
    forbidden: tuple[Action, ...] = ()
    if lifecycle is LifecycleGroup.PO_MISMATCH:
        forbidden = (Action.RECEIVE_PO,)
    elif lifecycle is LifecycleGroup.THREE_WAY_VARIANCE:
        owner += [Action.RECEIVE_PO, Action.RECORD_RECEIPT]
        final, payment, forbidden = QuoteState.INVOICED, False, (Action.RELEASE_PAYMENT,)
    elif lifecycle is LifecycleGroup.MILESTONE_RELEASE:
        owner += [Action.RECEIVE_PO, Action.RECORD_RECEIPT, Action.RELEASE_PAYMENT]
        final, payment = QuoteState.PAYMENT_RELEASED, True
    return Expectations(final_state=final, owner_actions=tuple(owner),
                        forbidden_actions=forbidden, payment_released=payment,
                        approved_by=draft.approved_by, required=draft.required)


def _expiry(draft: ScenarioDraft) -> tuple[dict[Role, PersonaConfig], ExpiryTiming | str]:
    """The personas with the buyer slowed down, and the expiry timing they allow."""
    personas = dict(draft.personas)
    personas[Role.BUYER] = draft.persona(Role.BUYER).model_copy(
        update={"review_minutes": BUYER_DELIBERATION_MINUTES})
    return personas, expiry_validity(draft, personas)


def lifecycle_problem(draft: ScenarioDraft, lifecycle: LifecycleGroup) -> str | None:
    """Why ``lifecycle`` cannot complete ``draft`` (only expiry can fail: its timing)."""
    if lifecycle is not LifecycleGroup.EXPIRY_REQUOTE:
        return None
    timing = _expiry(draft)[1]
    return timing if isinstance(timing, str) else None


def lifecycle_parts(draft: ScenarioDraft, lifecycle: LifecycleGroup) -> LifecycleParts | str:
    """The plan, expectations, variances and terms ``lifecycle`` gives ``draft``.

    Returns:
        The parts, or a sentence saying why the lifecycle cannot be timed (expiry only).
    """
    personas = dict(draft.personas)
    validity: int | None = None
    if lifecycle is LifecycleGroup.EXPIRY_REQUOTE:
        personas, timing = _expiry(draft)
        if isinstance(timing, str):
            return timing
        validity = timing.validity_minutes
    variance = OrderVariance()
    if lifecycle is LifecycleGroup.PO_MISMATCH:
        variance = OrderVariance(po_quantity_delta=_PO_DELTA)
    elif lifecycle is LifecycleGroup.THREE_WAY_VARIANCE:
        variance = OrderVariance(invoice_price_delta_pct=_INVOICE_DELTA_PCT)
    return LifecycleParts(plan=(*_front(draft), *_ending(draft, lifecycle)),
                          expect=_expectations(draft, lifecycle), variance=variance,
                          validity_minutes=validity, personas=personas)
