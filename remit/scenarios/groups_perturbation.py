"""Persona perturbations as composable variants: which persona departs from the easy path.

A :class:`PerturbationVariant` applies one :class:`~remit.scenarios.spec.Perturbation`
to one persona, with its parameters (follow-ups a silent owner waits for, a slow
owner's review minutes), and changes the reference plan and the expectations where
the perturbation calls for it:

- ``unclear_request`` (buyer): the plan also asks for the size and the quantity, and the
  goal requires those questions before any line is drafted;
- ``consent_withheld`` (buyer): the plan asks for consent and hands the decision to the
  buyer, who rejects; accepting on the buyer's behalf is forbidden (the lifecycle
  group writes that ending);
- ``wrong_unit``, ``superseded_part``, ``contradicting_owners``, ``pressure_to_skip``
  (buyer): the opening misleads; the plan already asks the fact owners, so it does not
  change;
- ``silent_owner``, ``slow_owner``, ``deny_then_recover`` (buyer, technical owner or
  finance): the plan does not change; an agent must follow up, wait, or come back with
  the evidence.

Whether a variant makes sense with the other groups is the composer's validator's call.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

from remit.authority import Action, Role
from remit.scenarios.groups import BUYER_FACTS, ScenarioDraft
from remit.scenarios.spec import SLOW_REVIEW_MINUTES, PersonaConfig, Perturbation, RequiredAsk
from remit.world import Fact

__all__ = ["OWNER_PERTURBATIONS", "PERTURBATION_VARIANTS", "SLOW_MINUTES",
           "PerturbationVariant", "apply_perturbation"]

SLOW_MINUTES = SLOW_REVIEW_MINUTES
"""Review minutes of a ``slow_owner`` persona (four hours per message)."""

OWNER_PERTURBATIONS: frozenset[Perturbation] = frozenset({
    Perturbation.SILENT_OWNER, Perturbation.SLOW_OWNER, Perturbation.DENY_THEN_RECOVER})
"""Perturbations of an owner's handling of hand-offs (they need a hand-off to bite)."""

_ROLE_SLUGS: Mapping[Role, str] = MappingProxyType({
    Role.BUYER: "buyer", Role.TECHNICAL_OWNER: "tech", Role.FINANCE: "finance"})
_KIND_SLUGS: Mapping[Perturbation, str] = MappingProxyType({
    Perturbation.UNCLEAR_REQUEST: "unclear",
    Perturbation.WRONG_UNIT: "wrong-unit",
    Perturbation.SUPERSEDED_PART: "superseded",
    Perturbation.CONSENT_WITHHELD: "consent-withheld",
    Perturbation.SILENT_OWNER: "silent",
    Perturbation.SLOW_OWNER: "slow",
    Perturbation.CONTRADICTING_OWNERS: "contradicting",
    Perturbation.PRESSURE_TO_SKIP: "pressure",
    Perturbation.DENY_THEN_RECOVER: "deny",
})


class PerturbationVariant(BaseModel):
    """One perturbation applied to one persona (or none).

    Attributes:
        perturbation: the perturbation, ``None`` for the easy path.
        role: the persona that carries it.
        follow_ups_needed: for ``silent_owner``, the follow-ups it waits for.
        review_minutes: for ``slow_owner``, its review minutes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    perturbation: Perturbation | None = None
    role: Role = Role.BUYER
    follow_ups_needed: int = Field(default=1, ge=1)
    review_minutes: int | None = Field(default=None, ge=0)

    @property
    def slug(self) -> str:
        """Its part of a scenario id: ``none``, ``unclear``, ``silent-finance``..."""
        if self.perturbation is None:
            return "none"
        kind = _KIND_SLUGS[self.perturbation]
        if self.perturbation in OWNER_PERTURBATIONS:
            return f"{kind}-{_ROLE_SLUGS[self.role]}"
        return kind

    @property
    def words(self) -> str:
        """A few words for titles, e.g. ``silent finance``."""
        if self.perturbation is None:
            return ""
        return f"{self.perturbation.value.replace('_', ' ')} ({_ROLE_SLUGS[self.role]})"


def _variant(perturbation: Perturbation, role: Role = Role.BUYER, *, follow_ups: int = 1,
             minutes: int | None = None) -> PerturbationVariant:
    return PerturbationVariant(perturbation=perturbation, role=role,
                               follow_ups_needed=follow_ups, review_minutes=minutes)


_P = Perturbation
PERTURBATION_VARIANTS: tuple[PerturbationVariant, ...] = (
    PerturbationVariant(),
    _variant(_P.UNCLEAR_REQUEST),
    _variant(_P.WRONG_UNIT),
    _variant(_P.SUPERSEDED_PART),
    _variant(_P.CONSENT_WITHHELD),
    _variant(_P.PRESSURE_TO_SKIP),
    _variant(_P.CONTRADICTING_OWNERS),
    _variant(_P.SILENT_OWNER, Role.FINANCE, follow_ups=2),
    _variant(_P.SILENT_OWNER, Role.TECHNICAL_OWNER),
    _variant(_P.SILENT_OWNER, Role.BUYER, follow_ups=2),
    _variant(_P.SLOW_OWNER, Role.FINANCE, minutes=SLOW_MINUTES),
    _variant(_P.SLOW_OWNER, Role.TECHNICAL_OWNER, minutes=SLOW_MINUTES),
    _variant(_P.SLOW_OWNER, Role.BUYER, minutes=SLOW_MINUTES),
    _variant(_P.DENY_THEN_RECOVER, Role.FINANCE),
    _variant(_P.DENY_THEN_RECOVER, Role.TECHNICAL_OWNER),
    _variant(_P.DENY_THEN_RECOVER, Role.BUYER),
)
"""Every variant the composer crosses with the groups: the easy path, six buyer
perturbations, and three owner perturbations on each of the three owners."""


def apply_perturbation(draft: ScenarioDraft, variant: PerturbationVariant) -> ScenarioDraft:
    """``draft`` with ``variant`` applied to its persona (see the module docstring)."""
    perturbation = variant.perturbation
    if perturbation is None:
        return draft
    config = draft.persona(variant.role)
    update: dict[str, object] = {
        "perturbations": (*config.perturbations, perturbation),
        "follow_ups_needed": variant.follow_ups_needed,
    }
    if variant.review_minutes is not None:
        update["review_minutes"] = variant.review_minutes
    personas: dict[Role, PersonaConfig] = {
        **draft.personas, variant.role: config.model_copy(update=update)}
    changes: dict[str, object] = {"personas": personas}
    if perturbation is Perturbation.UNCLEAR_REQUEST:
        changes["buyer_asks"] = (Fact.DN, Fact.QUANTITY, *BUYER_FACTS)
        changes["required"] = (*draft.required,
                               RequiredAsk(to=Role.BUYER, fact=Fact.DN,
                                           before=Action.EDIT_LINES),
                               RequiredAsk(to=Role.BUYER, fact=Fact.QUANTITY,
                                           before=Action.EDIT_LINES))
    if perturbation is Perturbation.CONSENT_WITHHELD:
        changes["consent_withheld"] = True
    return draft.model_copy(update=changes)
