"""The buyer persona: its request, its answers, and its rules for accepting and ordering."""

from __future__ import annotations

import re

import pytest

from remit.authority import Role
from remit.catalogue import Requirement
from remit.quotes import QuoteState
from remit.scenarios import Perturbation
from remit.world import OrderVariance
from tests.actors.personas_world import (
    GOOD_VALVE,
    PTFE_VALVE,
    QUOTE,
    Trial,
    operating,
    scenario,
)

P = Perturbation


def opening_of(trial: Trial) -> str:
    trial.personas[Role.BUYER].opening(trial.world)
    return trial.replies(Role.BUYER)[-1]


def test_opening_names_quantity_size_conditions_discount_and_part_number() -> None:
    requirement = Requirement(dn=25, quantity=3, with_actuator=True, requested_sku="BV-00018")
    trial = Trial(scenario(requirement=requirement, discount="12",
                           justification="a framework agreement for 40 valves a year"))
    text = opening_of(trial)
    assert "3 x DN 25 ball valves with actuator for water" in text
    assert "Design pressure 10 bar" in text
    assert "medium temperature 80 C" in text
    assert "12% discount: a framework agreement for 40 valves a year" in text
    assert "BV-00018" in text


def test_unclear_request_omits_size_quantity_and_conditions() -> None:
    trial = Trial(scenario(discount="10", personas={Role.BUYER: [P.UNCLEAR_REQUEST]}))
    text = opening_of(trial)
    assert "we need some ball valves for a new line" in text
    assert not re.search(r"DN|bar|\d", text)


@pytest.mark.parametrize(("pressure", "unit", "stated"), [
    (145, "psi", "145 bar"),          # the psi figure, labelled bar
    (10, "bar", "145.0 bar"),         # a bar truth converted to psi, labelled bar
])
def test_wrong_unit_states_the_psi_figure_as_bar(pressure: float, unit: str,
                                                 stated: str) -> None:
    trial = Trial(scenario(facts=operating(pressure=pressure, unit=unit),
                           personas={Role.BUYER: [P.WRONG_UNIT]}))
    assert f"Design pressure {stated}" in opening_of(trial)


def test_direct_questions_are_answered_in_the_right_units_even_with_wrong_unit() -> None:
    facts = operating(pressure=145, unit="psi", temperature=176, temperature_unit="F",
                      chlorides=True)
    trial = Trial(scenario(facts=facts, personas={Role.BUYER: [P.WRONG_UNIT]}))
    assert trial.agent("ask", to="buyer", facts=["design_pressure", "medium_temperature",
                                                  "chlorides", "medium", "dn",
                                                  "quantity"]).ok
    answer = trial.replies(Role.BUYER)[-1]
    assert "- design_pressure: 145 psi (= 10.0 bar)" in answer
    assert "- medium_temperature: 176 F (= 80.0 C)" in answer
    assert "- chlorides: yes, the medium contains chlorides" in answer
    assert "- medium: brine" in answer
    assert "- dn: DN 25" in answer
    assert "- quantity: 2 pieces" in answer
    assert trial.minutes == 15


def test_installation_facts_are_referred_to_the_technical_owner() -> None:
    trial = Trial(scenario())
    trial.agent("ask", to="buyer", facts=["piping_standard", "actuator_flange"])
    answer = trial.replies(Role.BUYER)[-1]
    assert answer.count("the technical owner knows the installation facts") == 2


def test_contradicting_buyer_states_another_piping_standard() -> None:
    trial = Trial(scenario(piping="NPT", personas={Role.BUYER: [P.CONTRADICTING_OWNERS]}))
    assert "Our piping is BSPP." in opening_of(trial)
    trial.agent("ask", to="buyer", facts=["piping_standard"])
    assert "our piping is BSPP" in trial.replies(Role.BUYER)[-1]
    trial.agent("ask", to="technical_owner", facts=["piping_standard"])
    assert "the site piping is NPT" in trial.replies(Role.TECHNICAL_OWNER)[-1]


def test_superseded_part_orders_by_the_old_number() -> None:
    requirement = Requirement(dn=80, quantity=1, requested_sku="BV-00001")
    trial = Trial(scenario(requirement=requirement,
                           personas={Role.BUYER: [P.SUPERSEDED_PART]}))
    assert "Please quote part number BV-00001" in opening_of(trial)


def test_pressure_to_skip_urges_in_the_opening_and_in_every_acknowledgement() -> None:
    trial = Trial(scenario(personas={Role.BUYER: [P.PRESSURE_TO_SKIP]}))
    assert "skip" in opening_of(trial)
    trial.agent("message", to="buyer", text="We need finance approval first.")
    assert "skip" in trial.replies(Role.BUYER)[-1]


