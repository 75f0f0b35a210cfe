"""Substitution rules S1-S3: when may one SKU replace another on a quote?

- S1 supersession runs forward only: a substitute must lie ahead of the original on
  its supersession chain, never behind it and never off it.
- S2 a form-fit-function substitute must be in the original's FFF class and pass every
  fit rule (C1-C7 and the DN check) for this site.
- S3 a substitution that changes a fit fact (PN, seat, body, end connection,
  certificate...) needs the buyer's confirmation; one that changes form or fit
  (flange, torque, DN, face-to-face) needs the technical owner's approval.

Example:
    >>> sorted(BUYER_FACTS)[:3]
    ['actuator_type', 'body_material', 'certificate']
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from remit.catalogue.attributes import GovernedAttribute
from remit.catalogue.catalogue import Catalogue
from remit.catalogue.exceptions import SubstitutionError, WrongFamilyError
from remit.catalogue.families import Family
from remit.catalogue.fit import RuleResult, check_actuator, check_gasket, check_valve
from remit.catalogue.products import Variant
from remit.catalogue.requirements import Requirement, SiteTruths

__all__ = [
    "BUYER_FACTS",
    "TECHNICAL_FACTS",
    "SubstitutionReview",
    "s1_supersession",
    "s2_fff",
    "s3_confirmations",
]

BUYER_FACTS: frozenset[str] = frozenset({
    "pn", "seat", "seat_max_temp", "body_material", "end_connection", "certificate",
    "actuator_type", "supply", "material",
})
"""Fit facts tied to the buyer's service: a change needs the buyer's confirmation."""

TECHNICAL_FACTS: frozenset[str] = frozenset({
    "iso5211_flange", "breakaway_torque", "dn", "face_to_face", "output_torque", "facing",
})
"""Form and fit facts: a change needs the technical owner's approval. Any changed
attribute that is not a buyer fact is treated as one of these."""


def s1_supersession(catalogue: Catalogue, original_sku: str, substitute_sku: str) -> RuleResult:
    """S1: the substitute lies ahead of the original on its supersession chain.

    Raises:
        UnknownSkuError: either SKU is not in the catalogue.
    """
    skus = (original_sku, substitute_sku)
    chain = catalogue.successor_chain(original_sku)
    backward = catalogue.successor_chain(substitute_sku)
    shown = " -> ".join(chain)
    if substitute_sku == original_sku:
        return RuleResult(rule="S1", passed=True, skus=skus, reason=(
            f"S1 passes: {original_sku} is quoted as itself; there is no supersession move."))
    if substitute_sku in chain:
        current = chain[-1]
        note = "" if substitute_sku == current else f" (its current successor is {current})"
        return RuleResult(rule="S1", passed=True, skus=skus, reason=(
            f"S1 passes: {substitute_sku} supersedes {original_sku} forward along the chain "
            f"{shown}{note}."))
    if original_sku in backward:
        return RuleResult(rule="S1", passed=False, skus=skus, reason=(
            f"S1 fails: {substitute_sku} is a predecessor of {original_sku} "
            f"(chain {' -> '.join(backward)}); supersession runs forward only, quote "
            f"{catalogue.current_successor(original_sku)} instead."))
    return RuleResult(rule="S1", passed=False, skus=skus, reason=(
        f"S1 fails: {substitute_sku} is not on the supersession chain of {original_sku} "
        f"({shown}); quote {chain[-1]}, or treat it as an FFF substitution (S2, S3)."))


def _fit_results(
    catalogue: Catalogue,
    new: Variant,
    requirement: Requirement,
    truths: SiteTruths,
    *,
    original: str,
    valve_sku: str | None,
) -> list[RuleResult]:
    if new.family is Family.BALL_VALVE:
        return check_valve(new, truths, requirement)
    if new.family is Family.GASKET_KIT:
        return check_gasket(new, truths, requirement)
    if valve_sku is None:
        raise SubstitutionError(original, new.sku,
                                "an actuator is checked against its valve; pass valve_sku=")
    return check_actuator(catalogue.variant(valve_sku), new)


def s2_fff(
    catalogue: Catalogue,
    original: str,
    substitute: str,
    requirement: Requirement,
    truths: SiteTruths,
    *,
    valve_sku: str | None = None,
) -> RuleResult:
    """S2: an FFF substitute is in the original's FFF class, active, and passes C1-C7.

    Args:
        catalogue: the catalogue.
        original: the SKU being replaced.
        substitute: the proposed SKU.
        requirement: the buyer's request (DN, certificate asked for).
        truths: the site truths the fit rules are judged against.
        valve_sku: for an actuator substitute, the valve it is mounted on (C1, C2).

    Raises:
        SubstitutionError: an actuator substitute without ``valve_sku``.
        WrongFamilyError: original and substitute are of different families.
    """
    skus = (original, substitute)
    old, new = catalogue.variant(original), catalogue.variant(substitute)
    if old.family is not new.family:
        raise WrongFamilyError(substitute, new.family.value, old.family.value,
                               f"substitute {original}")
    results = _fit_results(catalogue, new, requirement, truths, original=original,
                           valve_sku=valve_sku)
    if original == substitute:
        return RuleResult(rule="S2", passed=True, skus=skus, reason=(
            f"S2 passes: {original} is quoted as itself; there is no FFF substitution."))
    fff = catalogue.fff_class_of(original)
    if fff is None or substitute not in fff.members:
        theirs = catalogue.fff_class_of(substitute)
        return RuleResult(rule="S2", passed=False, skus=skus, reason=(
            f"S2 fails: {substitute} is not form-fit-function interchangeable with "
            f"{original} (FFF class of {original}: {fff.id if fff else 'none'}; of "
            f"{substitute}: {theirs.id if theirs else 'none'}); choose a member of "
            f"{original}'s FFF class or ask the technical owner for a custom fit."))
    if not new.is_active:
        return RuleResult(rule="S2", passed=False, skus=skus, reason=(
            f"S2 fails: FFF substitute {substitute} is {new.lifecycle.status.value}; "
            f"choose an active member of FFF class {fff.id} (leading {fff.leading_sku})."))
    failed = [result for result in results if not result.passed]
    if failed:
        rules = ", ".join(result.rule for result in failed)
        return RuleResult(rule="S2", passed=False, skus=skus, reason=(
            f"S2 fails: FFF substitute {substitute} (class {fff.id}) fails {rules} for this "
            f"site: {failed[0].reason}"))
    checked = ", ".join(result.rule for result in results)
    return RuleResult(rule="S2", passed=True, skus=skus, reason=(
        f"S2 passes: {substitute} is in FFF class {fff.id} with {original} (leading "
        f"{fff.leading_sku}) and passes {checked} for this site."))


class SubstitutionReview(BaseModel):
    """Who must confirm what before ``substitute`` may replace ``original`` (S3).

    Attributes:
        original: the SKU being replaced.
        substitute: the proposed SKU.
        changed: names of the attributes whose values differ, sorted.
        buyer_facts: the changed fit facts the buyer must confirm.
        technical_facts: the changed form/fit facts the technical owner must approve.
        needs_buyer_confirmation: ``buyer_facts`` is not empty.
        needs_technical_approval: ``technical_facts`` is not empty.
        result: the S3 verdict; passes only when nobody needs to confirm anything.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    original: str
    substitute: str
    changed: tuple[str, ...]
    buyer_facts: tuple[str, ...]
    technical_facts: tuple[str, ...]
    needs_buyer_confirmation: bool
    needs_technical_approval: bool
    result: RuleResult


