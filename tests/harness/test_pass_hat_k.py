"""pass^k curves: the same floats as the definition, C(c, k) / C(n, k) averaged."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from remit.harness.stats import pass_hat_k, pass_hat_k_curve


def _by_definition(outcomes: list[tuple[int, int]], k: int) -> float:
    values = [math.comb(c, k) / math.comb(n, k) for c, n in outcomes]
    return sum(values) / len(values)


_outcome = st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n)))


@given(st.lists(_outcome, min_size=1, max_size=12))
def test_the_curve_equals_the_definition_bit_for_bit(outcomes: list[tuple[int, int]]) -> None:
    curve = pass_hat_k_curve(outcomes)
    k_max = min(n for _, n in outcomes)
    assert list(curve) == list(range(1, k_max + 1))
    assert curve == {k: _by_definition(outcomes, k) for k in range(1, k_max + 1)}
    assert curve == {k: pass_hat_k(outcomes, k) for k in range(1, k_max + 1)}


def test_large_trial_counts_keep_exact_ratios() -> None:
    # 417 trials per scenario (100,000 trials over 240 cells): tiny ratios stay exact.
    outcomes = [(0, 417), (417, 417), (208, 417), (416, 417), (1, 417), (208, 417)]
    curve = pass_hat_k_curve(outcomes)
    for k in (1, 2, 100, 208, 209, 416, 417):
        assert curve[k] == _by_definition(outcomes, k)
    assert curve[417] == 1 / 6  # only the scenario that always passed is left


def test_no_outcomes_give_no_curve() -> None:
    assert pass_hat_k_curve([]) == {}
