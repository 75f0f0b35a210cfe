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

from collections import defaultdict

from remit.catalogue.catalogue import Catalogue
from remit.catalogue.families import Family
from remit.catalogue.fit import check_gasket, check_valve, torque_suffices
from remit.catalogue.products import Variant
from remit.catalogue.requirements import Requirement, SiteTruths

__all__ = ["acceptable_pairs", "acceptable_skus"]


def _active_of_dn(catalogue: Catalogue, family: Family, dn: int) -> list[Variant]:
    return [variant for variant in catalogue.variants_of(family)
            if variant.is_active and variant.number("dn") == dn]


def _valves(catalogue: Catalogue, requirement: Requirement, truths: SiteTruths) -> list[Variant]:
    if requirement.family is not Family.BALL_VALVE:
        return []
    return [valve for valve in _active_of_dn(catalogue, Family.BALL_VALVE, requirement.dn)
            if all(result.passed for result in check_valve(valve, truths, requirement))]


def _gaskets(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> list[Variant]:
    if requirement.family is Family.ACTUATOR:
        return []
    return [gasket for gasket in _active_of_dn(catalogue, Family.GASKET_KIT, requirement.dn)
            if all(result.passed for result in check_gasket(gasket, truths, requirement))]


def _pairs(valves: list[Variant], actuators: tuple[Variant, ...]) -> set[tuple[str, str]]:
    """C1 and C2 for every valve x active actuator, grouped by flange (C1) first."""
    by_flange: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for actuator in actuators:
        if actuator.is_active:
            by_flange[actuator.code("iso5211_flange")].append(
                (actuator.number("output_torque"), actuator.sku))
    pairs: set[tuple[str, str]] = set()
    for valve in valves:
        breakaway = valve.number("breakaway_torque")
        pairs.update((valve.sku, sku) for output, sku in by_flange[valve.code("iso5211_flange")]
                     if torque_suffices(output, breakaway))
    return pairs


def acceptable_pairs(
    catalogue: Catalogue, requirement: Requirement, truths: SiteTruths
) -> frozenset[tuple[str, str]]:
    """The (valve SKU, actuator SKU) pairs that pass every rule, C1 and C2 included.

    Empty unless the requirement asks for a ball valve with an actuator.
    """
    if requirement.family is not Family.BALL_VALVE or not requirement.with_actuator:
        return frozenset()
    valves = _valves(catalogue, requirement, truths)
    return frozenset(_pairs(valves, catalogue.variants_of(Family.ACTUATOR)))


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
    """
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
        pairs = _pairs(valves, catalogue.variants_of(Family.ACTUATOR))
        accepted.update(actuator for _, actuator in pairs)
    return frozenset(accepted)