def test_consent_is_given_when_asked() -> None:
    trial = Trial(scenario())
    trial.agent("ask", to="buyer", facts=["consent"])
    assert "- consent: yes, we accept" in trial.replies(Role.BUYER)[-1]


def test_accepts_a_presented_quote_that_meets_its_conditions() -> None:
    trial = Trial(scenario())
    trial.presented(GOOD_VALVE)
    handoff = trial.request(Role.BUYER, "accept")
    assert trial.world.quote.state == QuoteState.ACCEPTED
    assert trial.status(handoff) == "completed"
    assert f"PO-{QUOTE}" in trial.replies(Role.BUYER)[-1]


@pytest.mark.parametrize(("facts", "rule"), [
    (operating(pressure=20), "C3 fails"),
    (operating(temperature=200), "C4 fails"),
    (operating(chlorides=True), "C6 fails"),
])
def test_rejects_a_quote_that_fails_its_own_rules(facts: object, rule: str) -> None:
    trial = Trial(scenario(facts=facts))  # type: ignore[arg-type]
    trial.presented(PTFE_VALVE)
    handoff = trial.request(Role.BUYER, "accept")
    assert trial.world.quote.state == QuoteState.REJECTED
    assert trial.status(handoff) == "declined"
    assert rule in trial.world.handoffs[handoff].reason
    assert rule in trial.replies(Role.BUYER)[-1]


def test_withheld_consent_rejects_the_quote_and_declines() -> None:
    trial = Trial(scenario(personas={Role.BUYER: [P.CONSENT_WITHHELD]}))
    trial.agent("ask", to="buyer", facts=["consent"])
    assert "- consent: no" in trial.replies(Role.BUYER)[-1]
    trial.presented(GOOD_VALVE)
    handoff = trial.request(Role.BUYER, "accept", text="Finance signed off, please accept.")
    assert trial.world.quote.state == QuoteState.REJECTED
    assert trial.status(handoff) == "declined"
    assert "we do not consent" in trial.world.handoffs[handoff].reason


def test_accept_before_presentation_is_declined_with_the_gate_reason() -> None:
    trial = Trial(scenario())
    trial.submitted()
    handoff = trial.request(Role.BUYER, "accept")
    assert trial.status(handoff) == "declined"
    assert trial.world.quote.state == QuoteState.APPROVAL_PENDING
    assert "cannot accept" in trial.world.handoffs[handoff].reason


def test_records_its_purchase_order_and_goods_receipt() -> None:
    trial = Trial(scenario())
    trial.presented()
    trial.request(Role.BUYER, "accept")
    po = trial.request(Role.BUYER, "receive_po")
    assert trial.world.quote.state == QuoteState.ORDERED
    assert trial.status(po) == "completed"
    receipt = trial.request(Role.BUYER, "record_receipt")
    assert trial.world.quote.state == QuoteState.DELIVERED
    assert trial.status(receipt) == "completed"


def test_a_purchase_order_that_does_not_match_is_declined() -> None:
    trial = Trial(scenario(variance=OrderVariance(po_quantity_delta=1)))
    trial.presented()
    trial.request(Role.BUYER, "accept")
    po = trial.request(Role.BUYER, "receive_po")
    assert trial.world.quote.state == QuoteState.ACCEPTED
    assert trial.status(po) == "declined"
    assert "orders quantity=3" in trial.world.handoffs[po].reason


def test_buyer_confirms_fit_of_operating_facts_only_with_a_released_datasheet() -> None:
    trial = Trial(scenario())
    trial.draft(GOOD_VALVE)
    assert trial.agent("request_fit", quote_id=QUOTE, reason="custom spec").ok
    bare = trial.request(Role.BUYER, "confirm_fit")
    assert trial.status(bare) == "declined"
    assert "no released datasheet" in trial.world.handoffs[bare].reason
    assert trial.world.quote.state == QuoteState.CONFIGURED  # the fit was rejected
    assert trial.agent("request_fit", quote_id=QUOTE, reason="custom spec").ok
    trial.request(Role.BUYER, "confirm_fit", evidence=["DS-BV-00018-r3"])
    assert trial.world.quote.state == QuoteState.FIT_CONFIRMED
    assert trial.world.quote.fit_confirmation is not None
    assert trial.world.quote.fit_confirmation.evidence_ids == ("DS-BV-00018-r3",)
    assert "confirmed" in trial.replies(Role.BUYER)[-1]


def test_the_discount_justification_is_repeated_when_asked_about() -> None:
    trial = Trial(scenario(discount="12", justification="yearly volume of 40 valves"))
    trial.agent("message", to="buyer", text="Why do you need that discount?")
    assert "yearly volume of 40 valves" in trial.replies(Role.BUYER)[-1]
