"""Aggregating scored trials per control mode: pass^k, rates with Wilson intervals, means.

A mode's summary pools every trial of every scenario run in that mode. pass^k is the
mean over scenarios of ``C(c, k) / C(n, k)`` for k from 1 to the smallest trial count
of a scenario (:func:`remit.harness.stats.pass_hat_k_curve`). Rates carry Wilson 95%
intervals; each names its denominator:

- per trial: ``pass_rate``; ``wrong_variant_rate`` (final) and ``wrong_variant_shown_rate``;
  ``unsupported_claim_rate`` (the headline: trials with at least one unsupported
  *stated* claim of any kind); ``abandoned_handoff_rate`` and ``missing_handoff_rate``
  (trials with at least one); ``no_valid_write_rate`` (trials in which the agent made no
  write that took effect, over the trials whose score counted the agent's writes);
- per stated claim, all trials pooled: ``unsupported_per_claim`` (every kind), and
  ``unsupported_attribute_claims``, ``unsupported_fit_claims``,
  ``unsupported_authority_claims`` (each over the claims of its kind);
- per cited claim: ``unsupported_cited`` (quote-line citations, apart from stated claims);
- per hand-off the agent opened: ``abandoned_per_handoff``.

For an agent that reports its usage (an LLM agent), the reply issues (model replies that
could not be used as they were) are figures per trial too, over the trials whose agent
reported its usage: ``reply_issue_rate`` (trials with at least one) and
``mean_reply_issues`` (issues per trial, every kind together), with ``reply_issues``
summed by kind.

A summary is computed from its trials' scores tallied per scenario
(:mod:`remit.harness.tally`): :func:`aggregate` tallies scored trials, and
:func:`summary_of` takes tallies however they were made (the store sums them in SQL).

Example:
    >>> summary = aggregate(scored)                    # doctest: +SKIP
    >>> summary.model_dump(mode="json")["pass_hat_k"]  # doctest: +SKIP
    {'1': 0.75, '2': 0.583...}
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.errors import RemitError
from remit.harness.scoring import TrialScore
from remit.harness.stats import Interval, pass_hat_k_curve, wilson
from remit.harness.tally import ScenarioTally, Tally, tally_scores

__all__ = [
    "AggregationError",
    "ModeSummary",
    "ScoredTrial",
    "aggregate",
    "reply_issues_by_kind",
    "summaries_of",
    "summarise",
    "summary_of",
]


class AggregationError(RemitError, ValueError):
    """Scored trials that cannot be aggregated (none, several modes, duplicates).

    Attributes:
        problem: what is wrong with the input, as one sentence.
    """

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


class ScoredTrial(BaseModel):
    """One trial's score with the coordinates of the trial.

    Attributes:
        scenario_id: the scenario.
        mode: the control mode's name.
        trial: the trial's index within (scenario, mode).
        score: its score.
    """

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    mode: str
    trial: int
    score: TrialScore


class ModeSummary(BaseModel):
    """The scores of one control mode, aggregated (see the module docstring for each
    rate's denominator).

    Attributes:
        mode: the mode's name.
        scenarios: distinct scenarios run.
        trials: trials scored.
        pass_hat_k: pass^k for k = 1..the smallest number of trials of a scenario.
        pass_rate: passing trials / trials.
        wrong_variant_rate: trials whose version offered last has a wrong SKU / trials.
        wrong_variant_shown_rate: trials that offered a wrong SKU at some point / trials.
        unsupported_claim_rate: trials with an unsupported stated claim / trials.
        unsupported_per_claim: unsupported stated claims / stated claims.
        unsupported_attribute_claims, unsupported_fit_claims,
            unsupported_authority_claims: unsupported / stated, per kind.
        unsupported_cited: unsupported quote-line citations / citations.
        abandoned_handoff_rate: trials with an abandoned hand-off / trials.
        abandoned_per_handoff: abandoned hand-offs / hand-offs the agent opened.
        missing_handoff_rate: trials with a missing hand-off / trials.
        no_valid_write_rate: trials in which the agent made no write that took effect /
            trials whose score counted the agent's writes (0 of 0 when none did).
        mean_clarification_rounds, mean_review_minutes, mean_denials, mean_steps:
            per-trial means.
        errors: trials that ended in an agent error.
        model_calls, prompt_tokens, completion_tokens: totals over trials whose agent
            reports its usage (LLM agents); 0 otherwise.
        cost: total cost, when the agent's cost table priced every trial.
        reply_issue_rate: trials with at least one reply issue / trials whose agent
            reported its usage (0 of 0 for agents that report none: scripted agents).
        mean_reply_issues: reply issues per trial (every kind together) over the trials
            whose agent reported its usage; ``None`` when no trial did.
        reply_issues: reply issues by kind, summed; kinds sorted, none with a zero count.
    """

    model_config = ConfigDict(frozen=True)

    mode: str
    scenarios: int
    trials: int
    pass_hat_k: dict[int, float]
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
    no_valid_write_rate: Interval
    mean_clarification_rounds: float
    mean_review_minutes: float
    mean_denials: float
    mean_steps: float
    errors: int
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Money | None = None
    reply_issue_rate: Interval = wilson(0, 0)
    mean_reply_issues: float | None = None
    reply_issues: dict[str, int] = {}


def _check(scored: Sequence[ScoredTrial]) -> str:
    if not scored:
        raise AggregationError("cannot aggregate scored=[]: no trials were scored; run at "
                               "least one trial per scenario before summarising a mode")
    modes = list(dict.fromkeys(s.mode for s in scored))
    if len(modes) > 1:
        raise AggregationError(f"cannot aggregate trials of several modes={modes!r} into one "
                               "summary; group them with summarise(scored)")
    seen: set[tuple[str, int]] = set()
    for s in scored:
        key = (s.scenario_id, s.trial)
        if key in seen:
            raise AggregationError(f"trial {s.trial} of scenario_id={s.scenario_id!r} in "
                                   f"mode={s.mode!r} is scored twice; keep one score per trial")
        seen.add(key)
    return modes[0]


def aggregate(scored: Sequence[ScoredTrial]) -> ModeSummary:
    """Summarise the scored trials of one mode.

    Raises:
        AggregationError: no trials, trials of several modes, or a trial scored twice.
    """
    mode = _check(scored)
    by_scenario: dict[str, list[TrialScore]] = {}
    for s in scored:
        by_scenario.setdefault(s.scenario_id, []).append(s.score)
    return summary_of(mode, [tally_scores(scores) for scores in by_scenario.values()])


def summary_of(mode: str, scenarios: Sequence[Tally]) -> ModeSummary:
    """The summary of one mode from its trials tallied per scenario (pass^k averages
    over the scenarios in this order): the summary :func:`aggregate` gives of those
    trials.

    Raises:
        AggregationError: no scenario, or one without trials.
    """
    if not scenarios or not all(t.trials for t in scenarios):
        raise AggregationError(f"cannot summarise mode={mode!r} from {len(scenarios)} "
                               "scenario tallies: every scenario needs at least one trial")
    t = functools.reduce(operator.add, scenarios)
    total, usage = t.trials, t.usage

    def per_trial(figure: str) -> Interval:
        return wilson(t.positive[figure], t.present(figure))

    def per_item(part: str, whole: str) -> Interval:
        return wilson(t.totals[part], t.totals[whole])

    return ModeSummary(
        mode=mode,
        scenarios=len(scenarios),
        trials=total,
        pass_hat_k=pass_hat_k_curve([(s.passed, s.trials) for s in scenarios]),
        pass_rate=wilson(t.passed, total),
        wrong_variant_rate=per_trial("wrong_variant"),
        wrong_variant_shown_rate=per_trial("wrong_variant_shown"),
        unsupported_claim_rate=per_trial("unsupported_claims"),
        unsupported_per_claim=per_item("unsupported_claims", "claims"),
        unsupported_attribute_claims=per_item("unsupported_attribute_claims",
                                              "attribute_claims"),
        unsupported_fit_claims=per_item("unsupported_fit_claims", "fit_claims"),
        unsupported_authority_claims=per_item("unsupported_authority_claims",
                                              "authority_claims"),
        unsupported_cited=per_item("unsupported_cited_claims", "cited_claims"),
        abandoned_handoff_rate=per_trial("abandoned_handoffs"),
        abandoned_per_handoff=per_item("abandoned_handoffs", "handoffs"),
        missing_handoff_rate=per_trial("missing_handoffs"),
        no_valid_write_rate=per_trial("no_valid_write"),
        mean_clarification_rounds=t.totals["clarification_rounds"] / total,
        mean_review_minutes=t.totals["review_minutes"] / total,
        mean_denials=t.totals["denials"] / total,
        mean_steps=t.totals["steps"] / total,
        errors=t.totals["agent_error"],
        model_calls=usage.model_calls,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost=usage.cost if usage.costed and usage.costed == usage.reported else None,
        reply_issue_rate=wilson(usage.issue_trials, usage.reported),
        mean_reply_issues=usage.issues / usage.reported if usage.reported else None,
        reply_issues=dict(usage.reply_issues),
    )


def reply_issues_by_kind(usages: Iterable[AgentUsage | None]) -> dict[str, int]:
    """Reply issues summed by kind over ``usages`` (``None``: no usage reported), kinds
    sorted, none with a zero count.

    Example:
        >>> reply_issues_by_kind([AgentUsage(reply_issues={"unknown_tool": 2}), None,
        ...                       AgentUsage(reply_issues={"truncated": 1, "empty": 0})])
        {'truncated': 1, 'unknown_tool': 2}
    """
    totals: dict[str, int] = {}
    for usage in usages:
        for kind, n in (usage.reply_issues.items() if usage is not None else ()):
            if n:
                totals[kind] = totals.get(kind, 0) + n
    return dict(sorted(totals.items()))


def summarise(scored: Sequence[ScoredTrial]) -> dict[str, ModeSummary]:
    """One :class:`ModeSummary` per mode, in the order modes first appear in ``scored``."""
    by_mode: dict[str, list[ScoredTrial]] = {}
    for s in scored:
        by_mode.setdefault(s.mode, []).append(s)
    return {mode: aggregate(trials) for mode, trials in by_mode.items()}


def summaries_of(tallies: Sequence[ScenarioTally], modes: Sequence[str], *,
                 exclude_infra_errors: bool = True) -> dict[str, ModeSummary]:
    """A run's per-mode summaries from its tallies (``remit.store.Store.tallies``,
    :func:`~remit.harness.tally.tally_records`), modes in the given order: the summaries
    :func:`~remit.harness.result_of` computes from the run's records. Trials that ended
    in an infrastructure error are left out when ``exclude_infra_errors``, else counted
    as scored; scores kept by an older scorer are pooled as
    :func:`~remit.harness.rates.aggregable` makes them.

    Example:
        >>> summaries_of(store.tallies(run_id), ["dual_control"])  # doctest: +SKIP
        {'dual_control': ModeSummary(mode='dual_control', scenarios=10, ...)}
    """
    by_mode: dict[str, dict[str, Tally]] = {}
    for group in sorted(tallies, key=lambda t: t.first):
        if group.infra and exclude_infra_errors:
            continue
        cells = by_mode.setdefault(group.mode, {})
        held = cells.get(group.scenario_id)
        cells[group.scenario_id] = group.tally if held is None else held + group.tally
    return {mode: summary_of(mode, [t.pooled() for t in by_mode[mode].values()])
            for mode in modes if mode in by_mode}
