"""Physical units and their normalisation, backed by pint.

Governed attributes and buyer facts carry a unit. Comparisons always normalise to a
canonical unit per quantity (bar for pressure, degrees Celsius for temperature), so a
value given in psi where bar was meant is *detectable*: it converts to a different
canonical value, and :func:`require_quantity` rejects a unit of the wrong quantity.

Two layers:

- :class:`Unit` is the closed set of units a *record* may carry (a governed attribute,
  a buyer's fact). :func:`parse_unit` reads one from any common spelling.
- :func:`measure_unit` reads *any* spelling of a unit of the catalogue's quantities
  that people write (``kPa``, ``mbar``, ``K``, ``in``, ``"``, ``lbf·ft``, ``deg C``...),
  as text claims need. It returns a :class:`MeasureUnit` with its quantity and the
  affine map to the canonical unit.

Definitions and conversion factors come from pint's unit registry, not from a table of
our own: pint is loaded once, on first use, and every unit's affine map to its
canonical unit is computed from it once and cached, so conversions on the hot path are
one multiply and one add.

Example:
    >>> convert(16.0, Unit.BAR, Unit.PSI)
    232.06038...
    >>> measure_unit("kPa").to_canonical(1600.0)
    16.0
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from remit.errors import UnitError

if TYPE_CHECKING:
    import pint

__all__ = [
    "CANONICAL",
    "MeasureUnit",
    "Quantity",
    "Unit",
    "convert",
    "measure_unit",
    "parse_unit",
    "pint_measure",
    "quantity_of",
    "require_quantity",
    "to_canonical",
]


class Quantity(StrEnum):
    """The physical quantity a unit measures."""

    PRESSURE = "pressure"
    TEMPERATURE = "temperature"
    TORQUE = "torque"
    DURATION = "duration"
    COUNT = "count"
    LENGTH = "length"


class Unit(StrEnum):
    """Units a record may carry. Values are the spelling used in records and messages."""

    BAR = "bar"
    PSI = "psi"
    MPA = "MPa"
    CELSIUS = "C"
    FAHRENHEIT = "F"
    NEWTON_METRE = "Nm"
    DAYS = "d"
    PIECES = "pcs"
    MILLIMETRE = "mm"


CANONICAL: dict[Quantity, Unit] = {
    Quantity.PRESSURE: Unit.BAR,
    Quantity.TEMPERATURE: Unit.CELSIUS,
    Quantity.TORQUE: Unit.NEWTON_METRE,
    Quantity.DURATION: Unit.DAYS,
    Quantity.COUNT: Unit.PIECES,
    Quantity.LENGTH: Unit.MILLIMETRE,
}
"""The unit every quantity is normalised to before comparison."""

_PINT_NAME: dict[Unit, str] = {
    Unit.BAR: "bar",
    Unit.PSI: "psi",
    Unit.MPA: "megapascal",
    Unit.CELSIUS: "degree_Celsius",
    Unit.FAHRENHEIT: "degree_Fahrenheit",
    Unit.NEWTON_METRE: "newton * meter",
    Unit.DAYS: "day",
    Unit.PIECES: "count",
    Unit.MILLIMETRE: "millimeter",
}
"""Each record unit as pint names it."""

_DIMENSIONS: dict[frozenset[tuple[str, float]], Quantity] = {
    frozenset({("[mass]", 1), ("[length]", -1), ("[time]", -2)}): Quantity.PRESSURE,
    frozenset({("[temperature]", 1)}): Quantity.TEMPERATURE,
    frozenset({("[mass]", 1), ("[length]", 2), ("[time]", -2)}): Quantity.TORQUE,
    frozenset({("[time]", 1)}): Quantity.DURATION,
    frozenset({("[length]", 1)}): Quantity.LENGTH,
}
"""pint dimensionalities (base dimension and exponent) and the quantity each one is."""

# How people spell units in free text, folded to lower case without spaces, dots or
# interpuncts, mapped to the name pint knows them by. pint defines the units; this
# table only reads the spellings pint's own parser does not (``Nm`` is a nanometre to
# pint, ``deg C`` and ``ft-lb`` are not units to it at all).
_SPELLINGS: dict[str, str] = {
    # pressure (gauge and absolute suffixes read as the unit itself)
    "bar": "bar", "barg": "bar", "bar(g)": "bar", "bara": "bar", "bar(a)": "bar",
    "bars": "bar", "mbar": "millibar", "millibar": "millibar", "kpa": "kilopascal",
    "kilopascal": "kilopascal", "kilopascals": "kilopascal", "mpa": "megapascal",
    "megapascal": "megapascal", "megapascals": "megapascal", "pa": "pascal",
    "psi": "psi", "psig": "psi", "psia": "psi", "psi(g)": "psi", "lb/in2": "psi",
    # temperature
    "c": "degree_Celsius", "°c": "degree_Celsius", "ºc": "degree_Celsius",
    "degc": "degree_Celsius", "deg": "degree_Celsius", "degreesc": "degree_Celsius",
    "degreec": "degree_Celsius", "celsius": "degree_Celsius",
    "degreescelsius": "degree_Celsius", "degreecelsius": "degree_Celsius",
    "degcelsius": "degree_Celsius", "°": "degree_Celsius",
    "f": "degree_Fahrenheit", "°f": "degree_Fahrenheit", "ºf": "degree_Fahrenheit",
    "degf": "degree_Fahrenheit", "degreesf": "degree_Fahrenheit",
    "degreef": "degree_Fahrenheit", "fahrenheit": "degree_Fahrenheit",
    "degreesfahrenheit": "degree_Fahrenheit", "degreefahrenheit": "degree_Fahrenheit",
    "k": "kelvin", "kelvin": "kelvin", "kelvins": "kelvin",
    # torque
    "nm": "newton * meter", "n-m": "newton * meter", "newtonmeter": "newton * meter",
    "newtonmeters": "newton * meter", "newtonmetre": "newton * meter",
    "newtonmetres": "newton * meter", "newton-meter": "newton * meter",
    "newton-meters": "newton * meter", "newton-metre": "newton * meter",
    "newton-metres": "newton * meter",
    "lbfft": "force_pound * foot", "lbf-ft": "force_pound * foot",
    "ftlbf": "force_pound * foot", "ft-lbf": "force_pound * foot",
    "ftlb": "force_pound * foot", "ft-lb": "force_pound * foot",
    "ftlbs": "force_pound * foot", "ft-lbs": "force_pound * foot",
    "lbft": "force_pound * foot", "lb-ft": "force_pound * foot",
    "lbsft": "force_pound * foot", "lbs-ft": "force_pound * foot",
    "foot-pound": "force_pound * foot", "foot-pounds": "force_pound * foot",
    "footpound": "force_pound * foot", "footpounds": "force_pound * foot",
    "pound-feet": "force_pound * foot", "pound-foot": "force_pound * foot",
    # length
    "mm": "millimeter", "millimeter": "millimeter", "millimeters": "millimeter",
    "millimetre": "millimeter", "millimetres": "millimeter", "cm": "centimeter",
    "in": "inch", "inch": "inch", "inches": "inch", '"': "inch",
    "″": "inch", "''": "inch",
    # duration and count (record units)
    "d": "day", "day": "day", "days": "day", "pcs": "count", "pc": "count",
}

_FOLD = re.compile("[\\s.*_\u00b7\u22c5\u2022\u2219\u00d7]+")


class MeasureUnit(NamedTuple):
    """A unit of one of the catalogue's quantities, as pint defines it.

    Attributes:
        name: pint's name for it (``kilopascal``, ``degree_Fahrenheit``).
        quantity: what it measures.
        scale, offset: the affine map to the canonical unit:
            ``canonical = value * scale + offset``.
    """

    name: str
    quantity: Quantity
    scale: float
    offset: float

    def to_canonical(self, value: float) -> float:
        """``value`` in this unit, expressed in its quantity's canonical unit."""
        return value * self.scale + self.offset

    def from_canonical(self, value: float) -> float:
        """``value`` in the canonical unit, expressed in this unit."""
        return (value - self.offset) / self.scale


