"""A custom control mode: finance delegates discount approval up to 5% to the agent.

``agent-approves-5pct`` is dual-control with one change: the agent may approve a quote
whose discount is at most 5% (above it, finance still decides). On a small-discount
order the agent approves its own quote, so it opens one hand-off fewer and nobody
waits for finance's review. The buyer's consent stays the buyer's in both modes.

The same mode as a file, ``agent-approves-5pct.mode.yaml`` beside this one, runs from the
command line (``remit run --modes dual_control,examples/agent-approves-5pct.mode.yaml``)
and from ``pytest --remit-modes``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from remit.authority import Action, Role, default_map, delegate, who_can
from remit.catalogue import (
    EndConnection,
    InstallationFacts,
    OperatingFacts,
    Requirement,
    SiteTruths,
)
from remit.harness.modes import load_mode
from remit.harness.outcome import ScenarioRunner
from remit.quotes import QuoteState
from remit.scenarios import (
    Expectations,
    PlanLine,
    Scenario,
    ask,
    edit_lines,
    quote_steps,
    sale_steps,
)
from remit.world import Fact

AGENT_APPROVES_5PCT = delegate(default_map(), Action.APPROVE, to=Role.AGENT,
                               from_role=Role.FINANCE, attribute="discount_pct",
                               limit=Decimal(5), name="agent-approves-5pct")
"""The custom mode: the agent holds ``approve`` up to a 5% discount."""

SMALL_DISCOUNT = Scenario(
    id="small-discount",
    title="Ten DN80 valves for hot water with a 4% discount",
    requirement=Requirement(dn=80, quantity=10),
    truths=SiteTruths(
        operating=OperatingFacts(design_pressure=30, pressure_unit="bar",
                                 medium_temperature=120, temperature_unit="C",
                                 chlorides=False, medium="hot water"),
        installation=InstallationFacts(piping_standard=EndConnection.BSPP),
    ),
    discount_pct=Decimal(4),
    expect=Expectations(final_state=QuoteState.ACCEPTED,
                        owner_actions=(Action.APPROVE, Action.ACCEPT)),
    plan=(
        ask(Role.BUYER, (Fact.DESIGN_PRESSURE, Fact.MEDIUM_TEMPERATURE, Fact.CHLORIDES,
                         Fact.MEDIUM), "What are the operating conditions?"),
        ask(Role.TECHNICAL_OWNER, (Fact.PIPING_STANDARD, Fact.ACTUATOR_FLANGE,
                                   Fact.CERTIFICATE_REQUIRED), "What does the site need?"),
        edit_lines([PlanLine(sku="BV-00021", quantity=10, discount_pct=Decimal(4),
                             cite=("dn", "pn", "body_material", "end_connection", "seat",
                                   "seat_max_temp", "certificate"))]),
        *quote_steps(),
        *sale_steps(),
    ),
    max_steps=40,
)


def test_the_custom_mode_gives_the_agent_approval() -> None:
    assert who_can(AGENT_APPROVES_5PCT, Action.APPROVE) == {Role.AGENT, Role.FINANCE}
    assert who_can(AGENT_APPROVES_5PCT, Action.ACCEPT) == {Role.BUYER}


def test_the_mode_file_is_the_same_mode() -> None:
    from_file = load_mode(str(Path(__file__).with_name("agent-approves-5pct.mode.yaml")))
    assert from_file.fingerprint == AGENT_APPROVES_5PCT.fingerprint


@pytest.mark.remit(modes=("dual_control", AGENT_APPROVES_5PCT), agent="baseline")
def test_small_discount_passes_in_both_modes(remit: ScenarioRunner) -> None:
    remit.run(SMALL_DISCOUNT).expect_passed().expect_no_abandoned_handoffs()


@pytest.mark.remit(modes=(AGENT_APPROVES_5PCT,), agent="baseline", trials=2)
def test_delegation_saves_a_handoff_and_finance_review(remit: ScenarioRunner) -> None:
    delegated = remit.run(SMALL_DISCOUNT).expect_passed()
    dual = remit.run(SMALL_DISCOUNT, mode="dual_control").expect_passed()

    assert delegated.mean_handoffs == dual.mean_handoffs - 1
    assert delegated.summary.mean_review_minutes < dual.summary.mean_review_minutes
