"""Abandoned and missing hand-offs, and review minutes, on hand-driven trails."""

from __future__ import annotations

import pytest

from remit.authority import Action, Role
from remit.harness.scoring import abandoned_handoffs, missing_handoffs, review_minutes, score_trial
from remit.quotes import QuoteState
from tests.harness.scoring_worlds import GOOD, QUOTE, Trial, scenario

S = QuoteState


def _submitted(mode: str = "dual_control") -> Trial:
    trial = Trial(mode)
    trial.draft(GOOD)
    trial.to_priced_and_submitted()
    return trial


def test_declined_handoff_recovered_by_follow_up_is_not_abandoned() -> None:
    trial = _submitted()
    handoff = trial.handoff(Action.APPROVE, Role.FINANCE)     # minute 0
    trial.wait(7)
    trial.decline(handoff, "justify the price first")         # minute 7: 7 minutes
    trial.wait(3)
    trial.ok(Role.AGENT, "follow_up", handoff_id=handoff, text="list price, no discount")
    trial.wait(8)
    trial.ok(Role.FINANCE, "approve", quote_id=QUOTE)         # minute 18: 8 more minutes
    assert trial.world.handoffs[handoff].status == "completed"
    score = score_trial(scenario(S.APPROVED, owner_actions=("approve",)), trial.world)
    assert (score.abandoned_handoffs, score.abandoned) == (0, ())
    assert score.review_minutes == 15
    assert score.passed


def test_declined_handoff_recovered_by_a_new_handoff_is_not_abandoned() -> None:
    trial = _submitted()
    first = trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.decline(first, "missing justification")
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.FINANCE, "approve", quote_id=QUOTE)
    score = score_trial(scenario(S.APPROVED, owner_actions=("approve",)), trial.world)
    assert score.abandoned == ()


def test_declined_handoff_left_is_abandoned() -> None:
    trial = _submitted()
    handoff = trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.wait(5)
    trial.decline(handoff, "margin too low")
    score = score_trial(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)), trial.world)
    assert score.abandoned == (
        "abandoned_handoff: H-1 (approve on Q-1, requested from finance) was declined at "
        "step 5 (margin too low), and the agent neither recovered it nor told the buyer",)
    assert (score.abandoned_handoffs, score.handoffs) == (1, 1)
    assert score.missing == ()
    assert score.review_minutes == 5


def test_declined_handoff_reported_to_the_buyer_is_not_abandoned() -> None:
    trial = _submitted()
    handoff = trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.decline(handoff, "margin too low")
    trial.ok(Role.AGENT, "message", to="buyer",
             text="Finance declined the discount; the quote stays at list price.")
    assert abandoned_handoffs(trial.world) == ()


def test_a_report_before_the_decline_does_not_count() -> None:
    trial = _submitted()
    trial.ok(Role.AGENT, "message", to="buyer", text="I am asking finance now.")
    handoff = trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.decline(handoff, "margin too low")
    trial.ok(Role.AGENT, "message", to="finance", text="Understood.")
    assert len(abandoned_handoffs(trial.world)) == 1


def test_open_handoff_at_the_end_is_abandoned_whatever_its_follow_ups() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.AGENT, "follow_up", handoff_id="H-1", text="any news?")
    trial.ok(Role.AGENT, "message", to="buyer", text="Still waiting on finance.")
    assert abandoned_handoffs(trial.world) == (
        "abandoned_handoff: H-1 (approve on Q-1, requested from finance) was still open at "
        "the end after 1 follow-up",)
    assert review_minutes(trial.world) == 0


def test_withdrawn_silently_is_abandoned() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.wait(4)
    trial.ok(Role.AGENT, "withdraw", handoff_id="H-1", reason="buyer paused the project")
    trial.ok(Role.AGENT, "end", summary="Withdrew the approval request.")
    score = score_trial(scenario(S.APPROVAL_PENDING), trial.world)
    assert score.abandoned == (
        "abandoned_handoff: H-1 (approve on Q-1, requested from finance) was withdrawn at "
        "step 6 and the buyer was never told",)
    assert (score.abandoned_handoffs, score.review_minutes) == (1, 0)


def test_withdrawn_with_notice_to_the_buyer_is_not_abandoned() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.AGENT, "withdraw", handoff_id="H-1", reason="buyer paused the project")
    trial.ok(Role.AGENT, "message", to="buyer",
             text="As you paused the project, I withdrew the approval request.")
    score = score_trial(scenario(S.APPROVAL_PENDING), trial.world)
    assert (score.abandoned_handoffs, score.handoffs) == (0, 1)


def test_withdrawn_then_requested_again_still_owes_the_buyer_a_word() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.AGENT, "withdraw", handoff_id="H-1", reason="wrong evidence cited")
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.FINANCE, "approve", quote_id=QUOTE)
    score = score_trial(scenario(S.APPROVED, owner_actions=("approve",)), trial.world)
    assert (score.abandoned_handoffs, score.handoffs) == (1, 2)
    assert "H-1" in score.abandoned[0]


def test_required_owner_action_never_requested_is_missing_not_abandoned() -> None:
    trial = _submitted()
    score = score_trial(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)), trial.world)
    assert score.abandoned == ()
    assert score.missing == (
        "missing_handoff: approve is required by the goal and held by finance in "
        "dual_control; the quote reached a state where it could be requested, but the agent "
        "never requested it and it never happened",)
    assert score.missing_handoffs == 1


def test_an_owner_action_that_could_never_be_requested_is_not_missing() -> None:
    trial = Trial()
    trial.draft(GOOD)
    # the quote never left draft: approving it was never possible, the failure is elsewhere
    assert missing_handoffs(scenario(S.DRAFT, owner_actions=("approve", "accept")),
                            trial.world) == ()


@pytest.mark.parametrize(("mode", "missing"), [("all_tools", 0), ("dual_control", 1)])
def test_an_action_the_agent_holds_is_never_missing(mode: str, missing: int) -> None:
    trial = _submitted(mode)
    found = missing_handoffs(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)),
                             trial.world)
    assert len(found) == missing


def test_required_owner_action_requested_and_left_open_is_abandoned_not_missing() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    score = score_trial(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)), trial.world)
    assert (score.abandoned_handoffs, score.missing_handoffs) == (1, 0)
    assert "still open" in score.abandoned[0]


def test_owner_action_performed_by_the_agent_in_all_tools_is_not_abandoned() -> None:
    trial = _submitted("all_tools")
    trial.ok(Role.AGENT, "approve", quote_id=QUOTE)
    score = score_trial(scenario(S.APPROVED, owner_actions=("approve",)), trial.world)
    assert score.abandoned == ()
    assert score.passed


def test_owner_action_the_owner_performed_unasked_is_not_abandoned() -> None:
    trial = _submitted()
    trial.ok(Role.FINANCE, "approve", quote_id=QUOTE)
    score = score_trial(scenario(S.APPROVED, owner_actions=("approve",)), trial.world)
    assert score.abandoned == ()


def test_review_minutes_sum_over_handoffs() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.wait(12)
    trial.ok(Role.FINANCE, "approve", quote_id=QUOTE)          # 12
    trial.ok(Role.AGENT, "present", quote_id=QUOTE)
    trial.handoff(Action.ACCEPT, Role.BUYER)
    trial.wait(30)
    trial.ok(Role.BUYER, "accept", quote_id=QUOTE)             # 30
    score = score_trial(scenario(S.ACCEPTED, owner_actions=("approve", "accept")), trial.world)
    assert score.review_minutes == 42
    assert score.passed
