"""The acceptable set on the hand-built catalogue, worked out by hand (see sample.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from remit.catalogue import (
    Catalogue,
    CertificateGrade,
    EndConnection,
    Family,
    Iso5211Flange,
    Requirement,
    SiteTruths,
    Unit,
    Variant,
    acceptable_pairs,
    acceptable_skus,
    check_actuator,
    check_gasket,
    check_valve,
    convert,
    generate_catalogue,
)
from tests.catalogue.sample import site, small_catalogue
from tests.catalogue.strategies import (
    DETERMINISTIC,
    pressure_units,
    temperature_units,
)

CATALOGUE = small_catalogue()

# 290.1 psi = 20.0 bar, 392 F = 200 C, brine, NPT, 3.1 demanded by the site.
HARSH = site(pressure=290.1, pressure_unit=Unit.PSI, temperature=392.0,
             temperature_unit=Unit.FAHRENHEIT, chlorides=True, piping=EndConnection.NPT,
             certificate=CertificateGrade.TYPE_3_1)


def test_harsh_npt_site_with_actuator() -> None:
    """By hand: BV-A fails C3 (PN 16 < 20) and C4 (PTFE 180 < 200); BV-C fails C6 (WCB);
    BV-D fails C5 (BSPP); BV-E fails C7 (2.1 only); BV-F fails C5 (flanged); BV-OLD and
    BV-MID are superseded, BV-DISC discontinued, BV-25 the wrong DN. Left: BV-B, BV-B2.
    Their F07 flange and 40 Nm breakaway need an F07 actuator of >= 50 Nm: AC-EXACT
    (50 Nm) passes, AC-LOW (49.5 Nm) fails C2, AC-F10 fails C1, AC-DISC is discontinued.
    Threaded piping takes no gasket kit.
    """
    requirement = Requirement(dn=50, quantity=4, with_actuator=True)
    assert acceptable_skus(CATALOGUE, requirement, HARSH) == {"BV-B", "BV-B2", "AC-EXACT"}
    assert acceptable_pairs(CATALOGUE, requirement, HARSH) == {
        ("BV-B", "AC-EXACT"), ("BV-B2", "AC-EXACT")}


def test_superseded_and_discontinued_are_excluded_even_when_they_fit() -> None:
    requirement = Requirement(dn=50, quantity=1, requested_sku="BV-OLD")
    old_fits = all(r.passed for r in check_valve(CATALOGUE.variant("BV-OLD"), HARSH,
                                                  requirement))
    disc_fits = all(r.passed for r in check_valve(CATALOGUE.variant("BV-DISC"), HARSH,
                                                   requirement))
    assert old_fits
    assert disc_fits
    accepted = acceptable_skus(CATALOGUE, requirement, HARSH)
    assert {"BV-OLD", "BV-MID", "BV-DISC"}.isdisjoint(accepted)
    assert CATALOGUE.current_successor("BV-OLD") in accepted


def test_discontinued_actuator_is_excluded_even_when_it_fits() -> None:
    assert all(r.passed for r in check_actuator(CATALOGUE.variant("BV-B"),
                                                CATALOGUE.variant("AC-DISC")))
    requirement = Requirement(dn=50, quantity=1, with_actuator=True)
    assert "AC-DISC" not in acceptable_skus(CATALOGUE, requirement, HARSH)


def test_without_actuator_no_actuator_is_acceptable() -> None:
    requirement = Requirement(dn=50, quantity=4)
    assert acceptable_skus(CATALOGUE, requirement, HARSH) == {"BV-B", "BV-B2"}
    assert acceptable_pairs(CATALOGUE, requirement, HARSH) == frozenset()


def test_flanged_site_takes_chloride_safe_gasket_kits_of_the_dn() -> None:
    """By hand: only BV-F is flanged. GK-1 (PN 40 PTFE) and GK-2 (PN 16 >= 10, EPDM)
    pass; GK-3 is graphite in brine (C6); GK-4 is DN 25."""
    brine = site(pressure=10.0, chlorides=True, piping=EndConnection.FLANGED)
    requirement = Requirement(dn=50, quantity=2)
    assert acceptable_skus(CATALOGUE, requirement, brine) == {"BV-F", "GK-1", "GK-2"}
    water = site(pressure=10.0, chlorides=False, piping=EndConnection.FLANGED)
    assert acceptable_skus(CATALOGUE, requirement, water) == {"BV-F", "GK-1", "GK-2", "GK-3"}
    high = site(pressure=20.0, chlorides=False, piping=EndConnection.FLANGED)
    assert acceptable_skus(CATALOGUE, requirement, high) == {"BV-F", "GK-1", "GK-3"}


def test_existing_actuator_flange_restricts_valves_when_no_actuator_is_bought() -> None:
    """Mild NPT site keeping an F10 actuator: of the NPT DN 50 valves only BV-E is F10."""
    keeps_f10 = site(actuator_flange=Iso5211Flange.F10)
    requirement = Requirement(dn=50, quantity=1)
    assert acceptable_skus(CATALOGUE, requirement, keeps_f10) == {"BV-E"}
    mild = acceptable_skus(CATALOGUE, requirement, site())
    assert mild == {"BV-A", "BV-B", "BV-B2", "BV-C", "BV-E"}


def test_spare_actuator_and_gasket_kit_requirements() -> None:
    spare = Requirement(family=Family.ACTUATOR, dn=50, quantity=1)
    assert acceptable_skus(CATALOGUE, spare, site(actuator_flange=Iso5211Flange.F07)) == {
        "AC-EXACT", "AC-LOW"}
    gaskets = Requirement(family=Family.GASKET_KIT, dn=25, quantity=3)
    assert acceptable_skus(CATALOGUE, gaskets, site(piping=EndConnection.FLANGED)) == {"GK-4"}


# -- the acceptable set found through the indexes, kept per requirement and site ----------


def _reference_skus(catalogue: Catalogue, requirement: Requirement,
                    truths: SiteTruths) -> frozenset[str]:
    """The acceptable set by its definition: every active variant tested, every valve
    paired with every actuator (what acceptable_skus computed before it used indexes)."""
    def fits(variant: Variant) -> bool:
        if variant.family is Family.BALL_VALVE:
            return all(r.passed for r in check_valve(variant, truths, requirement))
        return all(r.passed for r in check_gasket(variant, truths, requirement))

    active = [v for v in catalogue.variants_of() if v.is_active]
    if requirement.family is Family.ACTUATOR:
        flange = truths.installation.actuator_flange
        return frozenset(v.sku for v in active if v.family is Family.ACTUATOR and (
            flange is None or v.code("iso5211_flange") == flange.value))
    valves = [v for v in active if v.family is Family.BALL_VALVE
              and requirement.family is Family.BALL_VALVE
              and v.number("dn") == requirement.dn and fits(v)]
    gaskets = [v for v in active if v.family is Family.GASKET_KIT
               and v.number("dn") == requirement.dn and fits(v)]
    accepted = {v.sku for v in [*valves, *gaskets]}
    if requirement.with_actuator and requirement.family is Family.BALL_VALVE:
        accepted.update(a.sku for v in valves for a in active if a.family is Family.ACTUATOR
                        and all(r.passed for r in check_actuator(v, a)))
    return frozenset(accepted)


_GENERATED = {size: generate_catalogue(3, size) for size in (None, 400)}
_SERVICE_BAR = st.floats(min_value=1.0, max_value=45.0)
"""Design pressures most generated valves can take, so that acceptable sets are not
mostly empty."""
_SERVICE_C = st.floats(min_value=-20.0, max_value=240.0)


@DETERMINISTIC
@given(size=st.sampled_from([None, 400]),
       family=st.sampled_from(Family), dn=st.sampled_from([15, 25, 40, 50, 80, 100]),
       with_actuator=st.booleans(),
       certificate=st.one_of(st.none(), st.sampled_from(CertificateGrade)),
       pressure=_SERVICE_BAR, pressure_unit=pressure_units,
       temperature=_SERVICE_C, temperature_unit=temperature_units,
       chlorides=st.booleans(), piping=st.sampled_from(EndConnection),
       actuator_flange=st.one_of(st.none(), st.sampled_from(Iso5211Flange)),
       site_certificate=st.one_of(st.none(), st.sampled_from(CertificateGrade)))
def test_acceptable_skus_is_its_definition(
    *, size: int | None, family: Family, dn: int, with_actuator: bool,
    certificate: CertificateGrade | None, pressure: float, pressure_unit: Unit,
    temperature: float, temperature_unit: Unit, chlorides: bool, piping: EndConnection,
    actuator_flange: Iso5211Flange | None, site_certificate: CertificateGrade | None,
) -> None:
    catalogue = _GENERATED[size]
    requirement = Requirement(family=family, dn=dn, quantity=1, with_actuator=with_actuator,
                              certificate=certificate)
    truths = site(pressure=convert(pressure, Unit.BAR, pressure_unit),
                  pressure_unit=pressure_unit,
                  temperature=convert(temperature, Unit.CELSIUS, temperature_unit),
                  temperature_unit=temperature_unit, chlorides=chlorides, piping=piping,
                  actuator_flange=actuator_flange, certificate=site_certificate)
    expected = _reference_skus(catalogue, requirement, truths)
    assert acceptable_skus(catalogue, requirement, truths) == expected
    assert acceptable_skus(catalogue, requirement, truths) == expected  # kept, same answer
    pairs = acceptable_pairs(catalogue, requirement, truths)
    if with_actuator and family is Family.BALL_VALVE:
        assert {actuator for _, actuator in pairs} == {
            sku for sku in expected if catalogue.variant(sku).family is Family.ACTUATOR}
    else:
        assert pairs == frozenset()


def test_the_acceptable_set_is_kept_per_requirement_and_site() -> None:
    """Asked again with equal (not identical) inputs, the catalogue answers with the set
    it kept; another site gets its own."""
    catalogue = small_catalogue()
    first = acceptable_skus(catalogue, Requirement(dn=50, quantity=4), site())
    again = acceptable_skus(catalogue, Requirement(dn=50, quantity=4), site())
    assert again is first
    other = acceptable_skus(catalogue, Requirement(dn=50, quantity=4), HARSH)
    assert other == {"BV-B", "BV-B2"}
    assert other != first
