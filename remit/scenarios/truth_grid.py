"""The grid of hidden truths product situations are searched on, and its rule table.

A :class:`Site` is one point of the grid: a design pressure (in bar, or in psi low
enough to read as a plausible bar figure), a medium temperature, chlorides or not, a
piping standard, perhaps an existing actuator's flange and a required certificate.
The fit rules are separable (each reads one fact), so :class:`RuleTable` evaluates each
rule once per valve and fact value with the catalogue's own rule functions, and the
whole grid is searched in a fraction of a second.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator
from types import MappingProxyType
from typing import NamedTuple

from remit.catalogue import (
    Catalogue,
    CertificateGrade,
    EndConnection,
    Family,
    InstallationFacts,
    Iso5211Flange,
    OperatingFacts,
    SiteTruths,
    Unit,
    Variant,
    c1_mounting_flange,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
)

__all__ = ["FLANGES", "OPERATING_RULES", "PRESSURES", "RuleTable", "Site", "sites"]

PRESSURES: tuple[tuple[float, Unit], ...] = (
    (8.0, Unit.BAR), (14.0, Unit.BAR), (20.0, Unit.BAR), (30.0, Unit.BAR),
    (14.0, Unit.PSI), (22.0, Unit.PSI), (32.0, Unit.PSI))
"""Design pressures of the grid. The psi figures read as bar stay plausible (<= PN 40)
but exceed PN 10, 16 and 25 respectively: the ``wrong_unit`` perturbation needs them."""
_TEMPERATURES = (40.0, 120.0, 210.0)
_MEDIA = MappingProxyType({(False, 40.0): "cooling water", (False, 120.0): "hot water",
          (False, 210.0): "thermal oil", (True, 40.0): "sea water",
          (True, 120.0): "hot brine", (True, 210.0): "hot chloride brine"})
_PIPING = tuple(EndConnection)
FLANGES: tuple[Iso5211Flange | None, ...] = (None, *Iso5211Flange)
OPERATING_RULES = frozenset({"C3", "C4", "C6"})
"""The rules the buyer's operating facts decide (the rest are installation facts)."""


class Site(NamedTuple):
    """One point of the truth grid (``pressure`` indexes :data:`PRESSURES`)."""

    pressure: int
    temperature: float
    chlorides: bool
    piping: EndConnection
    flange: Iso5211Flange | None = None
    certificate: CertificateGrade | None = None

    def truths(self) -> SiteTruths:
        """The hidden truths at this point."""
        value, unit = PRESSURES[self.pressure]
        return SiteTruths(
            operating=OperatingFacts(design_pressure=value, pressure_unit=unit,
                                     medium_temperature=self.temperature,
                                     temperature_unit=Unit.CELSIUS, chlorides=self.chlorides,
                                     medium=_MEDIA[(self.chlorides, self.temperature)]),
            installation=InstallationFacts(piping_standard=self.piping,
                                           actuator_flange=self.flange,
                                           certificate_required=self.certificate))


class RuleTable:
    """Rule outcomes per (valve, fact value), computed once: the rules are separable."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._cache: dict[tuple[str, str, object], bool] = {}
        self.by_dn: dict[int, list[Variant]] = defaultdict(list)
        for valve in catalogue.variants_of(Family.BALL_VALVE):
            if valve.is_active:
                self.by_dn[round(valve.number("dn"))].append(valve)

    def _passes(self, valve: Variant, rule: str, value: object) -> bool:
        key = (valve.sku, rule, value)
        if key not in self._cache:
            self._cache[key] = self._evaluate(valve, rule, value)
        return self._cache[key]

    @staticmethod
    def _evaluate(valve: Variant, rule: str, value: object) -> bool:
        if isinstance(value, Iso5211Flange):
            return c1_mounting_flange(valve, value.value).passed
        if isinstance(value, EndConnection):
            return c5_end_connection(valve, InstallationFacts(piping_standard=value)).passed
        if isinstance(value, CertificateGrade):
            return c7_certificate(valve, InstallationFacts(
                piping_standard=EndConnection.NPT, certificate_required=value)).passed
        pressure, unit = (1.0, Unit.BAR)
        temperature, chlorides = 20.0, False
        if rule == "C6":
            chlorides = bool(value)
        elif isinstance(value, int):
            pressure, unit = PRESSURES[value]
        elif isinstance(value, float):
            temperature = value
        operating = OperatingFacts(
            design_pressure=pressure, pressure_unit=unit, medium_temperature=temperature,
            temperature_unit=Unit.CELSIUS, chlorides=chlorides, medium="medium")
        checks = {"C3": c3_pressure_rating, "C4": c4_seat_temperature, "C6": c6_chlorides}
        return checks[rule](valve, operating).passed

    def failures(self, valve: Variant, site: Site) -> frozenset[str]:
        """The rules ``valve`` fails at ``site`` (C1 only against an existing actuator)."""
        checks: list[tuple[str, object]] = [
            ("C3", site.pressure), ("C4", site.temperature), ("C5", site.piping),
            ("C6", site.chlorides)]
        if site.certificate is not None:
            checks.append(("C7", site.certificate))
        if site.flange is not None:
            checks.append(("C1", site.flange))
        return frozenset(rule for rule, value in checks if not self._passes(valve, rule, value))


def sites(*, flanges: tuple[Iso5211Flange | None, ...] = (None,),
          certificates: tuple[CertificateGrade | None, ...] = (None,)) -> Iterator[Site]:
    """Every point of the grid with the given flanges and certificates, in a fixed order."""
    for pressure, temperature, chlorides, piping, flange, certificate in itertools.product(
            range(len(PRESSURES)), _TEMPERATURES, (False, True), _PIPING, flanges,
            certificates):
        yield Site(pressure, temperature, chlorides, piping, flange, certificate)
