"""The acceptable set: which SKUs may appear on a correct quote for this scenario.

This is the oracle of the wrong-variant score. It is computed from the fit rules and
the hidden truths, never from what the agent was told:

- ball valves: active, of the requirement's DN, passing C3-C7 (and C1 against the
  site's existing actuator flange, when the buyer keeps one and buys no actuator);
- actuators, only when the requirement asks for one: active, and passing C1 and C2
  with at least one acceptable valve (:func:`acceptable_pairs` lists the pairs);
- gasket kits: active, of the requirement's DN, with PN >= design pressure (C3), a
  chloride-safe material when there are chlorides (C6), and only for flanged piping
  (C5: threaded joints take no gasket kit).

Superseded and discontinued variants are never acceptable: the agent must quote the
current successor instead.

Example:
    >>> from remit.catalogue import generate_catalogue
    >>> from remit.catalogue import Requirement, SiteTruths
    >>> truths = SiteTruths.model_validate({
    ...     "operating": {"design_pressure": 10, "pressure_unit": "bar",
    ...                   "medium_temperature": 60, "temperature_unit": "C",
    ...                   "chlorides": False, "medium": "water"},
    ...     "installation": {"piping_standard": "NPT"}})
    >>> skus = acceptable_skus(generate_catalogue(0), Requirement(dn=50, quantity=2), truths)
    >>> all(sku.startswith("BV-") for sku in skus)
    True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from remit.catalogue.catalogue import Catalogue
from remit.catalogue.families import Family
from remit.catalogue.fit import (
    check_actuator,
    check_gasket,
    check_valve,
    gasket_fits,
    torque_suffices,
    valve_fits,
)
from remit.catalogue.products import Variant
from remit.catalogue.requirements import Requirement, SiteTruths

__all__ = ["acceptable_pairs", "acceptable_skus", "unacceptable_because"]


def _active_of_dn(catalogue: Catalogue, family: Family, dn: int) -> list[Variant]:
    return [variant for variant in catalogue.having_number(family, "dn", dn)
            if variant.is_active]


def _valves(catalogue: Catalogue, requirement: Requirement, truths: SiteTruths) -> list[Variant]:
    if requirement.family is not Family.BALL_VALVE:
        return []
    return [valve for valve in _active_of_dn(catalogue, Family.BALL_VALVE, requirement.dn)
            if valve_fits(valve, truths, requirement)]


def _gaskets(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> list[Variant]:
    if requirement.family is Family.ACTUATOR:
        return []
    return [gasket for gasket in _active_of_dn(catalogue, Family.GASKET_KIT, requirement.dn)
            if gasket_fits(gasket, truths, requirement)]


def _by_flange(catalogue: Catalogue) -> Mapping[str, tuple[tuple[float, str], ...]]:
    """Active actuators' (output torque, SKU) by flange, in catalogue order (the same for
    every requirement: kept by the catalogue)."""
    def group() -> Mapping[str, tuple[tuple[float, str], ...]]:
        by_flange: dict[str, list[tuple[float, str]]] = defaultdict(list)
        for actuator in catalogue.variants_of(Family.ACTUATOR):
            if actuator.is_active:
                by_flange[actuator.code("iso5211_flange")].append(
                    (actuator.number("output_torque"), actuator.sku))
        return MappingProxyType({flange: tuple(found) for flange, found in by_flange.items()})
    return catalogue.derived(_ACTUATORS_BY_FLANGE, group)


def _pairs(catalogue: Catalogue, valves: list[Variant]) -> set[tuple[str, str]]:
    """C1 and C2 for every valve x active actuator, grouped by flange (C1) first."""
    by_flange = _by_flange(catalogue)
    pairs: set[tuple[str, str]] = set()
    for valve in valves:
        breakaway = valve.number("breakaway_torque")
        pairs.update((valve.sku, sku)
                     for output, sku in by_flange.get(valve.code("iso5211_flange"), ())
                     if torque_suffices(output, breakaway))
    return pairs


def _paired_actuators(catalogue: Catalogue, valves: list[Variant]) -> set[str]:
    """The actuators of :func:`_pairs`, without the pairs: an actuator pairs with some
    valve of its flange exactly when it pairs with the one of least breakaway torque
    (C2 asks less of a smaller torque), so each flange is tested once."""
    least: dict[str, float] = {}
    for valve in valves:
        breakaway = valve.number("breakaway_torque")
        flange = valve.code("iso5211_flange")
        if not math.isnan(breakaway) and (flange not in least or breakaway < least[flange]):
            least[flange] = breakaway
    by_flange = _by_flange(catalogue)
    return {sku for flange, breakaway in least.items()
            for output, sku in by_flange.get(flange, ())
            if torque_suffices(output, breakaway)}


def acceptable_pairs(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> frozenset[tuple[str, str]]:
    """The (valve SKU, actuator SKU) pairs that pass every rule, C1 and C2 included.

    Empty unless the requirement asks for a ball valve with an actuator.
    """
    if requirement.family is not Family.BALL_VALVE or not requirement.with_actuator:
        return frozenset()
    valves = _valves(catalogue, requirement, truths)
    return frozenset(_pairs(catalogue, valves))


def acceptable_skus(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> frozenset[str]:
    """Every SKU that may appear on a correct quote for ``requirement`` at this site.

    Args:
        catalogue: the scenario's catalogue.
        requirement: what the buyer asked for (family, DN, actuator, certificate).
        truths: the hidden operating and installation facts.

    For ``family=actuator`` (a spare actuator for a valve already installed), the
    acceptable actuators are the active ones whose flange matches the installation's
    ``actuator_flange`` (every active actuator when it is not given). For
    ``family=gasket_kit`` only gasket kits are acceptable.

    The set is worked out once per catalogue, requirement and site (all immutable) and
    kept by the catalogue (:meth:`Catalogue.derived`): every trial of a scenario scores
    against it, and a catalogue shared by the process keeps it for the process.
    """
    # Hashing the frozen facts costs more than the lookup it keys, and every trial of a
    # scenario asks with the very same objects: those are found by identity first.
    asked = catalogue.derived(_ASKED, dict[tuple[int, int], _Asked])
    found = asked.get((id(requirement), id(truths)))
    if found is not None and found.requirement is requirement and found.truths is truths:
        return found.skus
    skus = catalogue.derived((_ACCEPTABLE, requirement, truths),
                             lambda: _acceptable(catalogue, requirement, truths))
    if len(asked) >= _ASKED_MAX:
        asked.clear()
    asked[id(requirement), id(truths)] = _Asked(requirement, truths, skus)
    return skus


class _Asked(NamedTuple):
    """An acceptable set with the very objects it was asked for (kept alive, so their
    ids stand for them)."""

    requirement: Requirement
    truths: SiteTruths
    skus: frozenset[str]


_ASKED = ("remit.catalogue.acceptable_skus.asked",)
_ASKED_MAX = 4096


_ACCEPTABLE = "remit.catalogue.acceptable_skus"
"""The key under which a catalogue keeps its acceptable sets (with the inputs)."""
_ACTUATORS_BY_FLANGE = ("remit.catalogue.actuators_by_flange",)
"""The key under which a catalogue keeps its active actuators by flange."""


def _acceptable(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> frozenset[str]:
    if requirement.family is Family.ACTUATOR:
        flange = truths.installation.actuator_flange
        return frozenset(
            actuator.sku for actuator in catalogue.variants_of(Family.ACTUATOR)
            if actuator.is_active
            and (flange is None or actuator.code("iso5211_flange") == flange.value)
        )
    valves = _valves(catalogue, requirement, truths)
    accepted = {valve.sku for valve in valves}
    accepted.update(gasket.sku for gasket in _gaskets(catalogue, requirement, truths))
    if requirement.with_actuator and requirement.family is Family.BALL_VALVE:
        accepted.update(_paired_actuators(catalogue, valves))
    return frozenset(accepted)


def _lifecycle(catalogue: Catalogue, variant: Variant) -> str | None:
    if variant.is_active:
        return None
    if variant.lifecycle.superseded_by is not None:
        chain = catalogue.successor_chain(variant.sku)
        return (f"S1 fails: {variant.sku} is superseded (chain {' -> '.join(chain)}); "
                f"supersession runs forward only, quote its current successor {chain[-1]}")
    return (f"S1 fails: {variant.sku} is {variant.lifecycle.status.value} and has no "
            "successor; only active variants may be quoted")


def _substitution(catalogue: Catalogue, variant: Variant, requirement: Requirement,
                  failures: list[str]) -> list[str]:
    """Failures of an FFF substitute for the requested part restated under S2."""
    requested = requirement.requested_sku
    if (not failures or requested is None or requested == variant.sku
            or requested not in catalogue or variant.fff_class is None
            or catalogue.variant(requested).fff_class != variant.fff_class):
        return failures
    return [f"S2 fails: {variant.sku} substitutes {requested} in form-fit-function class "
            f"{variant.fff_class} but a substitute must pass every fit rule; {failure}"
            for failure in failures]


def unacceptable_because(
    catalogue: Catalogue, sku: str, requirement: Requirement, truths: SiteTruths,
    quoted: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """Why ``sku`` is outside the acceptable set, one sentence per rule that excludes it.

    Each sentence starts with the rule (``S1`` for a superseded or discontinued part,
    ``S2`` for a form-fit-function substitute that fails a fit rule, ``DN``, ``C1``-``C7``)
    and says why, as the rule's own reason does. An actuator is checked (C1, C2) against
    the valves quoted with it (``quoted``), else against the acceptable valves. Empty when
    ``sku`` is acceptable.

    Raises:
        UnknownSkuError: ``sku`` is not in the catalogue.
    """
    if sku in acceptable_skus(catalogue, requirement, truths):
        return ()
    variant = catalogue.variant(sku)
    reasons: list[str] = []
    lifecycle = _lifecycle(catalogue, variant)
    if lifecycle is not None:
        reasons.append(lifecycle)
    family = variant.family
    wanted = requirement.family
    if family is Family.BALL_VALVE:
        if wanted is not Family.BALL_VALVE:
            reasons.append(f"scope: {sku} is a ball valve and the buyer asked for a "
                           f"{wanted.value.replace('_', ' ')}")
        else:
            failures = [r.reason for r in check_valve(variant, truths, requirement)
                        if not r.passed]
            reasons += _substitution(catalogue, variant, requirement, failures)
    elif family is Family.GASKET_KIT:
        if wanted is Family.ACTUATOR:
            reasons.append(f"scope: {sku} is a gasket kit and the buyer asked for an actuator")
        else:
            reasons += [r.reason for r in check_gasket(variant, truths, requirement)
                        if not r.passed]
    else:
        reasons += _actuator_reasons(catalogue, variant, requirement, truths, quoted)
    return tuple(reasons) or (f"{sku} is outside the acceptable set for this requirement",)


def _actuator_reasons(catalogue: Catalogue, actuator: Variant, requirement: Requirement,
                      truths: SiteTruths, quoted: tuple[str, ...]) -> list[str]:
    if requirement.family is Family.ACTUATOR:
        flange = truths.installation.actuator_flange
        if flange is not None and actuator.code("iso5211_flange") != flange.value:
            return [f"C1 fails: actuator {actuator.sku} flange "
                    f"{actuator.code('iso5211_flange')} does not match the existing valve's "
                    f"{flange.value} top flange; choose an actuator with an {flange.value} "
                    "flange"]
        return []
    if not requirement.with_actuator:
        return [f"scope: {actuator.sku} is an actuator and the buyer asked for no actuator"]
    valves = [catalogue.variant(s) for s in quoted
              if s in catalogue and catalogue.variant(s).family is Family.BALL_VALVE]
    if not valves:
        valves = _valves(catalogue, requirement, truths)
    reasons: list[str] = []
    for valve in valves:
        reasons += [r.reason for r in check_actuator(valve, actuator) if not r.passed]
    return reasons or [f"C1/C2: actuator {actuator.sku} pairs with no acceptable valve"]
