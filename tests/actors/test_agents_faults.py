"""Each fault agent raises exactly its metric; the oracle scores zero on all of them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from remit.actors.faults import wrong_variant
from remit.actors.loading import load_agent_factory
from remit.actors.protocol import TrialInfo
from remit.authority import builtin_modes
from remit.catalogue import acceptable_skus, generate_catalogue
from remit.harness.orchestrator import run_trial
from remit.harness.scoring import TrialScore, score_trial
from remit.scenarios.builtin import builtin_scenarios, scenario_by_id

MODES = ("all_tools", "dual_control")
AGENTS = ("oracle", "guessing", "claiming", "abandoning", "overreaching")


@dataclass
class Totals:
    """Metrics summed over the built-in scenarios of one mode."""

    trials: int = 0
    passed: int = 0
    wrong_variant: int = 0
    unsupported_claims: int = 0
    abandoned_handoffs: int = 0
    denials: int = 0
    agent_errors: int = 0

    def add(self, score: TrialScore) -> None:
        self.trials += 1
        self.passed += score.passed
        self.wrong_variant += score.wrong_variant
        self.unsupported_claims += score.unsupported_claims
        self.abandoned_handoffs += score.abandoned_handoffs
        self.denials += score.denials
        self.agent_errors += score.end_reason == "agent_error"


def _run(agent: str) -> dict[str, Totals]:
    factory = load_agent_factory(agent)
    modes = builtin_modes()
    totals = {mode: Totals() for mode in MODES}
    for scenario in builtin_scenarios():
        for mode in MODES:
            info = TrialInfo(scenario_id=scenario.id, mode=mode, trial=0, seed=11,
                             plan=scenario.plan, scenario=scenario)
            world = run_trial(scenario, modes[mode], factory(info), seed=11)
            totals[mode].add(score_trial(scenario, world))
    return totals


@pytest.fixture(scope="module")
def table() -> dict[str, dict[str, Totals]]:
    return {agent: _run(agent) for agent in AGENTS}


def _sum(totals: dict[str, Totals], metric: str) -> int:
    return sum(getattr(t, metric) for t in totals.values())


def test_oracle_scores_zero_on_every_fault_metric(table: dict[str, dict[str, Totals]]) -> None:
    oracle = table["oracle"]
    for metric in ("wrong_variant", "unsupported_claims", "abandoned_handoffs", "denials",
                   "agent_errors"):
        assert _sum(oracle, metric) == 0, metric
    assert all(t.passed == t.trials for t in oracle.values())


def test_guessing_agent_quotes_wrong_variants(table: dict[str, dict[str, Totals]]) -> None:
    guessing = table["guessing"]
    assert _sum(guessing, "wrong_variant") > 0
    assert _sum(guessing, "unsupported_claims") == 0
    assert _sum(guessing, "denials") == 0


def test_claiming_agent_makes_unsupported_claims(table: dict[str, dict[str, Totals]]) -> None:
    claiming = table["claiming"]
    assert _sum(claiming, "unsupported_claims") > 0
    for metric in ("wrong_variant", "abandoned_handoffs", "denials"):
        assert _sum(claiming, metric) == 0, metric


def test_abandoning_agent_abandons_handoffs(table: dict[str, dict[str, Totals]]) -> None:
    abandoning = table["abandoning"]
    assert abandoning["dual_control"].abandoned_handoffs > 0
    for metric in ("wrong_variant", "unsupported_claims", "denials"):
        assert _sum(abandoning, metric) == 0, metric


def test_overreaching_agent_is_denied_in_dual_control(
        table: dict[str, dict[str, Totals]]) -> None:
    overreaching = table["overreaching"]
    assert overreaching["dual_control"].denials > 0
    assert overreaching["all_tools"].denials == 0
    assert table["oracle"]["dual_control"].denials == 0
    for metric in ("wrong_variant", "unsupported_claims", "abandoned_handoffs"):
        assert _sum(overreaching, metric) == 0, metric
    # It falls back to requesting, so it still reaches every goal.
    assert overreaching["dual_control"].passed == overreaching["dual_control"].trials


def test_no_fault_agent_crashes(table: dict[str, dict[str, Totals]]) -> None:
    assert {agent: _sum(totals, "agent_errors") for agent, totals in table.items()} == {
        agent: 0 for agent in AGENTS}


def test_wrong_variant_is_same_dn_and_outside_the_acceptable_set() -> None:
    scenario = scenario_by_id("fff-substitution")
    catalogue = generate_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
    acceptable = acceptable_skus(catalogue, scenario.requirement, scenario.truths)
    original = sorted(acceptable)[0]
    wrong = wrong_variant(catalogue, original, scenario.requirement, scenario.truths)
    assert wrong is not None
    assert wrong.sku not in acceptable
    assert wrong.is_active
    assert wrong.number("dn") == catalogue.variant(original).number("dn")
