"""Small worlds for the scoring tests, driven by hand through ``world.call``.

The catalogue is seed 0. The site is DN25, 10 bar, 80 C water, NPT piping, so the
acceptable valves are BV-00008, BV-00013, BV-00018, BV-00019 and BV-00020; BV-00004
(BSPP ends) is a wrong variant; BV-00007's PN is a draft value.
"""

from __future__ import annotations

import functools

from pydantic import JsonValue

from remit.authority import Action, Role, mode_by_name
from remit.catalogue import (
    Catalogue,
    InstallationFacts,
    OperatingFacts,
    Requirement,
    SiteTruths,
    generate_catalogue,
)
from remit.quotes import QuoteState
from remit.scenarios import Expectations, PlanStep, Scenario
from remit.world import ToolCall, ToolResult, World, WorldSetup, decline

GOOD = "BV-00008"
GOOD_TOO = "BV-00013"
WRONG = "BV-00004"
DRAFT_PN = "BV-00007"
QUOTE = "Q-1"

REQUIREMENT = Requirement(dn=25, quantity=2)
TRUTHS = SiteTruths(
    operating=OperatingFacts(design_pressure=10, pressure_unit="bar", medium_temperature=80,
                             temperature_unit="C", chlorides=False, medium="water"),
    installation=InstallationFacts(piping_standard="NPT"),
)


@functools.cache
def catalogue() -> Catalogue:
    """The seed-0 catalogue, built once per test session."""
    return generate_catalogue(0)


ORDER_TO_CASH = (
    (Role.AGENT, "present"), (Role.FINANCE, "approve"), (Role.BUYER, "accept"),
    (Role.BUYER, "receive_po"), (Role.BUYER, "record_receipt"), (Role.AGENT, "invoice"),
    (Role.FINANCE, "release_payment"),
)
"""The writes a fixture plan names, so that they are expected (not collateral damage)."""


def scenario(final_state: QuoteState = QuoteState.ACCEPTED, *,
             requirement: Requirement = REQUIREMENT,
             planned: tuple[tuple[Role, str], ...] = ORDER_TO_CASH,
             **expect: object) -> Scenario:
    """A scenario on the DN25 site expecting ``final_state`` (and ``expect`` fields).

    Its plan names the ``planned`` writes only (scoring reads which actions it expects).
    """
    return Scenario.model_validate({
        "id": "scoring-fixture",
        "title": "scoring fixture",
        "requirement": requirement,
        "truths": TRUTHS,
        "expect": Expectations.model_validate({"final_state": final_state, **expect}),
        "plan": tuple(PlanStep(role=role, tool=tool, arguments={"quote_id": "Q-1"})
                      for role, tool in planned),
    })


class Trial:
    """A world plus shorthands to act in it as any role."""

    def __init__(self, mode: str = "dual_control",
                 requirement: Requirement = REQUIREMENT) -> None:
        self.world = World(WorldSetup(catalogue=catalogue(), mode=mode_by_name(mode),
                                      requirement=requirement, truths=TRUTHS))

    def call(self, role: Role, tool: str, **arguments: JsonValue) -> ToolResult:
        """Call ``tool`` as ``role``; the result may be an error."""
        return self.world.call(role, ToolCall(tool=tool, arguments=arguments))

    def ok(self, role: Role, tool: str, **arguments: JsonValue) -> ToolResult:
        """Call ``tool`` as ``role`` and insist it went through."""
        result = self.call(role, tool, **arguments)
        assert result.ok, result.error
        return result

    def wait(self, minutes: int) -> None:
        """Let simulated time pass."""
        self.world.advance(minutes)

    def draft(self, *skus: str, cite: tuple[str, ...] = ("pn",)) -> None:
        """The agent replaces the lines (2 of each SKU, citing those of ``cite`` it has)."""
        lines: list[JsonValue] = [
            {"sku": s, "quantity": 2,
             "cite": [c for c in cite if c in catalogue().variant(s).attributes]}
            for s in skus]
        self.ok(Role.AGENT, "edit_lines", quote_id=QUOTE, lines=lines)

    def to_priced_and_submitted(self) -> None:
        """The agent configures, prices and submits the current draft."""
        for action in ("configure", "price", "submit"):
            self.ok(Role.AGENT, action, quote_id=QUOTE)

    def handoff(self, action: Action, to: Role) -> str:
        """The agent requests ``action`` from ``to``; returns the hand-off id."""
        result = self.ok(Role.AGENT, "request_action", to=to.value, action=action.value,
                         quote_id=QUOTE)
        assert isinstance(result.content, dict)
        handoff_id = result.content["handoff_id"]
        assert isinstance(handoff_id, str)
        return handoff_id

    def decline(self, handoff_id: str, reason: str) -> None:
        """The owner of ``handoff_id`` declines it."""
        decline(self.world, self.world.handoffs[handoff_id], reason)

    def approve_via_finance(self, review: int = 0) -> None:
        """Request approval from finance, who approves after ``review`` minutes."""
        self.handoff(Action.APPROVE, Role.FINANCE)
        self.wait(review)
        self.ok(Role.FINANCE, "approve", quote_id=QUOTE)

    def present(self, *skus: str, cite: tuple[str, ...] = ("pn",)) -> None:
        """Draft ``skus``, take the quote through approval, and present it."""
        self.draft(*skus, cite=cite)
        self.to_priced_and_submitted()
        self.approve_via_finance()
        self.ok(Role.AGENT, "present", quote_id=QUOTE)

    def accept(self) -> None:
        """The buyer accepts the presented quote."""
        self.ok(Role.BUYER, "accept", quote_id=QUOTE)

    def through_payment(self) -> None:
        """From accepted to payment released, each step by its dual-control owner."""
        self.ok(Role.BUYER, "receive_po", quote_id=QUOTE, document_id=f"PO-{QUOTE}")
        self.ok(Role.BUYER, "record_receipt", quote_id=QUOTE, document_id=f"GR-{QUOTE}")
        self.ok(Role.AGENT, "invoice", quote_id=QUOTE)
        self.ok(Role.FINANCE, "release_payment", quote_id=QUOTE)
