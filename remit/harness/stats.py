"""Statistics of a run: pass^k and Wilson intervals.

pass^k (tau2-bench): for one scenario with ``n`` trials of which ``c`` passed, the
chance that ``k`` trials drawn without replacement all pass is ``C(c, k) / C(n, k)``;
a mode's pass^k is the mean over scenarios. Rates carry Wilson 95% score intervals,
which behave at 0 and 1 where the normal approximation does not.

A curve (pass^k for every k up to the smallest trial count) is computed once per distinct
``(c, n)``: both binomials are carried from k - 1 to k by one multiplication and one
exact division, and each ratio is their exact quotient rounded once to a float (Python's
``int / int``), so every value equals ``math.comb(c, k) / math.comb(n, k)`` bit for bit
while the work grows with k instead of k squared; a scenario that always (or never)
passed costs nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

__all__ = ["Interval", "pass_hat_k", "pass_hat_k_curve", "wilson"]

_Z95 = 1.959963984540054


class Interval(BaseModel):
    """A proportion with its Wilson 95% interval.

    Attributes:
        value: successes / total (0.0 when total is 0).
        low, high: interval bounds.
        successes, total: the counts behind it.
    """

    model_config = ConfigDict(frozen=True)

    value: float
    low: float
    high: float
    successes: int
    total: int

    def __str__(self) -> str:
        return f"{self.value:.2f} [{self.low:.2f}, {self.high:.2f}]"


def wilson(successes: int, total: int, z: float = _Z95) -> Interval:
    """Wilson score interval for ``successes`` out of ``total``.

    Example:
        >>> str(wilson(0, 10))
        '0.00 [0.00, 0.28]'
    """
    if not 0 <= successes <= total:
        raise ValueError(f"need 0 <= successes <= total, got successes={successes!r} "
                         f"total={total!r}")
    if total == 0:
        return Interval(value=0.0, low=0.0, high=1.0, successes=0, total=0)
    p = successes / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return Interval(value=p, low=max(0.0, centre - half), high=min(1.0, centre + half),
                    successes=successes, total=total)


def pass_hat_k(outcomes: Sequence[tuple[int, int]], k: int) -> float:
    """Mean over scenarios of ``C(c, k) / C(n, k)``.

    Args:
        outcomes: one ``(passes, trials)`` pair per scenario.
        k: number of trials that must all pass; ``1 <= k <= min(trials)``.
    """
    if not outcomes:
        return 0.0
    values = []
    for passes, trials in outcomes:
        if not 1 <= k <= trials:
            raise ValueError(f"k={k!r} must be between 1 and the trials per scenario ({trials})")
        values.append(math.comb(passes, k) / math.comb(trials, k))
    return sum(values) / len(values)


def _ratios(passes: int, trials: int, k_max: int) -> list[float]:
    """``C(passes, k) / C(trials, k)`` for k = 1..``k_max``, each exactly rounded."""
    if passes == trials:
        return [1.0] * k_max
    ratios = [0.0] * k_max  # C(passes, k) = 0 once k > passes
    chosen = total = 1
    for k in range(1, min(passes, k_max) + 1):
        chosen = chosen * (passes - k + 1) // k  # C(passes, k), exactly
        total = total * (trials - k + 1) // k  # C(trials, k), exactly
        ratios[k - 1] = chosen / total
    return ratios


def pass_hat_k_curve(outcomes: Sequence[tuple[int, int]]) -> dict[int, float]:
    """pass^k for every ``k`` from 1 to the smallest trial count: for each k the same
    value as :func:`pass_hat_k` (see the module docstring for how it is computed).

    Example:
        >>> pass_hat_k_curve([(2, 3), (3, 3)])
        {1: 0.8333333333333333, 2: 0.6666666666666666, 3: 0.5}
    """
    if not outcomes:
        return {}
    k_max = min(n for _, n in outcomes)
    by_outcome: dict[tuple[int, int], list[float]] = {}
    columns = []
    for passes, trials in outcomes:
        column = by_outcome.get((passes, trials))
        if column is None:
            column = by_outcome[passes, trials] = _ratios(passes, trials, k_max)
        columns.append(column)
    count = len(columns)
    return {k: sum(column[k - 1] for column in columns) / count for k in range(1, k_max + 1)}
