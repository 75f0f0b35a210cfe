"""The seeded generator: determinism, scale, and a default catalogue that exercises
every fit and substitution rule both ways."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from itertools import pairwise

import pytest

from remit.catalogue import (
    DEFAULT_SIZE,
    TORQUE_SAFETY_FACTOR,
    AttributeStatus,
    Catalogue,
    CertificateGrade,
    EndConnection,
    EvidenceKind,
    Family,
    GenerationError,
    LifecycleStatus,
    Requirement,
    SiteTruths,
    Unit,
    check_actuator,
    check_valve,
    generate_catalogue,
    s1_supersession,
    s2_fff,
    s3_confirmations,
)
from tests.catalogue.sample import site

RULES = ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "S1", "S2", "S3")

# Crafted truths: a mild NPT site, a harsh BSPP site demanding 3.1, a flanged brine
# site demanding 2.1 with its figures given in MPa and F.
TRUTHS: tuple[SiteTruths, ...] = (
    site(pressure=5.0, temperature=20.0, piping=EndConnection.NPT),
    site(pressure=435.1, pressure_unit=Unit.PSI, temperature=220.0, chlorides=True,
         piping=EndConnection.BSPP, certificate=CertificateGrade.TYPE_3_1),
    site(pressure=2.0, pressure_unit=Unit.MPA, temperature=356.0,
         temperature_unit=Unit.FAHRENHEIT, chlorides=True, piping=EndConnection.FLANGED,
         certificate=CertificateGrade.TYPE_2_1),
)


def _verdicts(catalogue: Catalogue) -> dict[str, set[bool]]:
    seen: dict[str, set[bool]] = defaultdict(set)
    valves = catalogue.variants_of(Family.BALL_VALVE)
    for valve in valves:
        requirement = Requirement(dn=int(valve.number("dn")), quantity=1)
        for truths in TRUTHS:
            for result in check_valve(valve, truths, requirement):
                seen[result.rule].add(result.passed)
        for actuator in catalogue.variants_of(Family.ACTUATOR):
            for result in check_actuator(valve, actuator):
                seen[result.rule].add(result.passed)
        chain = catalogue.successor_chain(valve.sku)
        if len(chain) > 1:
            seen["S1"].add(s1_supersession(catalogue, chain[0], chain[-1]).passed)
            seen["S1"].add(s1_supersession(catalogue, chain[-1], chain[0]).passed)
            seen["S3"].add(s3_confirmations(catalogue, chain[0], chain[1]).result.passed)
    for fff in catalogue.fff_classes.values():
        outsider = next(v.sku for v in valves if v.sku not in fff.members)
        requirement = Requirement(
            dn=int(catalogue.variant(fff.leading_sku).number("dn")), quantity=1)
        for member in fff.members:
            if member == fff.leading_sku:
                continue
            seen["S3"].add(s3_confirmations(catalogue, fff.leading_sku, member).result.passed)
            for truths in TRUTHS:
                seen["S2"].add(s2_fff(catalogue, fff.leading_sku, member, requirement,
                                      truths).passed)
        seen["S2"].add(s2_fff(catalogue, fff.leading_sku, outsider, requirement,
                              TRUTHS[0]).passed)
    return seen


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_default_catalogue_exercises_every_rule_both_ways(seed: int) -> None:
    seen = _verdicts(generate_catalogue(seed))
    missing = {rule: {True, False} - seen[rule] for rule in RULES if seen[rule] != {True, False}}
    assert missing == {}


def test_same_seed_gives_the_same_bytes() -> None:
    first = generate_catalogue(0).canonical_json()
    random.seed(12345)  # global random state must not matter
    random.random()
    assert generate_catalogue(0).canonical_json() == first
    assert generate_catalogue(3, size=300).canonical_json() == generate_catalogue(
        3, size=300).canonical_json()


def test_different_seeds_give_different_bytes() -> None:
    assert generate_catalogue(0).canonical_json() != generate_catalogue(1).canonical_json()
    assert generate_catalogue(0).fingerprint() != generate_catalogue(1).fingerprint()


def test_canonical_json_is_sorted_compact_with_decimal_strings() -> None:
    catalogue = generate_catalogue(0)
    text = catalogue.canonical_json()
    records = json.loads(text)
    assert json.dumps(records, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False) == text
    price = records["variants"]["BV-00001"]["list_price"]["amount"]
    assert isinstance(price, str)
    assert price == str(catalogue.variant("BV-00001").list_price.amount)
    assert set(records) == {"variants", "evidence", "fff_classes"}
    assert len(catalogue.fingerprint()) == 64


def test_canonical_json_round_trips_to_an_equal_catalogue() -> None:
    catalogue = generate_catalogue(2)
    again = Catalogue.model_validate_json(catalogue.canonical_json())
    assert again.canonical_json() == catalogue.canonical_json()


def test_default_catalogue_has_the_promised_shape() -> None:
    catalogue = generate_catalogue(0)
    valves = catalogue.variants_of(Family.BALL_VALVE)
    assert len(catalogue.variants) == DEFAULT_SIZE
    assert [len(catalogue.variants_of(f)) for f in Family] == [24, 12, 12]
    assert max(len(catalogue.successor_chain(v.sku)) for v in valves) >= 3
    assert {v.code("seat") for v in valves} == {"PTFE", "PEEK"}
    assert {v.code("body_material") for v in valves} == {"316", "WCB"}
    assert {v.code("end_connection") for v in valves} == {"NPT", "BSPP", "EN1092-1"}
    assert len({v.code("iso5211_flange") for v in valves}) >= 3
    only_2_1 = [v for v in valves if v.code("certificate") == "2.1"]
    assert only_2_1
    assert all(len(v.certificates) == 1 for v in only_2_1)
    statuses = {v.lifecycle.status for v in catalogue.variants.values()}
    assert statuses == set(LifecycleStatus)
    for fff in catalogue.fff_classes.values():
        assert fff.leading_sku in fff.members
        assert all(catalogue.variant(sku).fff_class == fff.id for sku in fff.members)


def test_default_catalogue_has_draft_datasheets_and_revisions() -> None:
    catalogue = generate_catalogue(0)
    drafts = [sku for sku in catalogue.variants if catalogue.draft_attributes(sku)]
    assert drafts
    sku = drafts[0]
    name = catalogue.draft_attributes(sku)[0]
    attribute = catalogue.variant(sku).attribute(name)
    assert attribute.status is AttributeStatus.DRAFT
    assert catalogue.evidence(attribute.evidence_id).status is AttributeStatus.DRAFT
    datasheets = [d for d in catalogue.documents.values() if d.kind is EvidenceKind.DATASHEET]
    assert any(d.revision != "r1" for d in datasheets)
    assert all(d.id == f"DS-{d.sku}-{d.revision}" for d in datasheets)
    certificates = [d for d in catalogue.documents.values()
                    if d.kind is EvidenceKind.CERTIFICATE]
    assert all(d.grade is not None and d.id == f"CERT-{d.sku}-{d.grade.value}"
               for d in certificates)


def test_actuators_sit_on_both_sides_of_the_torque_boundary() -> None:
    catalogue = generate_catalogue(0)
    exact, just_below = 0, 0
    for valve in catalogue.variants_of(Family.BALL_VALVE):
        needed = TORQUE_SAFETY_FACTOR * valve.number("breakaway_torque")
        for actuator in catalogue.variants_of(Family.ACTUATOR):
            if actuator.code("iso5211_flange") != valve.code("iso5211_flange"):
                continue
            output = actuator.number("output_torque")
            exact += output == needed
            just_below += 0.9 * needed <= output < needed
    assert exact >= 1
    assert just_below >= 1


def test_size_scales_to_ten_thousand_skus_with_valid_chains() -> None:
    catalogue = generate_catalogue(seed=5, size=10_000)
    assert len(catalogue.variants) >= 10_000
    chain_lengths = []
    for valve in catalogue.variants_of(Family.BALL_VALVE):
        chain = catalogue.successor_chain(valve.sku)
        chain_lengths.append(len(chain))
        assert len(set(chain)) == len(chain)
        assert catalogue.variant(chain[-1]).lifecycle.status is not LifecycleStatus.SUPERSEDED
        assert all(catalogue.variant(sku).lifecycle.superseded_by == nxt
                   for sku, nxt in pairwise(chain))
    assert max(chain_lengths) == 3
    assert len(catalogue.fff_classes) > 100


def test_size_is_exact_and_small_sizes_work() -> None:
    assert len(generate_catalogue(size=0).variants) == 0
    assert len(generate_catalogue(size=3).variants) == 3
    assert len(generate_catalogue(size=137).variants) == 137


def test_negative_size_is_refused() -> None:
    with pytest.raises(GenerationError, match=r"size=-1; size must be 0 or more"):
        generate_catalogue(size=-1)
