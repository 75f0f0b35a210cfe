"""Building a run's report: per-mode results, comparisons, breakdowns, failure causes,
per-scenario rows and the trials with their approval trails.

:func:`build_report` is the one entry point; every format renders its result. It reads
stored records only (no trial is re-run) and stays fast on large runs: approval trails
are built for the trials the trail policy keeps (by default the failing trials plus one
passing example per scenario and mode), and everything else is counting.

Trials that ended in an infrastructure error follow the manifest's error treatment, as
in :func:`remit.harness.compare`: ``exclude`` leaves them out of every number (they
still appear in ``trials`` with ``counted=False``), ``failure`` counts them as failed.

A run scored by an older scorer is reported as it was scored: a note names its scorer
and what that scorer did not measure, ``unmeasured_rates`` lists those rates
(:func:`remit.harness.unmeasured`), renderers show them as not measured and the
trade-off leaves them out.

Example:
    >>> report = build_report(store.manifest(run_id), store.trials(run_id),
    ...                       resolve_suite(manifest.suite_id))        # doctest: +SKIP
    >>> report.modes[0].pass_hat_k[0].value                             # doctest: +SKIP
    0.94
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime

from remit.authority import Action, ControlMode, Role
from remit.harness.aggregate import ScoredTrial, aggregate
from remit.harness.compare import Comparison, NotComparableError, Side, compare
from remit.harness.manifest import RunManifest
from remit.harness.rates import aggregable, measured_only, scorer_note, unmeasured
from remit.harness.runner import TrialRecord
from remit.harness.stats import wilson
from remit.harness.tally import ScenarioTally
from remit.harness.tradeoff import paired_metrics
from remit.reports.approval import grant_roles
from remit.reports.model import (
    REPORT_VERSION,
    Breakdown,
    BreakdownCell,
    FacetRow,
    FailureCause,
    FlipRow,
    HandoffRow,
    ModeComparison,
    ModeCount,
    ModeReport,
    PassK,
    RunReport,
    ScenarioCell,
    ScenarioFlip,
    ScenarioRow,
    TrailPolicy,
)
from remit.reports.tradeoff import TESTED_METRICS, tradeoff_rows, tradeoff_table
from remit.reports.trial_rows import (
    TrailLoader,
    control_modes,
    is_counted,
    kept_trails,
    policy_note,
    trial_row,
    with_trails,
)
from remit.scenarios import Scenario, Suite

__all__ = ["TESTED_METRICS", "build_report", "failure_cause", "required_handoffs",
           "tradeoff_rows"]

_RULE = re.compile(r"\b(C[1-7]|S[1-3])\b")
_ACTIONS = frozenset(a.value for a in Action)
_HANDOFFS_TAG = "handoffs"


def failure_cause(sentence: str) -> tuple[str, str | None]:
    """The expectation a failure sentence names and the fit rules it mentions.

    Example:
        >>> failure_cause("owner_actions: confirm_fit declined: C2 torque too low")
        ('owner_actions', 'C2')
    """
    expectation = sentence.split(":", 1)[0].strip() or "failed"
    rules = sorted(set(_RULE.findall(sentence)))
    return expectation, ",".join(rules) or None


def required_handoffs(scenario: Scenario) -> tuple[int, bool]:
    """How many owner actions ``scenario`` needs, and whether its tags said so.

    ``tags["handoffs"]`` when it is a number, else the reference plan's owner steps
    (writes whose role is not the agent).
    """
    tagged = scenario.tags.get(_HANDOFFS_TAG, "")
    if tagged.isdigit():
        return int(tagged), True
    return sum(1 for step in scenario.plan
               if step.role is not Role.AGENT and step.tool in _ACTIONS), False


# -- per mode ------------------------------------------------------------------------------


def _scored(record: TrialRecord) -> ScoredTrial:
    scored = aggregable(record.scored)
    if record.infra_error is not None and scored.score.passed:
        return scored.model_copy(
            update={"score": scored.score.model_copy(update={"passed": False})})
    return scored


def _mode_report(name: str, fingerprint: str, records: Sequence[TrialRecord],
                 counted: Sequence[ScoredTrial], scorer_version: str) -> ModeReport:
    infra = sum(r.infra_error is not None for r in records)
    excluded = len(records) - len(counted)
    if not counted:
        empty = wilson(0, 0)
        return ModeReport(
            mode=name, fingerprint=fingerprint, scenarios=0, trials=0, passed=0,
            pass_hat_k=(), pass_rate=empty, wrong_variant_rate=empty,
            wrong_variant_shown_rate=empty, unsupported_claim_rate=empty,
            unsupported_per_claim=empty, unsupported_attribute_claims=empty,
            unsupported_fit_claims=empty, unsupported_authority_claims=empty,
            unsupported_cited=empty, abandoned_handoff_rate=empty,
            abandoned_per_handoff=empty, missing_handoff_rate=empty,
            no_valid_write_rate=empty, mean_clarification_rounds=0.0,
            mean_review_minutes=0.0, mean_denials=0.0, mean_steps=0.0, errors=0,
            infra_errors=infra, excluded=excluded)
    s = measured_only(aggregate(counted), scorer_version)
    return ModeReport(
        mode=name, fingerprint=fingerprint, scenarios=s.scenarios, trials=s.trials,
        passed=s.pass_rate.successes,
        pass_hat_k=tuple(PassK(k=k, value=v) for k, v in sorted(s.pass_hat_k.items())),
        pass_rate=s.pass_rate, wrong_variant_rate=s.wrong_variant_rate,
        wrong_variant_shown_rate=s.wrong_variant_shown_rate,
        unsupported_claim_rate=s.unsupported_claim_rate,
        unsupported_per_claim=s.unsupported_per_claim,
        unsupported_attribute_claims=s.unsupported_attribute_claims,
        unsupported_fit_claims=s.unsupported_fit_claims,
        unsupported_authority_claims=s.unsupported_authority_claims,
        unsupported_cited=s.unsupported_cited,
        abandoned_handoff_rate=s.abandoned_handoff_rate,
        abandoned_per_handoff=s.abandoned_per_handoff,
        missing_handoff_rate=s.missing_handoff_rate,
        no_valid_write_rate=s.no_valid_write_rate,
        mean_clarification_rounds=s.mean_clarification_rounds,
        mean_review_minutes=s.mean_review_minutes, mean_denials=s.mean_denials,
        mean_steps=s.mean_steps, errors=s.errors, infra_errors=infra, excluded=excluded,
        model_calls=s.model_calls, prompt_tokens=s.prompt_tokens,
        completion_tokens=s.completion_tokens, cost=s.cost,
        reply_issues=s.reply_issues, reply_issue_rate=s.reply_issue_rate,
        mean_reply_issues=s.mean_reply_issues)


# -- comparisons ---------------------------------------------------------------------------


_TRADEOFF_RESAMPLES = 2_000
"""Resamples per trade-off metric at most (up to sixteen of them per pair of modes;
pass^1 keeps the comparison's own)."""


def _comparison(c: Comparison, tallies: Mapping[str, tuple[ScenarioTally, ...]], *,
                exclude_infra: bool, seed: int, resamples: int) -> ModeComparison:
    metrics = paired_metrics(c, tallies[c.a.mode], tallies[c.b.mode],
                             exclude_infra=exclude_infra, seed=seed,
                             resamples=min(resamples, _TRADEOFF_RESAMPLES))
    return ModeComparison(
        a=c.a.mode, b=c.b.mode, n_paired=c.n_paired, pass1_a=c.pass1_a, pass1_b=c.pass1_b,
        delta=c.delta, delta_low=c.delta_low, delta_high=c.delta_high,
        confidence=c.confidence, mcnemar_p=c.mcnemar_p, b01=c.b01, b10=c.b10,
        flips=tuple(FlipRow(scenario_id=f.scenario_id, outcome_a=f.from_, outcome_b=f.to)
                    for f in c.flips),
        missing=tuple(f"{m.scenario_id} (missing on {m.missing_on}: {m.reason})"
                      for m in c.missing),
        warnings=c.warnings,
        tradeoff=tradeoff_table(c, metrics))


def _comparisons(manifest: RunManifest, records: tuple[TrialRecord, ...],
                 modes: Sequence[str], notes: list[str], *, seed: int,
                 resamples: int) -> tuple[ModeComparison, ...]:
    run_modes = {m.name for m in manifest.modes}
    compared = [m for m in modes if m in run_modes]
    # Each mode's trials are tallied once, for every comparison and trade-off it is in.
    tallies = {m: Side(manifest=manifest, mode=m, trials=records).tallied() for m in compared}
    out: list[ModeComparison] = []
    for i, a in enumerate(compared):
        for b in compared[i + 1:]:
            try:
                result = compare(Side(label=a, manifest=manifest, mode=a, tallies=tallies[a]),
                                 Side(label=b, manifest=manifest, mode=b, tallies=tallies[b]),
                                 seed=seed, resamples=resamples)
            except NotComparableError as exc:
                notes.append(f"{a} vs {b} not compared: {'; '.join(exc.problems)}")
                continue
            out.append(_comparison(
                result, tallies, seed=seed, resamples=resamples,
                exclude_infra=manifest.error_treatment.on_exhausted == "exclude"))
    return tuple(out)


# -- breakdown, failures, scenarios ---------------------------------------------------------


def _cells(modes: Sequence[str], scored: Sequence[ScoredTrial]) -> tuple[BreakdownCell, ...]:
    cells = []
    for mode in modes:
        mine = [s for s in scored if s.mode == mode]
        if mine:
            passed = sum(s.score.passed for s in mine)
            cells.append(BreakdownCell(mode=mode, trials=len(mine), passed=passed,
                                       pass_rate=wilson(passed, len(mine))))
    return tuple(cells)


def _breakdown(scenarios: Mapping[str, Scenario | None], modes: Sequence[str],
               by_scenario: Mapping[str, list[ScoredTrial]], plans: bool) -> Breakdown:
    if not plans:
        return Breakdown(facets=(), handoffs=(), handoffs_source="unavailable")
    facets: dict[tuple[str, str], list[str]] = {}
    needs: dict[int, list[str]] = {}
    all_tagged = True
    for scenario_id, scenario in scenarios.items():
        if scenario is None:
            continue
        for facet, value in scenario.tags.items():
            if facet != _HANDOFFS_TAG:
                facets.setdefault((facet, value), []).append(scenario_id)
        count, tagged = required_handoffs(scenario)
        all_tagged = all_tagged and tagged
        needs.setdefault(count, []).append(scenario_id)

    def pooled(ids: Sequence[str]) -> list[ScoredTrial]:
        return [t for i in ids for t in by_scenario.get(i, ())]

    return Breakdown(
        facets=tuple(FacetRow(facet=f, value=v, scenarios=len(ids),
                              cells=_cells(modes, pooled(ids)))
                     for (f, v), ids in sorted(facets.items())),
        handoffs=tuple(HandoffRow(handoffs=n, scenarios=len(ids),
                                  cells=_cells(modes, pooled(ids)))
                       for n, ids in sorted(needs.items())),
        handoffs_source="tags" if all_tagged and needs else "plan")


def _failure_causes(records: Sequence[TrialRecord], modes: Sequence[str]
                    ) -> tuple[FailureCause, ...]:
    trials: dict[tuple[str, str | None], set[tuple[str, str, int]]] = {}
    per_mode: dict[tuple[str, str | None], dict[str, int]] = {}
    scenarios: dict[tuple[str, str | None], dict[str, None]] = {}
    examples: dict[tuple[str, str | None], str] = {}
    for record in records:
        s = record.scored
        if s.score.passed and record.infra_error is None:
            continue
        sentences = s.score.failures or ("failed: no failure sentence was recorded",)
        for sentence in sentences:
            key = failure_cause(sentence)
            seen = trials.setdefault(key, set())
            coordinate = (s.scenario_id, s.mode, s.trial)
            if coordinate in seen:
                continue
            seen.add(coordinate)
            counts = per_mode.setdefault(key, {})
            counts[s.mode] = counts.get(s.mode, 0) + 1
            scenarios.setdefault(key, {})[s.scenario_id] = None
            examples.setdefault(key, sentence)
    order = sorted(trials, key=lambda k: (-len(trials[k]), k[0], k[1] or ""))
    return tuple(FailureCause(
        expectation=key[0], rule=key[1], trials=len(trials[key]),
        by_mode=tuple(ModeCount(mode=m, count=per_mode[key][m])
                      for m in [*modes, *sorted(set(per_mode[key]) - set(modes))]
                      if m in per_mode[key]),
        scenarios=tuple(scenarios[key]), example=examples[key]) for key in order)


def _scenario_rows(scenarios: Mapping[str, Scenario | None], modes: Sequence[str],
                   by_scenario: Mapping[str, list[ScoredTrial]],
                   comparisons: Sequence[ModeComparison]) -> tuple[ScenarioRow, ...]:
    flips: dict[str, list[ScenarioFlip]] = {}
    for c in comparisons:
        for f in c.flips:
            flips.setdefault(f.scenario_id, []).append(ScenarioFlip(
                a=c.a, b=c.b, outcome_a=f.outcome_a, outcome_b=f.outcome_b))
    rows = []
    for scenario_id, scenario in scenarios.items():
        cells = []
        for mode in modes:
            mine = [t for t in by_scenario.get(scenario_id, ()) if t.mode == mode]
            if mine:
                passes = sum(t.score.passed for t in mine)
                cells.append(ScenarioCell(mode=mode, passes=passes, trials=len(mine),
                                          pass_hat_k=float(passes == len(mine))))
        rows.append(ScenarioRow(
            scenario_id=scenario_id, title=scenario.title if scenario else "",
            tags=dict(scenario.tags) if scenario else {}, cells=tuple(cells),
            flips=tuple(flips.get(scenario_id, ()))))
    return tuple(rows)


def build_report(manifest: RunManifest, records: Sequence[TrialRecord],
                 suite: Suite | None = None, *, generated_at: datetime | None = None,
                 trails: TrailPolicy = "failing",
                 modes: Mapping[str, ControlMode] | None = None,
                 seed: int = 0, resamples: int = 10_000,
                 load_trails: TrailLoader | None = None) -> RunReport:
    """The report of one run.

    Args:
        manifest: the run's manifest.
        records: its trials, in run order: with their trails (for the approval trails),
            or without them when ``load_trails`` is given.
        suite: the suite run; without it there are no reference plans or tags, so no
            divergence, no per-tag breakdown and no success by hand-offs (a note says so).
        generated_at: when the report is built (default: now, UTC); fix it for
            reproducible output.
        trails: which trials carry a full approval trail: ``failing`` (failing trials
            plus one passing example per scenario and mode), ``all`` or ``none``.
        modes: control modes by name, for custom modes (built-in ones are known).
        seed, resamples: the comparisons' bootstrap.
        load_trails: reads the trails of the trials whose approval trail the report
            keeps, given their (scenario, mode, trial) keys, e.g.
            ``functools.partial(store.trails, run_id)``
            (:meth:`remit.store.Store.trials` ``with_trails=False`` reads the records
            without them): every number is counted from scores, so the trails of the
            other trials are never needed.
    """
    with _collector_paused():
        return _build_report(manifest, records, suite, generated_at=generated_at,
                             trails=trails, modes=modes, seed=seed, resamples=resamples,
                             load_trails=load_trails)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (if it runs) while a report is built.

    A build allocates hundreds of thousands of small objects (parsed trails, approval
    trails, rows) next to the run's records, and no reference cycles: reference counting
    frees all of it, while each pass of the collector over the growing heap finds
    nothing and, for a run of 10,000 trials, the passes cost about 40% of the build.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _build_report(manifest: RunManifest, records: Sequence[TrialRecord],
                  suite: Suite | None, *, generated_at: datetime | None,
                  trails: TrailPolicy, modes: Mapping[str, ControlMode] | None,
                  seed: int, resamples: int, load_trails: TrailLoader | None) -> RunReport:
    records = tuple(records)
    scores = [r.scored.score for r in records]
    older = scorer_note(manifest.scorer_version, scores)
    notes: list[str] = [] if older is None else [older]
    names = list(dict.fromkeys([*(m.name for m in manifest.modes),
                                *(r.scored.mode for r in records)]))
    fingerprints = {m.name: m.fingerprint for m in manifest.modes}
    scenario_ids = list(dict.fromkeys(r.scored.scenario_id for r in records))
    known = {s.id: s for s in suite.scenarios} if suite is not None else {}
    scenarios: dict[str, Scenario | None] = {i: known.get(i) for i in scenario_ids}
    if suite is None:
        notes.append("no suite given: reference plans and tags are unavailable, so the "
                     "divergence from the plan, the per-tag breakdown and success by "
                     "required hand-offs are not reported")
    else:
        if suite.fingerprint != manifest.suite_fingerprint:
            notes.append(f"the suite given ({suite.id}, fingerprint {suite.fingerprint[:12]}) "
                         f"is not the one run (fingerprint {manifest.suite_fingerprint[:12]}): "
                         "plans and tags may not match the trials")
        unknown = [i for i, s in scenarios.items() if s is None]
        if unknown:
            notes.append(f"{len(unknown)} scenario(s) are not in the suite given "
                         f"(first: {unknown[0]}): no plan or tags for them")

    counted = [_scored(r) for r in records if is_counted(manifest, r)]
    by_mode: dict[str, list[ScoredTrial]] = {}
    by_scenario: dict[str, list[ScoredTrial]] = {}
    for scored in counted:
        by_mode.setdefault(scored.mode, []).append(scored)
        by_scenario.setdefault(scored.scenario_id, []).append(scored)
    mode_reports = tuple(
        _mode_report(n, fingerprints.get(n, ""), [r for r in records if r.scored.mode == n],
                     by_mode.get(n, []), manifest.scorer_version) for n in names)
    comparisons = _comparisons(manifest, records, names, notes, seed=seed,
                               resamples=resamples)

    control = control_modes(manifest, names, modes)
    roles = {n: grant_roles(m) for n, m in control.items()}
    keep = kept_trails(trails, records)
    shown = records if load_trails is None else with_trails(records, keep, load_trails)
    rows = [trial_row(manifest, record, scenarios.get(record.scored.scenario_id),
                      mode=control.get(record.scored.mode), roles=roles.get(record.scored.mode),
                      with_trail=kept)
            for record, kept in zip(shown, keep, strict=True)]
    notes.append(policy_note(trails, sum(keep), len(records)))
    return RunReport(
        report_version=REPORT_VERSION,
        generated_at=generated_at if generated_at is not None else datetime.now(UTC),
        manifest=manifest,
        plans_available=suite is not None,
        trail_policy=trails,
        trails_kept=sum(keep),
        notes=tuple(notes),
        unmeasured_rates=unmeasured(manifest.scorer_version, scores),
        modes=mode_reports,
        comparisons=comparisons,
        breakdown=_breakdown(scenarios, names, by_scenario, suite is not None),
        failure_causes=_failure_causes(records, names),
        scenarios=_scenario_rows(scenarios, names, by_scenario, comparisons),
        trials=tuple(rows),
    )
