"""Fit claims are judged by the catalogue's own fit rules, on the site's facts with the
stated requirement in their place; a pass that rests on a draft record does not hold."""

from __future__ import annotations

from remit.catalogue import OperatingFacts, c3_pressure_rating
from remit.claims import fit_verdict
from tests.harness.corpus.sentences import site_truths
from tests.harness.scoring_worlds import catalogue

TRUJILLO = "BV-00008"   # PN16, NPT, PEEK seat to 250 C, WCB, 2.1 certificate, F05
PRATT_DRAFT_PN = "BV-00017"  # PN16 is a draft value


def test_a_failing_claim_gets_the_catalogue_rule_s_own_sentence() -> None:
    operating = OperatingFacts(design_pressure=20, pressure_unit="bar", medium_temperature=20,
                               temperature_unit="C", chlorides=False, medium="water")
    expected = c3_pressure_rating(catalogue().variant(TRUJILLO), operating).reason
    assert fit_verdict(catalogue(), TRUJILLO, "C3", 20.0, "bar") == expected


def test_a_stated_requirement_is_read_in_its_own_unit() -> None:
    assert fit_verdict(catalogue(), TRUJILLO, "C3", 200.0, "psi") is None      # 13.8 bar
    assert fit_verdict(catalogue(), TRUJILLO, "C3", 300.0, "psi") is not None  # 20.7 bar
    assert fit_verdict(catalogue(), TRUJILLO, "C4", 450.0, "°F") is None       # 232 C


def test_without_a_stated_requirement_the_site_s_fact_is_used() -> None:
    site = site_truths({"design_pressure": "25 bar", "certificate_required": "3.1"})
    assert "C3 fails" in (fit_verdict(catalogue(), TRUJILLO, "C3", truths=site) or "")
    assert "C7 fails" in (fit_verdict(catalogue(), TRUJILLO, "C7", truths=site) or "")
    assert fit_verdict(catalogue(), TRUJILLO, "C3") == "the design pressure is not known"


def test_a_pass_resting_on_a_draft_record_does_not_hold() -> None:
    reason = fit_verdict(catalogue(), PRATT_DRAFT_PN, "C3", 10.0, "bar")
    assert reason is not None
    assert reason.startswith("it rests on")


def test_a_piping_standard_no_valve_carries_matches_nothing() -> None:
    assert fit_verdict(catalogue(), TRUJILLO, "C5", "BSPT") == (
        "C5 fails: no end connection of BV-00008 matches BSPT")
    assert fit_verdict(catalogue(), TRUJILLO, "C5", "NPT") is None


def test_pairs_and_the_mirror_of_c1_for_an_actuator_on_installed_valves() -> None:
    assert fit_verdict(catalogue(), "AC-00001", "C1", with_sku=TRUJILLO) is None   # F05/F05
    assert fit_verdict(catalogue(), "AC-00001", "C2", with_sku=TRUJILLO) is None   # 17.5 >= 17.5
    assert "C2 fails" in (fit_verdict(catalogue(), "AC-00007", "C2", with_sku="BV-00013") or "")
    assert fit_verdict(catalogue(), "AC-00002", "C1", "F07") is None
    assert "does not match the F05 top flange" in (
        fit_verdict(catalogue(), "AC-00002", "C1", "F05") or "")


def test_a_claim_about_the_wrong_family_says_so() -> None:
    assert fit_verdict(catalogue(), "AC-00001", "C3", 10.0, "bar") == "AC-00001 carries no pn"
    assert fit_verdict(catalogue(), "BV-00099", "C3", 10.0, "bar") == (
        "no SKU 'BV-00099' in the catalogue")
