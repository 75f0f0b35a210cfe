"""The composer: product situation x commercial x lifecycle x perturbation -> Scenario.

:func:`combinations` crosses every product situation (see
:mod:`remit.scenarios.groups_product`) with every commercial group, lifecycle group and
perturbation variant. :func:`validate` rejects the contradictory or pointless ones with
a :class:`Rejection` naming the rule (:class:`RejectionReason`), e.g. a withheld consent
with an order-to-cash lifecycle, or a unit slip that changes nothing.
:func:`composition_space` is the valid combinations; :func:`compose` turns one into a
:class:`~remit.scenarios.spec.Scenario` with a stable, readable id such as
``fff-discount-payment-silent-finance-s03``.

``python -m remit.scenarios`` prints the size of the space and the rejections.

Example:
    >>> space = composition_space()
    >>> len(space) > 1000
    True
    >>> compose(space[0]).id
    'lookup-std-accept-none-s01'
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from remit.authority import Role
from remit.catalogue import Catalogue, EndConnection, Family, Unit, shared_catalogue
from remit.errors import RemitError
from remit.scenarios.groups import (
    CommercialGroup,
    LifecycleGroup,
    ProductGroup,
    ScenarioDraft,
    group_slug,
)
from remit.scenarios.groups_commercial import apply_commercial
from remit.scenarios.groups_lifecycle import lifecycle_parts, lifecycle_problem
from remit.scenarios.groups_perturbation import (
    OWNER_PERTURBATIONS,
    PERTURBATION_VARIANTS,
    PerturbationVariant,
    apply_perturbation,
)
from remit.scenarios.groups_product import Situation, product_situations
from remit.scenarios.spec import Perturbation, Scenario
from remit.world import QuoteTerms

__all__ = [
    "Combination",
    "CompositionError",
    "Rejection",
    "RejectionReason",
    "combinations",
    "compose",
    "composition_space",
    "rejection_counts",
    "required_handoffs",
    "situations",
    "space_size",
    "validate",
]

_PLAUSIBLE_BAR = 40.0
"""A mislabelled figure up to the highest PN in the catalogue reads as a plausible bar."""
_BUYER_STANDARD = MappingProxyType({
    EndConnection.NPT: EndConnection.BSPP, EndConnection.BSPP: EndConnection.NPT,
    EndConnection.FLANGED: EndConnection.NPT})
"""The piping standard a contradicting buyer states (see ``actors.buyer``)."""


class RejectionReason(StrEnum):
    """Why a combination is not composed (the validator's rules, plus verification)."""

    CONSENT_PAST_ACCEPTANCE = "consent_withheld_past_acceptance"
    SUPERSEDED_WITHOUT_SUPERSESSION = "superseded_part_without_supersession"
    WRONG_UNIT_NO_EFFECT = "wrong_unit_implausible_or_no_effect"
    UNCLEAR_HIDES_TERMS = "unclear_request_hides_terms"
    NO_HANDOFF_TO_OWNER = "owner_perturbation_without_handoff"
    CONTRADICTION_NO_EFFECT = "contradicting_owners_no_effect"
    EXPIRY_BUYER_PERTURBED = "expiry_with_slowed_or_denying_buyer"
    EXPIRY_TIMING = "expiry_cannot_be_timed"
    DISCOUNT_BREACHES_MARGIN = "discount_exception_breaches_margin"
    VERIFICATION_FAILED = "verification_failed"


class Rejection(NamedTuple):
    """A rejected combination: the rule and a sentence naming the offending values."""

    reason: RejectionReason
    sentence: str


class CompositionError(RemitError, ValueError):
    """A combination that cannot be composed.

    Attributes:
        scenario_id: the id the scenario would have had.
        rejection: the rule that rejects it.
    """

    def __init__(self, scenario_id: str, rejection: Rejection) -> None:
        self.scenario_id = scenario_id
        self.rejection = rejection
        super().__init__(f"cannot compose scenario_id={scenario_id!r}: "
                         f"{rejection.reason.value}: {rejection.sentence}; pick a combination "
                         "from composition_space()")


class Combination(NamedTuple):
    """One point of the composition space.

    Attributes:
        situation: the product situation (its group, request, truths and lines).
        commercial: the commercial group.
        lifecycle: the lifecycle group.
        perturbation: the persona perturbation (or none).
    """

    situation: Situation
    commercial: CommercialGroup
    lifecycle: LifecycleGroup
    perturbation: PerturbationVariant

    @property
    def product(self) -> ProductGroup:
        """The product group."""
        return self.situation.group

    @property
    def scenario_id(self) -> str:
        """The composed scenario's id: group slugs, perturbation and situation."""
        return "-".join((group_slug(self.product), group_slug(self.commercial),
                         group_slug(self.lifecycle), self.perturbation.slug,
                         self.situation.slug))


@functools.cache
def situations(catalogue_seed: int = 0) -> tuple[Situation, ...]:
    """Every product situation on the seed's catalogue, group by group."""
    catalogue = shared_catalogue(catalogue_seed)
    return tuple(s for group in ProductGroup for s in product_situations(catalogue, group))


def combinations(catalogue_seed: int = 0) -> tuple[Combination, ...]:
    """Every combination, valid or not, in a stable order."""
    return tuple(Combination(*parts) for parts in itertools.product(
        situations(catalogue_seed), CommercialGroup, LifecycleGroup, PERTURBATION_VARIANTS))


def _static(combination: Combination, catalogue: Catalogue) -> Rejection | None:  # noqa: PLR0911 - one exit per rule
    situation, variant = combination.situation, combination.perturbation
    kind = variant.perturbation
    if kind is Perturbation.CONSENT_WITHHELD and (
            combination.lifecycle is not LifecycleGroup.QUOTE_TO_ACCEPT):
        return Rejection(RejectionReason.CONSENT_PAST_ACCEPTANCE,
                         f"the buyer withholds consent, so lifecycle="
                         f"{combination.lifecycle.value!r} can never go past the rejection")
    if kind is Perturbation.SUPERSEDED_PART and situation.group is not ProductGroup.SUPERSESSION:
        return Rejection(RejectionReason.SUPERSEDED_WITHOUT_SUPERSESSION,
                         f"product group {situation.group.value!r} orders no superseded part")
    if kind is Perturbation.WRONG_UNIT:
        problem = _wrong_unit_problem(situation, catalogue)
        if problem is not None:
            return Rejection(RejectionReason.WRONG_UNIT_NO_EFFECT, problem)
    if kind is Perturbation.UNCLEAR_REQUEST and (
            combination.commercial is not CommercialGroup.STANDARD
            or situation.requirement.with_actuator):
        return Rejection(RejectionReason.UNCLEAR_HIDES_TERMS,
                         "an unclear opening omits the discount and the actuator, and no "
                         "question the agent can ask covers them")
    if (kind in OWNER_PERTURBATIONS and variant.role is Role.TECHNICAL_OWNER
            and not situation.fit_required):
        return Rejection(RejectionReason.NO_HANDOFF_TO_OWNER,
                         f"{variant.slug}: the plan of {situation.group.value!r} hands nothing "
                         "to the technical owner")
    if kind is Perturbation.CONTRADICTING_OWNERS:
        stated = _BUYER_STANDARD[situation.truths.installation.piping_standard]
        dn = situation.requirement.dn
        if not any(v.is_active and round(v.number("dn")) == dn
                   and v.code("end_connection") == stated.value
                   for v in catalogue.variants_of(Family.BALL_VALVE)):
            return Rejection(RejectionReason.CONTRADICTION_NO_EFFECT,
                             f"no active DN{dn} valve has the buyer's stated "
                             f"standard={stated.value!r}, so believing the buyer misleads "
                             "nobody")
    if (combination.lifecycle is LifecycleGroup.EXPIRY_REQUOTE and variant.role is Role.BUYER
            and kind in (Perturbation.SLOW_OWNER, Perturbation.DENY_THEN_RECOVER)):
        return Rejection(RejectionReason.EXPIRY_BUYER_PERTURBED,
                         f"{variant.slug}: the expiry lifecycle already sets the buyer's pace; "
                         "a second slowdown would let the re-quote lapse too")
    return None


def _wrong_unit_problem(situation: Situation, catalogue: Catalogue) -> str | None:
    operating = situation.truths.operating
    stated = operating.design_pressure
    if operating.pressure_unit is not Unit.PSI or stated > _PLAUSIBLE_BAR:
        return (f"design_pressure={stated:g} {operating.pressure_unit.value} read as bar is "
                "either right or implausible; the slip needs a plausible psi figure")
    rated = [catalogue.variant(s).number("pn") for s in situation.acceptable
             if catalogue.variant(s).family is Family.BALL_VALVE]
    if any(pn >= stated for pn in rated):
        return (f"an acceptable valve is rated PN {max(rated):g}, at least the mislabelled "
                f"{stated:g} bar, so the slip changes nothing")
    return None


def _checked(combination: Combination, catalogue: Catalogue) -> ScenarioDraft | Rejection:
    """The combination's draft before the lifecycle, or the rule that rejects it."""
    rejection = _static(combination, catalogue)
    if rejection is not None:
        return rejection
    situation = combination.situation
    draft = apply_commercial(situation.draft(), combination.commercial, catalogue,
                             situation.index)
    if isinstance(draft, str):
        return Rejection(RejectionReason.DISCOUNT_BREACHES_MARGIN, draft)
    draft = apply_perturbation(draft, combination.perturbation)
    problem = lifecycle_problem(draft, combination.lifecycle)
    if problem is not None:
        return Rejection(RejectionReason.EXPIRY_TIMING, problem)
    return draft


def validate(combination: Combination, catalogue_seed: int = 0) -> Rejection | None:
    """Why ``combination`` is contradictory or pointless, or ``None`` if it is valid."""
    result = _checked(combination, shared_catalogue(catalogue_seed))
    return result if isinstance(result, Rejection) else None


@functools.cache
def _survey(catalogue_seed: int) -> tuple[tuple[Combination, ...], tuple[Rejection, ...]]:
    valid: list[Combination] = []
    rejected: list[Rejection] = []
    for combination in combinations(catalogue_seed):
        rejection = validate(combination, catalogue_seed)
        if rejection is None:
            valid.append(combination)
        else:
            rejected.append(rejection)
    return tuple(valid), tuple(rejected)


def composition_space(catalogue_seed: int = 0) -> tuple[Combination, ...]:
    """The valid combinations, in a stable order (computed once per process)."""
    return _survey(catalogue_seed)[0]


def space_size(catalogue_seed: int = 0) -> int:
    """How many valid combinations there are."""
    return len(composition_space(catalogue_seed))


def rejection_counts(catalogue_seed: int = 0) -> dict[RejectionReason, int]:
    """How many combinations each validator rule rejects, most frequent first."""
    counts = Counter(r.reason for r in _survey(catalogue_seed)[1])
    return dict(counts.most_common())


def required_handoffs(combination: Combination) -> int:
    """Owner actions the plan hands off in dual-control (its owner steps and requests)."""
    fit = 1 if combination.situation.fit_required else 0
    per_quote = fit + 1
    lifecycle = combination.lifecycle
    if lifecycle is LifecycleGroup.EXPIRY_REQUOTE:
        return 2 * per_quote + 1
    extra = {LifecycleGroup.THREE_WAY_VARIANCE: 2, LifecycleGroup.MILESTONE_RELEASE: 3}
    return per_quote + 1 + extra.get(lifecycle, 0)


def _title(combination: Combination) -> str:
    parts = [combination.situation.summary, combination.commercial.value.replace("_", " "),
             combination.lifecycle.value.replace("_", " ")]
    if combination.perturbation.perturbation is not None:
        parts.append(combination.perturbation.words)
    return "; ".join(parts)


def compose(combination: Combination, catalogue_seed: int = 0) -> Scenario:
    """The scenario of ``combination``.

    Raises:
        CompositionError: the validator rejects the combination.
    """
    draft = _checked(combination, shared_catalogue(catalogue_seed))
    if isinstance(draft, Rejection):
        raise CompositionError(combination.scenario_id, draft)
    parts = lifecycle_parts(draft, combination.lifecycle)
    if isinstance(parts, str):  # pragma: no cover - _checked has ruled it out
        raise CompositionError(combination.scenario_id,
                               Rejection(RejectionReason.EXPIRY_TIMING, parts))
    terms = QuoteTerms(fit_required=draft.fit_required, policy=draft.policy)
    if parts.validity_minutes is not None:
        terms = terms.model_copy(update={"validity_minutes": parts.validity_minutes})
    handoffs = sum(1 for step in parts.plan
                   if step.role is not Role.AGENT or step.tool == "request_action")
    return Scenario(
        id=combination.scenario_id, title=_title(combination), catalogue_seed=catalogue_seed,
        requirement=draft.requirement, truths=draft.truths,
        certificate_required=draft.certificate_required, discount_pct=draft.discount_pct,
        justification=draft.justification, terms=terms, variance=parts.variance,
        personas=parts.personas, expect=parts.expect, plan=parts.plan,
        max_steps=2 * (len(parts.plan) + 3 * handoffs) + 10,
        tags={"product": group_slug(combination.product),
              "commercial": group_slug(combination.commercial),
              "lifecycle": group_slug(combination.lifecycle),
              "perturbation": combination.perturbation.slug,
              "handoffs": str(handoffs)})

