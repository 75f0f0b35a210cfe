"""Quote documents: lines, immutable versions and the content hash approvals bind to.

A :class:`QuoteVersion` is never edited: changing a quote appends a new version. Its
``content_hash`` is the SHA-256 of the canonical JSON of the commercially relevant
content (currency and lines, including cited attribute snapshots), never of the version
number or the minute, so identical content always hashes identically and an approval
given for one content cannot silently cover another.

Example:
    >>> line = QuoteLine(sku="BV-1", quantity=2, unit_price=Money.of("100"),
    ...                  discount_pct=Decimal("5"), unit_cost=Money.of("70"))
    >>> str(line.net_price), line.margin_pct
    ('190.00 EUR', Decimal('26.3157...'))
    >>> QuoteVersion.build(1, (line,), 0).content_hash == QuoteVersion.build(
    ...     2, (line,), 9).content_hash
    True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from remit.catalogue.attributes import AttributeSnapshot, AttributeStatus
from remit.catalogue.money import Money

__all__ = ["DEFAULT_CURRENCY", "QuoteLine", "QuoteVersion", "content_hash"]

DEFAULT_CURRENCY = "EUR"
"""Currency of a version that has no lines yet."""

_HUNDRED = Decimal(100)
_HASH_COMPUTED = "remit.quotes.hash_computed"


def _decimal_text(value: Decimal) -> str:
    """Canonical text of a decimal: ``5``, ``5.0`` and ``5.00`` all read ``5``."""
    return format((value + 0).normalize(), "f")


class QuoteLine(BaseModel):
    """One line of a quote: a SKU, a quantity, a price and the facts it cites.

    Attributes:
        sku: the quoted SKU.
        quantity: pieces, at least one.
        unit_price: list price per piece.
        discount_pct: discount on the list price, 0 to 100.
        unit_cost: the supplier's cost per piece (for the margin); same currency.
        cited: governed attribute snapshots the line relies on.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str = Field(min_length=1)
    quantity: int = Field(gt=0)
    unit_price: Money
    discount_pct: Decimal = Field(default=Decimal(0), ge=0, le=100)
    unit_cost: Money
    cited: tuple[AttributeSnapshot, ...] = ()

    @model_validator(mode="after")
    def _consistent_money(self) -> Self:
        if self.unit_cost.currency != self.unit_price.currency:
            raise ValueError(
                f"line sku={self.sku!r}: unit_cost currency={self.unit_cost.currency!r} differs "
                f"from unit_price currency={self.unit_price.currency!r}; use one currency"
            )
        if self.unit_price.amount < 0 or self.unit_cost.amount < 0:
            raise ValueError(
                f"line sku={self.sku!r}: unit_price={self.unit_price.amount!r} and "
                f"unit_cost={self.unit_cost.amount!r} must not be negative"
            )
        return self

    @property
    def currency(self) -> str:
        """The line's currency."""
        return self.unit_price.currency

    @property
    def net_unit_price(self) -> Money:
        """Unit price after discount, rounded to cents. A purchase order must match it."""
        return self.unit_price * ((_HUNDRED - self.discount_pct) / _HUNDRED)

    @property
    def net_price(self) -> Money:
        """Net unit price times quantity."""
        return self.net_unit_price * self.quantity

    @property
    def cost(self) -> Money:
        """Unit cost times quantity."""
        return self.unit_cost * self.quantity

    @property
    def margin(self) -> Money:
        """Net price minus cost."""
        return self.net_price - self.cost

    @property
    def margin_pct(self) -> Decimal:
        """Margin as a percentage of the net price (``-Infinity`` when sold for nothing
        at a cost, ``0`` when both are zero)."""
        net, cost = self.net_price.amount, self.cost.amount  # each worked out once
        if net == 0:
            return Decimal(0) if cost == 0 else Decimal("-Infinity")
        return (net - cost) / net * _HUNDRED

    def governed_citations(self) -> tuple[AttributeSnapshot, ...]:
        """Cited snapshots that are released facts of this line's own SKU."""
        return tuple(
            snap
            for snap in self.cited
            if snap.sku == self.sku and snap.status is AttributeStatus.RELEASED
        )


