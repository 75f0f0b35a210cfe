"""Fit rules C1-C7: does a variant fit the site, and does an actuator fit a valve?

Each rule is a function returning a :class:`RuleResult` whose reason is a full
sentence naming the values compared and, on failure, what to choose instead:

- C1 actuator ISO 5211 flange == valve top flange (also: existing actuator flange).
- C2 actuator output torque >= 1.25 x valve breakaway torque.
- C3 PN >= design pressure, both normalised to bar.
- C4 medium temperature <= seat temperature limit, both normalised to C.
- C5 end connection == piping standard (NPT and BSPP threads do not mate); a gasket
  kit needs flanged (EN1092-1) piping.
- C6 chlorides need a 316 body (valves) or a chloride-safe gasket material.
- C7 a required EN 10204 certificate must be offered (3.1 also meets 2.1).
- DN (not a design rule, a check): the variant's DN is the DN asked for.

Example:
    >>> TORQUE_SAFETY_FACTOR
    1.25
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict

from remit.catalogue.attributes import CertificateGrade
from remit.catalogue.catalogue import Catalogue
from remit.catalogue.exceptions import WrongFamilyError
from remit.catalogue.families import (
    CHLORIDE_SAFE_GASKETS,
    STANDARD_PN,
    BodyMaterial,
    EndConnection,
    Family,
    Seat,
)
from remit.catalogue.products import Variant
from remit.catalogue.requirements import (
    InstallationFacts,
    OperatingFacts,
    Requirement,
    SiteTruths,
)
from remit.catalogue.units import Unit
from remit.trusted import trusted

__all__ = [
    "TORQUE_SAFETY_FACTOR",
    "RuleId",
    "RuleResult",
    "c1_flange_match",
    "c1_mounting_flange",
    "c2_torque_margin",
    "c3_pressure_rating",
    "c4_seat_temperature",
    "c5_end_connection",
    "c6_chlorides",
    "c7_certificate",
    "check_actuator",
    "check_fit",
    "check_gasket",
    "check_valve",
    "dn_match",
    "flange_fits",
    "gasket_fits",
    "required_certificate",
    "torque_fits",
    "torque_suffices",
    "valve_fits",
]

RuleId = Literal["C1", "C2", "C3", "C4", "C5", "C6", "C7", "S1", "S2", "S3", "DN"]
"""Rule ids: the design's fit (C) and substitution (S) rules, plus the DN check."""

TORQUE_SAFETY_FACTOR = 1.25
"""C2: an actuator must deliver at least this multiple of the valve's breakaway torque."""

_EPS = 1e-9
_GRADE_RANK: Mapping[CertificateGrade, int] = MappingProxyType(
    {CertificateGrade.TYPE_2_1: 1, CertificateGrade.TYPE_3_1: 2})


