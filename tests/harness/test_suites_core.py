"""The built-in suites: ``core`` is composed, balanced, verified, stable, and it discriminates.

The reference agents calibrate it: the oracle passes every scenario in every mode, each
fault agent shows its metric, and the baseline is clearly imperfect, differently per mode.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from remit.actors import load_agent_factory, oracle_factory
from remit.authority import Action, builtin_modes
from remit.errors import RemitError
from remit.harness import (
    CORE_SIZE,
    RunResult,
    UnknownSuiteError,
    build_core,
    builtin_suite,
    run,
    suite_names,
)
from remit.scenarios import (
    PERTURBATION_VARIANTS,
    CommercialGroup,
    LifecycleGroup,
    ProductGroup,
    Suite,
    builtin_scenarios,
    export_suite,
    group_slug,
    load_suite,
)
from remit.world import TransitionEntry

MODES = list(builtin_modes().values())
DUAL = [builtin_modes()["dual_control"]]
CORE = builtin_suite("core")


@pytest.fixture(scope="module")
def oracle_run() -> RunResult:
    return run(CORE.scenarios, MODES, oracle_factory)


@pytest.fixture(scope="module")
def baseline_run() -> RunResult:
    return run(CORE.scenarios, MODES, load_agent_factory("baseline"))


def test_the_builtin_suites_are_named() -> None:
    assert suite_names() == ("core", "handwritten")
    handwritten = builtin_suite("handwritten")
    assert handwritten.id == "handwritten"
    assert handwritten.scenarios == builtin_scenarios()
    assert builtin_suite("core") is CORE


def test_an_unknown_suite_is_a_user_error_naming_the_suites() -> None:
    with pytest.raises(UnknownSuiteError, match=r"name='nope'.*core, handwritten") as info:
        builtin_suite("nope")
    assert isinstance(info.value, RemitError)
    assert isinstance(info.value, ValueError)
    assert (info.value.name, info.value.valid) == ("nope", ("core", "handwritten"))


def test_core_holds_100_to_150_scenarios_with_stable_readable_ids() -> None:
    assert 100 <= len(CORE) == CORE_SIZE <= 150
    ids = [s.id for s in CORE]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    pattern = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*-s\d\d")
    assert all(pattern.fullmatch(i) for i in ids)


def test_core_covers_every_group_and_every_perturbation() -> None:
    ids = [s.id for s in CORE]
    for product in ProductGroup:
        assert any(i.startswith(f"{group_slug(product)}-") for i in ids), product
    for group in (*CommercialGroup, *LifecycleGroup):
        assert any(f"-{group_slug(group)}-" in i for i in ids), group
    for variant in PERTURBATION_VARIANTS:
        assert any(f"-{variant.slug}-s" in i for i in ids), variant.slug


def test_the_build_reports_space_rejections_balance_and_no_failed_verification() -> None:
    build = build_core()
    assert build.suite is CORE
    assert build.space_size >= 1000
    assert build.combinations == build.space_size + sum(
        count for reason, count in build.rejected.items() if reason != "verification_failed")
    assert build.verification_failures == {}
    assert sum(build.bins["product"].values()) == len(CORE)
    assert max(build.bins["commercial"].values()) - min(build.bins["commercial"].values()) <= 1
    assert len(build.bins["perturbation"]) == len(PERTURBATION_VARIANTS)


def test_the_fingerprint_is_stable_across_builds_and_follows_any_change() -> None:
    fresh = build_core.__wrapped__(cached=False)  # composed, sampled and verified anew
    assert fresh.suite is not CORE
    assert [s.id for s in fresh.suite] == [s.id for s in CORE]
    assert fresh.suite.fingerprint == CORE.fingerprint
    changed = CORE.scenarios[-1].model_copy(update={"max_steps": CORE.scenarios[-1].max_steps + 1})
    edited = Suite(id="core", scenarios=(*CORE.scenarios[:-1], changed))
    assert edited.fingerprint != CORE.fingerprint


def test_the_oracle_passes_every_core_scenario_in_every_mode(oracle_run: RunResult) -> None:
    failed = [(t.scored.scenario_id, t.scored.mode, t.scored.score.failures)
              for t in oracle_run.trials if not t.scored.score.passed]
    assert failed == []
    assert {mode: s.pass_hat_k[1] for mode, s in oracle_run.summaries.items()} == {
        mode.name: 1.0 for mode in MODES}


def test_the_oracle_sees_each_expiry_through_a_requote(oracle_run: RunResult) -> None:
    expiring = [t for t in oracle_run.trials if "-expiry-" in t.scored.scenario_id]
    assert len(expiring) >= 3 * len(MODES)
    for trial in expiring:
        actions = [e.action for e in trial.trail if isinstance(e, TransitionEntry)]
        assert Action.EXPIRE in actions, (trial.scored.scenario_id, trial.scored.mode)
        assert actions.index(Action.EXPIRE) < actions.index(Action.REVISE)


@pytest.mark.parametrize(("agent", "metric"), [
    ("guessing", "wrong_variant_rate"),
    ("claiming", "unsupported_claim_rate"),
    ("abandoning", "abandoned_handoff_rate"),
])
def test_each_fault_agent_shows_its_metric_on_core(agent: str, metric: str) -> None:
    result = run(CORE.scenarios, DUAL, load_agent_factory(agent))
    summary = result.summaries["dual_control"]
    assert getattr(summary, metric).value > 0


def test_the_overreaching_agent_is_denied_on_core() -> None:
    result = run(CORE.scenarios, DUAL, load_agent_factory("overreaching"))
    assert result.summaries["dual_control"].mean_denials > 0


def test_the_baseline_is_clearly_imperfect_and_differs_by_mode(baseline_run: RunResult) -> None:
    passing = {mode: s.pass_hat_k[1] for mode, s in baseline_run.summaries.items()}
    assert min(passing.values()) < 0.9
    assert max(passing.values()) - min(passing.values()) >= 0.1
    assert max(passing.values()) > 0.5


def test_core_exports_to_files_and_loads_back_with_the_same_fingerprint(
        tmp_path: Path) -> None:
    export_suite(CORE, tmp_path)
    first = sorted(tmp_path.iterdir())[0]
    first.rename(tmp_path / f"zzz-{first.name}")  # same scenarios, another file order
    loaded = load_suite(tmp_path, suite_id="core")
    assert sorted(s.id for s in loaded) == [s.id for s in CORE]
    assert [s.id for s in loaded] != [s.id for s in CORE]
    assert loaded.fingerprint == CORE.fingerprint


def test_the_fingerprint_ignores_order_and_follows_every_change() -> None:
    reordered = Suite(id="core", scenarios=tuple(reversed(CORE.scenarios)))
    changed = CORE.scenarios[7].model_copy(update={"max_steps": CORE.scenarios[7].max_steps + 1})
    edited = Suite(id="core", scenarios=(*CORE.scenarios[:7], changed, *CORE.scenarios[8:]))
    assert reordered.fingerprint == CORE.fingerprint
    assert edited.fingerprint != CORE.fingerprint


def test_rereading_core_by_fingerprint_gives_the_verified_suite() -> None:
    assert builtin_suite("core", fingerprint=CORE.fingerprint) == CORE
    assert builtin_suite("core", fingerprint="0" * 64) == CORE  # falls back to verifying
    assert build_core(verify=False).verification_failures == {}
