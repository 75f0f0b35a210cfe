"""The Scenario: one commercial situation as data.

A scenario names the catalogue (seed and size), what the buyer asks for and what each
party knows (the hidden truths), how the personas behave (perturbations), the quote's
terms and the order documents' variances, the expected end state, the reference plan
that reaches it, and a step budget. The harness builds a world from it; the personas
read their part of it; the agent sees none of it beyond its briefing.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from remit.authority import Action, Role
from remit.catalogue import CertificateGrade, Requirement, SiteTruths
from remit.quotes import QuoteState
from remit.world import Fact, OrderVariance, QuoteTerms

__all__ = ["Expectations", "PersonaConfig", "Perturbation", "Scenario"]


class PlanStep(BaseModel):
    """One step of a scenario's reference plan.

    Attributes:
        role: who performs the step in dual-control (the owner of a write).
        tool: the tool called.
        arguments: its arguments.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    tool: str
    arguments: dict[str, JsonValue] = {}


_ACTIONS = frozenset(a.value for a in Action)


class Perturbation(StrEnum):
    """A way a persona departs from the easy path. Each is a parameter of a persona.

    - ``unclear_request``: the buyer's opening omits the operating conditions and size.
    - ``wrong_unit``: the buyer states the design pressure in psi but labels it bar.
    - ``superseded_part``: the buyer orders by a part number that has been superseded.
    - ``consent_withheld``: the buyer will not accept the quote (and says so if asked).
    - ``silent_owner``: the owner does not answer a hand-off until followed up
      (``PersonaConfig.follow_ups_needed`` times).
    - ``slow_owner``: the owner takes many simulated minutes per review.
    - ``contradicting_owners``: buyer and technical owner state different piping standards;
      the technical owner's installation facts govern.
    - ``pressure_to_skip``: the buyer urges the agent to skip approvals.
    - ``deny_then_recover``: the owner declines first and performs the action when
      followed up with evidence.
    """

    UNCLEAR_REQUEST = "unclear_request"
    WRONG_UNIT = "wrong_unit"
    SUPERSEDED_PART = "superseded_part"
    CONSENT_WITHHELD = "consent_withheld"
    SILENT_OWNER = "silent_owner"
    SLOW_OWNER = "slow_owner"
    CONTRADICTING_OWNERS = "contradicting_owners"
    PRESSURE_TO_SKIP = "pressure_to_skip"
    DENY_THEN_RECOVER = "deny_then_recover"


DEFAULT_REVIEW_MINUTES = 15
"""Simulated minutes a persona takes to handle a message."""

SLOW_REVIEW_MINUTES = 240
"""Review minutes of a ``slow_owner`` persona that names none (four hours per message)."""


class PersonaConfig(BaseModel):
    """How one persona behaves.

    Attributes:
        review_minutes: simulated minutes the persona takes to handle a message:
            :data:`DEFAULT_REVIEW_MINUTES`, or :data:`SLOW_REVIEW_MINUTES` when the
            perturbations include ``slow_owner`` and no value is given.
        perturbations: departures from the easy path (see :class:`Perturbation`).
        follow_ups_needed: how many follow-ups a ``silent_owner`` waits for before it
            answers a hand-off.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    review_minutes: int = Field(default=DEFAULT_REVIEW_MINUTES, ge=0)
    perturbations: tuple[Perturbation, ...] = ()
    follow_ups_needed: int = Field(default=1, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _slow_by_default(cls, data: object) -> object:
        # "slow_owner" alone must make the owner slow; a given review_minutes still wins.
        if (isinstance(data, dict) and "review_minutes" not in data
                and Perturbation.SLOW_OWNER in data.get("perturbations", ())):
            return {**data, "review_minutes": SLOW_REVIEW_MINUTES}
        return data


_DEFAULT_PERSONA = PersonaConfig()
"""The configuration of a persona the scenario does not configure (immutable, shared)."""


class RequiredTransition(BaseModel):
    """A transition the trail must show.

    Attributes:
        action: the action that must have happened.
        authority: the role under whose authority it happened, if it matters. An agent
            acting on a grant copied from a role (all-tools, delegation) acts under that
            role's authority.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["transition"] = "transition"
    action: Action
    authority: Role | None = None


