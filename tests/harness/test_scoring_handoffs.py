"""Abandoned hand-offs and review minutes on hand-driven trails."""

from __future__ import annotations

from remit.authority import Action, Role
from remit.harness.scoring import abandoned_handoffs, review_minutes, score_trial
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
        "abandoned_handoff: H-1 (approve on Q-1, requested by agent from finance) was "
        "declined: margin too low, and the agent never recovered it",)
    assert score.abandoned_handoffs == 1
    assert score.review_minutes == 5


def test_open_handoff_at_the_end_is_abandoned() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.ok(Role.AGENT, "follow_up", handoff_id="H-1", text="any news?")
    assert abandoned_handoffs(scenario(S.APPROVAL_PENDING), trial.world) == (
        "abandoned_handoff: H-1 (approve on Q-1, requested by agent from finance) was still "
        "open at the end",)
    assert review_minutes(trial.world) == 0


def test_withdrawn_handoff_is_not_abandoned() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    trial.wait(4)
    trial.ok(Role.AGENT, "withdraw", handoff_id="H-1", reason="buyer paused the project")
    score = score_trial(scenario(S.APPROVAL_PENDING), trial.world)
    assert (score.abandoned_handoffs, score.review_minutes) == (0, 0)


def test_required_owner_action_never_requested_is_abandoned() -> None:
    trial = _submitted()
    score = score_trial(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)), trial.world)
    assert score.abandoned == (
        "abandoned_handoff: approve is required by the goal, but the agent never requested "
        "it from its owner (finance) and it was never performed",)


def test_required_owner_action_requested_and_left_open_counts_once() -> None:
    trial = _submitted()
    trial.handoff(Action.APPROVE, Role.FINANCE)
    score = score_trial(scenario(S.APPROVAL_PENDING, owner_actions=("approve",)), trial.world)
    assert score.abandoned_handoffs == 1
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
