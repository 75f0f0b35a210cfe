"""The acceptable set on the hand-built catalogue, worked out by hand (see sample.py)."""

from __future__ import annotations

from remit.catalogue import (
    CertificateGrade,
    EndConnection,
    Family,
    Iso5211Flange,
    Requirement,
    Unit,
    acceptable_pairs,
    acceptable_skus,
    check_actuator,
    check_valve,
)
from tests.catalogue.sample import site, small_catalogue

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
