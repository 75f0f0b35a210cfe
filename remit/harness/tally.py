"""Trial scores summed: everything a summary, a comparison and its paired tests read.

Every number that a mode's summary (:func:`~remit.harness.aggregate`) or a comparison
(:func:`~remit.harness.compare`) reads of one trial's score is a whole number, or
nothing when that score did not measure it: the score's *figures* (:data:`FIGURES`,
read by :func:`figures`). A :class:`Tally` sums them over some trials: per figure its
total; for the figures that per-trial rates count (:data:`COUNTED`), the trials where
it is above 0; for the figures a score may lack (:data:`NULLABLE`), the trials that have
it. The agent's usage (model calls, tokens, cost, reply issues), which only agents that
call models report, is summed apart (:class:`UsageTally`).

A run is tallied per scenario, mode, and whether the trials ended in an infrastructure
error (:class:`ScenarioTally`): that is all a summary or a comparison needs, whatever
the error treatment, so comparing 100,000 stored trials reads a few hundred sums. The
store computes them in SQL (``remit.store.Store.tallies``); :func:`tally_records`
computes the same from records.

Example:
    >>> t = tally_scores([score_a, score_b])          # doctest: +SKIP
    >>> t.trials, t.totals["steps"], t.positive["wrong_variant"]
    (2, 41, 1)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.harness.scoring import TrialScore

if TYPE_CHECKING:  # the runner aggregates through this module
    from remit.harness.runner import TrialRecord

__all__ = ["COUNTED", "FIGURES", "NULLABLE", "ScenarioTally", "Tally", "UsageTally",
           "figures", "tally_records", "tally_scores"]

FIGURES: tuple[str, ...] = (
    "wrong_variant", "wrong_variant_shown",
    "claims", "unsupported_claims",
    "attribute_claims", "unsupported_attribute_claims",
    "fit_claims", "unsupported_fit_claims",
    "authority_claims", "unsupported_authority_claims",
    "cited_claims", "unsupported_cited_claims",
    "handoffs", "pooled_handoffs", "abandoned_handoffs", "missing_handoffs",
    "no_valid_write", "clarification_rounds", "review_minutes", "denials", "steps",
    "agent_error", "reported_usage",
)
"""The figures of a score, by name: each :class:`~remit.harness.TrialScore` field of that
name as a whole number (``True`` is 1), and five derived ones: ``pooled_handoffs`` (the
larger of ``handoffs`` and ``abandoned_handoffs``: what
:func:`~remit.harness.rates.aggregable` divides by), ``no_valid_write`` (1 when the
agent made no write that took effect, ``None`` when the score did not count them),
``agent_error`` (1 when the trial ended in an agent error) and ``reported_usage`` (1 when
the agent reported its usage)."""

COUNTED: tuple[str, ...] = ("wrong_variant", "wrong_variant_shown", "unsupported_claims",
                            "abandoned_handoffs", "missing_handoffs", "no_valid_write")
"""The figures whose trials above 0 are counted: the parts of the per-trial rates."""

NULLABLE: tuple[str, ...] = ("no_valid_write",)
"""The figures a score may lack (``None``): the trials that have one are counted."""


def figures(score: TrialScore) -> dict[str, int | None]:
    """The figures of ``score`` (:data:`FIGURES`), by name."""
    writes = score.agent_writes
    return {
        "wrong_variant": int(score.wrong_variant),
        "wrong_variant_shown": int(score.wrong_variant_shown),
        "claims": score.claims,
        "unsupported_claims": score.unsupported_claims,
        "attribute_claims": score.attribute_claims,
        "unsupported_attribute_claims": score.unsupported_attribute_claims,
        "fit_claims": score.fit_claims,
        "unsupported_fit_claims": score.unsupported_fit_claims,
        "authority_claims": score.authority_claims,
        "unsupported_authority_claims": score.unsupported_authority_claims,
        "cited_claims": score.cited_claims,
        "unsupported_cited_claims": score.unsupported_cited_claims,
        "handoffs": score.handoffs,
        "pooled_handoffs": max(score.handoffs, score.abandoned_handoffs),
        "abandoned_handoffs": score.abandoned_handoffs,
        "missing_handoffs": score.missing_handoffs,
        "no_valid_write": None if writes is None else int(writes == 0),
        "clarification_rounds": score.clarification_rounds,
        "review_minutes": score.review_minutes,
        "denials": score.denials,
        "steps": score.steps,
        "agent_error": int(score.end_reason == "agent_error"),
        "reported_usage": int(score.usage is not None),
    }


def _add_counts(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    return {key: a.get(key, 0) + b.get(key, 0) for key in {**a, **b}}


@dataclass(frozen=True)
class UsageTally:
    """The usage reported by some trials' agents, summed.

    Attributes:
        reported: trials whose agent reported its usage.
        model_calls, prompt_tokens, completion_tokens: their totals.
        cost: the total of the costs reported (``None`` when none was).
        costed: trials that reported a cost.
        issue_trials: trials with at least one reply issue.
        issues: reply issues, every kind together.
        reply_issues: reply issues by kind, kinds sorted, none with a zero count.
    """

    reported: int = 0
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Money | None = None
    costed: int = 0
    issue_trials: int = 0
    issues: int = 0
    reply_issues: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, usages: Iterable[AgentUsage]) -> UsageTally:
        """The tally of some trials' reported usages."""
        used = list(usages)
        costs = [u.cost for u in used if u.cost is not None]
        counts = [sum(u.reply_issues.values()) for u in used]
        kinds: dict[str, int] = {}
        for usage in used:
            for kind, n in usage.reply_issues.items():
                if n:
                    kinds[kind] = kinds.get(kind, 0) + n
        return cls(reported=len(used), model_calls=sum(u.model_calls for u in used),
                   prompt_tokens=sum(u.prompt_tokens for u in used),
                   completion_tokens=sum(u.completion_tokens for u in used),
                   cost=functools.reduce(operator.add, costs) if costs else None,
                   costed=len(costs), issue_trials=sum(n > 0 for n in counts),
                   issues=sum(counts), reply_issues=dict(sorted(kinds.items())))

    def __add__(self, other: UsageTally) -> UsageTally:
        if not other.reported:
            return self
        if not self.reported:
            return other
        cost = other.cost if self.cost is None else \
            self.cost if other.cost is None else self.cost + other.cost
        kinds = _add_counts(self.reply_issues, other.reply_issues)
        return UsageTally(
            reported=self.reported + other.reported,
            model_calls=self.model_calls + other.model_calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost=cost, costed=self.costed + other.costed,
            issue_trials=self.issue_trials + other.issue_trials,
            issues=self.issues + other.issues, reply_issues=dict(sorted(kinds.items())))