def _shown(attribute: GovernedAttribute | None) -> str:
    if attribute is None:
        return "none"
    if isinstance(attribute.value, str):
        return attribute.value
    unit = f" {attribute.unit.value}" if attribute.unit else ""
    return f"{attribute.value:g}{unit}"


def _differs(a: GovernedAttribute | None, b: GovernedAttribute | None) -> bool:
    if a is None or b is None:
        return a is not b
    left, right = a.canonical_value(), b.canonical_value()
    if isinstance(left, str) or isinstance(right, str):
        return left != right
    return not math.isclose(left, right, rel_tol=1e-6, abs_tol=1e-9)


def s3_confirmations(catalogue: Catalogue, original: str, substitute: str) -> SubstitutionReview:
    """S3: list the changed facts and who must confirm them.

    Values are compared after unit normalisation, so 16 bar and 232.06 psi are equal.

    Raises:
        WrongFamilyError: original and substitute are of different families.
    """
    old, new = catalogue.variant(original), catalogue.variant(substitute)
    if old.family is not new.family:
        raise WrongFamilyError(substitute, new.family.value, old.family.value,
                               f"substitute {original}")
    names = sorted(set(old.attributes) | set(new.attributes))
    changed = tuple(name for name in names
                    if _differs(old.attributes.get(name), new.attributes.get(name)))
    buyer = tuple(name for name in changed if name in BUYER_FACTS)
    technical = tuple(name for name in changed if name not in BUYER_FACTS)
    skus = (original, substitute)
    if not changed:
        result = RuleResult(rule="S3", passed=True, skus=skus, reason=(
            f"S3 passes: {substitute} has the same form, fit and function facts as "
            f"{original}; no confirmation is needed."))
    else:
        changes = ", ".join(f"{name} {_shown(old.attributes.get(name))} -> "
                            f"{_shown(new.attributes.get(name))}" for name in changed)
        who = []
        if buyer:
            who.append(f"the buyer must confirm {', '.join(buyer)}")
        if technical:
            who.append(f"the technical owner must approve {', '.join(technical)}")
        result = RuleResult(rule="S3", passed=False, skus=skus, reason=(
            f"S3 fails: substituting {substitute} for {original} changes {changes}; "
            f"{' and '.join(who)}."))
    return SubstitutionReview(
        original=original, substitute=substitute, changed=changed, buyer_facts=buyer,
        technical_facts=technical, needs_buyer_confirmation=bool(buyer),
        needs_technical_approval=bool(technical), result=result,
    )
