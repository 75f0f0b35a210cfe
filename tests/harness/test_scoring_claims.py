"""Attribute claims: extraction from message text, checking against governed records,
counting a trial's stated and cited claims apart."""

from __future__ import annotations

import pytest

from remit.authority import Role
from remit.catalogue import AttributeStatus
from remit.harness.claims import ClaimSource, check_claim, check_claims, extract_claims
from remit.harness.scoring import score_trial
from remit.quotes import QuoteState
from remit.world import Claim
from tests.harness.scoring_worlds import DRAFT_PN, GOOD, QUOTE, Trial, catalogue, scenario


def _triples(text: str) -> list[tuple[str, str, float | str, str | None]]:
    return [(c.sku, c.attribute, c.value, c.unit) for c in extract_claims(text, catalogue())]


# -- checking one claim ------------------------------------------------------------------


@pytest.mark.parametrize(("value", "unit"), [
    (16, "bar"), (232, "psi"), (1.6, "MPa"), (16, None), (232.5, "psig"), ("16", "bar"),
])
def test_claim_equal_after_unit_normalisation_is_supported(value: float | str,
                                                           unit: str | None) -> None:
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute="pn", value=value,
                                          unit=unit)) is None


def test_claim_off_by_a_unit_is_unsupported() -> None:
    problem = check_claim(catalogue(), Claim(sku=GOOD, attribute="pn", value=16, unit="psi"))
    assert problem == "the governed record says 16 bar (DS-BV-00008-r1)"


def test_tolerance_is_half_a_percent() -> None:
    # 16 bar = 232.06 psi: 233 psi is 0.4% off, 234 psi is 0.8% off
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute="pn", value=233,
                                          unit="psi")) is None
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute="pn", value=234,
                                          unit="psi")) is not None


@pytest.mark.parametrize(("claim", "problem"), [
    (Claim(sku="BV-99999", attribute="pn", value=16, unit="bar"),
     "no SKU 'BV-99999' in the catalogue"),
    (Claim(sku=GOOD, attribute="colour", value="red"),
     "BV-00008 has no governed attribute 'colour'"),
    (Claim(sku=GOOD, attribute="pn", value=16, unit="furlongs"),
     "unit='furlongs' is not a known unit"),
    (Claim(sku=GOOD, attribute="pn", value=16, unit="C"),
     "unit='C' is not a pressure unit"),
    (Claim(sku=GOOD, attribute="dn", value=25, unit="bar"), "dn takes no unit"),
    (Claim(sku=GOOD, attribute="pn", value="sixteen", unit="bar"),
     "value='sixteen' is not a number"),
    (Claim(sku=GOOD, attribute="seat", value="PTFE"), "the governed record says PEEK"),
])
def test_unsupported_claims_say_why(claim: Claim, problem: str) -> None:
    found = check_claim(catalogue(), claim)
    assert found is not None
    assert found.startswith(problem)


@pytest.mark.parametrize("attribute", ["PN", "pressure rating", "Pressure_Rating", "pn"])
def test_attribute_aliases_resolve(attribute: str) -> None:
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute=attribute, value=16,
                                          unit="bar")) is None


def test_codes_compare_without_case_or_spaces() -> None:
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute="seat", value="peek")) is None
    assert check_claim(catalogue(), Claim(sku=GOOD, attribute="body", value="WCB")) is None
    assert check_claim(catalogue(), Claim(sku="BV-00013", attribute="certificate",
                                          value=3.1)) is None


def test_claim_on_a_draft_attribute_is_unsupported_even_with_the_right_value() -> None:
    problem = check_claim(catalogue(), Claim(sku=DRAFT_PN, attribute="pn", value=40,
                                             unit="bar"))
    assert problem == "BV-00007 pn is a draft value, not released"


def test_claim_whose_evidence_is_draft_is_unsupported() -> None:
    base = catalogue()
    datasheet = base.documents["DS-BV-00008-r1"]
    drafted = base.with_records(
        evidence=[datasheet.model_copy(update={"status": AttributeStatus.DRAFT})])
    assert drafted.variant(GOOD).attributes["pn"].status is AttributeStatus.RELEASED
    problem = check_claim(drafted, Claim(sku=GOOD, attribute="pn", value=16, unit="bar"))
    assert problem == "its evidence DS-BV-00008-r1 is draft, not released"


# -- extraction from text ----------------------------------------------------------------


