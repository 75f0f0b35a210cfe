"""Quote lines, versions and their content hash; order documents; commercial policy."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from remit.catalogue.money import Money
from remit.quotes import (
    CommercialPolicy,
    GoodsReceipt,
    Invoice,
    OrderLine,
    PurchaseOrder,
    QuoteLine,
    QuoteVersion,
    ReceiptLine,
    content_hash,
)
from tests.quotes.strategies import line, line_sets, quote_lines, snapshot

DETERMINISTIC = settings(derandomize=True, database=None, max_examples=60)


def test_line_prices_and_margin() -> None:
    bv = line("BV-1", quantity=3, price="100.00", discount="7.5", cost="60.00")

    assert bv.net_unit_price == Money.of("92.50")
    assert bv.net_price == Money.of("277.50")
    assert bv.cost == Money.of("180.00")
    assert bv.margin == Money.of("97.50")
    assert bv.margin_pct.quantize(Decimal("0.01")) == Decimal("35.14")


def test_margin_pct_of_a_free_line() -> None:
    assert line(price="0", cost="0").margin_pct == 0
    assert line(price="10", discount="100", cost="1").margin_pct == Decimal("-Infinity")


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"quantity": 0}, "greater than 0"),
        ({"discount_pct": Decimal("100.5")}, "less than or equal to 100"),
        ({"discount_pct": Decimal("-1")}, "greater than or equal to 0"),
        ({"unit_cost": Money.of("1", "USD")}, "unit_cost currency='USD' differs"),
        ({"unit_price": Money.of("-1")}, "must not be negative"),
        ({"colour": "red"}, "Extra inputs are not permitted"),
    ],
)
def test_line_validation(fields: dict[str, object], match: str) -> None:
    base: dict[str, object] = {
        "sku": "BV-1",
        "quantity": 1,
        "unit_price": Money.of("10"),
        "unit_cost": Money.of("5"),
    }
    with pytest.raises(ValidationError, match=match):
        QuoteLine.model_validate({**base, **fields})


def test_same_content_same_hash_and_the_number_is_not_hashed() -> None:
    lines = (line("BV-1"), line("ACT-7", price="250.00"))

    first = QuoteVersion.build(1, lines, 0)
    later = QuoteVersion.build(7, tuple(reversed(lines)), 500)

    assert first.content_hash == later.content_hash
    assert len(first.content_hash) == 64
    assert first != later


def test_decimal_spelling_is_not_a_change() -> None:
    assert content_hash([line(price="100"), line("ACT-7", discount="5")], "EUR") == content_hash(
        [line(price="100.00"), line("ACT-7", discount="5.0")], "EUR"
    )


@pytest.mark.parametrize(
    "changed",
    [
        line(sku="BV-2"),
        line(quantity=3),
        line(price="100.01"),
        line(discount="0.5"),
        line(cost="70.01"),
        line(cited=()),
        line(cited=(snapshot("BV-1", name="pn"),)),
        line(cited=(snapshot("BV-1"), snapshot("BV-1", name="seat"))),
        line(currency="USD"),
    ],
    ids=["sku", "quantity", "price", "discount", "cost", "no-cite", "other-fact", "more-facts",
         "currency"],
)
def test_any_line_change_changes_the_hash(changed: QuoteLine) -> None:
    base = QuoteVersion.build(1, (line(),), 0)

    assert QuoteVersion.build(1, (changed,), 0).content_hash != base.content_hash


@DETERMINISTIC
@given(lines=line_sets(), number=st.integers(1, 99), minute=st.integers(0, 10_000))
def test_hash_ignores_number_and_minute(
    lines: tuple[QuoteLine, ...], number: int, minute: int
) -> None:
    assert (
        QuoteVersion.build(number, lines, minute).content_hash
        == QuoteVersion.build(1, lines, 0).content_hash
    )


@DETERMINISTIC
@given(original=quote_lines("BV-1"), other=quote_lines("BV-1"))
def test_hash_changes_exactly_when_content_changes(original: QuoteLine, other: QuoteLine) -> None:
    same_content = original.model_dump() == other.model_dump()

    same_hash = (
        QuoteVersion.build(1, (original,), 0).content_hash
        == QuoteVersion.build(1, (other,), 0).content_hash
    )

    assert same_hash == same_content


def test_a_version_never_carries_a_wrong_hash() -> None:
    good = QuoteVersion.build(1, (line(),), 0)

    assert QuoteVersion.model_validate(good.model_dump()) == good
    with pytest.raises(ValidationError, match=r"content_hash='0+' does not match its content"):
        QuoteVersion.model_validate({**good.model_dump(), "content_hash": "0" * 64})


def test_version_refuses_duplicate_skus_and_mixed_currencies() -> None:
    with pytest.raises(ValidationError, match="sku='BV-1' appears on two lines"):
        QuoteVersion.build(1, (line(), line(quantity=5)), 0)
    with pytest.raises(ValidationError, match="currency='USD', the quote in currency='EUR'"):
        QuoteVersion.build(1, (line(), line("ACT-7", currency="USD")), 0)


def test_empty_version_uses_the_default_currency() -> None:
    empty = QuoteVersion.build(1, (), 0)
    assert (empty.currency, empty.total) == ("EUR", Money.of("0"))
    assert QuoteVersion.build(1, (), 0, currency="USD").content_hash != empty.content_hash


def test_version_lookup_helpers() -> None:
    version = QuoteVersion.build(2, (line("BV-1"), line("ACT-7")), 5)

    assert version.skus == ("BV-1", "ACT-7")
    assert version.line_for("ACT-7") == line("ACT-7")
    assert version.line_for("NOPE") is None
    assert version.short_hash == version.content_hash[:12]


def test_order_documents_refuse_duplicate_skus_and_extra_fields() -> None:
    price = Money.of("95")
    with pytest.raises(ValidationError, match="purchase order PO-1: sku='BV-1' appears on two"):
        PurchaseOrder(
            po_number="PO-1",
            lines=(OrderLine(sku="BV-1", quantity=1, unit_price=price),) * 2,
        )
    with pytest.raises(ValidationError, match="goods receipt: sku='BV-1' appears on two"):
        GoodsReceipt(lines=(ReceiptLine(sku="BV-1", quantity=1),) * 2)
    with pytest.raises(ValidationError, match="invoice INV-1: sku='BV-1' appears on two"):
        Invoice(
            invoice_number="INV-1",
            lines=(OrderLine(sku="BV-1", quantity=1, unit_price=price),) * 2,
        )
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        PurchaseOrder.model_validate({"po_number": "PO-1", "lines": [], "note": "x"})
    with pytest.raises(ValidationError, match="at least 1 item"):
        Invoice(invoice_number="INV-1", lines=())


def test_commercial_policy_defaults_and_validation() -> None:
    policy = CommercialPolicy()

    assert (
        policy.standard_discount_pct,
        policy.max_discount_pct,
        policy.min_margin_pct,
        policy.price_tolerance_pct,
    ) == (Decimal(5), Decimal(20), Decimal(15), Decimal(2))
    assert policy.validity_minutes > 0
    with pytest.raises(ValidationError, match=r"standard_discount_pct=Decimal\('25'\) is above"):
        CommercialPolicy(standard_discount_pct=Decimal("25"))
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        CommercialPolicy.model_validate({"max_discount": 10})