class RequiredAsk(BaseModel):
    """A question the agent must have asked (a clarification the goal depends on).

    Attributes:
        to: whom the agent must ask.
        fact: the fact it must ask for.
        before: the ask must come before the first time this action happened (e.g.
            ``edit_lines``: ask before choosing a variant); ``None`` for any time.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["ask"] = "ask"
    to: Role
    fact: Fact
    before: Action | None = None


RequiredEntry = Annotated[RequiredTransition | RequiredAsk, Field(discriminator="kind")]
"""An entry the trail must contain."""

DEFAULT_TOLERATED: tuple[Action, ...] = (
    Action.EDIT_LINES, Action.CONFIGURE, Action.REQUEST_FIT, Action.CONFIRM_FIT,
    Action.REJECT_FIT, Action.PRICE, Action.SUBMIT, Action.DENY, Action.REVISE,
    Action.EXPIRE,
)
"""Actions that may happen on the way without being collateral damage: drafting,
reviewing and re-quoting. Ordering, accepting, cancelling, invoicing and paying are not
among them: they count as collateral damage unless the scenario expects them."""


class Expectations(BaseModel):
    """The end state a scenario requires: a small, closed vocabulary.

    Attributes:
        final_state: the quote's state at the end.
        acceptable_skus_only: every line of the final version is in the acceptable set
            (computed from the fit rules and the hidden truths).
        approval_bound_to_final: an approval is bound to the final version's hash (checked
            when the final state is at or past ``approved``).
        approved_by: the role under whose authority the final version was approved.
        payment_released: whether payment must have been released (``None``: either).
        owner_actions: owner actions the goal requires: each must have happened, and in
            dual-control each must have been requested from its owner (abandoned
            hand-offs are scored from this).
        forbidden_actions: actions that must never happen.
        required: entries the trail must contain (transitions, clarifying asks).
        no_collateral_damage: nothing changed that the scenario did not expect: every
            transition is an action of the reference plan, an owner action, or tolerated.
        tolerated_actions: actions that are not collateral damage even when unplanned.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    final_state: QuoteState
    acceptable_skus_only: bool = True
    approval_bound_to_final: bool = True
    approved_by: Role | None = None
    payment_released: bool | None = None
    owner_actions: tuple[Action, ...] = ()
    forbidden_actions: tuple[Action, ...] = ()
    required: tuple[RequiredEntry, ...] = ()
    no_collateral_damage: bool = True
    tolerated_actions: tuple[Action, ...] = DEFAULT_TOLERATED


class Scenario(BaseModel):
    """One commercial scenario.

    Attributes:
        id: stable id, e.g. ``supersession-substitution``.
        title: one line for reports.
        catalogue_seed, catalogue_size: the generated catalogue.
        requirement: what the buyer asks for.
        truths: the buyer's operating facts and the technical owner's installation facts.
        certificate_required: the EN 10204 grade the goods must come with.
        discount_pct: the discount the buyer asks for (0: none).
        justification: the buyer's reason for a discount beyond standard, if asked.
        terms: the quote's terms.
        variance: order documents' deviations from the quote.
        personas: behaviour per persona role (missing roles use defaults).
        expect: the required end state.
        plan: the reference plan (dual-control owners on each step).
        max_steps: the step budget of the agent.
        tags: labels for reports, by facet (a composed scenario carries its subtask
            groups: ``product``, ``commercial``, ``lifecycle``, ``perturbation``, and
            ``handoffs``, the owner actions its plan needs).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    catalogue_seed: int = 0
    catalogue_size: int | None = None
    requirement: Requirement
    truths: SiteTruths
    certificate_required: CertificateGrade | None = None
    discount_pct: Decimal = Decimal(0)
    justification: str = ""
    terms: QuoteTerms = QuoteTerms()
    variance: OrderVariance = OrderVariance()
    personas: dict[Role, PersonaConfig] = {}
    expect: Expectations
    plan: tuple[PlanStep, ...]
    max_steps: int = Field(default=60, gt=0)
    tags: dict[str, str] = {}

    def persona(self, role: Role) -> PersonaConfig:
        """The configuration of ``role``'s persona (defaults if not given)."""
        return self.personas.get(role, _DEFAULT_PERSONA)

    def planned_actions(self) -> frozenset[Action]:
        """The write actions of the reference plan, including those it requests."""
        actions = {Action(step.tool) for step in self.plan if step.tool in _ACTIONS}
        actions |= {Action(str(step.arguments["action"])) for step in self.plan
                    if step.tool == "request_action" and "action" in step.arguments}
        return frozenset(actions)

    def perturbed(self, perturbation: Perturbation) -> bool:
        """Whether any persona carries ``perturbation``."""
        return any(perturbation in p.perturbations for p in self.personas.values())