@functools.cache
def _registry() -> pint.UnitRegistry[float]:
    import pint  # noqa: PLC0415 - a third of a second to load: only when a unit is first read

    return pint.UnitRegistry()


def _fold(spelling: str) -> str:
    return _FOLD.sub("", spelling.strip()).casefold().replace("º", "°")


@functools.cache
def _measure(name: str) -> MeasureUnit | None:
    known = _PINT_MAPS.get(name)
    if known is not None:
        return MeasureUnit(name, *known)
    return pint_measure(name)


def pint_measure(name: str) -> MeasureUnit | None:
    """``name``'s map to its canonical unit, worked out by pint (``None``: not a unit of
    the catalogue's quantities). :data:`_PINT_MAPS` holds what this returns for every
    name remit reads, so a run never loads pint; a test checks the two agree, bit for bit."""
    registry = _registry()
    try:
        unit = registry.Unit(name)
    except Exception:
        return None
    dimensions = frozenset((str(k), float(str(v))) for k, v in dict(unit.dimensionality).items())
    quantity = _DIMENSIONS.get(dimensions)
    if quantity is None:
        return None
    canonical = _PINT_NAME[CANONICAL[quantity]]
    zero = registry.Quantity(0.0, unit).to(canonical).magnitude
    one = registry.Quantity(1.0, unit).to(canonical).magnitude
    return MeasureUnit(name=name, quantity=quantity, scale=float(one - zero),
                       offset=float(zero))


