"""Substitution rules S1-S3 on the hand-built catalogue."""

from __future__ import annotations

import pytest

from remit.catalogue import (
    CertificateGrade,
    Requirement,
    SubstitutionError,
    Unit,
    WrongFamilyError,
    assemble,
    s1_supersession,
    s2_fff,
    s3_confirmations,
)
from remit.catalogue.units import convert
from tests.catalogue.sample import site, small_catalogue, valve

CATALOGUE = small_catalogue()
DN50 = Requirement(dn=50, quantity=4)


def test_s1_passes_forward_to_the_current_successor() -> None:
    result = s1_supersession(CATALOGUE, "BV-OLD", "BV-B")
    assert result.passed
    assert result.reason == ("S1 passes: BV-B supersedes BV-OLD forward along the chain "
                             "BV-OLD -> BV-MID -> BV-B.")


def test_s1_passes_to_an_intermediate_successor_and_names_the_current_one() -> None:
    result = s1_supersession(CATALOGUE, "BV-OLD", "BV-MID")
    assert result.passed
    assert "(its current successor is BV-B)" in result.reason


def test_s1_fails_backward() -> None:
    result = s1_supersession(CATALOGUE, "BV-B", "BV-OLD")
    assert not result.passed
    assert result.rule == "S1"
    assert result.reason == (
        "S1 fails: BV-OLD is a predecessor of BV-B (chain BV-OLD -> BV-MID -> BV-B); "
        "supersession runs forward only, quote BV-B instead.")


def test_s1_fails_for_an_unrelated_sku() -> None:
    result = s1_supersession(CATALOGUE, "BV-OLD", "BV-F")
    assert not result.passed
    assert "S1 fails: BV-F is not on the supersession chain of BV-OLD (BV-OLD -> BV-MID -> " \
           "BV-B); quote BV-B, or treat it as an FFF substitution" in result.reason


def test_s2_passes_for_a_class_member_that_fits_the_site() -> None:
    result = s2_fff(CATALOGUE, "BV-B", "BV-C", DN50, site(chlorides=False))
    assert result.passed
    assert result.reason == ("S2 passes: BV-C is in FFF class FFF-1 with BV-B (leading BV-B) "
                             "and passes DN, C3, C4, C5, C6, C7 for this site.")


def test_s2_fails_when_the_class_member_fails_a_fit_rule() -> None:
    result = s2_fff(CATALOGUE, "BV-B", "BV-C", DN50, site(chlorides=True))
    assert not result.passed
    assert result.reason.startswith("S2 fails: FFF substitute BV-C (class FFF-1) fails C6 for "
                                    "this site: C6 fails: the medium 'brine' contains chlorides")


def test_s2_fails_outside_the_fff_class_even_if_it_fits() -> None:
    result = s2_fff(CATALOGUE, "BV-B", "BV-A", DN50, site())
    assert not result.passed
    assert "S2 fails: BV-A is not form-fit-function interchangeable with BV-B (FFF class " \
           "of BV-B: FFF-1; of BV-A: none)" in result.reason


def test_s2_actuator_substitute_needs_its_valve() -> None:
    with pytest.raises(SubstitutionError, match=r"original='AC-EXACT'.*pass valve_sku="):
        s2_fff(CATALOGUE, "AC-EXACT", "AC-LOW", DN50, site())


def test_s2_refuses_a_cross_family_substitution() -> None:
    with pytest.raises(WrongFamilyError, match=r"sku='AC-LOW'.*needs ball_valve"):
        s2_fff(CATALOGUE, "BV-B", "AC-LOW", DN50, site())


def test_s2_counts_the_buyer_certificate_request() -> None:
    wants_3_1 = Requirement(dn=50, quantity=1, certificate=CertificateGrade.TYPE_3_1)
    assert s2_fff(CATALOGUE, "BV-B", "BV-B2", wants_3_1, site()).passed


def test_s3_passes_for_an_identical_substitute() -> None:
    review = s3_confirmations(CATALOGUE, "BV-B", "BV-B2")
    assert review.changed == ()
    assert not review.needs_buyer_confirmation
    assert not review.needs_technical_approval
    assert review.result.passed
    assert review.result.reason == ("S3 passes: BV-B2 has the same form, fit and function "
                                    "facts as BV-B; no confirmation is needed.")


def test_s3_a_changed_fit_fact_needs_the_buyer() -> None:
    review = s3_confirmations(CATALOGUE, "BV-B", "BV-C")
    assert review.changed == ("body_material",)
    assert review.buyer_facts == ("body_material",)
    assert review.needs_buyer_confirmation
    assert not review.needs_technical_approval
    assert not review.result.passed
    assert review.result.reason == ("S3 fails: substituting BV-C for BV-B changes "
                                    "body_material 316 -> WCB; the buyer must confirm "
                                    "body_material.")


def test_s3_a_form_difference_needs_the_technical_owner_and_fit_facts_the_buyer() -> None:
    review = s3_confirmations(CATALOGUE, "BV-B", "BV-E")
    assert review.changed == ("breakaway_torque", "certificate", "iso5211_flange")
    assert review.buyer_facts == ("certificate",)
    assert review.technical_facts == ("breakaway_torque", "iso5211_flange")
    assert review.needs_buyer_confirmation
    assert review.needs_technical_approval
    assert "breakaway_torque 40 Nm -> 80 Nm, certificate 3.1 -> 2.1, iso5211_flange F07 -> " \
           "F10; the buyer must confirm certificate and the technical owner must approve " \
           "breakaway_torque, iso5211_flange." in review.result.reason


def test_s3_face_to_face_and_dn_are_technical() -> None:
    review = s3_confirmations(CATALOGUE, "BV-B", "BV-25")
    assert review.technical_facts == ("dn",)
    flanged = s3_confirmations(CATALOGUE, "BV-B", "BV-F")
    assert flanged.buyer_facts == ("end_connection",)
    assert flanged.technical_facts == ("face_to_face",)


def test_s3_compares_after_unit_normalisation() -> None:
    """The same PN recorded in psi is not a change."""
    in_psi = valve("BV-PSI").model_copy(deep=True)
    pn = in_psi.attributes["pn"].model_copy(
        update={"value": convert(40.0, Unit.BAR, Unit.PSI), "unit": Unit.PSI})
    in_psi = in_psi.model_copy(update={"attributes": {**in_psi.attributes, "pn": pn}})
    catalogue = assemble([valve("BV-BAR"), in_psi])
    assert s3_confirmations(catalogue, "BV-BAR", "BV-PSI").changed == ()
