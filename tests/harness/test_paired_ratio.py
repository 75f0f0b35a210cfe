"""The test of a per-item rate is a test of the number the report shows: the pooled rate."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from remit.harness.compare import paired_ratio_test

_SCENARIO = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                      st.integers(0, 3)).map(lambda c: (min(c[0], c[1]), c[1],
                                                        min(c[2], c[3]), c[3]))


@settings(max_examples=60, deadline=None)
@given(st.lists(_SCENARIO, min_size=1, max_size=12))
def test_the_interval_holds_the_pooled_difference(counts: list[tuple[int, int, int, int]]
                                                  ) -> None:
    whole_a, whole_b = sum(c[1] for c in counts), sum(c[3] for c in counts)
    tested = paired_ratio_test(counts, seed=3, resamples=300)
    if not whole_a or not whole_b:
        assert tested is None
        return
    assert tested is not None
    low, high, p = tested
    shown = float(Fraction(sum(c[2] for c in counts), whole_b)
                  - Fraction(sum(c[0] for c in counts), whole_a))
    assert low <= shown + 1e-12
    assert shown <= high + 1e-12
    assert 0 < p <= 1


def test_a_clear_pooled_difference_is_found_and_a_lone_scenario_is_not_enough() -> None:
    clear = [(0, 3, 2, 3)] * 15  # side b leaves 2 of 3 items unsupported, a none
    low, high, p = paired_ratio_test(clear) or (0.0, 0.0, 1.0)
    assert (low, high) == (2 / 3, 2 / 3)
    assert p < 0.001
    lone = [(0, 3, 2, 3)]
    assert paired_ratio_test(lone) is not None
    assert (paired_ratio_test(lone) or (0, 0, 0.0))[2] > 0.05


def test_the_same_seed_gives_the_same_answer() -> None:
    counts = [(1, 2, 0, 2), (0, 0, 2, 4), (1, 1, 0, 1), (0, 5, 1, 5)]
    assert paired_ratio_test(counts, seed=7) == paired_ratio_test(counts, seed=7)
