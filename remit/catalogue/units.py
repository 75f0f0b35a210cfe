"""Physical units and their normalisation.

Governed attributes and buyer facts carry a unit. Comparisons always normalise to a
canonical unit per quantity (bar for pressure, degrees Celsius for temperature), so a
value given in psi where bar was meant is *detectable*: it converts to a different
canonical value, and :func:`require_quantity` rejects a unit of the wrong quantity.

Example:
    >>> convert(16.0, Unit.BAR, Unit.PSI)
    232.06038...
"""

from __future__ import annotations

from enum import StrEnum

from remit.errors import UnitError

__all__ = [
    "CANONICAL",
    "Quantity",
    "Unit",
    "convert",
    "parse_unit",
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
    """Units remit understands. Values are the spelling used in records and messages."""

    BAR = "bar"
    PSI = "psi"
    MPA = "MPa"
    CELSIUS = "C"
    FAHRENHEIT = "F"
    NEWTON_METRE = "Nm"
    DAYS = "d"
    PIECES = "pcs"
    MILLIMETRE = "mm"


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

CANONICAL: dict[Quantity, Unit] = {
    Quantity.PRESSURE: Unit.BAR,
    Quantity.TEMPERATURE: Unit.CELSIUS,
    Quantity.TORQUE: Unit.NEWTON_METRE,
    Quantity.DURATION: Unit.DAYS,
    Quantity.COUNT: Unit.PIECES,
    Quantity.LENGTH: Unit.MILLIMETRE,
}
"""The unit every quantity is normalised to before comparison."""

_PSI_PER_BAR = 14.503773773
_BAR_PER_MPA = 10.0

# Spellings seen in free text, mapped to the unit they mean.
_ALIASES: dict[str, Unit] = {
    "bar": Unit.BAR,
    "barg": Unit.BAR,
    "psi": Unit.PSI,
    "psig": Unit.PSI,
    "mpa": Unit.MPA,
    "c": Unit.CELSIUS,
    "°c": Unit.CELSIUS,
    "degc": Unit.CELSIUS,
    "f": Unit.FAHRENHEIT,
    "°f": Unit.FAHRENHEIT,
    "degf": Unit.FAHRENHEIT,
    "nm": Unit.NEWTON_METRE,
    "n·m": Unit.NEWTON_METRE,
    "d": Unit.DAYS,
    "days": Unit.DAYS,
    "pcs": Unit.PIECES,
    "mm": Unit.MILLIMETRE,
}


def quantity_of(unit: Unit) -> Quantity:
    """Return the physical quantity ``unit`` measures."""
    return _QUANTITY[unit]


def parse_unit(text: str) -> Unit:
    """Parse a unit spelling (case-insensitive, common aliases accepted).

    Raises:
        UnitError: the spelling is not a known unit.
    """
    unit = _ALIASES.get(text.strip().lower())
    if unit is None:
        raise UnitError(text, "known", tuple(u.value for u in Unit))
    return unit


def require_quantity(unit: Unit, quantity: Quantity) -> None:
    """Raise :class:`UnitError` unless ``unit`` measures ``quantity``."""
    if _QUANTITY[unit] is not quantity:
        valid = tuple(u.value for u, q in _QUANTITY.items() if q is quantity)
        raise UnitError(unit.value, quantity.value, valid)


def _to_canonical(value: float, unit: Unit) -> float:
    if unit is Unit.PSI:
        return value / _PSI_PER_BAR
    if unit is Unit.MPA:
        return value * _BAR_PER_MPA
    if unit is Unit.FAHRENHEIT:
        return (value - 32.0) * 5.0 / 9.0
    return value


def _from_canonical(value: float, unit: Unit) -> float:
    if unit is Unit.PSI:
        return value * _PSI_PER_BAR
    if unit is Unit.MPA:
        return value / _BAR_PER_MPA
    if unit is Unit.FAHRENHEIT:
        return value * 9.0 / 5.0 + 32.0
    return value


def to_canonical(value: float, unit: Unit) -> float:
    """Express ``value`` (in ``unit``) in its quantity's canonical unit."""
    return _to_canonical(value, unit)


def convert(value: float, from_unit: Unit, to_unit: Unit) -> float:
    """Convert ``value`` between two units of the same quantity.

    Raises:
        UnitError: the units measure different quantities (bar to C, say).
    """
    require_quantity(to_unit, _QUANTITY[from_unit])
    return _from_canonical(_to_canonical(value, from_unit), to_unit)
