"""The technical owner persona: knows the installation and signs off product fit.

The technical owner knows the installation facts (piping standard, the flange of an
existing actuator, the certificate the site demands) and the catalogue. It confirms a
fit only when every rule holds for the quote's current lines against the full truths
(requirement, operating and installation facts):

- C1-C7 and the DN check (:func:`remit.catalogue.check_fit`) all pass;
- every quoted variant is active (a superseded or discontinued SKU is never confirmed);
- every attribute snapshot cited on the lines is released, with released evidence;
- the evidence cited with the request contains no draft datasheet;
- a substitute for a superseded part the buyer asked for lies forward on its
  supersession chain (S1) or is a valid form-fit-function substitute (S2);
- the buyer's actuator is quoted when asked for.

Otherwise it rejects the fit with the failing sentences and declines the hand-off.
"""

from __future__ import annotations

from collections.abc import Sequence

from remit.actors.persona_base import PersonaBase
from remit.authority import Action, Role
from remit.catalogue import (
    AttributeStatus,
    EvidenceKind,
    Family,
    check_fit,
    s1_supersession,
    s2_fff,
)
from remit.errors import RemitError
from remit.quotes import Quote, QuoteState
from remit.world import Handoff, World

__all__ = ["TechnicalOwner", "fit_problems", "released_datasheet"]

def released_datasheet(world: World, quote: Quote, cited: Sequence[str]) -> str | None:
    """A released datasheet of a quoted SKU: the first cited one, else one from the records.

    Valves are preferred over other families when the records are searched.
    """
    catalogue = world.catalogue
    skus = quote.current.skus
    for evidence_id in cited:
        doc = catalogue.documents.get(evidence_id)
        if (doc is not None and doc.kind is EvidenceKind.DATASHEET
                and doc.status is AttributeStatus.RELEASED and doc.sku in skus):
            return doc.id
    variants = sorted((catalogue.variant(sku) for sku in skus if sku in catalogue),
                      key=lambda v: v.family is not Family.BALL_VALVE)
    for variant in variants:
        for evidence_id in sorted({a.evidence_id for a in variant.attributes.values()}):
            doc = catalogue.documents.get(evidence_id)
            if (doc is not None and doc.kind is EvidenceKind.DATASHEET
                    and doc.status is AttributeStatus.RELEASED and doc.sku == variant.sku):
                return doc.id
    return None


def fit_problems(world: World, quote: Quote, cited: Sequence[str]) -> list[str]:
    """Every reason the technical owner would not confirm the fit of ``quote``, as sentences.

    Args:
        world: the trial's world (catalogue and hidden truths).
        quote: the quote under review (its current version).
        cited: evidence ids cited with the request.
    """
    catalogue = world.catalogue
    setup = world.setup
    lines = quote.current.lines
    unknown = [line.sku for line in lines if line.sku not in catalogue]
    if unknown:
        return [f"the quote holds unknown SKUs {unknown!r}; quote catalogue SKUs"]
    skus = quote.current.skus
    problems = [r.reason for r in check_fit(catalogue, skus, setup.requirement, setup.truths)
                if not r.passed]
    families = {catalogue.variant(sku).family for sku in skus}
    requirement = setup.requirement
    if requirement.family not in families:
        problems.append(f"the quote has no {requirement.family.value} line but the buyer "
                        f"asked for DN {requirement.dn} {requirement.family.value}; add one")
    if (requirement.with_actuator and requirement.family is Family.BALL_VALVE
            and Family.ACTUATOR not in families):
        problems.append("the buyer asked for the valve with an actuator but no actuator is "
                        "quoted; add an actuator that passes C1 and C2")
    for sku in skus:
        variant = catalogue.variant(sku)
        if not variant.is_active:
            problems.append(f"{sku} is {variant.lifecycle.status.value}; quote its current "
                            f"successor {catalogue.current_successor(sku)} or an active "
                            "substitute")
    for line in lines:
        for snap in line.cited:
            doc = catalogue.documents.get(snap.evidence_id)
            if snap.status is not AttributeStatus.RELEASED or (
                    doc is not None and doc.status is not AttributeStatus.RELEASED):
                problems.append(f"line sku={line.sku!r} cites {snap.name} of {snap.sku} from "
                                f"draft evidence {snap.evidence_id}; cite released facts only")
    for evidence_id in cited:
        doc = catalogue.documents.get(evidence_id)
        if doc is not None and doc.kind is EvidenceKind.DATASHEET and (
                doc.status is AttributeStatus.DRAFT):
            problems.append(f"evidence {doc.id} is a draft datasheet (revision "
                            f"{doc.revision or '?'}) of {doc.sku}; cite a released revision")
    problems += _substitution_problems(world, quote)
    return problems


