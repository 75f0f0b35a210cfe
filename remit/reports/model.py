"""The report of a run as data: what every format (Markdown, JSON, JUnit, HTML) renders.

A :class:`RunReport` is built once by :func:`remit.reports.build_report` from a run's
manifest, its trial records and (optionally) its suite, and is plain, JSON-serialisable
pydantic data. Renderers read it and compute nothing of their own beyond layout.

The JSON form (``RunReport.model_dump(mode="json")``) is versioned by
:data:`REPORT_VERSION`: adding an optional field bumps the minor version, renaming or
removing a field or changing a meaning bumps the major version (see docs/reports.md).

Sections, in reading order:

- ``manifest``: the run's provenance (:class:`remit.harness.RunManifest`).
- ``modes``: per control mode, the pass^k curve, the rates with Wilson intervals (the
  headline rates per trial, the per-item rates per claim, citation or hand-off), the
  per-trial means, errors (:class:`ModeReport`).
- ``comparisons``: every pair of modes in run order, paired by scenario, with the
  trade-off in one view (:class:`ModeComparison`, :class:`TradeoffRow`).
- ``breakdown``: pass rates per tag facet and value, and success against the number
  of required hand-offs (:class:`Breakdown`).
- ``failure_causes``: failures grouped by broken expectation and fit rule.
- ``scenarios``: one row per scenario with per-mode passes and flips.
- ``trials``: one row per trial, with its approval trail when the trail policy keeps it.

A :class:`ComparisonReport` is the report of one comparison (``remit report RUN1 RUN2``,
:func:`remit.reports.build_comparison_report`): the comparison, both manifests, the
trade-off rows, and each flipping scenario with a trial of each side
(:class:`FlipTrails`). It is rendered as HTML and Markdown; its JSON is the comparison's
(:func:`remit.reports.comparison_json`), not versioned with the run report.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict

from remit.catalogue import Money
from remit.harness.compare import Comparison
from remit.harness.manifest import RunManifest
from remit.harness.scoring import TrialScore
from remit.harness.stats import Interval, wilson
from remit.world import ErrorCode

__all__ = [
    "REPORT_VERSION",
    "SIGNIFICANCE",
    "ApprovalTrail",
    "Breakdown",
    "BreakdownCell",
    "ComparisonReport",
    "DecisionRow",
    "Divergence",
    "FacetRow",
    "FailureCause",
    "FlipRow",
    "FlipTrails",
    "HandoffRow",
    "ModeComparison",
    "ModeCount",
    "ModeReport",
    "Outcome",
    "PassK",
    "RunReport",
    "ScenarioCell",
    "ScenarioFlip",
    "ScenarioRow",
    "TradeoffRow",
    "TrailPolicy",
    "TranscriptLine",
    "TrialRow",
]

REPORT_VERSION = "3.1"
"""The version of the report's data (and of its JSON Schema): ``major.minor``."""

SIGNIFICANCE = 0.05
"""A trade-off row names a better side only when its paired test's p is below this."""

TrailPolicy = Literal["failing", "all", "none"]
"""Which trials carry a full approval trail: ``failing`` (failing trials plus one
passing example per scenario and mode), ``all``, or ``none``."""

Outcome = Literal["pass", "fail"]
"""A scenario's outcome on one side: ``pass`` when all its counted trials passed."""

_ERROR_CODES = frozenset(get_args(ErrorCode))

_NO_DATA = wilson(0, 0)
"""The default of a rate added after 3.0: 0 of 0, no data."""


class _Row(BaseModel):
    # unknown fields are ignored, not refused: a reader of 2.x reads any later 2.y
    model_config = ConfigDict(frozen=True)


# -- per mode ------------------------------------------------------------------------------


class PassK(_Row):
    """One point of a pass^k curve: the chance that ``k`` trials of a scenario all pass,
    averaged over scenarios."""

    k: int
    value: float


