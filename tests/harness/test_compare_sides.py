"""compare on small fixed tables whose statistics are computed by hand."""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import JsonValue
from rich.console import Console

from remit.actors import load_agent_factory
from remit.authority import mode_by_name
from remit.harness import run
from remit.harness.aggregate import AggregationError, ScoredTrial
from remit.harness.compare import (
    Comparison,
    NotComparableError,
    Side,
    compare,
    describe_selection,
    mcnemar_exact_p,
    model_calls_source,
    paired_bootstrap,
    side_labels,
)
from remit.harness.manifest import (
    SCORER_VERSION,
    AgentIdentity,
    ErrorTreatment,
    ModeManifest,
    RunManifest,
    ScenarioSelection,
)
from remit.harness.provenance import build_manifest
from remit.harness.runner import TrialRecord
from remit.harness.scoring import TrialScore
from remit.harness.stats import Interval
from remit.reports import manifest_table
from remit.scenarios import Suite, builtin_scenarios

T, F = True, False
STARTED = datetime(2026, 11, 29, 15, 30, 12, tzinfo=UTC)


def _score(passed: bool, **fields: object) -> TrialScore:
    values: dict[str, object] = {
        "passed": passed, "failures": () if passed else ("final_state: expected x, got y",),
        "wrong_variant": False, "wrong_skus": (), "claims": 0, "unsupported_claims": 0,
        "unsupported": (), "abandoned_handoffs": 0, "abandoned": (),
        "clarification_rounds": 0, "review_minutes": 0, "denials": 0, "steps": 10,
        "agent_writes": 2, "end_reason": "terminal_state", "final_state": "accepted",
    }
    values.update(fields)
    return TrialScore.model_validate(values)


def _records(mode: str, table: dict[str, list[bool]], *,
             infra: AbstractSet[tuple[str, int]] = frozenset(),
             **fields: object) -> list[TrialRecord]:
    return [
        TrialRecord(scored=ScoredTrial(scenario_id=scenario_id, mode=mode, trial=i,
                                       score=_score(passed, **fields)),
                    seed=i, trail=(),
                    infra_error="timeout" if (scenario_id, i) in infra else None)
        for scenario_id, outcomes in table.items()
        for i, passed in enumerate(outcomes)
    ]


def _manifest(*, run_id: str = "r-1", modes: tuple[str, ...] = ("dual_control", "all_tools"),
              suite: str = "f" * 64, scorer: str = SCORER_VERSION,
              on_exhausted: str = "exclude",
              fingerprints: dict[str, str] | None = None) -> RunManifest:
    prints = fingerprints or {}
    return RunManifest.model_validate({
        "run_id": run_id, "remit_version": "0.1.0", "suite_id": "core",
        "suite_fingerprint": suite, "scorer_version": scorer,
        "modes": [ModeManifest(name=m, fingerprint=prints.get(m, f"fp-{m}" + "0" * 40),
                               map_hash="m" * 64) for m in modes],
        "agent_id": "baseline", "agent_config_hash": "a" * 64, "persona_config_hash": "p" * 64,
        "trials": 2, "seed": 0, "error_treatment": {"on_exhausted": on_exhausted},
        "started_at": STARTED,
    })


# 6 scenarios x 2 trials. "Passes" at scenario level = both trials passed.
#          a       b       b-a   outcome a -> b
TABLE_A = {"s1": [F, F], "s2": [F, T], "s3": [F, F], "s4": [T, F], "s5": [F, F], "s6": [T, T]}
TABLE_B = {"s1": [T, T], "s2": [T, T], "s3": [T, T], "s4": [T, T], "s5": [T, T], "s6": [T, F]}
# diffs:     +1          +1/2         +1           +1/2         +1           -1/2


def _sides(table_a: dict[str, list[bool]] = TABLE_A, table_b: dict[str, list[bool]] = TABLE_B,
           manifest_b: RunManifest | None = None) -> tuple[Side, Side]:
    manifest = _manifest()
    trials = _records("dual_control", table_a) + _records("all_tools", table_b)
    a = Side(label="dual_control", manifest=manifest, mode="dual_control", trials=trials)
    b = Side(label="all_tools", manifest=manifest_b or manifest, mode="all_tools", trials=trials)
    return a, b


