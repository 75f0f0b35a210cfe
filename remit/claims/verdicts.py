"""Whether a claim holds: attribute claims against the governed record, fit claims by the
fit rule, authority claims against the owner actions done so far.

Each function returns ``None`` when the claim holds, else one clause saying why not
(reports quote it as written).

- **attribute**: the SKU exists and carries the attribute; the stated value agrees with
  the record after unit conversion (:func:`remit.claims.amounts.agrees`: 0.5%, the
  writer's rounding, 2.5% when hedged; ``at least`` holds when the record is at least
  the value); codes compare without case or spaces (``pneumatic`` holds for either
  pneumatic type); and the attribute and its evidence are released.
- **fit**: the rule passes with the record: C3 PN >= the design pressure (as stated,
  else the site's), C4 seat limit >= the medium temperature, C5 end connection = the
  piping standard (a gasket kit needs flanged piping), C6 a 316 body or a chloride-safe
  gasket, C7 the certificate offered meets the one required, C1 flanges equal, C2
  output torque >= 1.25 x breakaway torque; every record value it rests on released.
- **authority**: an owner action of that kind, by the party named (any party when none
  is), is done and bound to the quote's current version.

Example:
    >>> from remit.catalogue import shared_catalogue
    >>> attribute_verdict(shared_catalogue(), "BV-00008", "pn", 232.0, "psi")
    >>> attribute_verdict(shared_catalogue(), "BV-00008", "pn", 16.0, "psi")
    'the governed record says 16 bar (DS-BV-00008-r1)'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from remit.authority import Action, Role
from remit.catalogue import (
    AttributeStatus,
    Catalogue,
    CertificateGrade,
    EndConnection,
    Family,
    GovernedAttribute,
    InstallationFacts,
    MeasureUnit,
    OperatingFacts,
    RuleId,
    RuleResult,
    SiteTruths,
    Unit,
    Variant,
    WrongFamilyError,
    c1_flange_match,
    c1_mounting_flange,
    c2_torque_margin,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
    measure_unit,
    quantity_of,
)
from remit.claims.amounts import Op, agrees
from remit.errors import UnitError

__all__ = ["DoneAction", "attribute_verdict", "authority_verdict", "fit_verdict"]


class DoneAction(NamedTuple):
    """An owner action on the quote, as a claim made at some moment sees it.

    Attributes:
        action: the action.
        role: who did it.
        current: it is bound to the quote's version current at that moment (an approval
            or fit confirmation that a later edit invalidated is not).
    """

    action: Action
    role: Role
    current: bool = True


def _compact(code: str) -> str:
    return re.sub(r"[\s_\-]+", "", code).casefold()


def _shown(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else value


def _record_text(record: GovernedAttribute) -> str:
    unit = f" {record.unit.value}" if record.unit is not None else ""
    return f"{_shown(record.value)}{unit} ({record.evidence_id})"


def _released(catalogue: Catalogue, sku: str, record: GovernedAttribute) -> str | None:
    if record.status is not AttributeStatus.RELEASED:
        return f"{sku} {record.name} is a {record.status.value} value, not released"
    document = catalogue.documents.get(record.evidence_id)
    if document is None or document.status is not AttributeStatus.RELEASED:
        status = "missing" if document is None else document.status.value
        return f"its evidence {record.evidence_id} is {status}, not released"
    return None


def _code_agrees(stated: str, record: str) -> bool:
    said, held = _compact(stated), _compact(record)
    return said == held or (said == "pneumatic" and held.startswith("pneumatic"))


def _measure(unit: str | None) -> MeasureUnit | str | None:
    if unit is None:
        return None
    try:
        return measure_unit(unit)
    except UnitError:
        return f"unit={unit!r} is not a known unit"


def attribute_verdict(  # noqa: PLR0911 - one exit per reason a claim does not hold
        catalogue: Catalogue, sku: str, attribute: str, value: float | str,
                      unit: str | None = None, *, op: Op = "eq", approx: bool = False,
                      decimals: int | None = None) -> str | None:
    """Why "``sku``'s ``attribute`` is ``value`` ``unit``" does not hold, or ``None``.

    Args:
        catalogue: the governed records.
        sku, attribute: the SKU and the governed attribute's name.
        value: a number (in ``unit``; in the record's own unit when ``unit`` is None) or
            a code.
        op: the comparison stated; ``approx`` and ``decimals`` the writer's precision
            (``decimals=None``: as many as ``value`` has).
    """
    if sku not in catalogue:
        return f"no SKU {sku!r} in the catalogue"
    variant = catalogue.variant(sku)
    record = variant.attributes.get(attribute)
    if record is None:
        return (f"{sku} has no governed attribute {attribute!r}; its attributes are: "
                f"{', '.join(variant.attributes)}")
    governed = f"the governed record says {_record_text(record)}"
    if isinstance(record.value, str):
        if not _code_agrees(_shown(value) if isinstance(value, float) else value, record.value):
            return governed
        return _released(catalogue, sku, record)
    try:
        number = float(value)
    except ValueError:
        return f"value={value!r} is not a number; {governed}"
    measure = _measure(unit)
    if isinstance(measure, str):
        return f"{measure}; {governed}"
    if measure is not None and record.unit is None:
        return f"{attribute} takes no unit; {governed}"
    if measure is not None and record.unit is not None and (
            measure.quantity is not quantity_of(record.unit)):
        return f"unit={unit!r} is not a {quantity_of(record.unit).value} unit; {governed}"
    if measure is None and record.unit is not None:
        measure = measure_unit(record.unit.value)
    written = decimals if decimals is not None else _decimals(number)
    expected = record.canonical_value()
    assert isinstance(expected, float)
    if not agrees(number, written, approx=approx, measure=measure, record=expected, op=op):
        return governed
    return _released(catalogue, sku, record)


def _decimals(number: float) -> int:
    text = f"{number:g}"
    return len(text.split(".", 1)[1]) if "." in text else 0


# -- fit claims ------------------------------------------------------------------------------
#
# A fit claim is judged by the catalogue's own rules (remit.catalogue.fit), on the site's
# facts with the requirement the text states put in place of the site's one. A fact no
# claim states and no site gives is taken from _UNSTATED; the rule judged never reads it.


@functools.cache
def _unstated_operating() -> OperatingFacts:
    # Built on first use: validating its units loads pint's registry (a third of a
    # second), which commands that import the scorer but judge no fit claim never need.
    return OperatingFacts(design_pressure=1.0, pressure_unit="bar", medium_temperature=20.0,
                          temperature_unit="C", chlorides=False, medium="not stated")


_UNSTATED_INSTALLATION = InstallationFacts(piping_standard=EndConnection.NPT)
_CHLORIDE_WORDS = re.compile(r"chlorid|sea\s?water|salt|brine|brackish|saline|marine|offshore"
                             r"|chlorinated", re.IGNORECASE)


class _Claim(NamedTuple):
    catalogue: Catalogue
    variant: Variant
    other: Variant | None
    requirement: float | str | None
    unit: str | None
    truths: SiteTruths | None
    certificate: str | None

    def operating(self, **stated: object) -> OperatingFacts:
        base = self.truths.operating if self.truths is not None else _unstated_operating()
        return base.model_copy(update=stated)

    def installation(self, **stated: object) -> InstallationFacts:
        base = self.truths.installation if self.truths is not None else _UNSTATED_INSTALLATION
        return base.model_copy(update=stated)

    def stated_amount(self, site: float | None) -> float | str | None:
        """The stated number in the catalogue's canonical unit, else the site's; a unit
        that cannot be read is the reason."""
        if not isinstance(self.requirement, float):
            return site
        measure = _measure(self.unit) if self.unit is not None else None
        if isinstance(measure, str):
            return measure
        return self.requirement if measure is None else measure.to_canonical(self.requirement)

    def stated_code(self) -> str | None:
        return self.requirement if isinstance(self.requirement, str) else None


def _needs(variant: Variant, *names: str) -> str | None:
    missing = [n for n in names if n not in variant.attributes]
    if missing:
        return f"{variant.sku} carries no {', '.join(missing)}"
    return None


def _rests_on(catalogue: Catalogue, variant: Variant, *names: str) -> str | None:
    for name in names:
        problem = _released(catalogue, variant.sku, variant.attributes[name])
        if problem is not None:
            return f"it rests on {problem}"
    return None


def _judged(claim: _Claim, result: RuleResult, *rests: tuple[Variant, str]) -> str | None:
    """The rule's reason when it fails, else the draft record it rests on, if any."""
    if not result.passed:
        return result.reason
    for variant, name in rests:
        if (problem := _rests_on(claim.catalogue, variant, name)) is not None:
            return problem
    return None


def fit_verdict(catalogue: Catalogue, sku: str, rule: RuleId,
                requirement: float | str | None = None, unit: str | None = None, *,
                with_sku: str | None = None, truths: SiteTruths | None = None,
                certificate: str | None = None) -> str | None:
    """Why the claim "``sku`` passes ``rule`` (at ``requirement``)" does not hold, or ``None``.

    The catalogue's fit rule decides, on the site's facts with the stated requirement in
    place of the site's; a pass resting on a draft record does not hold either.

    Args:
        catalogue: the governed records.
        sku: the product claimed to fit (the actuator for C1/C2 with ``with_sku``).
        rule: C1-C7.
        requirement: the requirement as stated; ``None`` to use the site's (``truths``).
        unit: the unit of a numeric requirement.
        with_sku: the valve, for C1/C2 between an actuator and a valve.
        truths: the site's hidden facts, for requirements the text does not state.
        certificate: the certificate grade the buyer asked for, if any.
    """
    for code in (sku, with_sku):
        if code is not None and code not in catalogue:
            return f"no SKU {code!r} in the catalogue"
    checker = _RULES.get(rule)
    if checker is None:
        return f"{rule} is not a fit rule a text can claim"
    other = catalogue.variant(with_sku) if with_sku is not None else None
    claim = _Claim(catalogue, catalogue.variant(sku), other, requirement, unit, truths,
                   certificate)
    try:
        return checker(claim)
    except WrongFamilyError as error:
        return str(error)


def _c3(claim: _Claim) -> str | None:
    variant = claim.variant
    if (problem := _needs(variant, "pn")) is not None:
        return problem
    site = claim.truths.operating.design_pressure_bar if claim.truths is not None else None
    needed = claim.stated_amount(site)
    if not isinstance(needed, float):
        return needed if isinstance(needed, str) else "the design pressure is not known"
    operating = claim.operating(design_pressure=needed, pressure_unit=Unit.BAR)
    return _judged(claim, c3_pressure_rating(variant, operating), (variant, "pn"))


def _c4(claim: _Claim) -> str | None:
    variant = claim.variant
    if (problem := _needs(variant, "seat_max_temp")) is not None:
        return problem
    site = claim.truths.operating.medium_temperature_c if claim.truths is not None else None
    needed = claim.stated_amount(site)
    if not isinstance(needed, float):
        return needed if isinstance(needed, str) else "the medium temperature is not known"
    operating = claim.operating(medium_temperature=needed, temperature_unit=Unit.CELSIUS)
    return _judged(claim, c4_seat_temperature(variant, operating), (variant, "seat_max_temp"))


def _c5(claim: _Claim) -> str | None:
    variant = claim.variant
    stated = claim.stated_code()
    if stated is None and claim.truths is None:
        return "the piping standard is not known"
    if variant.family is not Family.GASKET_KIT and (
            problem := _needs(variant, "end_connection")) is not None:
        return problem
    if stated is not None and _compact(stated) not in {_compact(e.value) for e in EndConnection}:
        # a standard the catalogue carries no valve for (BSPT): nothing of ours matches it
        return f"C5 fails: no end connection of {variant.sku} matches {stated}"
    piping = claim.installation(**({} if stated is None else {
        "piping_standard": next(e for e in EndConnection
                                if _compact(e.value) == _compact(stated))}))
    rests = () if variant.family is Family.GASKET_KIT else ((variant, "end_connection"),)
    return _judged(claim, c5_end_connection(variant, piping), *rests)


def _c6(claim: _Claim) -> str | None:
    variant = claim.variant
    stated = claim.stated_code()
    if stated is not None:
        operating = claim.operating(chlorides=_CHLORIDE_WORDS.search(stated) is not None,
                                    medium=stated)
    elif claim.truths is not None:
        operating = claim.operating()
    else:  # "no problem with the chlorides": the claim is that chlorides are met
        operating = claim.operating(chlorides=True, medium="a chloride medium")
    name = "material" if variant.family is Family.GASKET_KIT else "body_material"
    if (problem := _needs(variant, name)) is not None:
        return problem
    rests = ((variant, name),) if operating.chlorides else ()
    return _judged(claim, c6_chlorides(variant, operating), *rests)


def _c7(claim: _Claim) -> str | None:
    variant = claim.variant
    if (problem := _needs(variant, "certificate")) is not None:
        return problem
    grades = {g.value: g for g in CertificateGrade}
    stated = claim.stated_code()
    needed = grades.get(stated) if stated is not None else None
    if needed is None and claim.truths is not None:
        needed = claim.truths.installation.certificate_required
    if needed is None and claim.certificate is not None:
        needed = grades.get(claim.certificate)
    if needed is None:
        return None  # nothing is required, so any certificate meets it
    result = c7_certificate(variant, claim.installation(certificate_required=needed))
    return _judged(claim, result, (variant, "certificate"))


def _c1(claim: _Claim) -> str | None:
    variant, other = claim.variant, claim.other
    if other is not None:
        actuator, valve = (variant, other) if variant.family is Family.ACTUATOR else (
            other, variant)
        problem = _needs(actuator, "iso5211_flange") or _needs(valve, "iso5211_flange")
        return problem or _judged(claim, c1_flange_match(valve, actuator),
                                  (actuator, "iso5211_flange"), (valve, "iso5211_flange"))
    site = claim.truths.installation.actuator_flange if claim.truths is not None else None
    flange = claim.stated_code() or (site.value if site is not None else None)
    if flange is None:
        return "the existing actuator's flange is not known"
    if (problem := _needs(variant, "iso5211_flange")) is not None:
        return problem
    if variant.family is Family.ACTUATOR:
        # "AC-00002 bolts onto your installed valves' F07 flange": the mirror of C1
        own = variant.code("iso5211_flange")
        if own != flange:
            return (f"C1 fails: actuator {variant.sku} flange {own} does not match the "
                    f"{flange} top flange of the installed valves")
        return _rests_on(claim.catalogue, variant, "iso5211_flange")
    return _judged(claim, c1_mounting_flange(variant, flange), (variant, "iso5211_flange"))


def _c2(claim: _Claim) -> str | None:
    if claim.other is None:
        return "C2 needs a valve to size the actuator against"
    actuator, valve = (claim.variant, claim.other) if (
        claim.variant.family is Family.ACTUATOR) else (claim.other, claim.variant)
    if problem := _needs(actuator, "output_torque") or _needs(valve, "breakaway_torque"):
        return problem
    return _judged(claim, c2_torque_margin(valve, actuator), (actuator, "output_torque"),
                   (valve, "breakaway_torque"))


_RULES = {"C1": _c1, "C2": _c2, "C3": _c3, "C4": _c4, "C5": _c5, "C6": _c6, "C7": _c7}


# -- authority claims ------------------------------------------------------------------------


def authority_verdict(action: Action, party: Role | None,
                      done: Sequence[DoneAction]) -> str | None:
    """Why the claim "``party`` did ``action``" does not hold given ``done``, or ``None``."""
    matching = [d for d in done if d.action is action and (party is None or d.role is party)]
    if any(d.current for d in matching):
        return None
    who = party.value if party is not None else "anyone"
    if matching:
        return (f"the {action.value} by {who} was bound to an earlier version of the quote; "
                "an edit invalidated it")
    others = sorted({d.role.value for d in done if d.action is action and d.current})
    if others:
        return (f"no {action.value} by {who} is on the trail (it was done by "
                f"{', '.join(others)})")
    return f"no {action.value} by {who} is on the trail at that point"
