"""The commercial policy a quote is checked against: discount, margin, tolerance, validity."""

from __future__ import annotations

from decimal import Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["CommercialPolicy"]

_MINUTES_PER_DAY = 24 * 60


class CommercialPolicy(BaseModel):
    """The supplier's commercial limits, read by the quote guards.

    Attributes:
        standard_discount_pct: discounts up to this need no justification.
        max_discount_pct: the business ceiling; no justification allows more.
        min_margin_pct: a line margin below this needs a justification.
        price_tolerance_pct: three-way match: the invoiced unit price may differ from the
            ordered one by at most this percentage.
        validity_minutes: default validity of a new quote, in simulated minutes.

    Example:
        >>> CommercialPolicy(standard_discount_pct=Decimal("8")).max_discount_pct
        Decimal('20')
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    standard_discount_pct: Decimal = Field(default=Decimal("5"), ge=0, le=100)
    max_discount_pct: Decimal = Field(default=Decimal("20"), ge=0, le=100)
    min_margin_pct: Decimal = Field(default=Decimal("15"), ge=-100, le=100)
    price_tolerance_pct: Decimal = Field(default=Decimal("2"), ge=0, le=100)
    validity_minutes: int = Field(default=30 * _MINUTES_PER_DAY, gt=0)

    @model_validator(mode="after")
    def _standard_within_ceiling(self) -> Self:
        if self.standard_discount_pct > self.max_discount_pct:
            raise ValueError(
                f"standard_discount_pct={self.standard_discount_pct!r} is above "
                f"max_discount_pct={self.max_discount_pct!r}; the standard discount must "
                "not exceed the ceiling"
            )
        return self