_PINT_MAPS: dict[str, tuple[Quantity, float, float]] = {
    "bar": (Quantity.PRESSURE, 1.0, 0.0),
    "millibar": (Quantity.PRESSURE, 0.001, 0.0),
    "pascal": (Quantity.PRESSURE, 1e-05, 0.0),
    "kilopascal": (Quantity.PRESSURE, 0.01, 0.0),
    "megapascal": (Quantity.PRESSURE, 10.0, 0.0),
    "psi": (Quantity.PRESSURE, 0.06894757293168365, 0.0),
    "degree_Celsius": (Quantity.TEMPERATURE, 1.0, 0.0),
    "degree_Fahrenheit": (Quantity.TEMPERATURE, 0.5555555555555429, -17.777777777777743),
    "kelvin": (Quantity.TEMPERATURE, 1.0, -273.15),
    "newton * meter": (Quantity.TORQUE, 1.0, 0.0),
    "force_pound * foot": (Quantity.TORQUE, 1.3558179483314006, 0.0),
    "millimeter": (Quantity.LENGTH, 1.0, 0.0),
    "centimeter": (Quantity.LENGTH, 10.0, 0.0),
    "inch": (Quantity.LENGTH, 25.4, 0.0),
    "day": (Quantity.DURATION, 1.0, 0.0),
}
"""The map (quantity, scale, offset) pint works out for every unit name in
:data:`_SPELLINGS`, exactly as :func:`pint_measure` returns it (the tests compare them,
bit for bit, on every run of the suite). pint defines the units; keeping its figures
here spares every run the third of a second that loading pint and its unit registry
costs (the catalogue index converts every record value to its canonical unit)."""

_COUNT = MeasureUnit(name="count", quantity=Quantity.COUNT, scale=1.0, offset=0.0)
_WRITTEN = ("bar", "mbar", "kPa", "MPa", "psi", "°C", "°F", "K", "N·m", "lbf·ft", "mm", "in",
            "d", "pcs")