class RuleResult(BaseModel):
    """The verdict of one rule on one variant (or pair of variants).

    Attributes:
        rule: rule id (``C1``..``C7``, ``S1``..``S3``, ``DN``).
        passed: whether the rule holds.
        reason: one sentence naming the values compared and, on failure, what to do.
        skus: the SKUs the verdict is about (valve first for pairs).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: RuleId
    passed: bool
    reason: str
    skus: tuple[str, ...] = ()


def _result(rule: RuleId, passed: bool, text: str, *skus: str) -> RuleResult:
    verdict = "passes" if passed else "fails"
    if type(passed) is bool and all(type(sku) is str for sku in skus):
        return trusted(RuleResult, {"rule": rule, "passed": passed,
                                    "reason": f"{rule} {verdict}: {text}", "skus": skus})
    return RuleResult(rule=rule, passed=passed, reason=f"{rule} {verdict}: {text}", skus=skus)


def _require(variant: Variant, families: tuple[Family, ...], operation: str) -> None:
    if variant.family not in families:
        raise WrongFamilyError(variant.sku, variant.family.value,
                               " or ".join(f.value for f in families), operation)


def _given(value: float, unit: Unit, canonical: Unit) -> str:
    return "" if unit is canonical else f" ({value:.1f} {unit.value} as given)"


def flange_fits(valve: Variant, actuator: Variant) -> bool:
    """C1 predicate without the sentence (used by the acceptable-set oracle)."""
    return valve.code("iso5211_flange") == actuator.code("iso5211_flange")


def torque_suffices(output_nm: float, breakaway_nm: float) -> bool:
    """C2 on bare numbers: ``output_nm >= 1.25 x breakaway_nm`` (float noise tolerated)."""
    return output_nm + _EPS >= TORQUE_SAFETY_FACTOR * breakaway_nm


def torque_fits(valve: Variant, actuator: Variant) -> bool:
    """C2 predicate without the sentence (used by the acceptable-set oracle)."""
    return torque_suffices(actuator.number("output_torque"), valve.number("breakaway_torque"))


def c1_flange_match(valve: Variant, actuator: Variant) -> RuleResult:
    """C1: the actuator's ISO 5211 flange equals the valve's top flange."""
    _require(valve, (Family.BALL_VALVE,), "check C1")
    _require(actuator, (Family.ACTUATOR,), "check C1")
    ours, theirs = valve.code("iso5211_flange"), actuator.code("iso5211_flange")
    if ours == theirs:
        return _result("C1", True, f"actuator {actuator.sku} flange {theirs} matches the "
                       f"{ours} top flange of valve {valve.sku}.", valve.sku, actuator.sku)
    return _result("C1", False, f"actuator {actuator.sku} flange {theirs} does not match "
                   f"the {ours} top flange of valve {valve.sku}; choose an actuator with an "
                   f"{ours} flange.", valve.sku, actuator.sku)


def c1_mounting_flange(valve: Variant, flange: str) -> RuleResult:
    """C1 against the site's existing actuator: its flange equals the valve's top flange."""
    _require(valve, (Family.BALL_VALVE,), "check C1")
    ours = valve.code("iso5211_flange")
    if ours == flange:
        return _result("C1", True, f"valve {valve.sku} top flange {ours} matches the "
                       f"existing actuator flange {flange}.", valve.sku)
    return _result("C1", False, f"valve {valve.sku} top flange {ours} does not match the "
                   f"existing actuator flange {flange}; choose a valve with an {flange} top "
                   "flange or quote a new actuator.", valve.sku)


def c2_torque_margin(valve: Variant, actuator: Variant) -> RuleResult:
    """C2: actuator output torque >= 1.25 x the valve's breakaway torque."""
    _require(valve, (Family.BALL_VALVE,), "check C2")
    _require(actuator, (Family.ACTUATOR,), "check C2")
    breakaway = valve.number("breakaway_torque")
    output = actuator.number("output_torque")
    needed = TORQUE_SAFETY_FACTOR * breakaway
    sizing = (f"{TORQUE_SAFETY_FACTOR} x breakaway torque {breakaway:g} Nm of valve "
              f"{valve.sku} = {needed:g} Nm")
    if torque_fits(valve, actuator):
        return _result("C2", True, f"actuator {actuator.sku} output torque {output:g} Nm is "
                       f"at least {sizing}.", valve.sku, actuator.sku)
    return _result("C2", False, f"actuator {actuator.sku} output torque {output:g} Nm is "
                   f"below {sizing}; choose an actuator with at least {needed:g} Nm.",
                   valve.sku, actuator.sku)


def _next_pn(pressure_bar: float) -> str:
    for pn in STANDARD_PN:
        if pn + _EPS >= pressure_bar:
            return f"choose PN {pn} or higher"
    return f"no standard PN reaches it (max PN {STANDARD_PN[-1]}); ask the technical owner"


def c3_pressure_rating(variant: Variant, operating: OperatingFacts) -> RuleResult:
    """C3: the PN rating (valve or gasket kit) is at least the design pressure, in bar."""
    _require(variant, (Family.BALL_VALVE, Family.GASKET_KIT), "check C3")
    pn = variant.number("pn")
    design = operating.design_pressure_bar
    stated = (f"design pressure {design:.1f} bar"
              + _given(operating.design_pressure, operating.pressure_unit, Unit.BAR))
    if _pn_holds(pn, design):
        return _result("C3", True, f"PN {pn:g} bar of {variant.sku} is at least {stated}.",
                       variant.sku)
    return _result("C3", False, f"PN {pn:g} bar of {variant.sku} is below {stated}; "
                   f"{_next_pn(design)}.", variant.sku)


def c4_seat_temperature(valve: Variant, operating: OperatingFacts) -> RuleResult:
    """C4: the medium temperature is within the seat's limit (``seat_max_temp``), in C."""
    _require(valve, (Family.BALL_VALVE,), "check C4")
    seat = valve.code("seat")
    limit = valve.number("seat_max_temp")
    medium = operating.medium_temperature_c
    stated = (f"medium temperature {medium:.1f} C"
              + _given(operating.medium_temperature, operating.temperature_unit, Unit.CELSIUS))
    if _seat_holds(medium, limit):
        return _result("C4", True, f"{stated} is within the {seat} seat limit {limit:g} C "
                       f"of {valve.sku}.", valve.sku)
    advice = ("choose a PEEK seat (up to 250 C)" if seat == Seat.PTFE
              else "no catalogue seat covers it; ask the technical owner")
    return _result("C4", False, f"{stated} exceeds the {seat} seat limit {limit:g} C of "
                   f"{valve.sku}; {advice}.", valve.sku)