def _snapshot_content(snap: AttributeSnapshot) -> dict[str, str | None]:
    value = snap.value if isinstance(snap.value, str) else repr(float(snap.value))
    return {
        "sku": snap.sku,
        "name": snap.name,
        "value": value,
        "unit": None if snap.unit is None else str(snap.unit),
        "status": str(snap.status),
        "evidence_id": snap.evidence_id,
    }


def _line_content(line: QuoteLine) -> dict[str, object]:
    cited = sorted(
        (_snapshot_content(snap) for snap in line.cited),
        key=lambda snap: (snap["sku"] or "", snap["name"] or "", snap["evidence_id"] or ""),
    )
    return {
        "sku": line.sku,
        "quantity": line.quantity,
        "unit_price": _decimal_text(line.unit_price.amount),
        "discount_pct": _decimal_text(line.discount_pct),
        "unit_cost": _decimal_text(line.unit_cost.amount),
        "cited": cited,
    }


def content_hash(lines: Iterable[QuoteLine], currency: str) -> str:
    """SHA-256 (hex) of the canonical JSON of ``currency`` and ``lines``.

    Lines are ordered by SKU and decimals normalised, so reordering lines or writing
    ``5.0`` for ``5`` is not a change; any change of SKU, quantity, price, discount,
    cost or cited fact is.
    """
    content = {
        "currency": currency,
        "lines": sorted((_line_content(line) for line in lines), key=lambda c: str(c["sku"])),
    }
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


class QuoteVersion(BaseModel):
    """One immutable version of a quote's content.

    Build it with :meth:`build`, which computes the hash; a version whose
    ``content_hash`` does not match its content is rejected on construction.

    Attributes:
        number: 1 for the first version, +1 for each edit or revision.
        currency: currency of every line.
        lines: at most one line per SKU.
        content_hash: see :func:`content_hash`.
        created_minute: simulated minute the version was opened.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1)
    currency: str = Field(min_length=1)
    lines: tuple[QuoteLine, ...]
    content_hash: str
    created_minute: int = Field(ge=0)

    @classmethod
    def build(
        cls,
        number: int,
        lines: Sequence[QuoteLine],
        created_minute: int,
        *,
        currency: str | None = None,
    ) -> QuoteVersion:
        """Build a version and compute its content hash.

        Args:
            number: version number.
            lines: the lines; their currency is the version's currency.
            created_minute: simulated minute.
            currency: only needed for a version without lines (default EUR).
        """
        lines = tuple(lines)
        if currency is None:
            currency = lines[0].currency if lines else DEFAULT_CURRENCY
        data = {
            "number": number,
            "currency": currency,
            "lines": lines,
            "content_hash": content_hash(lines, currency),
            "created_minute": created_minute,
        }
        # the hash was computed just above: skip recomputing it in the validator
        return cls.model_validate(data, context={_HASH_COMPUTED: True})

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Self:
        seen: set[str] = set()
        for line in self.lines:
            if line.sku in seen:
                raise ValueError(
                    f"version {self.number}: sku={line.sku!r} appears on two lines; "
                    "merge them into one line"
                )
            seen.add(line.sku)
            if line.currency != self.currency:
                raise ValueError(
                    f"version {self.number}: line sku={line.sku!r} is in "
                    f"currency={line.currency!r}, the quote in currency={self.currency!r}; "
                    "quote every line in one currency"
                )
        if info.context is not None and info.context.get(_HASH_COMPUTED):
            return self
        if self.content_hash != content_hash(self.lines, self.currency):
            raise ValueError(
                f"version {self.number}: content_hash={self.content_hash!r} does not match "
                "its content; build versions with QuoteVersion.build"
            )
        return self

    @property
    def skus(self) -> tuple[str, ...]:
        """SKUs in line order."""
        return tuple(line.sku for line in self.lines)

    def line_for(self, sku: str) -> QuoteLine | None:
        """The line for ``sku``, or ``None``."""
        return next((line for line in self.lines if line.sku == sku), None)

    @property
    def total(self) -> Money:
        """Sum of the lines' net prices."""
        total = Money(amount=Decimal(0), currency=self.currency)
        for line in self.lines:
            total = total + line.net_price
        return total

    @property
    def short_hash(self) -> str:
        """First 12 hex digits of the content hash, for messages."""
        return self.content_hash[:12]