@functools.cache
def measure_unit(spelling: str) -> MeasureUnit:
    """The unit ``spelling`` means, in any common spelling, with its canonical map.

    Accepts the record units and every unit people write for the catalogue's quantities:
    ``bar``, ``barg``, ``mbar``, ``kPa``, ``MPa``, ``psi``, ``psig``; ``°C``, ``ºC``,
    ``℃`` (after NFKC), ``deg C``, ``degrees Fahrenheit``, ``K``; ``Nm``, ``N·m``,
    ``N-m``, ``lbf·ft``, ``ft-lb``; ``mm``, ``in``, ``inch``, ``"``; ``d``, ``pcs``.

    Raises:
        UnitError: the spelling is not a unit of the catalogue's quantities.
    """
    name = _SPELLINGS.get(_fold(spelling))
    if name == "count":
        return _COUNT
    measure = _measure(name) if name is not None else None
    if measure is None:
        raise UnitError(spelling, "known", _WRITTEN)
    return measure


def _record_measure(unit: Unit) -> MeasureUnit:
    return _RECORD_MEASURES.get(unit) or _cache_record_measure(unit)


def _cache_record_measure(unit: Unit) -> MeasureUnit:
    measure = measure_unit(unit.value)
    _RECORD_MEASURES[unit] = measure
    return measure


_RECORD_MEASURES: dict[Unit, MeasureUnit] = {}
"""Each record unit's map, computed from pint on first use (then a dict lookup)."""


def quantity_of(unit: Unit) -> Quantity:
    """Return the physical quantity ``unit`` measures."""
    return _QUANTITY[unit]


_QUANTITY: dict[Unit, Quantity] = {
    Unit.BAR: Quantity.PRESSURE,
    Unit.PSI: Quantity.PRESSURE,
    Unit.MPA: Quantity.PRESSURE,
    Unit.CELSIUS: Quantity.TEMPERATURE,
    Unit.FAHRENHEIT: Quantity.TEMPERATURE,
    Unit.NEWTON_METRE: Quantity.TORQUE,
    Unit.DAYS: Quantity.DURATION,
    Unit.PIECES: Quantity.COUNT,
    Unit.MILLIMETRE: Quantity.LENGTH,
}
"""What each record unit measures (checked against pint in the tests)."""


def parse_unit(text: str) -> Unit:
    """Parse a record unit from any common spelling (``psig``, ``°F``, ``N·m``...).

    Raises:
        UnitError: the spelling is not a unit a record may carry (``kPa`` is a unit,
            but records use bar, psi or MPa).
    """
    written = _BY_VALUE.get(text)
    if written is not None:
        # A record unit as records write it (``bar``, ``C``): the one spelling stored
        # suites and catalogues hold, read without loading pint.
        return written
    try:
        measure = measure_unit(text)
    except UnitError:
        measure = None
    if measure is not None:
        for unit in Unit:
            if _PINT_NAME[unit] == measure.name:
                return unit
    raise UnitError(text, "known", tuple(u.value for u in Unit))


_BY_VALUE: dict[str, Unit] = {unit.value: unit for unit in Unit}
"""Each record unit by its value (what :func:`parse_unit` reads each value as; tested)."""


def require_quantity(unit: Unit, quantity: Quantity) -> None:
    """Raise :class:`UnitError` unless ``unit`` measures ``quantity``."""
    if _QUANTITY[unit] is not quantity:
        valid = tuple(u.value for u, q in _QUANTITY.items() if q is quantity)
        raise UnitError(unit.value, quantity.value, valid)


def to_canonical(value: float, unit: Unit) -> float:
    """Express ``value`` (in ``unit``) in its quantity's canonical unit."""
    return _record_measure(unit).to_canonical(value)


def convert(value: float, from_unit: Unit, to_unit: Unit) -> float:
    """Convert ``value`` between two units of the same quantity.

    Raises:
        UnitError: the units measure different quantities (bar to C, say).
    """
    require_quantity(to_unit, _QUANTITY[from_unit])
    return _record_measure(to_unit).from_canonical(_record_measure(from_unit).to_canonical(value))
