"""A seeded, balanced sampler over the composition space.

Each combination falls in a :class:`Bin`: its product, commercial and lifecycle groups
(the group mix), its perturbation variant and the number of owner actions its plan
hands off in dual-control. The space has far more bins than a suite has scenarios, so
the sampler balances greedily: each pick comes from the bin whose coordinates have been
used least so far (summed over the five coordinates, plus the situation, so that the
same request is not repeated), never a bin already drawn while an unused one remains,
and ties are broken by a seeded shuffle. The same space, ``n`` and ``seed`` always give
the same combinations in the same order.

A ``keep`` predicate (the harness passes plan verification) may refuse a draw; the
refusal counts as an attempt on its bin's coordinates (so a coordinate that keeps
failing is not retried before the others), the sampler goes on with the next best bin,
and it reports what it refused.

Example:
    >>> from remit.scenarios.compose import composition_space
    >>> picked = sample(composition_space(), n=12, seed=0)
    >>> len(picked.combinations), len({c.product for c in picked.combinations})
    (12, 7)
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from remit.scenarios.compose import Combination, required_handoffs
from remit.scenarios.groups import CommercialGroup, LifecycleGroup, ProductGroup

__all__ = ["Bin", "Sample", "bin_of", "sample"]


class Bin(NamedTuple):
    """The coordinates the sampler balances."""

    product: ProductGroup
    commercial: CommercialGroup
    lifecycle: LifecycleGroup
    perturbation: str
    handoffs: int


def bin_of(combination: Combination) -> Bin:
    """The bin of ``combination``."""
    return Bin(combination.product, combination.commercial, combination.lifecycle,
               combination.perturbation.slug, required_handoffs(combination))


class Sample(BaseModel):
    """What :func:`sample` drew.

    Attributes:
        combinations: the drawn combinations, in draw order.
        refused: the ids of draws the ``keep`` predicate refused, in order.
    """

    model_config = ConfigDict(frozen=True)

    combinations: tuple[Combination, ...]
    refused: tuple[str, ...] = ()

    def counts(self, coordinate: str) -> dict[str, int]:
        """How many drawn combinations share each value of one :class:`Bin` coordinate."""
        counted = Counter(str(getattr(bin_of(c), coordinate)) for c in self.combinations)
        return dict(sorted(counted.items()))


def sample(space: Sequence[Combination], n: int = 120, seed: int = 0,
           keep: Callable[[Combination], bool] | None = None) -> Sample:
    """Draw ``n`` combinations from ``space``, balanced over bins (see the module).

    Args:
        space: the valid combinations (:func:`~remit.scenarios.compose.composition_space`).
        n: how many to draw; fewer if the space (after refusals) holds fewer.
        seed: the seed of the tie-breaking shuffle.
        keep: a predicate a draw must pass (e.g. plan verification); ``None`` keeps all.

    Raises:
        ValueError: ``n`` is negative.
    """
    if n < 0:
        raise ValueError(f"cannot sample n={n!r} combinations; ask for 0 or more")
    order = list(range(len(space)))
    random.Random(seed).shuffle(order)
    pools: dict[Bin, list[Combination]] = defaultdict(list)
    rank: dict[Bin, int] = {}
    for index in order:
        combination = space[index]
        key = bin_of(combination)
        rank.setdefault(key, len(rank))
        pools[key].append(combination)
    coordinates = {key: tuple(enumerate(key)) for key in pools}
    heads = {key: [_situation_key(c) for c in pool] for key, pool in pools.items()}
    used: Counter[object] = Counter()
    drawn: Counter[Bin] = Counter()
    chosen: list[Combination] = []
    refused: list[str] = []

    def load(key: Bin) -> tuple[int, int, int]:
        spread = sum(used[c] for c in coordinates[key])
        return drawn[key], spread + min(used[s] for s in heads[key]), rank[key]

    while len(chosen) < n and pools:
        best = min(pools, key=load)
        pool, keys = pools[best], heads[best]
        position = min(range(len(pool)), key=lambda i: used[keys[i]])
        candidate = pool.pop(position)
        keys.pop(position)
        if not pool:
            del pools[best]
        drawn[best] += 1
        used.update(coordinates[best])
        if keep is not None and not keep(candidate):
            # Attempts count like draws, so a refused coordinate is not retried first.
            refused.append(candidate.scenario_id)
            continue
        chosen.append(candidate)
        used[_situation_key(candidate)] += 1
    return Sample(combinations=tuple(chosen), refused=tuple(refused))


def _situation_key(combination: Combination) -> tuple[str, ProductGroup, int]:
    return ("situation", combination.situation.group, combination.situation.index)