def test_delta_is_the_mean_paired_difference_of_pass1() -> None:
    result = compare(*_sides())
    assert result.n_paired == 6
    assert result.pass1_a == pytest.approx(2 / 6)     # (0 + 1/2 + 0 + 1/2 + 0 + 1) / 6
    assert result.pass1_b == pytest.approx(11 / 12)   # (5 + 1/2) / 6
    assert result.delta == pytest.approx(7 / 12)      # (1 + 1/2 + 1 + 1/2 + 1 - 1/2) / 6
    assert (result.a.pass1, result.b.pass1) == (result.pass1_a, result.pass1_b)


def test_mcnemar_counts_scenarios_where_every_trial_passed() -> None:
    result = compare(*_sides())
    # s1..s5 pass on b only (s2 and s4 pass one trial of two on a: a failure there)
    assert (result.b01, result.b10) == (5, 1)
    assert result.mcnemar_p == pytest.approx(2 * (1 + 6) / 64)  # 0.21875


def test_flips_name_each_scenario_and_its_direction() -> None:
    result = compare(*_sides())
    assert [(f.scenario_id, f.from_, f.to) for f in result.flips] == [
        ("s1", "fail", "pass"), ("s2", "fail", "pass"), ("s3", "fail", "pass"),
        ("s4", "fail", "pass"), ("s5", "fail", "pass"), ("s6", "pass", "fail")]


@pytest.mark.parametrize(("b01", "b10", "p"), [
    (5, 1, 0.21875), (1, 5, 0.21875), (0, 0, 1.0), (3, 3, 1.0), (0, 6, 2 / 64),
    (0, 1, 1.0), (2, 10, 2 * (1 + 12 + 66) / 4096),
])
def test_mcnemar_exact_p(b01: int, b10: int, p: float) -> None:
    assert mcnemar_exact_p(b01, b10) == pytest.approx(p)


def test_bootstrap_is_deterministic_for_a_seed_and_contains_the_delta() -> None:
    first = compare(*_sides(), seed=7, resamples=2000)
    again = compare(*_sides(), seed=7, resamples=2000)
    assert (first.delta_low, first.delta_high) == (again.delta_low, again.delta_high)
    assert -0.5 <= first.delta_low <= first.delta <= first.delta_high <= 1.0
    assert first.delta_low < first.delta_high
    assert (first.seed, first.resamples, first.confidence) == (7, 2000, 0.95)


def test_bootstrap_interval_is_a_point_when_every_difference_is_equal() -> None:
    # every scenario: a passes 0 of 3, b passes 1 of 3 -> every difference is exactly 1/3
    table_a = {f"s{i}": [F, F, F] for i in range(5)}
    table_b = {f"s{i}": [T, F, F] for i in range(5)}
    result = compare(*_sides(table_a, table_b), seed=3, resamples=500)
    assert result.delta == 1 / 3
    assert (result.delta_low, result.delta_high) == (1 / 3, 1 / 3)
    assert paired_bootstrap([Fraction(1, 2)] * 4, seed=1, resamples=50) == (0.5, 0.5)


def test_bootstrap_rejects_no_resamples() -> None:
    with pytest.raises(ValueError, match="resamples=0 must be at least 1"):
        paired_bootstrap([Fraction(1)], resamples=0)


def _counts(interval: Interval) -> tuple[int, int]:
    return interval.successes, interval.total


def test_rates_side_by_side_are_mode_summaries_of_the_paired_trials() -> None:
    manifest = _manifest()
    trials = (_records("dual_control", {"s1": [T, T], "s2": [T, F]}, wrong_variant=True,
                       wrong_variant_shown=True, claims=2, unsupported_claims=1,
                       fit_claims=2, unsupported_fit_claims=1, cited_claims=3)
              + _records("all_tools", {"s1": [T, T], "s2": [T, T]}, handoffs=2,
                         abandoned_handoffs=1, missing_handoffs=1))
    result = compare(Side(label="a", manifest=manifest, mode="dual_control", trials=trials),
                     Side(label="b", manifest=manifest, mode="all_tools", trials=trials))
    sa, sb = result.a.summary, result.b.summary
    assert _counts(sa.wrong_variant_rate) == _counts(sa.wrong_variant_shown_rate) == (4, 4)
    assert _counts(sa.unsupported_claim_rate) == (4, 4)       # trials with one
    assert _counts(sa.unsupported_per_claim) == (4, 8)        # per stated claim
    assert _counts(sa.unsupported_fit_claims) == (4, 8)
    assert _counts(sa.unsupported_attribute_claims) == (0, 0)
    assert _counts(sa.unsupported_cited) == (0, 12)
    assert _counts(sb.abandoned_handoff_rate) == _counts(sb.missing_handoff_rate) == (4, 4)
    assert _counts(sb.abandoned_per_handoff) == (4, 8)
    assert sb.wrong_variant_rate.value == sb.wrong_variant_shown_rate.value == 0.0
    assert sa.pass_hat_k[1] == pytest.approx(result.pass1_a) == 0.75
    assert (result.a.mode, result.b.mode, result.a.run_id) == ("dual_control", "all_tools", "r-1")
    assert (result.a.scorer_version, result.a.unmeasured) == (SCORER_VERSION, ())