class ModeReport(_Row):
    """One control mode's results.

    Every rate is a Wilson 95% interval with its counts (``successes`` / ``total``),
    named as in :class:`remit.harness.ModeSummary` and listed in
    :data:`remit.harness.RATES`; the counted trials are pooled.

    Attributes:
        mode: the mode's name.
        fingerprint: the mode's fingerprint from the manifest ("" if the manifest lacks it).
        scenarios: distinct scenarios with counted trials.
        trials: counted trials (after the run's error treatment).
        passed: counted trials that passed.
        pass_hat_k: pass^k for k = 1..the smallest trial count of a scenario.
        pass_rate: passing trials / trials.
        wrong_variant_rate: trials whose version offered last has a wrong SKU / trials.
        wrong_variant_shown_rate: trials that offered a wrong SKU at any point / trials.
        unsupported_claim_rate: trials with at least one unsupported stated claim /
            trials (the headline; before 2.0 this field was per claim).
        unsupported_per_claim: unsupported stated claims / stated claims.
        unsupported_attribute_claims, unsupported_fit_claims,
            unsupported_authority_claims: unsupported claims of that kind / stated
            claims of that kind.
        unsupported_cited: unsupported quote-line citations / citations.
        abandoned_handoff_rate: trials with a hand-off the agent opened and left / trials.
        abandoned_per_handoff: abandoned hand-offs / hand-offs the agent opened.
        missing_handoff_rate: trials with a required owner action the agent never
            requested / trials.
        no_valid_write_rate: trials in which the agent made no write that took effect /
            trials whose score counted the agent's writes (added in 3.1; 0 of 0 when the
            run's scores were kept before remit counted them, listed then in
            ``RunReport.unmeasured_rates``).
        mean_clarification_rounds, mean_review_minutes, mean_denials, mean_steps:
            per-trial means.
        errors: trials that ended in an agent error.
        infra_errors: trials whose infrastructure retries ran out.
        excluded: of those, how many the error treatment excluded from the numbers.
        model_calls, prompt_tokens, completion_tokens, cost: what an agent that reports
            its usage (an LLM agent) spent, summed over counted trials (0 / ``None``
            otherwise; ``cost`` only when every such trial was priced).
        reply_issues: model replies that could not be used as they were, by kind
            (``invalid_json``, ``unknown_tool``, ``empty_reply``...), summed over counted
            trials; kinds sorted, none with a zero count (added in 1.1).
        reply_issue_rate: trials with at least one reply issue / counted trials whose
            agent reported its usage (0 of 0 for an agent that reports none; added in 3.1).
        mean_reply_issues: reply issues per counted trial whose agent reported its usage,
            every kind together; ``None`` when no trial did (added in 3.1).
    """

    mode: str
    fingerprint: str
    scenarios: int
    trials: int
    passed: int
    pass_hat_k: tuple[PassK, ...]
    pass_rate: Interval
    wrong_variant_rate: Interval
    wrong_variant_shown_rate: Interval
    unsupported_claim_rate: Interval
    unsupported_per_claim: Interval
    unsupported_attribute_claims: Interval
    unsupported_fit_claims: Interval
    unsupported_authority_claims: Interval
    unsupported_cited: Interval
    abandoned_handoff_rate: Interval
    abandoned_per_handoff: Interval
    missing_handoff_rate: Interval
    no_valid_write_rate: Interval = _NO_DATA
    mean_clarification_rounds: float
    mean_review_minutes: float
    mean_denials: float
    mean_steps: float
    errors: int
    infra_errors: int
    excluded: int
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Money | None = None
    reply_issues: dict[str, int] = {}
    reply_issue_rate: Interval = _NO_DATA
    mean_reply_issues: float | None = None


# -- comparisons ----------------------------------------------------------------------------


class FlipRow(_Row):
    """A scenario whose outcome differs between the two modes of a comparison."""

    scenario_id: str
    outcome_a: Outcome
    outcome_b: Outcome


