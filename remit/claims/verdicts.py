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

import re
from collections.abc import Sequence
from typing import NamedTuple

from remit.authority import Action, Role
from remit.catalogue import (
    CHLORIDE_SAFE_GASKETS,
    TORQUE_SAFETY_FACTOR,
    AttributeStatus,
    BodyMaterial,
    Catalogue,
    EndConnection,
    Family,
    GovernedAttribute,
    MeasureUnit,
    RuleId,
    SiteTruths,
    Variant,
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

_GRADE = {"2.1": 1, "3.1": 2}


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


def _required_value(requirement: float | str | None, unit: str | None,
                    site: float | None) -> float | str | None:
    if isinstance(requirement, float):
        measure = _measure(unit) if unit is not None else None
        if isinstance(measure, str):
            return measure
        return requirement if measure is None else measure.to_canonical(requirement)
    return site


def fit_verdict(catalogue: Catalogue, sku: str, rule: RuleId,
                requirement: float | str | None = None, unit: str | None = None, *,
                with_sku: str | None = None, truths: SiteTruths | None = None,
                certificate: str | None = None) -> str | None:
    """Why the claim "``sku`` passes ``rule`` (at ``requirement``)" does not hold, or ``None``.

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
    variant = catalogue.variant(sku)
    other = catalogue.variant(with_sku) if with_sku is not None else None
    checker = _RULES.get(rule)
    if checker is None:
        return f"{rule} is not a fit rule a text can claim"
    return checker(catalogue, variant, other, requirement, unit, truths, certificate)


def _c3(catalogue: Catalogue, variant: Variant, _other: Variant | None,
        requirement: float | str | None, unit: str | None, truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    if (problem := _needs(variant, "pn")) is not None:
        return problem
    site = truths.operating.design_pressure_bar if truths is not None else None
    needed = _required_value(requirement, unit, site)
    if not isinstance(needed, float):
        return needed if isinstance(needed, str) else "the design pressure is not known"
    pn = variant.number("pn")
    if pn + 1e-9 < needed:
        return f"C3 fails: PN {pn:g} bar of {variant.sku} is below {needed:.1f} bar"
    return _rests_on(catalogue, variant, "pn")


def _c4(catalogue: Catalogue, variant: Variant, _other: Variant | None,
        requirement: float | str | None, unit: str | None, truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    if (problem := _needs(variant, "seat_max_temp")) is not None:
        return problem
    site = truths.operating.medium_temperature_c if truths is not None else None
    needed = _required_value(requirement, unit, site)
    if not isinstance(needed, float):
        return needed if isinstance(needed, str) else "the medium temperature is not known"
    limit = variant.number("seat_max_temp")
    if needed > limit + 1e-9:
        return (f"C4 fails: {needed:.1f} C exceeds the seat limit {limit:g} C of "
                f"{variant.sku}")
    return _rests_on(catalogue, variant, "seat_max_temp")


def _c5(catalogue: Catalogue, variant: Variant, _other: Variant | None,
        requirement: float | str | None, _unit: str | None, truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    piping = requirement if isinstance(requirement, str) else (
        truths.installation.piping_standard.value if truths is not None else None)
    if piping is None:
        return "the piping standard is not known"
    if variant.family is Family.GASKET_KIT:
        if _compact(piping) != _compact(EndConnection.FLANGED.value):
            return f"C5 fails: gasket kit {variant.sku} needs flanged piping, not {piping}"
        return None
    if (problem := _needs(variant, "end_connection")) is not None:
        return problem
    end = variant.code("end_connection")
    if _compact(end) != _compact(piping):
        return f"C5 fails: end connection {end} of {variant.sku} does not match {piping}"
    return _rests_on(catalogue, variant, "end_connection")


_CHLORIDE_WORDS = re.compile(r"chlorid|sea\s?water|salt|brine|brackish|saline|marine|offshore"
                             r"|chlorinated", re.IGNORECASE)


def _c6(catalogue: Catalogue, variant: Variant, _other: Variant | None,
        requirement: float | str | None, _unit: str | None, truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    if isinstance(requirement, str):
        chlorides = _CHLORIDE_WORDS.search(requirement) is not None
    else:
        chlorides = truths.operating.chlorides if truths is not None else True
    if not chlorides:
        return None  # a medium without chlorides takes any body or gasket
    if variant.family is Family.GASKET_KIT:
        material = variant.code("material")
        if material not in CHLORIDE_SAFE_GASKETS:
            return f"C6 fails: gasket material {material} of {variant.sku} is not chloride-safe"
        return _rests_on(catalogue, variant, "material")
    if (problem := _needs(variant, "body_material")) is not None:
        return problem
    body = variant.code("body_material")
    if body != BodyMaterial.SS316.value:
        return f"C6 fails: chlorides need a 316 body and {variant.sku} is {body}"
    return _rests_on(catalogue, variant, "body_material")


def _c7(catalogue: Catalogue, variant: Variant, _other: Variant | None,
        requirement: float | str | None, _unit: str | None, truths: SiteTruths | None,
        certificate: str | None) -> str | None:
    if (problem := _needs(variant, "certificate")) is not None:
        return problem
    needed = requirement if isinstance(requirement, str) and requirement in _GRADE else None
    if needed is None and truths is not None and truths.installation.certificate_required:
        needed = truths.installation.certificate_required.value
    if needed is None:
        needed = certificate
    if needed is None:
        return None
    offered = variant.code("certificate")
    if _GRADE.get(offered, 0) < _GRADE[needed]:
        return f"C7 fails: EN 10204 {needed} is required and {variant.sku} offers {offered}"
    return _rests_on(catalogue, variant, "certificate")


def _c1(  # noqa: PLR0911 - one exit per reason the flanges do not mate
        catalogue: Catalogue, variant: Variant, other: Variant | None,
        requirement: float | str | None, _unit: str | None, truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    if other is not None:
        actuator, valve = (variant, other) if variant.family is Family.ACTUATOR else (other,
                                                                                     variant)
        for product in (actuator, valve):
            if (problem := _needs(product, "iso5211_flange")) is not None:
                return problem
        a, v = actuator.code("iso5211_flange"), valve.code("iso5211_flange")
        if a != v:
            return (f"C1 fails: actuator {actuator.sku} flange {a} does not match the {v} top "
                    f"flange of {valve.sku}")
        return (_rests_on(catalogue, actuator, "iso5211_flange")
                or _rests_on(catalogue, valve, "iso5211_flange"))
    flange = requirement if isinstance(requirement, str) else (
        truths.installation.actuator_flange.value
        if truths is not None and truths.installation.actuator_flange is not None else None)
    if flange is None:
        return "the existing actuator's flange is not known"
    if (problem := _needs(variant, "iso5211_flange")) is not None:
        return problem
    own = variant.code("iso5211_flange")
    if own != flange:
        return f"C1 fails: top flange {own} of {variant.sku} does not match {flange}"
    return _rests_on(catalogue, variant, "iso5211_flange")


def _c2(catalogue: Catalogue, variant: Variant, other: Variant | None,
        _requirement: float | str | None, _unit: str | None, _truths: SiteTruths | None,
        _certificate: str | None) -> str | None:
    if other is None:
        return "C2 needs a valve to size the actuator against"
    actuator, valve = (variant, other) if variant.family is Family.ACTUATOR else (other, variant)
    if (problem := _needs(actuator, "output_torque") or _needs(valve, "breakaway_torque")):
        return problem
    output, breakaway = actuator.number("output_torque"), valve.number("breakaway_torque")
    if output + 1e-9 < TORQUE_SAFETY_FACTOR * breakaway:
        return (f"C2 fails: {actuator.sku} delivers {output:g} Nm, below {TORQUE_SAFETY_FACTOR}"
                f" x {breakaway:g} Nm breakaway torque of {valve.sku}")
    return (_rests_on(catalogue, actuator, "output_torque")
            or _rests_on(catalogue, valve, "breakaway_torque"))


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