def c5_end_connection(variant: Variant, installation: InstallationFacts) -> RuleResult:
    """C5: the valve's end connection is the piping standard; gaskets need flanges."""
    _require(variant, (Family.BALL_VALVE, Family.GASKET_KIT), "check C5")
    piping = installation.piping_standard.value
    if variant.family is Family.GASKET_KIT:
        if _c5_holds(variant, piping):
            return _result("C5", True, f"gasket kit {variant.sku} fits the {piping} flanged "
                           "piping.", variant.sku)
        return _result("C5", False, f"gasket kit {variant.sku} needs flanged EN1092-1 piping "
                       f"but the piping standard is {piping}; threaded joints take no "
                       "gasket kit, remove it.", variant.sku)
    end = variant.code("end_connection")
    if _c5_holds(variant, piping):
        return _result("C5", True, f"end connection {end} of {variant.sku} matches the "
                       f"piping standard {piping}.", variant.sku)
    threads = (" (NPT and BSPP threads do not mate)"
               if {end, piping} == {EndConnection.NPT, EndConnection.BSPP} else "")
    return _result("C5", False, f"end connection {end} of {variant.sku} does not match the "
                   f"piping standard {piping}{threads}; choose a {piping} valve.", variant.sku)


def c6_chlorides(variant: Variant, operating: OperatingFacts) -> RuleResult:
    """C6: with chlorides, a valve body must be 316 and a gasket chloride-safe."""
    _require(variant, (Family.BALL_VALVE, Family.GASKET_KIT), "check C6")
    valve = variant.family is Family.BALL_VALVE
    name = "body_material" if valve else "material"
    material = variant.code(name)
    label = "body" if valve else "gasket material"
    if not operating.chlorides:
        return _result("C6", True, f"the medium {operating.medium!r} has no chlorides, so "
                       f"{label} {material} of {variant.sku} is acceptable.", variant.sku)
    if _c6_holds(variant, chlorides=True):
        return _result("C6", True, f"the medium {operating.medium!r} contains chlorides and "
                       f"{label} {material} of {variant.sku} resists them.", variant.sku)
    advice = ("chlorides need a 316 stainless body" if valve
              else "chlorides need PTFE or EPDM (graphite pits stainless flange faces)")
    return _result("C6", False, f"the medium {operating.medium!r} contains chlorides and "
                   f"{label} of {variant.sku} is {material}; {advice}.", variant.sku)


def required_certificate(
    installation: InstallationFacts, requirement: Requirement | None = None
) -> tuple[CertificateGrade | None, str]:
    """The strongest EN 10204 grade asked for, and who asked (``""`` if none)."""
    asked: list[tuple[CertificateGrade, str]] = []
    if installation.certificate_required is not None:
        asked.append((installation.certificate_required, "the installation"))
    if requirement is not None and requirement.certificate is not None:
        asked.append((requirement.certificate, "the buyer"))
    if not asked:
        return None, ""
    strongest = max(asked, key=lambda pair: _GRADE_RANK[pair[0]])[0]
    who = " and ".join(source for grade, source in asked if grade is strongest)
    return strongest, who


def c7_certificate(
    valve: Variant, installation: InstallationFacts, requirement: Requirement | None = None
) -> RuleResult:
    """C7: a required EN 10204 certificate is offered; 3.1 also meets a 2.1 requirement."""
    _require(valve, (Family.BALL_VALVE,), "check C7")
    offered = CertificateGrade(valve.code("certificate"))
    needed, who = required_certificate(installation, requirement)
    if needed is None:
        return _result("C7", True, f"no EN 10204 certificate is required; {valve.sku} offers "
                       f"{offered.value}.", valve.sku)
    if _c7_holds(valve, needed):
        return _result("C7", True, f"EN 10204 {needed.value} is required by {who} and "
                       f"{valve.sku} offers {offered.value}.", valve.sku)
    return _result("C7", False, f"EN 10204 {needed.value} is required by {who} but "
                   f"{valve.sku} offers only {offered.value}; choose a valve offering "
                   f"{needed.value}.", valve.sku)


def dn_match(variant: Variant, requirement: Requirement) -> RuleResult:
    """DN check: the variant's nominal size is the one asked for."""
    _require(variant, (Family.BALL_VALVE, Family.GASKET_KIT), "check DN")
    dn = variant.number("dn")
    if _dn_holds(dn, requirement.dn):
        return _result("DN", True, f"{variant.sku} is DN {dn:g} as asked.", variant.sku)
    return _result("DN", False, f"{variant.sku} is DN {dn:g} but DN {requirement.dn} was "
                   f"asked; choose a DN {requirement.dn} variant.", variant.sku)


# -- the rules' conditions, shared by the rules above and by the verdicts without sentences


def _pn_holds(pn_bar: float, design_bar: float) -> bool:
    return pn_bar + _EPS >= design_bar


def _seat_holds(medium_c: float, limit_c: float) -> bool:
    return medium_c <= limit_c + _EPS


