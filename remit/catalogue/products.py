"""Products: variants with governed attributes, their lifecycle and FFF classes.

A :class:`Variant` is one orderable SKU of a :class:`~remit.catalogue.families.Family`.
Its technical facts are :class:`~remit.catalogue.attributes.GovernedAttribute` records
keyed by attribute name and checked against the family schema. Its commercial facts
(stock, lead time, list price, unit cost) are plain fields: they are not fit facts.

Lifecycle: a variant is active, discontinued (no successor), or superseded by exactly
one successor (one-way chains, checked for cycles by the catalogue). A
:class:`FffClass` groups variants that are form-fit-function interchangeable, and names
the leading product of the group.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from remit.catalogue.attributes import AttributeValue, GovernedAttribute
from remit.catalogue.exceptions import UnknownAttributeError
from remit.catalogue.families import AttributeSpec, Family, attribute_specs
from remit.catalogue.money import Money
from remit.catalogue.units import Unit, convert, to_canonical

__all__ = ["FffClass", "Lifecycle", "LifecycleStatus", "Variant"]

_SPEC_INDEX: Mapping[Family, Mapping[str, AttributeSpec]] = MappingProxyType({
    family: MappingProxyType({spec.name: spec for spec in attribute_specs(family)})
    for family in Family
})


class LifecycleStatus(StrEnum):
    """Where a variant is in its life. Only active variants may be newly quoted."""

    ACTIVE = "active"
    DISCONTINUED = "discontinued"
    SUPERSEDED = "superseded"


class Lifecycle(BaseModel):
    """A variant's lifecycle status and, when superseded, its direct successor.

    Example:
        >>> Lifecycle(status=LifecycleStatus.SUPERSEDED, superseded_by="BV-00007").status
        <LifecycleStatus.SUPERSEDED: 'superseded'>
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: LifecycleStatus = LifecycleStatus.ACTIVE
    superseded_by: str | None = None

    @model_validator(mode="after")
    def _successor_iff_superseded(self) -> Self:
        superseded = self.status is LifecycleStatus.SUPERSEDED
        if superseded and not self.superseded_by:
            raise ValueError(
                "lifecycle status='superseded' needs superseded_by; name the successor SKU"
            )
        if not superseded and self.superseded_by is not None:
            raise ValueError(
                f"lifecycle status={self.status.value!r} cannot have "
                f"superseded_by={self.superseded_by!r}; use status='superseded'"
            )
        return self


class Variant(BaseModel):
    """One orderable SKU with its governed attributes and commercial facts.

    Attributes:
        sku: stock-keeping unit, unique in the catalogue (``BV-00012``).
        family: product family; fixes the attribute schema.
        name: human-readable product name.
        attributes: governed attributes keyed by attribute name.
        lifecycle: active, discontinued or superseded (with successor).
        fff_class: id of the form-fit-function class the variant belongs to, if any.
        stock: pieces on hand.
        lead_time_days: days to ship when ordered now.
        list_price: price per piece before discount.
        unit_cost: cost per piece (margin policy compares it with the net price).
        certificates: ids of the EN 10204 certificate documents offered.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str = Field(min_length=1)
    family: Family
    name: str
    attributes: dict[str, GovernedAttribute]
    lifecycle: Lifecycle = Lifecycle()
    fff_class: str | None = None
    stock: int = Field(ge=0)
    lead_time_days: int = Field(ge=0)
    list_price: Money
    unit_cost: Money
    certificates: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _fits_family_schema(self) -> Self:
        specs = _SPEC_INDEX[self.family]
        problems: list[str] = []
        for key, attribute in self.attributes.items():
            spec = specs.get(key)
            if spec is None:
                problems.append(f"attribute {key!r} is not a {self.family.value} attribute "
                                f"(known: {', '.join(specs)})")
            elif attribute.name != key:
                problems.append(f"attribute keyed {key!r} is named {attribute.name!r}")
            elif (problem := spec.problem(attribute)) is not None:
                problems.append(problem)
        problems.extend(f"attribute {name!r} is missing" for name, spec in specs.items()
                        if spec.required and name not in self.attributes)
        if self.list_price.currency != self.unit_cost.currency:
            problems.append(f"list_price currency={self.list_price.currency!r} differs from "
                            f"unit_cost currency={self.unit_cost.currency!r}")
        if self.list_price.amount < 0 or self.unit_cost.amount < 0:
            problems.append("list_price and unit_cost must not be negative")
        if problems:
            raise ValueError(f"variant sku={self.sku!r} ({self.family.value}): "
                             + "; ".join(problems))
        return self

    @property
    def is_active(self) -> bool:
        """True when the variant may be newly quoted (not discontinued or superseded)."""
        return self.lifecycle.status is LifecycleStatus.ACTIVE

    def attribute(self, name: str) -> GovernedAttribute:
        """The governed attribute ``name``.

        Raises:
            UnknownAttributeError: the variant carries no such attribute.
        """
        try:
            return self.attributes[name]
        except KeyError:
            raise UnknownAttributeError(
                f"sku={self.sku!r}", name, tuple(self.attributes)
            ) from None

    def value(self, name: str) -> AttributeValue:
        """The raw value of attribute ``name`` in its recorded unit."""
        return self.attribute(name).value

    def code(self, name: str) -> str:
        """The value of code attribute ``name`` (``seat``, ``end_connection``...)."""
        value = self.attribute(name).value
        return value if isinstance(value, str) else f"{value:g}"

    def number(self, name: str, unit: Unit | None = None) -> float:
        """The value of numeric attribute ``name``.

        Args:
            name: attribute name.
            unit: unit to express the value in; ``None`` means the canonical unit of its
                quantity (bar, C, Nm), or the bare number for a dimensionless attribute.

        Raises:
            UnknownAttributeError: no such attribute, or it is a code.
            UnitError: ``unit`` measures another quantity than the attribute.
        """
        attribute = self.attribute(name)
        value = attribute.value
        if isinstance(value, str):
            raise UnknownAttributeError(
                f"sku={self.sku!r}", name,
                tuple(k for k, a in self.attributes.items() if not isinstance(a.value, str)),
            )
        if attribute.unit is None:
            return value
        if unit is None:
            return to_canonical(value, attribute.unit)
        return convert(value, attribute.unit, unit)


class FffClass(BaseModel):
    """A form-fit-function class: variants that can replace each other.

    Attributes:
        id: class id (``FFF-003``).
        members: SKUs in the class, leading product included.
        leading_sku: the leading (reference) product of the class.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    members: tuple[str, ...]
    leading_sku: str

    @model_validator(mode="after")
    def _leader_is_member(self) -> Self:
        if len(self.members) < 2 or len(set(self.members)) != len(self.members):
            raise ValueError(f"FFF class id={self.id!r} needs two or more distinct members; "
                             f"got members={self.members!r}")
        if self.leading_sku not in self.members:
            raise ValueError(f"FFF class id={self.id!r}: leading_sku={self.leading_sku!r} "
                             "is not a member; add it to members")
        return self
