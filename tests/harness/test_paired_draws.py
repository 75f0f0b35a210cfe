"""The paired tests draw in C exactly what the plain Python loops drew: the same seed and
inputs give the same interval and p-value as ``random.choices`` and ``getrandbits(1)``."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from remit.harness.paired import ItemCounts, paired_bootstrap, paired_ratio_test, sign_flip_p

_TAIL = Fraction(1, 40)


def _bootstrap_by_loops(differences: list[Fraction], seed: int,
                        resamples: int) -> tuple[float, float]:
    scale = math.lcm(*(d.denominator for d in differences))
    numerators = [int(d * scale) for d in differences]
    n = len(numerators)
    rng = random.Random(seed)
    sums = sorted(sum(rng.choices(numerators, k=n)) for _ in range(resamples))
    low = sums[math.floor(_TAIL * (resamples - 1))]
    high = sums[math.ceil((1 - _TAIL) * (resamples - 1))]
    return low / (n * scale), high / (n * scale)


def _sign_flip_by_loops(differences: list[Fraction], seed: int, resamples: int) -> float:
    values = [d for d in differences if d != 0]
    scale = math.lcm(*(d.denominator for d in values))
    numerators = [abs(int(d * scale)) for d in values]
    observed = abs(sum(int(d * scale) for d in values))
    rng = random.Random(seed)
    extreme = 1 + sum(
        abs(sum(v if rng.getrandbits(1) else -v for v in numerators)) >= observed
        for _ in range(resamples))
    return extreme / (resamples + 1)


def _pooled(counts: list[ItemCounts]) -> Fraction | None:
    pa, wa, pb, wb = (sum(column) for column in zip(*counts, strict=True))
    return Fraction(pb, wb) - Fraction(pa, wa) if wa and wb else None


def _ratio_by_loops(counts: list[ItemCounts], seed: int,
                    resamples: int) -> tuple[float, float, float] | None:
    observed = _pooled(counts)
    if observed is None:
        return None
    rng = random.Random(seed)
    n = len(counts)
    draws = []
    for _ in range(resamples):
        draw = _pooled([counts[i] for i in rng.choices(range(n), k=n)])
        if draw is not None:
            draws.append(draw)
    draws.sort()
    low = draws[math.floor(_TAIL * (len(draws) - 1))]
    high = draws[math.ceil((1 - _TAIL) * (len(draws) - 1))]
    extreme = 1
    for _ in range(resamples):
        swapped = [(pb, wb, pa, wa) if rng.getrandbits(1) else (pa, wa, pb, wb)
                   for pa, wa, pb, wb in counts]
        value = _pooled(swapped)
        extreme += value is not None and abs(value) >= abs(observed)
    return float(low), float(high), min(1.0, extreme / (resamples + 1))


def _outcome(test: Callable[[], object]) -> object:
    """What ``test`` returns, or the type of what it raises (when no resample had items
    on both sides, both versions fail alike)."""
    try:
        return test()
    except IndexError as exc:
        return type(exc)


_difference = st.builds(Fraction, st.integers(-12, 12), st.integers(1, 7))
_seed = st.integers(min_value=0, max_value=2**64)


@settings(max_examples=60, deadline=None)
@given(st.lists(_difference, min_size=1, max_size=60), _seed, st.integers(1, 120))
def test_the_bootstrap_draws_as_random_choices(differences: list[Fraction], seed: int,
                                               resamples: int) -> None:
    assert paired_bootstrap(differences, seed=seed, resamples=resamples) == \
        _bootstrap_by_loops(differences, seed, resamples)


@settings(max_examples=60, deadline=None)
@given(st.lists(_difference.filter(bool), min_size=13, max_size=80), _seed,
       st.integers(1, 120))
def test_the_sign_flips_toss_as_getrandbits(differences: list[Fraction], seed: int,
                                            resamples: int) -> None:
    assert sign_flip_p(differences, seed=seed, resamples=resamples) == \
        _sign_flip_by_loops(differences, seed, resamples)


_item = st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 3),
                  st.integers(0, 4)).map(lambda c: (min(c[0], c[1]), c[1], min(c[2], c[3]), c[3]))


@settings(max_examples=60, deadline=None)
@given(st.lists(_item, min_size=1, max_size=40), _seed, st.integers(1, 80))
def test_the_ratio_test_draws_and_swaps_as_the_loops(counts: list[ItemCounts], seed: int,
                                                     resamples: int) -> None:
    assert _outcome(lambda: paired_ratio_test(counts, seed=seed, resamples=resamples)) == \
        _outcome(lambda: _ratio_by_loops(counts, seed, resamples))


def test_a_large_comparison_draws_the_same() -> None:
    rng = random.Random(7)
    differences = [Fraction(rng.randint(-417, 417), 417) for _ in range(120)]
    counts = [(rng.randint(0, 3), 3, rng.randint(0, 5), 5) for _ in range(120)]
    assert paired_bootstrap(differences, resamples=2_000) == \
        _bootstrap_by_loops(differences, 0, 2_000)
    assert sign_flip_p(differences, resamples=2_000) == _sign_flip_by_loops(differences, 0, 2_000)
    assert paired_ratio_test(counts) == _ratio_by_loops(counts, 0, 2_000)


def test_sums_too_large_for_machine_integers_draw_the_same() -> None:
    # Trial counts that share no factor: the common denominator has ~60 digits.
    primes = [1_000_003, 1_000_033, 1_000_037, 1_000_039, 1_000_081, 1_000_099, 1_000_117,
              1_000_121, 1_000_133, 1_000_151]
    differences = [Fraction(i % 5 - 2, p) for i, p in enumerate(primes * 2)]
    assert paired_bootstrap(differences, seed=3, resamples=300) == \
        _bootstrap_by_loops(differences, 3, 300)
    assert sign_flip_p(differences, seed=3, resamples=300) == \
        _sign_flip_by_loops(differences, 3, 300)
