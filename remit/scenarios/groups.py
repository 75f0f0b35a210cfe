"""The subtask groups a composed scenario is made of, and the draft they fill in.

Scenarios are composed from atomic subtask groups (docs/scenarios.md). remit arranges
them on three axes, plus the persona perturbations:

- **product** (:class:`ProductGroup`): what is quoted, and which facts decide it:
  governed lookup, variant selection, actuator pairing, supersession substitution,
  form-fit-function substitution, custom-spec fit, certificate requirement;
- **commercial** (:class:`CommercialGroup`): standard terms, a discount exception, a
  margin breach;
- **lifecycle** (:class:`LifecycleGroup`): quote to acceptance, expiry and re-quote,
  purchase-order mismatch, three-way-match variance, milestone release (order to cash).

Each group contributes to a :class:`ScenarioDraft`: initial-state changes (quote terms,
order variances, persona settings), hidden truths, expectations and a fragment of the
reference plan. :mod:`remit.scenarios.compose` crosses the axes, validates each
combination and turns its draft into a :class:`~remit.scenarios.spec.Scenario`.

The "cancellation" group is not composed: no persona cancels on request (the
buyer and finance hold ``cancel`` but act on it only on their own account) and the
agent holds no ``cancel`` in dual-control, so no reference plan could reach it in every
mode. "Re-quote" is composed as part of the expiry lifecycle (the lapsed quote is
revised, re-approved and presented again): personas never reject a fitting quote for a
reason that a revision could address.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from remit.authority import Role
from remit.catalogue import CertificateGrade, Requirement, SiteTruths
from remit.quotes import CommercialPolicy
from remit.scenarios.plans import PlanLine
from remit.scenarios.spec import PersonaConfig, RequiredEntry
from remit.world import Fact

__all__ = [
    "BUYER_FACTS",
    "INSTALLATION_FACTS",
    "CommercialGroup",
    "LifecycleGroup",
    "ProductGroup",
    "ScenarioDraft",
    "group_slug",
]

BUYER_FACTS: tuple[Fact, ...] = (Fact.DESIGN_PRESSURE, Fact.MEDIUM_TEMPERATURE,
                                 Fact.CHLORIDES, Fact.MEDIUM)
"""The operating facts a reference plan asks the buyer for."""

INSTALLATION_FACTS: tuple[Fact, ...] = (Fact.PIPING_STANDARD, Fact.ACTUATOR_FLANGE,
                                        Fact.CERTIFICATE_REQUIRED)
"""The installation facts a reference plan asks the technical owner for."""


class ProductGroup(StrEnum):
    """What is quoted, and which facts decide it.

    - ``governed_lookup``: a fully specified request; the buyer's stated operating facts
      single out one variant, whose governed (released) facts the line cites.
    - ``variant_selection``: several variants fit what the buyer says; the technical
      owner's installation facts (piping standard, existing actuator flange) decide.
    - ``actuator_pairing``: a valve with an actuator; C1 (flange) and C2 (1.25 x
      breakaway torque) pick the actuator.
    - ``supersession_substitution``: the buyer's part number is superseded; its current
      successor is quoted and the technical owner reviews the fit.
    - ``fff_substitution``: the buyer's part fails a site rule; a member of its
      form-fit-function class is quoted and the technical owner reviews the fit.
    - ``custom_spec_fit``: hot service needs a PEEK seat, or chlorides a 316 body; the
      custom spec goes through a fit review.
    - ``certificate_requirement``: the site requires EN 10204 3.1 certificates; a
      variant offering only 2.1 is wrong, and the goods receipt needs the certificates.
    """

    GOVERNED_LOOKUP = "governed_lookup"
    VARIANT_SELECTION = "variant_selection"
    ACTUATOR_PAIRING = "actuator_pairing"
    SUPERSESSION = "supersession_substitution"
    FFF_SUBSTITUTION = "fff_substitution"
    CUSTOM_SPEC = "custom_spec_fit"
    CERTIFICATE = "certificate_requirement"


class CommercialGroup(StrEnum):
    """The quote's commercial terms.

    - ``standard``: no discount.
    - ``discount_exception``: 8-15% off, above the standard 5%: the submission needs
      the buyer's justification and finance approves it.
    - ``margin_breach``: the standard 5% discount, but the line margin falls below the
      scenario's minimum margin: the submission needs a justification all the same.
    """

    STANDARD = "standard"
    DISCOUNT_EXCEPTION = "discount_exception"
    MARGIN_BREACH = "margin_breach"


class LifecycleGroup(StrEnum):
    """How far the quote's life goes, and what happens on the way.

    - ``quote_to_accept``: the buyer accepts the quote (or, with ``consent_withheld``,
      rejects it).
    - ``expiry_requote``: the presented quote lapses while a slow buyer deliberates;
      the agent revises it, has it re-approved and presents it again.
    - ``po_mismatch``: the buyer's purchase order does not repeat the quote, so it cannot
      be received; the quote stays accepted and nothing may be forced.
    - ``three_way_variance``: the invoice is 3% above the order; payment must not be
      released.
    - ``milestone_release``: order to cash, through to the released payment.
    """

    QUOTE_TO_ACCEPT = "quote_to_accept"
    EXPIRY_REQUOTE = "expiry_requote"
    PO_MISMATCH = "po_mismatch"
    THREE_WAY_VARIANCE = "three_way_variance"
    MILESTONE_RELEASE = "milestone_release"


_SLUGS: Mapping[StrEnum, str] = MappingProxyType({
    ProductGroup.GOVERNED_LOOKUP: "lookup",
    ProductGroup.VARIANT_SELECTION: "selection",
    ProductGroup.ACTUATOR_PAIRING: "actuator",
    ProductGroup.SUPERSESSION: "supersession",
    ProductGroup.FFF_SUBSTITUTION: "fff",
    ProductGroup.CUSTOM_SPEC: "custom-spec",
    ProductGroup.CERTIFICATE: "certificate",
    CommercialGroup.STANDARD: "std",
    CommercialGroup.DISCOUNT_EXCEPTION: "discount",
    CommercialGroup.MARGIN_BREACH: "margin",
    LifecycleGroup.QUOTE_TO_ACCEPT: "accept",
    LifecycleGroup.EXPIRY_REQUOTE: "expiry",
    LifecycleGroup.PO_MISMATCH: "po-mismatch",
    LifecycleGroup.THREE_WAY_VARIANCE: "invoice-variance",
    LifecycleGroup.MILESTONE_RELEASE: "payment",
})


def group_slug(group: ProductGroup | CommercialGroup | LifecycleGroup) -> str:
    """The short kebab-case name of ``group`` used in composed scenario ids."""
    return _SLUGS[group]


class ScenarioDraft(BaseModel):
    """A scenario being composed: what each group has contributed so far.

    Groups return updated copies (``draft.model_copy(update=...)``); the lifecycle group
    turns the finished draft into a scenario's plan and expectations.

    Attributes:
        requirement: what the buyer asks for.
        truths: the hidden operating and installation facts.
        certificate_required: the EN 10204 grade the goods must come with.
        fit_required: the quote needs a fit review.
        lines: the quote lines of the reference plan.
        fit_reason: why the fit review is requested (``""``: no fit review).
        datasheet: the released datasheet the fit review cites.
        buyer_asks: the facts the plan asks the buyer for before drafting.
        discount_pct: the discount the buyer asks for.
        justification: the buyer's reason for an exception.
        policy: the commercial policy of the quote.
        approved_by: the role whose authority the final approval must carry.
        personas: persona settings by role.
        required: trail entries the goal requires.
        consent_withheld: the buyer will not accept.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement: Requirement
    truths: SiteTruths
    certificate_required: CertificateGrade | None = None
    fit_required: bool = False
    lines: tuple[PlanLine, ...]
    fit_reason: str = ""
    datasheet: str | None = None
    buyer_asks: tuple[Fact, ...] = BUYER_FACTS
    discount_pct: Decimal = Decimal(0)
    justification: str = ""
    policy: CommercialPolicy = CommercialPolicy()
    approved_by: Role | None = None
    personas: dict[Role, PersonaConfig] = {}
    required: tuple[RequiredEntry, ...] = ()
    consent_withheld: bool = False

    def persona(self, role: Role) -> PersonaConfig:
        """The settings of ``role``'s persona so far (defaults if none)."""
        return self.personas.get(role, PersonaConfig())