@dataclass(frozen=True)
class Tally:
    """Some trials' figures, summed (see the module docstring).

    Attributes:
        trials: how many trials.
        passed: how many of them passed.
        totals: per figure of :data:`FIGURES`, its total (``None`` adds nothing).
        positive: per figure of :data:`COUNTED`, the trials where it is above 0.
        measured: per figure of :data:`NULLABLE`, the trials that have it.
        usage: the agents' reported usage.
    """

    trials: int = 0
    passed: int = 0
    totals: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(FIGURES, 0))
    positive: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTED, 0))
    measured: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(NULLABLE, 0))
    usage: UsageTally = field(default_factory=UsageTally)

    def __add__(self, other: Tally) -> Tally:
        return Tally(trials=self.trials + other.trials, passed=self.passed + other.passed,
                     totals=_add_counts(self.totals, other.totals),
                     positive=_add_counts(self.positive, other.positive),
                     measured=_add_counts(self.measured, other.measured),
                     usage=self.usage + other.usage)

    def present(self, name: str) -> int:
        """The trials that have figure ``name`` (every trial, unless it is nullable)."""
        return self.measured[name] if name in NULLABLE else self.trials

    def failed(self) -> Tally:
        """These trials counted as failures (infrastructure errors under the ``failure``
        treatment): nothing passed, every other figure as it is."""
        return replace(self, passed=0)

    def pooled(self) -> Tally:
        """These trials as :func:`~remit.harness.rates.aggregable` makes them: hand-offs
        opened read at least the abandoned ones."""
        return replace(self, totals={**self.totals, "handoffs": self.totals["pooled_handoffs"]})


def tally_scores(scores: Iterable[TrialScore]) -> Tally:
    """The tally of some scores."""
    totals = dict.fromkeys(FIGURES, 0)
    positive = dict.fromkeys(COUNTED, 0)
    measured = dict.fromkeys(NULLABLE, 0)
    usages = []
    trials = passed = 0
    for score in scores:
        trials += 1
        passed += score.passed
        values = figures(score)
        for name, value in values.items():
            if value is not None:
                totals[name] += value
        for name in COUNTED:
            value = values[name]
            if value is not None and value > 0:
                positive[name] += 1
        for name in NULLABLE:
            measured[name] += values[name] is not None
        if score.usage is not None:
            usages.append(score.usage)
    return Tally(trials=trials, passed=passed, totals=totals, positive=positive,
                 measured=measured, usage=UsageTally.of(usages))


class ScenarioTally(NamedTuple):
    """The trials of one scenario in one mode, all ended in an infrastructure error or
    none, tallied.

    Attributes:
        scenario_id, mode: the cell.
        infra: whether these are the cell's trials that ended in an infrastructure error.
        first: the rank of their first trial among the first trials of the run's
            tallies (0 for the tally whose first trial comes first): scenarios are
            ordered by first appearance wherever trials would order them.
        tally: their figures, summed.
    """

    scenario_id: str
    mode: str
    infra: bool
    first: int
    tally: Tally


def tally_records(records: Sequence[TrialRecord]) -> tuple[ScenarioTally, ...]:
    """The tallies of some records per scenario, mode and infrastructure error, in the
    order of their first trial."""
    groups: dict[tuple[str, str, bool], list[TrialScore]] = {}
    for record in records:
        scored = record.scored
        key = (scored.scenario_id, scored.mode, record.infra_error is not None)
        groups.setdefault(key, []).append(scored.score)
    return tuple(ScenarioTally(scenario_id, mode, infra, rank, tally_scores(scores))
                 for rank, ((scenario_id, mode, infra), scores) in enumerate(groups.items()))