def test_a_side_scored_by_scorer_1_aggregates_and_names_what_it_did_not_measure() -> None:
    # scorer 1 kept abandoned hand-offs but not the hand-offs opened (they read 0)
    old = _manifest(run_id="r-old", scorer="1", modes=("dual_control",))
    new = _manifest(run_id="r-new", modes=("dual_control",))
    a = Side(label="r-old", manifest=old, mode="dual_control",
             trials=_records("dual_control", TABLE_A, abandoned_handoffs=2))
    b = Side(label="r-new", manifest=new, mode="dual_control",
             trials=_records("dual_control", TABLE_B, handoffs=1))

    result = compare(a, b, force=True)

    assert _counts(result.a.summary.abandoned_handoff_rate) == (12, 12)
    assert result.a.unmeasured == ("wrong_variant_shown_rate", "missing_handoff_rate",
                                   "no_valid_write_rate", "unsupported_attribute_claims",
                                   "unsupported_fit_claims", "unsupported_authority_claims",
                                   "unsupported_cited", "abandoned_per_handoff")
    assert (result.a.scorer_version, result.b.unmeasured) == ("1", ())
    for key in result.a.unmeasured:  # no data, rather than scorer 1's defaults
        assert _counts(getattr(result.a.summary, key)) == (0, 0), key
    assert result.warnings[0].startswith("forced comparison: scorer version differs")
    assert result.warnings[-1].startswith(
        "side a was scored by scorer 1, which did not measure wrong variant (shown), "
        "missing hand-off (trials), ")


def test_comparison_serialises_to_json_with_from_and_to() -> None:
    result = compare(*_sides())
    dumped = result.model_dump(mode="json")
    assert dumped["flips"][0] == {"scenario_id": "s1", "from": "fail", "to": "pass"}
    assert json.loads(json.dumps(dumped))["a"]["summary"]["pass_hat_k"]["1"] == pytest.approx(
        1 / 3)
    assert Comparison.model_validate(dumped) == result


def test_scenarios_on_one_side_only_are_listed_and_left_out() -> None:
    table_a = {**TABLE_A, "s7": [T, T]}
    table_b = {"s0": [F, F], **TABLE_B}
    result = compare(*_sides(table_a, table_b))
    assert result.n_paired == 6
    assert result.delta == pytest.approx(7 / 12)
    assert [(m.scenario_id, m.missing_on, m.reason) for m in result.missing] == [
        ("s0", "a", "not_run"), ("s7", "b", "not_run")]


def test_sides_without_a_shared_scenario_are_refused_even_when_forced() -> None:
    with pytest.raises(NotComparableError, match="share no scenario") as info:
        compare(*_sides({"s1": [T]}, {"s2": [T]}), force=True)
    assert not info.value.forceable


def test_a_different_suite_fingerprint_is_refused_naming_both() -> None:
    other = _manifest(run_id="r-2", suite="e" * 64)
    with pytest.raises(NotComparableError,
                       match=r"suite fingerprint differs \(a='ffffffffffff'.*b='eeeeeeeeeeee'"
                       ) as info:
        compare(*_sides(manifest_b=other))
    assert info.value.differences == {"suite_fingerprint": ("f" * 64, "e" * 64)}
    assert info.value.forceable
    assert "--force" in str(info.value)


def test_a_different_scorer_version_is_refused_naming_both() -> None:
    other = _manifest(run_id="r-2", scorer="1", suite="e" * 64)
    with pytest.raises(NotComparableError,
                       match=r"suite fingerprint differs.*; scorer version differs \(a='2', b='1'\)"
                       ) as info:
        compare(*_sides(manifest_b=other))
    assert set(info.value.differences) == {"suite_fingerprint", "scorer_version"}


def test_force_compares_anyway_and_warns() -> None:
    other = _manifest(run_id="r-2", scorer="3")  # a scorer this remit does not know
    result = compare(*_sides(manifest_b=other), force=True)
    assert result.forced
    assert result.delta == pytest.approx(7 / 12)
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("forced comparison: scorer version differs")
    assert not compare(*_sides(), force=True).forced  # nothing to override


