"""Seeded draws in bulk: what ``random.Random`` would draw, drawn in C.

The paired tests of a comparison resample its scenarios thousands of times per metric
(:mod:`remit.harness.paired`). Drawn one ``random()`` at a time in Python, that was most
of the cost of ``remit compare``; drawn here, it is a few milliseconds, and the draws are
the very ones the plain loops made:

- :func:`resampled_sums`: ``rng.choices(range(n), k=n)`` per resample draws index
  ``floor(random() * n)`` for each of n places. Python's generator and numpy's legacy
  ``RandomState`` are the same Mersenne Twister and build a float from two 32-bit
  outputs the same way, so ``rng``'s state is handed to numpy, the floats are drawn as
  arrays, multiplied and floored as Python would, and the state is handed back: ``rng``
  ends where the loops would have left it.
- :func:`coins`: ``rng.getrandbits(1)`` is the top bit of one 32-bit output, and
  ``getrandbits(32 * n)`` returns n outputs, least significant first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

__all__ = ["coins", "resampled_sums"]

_BLOCK = 1 << 20
"""Draws made per array, so that memory stays flat however many resamples."""

_TOP_BIT = bytes(b >> 7 for b in range(256))
"""Maps a byte to its top bit (applied to the last byte of each 32-bit output)."""

_INT64 = 1 << 63


def _generator(rng: random.Random) -> np.random.RandomState:
    """A numpy generator in ``rng``'s state."""
    _, internal, _ = rng.getstate()
    generator = np.random.RandomState()
    key = np.array(internal[:-1], dtype=np.uint32)
    generator.set_state(("MT19937", key, internal[-1], 0, 0.0))  # no cached Gaussian
    return generator


def _hand_back(generator: np.random.RandomState, rng: random.Random) -> None:
    """Put ``generator``'s state into ``rng``."""
    version, _, gauss = rng.getstate()
    _, key, position, _, _ = generator.get_state(legacy=True)
    rng.setstate((version, (*(int(word) for word in key), int(position)), gauss))


def resampled_sums(rng: random.Random, columns: Sequence[Sequence[int]],
                   resamples: int) -> list[tuple[int, ...]]:
    """Per resample, the sum of each column at the rows ``rng.choices(range(n), k=n)``
    draws (n rows; repeats counted), as those calls would draw them one resample after
    another; ``rng`` is left as they would leave it.

    Example:
        >>> resampled_sums(random.Random(0), [[1, 10]], 2)  # doctest: +SKIP
        [(11,), (20,)]
    """
    n = len(columns[0])
    scale = float(n)
    generator = _generator(rng)
    exact = [np.array(c, dtype=np.int64) if max(map(abs, c), default=0) * n < _INT64 else None
             for c in columns]
    per_block = max(1, _BLOCK // max(n, 1))
    sums: list[tuple[int, ...]] = []
    for start in range(0, resamples, per_block):
        rows = min(per_block, resamples - start)
        drawn = np.floor(generator.random_sample((rows, n)) * scale).astype(np.intp)
        block = [array[drawn].sum(axis=1).tolist() if array is not None
                 else [sum(map(column.__getitem__, row)) for row in drawn.tolist()]
                 for column, array in zip(columns, exact, strict=True)]
        sums.extend(zip(*block, strict=True))
    _hand_back(generator, rng)
    return sums


def coins(rng: random.Random, n: int) -> bytes:
    """``n`` fair coins, each 0 or 1, as ``n`` calls of ``rng.getrandbits(1)`` toss them
    (``rng`` is left as they would leave it)."""
    outputs = rng.getrandbits(32 * n).to_bytes(4 * n, "little") if n else b""
    return outputs[3::4].translate(_TOP_BIT)
