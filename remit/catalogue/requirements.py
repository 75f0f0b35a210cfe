"""What the buyer asked for, and the hidden truths the fit rules are judged against.

A :class:`Requirement` is the buyer's request as stated (DN, quantity, actuator or not,
perhaps a part number that has since been superseded). The truths are what the parties
know but the agent must ask for: the buyer's :class:`OperatingFacts` (pressure,
temperature, chlorides) and the technical owner's :class:`InstallationFacts` (piping
standard, existing actuator flange, certificate demanded by the site). Together they
are :class:`SiteTruths`; the acceptable variants of a scenario follow from them.

Units are checked when the facts are built: a pressure in degrees Celsius raises
:class:`~remit.errors.UnitError` (wrapped in pydantic's ``ValidationError`` when the
facts are loaded with ``model_validate``), and spellings such as ``"psig"`` or ``"°F"``
are accepted.

Example:
    >>> facts = OperatingFacts(design_pressure=290.0, pressure_unit="psi",
    ...     medium_temperature=80.0, temperature_unit="C", chlorides=False, medium="water")
    >>> round(facts.design_pressure_bar, 1)
    20.0
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from remit.catalogue.attributes import CertificateGrade
from remit.catalogue.families import EndConnection, Family, Iso5211Flange
from remit.catalogue.units import Quantity, Unit, parse_unit, require_quantity, to_canonical
from remit.errors import UnitError

__all__ = ["InstallationFacts", "OperatingFacts", "Requirement", "SiteTruths"]


class Requirement(BaseModel):
    """The buyer's request as stated.

    Attributes:
        family: the family asked for; ball valves unless the buyer wants a spare part.
        dn: nominal size asked for.
        quantity: pieces.
        with_actuator: the buyer wants the valve supplied with an actuator.
        requested_sku: the buyer's part number, which may be superseded or misspelt.
        certificate: EN 10204 grade the buyer asked for, if any.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    family: Family = Family.BALL_VALVE
    dn: int = Field(gt=0)
    quantity: int = Field(gt=0)
    with_actuator: bool = False
    requested_sku: str | None = None
    certificate: CertificateGrade | None = None


def _unit_of(value: object) -> object:
    return parse_unit(value) if isinstance(value, str) else value


class OperatingFacts(BaseModel):
    """The buyer's hidden truth about the service the valve will see.

    Attributes:
        design_pressure: design pressure, in ``pressure_unit`` (as the buyer gives it).
        pressure_unit: bar, psi or MPa.
        medium_temperature: maximum medium temperature, in ``temperature_unit``.
        temperature_unit: C or F.
        chlorides: whether the medium contains chlorides (sea water, brine...).
        medium: the medium, in the buyer's words.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    design_pressure: float = Field(gt=0)
    pressure_unit: Unit
    medium_temperature: float
    temperature_unit: Unit
    chlorides: bool
    medium: str

    def __init__(
        self,
        *,
        design_pressure: float,
        pressure_unit: Unit | str,
        medium_temperature: float,
        temperature_unit: Unit | str,
        chlorides: bool,
        medium: str,
    ) -> None:
        """Build the facts; a unit of the wrong quantity raises ``UnitError`` itself."""
        try:
            super().__init__(
                design_pressure=design_pressure, pressure_unit=pressure_unit,
                medium_temperature=medium_temperature, temperature_unit=temperature_unit,
                chlorides=chlorides, medium=medium,
            )
        except ValidationError as exc:
            for error in exc.errors():
                cause = error.get("ctx", {}).get("error")
                if isinstance(cause, UnitError):
                    raise cause from exc
            raise

    @field_validator("pressure_unit", mode="before")
    @classmethod
    def _pressure_unit(cls, value: object) -> object:
        unit = _unit_of(value)
        if isinstance(unit, Unit):
            require_quantity(unit, Quantity.PRESSURE)
        return unit

    @field_validator("temperature_unit", mode="before")
    @classmethod
    def _temperature_unit(cls, value: object) -> object:
        unit = _unit_of(value)
        if isinstance(unit, Unit):
            require_quantity(unit, Quantity.TEMPERATURE)
        return unit

    @property
    def design_pressure_bar(self) -> float:
        """Design pressure in bar."""
        return to_canonical(self.design_pressure, self.pressure_unit)

    @property
    def medium_temperature_c(self) -> float:
        """Medium temperature in degrees Celsius."""
        return to_canonical(self.medium_temperature, self.temperature_unit)


class InstallationFacts(BaseModel):
    """The technical owner's hidden truth about the installation.

    Attributes:
        piping_standard: end connection of the site piping (NPT, BSPP or EN1092-1).
        actuator_flange: ISO 5211 flange of the existing actuator the valve must mate
            with, when the buyer keeps an actuator; ``None`` when there is none.
        certificate_required: EN 10204 grade the site demands, if any.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    piping_standard: EndConnection
    actuator_flange: Iso5211Flange | None = None
    certificate_required: CertificateGrade | None = None


class SiteTruths(BaseModel):
    """The hidden truths of one scenario: the buyer's and the technical owner's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    operating: OperatingFacts
    installation: InstallationFacts