def test_text_claims_are_extracted_for_the_last_sku_mentioned() -> None:
    text = ("We can offer BV-00013, but BV-00008 is rated PN 16 bar (232 psi), body material: "
            "WCB, max temperature 250 °C, with a PEEK seat. AC-00001 has output torque "
            "17.5 Nm and an F05 flange.")
    assert _triples(text) == [
        (GOOD, "pn", 16.0, "bar"),
        (GOOD, "body_material", "WCB", None),
        (GOOD, "seat_max_temp", 250.0, "°C"),
        (GOOD, "seat", "PEEK", None),
        ("AC-00001", "output_torque", 17.5, "Nm"),
        ("AC-00001", "iso5211_flange", "F05", None),
    ]


def test_text_claim_keywords_and_notations() -> None:
    # the PN restated in psi is the same claim, extracted once
    assert _triples("BV-00008: PN16, DN25, pressure rating 232 psi, torque 14 Nm.") == [
        (GOOD, "pn", 16.0, "bar"),
        (GOOD, "dn", 25.0, None),
        (GOOD, "breakaway_torque", 14.0, "Nm"),
    ]
    assert _triples("BV-00013 comes with an EN 10204 3.1 certificate and NPT ends") == [
        ("BV-00013", "certificate", "3.1", None),
        ("BV-00013", "end_connection", "NPT", None),
    ]
    assert _triples("BV-00008 end connection EN 1092-1, seat max temp 482 F") == [
        (GOOD, "end_connection", "EN1092-1", None),
        (GOOD, "seat_max_temp", 482.0, "F"),
    ]


@pytest.mark.parametrize("text", [
    "Your design pressure is 10 bar and the medium is at 80 C.",   # buyer facts, no SKU
    "PN16 would do. BV-00008 is in stock.",                        # SKU in another sentence
    "BV-00008 has a good pressure rating.",                        # no value
    "See datasheet DS-BV-00008-r1, PN16.",                         # an evidence id, not a SKU
    "BV-00008 supply is not relevant.",                            # valve has no supply
])
def test_text_without_a_checkable_claim_yields_none(text: str) -> None:
    assert _triples(text) == []


@pytest.mark.parametrize(("text", "claimed"), [
    ("The pressure rating of BV-00008 is 580 psi.", ("pn", 580.0, "psi")),
    ("The max temperature for BV-00008 is 250 C.", ("seat_max_temp", 250.0, "C")),
    ("BV-00008 is rated to 40 bar.", ("pn", 40.0, "bar")),
    ("BV-00008 is good to 300 C.", ("seat_max_temp", 300.0, "C")),
    ("BV-00008 is rated up to 232 psi.", ("pn", 232.0, "psi")),
])
def test_a_keyword_before_the_sku_or_a_rating_without_one_is_a_claim(
        text: str, claimed: tuple[str, float, str]) -> None:
    assert _triples(text) == [(GOOD, *claimed)]


@pytest.mark.parametrize("text", [
    "BV-00008 suits your design pressure of 20 bar.",      # the buyer's figure, restated
    "BV-00008 is fine: the medium is at 120 C.",           # not a rating of the SKU
    "At 20 bar, BV-00008 is rated.",                       # no value after the rating
])
def test_figures_near_a_sku_that_rate_something_else_are_not_claims(text: str) -> None:
    assert _triples(text) == []


def test_a_number_without_a_unit_is_read_in_the_records_unit() -> None:
    assert _triples("BV-00008 max temperature 250.") == [(GOOD, "seat_max_temp", 250.0, None)]
    (claim,) = extract_claims("BV-00008 max temperature 250.", catalogue())
    assert check_claim(catalogue(), claim) is None


def test_repeated_text_claim_is_extracted_once() -> None:
    assert _triples("BV-00008 is PN16. Yes, BV-00008 is PN16.") == [(GOOD, "pn", 16.0, "bar")]


def test_wrong_unit_in_text_is_an_unsupported_claim() -> None:
    (claim,) = extract_claims("BV-00008 is PN 16 psi.", catalogue())
    assert check_claim(catalogue(), claim) is not None


# -- counting a trial's claims ------------------------------------------------------------