def test_a_mode_that_changed_between_runs_is_a_warning() -> None:
    first = _manifest(modes=("dual_control",))
    second = _manifest(run_id="r-2", modes=("dual_control",), on_exhausted="failure",
                       fingerprints={"dual_control": "c" * 64})
    a = Side(label="r-1", manifest=first, mode="dual_control",
             trials=_records("dual_control", TABLE_A))
    b = Side(label="r-2", manifest=second, mode="dual_control",
             trials=_records("dual_control", TABLE_B))
    result = compare(a, b)
    assert result.delta == pytest.approx(7 / 12)
    assert [w.split(" (")[0] for w in result.warnings] == [
        "mode 'dual_control' differs between the sides",
        "the sides treat infrastructure errors differently"]
    assert (result.a.run_id, result.b.run_id) == ("r-1", "r-2")


def test_a_mode_the_run_did_not_run_is_refused() -> None:
    manifest = _manifest(modes=("dual_control",))
    a = Side(label="a", manifest=manifest, mode="dual_control", trials=())
    b = Side(label="b", manifest=manifest, mode="oracle_plan", trials=())
    with pytest.raises(NotComparableError, match="mode='oracle_plan', which run 'r-1' did not"):
        compare(a, b)


def test_infrastructure_errors_are_excluded_when_the_run_says_exclude() -> None:
    manifest = _manifest(on_exhausted="exclude")
    trials = (_records("dual_control", {"s1": [F, F], "s2": [T, T], "s3": [T, T]})
              + _records("all_tools", {"s1": [T, F], "s2": [F, F], "s3": [T, T]},
                         infra={("s1", 1), ("s2", 0), ("s2", 1)}))
    result = compare(Side(label="a", manifest=manifest, mode="dual_control", trials=trials),
                     Side(label="b", manifest=manifest, mode="all_tools", trials=trials))
    # s1 on b keeps its one counted trial (a pass); s2 on b has none left and is unpaired
    assert result.n_paired == 2
    assert (result.excluded, result.b.excluded, result.b.infra_failures) == (3, 3, 0)
    assert result.delta == pytest.approx((1 + 0) / 2)
    assert [(m.scenario_id, m.missing_on, m.reason) for m in result.missing] == [
        ("s2", "b", "all_excluded")]
    assert result.b.summary.trials == 3
    assert [(f.scenario_id, f.to) for f in result.flips] == [("s1", "pass")]


def test_infrastructure_errors_are_failures_when_the_run_says_failure() -> None:
    manifest = _manifest(on_exhausted="failure")
    # an infrastructure error marked on a trial that had scored a pass still counts as failed
    trials = (_records("dual_control", {"s1": [F, F], "s2": [T, T], "s3": [T, T]})
              + _records("all_tools", {"s1": [T, T], "s2": [F, F], "s3": [T, T]},
                         infra={("s1", 1), ("s2", 0), ("s2", 1)}))
    result = compare(Side(label="a", manifest=manifest, mode="dual_control", trials=trials),
                     Side(label="b", manifest=manifest, mode="all_tools", trials=trials))
    assert result.n_paired == 3
    assert (result.excluded, result.b.excluded, result.b.infra_failures) == (0, 0, 3)
    assert result.delta == pytest.approx((1 / 2 - 1 + 0) / 3)
    assert result.missing == ()
    assert (result.b01, result.b10) == (0, 1)  # s1: 1 of 2 on b is still a failure


def test_a_trial_recorded_twice_is_an_aggregation_error() -> None:
    manifest = _manifest()
    trials = (_records("dual_control", {"s1": [T]}) * 2 + _records("all_tools", {"s1": [T]}))
    with pytest.raises(AggregationError, match="scored twice"):
        compare(Side(label="a", manifest=manifest, mode="dual_control", trials=trials),
                Side(label="b", manifest=manifest, mode="all_tools", trials=trials))


