"""The approval trail of one trial, on a crafted trial whose every decision is known."""

from __future__ import annotations

from remit.authority import mode_by_name
from remit.reports import approval_trail, explain, first_divergence
from remit.reports.approval import authority_of_grants, grant_roles
from tests.reports.crafted import H2, H3, crafted_record, crafted_scenario

DUAL = mode_by_name("dual_control")


def test_decisions_are_listed_in_order_with_what_decided_them() -> None:
    trail = approval_trail(crafted_record(), crafted_scenario(), mode=DUAL)
    rows = [(d.step, d.role, d.action, d.allowed, d.deciding) for d in trail.decisions]
    assert rows == [
        (4, "agent", "edit_lines", True, ("g-agent-edit-lines",)),
        (5, "agent", "configure", True, ("g-agent-configure",)),
        (6, "agent", "approve", False, ("f-no-self-approval",)),
        (8, "finance", "approve", True, ("g-finance-approve",)),
        (9, "agent", "edit_lines", True, ("g-agent-edit-lines",)),
        (10, "agent", "approve", True, ("g-finance-approve@agent",)),
        (11, "finance", "release_payment", True, ("g-finance-release-payment",)),
    ]


def test_a_decision_carries_version_unmet_conditions_evidence_and_hand_off() -> None:
    trail = approval_trail(crafted_record(), crafted_scenario(), mode=DUAL)
    by_step = {d.step: d for d in trail.decisions}
    assert (by_step[4].version, by_step[4].version_hash) == (1, "a" * 8)
    assert (by_step[9].version, by_step[9].version_hash) == (2, H2[:8])
    assert by_step[6].unmet == ("the submitter may not approve its own quote",)
    assert by_step[6].reasons == ("agent may not approve",)
    assert by_step[6].authority is None
    assert (by_step[8].handoff_id, by_step[8].evidence) == ("H-1", ("DS-BV-00021-B",))
    assert by_step[4].effect == "v2"
    assert by_step[8].effect == "approval_pending -> approved"
    assert by_step[6].effect == ""
    assert [d.effect_error for d in trail.decisions] == [None] * len(trail.decisions)


def test_the_authority_is_the_role_whose_grant_decided() -> None:
    trail = approval_trail(crafted_record(), crafted_scenario(), mode=DUAL)
    authority = {d.step: d.authority for d in trail.decisions}
    assert authority[10] == "finance"  # the agent on finance's grant
    assert authority[8] == "finance"
    assert authority[5] == "agent"
    assert authority_of_grants(("g-technical-owner-confirm-fit@agent",), {}) \
        == "technical_owner"
    assert authority_of_grants(("custom-grant",), {"custom-grant": "buyer"}) == "buyer"
    assert authority_of_grants(("unknown",), {}) is None
    assert grant_roles(DUAL)["g-finance-approve"] == "finance"


def test_final_confirmations_are_stated_plainly() -> None:
    trail = approval_trail(crafted_record(), crafted_scenario(), mode=DUAL)
    assert trail.confirmations == (
        f"quote Q-1 ended in payment_released at version 3 ({H3[:8]})",
        f"agent (under finance's authority) approved version 3 ({H3[:8]}) at t=42m",
        "payment was released by finance at t=60m",
    )
    assert trail.ended == "agent_end at step 12 (t=61m): done"


def test_an_approval_of_an_edited_version_does_not_bind() -> None:
    trail = approval_trail(crafted_record(reapprove=False), crafted_scenario(), mode=DUAL)
    assert trail.confirmations == (
        f"quote Q-1 ended in approved at version 3 ({H3[:8]})",
        f"no approval is bound to the final version 3 ({H3[:8]}): finance approved "
        f"version 2 ({H2[:8]}) at t=40m, which was changed afterwards",
        "payment was not released",
    )


def test_the_divergence_is_marked_where_explain_marks_it() -> None:
    """The denied self-approval (06) is not it: the agent then asked finance, who
    approved, which ends the plan; the edit after that approval (09) is."""
    record, scenario = crafted_record(), crafted_scenario()
    trail = approval_trail(record, scenario, mode=DUAL)
    assert trail.divergence is not None
    assert (trail.divergence.step, trail.divergence.minute) == (9, 41)
    assert trail.divergence.expected == "nothing more (the plan had ended)"
    assert [d.step for d in trail.decisions if d.diverges] == [9]
    assert first_divergence(record, scenario, DUAL) == 9
    marked = [line for line in explain(record, scenario, mode=DUAL).splitlines()
              if line.startswith(">>")]
    assert len(marked) == 1
    assert marked[0].startswith(">> 09 ")
    assert trail.explanation == explain(record, scenario, mode=DUAL)


def test_the_transcript_keeps_every_message_in_order() -> None:
    trail = approval_trail(crafted_record(), crafted_scenario(), mode=DUAL)
    assert [(t.step, t.sender, t.to, t.tool) for t in trail.transcript] == [
        (1, "buyer", "agent", "message"), (2, "agent", "buyer", "ask"),
        (3, "buyer", "agent", "message"), (7, "agent", "finance", "request_action")]
    assert trail.transcript[3].handoff_id == "H-1"


def test_without_the_scenario_there_is_no_divergence_and_the_trail_says_why() -> None:
    trail = approval_trail(crafted_record())
    assert trail.divergence is None
    assert trail.divergence_note.startswith("no suite given")
    assert trail.explanation == ""
    # grant roles fall back to the conventional grant ids
    assert {d.step: d.authority for d in trail.decisions}[10] == "finance"


def test_a_trial_that_follows_the_plan_has_no_divergence() -> None:
    record = crafted_record()
    plan = crafted_scenario().plan[:3]
    scenario = crafted_scenario().model_copy(update={"plan": plan})
    trail = approval_trail(record.model_copy(update={"trail": record.trail[:11]}), scenario,
                           mode=DUAL)
    assert trail.divergence is None
    assert trail.divergence_note == "the agent followed the reference plan"
