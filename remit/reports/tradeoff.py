"""The trade-off table of a comparison as reports show it: one row per metric.

The numbers come from :func:`remit.harness.paired_metrics`, the one implementation of
the trade-off, which reads per-scenario tallies (:mod:`remit.harness.tally`): a run's
report, the report of a comparison of two runs and ``remit compare`` all build their
rows here, so they show the same values, intervals and p-values. A row adds to its
metric the difference ``value_b - value_a`` and ``better``: the label of the side its
paired test favours.

Example:
    >>> c = compare(a, b)                                               # doctest: +SKIP
    >>> rows = tradeoff_table(c, paired_metrics(c, a.tallied(), b.tallied()))
    >>> rows[0].metric, rows[0].better                                  # doctest: +SKIP
    ('pass_hat_1', 'dual_control')
"""

from __future__ import annotations

from collections.abc import Sequence

from remit.harness.compare import Comparison
from remit.harness.rates import RATES
from remit.harness.runner import TrialRecord
from remit.harness.tally import tally_records
from remit.harness.tradeoff import MEANS, TRADEOFF_RESAMPLES, PairedMetric, paired_metrics
from remit.reports.model import TradeoffRow

__all__ = ["TESTED_METRICS", "tradeoff_rows", "tradeoff_table"]

TESTED_METRICS: tuple[str, ...] = (
    "pass_hat_1", *(r.key for r in RATES if not r.per_item), *MEANS,
    *(r.key for r in RATES if r.per_item))
"""The trade-off metrics whose rows carry a paired test, so that one side can be found
better or worse on them: pass^1, the headline rates, the per-trial means (the reply
issues' share of trials and mean among them) and the per-item rates (not pass^k for
k > 1 nor the agent-error count)."""


def tradeoff_table(c: Comparison, metrics: Sequence[PairedMetric]) -> tuple[TradeoffRow, ...]:
    """The rows of the trade-off of ``c``: each of ``metrics``
    (:func:`remit.harness.paired_metrics`) with its difference and the label of the side
    its test favours (``c.a.label`` or ``c.b.label``; ``None`` when none)."""
    rows = []
    for m in metrics:
        row = TradeoffRow(metric=m.metric, label=m.label, value_a=m.value_a,
                          value_b=m.value_b, difference=m.value_b - m.value_a,
                          higher_is_better=m.higher_is_better, per_item=m.per_item, low=m.low,
                          high=m.high, p_value=m.p_value, paired_scenarios=m.paired_scenarios,
                          better=None)
        side = row.favours
        rows.append(row if side is None else row.model_copy(
            update={"better": c.a.label if side == "a" else c.b.label}))
    return tuple(rows)


def tradeoff_rows(c: Comparison, a_records: Sequence[TrialRecord],
                  b_records: Sequence[TrialRecord], *, exclude_infra: bool = True,
                  seed: int = 0, resamples: int = TRADEOFF_RESAMPLES
                  ) -> tuple[TradeoffRow, ...]:
    """The trade-off of a comparison from each side's trial records (the same list
    within one run): :func:`tradeoff_table` of :func:`remit.harness.paired_metrics` over
    their tallies. Rows, in order: pass^1 (and pass^k at the largest k both sides have),
    the headline rates, the per-trial means, agent errors, the reply issues when both
    sides' agents reported their usage, then the per-item rates; a rate either side did
    not measure, or a per-item rate either side had no item of, has no row.

    Args:
        c: the comparison (:func:`remit.harness.compare`).
        a_records, b_records: each side's trial records.
        exclude_infra: leave out trials that ended in an infrastructure error.
        seed, resamples: the bootstrap's and the randomization tests'.
    """
    a = tally_records(a_records)
    b = a if b_records is a_records else tally_records(b_records)
    return tradeoff_table(c, paired_metrics(c, a, b, exclude_infra=exclude_infra, seed=seed,
                                            resamples=resamples))