def test_trial_claims_from_all_three_sources() -> None:
    trial = Trial()
    trial.draft(GOOD, DRAFT_PN, cite=("pn", "seat"))          # 4 citations, 1 on a draft
    trial.ok(Role.AGENT, "message", to="buyer", text="Structured only.", claims=[
        {"sku": GOOD, "attribute": "pn", "value": 232, "unit": "psi"},    # supported
        {"sku": GOOD, "attribute": "pn", "value": 16, "unit": "psi"},     # off by a unit
    ])
    trial.ok(Role.AGENT, "message", to="buyer",
             text="BV-00008 has a PTFE seat and PN 16 bar.")              # seat wrong, pn ok
    trial.ok(Role.BUYER, "message", to="agent", text="BV-00008 is PN 99 bar?")  # not the agent
    checks = check_claims(trial.world)
    assert [(c.source, c.stated, c.supported) for c in checks] == [
        (ClaimSource.MESSAGE_CLAIM, "BV-00008 pn=232 psi", True),
        (ClaimSource.MESSAGE_CLAIM, "BV-00008 pn=16 psi", False),
        (ClaimSource.TEXT, "BV-00008 seat=PTFE", False),
        (ClaimSource.TEXT, "BV-00008 pn=16 bar", True),
        (ClaimSource.QUOTE_LINE, "BV-00008 pn=16 bar", True),
        (ClaimSource.QUOTE_LINE, "BV-00008 seat=PEEK", True),
        (ClaimSource.QUOTE_LINE, "BV-00007 pn=40 bar", False),
        (ClaimSource.QUOTE_LINE, "BV-00007 seat=PTFE", True),
    ]
    score = score_trial(scenario(QuoteState.DRAFT, acceptable_skus_only=False), trial.world)
    assert (score.claims, score.unsupported_claims) == (4, 2)
    assert (score.attribute_claims, score.unsupported_attribute_claims) == (4, 2)
    assert (score.cited_claims, score.unsupported_cited_claims) == (4, 1)
    message_step = checks[1].step
    assert score.unsupported == (
        f"unsupported attribute claim: BV-00008 pn=16 psi (message to buyer at step "
        f"{message_step}): the governed record says 16 bar (DS-BV-00008-r1)",
        f"unsupported attribute claim: BV-00008 seat=PTFE (message to buyer at step "
        f"{message_step + 1}): the governed record says PEEK (DS-BV-00008-r1)")
    assert score.unsupported_cited == (
        "unsupported cited claim: BV-00007 pn=40 bar (cited on Q-1 v2 at step 1): BV-00007 pn "
        "is a draft value, not released",)
    assert checks[2].sentence == "BV-00008 has a PTFE seat and PN 16 bar."


def test_text_claim_repeating_a_structured_claim_counts_once() -> None:
    trial = Trial()
    trial.ok(Role.AGENT, "message", to="buyer", text="BV-00008 is PN 16 psi.",
             claims=[{"sku": GOOD, "attribute": "PN", "value": 16, "unit": "bar"}])
    checks = check_claims(trial.world)
    assert [(c.source, c.supported) for c in checks] == [(ClaimSource.MESSAGE_CLAIM, True)]


def test_a_value_restated_in_another_unit_is_one_claim() -> None:
    trial = Trial()
    trial.ok(Role.AGENT, "message", to="buyer", text="BV-00008 is PN16 (232 psi, 1.6 MPa).")
    checks = check_claims(trial.world)
    assert [(c.stated, c.supported) for c in checks] == [("BV-00008 pn=16 bar", True)]


def test_citation_repeated_on_a_later_version_counts_once() -> None:
    trial = Trial()
    trial.draft(GOOD, cite=("pn",))
    trial.ok(Role.AGENT, "edit_lines", quote_id=QUOTE, lines=[
        {"sku": GOOD, "quantity": 5, "cite": ["pn", "seat"]}])
    checks = check_claims(trial.world)
    assert [(c.stated, c.step, c.cited) for c in checks] == [
        ("BV-00008 pn=16 bar", 1, True), ("BV-00008 seat=PEEK", 2, True)]


def test_text_claims_in_every_text_the_agent_writes_count() -> None:
    trial = Trial()
    trial.draft(GOOD)
    trial.ok(Role.AGENT, "ask", to="buyer", facts=["design_pressure"],
             text="BV-00008 is PN16; is your design pressure below that?")
    trial.ok(Role.AGENT, "request_action", to="finance", action="approve", quote_id=QUOTE,
             text="Please approve BV-00008, PN 10 bar.")
    trial.ok(Role.AGENT, "follow_up", handoff_id="H-1", text="Reminder: BV-00008 has a PTFE seat.")
    trial.ok(Role.AGENT, "withdraw", handoff_id="H-1", reason="BV-00008 is PN 25 after all.")
    trial.ok(Role.AGENT, "end", summary="Quoted BV-00008 with its 316 body.")
    checks = [c for c in check_claims(trial.world) if not c.cited]
    assert [(c.where, c.stated, c.supported) for c in checks] == [
        ("ask to buyer", "BV-00008 pn=16 bar", True),
        ("request_action to finance", "BV-00008 pn=10 bar", False),
        ("follow_up to finance", "BV-00008 seat=PTFE", False),
        ("withdrawal of H-1", "BV-00008 pn=25 bar", False),
        ("end summary", "BV-00008 body_material=316", False),
    ]