def _dn_holds(dn: float, wanted: int) -> bool:
    return abs(dn - wanted) < _EPS


def _c5_holds(variant: Variant, piping: str) -> bool:
    if variant.family is Family.GASKET_KIT:
        return piping == EndConnection.FLANGED
    return variant.code("end_connection") == piping


def _c6_holds(variant: Variant, *, chlorides: bool) -> bool:
    if not chlorides:
        return True
    if variant.family is Family.BALL_VALVE:
        return variant.code("body_material") == BodyMaterial.SS316
    return variant.code("material") in CHLORIDE_SAFE_GASKETS


def _c7_holds(valve: Variant, needed: CertificateGrade | None) -> bool:
    offered = CertificateGrade(valve.code("certificate"))
    return needed is None or _GRADE_RANK[offered] >= _GRADE_RANK[needed]


def valve_fits(valve: Variant, truths: SiteTruths, requirement: Requirement) -> bool:
    """Whether every rule :func:`check_valve` applies passes, without writing the
    sentences: what the acceptable-set oracle asks of every valve of a DN."""
    operating, installation = truths.operating, truths.installation
    flange = installation.actuator_flange
    return (_c5_holds(valve, installation.piping_standard.value)  # the most selective first
            and (flange is None or requirement.with_actuator
                 or valve.code("iso5211_flange") == flange.value)
            and _c6_holds(valve, chlorides=operating.chlorides)
            and _dn_holds(valve.number("dn"), requirement.dn)
            and _pn_holds(valve.number("pn"), operating.design_pressure_bar)
            and _seat_holds(operating.medium_temperature_c, valve.number("seat_max_temp"))
            and _c7_holds(valve, required_certificate(installation, requirement)[0]))


def gasket_fits(gasket: Variant, truths: SiteTruths, requirement: Requirement) -> bool:
    """Whether every rule :func:`check_gasket` applies passes, without the sentences."""
    return (_dn_holds(gasket.number("dn"), requirement.dn)
            and _pn_holds(gasket.number("pn"), truths.operating.design_pressure_bar)
            and _c5_holds(gasket, truths.installation.piping_standard.value)
            and _c6_holds(gasket, chlorides=truths.operating.chlorides))


def check_valve(
    valve: Variant, truths: SiteTruths, requirement: Requirement
) -> list[RuleResult]:
    """DN and C3-C7 for a ball valve at this site, plus C1 against an existing actuator.

    C1 is included when the installation names an existing actuator flange and the
    requirement does not ask for a new actuator (the valve must mate with the old one).
    """
    _require(valve, (Family.BALL_VALVE,), "check a valve")
    operating, installation = truths.operating, truths.installation
    results = [
        dn_match(valve, requirement),
        c3_pressure_rating(valve, operating),
        c4_seat_temperature(valve, operating),
        c5_end_connection(valve, installation),
        c6_chlorides(valve, operating),
        c7_certificate(valve, installation, requirement),
    ]
    if installation.actuator_flange is not None and not requirement.with_actuator:
        results.insert(1, c1_mounting_flange(valve, installation.actuator_flange.value))
    return results


def check_actuator(valve: Variant, actuator: Variant) -> list[RuleResult]:
    """C1 and C2 for an actuator mounted on a valve."""
    return [c1_flange_match(valve, actuator), c2_torque_margin(valve, actuator)]


def check_gasket(
    gasket: Variant, truths: SiteTruths, requirement: Requirement
) -> list[RuleResult]:
    """DN, C3 (PN), C5 (flanged piping) and C6 (chloride-safe material) for a gasket kit."""
    _require(gasket, (Family.GASKET_KIT,), "check a gasket kit")
    return [
        dn_match(gasket, requirement),
        c3_pressure_rating(gasket, truths.operating),
        c5_end_connection(gasket, truths.installation),
        c6_chlorides(gasket, truths.operating),
    ]


def check_fit(
    catalogue: Catalogue,
    skus: Iterable[str],
    requirement: Requirement,
    truths: SiteTruths,
) -> list[RuleResult]:
    """Every applicable rule for a set of quoted SKUs (a quote's lines).

    Valves get :func:`check_valve`, gasket kits :func:`check_gasket`, and every
    actuator is checked (C1, C2) against every valve in ``skus``.

    Raises:
        UnknownSkuError: a SKU is not in the catalogue.
    """
    variants = [catalogue.variant(sku) for sku in dict.fromkeys(skus)]
    valves = [v for v in variants if v.family is Family.BALL_VALVE]
    results: list[RuleResult] = []
    for variant in variants:
        if variant.family is Family.BALL_VALVE:
            results.extend(check_valve(variant, truths, requirement))
        elif variant.family is Family.GASKET_KIT:
            results.extend(check_gasket(variant, truths, requirement))
        else:
            for valve in valves:
                results.extend(check_actuator(valve, variant))
    return results
