"""Money: a Decimal amount with a currency. Never a float."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict

__all__ = ["Money"]

_CENT = Decimal("0.01")


class Money(BaseModel):
    """An amount of money in one currency.

    Arithmetic between different currencies raises ``ValueError``.

    Example:
        >>> Money.of("12.50", "EUR") * 3
        Money(amount=Decimal('37.50'), currency='EUR')
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: Decimal
    currency: str = "EUR"

    @classmethod
    def of(cls, amount: str | int | Decimal, currency: str = "EUR") -> Self:
        """Build from a string or integer amount (never a float)."""
        return cls(amount=Decimal(amount), currency=currency)

    def _same(self, other: Money) -> None:
        if other.currency != self.currency:
            raise ValueError(
                f"cannot combine currency={self.currency!r} with currency={other.currency!r}"
            )

    def __add__(self, other: Money) -> Money:
        self._same(other)
        return Money(amount=self.amount + other.amount, currency=self.currency)

    def __sub__(self, other: Money) -> Money:
        self._same(other)
        return Money(amount=self.amount - other.amount, currency=self.currency)

    def __mul__(self, factor: int | Decimal) -> Money:
        return Money(amount=(self.amount * factor).quantize(_CENT, ROUND_HALF_EVEN),
                     currency=self.currency)

    def rounded(self) -> Money:
        """Round to cents, banker's rounding."""
        return Money(amount=self.amount.quantize(_CENT, ROUND_HALF_EVEN), currency=self.currency)

    def __str__(self) -> str:
        return f"{self.amount:.2f} {self.currency}"
