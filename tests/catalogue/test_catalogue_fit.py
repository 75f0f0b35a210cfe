"""Fit rules C1-C7: each passes and fails with a sentence naming the values."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from remit.catalogue import (
    CertificateGrade,
    EndConnection,
    Family,
    Iso5211Flange,
    Requirement,
    RuleResult,
    Unit,
    WrongFamilyError,
    c1_flange_match,
    c1_mounting_flange,
    c2_torque_margin,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
    check_actuator,
    check_fit,
    check_gasket,
    check_valve,
    convert,
    dn_match,
    gasket_fits,
    generate_catalogue,
    required_certificate,
    valve_fits,
)
from tests.catalogue.sample import site, small_catalogue
from tests.catalogue.strategies import DETERMINISTIC, pressure_units, temperature_units

CATALOGUE = small_catalogue()
V = CATALOGUE.variant


def _assert(result: RuleResult, rule: str, passed: bool, pattern: str) -> None:
    assert result.rule == rule
    assert result.passed is passed
    verdict = "passes" if passed else "fails"
    assert result.reason.startswith(f"{rule} {verdict}: ")
    assert re.search(pattern, result.reason), result.reason


def test_c1_passes_when_flanges_match() -> None:
    _assert(c1_flange_match(V("BV-B"), V("AC-EXACT")), "C1", True,
            r"actuator AC-EXACT flange F07 matches the F07 top flange of valve BV-B")


def test_c1_fails_when_flanges_differ_and_says_which_flange_to_choose() -> None:
    result = c1_flange_match(V("BV-B"), V("AC-F10"))
    _assert(result, "C1", False, r"flange F10 does not match the F07 top flange of valve "
            r"BV-B; choose an actuator with an F07 flange")
    assert result.skus == ("BV-B", "AC-F10")


def test_c1_against_existing_actuator_flange() -> None:
    _assert(c1_mounting_flange(V("BV-E"), "F10"), "C1", True,
            r"top flange F10 matches the existing actuator flange F10")
    _assert(c1_mounting_flange(V("BV-B"), "F10"), "C1", False,
            r"top flange F07 does not match the existing actuator flange F10")


def test_c2_passes_exactly_at_the_boundary() -> None:
    """50 Nm is exactly 1.25 x 40 Nm: the rule is >=, so it passes."""
    _assert(c2_torque_margin(V("BV-B"), V("AC-EXACT")), "C2", True,
            r"output torque 50 Nm is at least 1.25 x breakaway torque 40 Nm of valve "
            r"BV-B = 50 Nm")


def test_c2_fails_just_below_the_boundary() -> None:
    _assert(c2_torque_margin(V("BV-B"), V("AC-LOW")), "C2", False,
            r"output torque 49.5 Nm is below 1.25 x breakaway torque 40 Nm .* choose an "
            r"actuator with at least 50 Nm")


def test_c3_passes_when_pn_covers_design_pressure() -> None:
    operating = site(pressure=232.0, pressure_unit=Unit.PSI).operating
    _assert(c3_pressure_rating(V("BV-B"), operating), "C3", True,
            r"PN 40 bar of BV-B is at least design pressure 16.0 bar \(232.0 psi as given\)")


def test_c3_fails_below_design_pressure_and_names_the_next_pn() -> None:
    operating = site(pressure=290.1, pressure_unit=Unit.PSI).operating
    _assert(c3_pressure_rating(V("BV-A"), operating), "C3", False,
            r"PN 16 bar of BV-A is below design pressure 20.0 bar \(290.1 psi as given\); "
            r"choose PN 25 or higher")


def test_c3_applies_to_gasket_kits_and_reports_out_of_range_pressure() -> None:
    _assert(c3_pressure_rating(V("GK-2"), site(pressure=2.0, pressure_unit=Unit.MPA).operating),
            "C3", False, r"PN 16 bar of GK-2 is below design pressure 20.0 bar "
            r"\(2.0 MPa as given\)")
    _assert(c3_pressure_rating(V("GK-1"), site(pressure=120.0).operating), "C3", False,
            r"no standard PN reaches it")


def test_c4_passes_within_the_seat_limit() -> None:
    operating = site(temperature=392.0, temperature_unit=Unit.FAHRENHEIT).operating
    _assert(c4_seat_temperature(V("BV-B"), operating), "C4", True,
            r"medium temperature 200.0 C \(392.0 F as given\) is within the PEEK seat limit "
            r"250 C of BV-B")


def test_c4_fails_above_the_ptfe_limit_and_suggests_peek() -> None:
    operating = site(temperature=392.0, temperature_unit=Unit.FAHRENHEIT).operating
    _assert(c4_seat_temperature(V("BV-A"), operating), "C4", False,
            r"200.0 C \(392.0 F as given\) exceeds the PTFE seat limit 180 C of BV-A; "
            r"choose a PEEK seat")


def test_c4_boundary_is_inclusive() -> None:
    assert c4_seat_temperature(V("BV-A"), site(temperature=180.0).operating).passed
    assert not c4_seat_temperature(V("BV-A"), site(temperature=180.5).operating).passed


def test_c5_passes_on_matching_thread() -> None:
    _assert(c5_end_connection(V("BV-B"), site(piping=EndConnection.NPT).installation), "C5",
            True, r"end connection NPT of BV-B matches the piping standard NPT")


def test_c5_fails_npt_into_bspp() -> None:
    _assert(c5_end_connection(V("BV-B"), site(piping=EndConnection.BSPP).installation), "C5",
            False, r"end connection NPT of BV-B does not match the piping standard BSPP "
            r"\(NPT and BSPP threads do not mate\); choose a BSPP valve")


def test_c5_gasket_kits_only_for_flanged_piping() -> None:
    flanged = site(piping=EndConnection.FLANGED).installation
    threaded = site(piping=EndConnection.BSPP).installation
    _assert(c5_end_connection(V("GK-1"), flanged), "C5", True, r"fits the EN1092-1 flanged")
    _assert(c5_end_connection(V("GK-1"), threaded), "C5", False,
            r"needs flanged EN1092-1 piping but the piping standard is BSPP")


def test_c6_passes_without_chlorides_for_any_body() -> None:
    _assert(c6_chlorides(V("BV-C"), site(chlorides=False).operating), "C6", True,
            r"the medium 'water' has no chlorides, so body WCB of BV-C is acceptable")


def test_c6_passes_with_chlorides_on_316() -> None:
    _assert(c6_chlorides(V("BV-B"), site(chlorides=True).operating), "C6", True,
            r"contains chlorides and body 316 of BV-B resists them")


def test_c6_fails_with_chlorides_on_wcb() -> None:
    _assert(c6_chlorides(V("BV-C"), site(chlorides=True).operating), "C6", False,
            r"the medium 'brine' contains chlorides and body of BV-C is WCB; chlorides need "
            r"a 316 stainless body")


def test_c6_gasket_material_in_chloride_service() -> None:
    brine = site(chlorides=True).operating
    _assert(c6_chlorides(V("GK-3"), brine), "C6", False,
            r"gasket material of GK-3 is graphite_316; chlorides need PTFE or EPDM")
    _assert(c6_chlorides(V("GK-2"), brine), "C6", True, r"gasket material EPDM of GK-2")


def test_c7_passes_when_3_1_required_and_offered() -> None:
    installation = site(certificate=CertificateGrade.TYPE_3_1).installation
    _assert(c7_certificate(V("BV-B"), installation), "C7", True,
            r"EN 10204 3.1 is required by the installation and BV-B offers 3.1")


def test_c7_fails_when_3_1_required_but_only_2_1_offered() -> None:
    installation = site(certificate=CertificateGrade.TYPE_3_1).installation
    _assert(c7_certificate(V("BV-E"), installation), "C7", False,
            r"EN 10204 3.1 is required by the installation but BV-E offers only 2.1; "
            r"choose a valve offering 3.1")


def test_c7_buyer_request_counts_and_3_1_meets_2_1() -> None:
    none_required = site().installation
    buyer_asks = Requirement(dn=50, quantity=1, certificate=CertificateGrade.TYPE_3_1)
    _assert(c7_certificate(V("BV-E"), none_required, buyer_asks), "C7", False,
            r"3.1 is required by the buyer but BV-E offers only 2.1")
    _assert(c7_certificate(V("BV-E"), none_required), "C7", True,
            r"no EN 10204 certificate is required")
    two_one = site(certificate=CertificateGrade.TYPE_2_1).installation
    _assert(c7_certificate(V("BV-B"), two_one), "C7", True, r"2.1 is required by the "
            r"installation and BV-B offers 3.1")
    both = site(certificate=CertificateGrade.TYPE_3_1).installation
    assert required_certificate(both, buyer_asks) == (
        CertificateGrade.TYPE_3_1, "the installation and the buyer")


def test_dn_check() -> None:
    requirement = Requirement(dn=50, quantity=1)
    _assert(dn_match(V("BV-B"), requirement), "DN", True, r"BV-B is DN 50 as asked")
    _assert(dn_match(V("BV-25"), requirement), "DN", False,
            r"BV-25 is DN 25 but DN 50 was asked; choose a DN 50 variant")


def test_check_valve_runs_dn_and_c3_to_c7_and_c1_for_an_existing_actuator() -> None:
    requirement = Requirement(dn=50, quantity=1)
    plain = check_valve(V("BV-B"), site(), requirement)
    assert [r.rule for r in plain] == ["DN", "C3", "C4", "C5", "C6", "C7"]
    assert all(r.passed for r in plain)
    keeps_actuator = check_valve(V("BV-B"), site(actuator_flange=Iso5211Flange.F10),
                                 requirement)
    assert [r.rule for r in keeps_actuator][:2] == ["DN", "C1"]
    assert not keeps_actuator[1].passed
    buys_actuator = Requirement(dn=50, quantity=1, with_actuator=True)
    with_new = check_valve(V("BV-B"), site(actuator_flange=Iso5211Flange.F10), buys_actuator)
    assert "C1" not in [r.rule for r in with_new]


def test_check_actuator_and_gasket() -> None:
    assert [(r.rule, r.passed) for r in check_actuator(V("BV-E"), V("AC-F10"))] == [
        ("C1", True), ("C2", True)]
    gasket = check_gasket(V("GK-3"), site(piping=EndConnection.FLANGED, chlorides=True),
                          Requirement(dn=50, quantity=1))
    assert [(r.rule, r.passed) for r in gasket] == [
        ("DN", True), ("C3", True), ("C5", True), ("C6", False)]


def test_check_fit_pairs_every_actuator_with_every_valve() -> None:
    results = check_fit(CATALOGUE, ["BV-B", "BV-E", "AC-F10", "GK-1"],
                        Requirement(dn=50, quantity=1, with_actuator=True),
                        site(piping=EndConnection.NPT))
    pairs = {(r.rule, r.skus, r.passed) for r in results if r.rule in {"C1", "C2"}}
    assert pairs == {
        ("C1", ("BV-B", "AC-F10"), False), ("C2", ("BV-B", "AC-F10"), True),
        ("C1", ("BV-E", "AC-F10"), True), ("C2", ("BV-E", "AC-F10"), True),
    }
    gasket = [r for r in results if r.skus == ("GK-1",) and r.rule == "C5"]
    assert [r.passed for r in gasket] == [False]


def test_rules_refuse_the_wrong_family() -> None:
    with pytest.raises(WrongFamilyError, match=r"cannot check C4 with sku='AC-F10': its "
                       r"family='actuator', but this needs ball_valve"):
        c4_seat_temperature(V("AC-F10"), site().operating)
    with pytest.raises(WrongFamilyError, match=r"sku='BV-B'.*needs actuator"):
        c1_flange_match(V("BV-E"), V("BV-B"))


# -- the verdicts without sentences agree with the rules ----------------------------------

_GENERATED = generate_catalogue(5, 300)


@DETERMINISTIC
@given(pressure=st.floats(min_value=1.0, max_value=45.0), pressure_unit=pressure_units,
       temperature=st.floats(min_value=-20.0, max_value=240.0),
       temperature_unit=temperature_units, chlorides=st.booleans(),
       piping=st.sampled_from(EndConnection),
       actuator_flange=st.one_of(st.none(), st.sampled_from(Iso5211Flange)),
       site_certificate=st.one_of(st.none(), st.sampled_from(CertificateGrade)),
       buyer_certificate=st.one_of(st.none(), st.sampled_from(CertificateGrade)),
       dn=st.sampled_from([15, 25, 50, 80]), with_actuator=st.booleans())
def test_valve_fits_and_gasket_fits_are_the_rules_verdicts(
    *, pressure: float, pressure_unit: Unit, temperature: float, temperature_unit: Unit,
    chlorides: bool, piping: EndConnection, actuator_flange: Iso5211Flange | None,
    site_certificate: CertificateGrade | None, buyer_certificate: CertificateGrade | None,
    dn: int, with_actuator: bool,
) -> None:
    truths = site(pressure=convert(pressure, Unit.BAR, pressure_unit),
                  pressure_unit=pressure_unit,
                  temperature=convert(temperature, Unit.CELSIUS, temperature_unit),
                  temperature_unit=temperature_unit, chlorides=chlorides, piping=piping,
                  actuator_flange=actuator_flange, certificate=site_certificate)
    requirement = Requirement(dn=dn, quantity=1, with_actuator=with_actuator,
                              certificate=buyer_certificate)
    for valve in _GENERATED.variants_of(Family.BALL_VALVE):
        expected = all(r.passed for r in check_valve(valve, truths, requirement))
        assert valve_fits(valve, truths, requirement) is expected
    for gasket in _GENERATED.variants_of(Family.GASKET_KIT):
        expected = all(r.passed for r in check_gasket(gasket, truths, requirement))
        assert gasket_fits(gasket, truths, requirement) is expected
