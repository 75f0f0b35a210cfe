"""Plan constructors: each writes the steps and owners the design's state machine needs."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from remit.authority import Action, Role
from remit.scenarios.plans import (
    DEFAULT_QUOTE_ID,
    PlanLine,
    ask,
    consent_request,
    edit_lines,
    fit_review_steps,
    order_steps,
    quote_steps,
    sale_steps,
    write,
)
from remit.world import Fact


def test_ask_is_an_agent_step_with_fact_names() -> None:
    step = ask(Role.TECHNICAL_OWNER, [Fact.PIPING_STANDARD], "Which piping?")
    assert step.role is Role.AGENT
    assert step.tool == "ask"
    assert step.arguments == {"to": "technical_owner", "facts": ["piping_standard"],
                              "text": "Which piping?"}


def test_write_defaults_to_the_agent_and_the_default_quote() -> None:
    step = write(Action.PRICE)
    assert (step.role, step.tool, step.arguments) == (Role.AGENT, "price",
                                                      {"quote_id": DEFAULT_QUOTE_ID})


def test_edit_lines_writes_discount_only_when_given() -> None:
    step = edit_lines([PlanLine(sku="BV-00001", quantity=2, cite=("dn",)),
                       PlanLine(sku="BV-00002", quantity=1, cite=("pn",),
                                discount_pct=Decimal("7.5"))], quote_id="Q-9")
    assert step.arguments == {"quote_id": "Q-9", "lines": [
        {"sku": "BV-00001", "quantity": 2, "cite": ["dn"]},
        {"sku": "BV-00002", "quantity": 1, "cite": ["pn"], "discount_pct": "7.5"},
    ]}


def test_plan_line_rejects_a_non_positive_quantity() -> None:
    with pytest.raises(ValidationError, match="greater than 0"):
        PlanLine(sku="BV-00001", quantity=0, cite=("dn",))


def test_fit_review_is_requested_by_the_agent_and_confirmed_by_the_owner() -> None:
    request, confirm = fit_review_steps("custom spec", "DS-X-r1")
    assert (request.role, request.tool) == (Role.AGENT, "request_fit")
    assert request.arguments["reason"] == "custom spec"
    assert (confirm.role, confirm.tool) == (Role.TECHNICAL_OWNER, "confirm_fit")
    assert confirm.arguments["evidence"] == ["DS-X-r1"]


def test_quote_steps_put_the_fit_review_between_configure_and_price() -> None:
    steps = quote_steps(justification="volume", fit=fit_review_steps("spec", "DS-X-r1"))
    assert [s.tool for s in steps] == ["configure", "request_fit", "confirm_fit", "price",
                                       "submit", "approve"]
    assert steps[4].arguments["justification"] == "volume"
    assert steps[5].role is Role.FINANCE


def test_submit_carries_no_justification_unless_given() -> None:
    submit = quote_steps()[2]
    assert submit.tool == "submit"
    assert "justification" not in submit.arguments


def test_sale_steps_present_then_buyer_accepts() -> None:
    present, accept = sale_steps()
    assert (present.role, present.tool) == (Role.AGENT, "present")
    assert (accept.role, accept.tool) == (Role.BUYER, "accept")


def test_order_steps_name_the_documents_the_world_issues() -> None:
    steps = order_steps(quote_id="Q-3")
    assert [(s.role, s.tool) for s in steps] == [
        (Role.BUYER, "receive_po"), (Role.BUYER, "record_receipt"),
        (Role.AGENT, "invoice"), (Role.FINANCE, "release_payment")]
    assert steps[0].arguments["document_id"] == "PO-Q-3"
    assert steps[1].arguments["document_id"] == "GR-Q-3"


def test_order_steps_without_release_stop_at_the_invoice() -> None:
    assert [s.tool for s in order_steps(release=False)][-1] == "invoice"


def test_consent_request_hands_the_decision_to_the_buyer() -> None:
    step = consent_request()
    assert (step.role, step.tool) == (Role.AGENT, "request_action")
    assert step.arguments["to"] == "buyer"
    assert step.arguments["action"] == "accept"