class TradeoffRow(_Row):
    """One metric of the trade-off view: both sides' values and which is better.

    Attributes:
        metric: the metric's key (``pass_hat_1``, ``wrong_variant_rate``,
            ``mean_steps``...: a field of the mode's summary).
        label: how people read it (``wrong variant (final)``).
        value_a, value_b: the metric on each side.
        difference: ``value_b - value_a``.
        higher_is_better: whether a larger value is the better one.
        per_item: a per-item rate (per claim, citation or hand-off opened, not per
            trial), shown in the compact secondary table; such a row exists only when
            both sides had at least one item of its kind (added in 2.0).
        low, high: the 95% paired bootstrap interval of the difference (b - a): for
            a per-trial metric, of the mean per-scenario difference (each scenario's
            value being the metric over its own trials); for a per-item rate, of the
            difference of the pooled rates, resampling scenarios with their items;
            none for pass^k with k > 1 and the agent-error count.
        p_value: the paired test of that difference (McNemar's exact test for pass^1, a
            sign-flip randomization test for per-trial metrics, a side-swapping
            randomization test of the pooled difference for per-item rates).
        paired_scenarios: the scenarios the interval and test pair: every paired
            scenario; for a per-item rate, those with an item on either side.
        better: the better side's label (a mode's name in a run's report; run id and
            agent when two runs are compared) when the paired test finds a difference
            (p < 0.05); ``None`` otherwise (no clear difference, or no test).
    """

    metric: str
    label: str
    value_a: float
    value_b: float
    difference: float
    higher_is_better: bool
    per_item: bool
    low: float | None = None
    high: float | None = None
    p_value: float | None = None
    paired_scenarios: int | None = None
    better: str | None

    @property
    def favours(self) -> Literal["a", "b"] | None:
        """The side the paired test finds better: ``b`` when the difference points the
        metric's better way (up for pass^k, down for everything else) with p below
        :data:`SIGNIFICANCE`, ``a`` when it points the other way; ``None`` without a test
        or a clear difference.

        Example:
            >>> row.metric, row.difference, row.p_value, row.favours  # doctest: +SKIP
            ('pass_hat_1', -0.9, 0.0039, 'a')
        """
        if self.p_value is None or self.p_value >= SIGNIFICANCE or math.isclose(
                self.value_a, self.value_b, abs_tol=1e-12):
            return None
        return "b" if (self.difference > 0) == self.higher_is_better else "a"


class ModeComparison(_Row):
    """Mode ``b`` against mode ``a`` of the same run, paired by scenario
    (:func:`remit.harness.compare`).

    Attributes:
        a, b: the modes' names (``delta`` is b - a).
        n_paired: scenarios with counted trials in both modes.
        pass1_a, pass1_b: each mode's pass^1 over the paired scenarios.
        delta, delta_low, delta_high: the pass^1 delta and its paired bootstrap interval.
        confidence: the interval's coverage.
        mcnemar_p: McNemar's exact two-sided p on scenario outcomes.
        b01, b10: scenarios passing in b only, in a only.
        flips: those scenarios.
        missing: scenarios left out of the pairing (``id (missing on a|b: reason)``).
        warnings: sentences a reader must see.
        tradeoff: the metrics side by side, with the better mode.
    """

    a: str
    b: str
    n_paired: int
    pass1_a: float
    pass1_b: float
    delta: float
    delta_low: float
    delta_high: float
    confidence: float
    mcnemar_p: float
    b01: int
    b10: int
    flips: tuple[FlipRow, ...]
    missing: tuple[str, ...]
    warnings: tuple[str, ...]
    tradeoff: tuple[TradeoffRow, ...]


# -- breakdown ------------------------------------------------------------------------------


class BreakdownCell(_Row):
    """One mode's trials in one group: how many, how many passed, the rate's interval."""

    mode: str
    trials: int
    passed: int
    pass_rate: Interval


class FacetRow(_Row):
    """The trials of scenarios tagged ``facet=value`` (e.g. ``product=actuator-pairing``)."""

    facet: str
    value: str
    scenarios: int
    cells: tuple[BreakdownCell, ...]


class HandoffRow(_Row):
    """The trials of scenarios needing ``handoffs`` owner actions."""

    handoffs: int
    scenarios: int
    cells: tuple[BreakdownCell, ...]


class Breakdown(_Row):
    """Pass rates per subtask group and per number of required hand-offs.

    Attributes:
        facets: one row per tag facet and value, facets and values sorted.
        handoffs: one row per number of required hand-offs, ascending.
        handoffs_source: where the numbers came from: ``tags`` (``tags["handoffs"]``),
            ``plan`` (owner steps of the reference plan), or ``unavailable`` (no suite).
    """

    facets: tuple[FacetRow, ...]
    handoffs: tuple[HandoffRow, ...]
    handoffs_source: Literal["tags", "plan", "unavailable"]


# -- failures and scenarios ------------------------------------------------------------------


class ModeCount(_Row):
    """A count in one mode."""

    mode: str
    count: int


class FailureCause(_Row):
    """Failing trials grouped by what broke.

    Attributes:
        expectation: the broken expectation (a failure sentence's part before ``:``).
        rule: the fit rule the sentences mention (``C1``..``C7``, ``S1``..``S3``), if any.
        trials: failing trials with this cause, all modes.
        by_mode: per mode, in run order.
        scenarios: the scenarios affected, in run order.
        example: one failure sentence of this group.
    """

    expectation: str
    rule: str | None
    trials: int
    by_mode: tuple[ModeCount, ...]
    scenarios: tuple[str, ...]
    example: str


