"""The paired trade-off of a comparison: every metric on both sides, with its paired test.

After :func:`~remit.harness.compare` has paired two sides by scenario,
:func:`paired_metrics` sets each metric side by side, in the order reports show them:
pass^1 (and pass^k at the largest k both sides have), the headline rates of
:data:`~remit.harness.rates.RATES`, the per-trial means, agent errors, the reply issues
(share of trials with one, and per trial) when both sides' agents reported their usage,
then the per-item rates. A rate either side's scorer (or kept scores) did not measure has
no row, nor has a per-item rate either side had no item of.

Each metric but pass^k for k > 1 and the agent-error count carries a paired test over the
scenarios both sides ran, each scenario's value being the metric over its own trials:
pass^1 keeps the comparison's bootstrap interval and McNemar's p; a per-trial rate or
mean gets a bootstrap interval of the mean per-scenario difference and a sign-flip p;
a per-item rate a bootstrap and side-swapping test of the difference of the pooled
rates (:mod:`remit.harness.paired`). Everything is read from the sides' per-scenario
tallies (:mod:`remit.harness.tally`), so it costs the same for 100 trials or 100,000.

Example:
    >>> c = compare(a, b)                                                # doctest: +SKIP
    >>> [m.metric for m in paired_metrics(c, a.tallied(), b.tallied())][:2]
    ['pass_hat_1', 'pass_hat_2']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from remit.harness.compare import Comparison
from remit.harness.paired import paired_bootstrap, paired_ratio_test, sign_flip_p
from remit.harness.rates import RATES, Rate
from remit.harness.tally import ScenarioTally, Tally

__all__ = ["MEANS", "TRADEOFF_RESAMPLES", "PairedMetric", "paired_metrics"]

TRADEOFF_RESAMPLES = 2_000
"""Resamples per trade-off metric (pass^1 keeps the comparison's own)."""


def _mean(figure: str) -> Callable[[Tally], Fraction | None]:
    return lambda t: Fraction(t.totals[figure], t.trials)


def _issue_share(t: Tally) -> Fraction | None:
    return Fraction(t.usage.issue_trials, t.usage.reported) if t.usage.reported else None


def _issues(t: Tally) -> Fraction | None:
    return Fraction(t.usage.issues, t.usage.reported) if t.usage.reported else None


MEANS: dict[str, Callable[[Tally], Fraction | None]] = {
    "mean_clarification_rounds": _mean("clarification_rounds"),
    "mean_review_minutes": _mean("review_minutes"),
    "mean_denials": _mean("denials"),
    "mean_steps": _mean("steps"),
    "reply_issue_rate": _issue_share,
    "mean_reply_issues": _issues,
}
"""The metrics that are means of a per-trial value, and that mean over some trials'
tally (``None`` when none of them has the value: the reply issues of an agent that
reports no usage)."""

_RATES = {r.key: r for r in RATES}


@dataclass(frozen=True)
class PairedMetric:
    """One metric of the trade-off on both sides.

    Attributes:
        metric: its key (``pass_hat_1``, ``wrong_variant_rate``, ``mean_steps``...).
        label: how people read it.
        higher_is_better: whether a larger value is the better one.
        per_item: a per-item rate (per claim, citation or hand-off opened).
        value_a, value_b: the metric on each side.
        low, high: the 95% paired bootstrap interval of ``value_b - value_a``; ``None``
            without a test.
        p_value: the paired test's p; ``None`` without a test.
        paired_scenarios: the scenarios the test pairs (for a per-item rate, those with
            an item on either side); ``None`` without a test.
    """

    metric: str
    label: str
    higher_is_better: bool
    per_item: bool
    value_a: float
    value_b: float
    low: float | None = None
    high: float | None = None
    p_value: float | None = None
    paired_scenarios: int | None = None


_Pairs = Sequence[tuple[Tally, Tally]]


def _pairs(c: Comparison, a: Sequence[ScenarioTally], b: Sequence[ScenarioTally],
           exclude_infra: bool) -> list[tuple[Tally, Tally]]:
    """Each scenario's trials on both sides, tallied, for the scenarios run on both, in
    the order side a first ran them."""

    def by_scenario(tallies: Sequence[ScenarioTally], mode: str) -> dict[str, Tally]:
        by: dict[str, Tally] = {}
        for group in sorted(tallies, key=lambda t: t.first):
            if group.mode != mode or (group.infra and exclude_infra):
                continue
            held = by.get(group.scenario_id)
            by[group.scenario_id] = group.tally if held is None else held + group.tally
        return by

    on_a, on_b = by_scenario(a, c.a.mode), by_scenario(b, c.b.mode)
    return [(on_a[s], on_b[s]) for s in on_a if s in on_b]


def _differences(metric: str, pairs: _Pairs) -> list[Fraction] | None:
    """Per paired scenario, ``metric`` on side b minus side a (each side's value over its
    own trials), or ``None`` when the metric has no per-scenario form."""
    rate = _RATES.get(metric)
    value: Callable[[Tally], Fraction | None] | None = MEANS.get(metric)
    if rate is not None:
        value = _ratio_of(rate)
    if value is None:
        return None
    differences = []
    for a, b in pairs:
        on_a, on_b = value(a), value(b)
        if on_a is not None and on_b is not None:
            differences.append(on_b - on_a)
    return differences


def _ratio_of(rate: Rate) -> Callable[[Tally], Fraction | None]:
    def ratio(t: Tally) -> Fraction | None:
        part, whole = rate.tallied(t)
        return Fraction(part, whole) if whole else None
    return ratio


def paired_metrics(c: Comparison, a: Sequence[ScenarioTally], b: Sequence[ScenarioTally],
                   *, exclude_infra: bool = True, seed: int = 0,
                   resamples: int = TRADEOFF_RESAMPLES) -> tuple[PairedMetric, ...]:
    """The trade-off of a comparison (see the module docstring).

    Args:
        c: the comparison (:func:`~remit.harness.compare`).
        a, b: each side's run tallied (:meth:`~remit.harness.Side.tallied`,
            ``remit.store.Store.tallies``); the same tallies within one run.
        exclude_infra: leave out trials that ended in an infrastructure error.
        seed, resamples: the bootstrap's and the randomization tests'.
    """
    sa, sb = c.a.summary, c.b.summary
    pairs = _pairs(c, a, b, exclude_infra)
    k_max = max((k for k in sa.pass_hat_k if k in sb.pass_hat_k), default=1)
    metrics: list[tuple[str, str, bool, float, float]] = [
        ("pass_hat_1", "pass^1", True, sa.pass_hat_k.get(1, 0.0), sb.pass_hat_k.get(1, 0.0))]
    if k_max > 1:
        metrics.append((f"pass_hat_{k_max}", f"pass^{k_max}", True,
                        sa.pass_hat_k[k_max], sb.pass_hat_k[k_max]))
    skipped = set(c.a.unmeasured) | set(c.b.unmeasured)
    measured = [r for r in RATES if r.key not in skipped]
    metrics += [(r.key, r.label, False, r.of(sa).value, r.of(sb).value)
                for r in measured if not r.per_item]
    metrics += [
        ("mean_clarification_rounds", "clarification rounds", False,
         sa.mean_clarification_rounds, sb.mean_clarification_rounds),
        ("mean_review_minutes", "review minutes", False,
         sa.mean_review_minutes, sb.mean_review_minutes),
        ("mean_denials", "denials", False, sa.mean_denials, sb.mean_denials),
        ("mean_steps", "steps", False, sa.mean_steps, sb.mean_steps),
        ("errors", "agent errors", False, float(sa.errors), float(sb.errors)),
    ]
    if sa.mean_reply_issues is not None and sb.mean_reply_issues is not None:
        metrics += [
            ("reply_issue_rate", "reply issue (trials)", False,
             sa.reply_issue_rate.value, sb.reply_issue_rate.value),
            ("mean_reply_issues", "reply issues per trial", False,
             sa.mean_reply_issues, sb.mean_reply_issues),
        ]
    metrics += [(r.key, r.label, False, r.of(sa).value, r.of(sb).value)
                for r in measured if r.per_item and r.of(sa).total and r.of(sb).total]
    out = []
    for metric, label, higher, va, vb in metrics:
        low = high = p = None
        paired = None
        rate = _RATES.get(metric)
        if metric == "pass_hat_1":
            low, high, p, paired = c.delta_low, c.delta_high, c.mcnemar_p, c.n_paired
        elif rate is not None and rate.per_item:
            counts = [(*rate.tallied(ta), *rate.tallied(tb)) for ta, tb in pairs]
            counts = [n for n in counts if n[1] or n[3]]
            tested = paired_ratio_test(counts, seed=seed, resamples=resamples)
            if tested is not None:
                (low, high, p), paired = tested, len(counts)
        elif pairs and (diffs := _differences(metric, pairs)):
            low, high = paired_bootstrap(diffs, seed=seed, resamples=resamples)
            p = sign_flip_p(diffs, seed=seed, resamples=resamples)
            paired = len(diffs)
        out.append(PairedMetric(metric=metric, label=label, higher_is_better=higher,
                                per_item=rate is not None and rate.per_item, value_a=va,
                                value_b=vb, low=low, high=high, p_value=p,
                                paired_scenarios=paired))
    return tuple(out)
