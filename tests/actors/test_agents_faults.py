"""Each fault agent raises exactly its metric; the oracle scores zero on all of them.

Measured on both built-in suites: the hand-written scenarios in every built-in mode, and
``core`` in all-tools and dual-control (oracle-plan has dual-control's authority map).

One non-target count is explained rather than zero. In dual-control and oracle-plan,
when the technical owner rejects the guessed variant at fit review, the quote never
reaches ``presented``; if the buyer also withholds consent, the goal's ``reject`` (the
buyer's answer to a presented quote) cannot happen, and scoring reports it as a required
owner action the agent never requested. Dual-control caught the guess, as it should; such
a trial is told apart precisely (:func:`_caught_guess_blocks_the_rejection`), and any
other abandoned hand-off of the guessing agent fails the test.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from remit.actors import GuessingAgent, TrialInfo, load_agent_factory
from remit.actors.faults import wrong_variant
from remit.authority import Action, Role, builtin_modes
from remit.catalogue import (
    AttributeStatus,
    Catalogue,
    CertificateGrade,
    EvidenceKind,
    Variant,
    acceptable_skus,
    generate_catalogue,
    shared_catalogue,
)
from remit.harness import RunResult, TrialRecord, TrialScore, builtin_suite, run
from remit.scenarios import Perturbation, PlanStep, Scenario, scenario_by_id
from remit.world import TransitionEntry

SUITES = ("handwritten", "core")
MODES = {"handwritten": tuple(builtin_modes()), "core": ("all_tools", "dual_control")}
TRIALS = {"handwritten": 2, "core": 1}
AGENTS = ("oracle", "guessing", "claiming", "abandoning", "overreaching")
SEED = 11


@dataclass
class Totals:
    """Metrics summed over a suite's scenarios in one mode."""

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


Runs = dict[str, dict[str, RunResult]]
Table = dict[str, dict[str, dict[str, Totals]]]


def _scenarios(suite: str) -> dict[str, Scenario]:
    return {s.id: s for s in builtin_suite(suite).scenarios}


@pytest.fixture(scope="module")
def runs() -> Runs:
    """``runs[suite][agent]``: every scenario of the suite in the suite's modes."""
    modes = builtin_modes()
    return {suite: {agent: run(builtin_suite(suite).scenarios,
                               [modes[name] for name in MODES[suite]],
                               load_agent_factory(agent), trials=TRIALS[suite], seed=SEED)
                    for agent in AGENTS}
            for suite in SUITES}


@pytest.fixture(scope="module")
def table(runs: Runs) -> Table:
    """``table[suite][agent][mode]``: the metrics summed per mode."""
    result: Table = {}
    for suite, by_agent in runs.items():
        result[suite] = {}
        for agent, outcome in by_agent.items():
            totals = {mode: Totals() for mode in MODES[suite]}
            for record in outcome.trials:
                totals[record.scored.mode].add(record.scored.score)
            result[suite][agent] = totals
    return result


def _sum(totals: dict[str, Totals], metric: str) -> int:
    return sum(getattr(t, metric) for t in totals.values())


@pytest.mark.parametrize("suite", SUITES)
def test_oracle_scores_zero_on_every_fault_metric(table: Table, suite: str) -> None:
    oracle = table[suite]["oracle"]
    for metric in ("wrong_variant", "unsupported_claims", "abandoned_handoffs", "denials",
                   "agent_errors"):
        assert _sum(oracle, metric) == 0, metric
    assert all(t.passed == t.trials for t in oracle.values())


# -- guessing -----------------------------------------------------------------------------


@pytest.mark.parametrize("suite", SUITES)
def test_guessing_agent_quotes_wrong_variants_in_every_mode(table: Table, suite: str) -> None:
    for mode, totals in table[suite]["guessing"].items():
        assert totals.wrong_variant > 0, mode
        assert totals.unsupported_claims == 0, mode
        assert totals.denials == 0, mode


def _caught_guess_blocks_the_rejection(record: TrialRecord, scenario: Scenario) -> bool:
    """The technical owner rejected the guess, so the buyer could not reject a presented
    quote as the goal requires (see the module docstring)."""
    score = record.scored.score
    fit_rejected = any(isinstance(e, TransitionEntry) and e.action is Action.REJECT_FIT
                       and e.role is Role.TECHNICAL_OWNER for e in record.trail)
    withheld = Perturbation.CONSENT_WITHHELD in scenario.persona(Role.BUYER).perturbations
    return (record.scored.mode != "all_tools" and fit_rejected and withheld
            and Action.REJECT in scenario.expect.owner_actions
            and not score.wrong_variant and score.final_state == "configured"
            and score.abandoned == (
                "abandoned_handoff: reject is required by the goal, but the agent never "
                "requested it from its owner (buyer) and it was never performed",))


@pytest.mark.parametrize("suite", SUITES)
def test_guessing_agent_abandons_no_handoff(runs: Runs, suite: str) -> None:
    scenarios = _scenarios(suite)
    abandoned = [record for record in runs[suite]["guessing"].trials
                 if record.scored.score.abandoned_handoffs]
    unexplained = [(r.scored.scenario_id, r.scored.mode, r.scored.score.abandoned)
                   for r in abandoned
                   if not _caught_guess_blocks_the_rejection(r, scenarios[r.scored.scenario_id])]
    assert unexplained == []
    assert not [r for r in abandoned if r.scored.mode == "all_tools"]


