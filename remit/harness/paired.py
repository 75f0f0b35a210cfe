"""Paired tests of two sides of a comparison, scenario by scenario.

McNemar's exact test for pass/fail flips, a sign-flip randomization test and a
percentile bootstrap for per-scenario differences, and a bootstrap plus side-swapping
randomization test for the difference of two pooled per-item rates. Every function is
exact where it can be (fractions, order statistics) and seeded where it samples, so the
same inputs give the same interval and p-value.

Resamples and coin tosses are drawn in bulk (:mod:`remit.harness.draws`) but are exactly
those ``random.Random(seed).choices(population, k=n)`` and ``getrandbits(1)`` give, in
the same order, so every interval and p-value is the one plain Python loops compute.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import compress

from remit.harness.draws import coins, resampled_sums

__all__ = ["ItemCounts", "mcnemar_exact_p", "paired_bootstrap", "paired_ratio_test",
           "sign_flip_p"]

_TAIL = Fraction(1, 40)  # (1 - 0.95) / 2, kept exact so the order statistics are exact


def mcnemar_exact_p(b01: int, b10: int) -> float:
    """McNemar's exact two-sided p for ``b01`` and ``b10`` discordant pairs.

    Example:
        >>> mcnemar_exact_p(5, 1)  # 2 * (C(6,0) + C(6,1)) / 2**6
        0.21875
    """
    if b01 < 0 or b10 < 0:
        raise ValueError(f"discordant counts must be >= 0, got b01={b01!r} b10={b10!r}")
    n = b01 + b10
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b01, b10) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def sign_flip_p(differences: Sequence[Fraction], *, seed: int = 0,
                resamples: int = 2_000) -> float:
    """Two-sided p of a paired randomization test: how often flipping the signs of the
    per-scenario differences at random gives a mean at least as far from zero.

    Exact when there are at most 12 non-zero differences (every sign pattern), else
    estimated from ``resamples`` seeded patterns, counting the observed one.

    Example:
        >>> sign_flip_p([Fraction(1)] * 5)  # 2 of 32 sign patterns reach |5|
        0.0625
    """
    values = [d for d in differences if d != 0]
    if not values:
        return 1.0
    scale = math.lcm(*(d.denominator for d in values))
    numerators = [abs(int(d * scale)) for d in values]
    observed = abs(sum(int(d * scale) for d in values))
    if len(numerators) <= 12:
        patterns: int = 2 ** len(numerators)
        extreme = sum(abs(sum(v if bits >> i & 1 else -v for i, v in enumerate(numerators)))
                      >= observed for bits in range(patterns))
        return extreme / patterns
    rng = random.Random(seed)
    n, total = len(numerators), sum(numerators)
    # The signs kept positive sum to s, the others to total - s: the mean is 2s - total.
    extreme = 1 + sum(abs(2 * sum(compress(numerators, coins(rng, n))) - total) >= observed
                      for _ in range(resamples))
    return extreme / (resamples + 1)


def paired_bootstrap(differences: Sequence[Fraction], *, seed: int = 0,
                     resamples: int = 10_000) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean of per-scenario differences.

    Args:
        differences: one exact difference (b - a) per paired scenario.
        seed: seeds ``random.Random``; the same seed gives the same interval.
        resamples: bootstrap resamples (at least 1).

    Returns:
        ``(low, high)``.
    """
    if resamples < 1:
        raise ValueError(f"resamples={resamples!r} must be at least 1")
    if not differences:
        raise ValueError("differences=[]: the bootstrap needs at least one paired scenario")
    scale = math.lcm(*(d.denominator for d in differences))
    numerators = [int(d * scale) for d in differences]
    n = len(numerators)
    rng = random.Random(seed)
    sums = sorted(total for (total,) in resampled_sums(rng, [numerators], resamples))
    low = sums[math.floor(_TAIL * (resamples - 1))]
    high = sums[math.ceil((1 - _TAIL) * (resamples - 1))]
    return low / (n * scale), high / (n * scale)


ItemCounts = tuple[int, int, int, int]
"""One paired scenario's items: ``(part_a, whole_a, part_b, whole_b)`` (unsupported
claims and claims on side a, then on side b, say)."""


def _pooled_difference(counts: Sequence[ItemCounts]) -> Fraction | None:
    part_a = whole_a = part_b = whole_b = 0
    for pa, wa, pb, wb in counts:
        part_a, whole_a, part_b, whole_b = part_a + pa, whole_a + wa, part_b + pb, whole_b + wb
    if not whole_a or not whole_b:
        return None
    return Fraction(part_b, whole_b) - Fraction(part_a, whole_a)


def paired_ratio_test(counts: Sequence[ItemCounts], *, seed: int = 0,
                      resamples: int = 2_000) -> tuple[float, float, float] | None:
    """Interval and p of the difference of two pooled per-item rates, paired by scenario.

    The statistic is the one a report shows: side b's items pooled over the scenarios
    (``sum(part_b) / sum(whole_b)``) minus side a's. The interval is a percentile
    bootstrap that resamples scenarios (a scenario's items stay together, since they
    share its conversation); the p-value is a paired randomization test that swaps the
    two sides of each scenario at random. Resamples in which a side has no item are
    skipped (the rate is undefined there).

    Returns:
        ``(low, high, p)``, or ``None`` when either side has no item at all.

    Example:
        >>> low, high, p = paired_ratio_test([(0, 2, 1, 2)] * 6)
        >>> (low, high)
        (0.5, 0.5)
    """
    observed = _pooled_difference(counts)
    if observed is None:
        return None
    rng = random.Random(seed)
    n = len(counts)
    part_a, whole_a, part_b, whole_b = (list(column) for column in zip(*counts, strict=True))
    draws = sorted(Fraction(pb, wb) - Fraction(pa, wa) for pa, wa, pb, wb
                   in resampled_sums(rng, (part_a, whole_a, part_b, whole_b), resamples)
                   if wa and wb)
    low = draws[math.floor(_TAIL * (len(draws) - 1))]
    high = draws[math.ceil((1 - _TAIL) * (len(draws) - 1))]
    # Swapping a scenario's sides moves its b counts to a and its a counts to b.
    moved_part = [b - a for a, b in zip(part_a, part_b, strict=True)]
    moved_whole = [b - a for a, b in zip(whole_a, whole_b, strict=True)]
    pa0, wa0, pb0, wb0 = sum(part_a), sum(whole_a), sum(part_b), sum(whole_b)
    size, scale = abs(observed.numerator), observed.denominator
    extreme = 1
    for _ in range(resamples):
        swapped = coins(rng, n)
        dp, dw = sum(compress(moved_part, swapped)), sum(compress(moved_whole, swapped))
        pa, wa, pb, wb = pa0 + dp, wa0 + dw, pb0 - dp, wb0 - dw
        # |pb/wb - pa/wa| >= size/scale, in integers (wa, wb > 0)
        extreme += bool(wa and wb) and abs(pb * wa - pa * wb) * scale >= size * wa * wb
    return float(low), float(high), min(1.0, extreme / (resamples + 1))
