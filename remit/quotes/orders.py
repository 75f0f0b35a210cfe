"""Order documents that follow an accepted quote: purchase order, goods receipt, invoice.

They are parsed from what buyers and suppliers send, so they forbid extra fields and
hold at most one line per SKU; the three-way match compares them SKU by SKU.

Example:
    >>> po = PurchaseOrder(po_number="PO-1", lines=(
    ...     OrderLine(sku="BV-1", quantity=2, unit_price=Money.of("95.00")),))
    >>> po.quantities()
    {'BV-1': 2}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from remit.catalogue.attributes import EvidenceDocument
from remit.catalogue.money import Money

__all__ = ["GoodsReceipt", "Invoice", "OrderLine", "PurchaseOrder", "ReceiptLine"]


def _refuse_duplicate_skus(document: str, skus: Sequence[str]) -> None:
    seen: set[str] = set()
    for sku in skus:
        if sku in seen:
            raise ValueError(
                f"{document}: sku={sku!r} appears on two lines; merge them into one line"
            )
        seen.add(sku)


class OrderLine(BaseModel):
    """A priced line of a purchase order or an invoice.

    Attributes:
        sku: the ordered SKU.
        quantity: pieces, at least one.
        unit_price: net price per piece.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str = Field(min_length=1)
    quantity: int = Field(gt=0)
    unit_price: Money


class ReceiptLine(BaseModel):
    """A received quantity of one SKU."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str = Field(min_length=1)
    quantity: int = Field(gt=0)


class PurchaseOrder(BaseModel):
    """The buyer's purchase order. It must repeat the accepted quote exactly.

    Attributes:
        po_number: the buyer's order number.
        lines: one line per SKU.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    po_number: str = Field(min_length=1)
    lines: tuple[OrderLine, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_line_per_sku(self) -> Self:
        _refuse_duplicate_skus(f"purchase order {self.po_number}", [ln.sku for ln in self.lines])
        return self

    def quantities(self) -> dict[str, int]:
        """Ordered quantity per SKU."""
        return {line.sku: line.quantity for line in self.lines}

    def prices(self) -> dict[str, Money]:
        """Ordered unit price per SKU."""
        return {line.sku: line.unit_price for line in self.lines}


class GoodsReceipt(BaseModel):
    """What arrived, and the certificates that came with it.

    Attributes:
        lines: received quantity per SKU.
        certificates: EN 10204 certificates delivered with the goods.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    lines: tuple[ReceiptLine, ...] = Field(min_length=1)
    certificates: tuple[EvidenceDocument, ...] = ()

    @model_validator(mode="after")
    def _one_line_per_sku(self) -> Self:
        _refuse_duplicate_skus("goods receipt", [ln.sku for ln in self.lines])
        return self

    def quantities(self) -> dict[str, int]:
        """Received quantity per SKU."""
        return {line.sku: line.quantity for line in self.lines}


class Invoice(BaseModel):
    """The supplier's invoice.

    Attributes:
        invoice_number: the invoice's number.
        lines: invoiced quantity and unit price per SKU.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    invoice_number: str = Field(min_length=1)
    lines: tuple[OrderLine, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_line_per_sku(self) -> Self:
        _refuse_duplicate_skus(f"invoice {self.invoice_number}", [ln.sku for ln in self.lines])
        return self

    def quantities(self) -> dict[str, int]:
        """Invoiced quantity per SKU."""
        return {line.sku: line.quantity for line in self.lines}

    def prices(self) -> dict[str, Money]:
        """Invoiced unit price per SKU."""
        return {line.sku: line.unit_price for line in self.lines}
