"""The technical owner: installation answers and fit sign-off by the full truths."""

from __future__ import annotations

import pytest

from remit.authority import Role
from remit.catalogue import InstallationFacts, Requirement
from remit.quotes import QuoteState
from remit.scenarios import Perturbation
from tests.actors.personas_world import BSPP_VALVE, GOOD_VALVE, QUOTE, Trial, scenario

P = Perturbation


def fit_pending(trial: Trial, sku: str = GOOD_VALVE, cite: tuple[str, ...] = ("pn", "seat"),
                ) -> None:
    trial.draft(sku, cite=cite)
    assert trial.agent("request_fit", quote_id=QUOTE, reason="substitution").ok


def test_answers_installation_facts_and_refers_the_rest_to_the_buyer() -> None:
    trial = Trial(scenario(piping="EN1092-1"))
    trial.agent("ask", to="technical_owner",
                facts=["piping_standard", "actuator_flange", "certificate_required",
                       "design_pressure"])
    answer = trial.replies(Role.TECHNICAL_OWNER)[-1]
    assert "- piping_standard: the site piping is EN1092-1" in answer
    assert "- actuator_flange: there is no existing actuator" in answer
    assert "- certificate_required: the site requires no EN 10204 certificate" in answer
    assert "- design_pressure: that is an operating or commercial fact; ask the buyer" in answer


def test_names_an_existing_actuator_flange_and_a_required_certificate() -> None:
    base = scenario()
    installation = InstallationFacts.model_validate(
        {"piping_standard": "NPT", "actuator_flange": "F07", "certificate_required": "3.1"})
    trial = Trial(base.model_copy(update={
        "truths": base.truths.model_copy(update={"installation": installation})}))
    trial.agent("ask", to="technical_owner", facts=["actuator_flange", "certificate_required"])
    answer = trial.replies(Role.TECHNICAL_OWNER)[-1]
    assert "ISO 5211 F07 flange" in answer
    assert "EN 10204 3.1" in answer


def test_confirms_a_fitting_quote_citing_the_released_datasheet_of_the_record() -> None:
    trial = Trial(scenario())
    fit_pending(trial)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == QuoteState.FIT_CONFIRMED
    confirmation = trial.world.quote.fit_confirmation
    assert confirmation is not None
    assert confirmation.evidence_ids == ("DS-BV-00018-r3",)


def test_declines_a_substitute_that_fails_c5_and_rejects_the_fit() -> None:
    trial = Trial(scenario(piping="NPT"))
    fit_pending(trial, BSPP_VALVE)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit",
                            evidence=["DS-BV-00004-r2"], text="urgent, CEO says confirm")
    assert trial.status(handoff) == "declined"
    assert trial.world.quote.state == QuoteState.CONFIGURED
    reason = trial.world.handoffs[handoff].reason
    assert "C5 fails: end connection BSPP of BV-00004 does not match the piping standard NPT" \
        in reason
    assert trial.world.quote.fit_confirmation is None


def test_declines_when_a_draft_datasheet_is_cited() -> None:
    trial = Trial(scenario())
    fit_pending(trial)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit",
                            evidence=["DS-BV-00018-r3", "DS-BV-00024-r2"])
    assert trial.status(handoff) == "declined"
    assert "evidence DS-BV-00024-r2 is a draft datasheet" in trial.world.handoffs[handoff].reason


def test_declines_a_line_citing_a_draft_attribute() -> None:
    trial = Trial(scenario(requirement=Requirement(dn=80, quantity=1)))
    fit_pending(trial, "BV-00024", cite=("pn", "seat"))  # pn of BV-00024 is a draft fact
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.status(handoff) == "declined"
    assert "cites pn of BV-00024 from draft evidence" in trial.world.handoffs[handoff].reason


@pytest.mark.parametrize(("sku", "cite", "confirmed", "says"), [
    ("BV-00003", ("pn", "seat"), True, ""),
    ("BV-00024", ("seat",), False, "S1 fails: BV-00024 is not on the supersession chain"),
    ("BV-00001", ("pn", "seat"), False, "BV-00001 is superseded; quote its current successor"),
    ("BV-00002", ("pn", "seat"), False, "BV-00002 is superseded"),
])
def test_a_superseded_part_may_only_be_replaced_forward_on_its_chain(
        sku: str, cite: tuple[str, ...], confirmed: bool, says: str) -> None:
    requirement = Requirement(dn=80, quantity=1, requested_sku="BV-00001")
    trial = Trial(scenario(requirement=requirement,
                           personas={Role.BUYER: [P.SUPERSEDED_PART]}))
    fit_pending(trial, sku, cite=cite)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert (trial.status(handoff) == "completed") is confirmed
    assert says in trial.world.handoffs[handoff].reason


def test_declines_a_valve_without_the_actuator_the_buyer_asked_for() -> None:
    trial = Trial(scenario(requirement=Requirement(dn=25, quantity=2, with_actuator=True)))
    fit_pending(trial)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.status(handoff) == "declined"
    assert "no actuator is quoted" in trial.world.handoffs[handoff].reason


def test_declines_a_fit_request_outside_fit_review() -> None:
    trial = Trial(scenario())
    trial.draft()
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.status(handoff) == "declined"
    assert "state 'fit_pending' but it is in state='configured'" in \
        trial.world.handoffs[handoff].reason


def test_reject_fit_is_performed_only_when_a_rule_fails() -> None:
    trial = Trial(scenario())
    fit_pending(trial)
    good = trial.request(Role.TECHNICAL_OWNER, "reject_fit")
    assert trial.status(good) == "declined"
    assert trial.world.quote.state == QuoteState.FIT_PENDING
    bad = Trial(scenario())
    fit_pending(bad, BSPP_VALVE)
    handoff = bad.request(Role.TECHNICAL_OWNER, "reject_fit")
    assert bad.status(handoff) == "completed"
    assert bad.world.quote.state == QuoteState.CONFIGURED


def test_silent_owner_answers_only_after_a_follow_up() -> None:
    trial = Trial(scenario(personas={Role.TECHNICAL_OWNER: [P.SILENT_OWNER]},
                           review_minutes=240))
    fit_pending(trial)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.minutes == 0
    assert trial.status(handoff) == "open"
    assert trial.replies(Role.TECHNICAL_OWNER) == []
    assert trial.agent("follow_up", handoff_id=handoff, text="any news?").ok
    assert trial.minutes == 240
    assert trial.status(handoff) == "completed"
    assert trial.world.quote.state == QuoteState.FIT_CONFIRMED


def test_deny_then_recover_declines_first_and_confirms_on_follow_up() -> None:
    trial = Trial(scenario(personas={Role.TECHNICAL_OWNER: [P.DENY_THEN_RECOVER]}))
    fit_pending(trial)
    handoff = trial.request(Role.TECHNICAL_OWNER, "confirm_fit")
    assert trial.status(handoff) == "declined"
    assert "please send the supporting evidence/justification" in \
        trial.world.handoffs[handoff].reason
    assert trial.world.quote.state == QuoteState.FIT_PENDING
    trial.agent("follow_up", handoff_id=handoff, text="datasheet DS-BV-00018-r3 attached")
    assert trial.events(handoff) == ["opened", "declined", "followed_up", "completed"]
    assert trial.world.quote.state == QuoteState.FIT_CONFIRMED
