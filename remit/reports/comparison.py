"""The report of a comparison between two sides, and the gate a CI job puts on it.

:func:`build_comparison_report` compares two sides (:func:`remit.harness.compare`) and
gathers what a reader of the comparison needs: its title and sides, the trade-off rows
(each metric on both sides, the paired difference, its interval and p), and for every
flip (a scenario that passes on one side and fails on the other) one trial of each side
with its approval trail, so the page can show both trails. ``remit report RUN1 RUN2``
renders it as HTML (:func:`remit.reports.render_comparison_html`) or Markdown
(:func:`remit.reports.render_comparison_markdown`); its JSON is :func:`comparison_json`,
the same object ``remit compare --json`` prints.

:func:`gate_metrics` reads ``--fail-if-worse`` and :func:`worse_rows` applies it: a
metric fails the gate when side b is significantly worse on it (its paired test's p
below 0.05, the difference pointing the metric's worse way: down for pass^1, up for
every rate and mean).

Example:
    >>> report = build_comparison_report(a, b, trail_of=store.trial)   # doctest: +SKIP
    >>> report.comparison.title                                        # doctest: +SKIP
    'runs r-A (baseline) vs r-B (oracle), mode dual_control, 10 paired scenarios'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from pydantic import JsonValue

from remit.harness.compare import (
    Comparison,
    Side,
    SideReport,
    compare,
    describe_selection,
    model_calls_source,
)
from remit.harness.manifest import RunManifest
from remit.harness.runner import TrialRecord
from remit.harness.tradeoff import paired_metrics
from remit.reports.model import ComparisonReport, FlipTrails, Outcome, TradeoffRow, TrialRow
from remit.reports.tradeoff import TESTED_METRICS, tradeoff_table
from remit.reports.trial_rows import control_modes, trial_id, trial_row
from remit.scenarios import Suite

__all__ = [
    "build_comparison_report",
    "comparison_json",
    "gate_metrics",
    "side_rows",
    "worse_rows",
]

_ALIASES = {"pass^1": "pass_hat_1"}
"""Names ``--fail-if-worse`` also takes for a metric: its label in the tables."""


def comparison_json(comparison: Comparison, tradeoff: Sequence[TradeoffRow], *,
                    gate: Sequence[str] = ()) -> dict[str, JsonValue]:
    """The comparison as ``remit compare --json`` prints it: every field of the
    comparison (``kind``, ``title``, the sides with their ``label``, ``n_paired``, the
    pass^1 delta, ``flips``, ``warnings``...) and ``tradeoff``, one object per row of the
    table; with a gate (``--fail-if-worse``), ``fail_if_worse`` (the metrics gated) and
    ``worse`` (those on which side b is significantly worse).
    """
    dumped: dict[str, JsonValue] = comparison.model_dump(mode="json")
    dumped["tradeoff"] = [row.model_dump(mode="json") for row in tradeoff]
    if gate:
        dumped["fail_if_worse"] = list(gate)
        dumped["worse"] = [row.metric for row in worse_rows(tradeoff, gate)]
    return dumped


def gate_metrics(spec: str) -> tuple[str, ...]:
    """The metrics named by ``--fail-if-worse`` (comma-separated trade-off metric keys,
    ``pass^1`` for ``pass_hat_1``), each once, in the order given.

    Raises:
        ValueError: a name is not a metric with a paired test, or none is given; the
            message lists the valid names.

    Example:
        >>> gate_metrics("pass^1,wrong_variant_rate")
        ('pass_hat_1', 'wrong_variant_rate')
    """
    names = [_ALIASES.get(n.strip(), n.strip()) for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in TESTED_METRICS]
    if unknown or not names:
        what = f"unknown metric {', '.join(map(repr, unknown))}" if unknown else "no metric"
        raise ValueError(f"--fail-if-worse names {what}; use comma-separated names of "
                         f"{', '.join(TESTED_METRICS)} (pass^1 for pass_hat_1)")
    return tuple(dict.fromkeys(names))


def worse_rows(tradeoff: Sequence[TradeoffRow], metrics: Sequence[str]) -> list[TradeoffRow]:
    """The rows of ``metrics`` on which side b is significantly worse than side a
    (:attr:`~remit.reports.model.TradeoffRow.favours` is ``a``), in table order. A metric
    without a row (a rate one side's scorer did not measure, a per-item rate without
    items, reply issues a side's agent did not report) cannot be worse."""
    wanted = set(metrics)
    return [row for row in tradeoff if row.metric in wanted and row.favours == "a"]


def _counted(manifest: RunManifest, record: TrialRecord) -> bool:
    return record.infra_error is None or manifest.error_treatment.on_exhausted == "failure"


def _shown(side: Side, scenario_id: str, outcome: Outcome) -> TrialRecord:
    """The trial of ``scenario_id`` shown for ``side``: its first counted trial that
    failed when the scenario fails there, else its first counted trial."""
    mine = [r for r in side.trials if r.scored.mode == side.mode
            and r.scored.scenario_id == scenario_id and _counted(side.manifest, r)]
    failing = [r for r in mine if not r.scored.score.passed or r.infra_error is not None]
    return (failing or mine)[0] if outcome == "fail" else mine[0]


def build_comparison_report(
        a: Side, b: Side, *, suite_a: Suite | None = None, suite_b: Suite | None = None,
        force: bool = False, trail_of: Callable[[str], TrialRecord] | None = None,
        generated_at: datetime | None = None, seed: int = 0,
        resamples: int = 10_000) -> ComparisonReport:
    """Compare ``b`` with ``a`` and build the comparison's report.

    Args:
        a, b: the sides (:class:`remit.harness.Side`); their trials may lack trails when
            ``trail_of`` is given.
        suite_a, suite_b: the suites the sides ran, for the scenarios' titles and
            reference plans (the divergence in each trail); ``None`` when unknown.
        force: compare even when suite fingerprints or scorer versions differ.
        trail_of: reads one trial with its trail by id (``RUN/SCENARIO/MODE/TRIAL``), e.g.
            :meth:`remit.store.Store.trial`; without it the sides' own records are used.
        generated_at: when the report is built (default: now, UTC).
        seed, resamples: the pass^1 delta's bootstrap (the trade-off's other rows keep
            :func:`remit.harness.paired_metrics`' own resamples), as in
            ``remit compare``.

    Raises:
        remit.harness.NotComparableError: as :func:`remit.harness.compare`.
    """
    comparison = compare(a, b, force=force, seed=seed, resamples=resamples)
    tradeoff = tradeoff_table(comparison, paired_metrics(
        comparison, a.tallied(), b.tallied(), seed=seed,
        exclude_infra=a.manifest.error_treatment.on_exhausted == "exclude"))
    titles = {s.id: s.title for suite in (suite_b, suite_a) if suite is not None
              for s in suite.scenarios}
    flips = []
    for flip in comparison.flips:
        rows = [_row(side, suite, flip.scenario_id, outcome, trail_of)
                for side, suite, outcome in ((a, suite_a, flip.from_), (b, suite_b, flip.to))]
        flips.append(FlipTrails(scenario_id=flip.scenario_id,
                                title=titles.get(flip.scenario_id, ""), outcome_a=flip.from_,
                                outcome_b=flip.to, trial_a=rows[0], trial_b=rows[1]))
    return ComparisonReport(
        generated_at=generated_at if generated_at is not None else datetime.now(UTC),
        comparison=comparison, manifest_a=a.manifest, manifest_b=b.manifest,
        tradeoff=tradeoff, flips=tuple(flips))


def _row(side: Side, suite: Suite | None, scenario_id: str, outcome: Outcome,
         trail_of: Callable[[str], TrialRecord] | None) -> TrialRow:
    record = _shown(side, scenario_id, outcome)
    if trail_of is not None:
        record = trail_of(trial_id(side.manifest, record))
    scenario = next((s for s in suite.scenarios if s.id == scenario_id), None) \
        if suite is not None else None
    mode = control_modes(side.manifest, [side.mode])[side.mode]
    return trial_row(side.manifest, record, scenario, mode=mode)


def _facts(manifest: RunManifest, side: SideReport) -> dict[str, str]:
    commit = (manifest.git_commit[:12] if manifest.git_commit else "unknown") + (
        " (dirty)" if manifest.git_dirty else "")
    mode = next((m for m in manifest.modes if m.name == side.mode), None)
    agent = manifest.agent
    code = "not recorded" if agent is None else (
        f"{agent.import_path or 'unnamed factory'}, code "
        f"{agent.code_hash[:12] if agent.code_hash else 'unreadable'}")
    ended = f"{manifest.ended_at:%Y-%m-%d %H:%M:%S}" if manifest.ended_at else "unfinished"
    facts = {
        "run": manifest.run_id,
        "agent": f"{manifest.agent_id} (config {manifest.agent_config_hash[:12]})",
        "agent code": code,
        "suite": f"{manifest.suite_id} ({manifest.suite_fingerprint[:12]})",
        "scenarios run": describe_selection(manifest.selection, manifest.suite_id),
        "mode": f"{side.mode} ({mode.fingerprint[:12] if mode else 'unknown'})",
        "trials x seed": f"{manifest.trials} x seed {manifest.seed}",
        "infrastructure errors": f"{manifest.error_treatment.retries} retries, then "
                                 f"{manifest.error_treatment.on_exhausted} ({side.excluded} "
                                 f"excluded, {side.infra_failures} counted as failures)",
        "remit": f"{manifest.remit_version}, scorer {manifest.scorer_version}, commit {commit}",
        "time": f"{manifest.started_at:%Y-%m-%d %H:%M:%S} -> {ended} UTC",
    }
    source = model_calls_source(manifest)
    if source is not None:
        facts["model calls"] = source
    return facts


def side_rows(report: ComparisonReport) -> list[tuple[str, str, str]]:
    """What each side is, one ``(field, side a, side b)`` row per fact: run, agent and its
    configuration hash, the agent's code identity, suite, the scenarios it selected,
    mode, trials and seed, the error treatment, remit and scorer, times (and how model
    calls were answered, for LLM runs)."""
    a = _facts(report.manifest_a, report.comparison.a)
    b = _facts(report.manifest_b, report.comparison.b)
    return [(field, a.get(field, "-"), b.get(field, "-")) for field in dict.fromkeys([*a, *b])]
