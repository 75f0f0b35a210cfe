"""Money: a Decimal amount with a currency. Never a float."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict

from remit.trusted import trusted

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

    def _with(self, amount: Decimal) -> Money:
        """The result of arithmetic on this amount: a finite Decimal in this (validated)
        currency is what validation would keep, so it is not validated again."""
        if type(amount) is Decimal and amount.is_finite():
            return trusted(Money, {"amount": amount, "currency": self.currency})
        return Money(amount=amount, currency=self.currency)  # refused as it always was

    def __add__(self, other: Money) -> Money:
        self._same(other)
        return self._with(self.amount + other.amount)

    def __sub__(self, other: Money) -> Money:
        self._same(other)
        return self._with(self.amount - other.amount)

    def __mul__(self, factor: int | Decimal) -> Money:
        return self._with((self.amount * factor).quantize(_CENT, ROUND_HALF_EVEN))

    def rounded(self) -> Money:
        """Round to cents, banker's rounding."""
        return self._with(self.amount.quantize(_CENT, ROUND_HALF_EVEN))

    def __str__(self) -> str:
        return f"{self.amount:.2f} {self.currency}"