class ScenarioCell(_Row):
    """One scenario in one mode: passes out of counted trials and pass^k at k = trials."""

    mode: str
    passes: int
    trials: int
    pass_hat_k: float


class ScenarioFlip(_Row):
    """A scenario's outcome changing between two modes."""

    a: str
    b: str
    outcome_a: Outcome
    outcome_b: Outcome


class ScenarioRow(_Row):
    """One scenario across the modes.

    Attributes:
        scenario_id: the scenario.
        title: its title ("" without the suite).
        tags: its tags (empty without the suite or for handwritten scenarios).
        cells: per mode, in run order.
        flips: the comparisons in which its outcome changes.
    """

    scenario_id: str
    title: str
    tags: dict[str, str]
    cells: tuple[ScenarioCell, ...]
    flips: tuple[ScenarioFlip, ...]


# -- approval trails ------------------------------------------------------------------------


class DecisionRow(_Row):
    """One authority decision of a trial.

    Attributes:
        step, minute: where it happened (trail step, simulated minute).
        actor_id, role: who asked.
        action: the write decided.
        quote_id: the record.
        version: the quote version decided on, if known from the trail.
        version_hash: its content hash, shortened to 8 characters.
        allowed: the decision.
        deciding: the grant (allowed) or forbid (denied) ids that decided it.
        authority: the role whose grant decided an allowed write (an agent acting on
            ``g-finance-approve@agent`` acts under finance's authority).
        unmet: every unmet condition, as a sentence.
        reasons: a denied decision's reasons (an allowed one's only restate its grant).
        evidence: evidence cited.
        handoff_id: the hand-off the write answered, if any.
        effect: what the write did: the transition (``priced -> approval_pending``), the
            new version (``v3``), the error that stopped an allowed write as
            ``<error code>: <message>`` (``guard_failed: cannot accept ...``; the code is
            one of the world's error codes), or "" (denied, or nothing recorded).
        diverges: this is the first step departing from the reference plan.
    """

    step: int
    minute: int
    actor_id: str
    role: str
    action: str
    quote_id: str
    version: int | None
    version_hash: str
    allowed: bool
    deciding: tuple[str, ...]
    authority: str | None
    unmet: tuple[str, ...]
    reasons: tuple[str, ...]
    evidence: tuple[str, ...]
    handoff_id: str | None
    effect: str
    diverges: bool

    @property
    def effect_error(self) -> str | None:
        """The error code that stopped this write after its decision (``guard_failed``,
        ``invalid_transition``...), or ``None`` when the effect is a transition, a new
        version or nothing.

        Example:
            >>> row.effect                                        # doctest: +SKIP
            'guard_failed: cannot accept quote Q-1: its validity ended at t=30m'
            >>> row.effect_error                                  # doctest: +SKIP
            'guard_failed'
        """
        code, sep, _ = self.effect.partition(": ")
        return code if sep and code in _ERROR_CODES else None

    @property
    def effect_reason(self) -> str:
        """The message of the error in :attr:`effect_error` ("" when there is none)."""
        code = self.effect_error
        return self.effect.removeprefix(f"{code}: ") if code is not None else ""


class TranscriptLine(_Row):
    """One message: ``[t=minute] sender -> to: text``."""

    step: int
    minute: int
    sender: str
    to: str
    tool: str
    text: str
    handoff_id: str | None


class Divergence(_Row):
    """Where a failing trial went wrong for good: the agent step after which its failure
    could no longer be avoided, measured against the reference plan (the rule is
    :func:`remit.reports.divergence`'s).

    Attributes:
        step: the trail step.
        minute: its simulated minute.
        expected: what the plan expected there.
    """

    step: int
    minute: int
    expected: str


class ApprovalTrail(_Row):
    """The approval trail of one trial.

    Attributes:
        decisions: every authority decision, in order.
        confirmations: the final confirmations as sentences (who approved the final
            version, who released payment, the final state).
        divergence: where the agent left the reference plan for good, if it did.
        divergence_note: why no divergence is given (no plan without the suite, or
            the agent followed the plan); "" when ``divergence`` is set.
        transcript: every message, in order.
        ended: how the trial ended (``agent_end at step 11 (t=38m): ...``), or
            ``not ended``.
        explanation: the shortest explaining trail (:func:`remit.reports.explain`),
            for failing trials when the scenario is known; "" otherwise.
    """

    decisions: tuple[DecisionRow, ...]
    confirmations: tuple[str, ...]
    divergence: Divergence | None
    divergence_note: str
    transcript: tuple[TranscriptLine, ...]
    ended: str
    explanation: str