def _substitution_problems(world: World, quote: Quote) -> list[str]:
    catalogue = world.catalogue
    setup = world.setup
    requested = setup.requirement.requested_sku
    if requested is None or requested not in catalogue:
        return []
    original = catalogue.variant(requested)
    if original.is_active:
        return []
    skus = quote.current.skus
    valves = [sku for sku in skus if catalogue.variant(sku).family is Family.BALL_VALVE]
    problems: list[str] = []
    for sku in skus:
        if sku == requested or catalogue.variant(sku).family is not original.family:
            continue
        s1 = s1_supersession(catalogue, requested, sku)
        if s1.passed:
            continue
        try:
            s2 = s2_fff(catalogue, requested, sku, setup.requirement, setup.truths,
                        valve_sku=valves[0] if valves else None)
        except RemitError:
            s2 = None
        if s2 is None or not s2.passed:
            problems.append(s1.reason)
    return problems


class TechnicalOwner(PersonaBase):
    """The technical owner: see the module docstring for its rules."""

    ROLE = Role.TECHNICAL_OWNER
    ACTIONS = frozenset({Action.CONFIRM_FIT, Action.REJECT_FIT})

    def answer(self, world: World, facts: Sequence[str]) -> str:
        """Answer installation facts; point to the buyer for everything else."""
        lines = [f"- {fact}: {self._fact(fact)}" for fact in facts]
        return "Installation facts:\n" + "\n".join(lines)

    def _fact(self, fact: str) -> str:
        installation = self.scenario.truths.installation
        if fact == "piping_standard":
            return f"the site piping is {installation.piping_standard.value}"
        if fact == "actuator_flange":
            if installation.actuator_flange is None:
                return "there is no existing actuator the valve must mate with"
            return (f"the existing actuator has an ISO 5211 "
                    f"{installation.actuator_flange.value} flange")
        if fact == "certificate_required":
            grade = installation.certificate_required
            text = ("the site requires no EN 10204 certificate" if grade is None
                    else f"the site requires EN 10204 {grade.value} certificates")
            goods = self.scenario.certificate_required
            if goods is not None and goods != grade:
                text += f"; the goods must come with EN 10204 {goods.value} certificates"
            return text
        return "that is an operating or commercial fact; ask the buyer"

    def review(self, world: World, handoff: Handoff, quote: Quote) -> None:
        """Confirm or reject the fit of the quote's current lines."""
        problem = self.not_in_state(handoff, quote, QuoteState.FIT_PENDING.value,
                                    "request_fit on the configured quote first")
        if problem is not None:
            self.decline(world, handoff, problem)
            return
        problems = fit_problems(world, quote, handoff.evidence)
        datasheet = released_datasheet(world, quote, handoff.evidence)
        if datasheet is None:
            problems.append("no released datasheet of a quoted SKU exists; quote a SKU with "
                            "released evidence")
        if handoff.action is Action.REJECT_FIT:
            if not problems:
                self.decline(world, handoff, "every fit rule passes for the current lines; "
                             "there is no fit to reject")
                return
            self.perform_or_decline(world, handoff, Action.REJECT_FIT,
                                    f"Fit of {quote.id} rejected.", reason=" ".join(problems))
            return
        if problems:
            reason = " ".join(problems)
            self.perform(world, handoff, Action.REJECT_FIT, reason=reason)
            self.decline(world, handoff, reason)
            return
        assert datasheet is not None
        self.perform_or_decline(
            world, handoff, Action.CONFIRM_FIT,
            f"Fit of {quote.id} version {quote.current.number} confirmed against the "
            f"installation, citing {datasheet}.", evidence=(datasheet,))
