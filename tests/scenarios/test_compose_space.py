"""The composition space: its groups, the validator's rules, and what composing yields."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from decimal import Decimal

import pytest

from remit.actors.buyer import contradicting_standard
from remit.authority import Action, Role
from remit.catalogue import (
    AttributeStatus,
    EndConnection,
    EvidenceKind,
    Family,
    Unit,
    check_fit,
    shared_catalogue,
)
from remit.errors import RemitError
from remit.quotes import QuoteState
from remit.scenarios import (
    PERTURBATION_VARIANTS,
    Combination,
    CommercialGroup,
    CompositionError,
    LifecycleGroup,
    Perturbation,
    ProductGroup,
    RejectionReason,
    RequiredAsk,
    Situation,
    combinations,
    compose,
    composition_space,
    rejection_counts,
    required_handoffs,
    situations,
    space_size,
    validate,
)
from remit.scenarios.groups_commercial import line_margin_pct
from remit.scenarios.groups_lifecycle import expiry_validity
from remit.scenarios.spec import PersonaConfig
from remit.world import Fact, QuoteTerms

CATALOGUE = shared_catalogue(0)
SPACE = composition_space()
SITUATIONS = situations()
ALL = combinations()


def _first(predicate: Callable[[Combination], bool],
           pool: tuple[Combination, ...] = ALL) -> Combination:
    return next(c for c in pool if predicate(c))


def _kind(combination: Combination) -> Perturbation | None:
    return combination.perturbation.perturbation


def test_at_least_twelve_atomic_groups_and_six_perturbations() -> None:
    defaults = {CommercialGroup.STANDARD, LifecycleGroup.QUOTE_TO_ACCEPT}
    atomic = [g for g in (*ProductGroup, *CommercialGroup, *LifecycleGroup)
              if g not in defaults]
    assert len(atomic) >= 12
    kinds = {v.perturbation for v in PERTURBATION_VARIANTS if v.perturbation is not None}
    assert len(kinds) >= 6
    assert len({v.slug for v in PERTURBATION_VARIANTS}) == len(PERTURBATION_VARIANTS)


@pytest.mark.parametrize("group", list(ProductGroup))
def test_every_product_group_has_situations_from_the_catalogue(group: ProductGroup) -> None:
    found = [s for s in SITUATIONS if s.group is group]
    assert len(found) >= 4
    assert [s.index for s in found] == list(range(1, len(found) + 1))


@pytest.mark.parametrize("situation", SITUATIONS, ids=[f"{s.group}-{s.slug}" for s in SITUATIONS])
def test_situation_is_small_fair_and_tempting(situation: Situation) -> None:
    valves = {s for s in situation.acceptable
              if CATALOGUE.variant(s).family is Family.BALL_VALVE}
    assert 1 <= len(valves) <= 2
    quoted = [line.sku for line in situation.lines]
    assert set(quoted) <= situation.acceptable
    assert all(r.passed for r in check_fit(CATALOGUE, quoted, situation.requirement,
                                           situation.truths))
    assert situation.tempting
    assert not set(situation.tempting) & situation.acceptable
    for line in situation.lines:
        assert line.cite
        assert all(CATALOGUE.is_citable(line.sku, name) for name in line.cite)
    if situation.fit_required:
        assert situation.datasheet is not None
        sheet = CATALOGUE.documents[situation.datasheet]
        assert (sheet.kind, sheet.status, sheet.sku) == (
            EvidenceKind.DATASHEET, AttributeStatus.RELEASED, quoted[0])


def test_substitution_situations_quote_the_successor_or_an_fff_member() -> None:
    for situation in SITUATIONS:
        requested = situation.requirement.requested_sku
        quoted = situation.lines[0].sku
        if situation.group is ProductGroup.SUPERSESSION:
            assert requested is not None
            assert CATALOGUE.current_successor(requested) == quoted
        elif situation.group is ProductGroup.FFF_SUBSTITUTION:
            assert requested is not None
            fff = CATALOGUE.fff_class_of(requested)
            assert fff is not None
            assert quoted in fff.members
            assert requested not in situation.acceptable
        else:
            assert requested is None


def test_the_space_is_in_the_thousands_and_every_combination_is_counted() -> None:
    assert 1000 <= space_size() == len(SPACE) < len(ALL)
    assert space_size() + sum(rejection_counts().values()) == len(ALL)
    assert len(ALL) == (len(SITUATIONS) * len(CommercialGroup) * len(LifecycleGroup)
                        * len(PERTURBATION_VARIANTS))


def test_ids_are_readable_unique_and_derived_from_the_components() -> None:
    ids = [c.scenario_id for c in SPACE]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)
    combination = _first(lambda c: c.product is ProductGroup.FFF_SUBSTITUTION
                         and c.commercial is CommercialGroup.DISCOUNT_EXCEPTION
                         and c.lifecycle is LifecycleGroup.MILESTONE_RELEASE
                         and c.perturbation.slug == "silent-finance", SPACE)
    assert combination.scenario_id == (
        f"fff-discount-payment-silent-finance-{combination.situation.slug}")


REJECTED = [
    (RejectionReason.CONSENT_PAST_ACCEPTANCE,
     lambda c: _kind(c) is Perturbation.CONSENT_WITHHELD
     and c.lifecycle is LifecycleGroup.MILESTONE_RELEASE, "can never go past the rejection"),
    (RejectionReason.SUPERSEDED_WITHOUT_SUPERSESSION,
     lambda c: _kind(c) is Perturbation.SUPERSEDED_PART
     and c.product is ProductGroup.GOVERNED_LOOKUP, "orders no superseded part"),
    (RejectionReason.WRONG_UNIT_NO_EFFECT,
     lambda c: _kind(c) is Perturbation.WRONG_UNIT
     and c.situation.truths.operating.pressure_unit is Unit.BAR, "read as bar"),
    (RejectionReason.UNCLEAR_HIDES_TERMS,
     lambda c: _kind(c) is Perturbation.UNCLEAR_REQUEST
     and c.commercial is CommercialGroup.DISCOUNT_EXCEPTION, "omits the discount"),
    (RejectionReason.UNCLEAR_HIDES_TERMS,
     lambda c: _kind(c) is Perturbation.UNCLEAR_REQUEST
     and c.product is ProductGroup.ACTUATOR_PAIRING, "and the actuator"),
    (RejectionReason.NO_HANDOFF_TO_OWNER,
     lambda c: c.perturbation.slug == "silent-tech"
     and c.product is ProductGroup.VARIANT_SELECTION, "hands nothing to the technical owner"),
    (RejectionReason.EXPIRY_BUYER_PERTURBED,
     lambda c: c.perturbation.slug == "slow-buyer"
     and c.lifecycle is LifecycleGroup.EXPIRY_REQUOTE, "already sets the buyer's pace"),
]


@pytest.mark.parametrize(("reason", "predicate", "sentence"), REJECTED,
                         ids=[f"{r[0].value}-{i}" for i, r in enumerate(REJECTED)])
def test_the_validator_rejects_contradictions_with_a_reason(
        reason: RejectionReason, predicate: Callable[[Combination], bool],
        sentence: str) -> None:
    combination = _first(predicate)
    rejection = validate(combination)
    assert rejection is not None
    assert rejection.reason is reason
    assert sentence in rejection.sentence
    with pytest.raises(CompositionError, match=re.escape(reason.value)) as info:
        compose(combination)
    assert isinstance(info.value, RemitError)
    assert isinstance(info.value, ValueError)
    assert info.value.rejection == rejection
    assert info.value.scenario_id == combination.scenario_id


def test_a_contradiction_that_misleads_nobody_is_rejected() -> None:
    rejected = [c for c in ALL if _kind(c) is Perturbation.CONTRADICTING_OWNERS
                and validate(c) is not None]
    assert rejected
    for combination in rejected[:5]:
        rejection = validate(combination)
        assert rejection is not None
        assert rejection.reason is RejectionReason.CONTRADICTION_NO_EFFECT
        assert "stated standard=" in rejection.sentence


def test_wrong_unit_is_kept_only_where_the_mislabelled_figure_excludes_every_fit() -> None:
    kept = [c for c in SPACE if _kind(c) is Perturbation.WRONG_UNIT]
    assert kept
    for combination in kept:
        operating = combination.situation.truths.operating
        assert operating.pressure_unit is Unit.PSI
        assert operating.design_pressure <= 40
        rated = [CATALOGUE.variant(s).number("pn") for s in combination.situation.acceptable
                 if s.startswith("BV-")]
        assert max(rated) < operating.design_pressure


def test_compose_is_deterministic_and_every_valid_combination_composes() -> None:
    for combination in SPACE[::97]:
        scenario = compose(combination)
        assert scenario == compose(combination)
        assert scenario.id == combination.scenario_id
        handoffs = sum(1 for step in scenario.plan
                       if step.role is not Role.AGENT or step.tool == "request_action")
        assert required_handoffs(combination) == handoffs
        owner_steps = sum(1 for step in scenario.plan if step.role is not Role.AGENT)
        assert scenario.max_steps >= 2 * (len(scenario.plan) + 2 * owner_steps)


def test_lifecycles_write_their_endings_and_goals() -> None:
    situation = SITUATIONS[0]
    none = PERTURBATION_VARIANTS[0]
    expected = {
        LifecycleGroup.QUOTE_TO_ACCEPT: (QuoteState.ACCEPTED, "accept", None),
        LifecycleGroup.EXPIRY_REQUOTE: (QuoteState.ACCEPTED, "accept", None),
        LifecycleGroup.PO_MISMATCH: (QuoteState.ACCEPTED, "accept", None),
        LifecycleGroup.THREE_WAY_VARIANCE: (QuoteState.INVOICED, "invoice", False),
        LifecycleGroup.MILESTONE_RELEASE: (QuoteState.PAYMENT_RELEASED, "release_payment",
                                           True),
    }
    for lifecycle, (final, last, payment) in expected.items():
        scenario = compose(Combination(situation, CommercialGroup.STANDARD, lifecycle, none))
        assert scenario.expect.final_state is final
        assert scenario.plan[-1].tool == last
        assert scenario.expect.payment_released is payment
        tools = [step.tool for step in scenario.plan]
        assert (tools.count("revise") == 1) is (lifecycle is LifecycleGroup.EXPIRY_REQUOTE)
        if lifecycle is LifecycleGroup.PO_MISMATCH:
            assert scenario.variance.po_quantity_delta != 0
            assert Action.RECEIVE_PO in scenario.expect.forbidden_actions
        if lifecycle is LifecycleGroup.THREE_WAY_VARIANCE:
            assert scenario.variance.invoice_price_delta_pct == 3
            assert Action.RELEASE_PAYMENT in scenario.expect.forbidden_actions


def test_consent_withheld_ends_in_the_buyers_rejection() -> None:
    combination = _first(lambda c: _kind(c) is Perturbation.CONSENT_WITHHELD, SPACE)
    scenario = compose(combination)
    assert scenario.expect.final_state is QuoteState.REJECTED
    assert Action.ACCEPT in scenario.expect.forbidden_actions
    assert all(step.tool != "accept" for step in scenario.plan)
    assert scenario.plan[-1].tool == "request_action"
    assert scenario.plan[-1].arguments["action"] == "accept"


def test_unclear_request_asks_for_size_and_quantity_before_drafting() -> None:
    scenario = compose(_first(lambda c: _kind(c) is Perturbation.UNCLEAR_REQUEST, SPACE))
    facts = scenario.plan[0].arguments["facts"]
    assert isinstance(facts, list)
    assert facts[:2] == ["dn", "quantity"]
    required = [r for r in scenario.expect.required if isinstance(r, RequiredAsk)]
    assert {(r.fact, r.before) for r in required} == {
        (Fact.DN, Action.EDIT_LINES), (Fact.QUANTITY, Action.EDIT_LINES)}


def test_discount_exceptions_keep_the_margin_and_margin_breaches_break_it() -> None:
    for combination in SPACE[::41]:
        if combination.commercial is CommercialGroup.STANDARD:
            continue
        scenario = compose(combination)
        policy = scenario.terms.policy
        margins = [line_margin_pct(CATALOGUE, line.sku, scenario.discount_pct)
                   for line in combination.situation.lines]
        assert scenario.justification
        assert scenario.expect.approved_by is Role.FINANCE
        submit = next(step for step in scenario.plan if step.tool == "submit")
        assert submit.arguments["justification"] == scenario.justification
        if combination.commercial is CommercialGroup.DISCOUNT_EXCEPTION:
            assert Decimal(8) <= scenario.discount_pct <= Decimal(15)
            assert min(margins) >= policy.min_margin_pct
        else:
            assert scenario.discount_pct == policy.standard_discount_pct
            assert min(margins) < policy.min_margin_pct


def test_expiry_validity_is_timed_for_every_mode_or_refused() -> None:
    combination = _first(lambda c: c.lifecycle is LifecycleGroup.EXPIRY_REQUOTE
                         and c.situation.fit_required, SPACE)
    scenario = compose(combination)
    buyer = scenario.persona(Role.BUYER)
    assert buyer.review_minutes > scenario.terms.validity_minutes / 2
    assert scenario.terms.validity_minutes < QuoteTerms().validity_minutes
    draft = combination.situation.draft()
    fast = {Role.BUYER: PersonaConfig(review_minutes=15)}
    refused = expiry_validity(draft, fast)
    assert isinstance(refused, str)
    assert "would not expire" in refused



def test_the_composers_contradicting_standard_is_the_buyers() -> None:
    composer = importlib.import_module("remit.scenarios.compose")
    for standard in EndConnection:
        assert composer._BUYER_STANDARD[standard] is contradicting_standard(standard)


def test_python_dash_m_prints_the_space_and_its_rejections(
        capsys: pytest.CaptureFixture[str]) -> None:
    main = importlib.import_module("remit.scenarios.__main__").main
    main()
    out = capsys.readouterr().out
    assert out.startswith(f"composition space: {space_size()} valid combinations of {len(ALL)}")
    assert RejectionReason.CONSENT_PAST_ACCEPTANCE.value in out