def test_modes_of_a_real_run_compare_and_agree_with_its_summaries(tmp_path: Path) -> None:
    # in these scenarios an owner does not act at once on the abandoning agent's hand-off,
    # and it ends instead of following up: it fails under dual control, passes with all tools
    chosen = ("fff-substitution", "custom-spec-high-temperature", "actuator-pairing",
              "unresponsive-finance")
    suite = Suite(id="core", scenarios=tuple(s for s in builtin_scenarios() if s.id in chosen))
    modes = [mode_by_name("dual_control"), mode_by_name("all_tools")]
    result = run(suite.scenarios, modes, load_agent_factory("abandoning"), trials=2, seed=5)
    manifest = build_manifest(run_id="r-real", suite=suite, modes=modes, agent_id="abandoning",
                              agent_config={}, trials=2, seed=5,
                              error_treatment=ErrorTreatment(), started_at=STARTED,
                              cwd=str(tmp_path))
    compared = compare(Side(label="dual", manifest=manifest, mode="dual_control",
                            trials=result.trials),
                       Side(label="all", manifest=manifest, mode="all_tools",
                            trials=result.trials))
    assert compared.n_paired == 4
    assert compared.a.summary == result.summaries["dual_control"]
    assert compared.b.summary == result.summaries["all_tools"]
    assert (compared.pass1_a, compared.pass1_b, compared.delta) == (0.0, 1.0, 1.0)
    assert (compared.delta_low, compared.delta_high) == (1.0, 1.0)
    assert (compared.b01, compared.b10, compared.mcnemar_p) == (4, 0, 2 / 16)
    assert [f.scenario_id for f in compared.flips] == [s.id for s in suite]
    assert compared.a.mode_fingerprint == modes[0].fingerprint
    dual = compared.a.summary
    assert _counts(dual.abandoned_handoff_rate) == _counts(dual.abandoned_per_handoff) == (8, 8)
    assert _counts(dual.missing_handoff_rate) == (0, 8)


@pytest.mark.parametrize(("cache_a", "cache_b", "warned"), [
    ("replay", "off", True), ("record", "replay", True),
    ("off", "record", False), ("replay", "replay", False), (None, None, False)])
def test_replayed_against_live_model_calls_is_a_warning(
        cache_a: str | None, cache_b: str | None, warned: bool) -> None:
    def llm_run(run_id: str, cache: str | None) -> RunManifest:
        manifest = _manifest(run_id=run_id, modes=("dual_control",))
        metadata = {} if cache is None else {"llm_cache": cache}
        return manifest.model_copy(update={"metadata": metadata})

    a = Side(label="r-1", manifest=llm_run("r-1", cache_a), mode="dual_control",
             trials=_records("dual_control", TABLE_A))
    b = Side(label="r-2", manifest=llm_run("r-2", cache_b), mode="dual_control",
             trials=_records("dual_control", TABLE_B))

    warnings = compare(a, b).warnings

    assert [w.startswith("one side's model calls were replayed from cassettes and the "
                         "other's were live") for w in warnings] == ([True] if warned else [])
    assert model_calls_source(a.manifest) == {"replay": "replayed", "record": "live, recorded",
                                              "off": "live", None: None}[cache_a]


def test_the_manifest_table_says_how_model_calls_were_answered() -> None:
    manifest = _manifest().model_copy(update={"metadata": {"llm_cache": "replay"}})
    out = Console(width=100, record=True)
    out.print(manifest_table(manifest))
    rows = [" ".join(line.replace("│", " ").split()) for line in out.export_text().splitlines()]
    assert "model calls replayed" in rows
    out.print(manifest_table(_manifest()))
    assert "model calls" not in out.export_text()  # exporting cleared the record


# -- what is compared, and how the sides are named ----------------------------------------


def _run_side(run_id: str, agent_id: str, mode: str, table: dict[str, list[bool]],
              **updates: object) -> Side:
    manifest = _manifest(run_id=run_id, modes=(mode,)).model_copy(
        update={"agent_id": agent_id, **updates})
    return Side(manifest=manifest, mode=mode, trials=_records(mode, table))


def test_modes_of_one_run_are_named_by_mode() -> None:
    manifest = _manifest()
    trials = _records("dual_control", TABLE_A) + _records("all_tools", TABLE_B)
    result = compare(Side(manifest=manifest, mode="dual_control", trials=trials),
                     Side(manifest=manifest, mode="all_tools", trials=trials))
    assert result.kind == "modes"
    assert (result.a.label, result.b.label) == ("dual_control", "all_tools")
    assert result.title == "modes dual_control vs all_tools of run r-1 (baseline), 6 paired " \
                           "scenarios"


