"""Product families and the governed attributes each one carries.

Three families: ball valves, (quarter-turn) actuators and flange gasket kits. Each
family has a fixed attribute schema: numeric attributes carry a unit of a given
quantity (``pn`` in a pressure unit, ``breakaway_torque`` in a torque unit), code
attributes take one of a closed set of codes (``seat`` is ``PTFE`` or ``PEEK``). A
:class:`~remit.catalogue.products.Variant` is checked against its family's schema when
it is built, so a typo in an attribute name or a torque given in bar is caught at once.

Example:
    >>> [spec.name for spec in attribute_specs(Family.GASKET_KIT)]
    ['dn', 'pn', 'facing', 'material']
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from remit.catalogue.attributes import CertificateGrade, GovernedAttribute
from remit.catalogue.units import Quantity, Unit, quantity_of

__all__ = [
    "CHLORIDE_SAFE_GASKETS",
    "SEAT_MAX_TEMP_C",
    "STANDARD_PN",
    "ActuatorType",
    "AttributeSpec",
    "BodyMaterial",
    "EndConnection",
    "Facing",
    "Family",
    "GasketMaterial",
    "Iso5211Flange",
    "Seat",
    "Supply",
    "attribute_specs",
]


class Family(StrEnum):
    """Product families of the valve distributor."""

    BALL_VALVE = "ball_valve"
    ACTUATOR = "actuator"
    GASKET_KIT = "gasket_kit"


class BodyMaterial(StrEnum):
    """Ball valve body material: 316 stainless or WCB cast carbon steel."""

    SS316 = "316"
    WCB = "WCB"


class EndConnection(StrEnum):
    """End connection of a valve, and piping standard of a site. NPT != BSPP."""

    NPT = "NPT"
    BSPP = "BSPP"
    FLANGED = "EN1092-1"


class Seat(StrEnum):
    """Ball valve seat material; it bounds the medium temperature."""

    PTFE = "PTFE"
    PEEK = "PEEK"


class Iso5211Flange(StrEnum):
    """ISO 5211 top flange (valve) or mounting flange (actuator)."""

    F05 = "F05"
    F07 = "F07"
    F10 = "F10"
    F12 = "F12"


class ActuatorType(StrEnum):
    """Actuator kinds: pneumatic spring-return, pneumatic double-acting, electric."""

    PNEUMATIC_SR = "pneumatic_sr"
    PNEUMATIC_DA = "pneumatic_da"
    ELECTRIC = "electric"


class Supply(StrEnum):
    """Actuator supply: instrument air or an electric supply."""

    AIR_6_BAR = "6 bar air"
    DC_24 = "24 VDC"
    AC_230 = "230 VAC"


class Facing(StrEnum):
    """Gasket facing: raised face or flat face."""

    RF = "RF"
    FF = "FF"


class GasketMaterial(StrEnum):
    """Gasket material."""

    PTFE = "PTFE"
    GRAPHITE_316 = "graphite_316"
    EPDM = "EPDM"


SEAT_MAX_TEMP_C: Mapping[str, float] = MappingProxyType(
    {Seat.PTFE.value: 180.0, Seat.PEEK.value: 250.0}
)
"""Catalogue seat temperature limit in degrees Celsius, by seat code."""

STANDARD_PN: tuple[int, ...] = (6, 10, 16, 25, 40, 63, 100)
"""EN 1333 nominal pressure ratings (bar), used to suggest the next PN up."""

CHLORIDE_SAFE_GASKETS: frozenset[str] = frozenset(
    {GasketMaterial.PTFE.value, GasketMaterial.EPDM.value}
)
"""Gasket materials safe in chloride service (graphite pits stainless flange faces)."""


class AttributeSpec(BaseModel):
    """Schema of one governed attribute of a family.

    Attributes:
        name: attribute name.
        quantity: the quantity a numeric attribute's unit must measure; ``None`` for a
            dimensionless number (``dn``) or a code.
        codes: the closed set of codes of a code attribute; empty for numbers.
        required: whether every variant of the family must carry it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    quantity: Quantity | None = None
    codes: tuple[str, ...] = ()
    required: bool = True

    @property
    def numeric(self) -> bool:
        """True for numeric attributes (with or without a unit)."""
        return not self.codes

    def problem(self, attribute: GovernedAttribute) -> str | None:
        """Describe why ``attribute`` does not fit this spec, or return ``None``."""
        if self.codes:
            return self._code_problem(attribute)
        value, unit = attribute.value, attribute.unit
        if isinstance(value, str):
            return f"attribute {self.name!r} has value={value!r}; it must be a number"
        if self.quantity is None:
            return self._count_problem(value, unit)
        if unit is None or quantity_of(unit) is not self.quantity:
            shown = None if unit is None else unit.value
            return (f"attribute {self.name!r} has unit={shown!r}; "
                    f"give it in a {self.quantity.value} unit")
        return None

    def _count_problem(self, value: float, unit: Unit | None) -> str | None:
        if unit is not None:
            return f"attribute {self.name!r} has unit={unit.value!r}; it has no unit"
        if value <= 0 or value != int(value):
            return f"attribute {self.name!r} has value={value!r}; use a whole number > 0"
        return None

    def _code_problem(self, attribute: GovernedAttribute) -> str | None:
        value, unit = attribute.value, attribute.unit
        if not isinstance(value, str) or value not in self.codes:
            return (f"attribute {self.name!r} has value={value!r}; "
                    f"use one of {', '.join(self.codes)}")
        if unit is not None:
            return f"code attribute {self.name!r} has unit={unit.value!r}; give no unit"
        return None


def _codes(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


_CERTIFICATES = _codes(CertificateGrade)

_SPECS: Mapping[Family, tuple[AttributeSpec, ...]] = MappingProxyType({
    Family.BALL_VALVE: (
        AttributeSpec(name="dn"),
        AttributeSpec(name="pn", quantity=Quantity.PRESSURE),
        AttributeSpec(name="body_material", codes=_codes(BodyMaterial)),
        AttributeSpec(name="end_connection", codes=_codes(EndConnection)),
        AttributeSpec(name="seat", codes=_codes(Seat)),
        AttributeSpec(name="seat_max_temp", quantity=Quantity.TEMPERATURE),
        AttributeSpec(name="iso5211_flange", codes=_codes(Iso5211Flange)),
        AttributeSpec(name="breakaway_torque", quantity=Quantity.TORQUE),
        AttributeSpec(name="certificate", codes=_CERTIFICATES),
        AttributeSpec(name="face_to_face", quantity=Quantity.LENGTH, required=False),
    ),
    Family.ACTUATOR: (
        AttributeSpec(name="actuator_type", codes=_codes(ActuatorType)),
        AttributeSpec(name="output_torque", quantity=Quantity.TORQUE),
        AttributeSpec(name="iso5211_flange", codes=_codes(Iso5211Flange)),
        AttributeSpec(name="supply", codes=_codes(Supply)),
    ),
    Family.GASKET_KIT: (
        AttributeSpec(name="dn"),
        AttributeSpec(name="pn", quantity=Quantity.PRESSURE),
        AttributeSpec(name="facing", codes=_codes(Facing)),
        AttributeSpec(name="material", codes=_codes(GasketMaterial)),
    ),
})


def attribute_specs(family: Family) -> tuple[AttributeSpec, ...]:
    """The attribute schema of ``family``, in display order."""
    return _SPECS[family]