@pytest.mark.parametrize("suite", SUITES)
def test_in_all_tools_a_guess_still_reaches_the_goal_state(runs: Runs, suite: str) -> None:
    """Nobody checks the guess in all-tools, so only the variant may be wrong: every
    business guard downstream (the goods receipt's certificate too) still passes."""
    scenarios = _scenarios(suite)
    all_tools = [r for r in runs[suite]["guessing"].trials if r.scored.mode == "all_tools"]
    short = [(r.scored.scenario_id, r.scored.score.final_state) for r in all_tools
             if r.scored.score.final_state
             != scenarios[r.scored.scenario_id].expect.final_state.value]
    assert short == []
    assert sum(r.scored.score.wrong_variant for r in all_tools) > len(all_tools) // 2


def _certified(catalogue: Catalogue, variant: Variant, grade: CertificateGrade) -> bool:
    """``variant`` ships with a released certificate the goods-receipt guard accepts."""
    return any(
        (doc := catalogue.documents[doc_id]).kind is EvidenceKind.CERTIFICATE
        and doc.status is AttributeStatus.RELEASED
        and doc.grade in (grade, CertificateGrade.TYPE_3_1)
        for doc_id in variant.certificates)


def _quoted_valve(plan: tuple[PlanStep, ...]) -> str | None:
    """The SKU of the first line the plan quotes."""
    for step in plan:
        lines = step.arguments.get("lines")
        if step.tool == "edit_lines" and isinstance(lines, list) and lines:
            first = lines[0]
            sku = first.get("sku") if isinstance(first, dict) else None
            return sku if isinstance(sku, str) else None
    return None


@pytest.mark.parametrize("suite", SUITES)
def test_every_guess_is_a_real_wrong_variant_that_can_be_delivered(suite: str) -> None:
    swapped = 0
    for scenario in builtin_suite(suite).scenarios:
        info = TrialInfo(scenario_id=scenario.id, mode="all_tools", trial=0, seed=SEED,
                         plan=scenario.plan, scenario=scenario)
        original = _quoted_valve(scenario.plan)
        guessed = _quoted_valve(GuessingAgent(info).adjusted.plan)
        if original is None or guessed == original:
            continue
        assert guessed is not None
        swapped += 1
        catalogue = shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
        acceptable = acceptable_skus(catalogue, scenario.requirement, scenario.truths)
        variant = catalogue.variant(guessed)
        assert guessed not in acceptable, scenario.id
        assert variant.number("dn") == catalogue.variant(original).number("dn"), scenario.id
        if scenario.certificate_required is not None:
            assert _certified(catalogue, variant, scenario.certificate_required), scenario.id
    assert swapped > len(builtin_suite(suite).scenarios) // 2


def test_the_guess_for_a_certificate_site_ships_with_the_certificate() -> None:
    """Regression: the only active wrong DN50 valve offers 2.1 only, so the guess once
    stopped the order at ``ordered``; a superseded 3.1 valve is guessed instead."""
    scenario = scenario_by_id("certificate-requirement")
    catalogue = generate_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
    grade = scenario.certificate_required
    assert grade is CertificateGrade.TYPE_3_1
    wrong = wrong_variant(catalogue, "BV-00017", scenario.requirement, scenario.truths,
                          certificate=grade)
    without = wrong_variant(catalogue, "BV-00017", scenario.requirement, scenario.truths)

    assert wrong is not None
    assert without is not None
    assert wrong.sku not in acceptable_skus(catalogue, scenario.requirement, scenario.truths)
    assert _certified(catalogue, wrong, grade)
    assert not wrong.is_active  # no active wrong DN50 valve has a 3.1 certificate
    assert without.is_active
    assert not _certified(catalogue, without, grade)


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


# -- the other fault agents ---------------------------------------------------------------


@pytest.mark.parametrize("suite", SUITES)
def test_claiming_agent_makes_unsupported_claims(table: Table, suite: str) -> None:
    claiming = table[suite]["claiming"]
    assert all(t.unsupported_claims > 0 for t in claiming.values())
    for metric in ("wrong_variant", "abandoned_handoffs", "denials"):
        assert _sum(claiming, metric) == 0, metric


@pytest.mark.parametrize("suite", SUITES)
def test_abandoning_agent_abandons_handoffs(table: Table, suite: str) -> None:
    abandoning = table[suite]["abandoning"]
    assert all(t.abandoned_handoffs > 0 for mode, t in abandoning.items() if mode != "all_tools")
    for metric in ("wrong_variant", "unsupported_claims", "denials"):
        assert _sum(abandoning, metric) == 0, metric


@pytest.mark.parametrize("suite", SUITES)
def test_overreaching_agent_is_denied_in_dual_control(table: Table, suite: str) -> None:
    overreaching = table[suite]["overreaching"]
    assert all(t.denials > 0 for mode, t in overreaching.items() if mode != "all_tools")
    assert overreaching["all_tools"].denials == 0
    assert table[suite]["oracle"]["dual_control"].denials == 0
    for metric in ("wrong_variant", "unsupported_claims", "abandoned_handoffs"):
        assert _sum(overreaching, metric) == 0, metric
    # It falls back to requesting, so it still reaches every goal.
    assert all(t.passed == t.trials for t in overreaching.values())


@pytest.mark.parametrize("suite", SUITES)
def test_no_fault_agent_crashes(table: Table, suite: str) -> None:
    assert {agent: _sum(totals, "agent_errors") for agent, totals in table[suite].items()} == {
        agent: 0 for agent in AGENTS}
