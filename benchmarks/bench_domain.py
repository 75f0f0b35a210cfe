"""Cost of the two hot-path operations of the domain core.

Run: ``python benchmarks/bench_domain.py``. Prints microseconds per ``decide`` call on
the default (dual-control) map, allowed and denied, and per trigger through the shared
quote state machine, measured over full draft -> payment_released cycles.
"""

from __future__ import annotations

import timeit

from remit.authority import (
    Action,
    Request,
    RequestContext,
    Resource,
    Role,
    decide,
    default_map,
)
from remit.catalogue import AttributeSnapshot, AttributeStatus, Money
from remit.quotes import (
    GoodsReceipt,
    Invoice,
    OrderLine,
    PurchaseOrder,
    Quote,
    QuoteLine,
    ReceiptLine,
    TransitionContext,
    fire,
)

REPEAT = 5


def _best_us(func: object, number: int) -> float:
    return min(timeit.repeat(func, number=number, repeat=REPEAT)) / number * 1e6  # type: ignore[arg-type]


def _cycle() -> int:
    """Drive one quote from draft to payment_released; return the number of triggers."""
    snapshot = AttributeSnapshot(sku="BV-1", name="pn", value=16.0, unit=None,
                                 status=AttributeStatus.RELEASED, evidence_id="DS-BV-1-r1")
    line = QuoteLine(sku="BV-1", quantity=2, unit_price=Money.of("100"),
                     unit_cost=Money.of("60"), cited=(snapshot,))
    quote = Quote("Q-1", lines=[line])
    po = PurchaseOrder(po_number="PO-1", lines=(OrderLine(sku="BV-1", quantity=2,
                                                          unit_price=line.net_unit_price),))
    receipt = GoodsReceipt(lines=(ReceiptLine(sku="BV-1", quantity=2),))
    invoice = Invoice(invoice_number="INV-1", lines=po.lines)
    steps = [
        (Action.CONFIGURE, Role.AGENT, {}), (Action.PRICE, Role.AGENT, {}),
        (Action.SUBMIT, Role.AGENT, {}), (Action.APPROVE, Role.FINANCE, {}),
        (Action.PRESENT, Role.AGENT, {}), (Action.ACCEPT, Role.BUYER, {}),
        (Action.RECEIVE_PO, Role.BUYER, {"purchase_order": po}),
        (Action.RECORD_RECEIPT, Role.BUYER, {"receipt": receipt}),
        (Action.INVOICE, Role.AGENT, {"invoice": invoice}),
        (Action.RELEASE_PAYMENT, Role.FINANCE, {}),
    ]
    for action, role, documents in steps:
        fire(quote, action, TransitionContext(actor_id=f"{role.value}-1", role=role,
                                              now_minute=1, **documents))
    assert quote.state == "payment_released"
    return len(steps)


def main() -> None:
    """Print the figures."""
    policy = default_map()
    resource = Resource(kind="quote", id="Q-1", state="approval_pending", version_hash="h")
    allowed = Request(actor_id="finance-1", role=Role.FINANCE, action=Action.APPROVE,
                      resource=resource,
                      context=RequestContext(prior_actors={Action.SUBMIT: "agent-1"}))
    denied = allowed.model_copy(update={"role": Role.AGENT, "actor_id": "agent-1"})
    assert decide(policy, allowed).allowed
    assert not decide(policy, denied).allowed
    print(f"decide, allowed:        {_best_us(lambda: decide(policy, allowed), 20000):7.2f} us")
    print(f"decide, denied:         {_best_us(lambda: decide(policy, denied), 20000):7.2f} us")
    triggers = _cycle()
    per_cycle = _best_us(_cycle, 200)
    print(f"quote cycle ({triggers} triggers, incl. building the quote): {per_cycle:7.1f} us")
    print(f"per trigger:            {per_cycle / triggers:7.2f} us")


if __name__ == "__main__":
    main()
