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

Example:
    >>> summary = aggregate(scored)                    # doctest: +SKIP
    >>> summary.model_dump(mode="json")["pass_hat_k"]  # doctest: +SKIP
    {'1': 0.75, '2': 0.583...}
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.errors import RemitError
from remit.harness.scoring import TrialScore
from remit.harness.stats import Interval, pass_hat_k_curve, wilson

__all__ = ["AggregationError", "ModeSummary", "ScoredTrial", "aggregate", "reply_issues_by_kind",
           "summarise"]


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


def _mean(scores: Sequence[TrialScore], value: Callable[[TrialScore], int]) -> float:
    return sum(value(s) for s in scores) / len(scores)


def aggregate(scored: Sequence[ScoredTrial]) -> ModeSummary:
    """Summarise the scored trials of one mode.

    Raises:
        AggregationError: no trials, trials of several modes, or a trial scored twice.
    """
    mode = _check(scored)
    outcomes: dict[str, list[bool]] = {}
    for s in scored:
        outcomes.setdefault(s.scenario_id, []).append(s.score.passed)
    scores = [s.score for s in scored]
    total = len(scores)
    return ModeSummary(
        mode=mode,
        scenarios=len(outcomes),
        trials=total,
        pass_hat_k=pass_hat_k_curve([(sum(p), len(p)) for p in outcomes.values()]),
        pass_rate=wilson(sum(s.passed for s in scores), total),
        wrong_variant_rate=wilson(sum(s.wrong_variant for s in scores), total),
        wrong_variant_shown_rate=wilson(sum(s.wrong_variant_shown for s in scores), total),
        unsupported_claim_rate=wilson(sum(s.unsupported_claims > 0 for s in scores), total),
        unsupported_per_claim=_pooled(scores, "unsupported_claims", "claims"),
        unsupported_attribute_claims=_pooled(scores, "unsupported_attribute_claims",
                                             "attribute_claims"),
        unsupported_fit_claims=_pooled(scores, "unsupported_fit_claims", "fit_claims"),
        unsupported_authority_claims=_pooled(scores, "unsupported_authority_claims",
                                             "authority_claims"),
        unsupported_cited=_pooled(scores, "unsupported_cited_claims", "cited_claims"),
        abandoned_handoff_rate=wilson(sum(s.abandoned_handoffs > 0 for s in scores), total),
        abandoned_per_handoff=_pooled(scores, "abandoned_handoffs", "handoffs"),
        missing_handoff_rate=wilson(sum(s.missing_handoffs > 0 for s in scores), total),
        no_valid_write_rate=wilson(sum(s.no_valid_write is True for s in scores),
                                   sum(s.no_valid_write is not None for s in scores)),
        mean_clarification_rounds=_mean(scores, lambda s: s.clarification_rounds),
        mean_review_minutes=_mean(scores, lambda s: s.review_minutes),
        mean_denials=_mean(scores, lambda s: s.denials),
        mean_steps=_mean(scores, lambda s: s.steps),
        errors=sum(s.end_reason == "agent_error" for s in scores),
        **_usage_totals(scores),
    )


def _pooled(scores: Sequence[TrialScore], part: str, whole: str) -> Interval:
    """``part`` over ``whole``, both summed over every trial (a per-item rate)."""
    return wilson(sum(getattr(s, part) for s in scores),
                  sum(getattr(s, whole) for s in scores))


def _usage_totals(scores: Sequence[TrialScore]) -> dict[str, object]:
    used = [s.usage for s in scores if s.usage is not None]
    costs = [u.cost for u in used if u.cost is not None]
    issues = [sum(u.reply_issues.values()) for u in used]
    return {
        "model_calls": sum(u.model_calls for u in used),
        "prompt_tokens": sum(u.prompt_tokens for u in used),
        "completion_tokens": sum(u.completion_tokens for u in used),
        "cost": functools.reduce(operator.add, costs) if costs and len(costs) == len(used)
        else None,
        "reply_issue_rate": wilson(sum(n > 0 for n in issues), len(issues)),
        "mean_reply_issues": sum(issues) / len(issues) if issues else None,
        "reply_issues": reply_issues_by_kind(used),
    }


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
