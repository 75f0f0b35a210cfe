"""Your own agent under test: a scripted agent, run through the marker and through the fixture.

``MyAgent`` stands in for the agent you build (an LLM behind remit's tool schemas, say).
It knows one job: quote ten BV-00021 valves at the 12% discount the buyer asked for,
justify the discount, get finance's approval and the buyer's consent. It reads the
briefing to see who holds each action in the mode: where it holds ``approve`` itself
(all-tools) it approves; otherwise it asks finance with ``request_action``. The buyer's
consent it always requests from the buyer.

Two ways to run it:

- ``@pytest.mark.remit(agent="examples.test_my_agent:MyAgent")`` (or
  ``--remit-agent examples.test_my_agent:MyAgent``): a spec, as ``remit run --agent``
  takes it;
- ``remit.run(scenario, agent=MyAgent)``: the class (or any factory taking a TrialInfo).
"""

from __future__ import annotations

import pytest

from remit.actors import Briefing, Observation, TrialInfo
from remit.authority import Action, Role
from remit.harness.outcome import ScenarioRunner
from remit.world import ToolCall

SKU = "BV-00021"
CITES = ["dn", "pn", "body_material", "end_connection", "seat", "seat_max_temp", "certificate"]
JUSTIFICATION = "framework agreement: ten valves now and a yearly volume commitment"


class MyAgent:
    """A scripted quoting agent: a fixed variant, a justified discount, hand-offs to owners."""

    def __init__(self, info: TrialInfo) -> None:
        self.scenario_id = info.scenario_id
        self.script: list[ToolCall] = []

    def start(self, briefing: Briefing) -> None:
        quote = {"quote_id": briefing.quote_id}

        def mine(action: Action) -> bool:
            return Role.AGENT in briefing.owners.get(action, ())

        approve = (ToolCall(tool="approve", arguments=quote) if mine(Action.APPROVE) else
                   ToolCall(tool="request_action", arguments={
                       **quote, "to": "finance", "action": "approve",
                       "text": f"Please approve the 12% discount: {JUSTIFICATION}."}))
        self.script = [
            ToolCall(tool="edit_lines", arguments={**quote, "lines": [
                {"sku": SKU, "quantity": 10, "cite": CITES, "discount_pct": "12"}]}),
            ToolCall(tool="configure", arguments=quote),
            ToolCall(tool="price", arguments=quote),
            ToolCall(tool="submit", arguments={**quote, "justification": JUSTIFICATION}),
            approve,
            ToolCall(tool="present", arguments=quote),
            ToolCall(tool="request_action", arguments={
                **quote, "to": "buyer", "action": "accept",
                "text": "Here is your quote; please accept it if it suits you."}),
        ]

    def act(self, observation: Observation) -> ToolCall:
        if self.script:
            return self.script.pop(0)
        return ToolCall(tool="end", arguments={"summary": "Quoted, approved and accepted."})


@pytest.mark.remit(agent="examples.test_my_agent:MyAgent", trials=2)
def test_my_agent_by_spec(remit: ScenarioRunner) -> None:
    outcome = remit.run("discount-exception")

    outcome.expect_pass_hat_k(2, at_least=1.0).expect_no_wrong_variant()
    outcome.expect_no_unsupported_claims().expect_no_abandoned_handoffs()
    outcome.expect_no_missing_handoffs()  # every owner action it needed, it requested
    assert outcome.agent == "examples.test_my_agent:MyAgent"


def test_my_agent_by_class(remit: ScenarioRunner) -> None:
    outcome = remit.run("discount-exception", agent=MyAgent).expect_passed()

    handoffs = 1 if remit.mode.name == "all_tools" else 2  # consent; and approval in dual
    assert outcome.mean_handoffs == handoffs
