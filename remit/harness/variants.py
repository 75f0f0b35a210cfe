"""Wrong variants: quoted SKUs outside the acceptable set, final and shown.

- **final**: the version offered last (current when the quote last moved into
  ``presented`` or ``accepted``) has a SKU outside the acceptable set.
- **shown**: any version that reached ``presented`` or ``accepted`` had one, even if a
  later version corrected it: the buyer saw it.

Every wrong SKU comes with the rules that exclude it
(:func:`remit.catalogue.unacceptable_because`: S1 for a superseded or discontinued part,
S2 for a form-fit-function substitute that fails a fit rule, DN, C1-C7), so a report
says *why* the variant is wrong, not only that it is.

Example:
    >>> wrong_variants(scenario, world, acceptable)      # doctest: +SKIP
    WrongVariants(final=('BV-00013',), shown=('BV-00013',), sentences=('wrong_variant: ...',))
"""

from __future__ import annotations

from typing import NamedTuple

from remit.catalogue import unacceptable_because
from remit.quotes import QuoteState, QuoteVersion
from remit.scenarios import Scenario
from remit.world import TransitionEntry, World

__all__ = ["WrongVariants", "offered_version", "offered_versions", "wrong_variants"]

_OFFERED = (QuoteState.PRESENTED.value, QuoteState.ACCEPTED.value)


class WrongVariants(NamedTuple):
    """The wrong SKUs of a trial.

    Attributes:
        final: SKUs outside the acceptable set on the version offered last, sorted.
        shown: SKUs outside the acceptable set on any version offered, sorted.
        sentences: one per wrong SKU and version offered, naming the rules that exclude it.
    """

    final: tuple[str, ...]
    shown: tuple[str, ...]
    sentences: tuple[str, ...]


def offered_versions(world: World) -> list[tuple[TransitionEntry, QuoteVersion]]:
    """Each move of the quote into presented or accepted, with the version it offered."""
    quote = world.quote
    by_number = {(v.number, v.content_hash): v for v in quote.versions}
    offers = []
    for entry in world.trail:
        if (isinstance(entry, TransitionEntry) and entry.quote_id == quote.id
                and entry.to_state in _OFFERED):
            version = by_number.get((entry.version, entry.version_hash))
            if version is not None:
                offers.append((entry, version))
    return offers


def offered_version(world: World) -> QuoteVersion | None:
    """The version current when the quote last moved into presented or accepted.

    Returns ``None`` when the quote was never presented.
    """
    offers = offered_versions(world)
    return offers[-1][1] if offers else None


def wrong_variants(scenario: Scenario, world: World, acceptable: frozenset[str]) -> WrongVariants:
    """The trial's wrong variants, final and shown, with the rules that exclude them."""
    offers = offered_versions(world)
    final: set[str] = set()
    shown: set[str] = set()
    sentences: list[str] = []
    seen: set[tuple[int, str]] = set()
    for position, (entry, version) in enumerate(offers):
        last = position == len(offers) - 1
        skus = tuple(dict.fromkeys(line.sku for line in version.lines))
        for sku in skus:
            if sku in acceptable:
                continue
            shown.add(sku)
            if last:
                final.add(sku)
            if (version.number, sku) in seen:
                continue
            seen.add((version.number, sku))
            why = "; ".join(unacceptable_because(world.catalogue, sku, scenario.requirement,
                                                 scenario.truths, quoted=skus))
            offered = "presented" if entry.to_state == QuoteState.PRESENTED.value else "accepted"
            sentences.append(f"wrong_variant: {sku} on {world.quote.id} v{version.number} "
                             f"({offered} at step {entry.step}) is outside the acceptable "
                             f"set: {why}")
    return WrongVariants(tuple(sorted(final)), tuple(sorted(shown)), tuple(sentences))
