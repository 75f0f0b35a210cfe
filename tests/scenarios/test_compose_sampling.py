"""The balanced sampler: seeded, stable, spread over every coordinate of the space."""

from __future__ import annotations

import pytest

from remit.scenarios import (
    PERTURBATION_VARIANTS,
    Combination,
    CommercialGroup,
    LifecycleGroup,
    ProductGroup,
    bin_of,
    composition_space,
    sample,
)

SPACE = composition_space()


def _ids(combinations: tuple[Combination, ...]) -> list[str]:
    return [c.scenario_id for c in combinations]


def _spread(counts: dict[str, int]) -> int:
    return max(counts.values()) - min(counts.values())


def test_the_same_seed_gives_the_same_draws_in_the_same_order() -> None:
    first, again = sample(SPACE, n=60, seed=3), sample(SPACE, n=60, seed=3)
    assert _ids(first.combinations) == _ids(again.combinations)


def test_another_seed_gives_other_draws() -> None:
    assert _ids(sample(SPACE, n=60, seed=0).combinations) != _ids(
        sample(SPACE, n=60, seed=1).combinations)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_core_sized_draw_is_balanced_on_every_coordinate(seed: int) -> None:
    drawn = sample(SPACE, n=120, seed=seed)
    assert len(drawn.combinations) == 120
    assert len(set(_ids(drawn.combinations))) == 120
    bins = [bin_of(c) for c in drawn.combinations]
    assert len(set(bins)) == 120  # no bin twice while unused ones remain
    assert set(drawn.counts("product")) == {g.value for g in ProductGroup}
    assert set(drawn.counts("commercial")) == {g.value for g in CommercialGroup}
    assert set(drawn.counts("lifecycle")) == {g.value for g in LifecycleGroup}
    assert set(drawn.counts("perturbation")) == {v.slug for v in PERTURBATION_VARIANTS}
    assert _spread(drawn.counts("commercial")) <= 1
    assert _spread(drawn.counts("product")) <= 4
    assert _spread(drawn.counts("lifecycle")) <= 6
    assert _spread(drawn.counts("perturbation")) <= 3
    assert len(drawn.counts("handoffs")) >= 4


def test_situations_are_not_repeated_more_than_needed() -> None:
    drawn = sample(SPACE, n=120, seed=0)
    uses: dict[tuple[ProductGroup, int], int] = {}
    for combination in drawn.combinations:
        key = (combination.situation.group, combination.situation.index)
        uses[key] = uses.get(key, 0) + 1
    assert len(uses) >= 40
    assert max(uses.values()) <= 6


def test_refused_draws_are_replaced_and_reported() -> None:
    def keep(combination: Combination) -> bool:
        return combination.perturbation.slug != "silent-finance"

    drawn = sample(SPACE, n=40, seed=0, keep=keep)
    assert len(drawn.combinations) == 40
    assert all(keep(c) for c in drawn.combinations)
    assert drawn.refused
    assert all("-silent-finance-" in scenario_id for scenario_id in drawn.refused)


def test_a_small_space_is_drawn_whole_and_nothing_is_drawn_for_zero() -> None:
    small = SPACE[:7]
    assert set(_ids(sample(small, n=50).combinations)) == set(_ids(small))
    assert sample(SPACE, n=0).combinations == ()


def test_a_negative_size_is_refused() -> None:
    with pytest.raises(ValueError, match=r"n=-1"):
        sample(SPACE, n=-1)
