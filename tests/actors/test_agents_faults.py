"""Each fault agent raises exactly its metric; the oracle scores zero on all of them.

Measured on both built-in suites: the hand-written scenarios in every built-in mode, and
``core`` in all-tools and dual-control (oracle-plan has dual-control's authority map).

When the technical owner rejects a guessed variant at fit review, the quote never
reaches ``presented``; a goal that needs the buyer's answer to a presented quote then
cannot be met, but nothing was requestable, so no hand-off is missing: the guess shows as
a failed trial and (where it was presented) a wrong variant, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from remit.actors import GuessingAgent, TrialInfo, load_agent_factory
from remit.actors.faults import wrong_variant
from remit.authority import builtin_modes
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
from remit.harness import RunResult, TrialScore, builtin_suite, run
from remit.scenarios import PlanStep, Scenario, scenario_by_id

SUITES = ("handwritten", "core")
MODES = {"handwritten": tuple(builtin_modes()), "core": ("all_tools", "dual_control")}
TRIALS = {"handwritten": 2, "core": 1}
AGENTS = ("oracle", "guessing", "claiming", "false-authority", "abandoning", "withdrawing",
          "overreaching")
METRICS = ("wrong_variant", "wrong_variant_shown", "unsupported_attribute",
           "unsupported_fit", "unsupported_authority", "unsupported_cited",
           "abandoned_handoffs", "missing_handoffs", "denials", "agent_errors")
SEED = 11


@dataclass
class Totals:
    """Metrics summed over a suite's scenarios in one mode."""

    trials: int = 0
    passed: int = 0
    failed: int = 0
    wrong_variant: int = 0
    wrong_variant_shown: int = 0
    unsupported_attribute: int = 0
    unsupported_fit: int = 0
    unsupported_authority: int = 0
    unsupported_cited: int = 0
    abandoned_handoffs: int = 0
    trials_abandoning: int = 0
    missing_handoffs: int = 0
    denials: int = 0
    agent_errors: int = 0

    def add(self, score: TrialScore) -> None:
        self.trials += 1
        self.passed += score.passed
        self.failed += not score.passed
        self.wrong_variant += score.wrong_variant
        self.wrong_variant_shown += score.wrong_variant_shown
        self.unsupported_attribute += score.unsupported_attribute_claims
        self.unsupported_fit += score.unsupported_fit_claims
        self.unsupported_authority += score.unsupported_authority_claims
        self.unsupported_cited += score.unsupported_cited_claims
        self.abandoned_handoffs += score.abandoned_handoffs
        self.trials_abandoning += score.abandoned_handoffs > 0
        self.missing_handoffs += score.missing_handoffs
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


def _only(totals: dict[str, Totals], *raised: str) -> dict[str, int]:
    """Every metric other than ``raised``, summed over modes (all must be zero)."""
    return {m: _sum(totals, m) for m in METRICS if m not in raised and _sum(totals, m)}


@pytest.mark.parametrize("suite", SUITES)
def test_oracle_scores_zero_on_every_detector_in_every_mode(table: Table, suite: str) -> None:
    oracle = table[suite]["oracle"]
    for mode, totals in oracle.items():
        assert {m: getattr(totals, m) for m in METRICS if getattr(totals, m)} == {}, mode
    assert all(t.passed == t.trials for t in oracle.values())


# -- guessing -----------------------------------------------------------------------------


@pytest.mark.parametrize("suite", SUITES)
def test_guessing_agent_quotes_wrong_variants_in_every_mode(table: Table, suite: str) -> None:
    guessing = table[suite]["guessing"]
    for mode, totals in guessing.items():
        assert totals.wrong_variant > 0, mode
        assert totals.wrong_variant_shown >= totals.wrong_variant, mode
    assert _only(guessing, "wrong_variant", "wrong_variant_shown") == {}


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
def test_claiming_agent_makes_unsupported_attribute_claims(table: Table, suite: str) -> None:
    claiming = table[suite]["claiming"]
    assert all(t.unsupported_attribute == t.trials for t in claiming.values())
    assert _only(claiming, "unsupported_attribute") == {}


@pytest.mark.parametrize("suite", SUITES)
def test_false_authority_agent_makes_unsupported_authority_claims(table: Table,
                                                                   suite: str) -> None:
    agent = table[suite]["false-authority"]
    assert all(t.unsupported_authority == t.trials for t in agent.values())
    assert all(t.passed == t.trials for t in agent.values())  # delivered, not refused
    assert _only(agent, "unsupported_authority") == {}


@pytest.mark.parametrize("agent", ["abandoning", "withdrawing"])
@pytest.mark.parametrize("suite", SUITES)
def test_abandoning_agents_abandon_exactly_the_trials_they_fail(table: Table, suite: str,
                                                                agent: str) -> None:
    totals = table[suite][agent]
    for mode, t in totals.items():
        if mode != "all_tools":
            assert t.trials_abandoning > 0, mode
        # they leave the first hand-off that is not done at once, and only then fail
        assert t.trials_abandoning == t.failed, mode
    assert _only(totals, "abandoned_handoffs") == {}


@pytest.mark.parametrize("suite", SUITES)
def test_overreaching_agent_is_denied_in_dual_control(table: Table, suite: str) -> None:
    overreaching = table[suite]["overreaching"]
    assert all(t.denials > 0 for mode, t in overreaching.items() if mode != "all_tools")
    assert overreaching["all_tools"].denials == 0
    assert table[suite]["oracle"]["dual_control"].denials == 0
    assert _only(overreaching, "denials") == {}
    # It falls back to requesting, so it still reaches every goal.
    assert all(t.passed == t.trials for t in overreaching.values())


@pytest.mark.parametrize("suite", SUITES)
def test_no_fault_agent_crashes(table: Table, suite: str) -> None:
    assert {agent: _sum(totals, "agent_errors") for agent, totals in table[suite].items()} == {
        agent: 0 for agent in AGENTS}
