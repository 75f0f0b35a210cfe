"""Search constraints over governed attributes, compared after unit normalisation.

A :class:`Constraint` says "attribute ``op`` value [unit]": ``pn min 290 psi`` matches a
variant whose ``pn`` is 20 bar or more, because both sides are converted to the
canonical unit of the quantity before the comparison. A constraint in a unit of the
wrong quantity (``pn min 120 C``) raises :class:`~remit.errors.UnitError` instead of
silently matching nothing.

Example:
    >>> Constraint(attribute="pn", op=ConstraintOp.MIN, value=290.0, unit=Unit.PSI).op
    <ConstraintOp.MIN: 'min'>
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, model_validator

from remit.catalogue.attributes import AttributeValue
from remit.catalogue.products import Variant
from remit.catalogue.units import Unit, quantity_of, require_quantity, to_canonical
from remit.errors import UnitError

__all__ = ["Constraint", "ConstraintOp"]
# as_number and satisfies are shared with remit.catalogue.index, which must agree with
# Constraint.matches to the last bit.

_REL_TOL = 1e-6
_ABS_TOL = 1e-9


class ConstraintOp(StrEnum):
    """Comparison of a constraint: equal, at least (min) or at most (max)."""

    EQ = "eq"
    MIN = "min"
    MAX = "max"


def as_number(value: AttributeValue) -> float | None:
    """``value`` as a number (a numeric string is read), or ``None``."""
    if not isinstance(value, str):
        return value
    try:
        return float(value)
    except ValueError:
        return None


def tolerance(wanted: float) -> float:
    """How far a ``min`` or ``max`` bound stretches (float noise, canonical units)."""
    return _REL_TOL * max(1.0, abs(wanted))


def satisfies(op: ConstraintOp, actual: float, wanted: float) -> bool:
    """Whether ``actual op wanted`` holds, both in one unit, float noise tolerated."""
    if op is ConstraintOp.MIN:
        return actual >= wanted - tolerance(wanted)
    if op is ConstraintOp.MAX:
        return actual <= wanted + tolerance(wanted)
    return math.isclose(actual, wanted, rel_tol=_REL_TOL, abs_tol=_ABS_TOL)


class Constraint(BaseModel):
    """One search condition on a governed attribute.

    Attributes:
        attribute: attribute name (``pn``, ``seat``...).
        op: ``eq``, ``min`` or ``max``; ``min``/``max`` need a number.
        value: the number or code to compare with.
        unit: unit of ``value``. ``None`` means the attribute's own recorded unit; a
            unit of another quantity than the attribute's raises ``UnitError``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    attribute: str
    op: ConstraintOp = ConstraintOp.EQ
    value: AttributeValue
    unit: Unit | None = None

    @model_validator(mode="after")
    def _numeric_where_needed(self) -> Self:
        if as_number(self.value) is None and (self.op is not ConstraintOp.EQ or self.unit):
            raise ValueError(
                f"constraint on {self.attribute!r} with op={self.op.value!r}, "
                f"unit={self.unit!r} needs a number, got value={self.value!r}; "
                "use op='eq' without a unit for codes"
            )
        return self

    def matches(self, variant: Variant) -> bool:
        """True when ``variant`` satisfies the constraint.

        A variant without the attribute does not match.

        Raises:
            UnitError: ``unit`` measures another quantity than the attribute, or the
                attribute is dimensionless and a unit was given.
        """
        attribute = variant.attributes.get(self.attribute)
        if attribute is None:
            return False
        recorded = attribute.value
        if isinstance(recorded, str):
            return self.op is ConstraintOp.EQ and str(self.value) == recorded
        wanted = as_number(self.value)
        if wanted is None:
            return False
        if attribute.unit is None:
            if self.unit is not None:
                raise UnitError(self.unit.value, f"{self.attribute} (dimensionless)", ("none",))
            actual = recorded
        else:
            actual = to_canonical(recorded, attribute.unit)
            given = self.unit or attribute.unit
            require_quantity(given, quantity_of(attribute.unit))
            wanted = to_canonical(wanted, given)
        return satisfies(self.op, actual, wanted)
