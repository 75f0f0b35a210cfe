"""Catalogue records: lookups with helpful errors, integrity checks, schema, search."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from remit.catalogue import (
    AttributeStatus,
    Catalogue,
    Constraint,
    ConstraintOp,
    EvidenceDocument,
    EvidenceKind,
    Family,
    FffClass,
    GovernedAttribute,
    Lifecycle,
    LifecycleStatus,
    Money,
    Unit,
    UnknownAttributeError,
    UnknownEvidenceError,
    Variant,
    actuator,
    assemble,
    evidence_for,
)
from remit.errors import UnknownSkuError
from tests.catalogue.sample import small_catalogue, valve

CATALOGUE = small_catalogue()


def test_unknown_sku_names_it_and_suggests_close_matches() -> None:
    with pytest.raises(UnknownSkuError, match=r"unknown SKU sku='BV-B3'; did you mean "
                       r"'BV-B', 'BV-B2'") as caught:
        CATALOGUE.variant("BV-B3")
    assert caught.value.sku == "BV-B3"


def test_unknown_sku_spelt_differently_suggests_the_superseded_sku_and_its_successor() -> None:
    with pytest.raises(UnknownSkuError, match=r"sku='bv old'; did you mean 'BV-OLD' "
                       r"\(superseded; current successor 'BV-B'\)\?"):
        CATALOGUE.variant("bv old")


def test_unknown_sku_without_close_match_points_to_search() -> None:
    with pytest.raises(UnknownSkuError, match=r"sku='ZZZZZZZZ'; no similar SKU in the "
                       r"catalogue; find candidates with Catalogue.search"):
        CATALOGUE.variant("ZZZZZZZZ")


def test_unknown_evidence_suggests_ids() -> None:
    with pytest.raises(UnknownEvidenceError, match=r"evidence_id='DS-BV-B-r9'; did you mean "
                       r"'DS-BV-B-r1'"):
        CATALOGUE.evidence("DS-BV-B-r9")
    assert CATALOGUE.evidence("CERT-BV-B-3.1").grade == "3.1"


def test_successor_chain_and_current_successor() -> None:
    assert CATALOGUE.successor_chain("BV-OLD") == ("BV-OLD", "BV-MID", "BV-B")
    assert CATALOGUE.successor_chain("BV-B") == ("BV-B",)
    assert CATALOGUE.current_successor("BV-MID") == "BV-B"
    assert CATALOGUE.current_successor("BV-DISC") == "BV-DISC"
    assert "BV-OLD" in CATALOGUE
    assert "BV-NOPE" not in CATALOGUE


def test_fff_class_of() -> None:
    fff = CATALOGUE.fff_class_of("BV-C")
    assert fff is not None
    assert fff.leading_sku == "BV-B"
    assert CATALOGUE.fff_class_of("BV-A") is None
    with pytest.raises(UnknownSkuError, match=r"sku='BV-Q'"):
        CATALOGUE.fff_class_of("BV-Q")


def test_search_by_equality_family_and_lifecycle() -> None:
    peek_bspp = CATALOGUE.search(Family.BALL_VALVE, seat="PEEK", end_connection="BSPP")
    assert [v.sku for v in peek_bspp] == ["BV-D"]
    everything_f07 = CATALOGUE.search(iso5211_flange="F07")
    assert {"AC-EXACT", "BV-OLD"} <= {v.sku for v in everything_f07}
    active = CATALOGUE.search(iso5211_flange="F07", active_only=True)
    assert {"BV-OLD", "BV-MID", "BV-DISC", "AC-DISC"}.isdisjoint(v.sku for v in active)
    torque = Constraint(attribute="output_torque", op=ConstraintOp.MAX, value=50.0)
    assert [v.sku for v in CATALOGUE.search(Family.ACTUATOR, [torque])] == [
        "AC-EXACT", "AC-LOW"]


def test_search_rejects_unknown_attributes_and_bad_constraints() -> None:
    with pytest.raises(UnknownAttributeError, match=r"attribute='pressure' of "
                       r"family='ball_valve'.*use one of body_material"):
        CATALOGUE.search(Family.BALL_VALVE, pressure=16.0)
    with pytest.raises(ValidationError, match=r"op='min'.*needs a number, got value='PEEK'"):
        Constraint(attribute="seat", op=ConstraintOp.MIN, value="PEEK")


def test_citable_only_when_fact_and_evidence_are_released() -> None:
    drafty = valve("BV-DRAFT", revision=2, draft=("breakaway_torque",))
    catalogue = assemble([drafty])
    assert catalogue.draft_attributes("BV-DRAFT") == ("breakaway_torque",)
    assert catalogue.is_citable("BV-DRAFT", "pn")
    assert not catalogue.is_citable("BV-DRAFT", "breakaway_torque")
    assert catalogue.evidence("DS-BV-DRAFT-r3").status is AttributeStatus.DRAFT
    assert catalogue.evidence("DS-BV-DRAFT-r2").status is AttributeStatus.RELEASED
    assert catalogue.evidence("DS-BV-DRAFT-r1").status is AttributeStatus.RELEASED


def test_variant_number_and_code_accessors() -> None:
    bv = CATALOGUE.variant("BV-B")
    assert bv.number("pn") == 40.0
    assert bv.number("pn", Unit.MPA) == pytest.approx(4.0)
    assert bv.code("seat") == "PEEK"
    with pytest.raises(UnknownAttributeError, match=r"attribute='output_torque' of "
                       r"sku='BV-B'"):
        bv.attribute("output_torque")
    with pytest.raises(UnknownAttributeError, match=r"attribute='seat' of sku='BV-B'.*use "
                       r"one of dn, pn"):
        bv.number("seat")


def test_variant_schema_rejects_typos_wrong_units_and_missing_facts() -> None:
    good = CATALOGUE.variant("BV-B")
    with pytest.raises(ValidationError, match=r"attribute 'pn' has unit='C'; give it in a "
                       r"pressure unit"):
        Variant.model_validate({**good.model_dump(), "attributes": {
            **good.model_dump()["attributes"],
            "pn": {"name": "pn", "value": 16, "unit": "C", "evidence_id": "DS-BV-B-r1"}}})
    attributes = dict(good.attributes)
    del attributes["seat"]
    attributes["seet"] = GovernedAttribute(name="seet", value="PEEK", evidence_id="x")
    with pytest.raises(ValidationError, match=r"attribute 'seet' is not a ball_valve "
                       r"attribute.*attribute 'seat' is missing"):
        good.model_validate({**good.model_dump(), "attributes": attributes})
    with pytest.raises(ValidationError, match=r"attribute 'seat' has value='NBR'; use one "
                       r"of PTFE, PEEK"):
        valve("BV-X", seat="NBR", seat_max_temp=100)


def test_lifecycle_needs_a_successor_exactly_when_superseded() -> None:
    with pytest.raises(ValidationError, match=r"status='superseded' needs superseded_by"):
        Lifecycle(status=LifecycleStatus.SUPERSEDED)
    with pytest.raises(ValidationError, match=r"status='active' cannot have "
                       r"superseded_by='BV-B'"):
        Lifecycle(superseded_by="BV-B")


def test_supersession_cycles_are_rejected() -> None:
    with pytest.raises(ValidationError, match=r"supersession cycle BV-1 -> BV-2 -> BV-1; "
                       r"chains must be one-way"):
        assemble([valve("BV-1", superseded_by="BV-2"), valve("BV-2", superseded_by="BV-1")])


def test_successor_must_exist_and_share_the_family() -> None:
    with pytest.raises(ValidationError, match=r"BV-1: superseded_by='BV-404' is not in the "
                       r"catalogue"):
        assemble([valve("BV-1", superseded_by="BV-404")])
    with pytest.raises(ValidationError, match=r"BV-1: superseded_by='AC-1' has "
                       r"family='actuator', not 'ball_valve'"):
        assemble([valve("BV-1", superseded_by="AC-1"),
                  actuator("AC-1", actuator_type="electric", output_torque=50,
                           iso5211_flange="F07")])


def test_evidence_must_exist_and_certificate_attribute_must_match_offer() -> None:
    bv = valve("BV-1")
    with pytest.raises(ValidationError, match=r"BV-1: attribute 'dn' cites missing "
                       r"evidence_id='DS-BV-1-r1'"):
        Catalogue.of([bv], [d for d in evidence_for(bv) if d.kind is EvidenceKind.CERTIFICATE])
    only_2_1 = bv.model_copy(update={"certificates": ("CERT-BV-1-2.1",)})
    with pytest.raises(ValidationError, match=r"BV-1: certificate attribute is '3.1' but the "
                       r"highest certificate offered is '2.1'"):
        Catalogue.of([only_2_1], evidence_for(bv))


def test_fff_classes_must_agree_with_their_members() -> None:
    with pytest.raises(ValidationError, match=r"leading_sku='BV-9' is not a member"):
        FffClass(id="F", members=("BV-1", "BV-2"), leading_sku="BV-9")
    with pytest.raises(ValidationError, match=r"BV-2: fff_class=None but FFF class F lists it"):
        assemble([valve("BV-1", fff_class="F"), valve("BV-2")],
                 [FffClass(id="F", members=("BV-1", "BV-2"), leading_sku="BV-1")])


def test_catalogue_accepts_evidence_or_documents_and_with_records_revalidates() -> None:
    bv = valve("BV-1")
    docs = {d.id: d for d in evidence_for(bv)}
    by_alias = Catalogue(variants={"BV-1": bv}, evidence=docs)
    by_name = Catalogue.model_validate({"variants": {"BV-1": bv}, "documents": docs})
    assert by_alias.canonical_json() == by_name.canonical_json()
    cheaper = bv.model_copy(update={"list_price": Money.of("80.00")})
    updated = by_alias.with_records(variants=[cheaper])
    assert updated.variant("BV-1").list_price == Money.of("80.00")
    assert by_alias.variant("BV-1").list_price == Money.of("100.00")
    with pytest.raises(ValidationError, match=r"BV-2: attribute 'dn' cites missing"):
        by_alias.with_records(variants=[valve("BV-2")])


def test_evidence_for_refuses_ids_outside_the_scheme() -> None:
    bv = valve("BV-1")
    odd = bv.attributes["pn"].model_copy(update={"evidence_id": "VENDOR-PDF-7"})
    strange = bv.model_copy(update={"attributes": {**bv.attributes, "pn": odd}})
    with pytest.raises(UnknownEvidenceError, match=r"evidence_id='VENDOR-PDF-7'; "
                       r"evidence_for derives only DS-BV-1-r<k>"):
        evidence_for(strange)
    document = EvidenceDocument(id="VENDOR-PDF-7", kind=EvidenceKind.DATASHEET, sku="BV-1")
    catalogue = Catalogue.of([strange], [*evidence_for(bv), document])
    assert catalogue.is_citable("BV-1", "pn")