def test_two_runs_are_named_by_run_and_agent_and_the_title_names_the_mode() -> None:
    result = compare(_run_side("r-1", "baseline", "dual_control", TABLE_A),
                     _run_side("r-2", "my_agents:Quitter", "dual_control", TABLE_B))
    assert result.kind == "runs"
    assert (result.a.label, result.b.label) == ("r-1 (baseline)", "r-2 (my_agents:Quitter)")
    assert result.title == ("runs r-1 (baseline) vs r-2 (my_agents:Quitter), mode "
                            "dual_control, 6 paired scenarios")
    dumped = result.model_dump(mode="json")
    assert (dumped["kind"], dumped["a"]["label"]) == ("runs", "r-1 (baseline)")


def test_two_runs_in_different_modes_name_each_side_s_mode() -> None:
    a = _run_side("r-1", "baseline", "dual_control", TABLE_A)
    b = _run_side("r-2", "baseline", "all_tools", TABLE_B)
    assert side_labels(a, b) == ("r-1 (baseline) dual_control", "r-2 (baseline) all_tools")
    assert compare(a, b).title == ("runs r-1 (baseline) dual_control vs r-2 (baseline) "
                                   "all_tools, 6 paired scenarios")


def test_a_label_given_to_a_side_is_kept() -> None:
    a = _run_side("r-1", "baseline", "dual_control", TABLE_A).model_copy(
        update={"label": "before"})
    b = _run_side("r-2", "baseline", "dual_control", TABLE_B)
    result = compare(a, b)
    assert (result.a.label, result.b.label) == ("before", "r-2 (baseline)")
    assert result.title.startswith("runs before vs r-2 (baseline), mode dual_control")


def _identity(path: str | None = "my_agents:Quitter", code: str | None = "1" * 64,
              config: dict[str, JsonValue] | None = None) -> AgentIdentity:
    return AgentIdentity(import_path=path, code_hash=code, modules=("my_agents",),
                         declared_config=config if config is not None else {"patience": 3})


@pytest.mark.parametrize(("a", "b", "warned"), [
    (_identity(), _identity(code="2" * 64), True),
    (_identity(), _identity(), False),                                    # the same agent
    (_identity(), _identity(path="my_agents:Stayer", code="2" * 64), False),  # two agents
    (_identity(), _identity(code="2" * 64, config={"patience": 5}), False),   # configured apart
    (_identity(), None, False),                                           # not recorded
    (_identity(code=None), _identity(code="2" * 64), False),               # source unreadable
])
def test_agents_that_differ_only_by_code_are_a_warning(
        a: AgentIdentity, b: AgentIdentity | None, warned: bool) -> None:
    result = compare(_run_side("r-1", "my_agents:Quitter", "dual_control", TABLE_A, agent=a),
                     _run_side("r-2", "my_agents:Quitter", "dual_control", TABLE_B, agent=b))
    code = [w for w in result.warnings if w.startswith("the agents differ only by code")]
    assert code == ([
        "the agents differ only by code: both are my_agents:Quitter with the same declared "
        "configuration, but its source changed between the runs (code hash "
        "a='111111111111', b='222222222222')"] if warned else [])


def test_a_refusal_names_the_selections_that_differ_and_force_still_compares() -> None:
    tagged = ScenarioSelection(tags=("discount",), selected=2, total=6)
    a = _run_side("r-1", "baseline", "dual_control", TABLE_A, selection=tagged,
                  suite_fingerprint="e" * 64)
    b = _run_side("r-2", "baseline", "dual_control", TABLE_B)
    with pytest.raises(NotComparableError) as info:
        compare(a, b)
    assert ("suite fingerprint differs (a='eeeeeeeeeeee' of suite 'core', b='ffffffffffff' of "
            "suite 'core'): run r-1 ran 2 of 6 scenarios of core (--tag discount), run r-2 ran "
            "all 6 scenarios of core; compare runs of the same suite") in str(info.value)
    forced = compare(a, b, force=True)
    assert forced.forced
    assert forced.n_paired == 6
    assert "run r-1 ran 2 of 6 scenarios of core (--tag discount)" in forced.warnings[0]


@pytest.mark.parametrize(("selection", "text"), [
    (None, "all scenarios of core"),
    (ScenarioSelection(selected=6, total=6), "all 6 scenarios of core"),
    (ScenarioSelection(scenario_ids=("s1", "s2"), selected=2, total=6),
     "2 of 6 scenarios of core (--scenario s1,s2)"),
    (ScenarioSelection(keyword="fit and not rush", sample=3, sample_seed=7, selected=3,
                       total=6),
     "3 of 6 scenarios of core (-k 'fit and not rush' --sample 3 seed 7)"),
])
def test_a_selection_reads_as_a_phrase(selection: ScenarioSelection | None, text: str) -> None:
    assert describe_selection(selection, "core") == text