class TrialRow(_Row):
    """One trial.

    Attributes:
        id: ``{run}/{scenario}/{mode}/{trial}``.
        scenario_id, mode, trial, seed: its coordinates.
        passed: whether it passed (an excluded infrastructure error counts as not passed).
        counted: whether the run's error treatment counts it in the numbers.
        infra_error: the infrastructure error when its retries ran out.
        score: its score.
        trail: its approval trail, when the trail policy keeps it.
        seconds: the trial's wall-clock duration; ``None`` when the run did not keep it
            (added in 3.0).
    """

    id: str
    scenario_id: str
    mode: str
    trial: int
    seed: int
    passed: bool
    counted: bool
    infra_error: str | None
    score: TrialScore
    trail: ApprovalTrail | None
    seconds: float | None = None


# -- the report -----------------------------------------------------------------------------


class RunReport(_Row):
    """The report of one run (see the module docstring for the sections).

    Attributes:
        report_version: :data:`REPORT_VERSION` when built.
        generated_at: when the report was built (aware UTC).
        manifest: the run's manifest.
        plans_available: whether the suite was given (reference plans and tags known).
        trail_policy: which trials carry a full approval trail.
        trails_kept: how many trials carry one.
        notes: sentences a reader must see (missing suite, trail policy, caps, a run
            scored by an older scorer).
        unmeasured_rates: the keys of the rates the run's scorer did not measure
            (:func:`remit.harness.unmeasured`: a run scored by scorer 1 has no shown
            wrong variants, claim kinds, citations apart, hand-offs opened or missing
            hand-offs); they read 0 of 0 in ``modes`` (no data), renderers show them as
            not measured, and comparisons leave them out (added in 2.0).
        modes: per mode, in run order.
        comparisons: every pair of modes, in run order.
        breakdown: pass rates per tag facet and per required hand-offs.
        failure_causes: failures grouped by cause, most frequent first.
        scenarios: per scenario, in run order.
        trials: per trial, in run order.
    """

    report_version: str
    generated_at: AwareDatetime
    manifest: RunManifest
    plans_available: bool
    trail_policy: TrailPolicy
    trails_kept: int
    notes: tuple[str, ...]
    unmeasured_rates: tuple[str, ...]
    modes: tuple[ModeReport, ...]
    comparisons: tuple[ModeComparison, ...]
    breakdown: Breakdown
    failure_causes: tuple[FailureCause, ...]
    scenarios: tuple[ScenarioRow, ...]
    trials: tuple[TrialRow, ...]


# -- the report of a comparison -------------------------------------------------------------


class FlipTrails(_Row):
    """A scenario whose outcome flips between the sides, with one trial of each side.

    Attributes:
        scenario_id: the scenario.
        title: its title ("" when neither side's suite can be rebuilt).
        outcome_a, outcome_b: its outcome on each side (``pass``: every counted trial
            passed).
        trial_a, trial_b: the trial shown for each side, with its approval trail: on the
            failing side its first failing trial, on the passing side its first trial.
    """

    scenario_id: str
    title: str
    outcome_a: Outcome
    outcome_b: Outcome
    trial_a: TrialRow
    trial_b: TrialRow


class ComparisonReport(_Row):
    """The report of one comparison (``remit report RUN1 RUN2``).

    Attributes:
        generated_at: when the report was built (aware UTC).
        comparison: the comparison: its kind, title, sides (with their labels), pass^1
            delta, McNemar p, flips, scenarios left unpaired and warnings.
        manifest_a, manifest_b: the sides' run manifests.
        tradeoff: each metric on both sides with the paired difference, its interval and
            p, and the better side's label (:func:`remit.reports.build.tradeoff_rows`).
        flips: every flip with a trial of each side, in pairing order.
    """

    generated_at: AwareDatetime
    comparison: Comparison
    manifest_a: RunManifest
    manifest_b: RunManifest
    tradeoff: tuple[TradeoffRow, ...]
    flips: tuple[FlipTrails, ...]
