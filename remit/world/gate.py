"""The one gate every write passes: validate -> decide -> record -> trigger.

Whoever writes (the agent, a persona, the system clock) comes through :func:`write`.
The authority decision is recorded on the trail whether it allows or denies, with the
deciding grant and forbid ids, the unmet conditions, the map's hash and the quote
version's hash; only an allowed write reaches the state machine, whose business guards
may still refuse it. Every refusal comes back as a :class:`ToolResult` error saying
what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from pydantic import BaseModel

from remit.authority import Action, CitedEvidence, Request, RequestContext, Resource, Role, decide
from remit.catalogue import (
    AttributeSnapshot,
    EvidenceDocument,
    EvidenceKind,
    Family,
    RuleResult,
    check_actuator,
    dn_match,
)
from remit.errors import GuardFailedError, InvalidTransitionError, QuoteEditError
from remit.quotes import (
    GoodsReceipt,
    Invoice,
    OrderLine,
    PurchaseOrder,
    Quote,
    QuoteLine,
    ReceiptLine,
    TransitionContext,
    TransitionRecord,
    edit_lines,
    fire,
)
from remit.trusted import trusted
from remit.world import untrusted
from remit.world.calls import ToolResult
from remit.world.conversation import record_handoff
from remit.world.handoffs import Handoff
from remit.world.tools import DocumentTriggerArgs, EditLinesArgs, TriggerArgs
from remit.world.trail import DecisionEntry, TransitionEntry

if TYPE_CHECKING:
    from remit.world.world import World

__all__ = ["line_facts", "write"]

_HUNDRED = Decimal(100)


class _Inputs(NamedTuple):
    """A write's resolved inputs: new lines (edit_lines) or cited evidence (triggers)."""

    lines: tuple[QuoteLine, ...]
    evidence: tuple[EvidenceDocument, ...]


def write(world: World, role: Role, action: Action, args: BaseModel) -> ToolResult:
    """Perform ``action`` for ``role`` through the gate; see the module docstring."""
    assert isinstance(args, TriggerArgs | EditLinesArgs)
    quote = world.quotes.get(args.quote_id)
    if quote is None:
        return world.fail(role, action.value, "not_found",
                          f"no quote id={untrusted.quote(args.quote_id)}; the quotes are: "
                          f"{', '.join(world.quotes)}")
    inputs = _inputs(world, role, action, args)
    if isinstance(inputs, ToolResult):
        return inputs
    answered = _answered_handoffs(world, role, action, quote.id)
    refused = _decide(world, role, action, quote, inputs=inputs,
                      handoff=answered[0] if answered else None)
    if refused is not None:
        return refused
    ctx = _context(world, role, action, quote, args=args, evidence=inputs.evidence)
    if isinstance(ctx, ToolResult):
        return ctx
    return _trigger(world, action, quote, args=args, inputs=inputs, ctx=ctx, answered=answered)


def _inputs(world: World, role: Role, action: Action,
            args: TriggerArgs | EditLinesArgs) -> _Inputs | ToolResult:
    if isinstance(args, EditLinesArgs):
        lines = _lines(world, role, args)
        return lines if isinstance(lines, ToolResult) else _Inputs(lines, ())
    evidence = _evidence(world, role, action.value, args.evidence)
    return evidence if isinstance(evidence, ToolResult) else _Inputs((), evidence)


def _decide(world: World, role: Role, action: Action, quote: Quote, *, inputs: _Inputs,
            handoff: Handoff | None) -> ToolResult | None:
    """Decide, record the decision, and return the refusal if it denies."""
    request = _request(world, role, action, quote, inputs)
    decision = decide(world.mode.map, request)
    world.record(trusted(DecisionEntry, {
        "step": world.step, "minute": world.minute, "kind": "decision",
        "actor_id": request.actor_id, "role": role, "action": action, "quote_id": quote.id,
        "version_hash": quote.current_hash, "allowed": decision.allowed,
        "grant_ids": decision.grant_ids, "forbid_ids": decision.forbid_ids,
        "unmet": tuple(u.sentence for u in decision.unmet), "reasons": decision.reasons,
        "map_hash": decision.map_hash, "handoff_id": None if handoff is None else handoff.id,
        "evidence": tuple(doc.id for doc in inputs.evidence),
    }))
    if decision.allowed:
        return None
    return world.fail(role, action.value, "denied", " ".join(decision.reasons))


def _trigger(world: World, action: Action, quote: Quote, *, args: BaseModel, inputs: _Inputs,
             ctx: TransitionContext, answered: list[Handoff]) -> ToolResult:
    """Fire the transition; record it and the hand-offs it completes."""
    role, tool = ctx.role, action.value
    try:
        if isinstance(args, EditLinesArgs):
            record = edit_lines(quote, inputs.lines, ctx)
        else:
            record = fire(quote, action, ctx)
    except InvalidTransitionError as exc:
        return world.fail(role, tool, "invalid_transition",
                          f"{exc}; read the quote with get_quote to see its state")
    except GuardFailedError as exc:
        return world.fail(role, tool, "guard_failed", str(exc))
    except QuoteEditError as exc:
        return world.fail(role, tool, "bad_arguments", str(exc))
    _record_transition(world, record)
    for handoff in answered:  # each one for this action on this quote
        handoff.status = "completed"
        record_handoff(world, handoff, "completed")
    _after(world, action, quote)
    return ToolResult.answer(tool, {"quote_id": quote.id, "state": quote.state,
                                     "version": quote.current.number,
                                     "version_hash": quote.current_hash})


def _lines(world: World, role: Role, args: EditLinesArgs) -> tuple[QuoteLine, ...] | ToolResult:
    lines = []
    for arg in args.lines:
        if arg.sku not in world.catalogue:
            return world.fail(role, "edit_lines", "not_found", world.unknown_sku(arg.sku))
        variant = world.catalogue.variant(arg.sku)
        unknown = [name for name in arg.cite if name not in variant.attributes]
        if unknown:
            return world.fail(
                role, "edit_lines", "bad_arguments",
                f"line sku={arg.sku!r} cites unknown attributes {untrusted.quote(unknown)}; "
                f"its governed attributes are: {', '.join(variant.attributes)}")
        lines.append(QuoteLine(
            sku=arg.sku, quantity=arg.quantity, unit_price=variant.list_price,
            discount_pct=arg.discount_pct, unit_cost=variant.unit_cost,
            cited=tuple(AttributeSnapshot.of(arg.sku, variant.attributes[name])
                        for name in arg.cite),
        ))
    return tuple(lines)


def _evidence(world: World, role: Role, tool: str,
              ids: list[str]) -> tuple[EvidenceDocument, ...] | ToolResult:
    documents = []
    for evidence_id in ids:
        document = world.catalogue.documents.get(evidence_id)
        if document is None:
            return world.fail(role, tool, "not_found",
                              f"no evidence document id={untrusted.quote(evidence_id)}; cite "
                              "ids from the product record's attributes")
        documents.append(document)
    return tuple(documents)


def _answered_handoffs(world: World, role: Role, action: Action, quote_id: str) -> list[Handoff]:
    """The hand-offs this write answers: every open or declined request to ``role`` for
    ``action`` on the quote, latest first (performing the action settles them all)."""
    return [
        handoff for handoff in reversed(world.handoffs.values())
        if handoff.owner is role and handoff.action is action and handoff.quote_id == quote_id
        and handoff.status in ("open", "declined")
    ]


def line_facts(lines: Sequence[QuoteLine]) -> dict[str, Decimal | None]:
    """The numbers an authority condition can test, from a quote's lines.

    ``discount_pct``: the largest line discount; ``margin_pct``: the smallest line
    margin; ``amount``: the net total; ``quantity``: the largest line quantity. Each is
    ``None`` for a quote without lines, so a condition on it fails closed. ``get_quote``
    shows the same numbers, so an agent can tell whether a bounded delegation covers it.
    """
    if not lines:
        return {"discount_pct": None, "margin_pct": None, "amount": None, "quantity": None}
    return {
        "discount_pct": max(ln.discount_pct for ln in lines),
        "margin_pct": min(ln.margin_pct for ln in lines),
        "amount": sum((ln.net_price.amount for ln in lines), Decimal(0)),
        "quantity": Decimal(max(ln.quantity for ln in lines)),
    }


def _request(world: World, role: Role, action: Action, quote: Quote,
             inputs: _Inputs) -> Request:
    facts = line_facts(inputs.lines) if inputs.lines else world.current_facts(quote)
    evidence = tuple(trusted(CitedEvidence, {"id": doc.id, "kind": doc.kind.value,
                                             "released": doc.status.value == "released"})
                     for doc in inputs.evidence)
    prior_actors = {record.action: record.actor_id for record in quote.history}
    if all(value is None or value.is_finite() for value in facts.values()):
        context = trusted(RequestContext, {
            "discount_pct": facts["discount_pct"], "margin_pct": facts["margin_pct"],
            "amount": facts["amount"], "quantity": facts["quantity"], "evidence": evidence,
            "prior_actors": prior_actors})
    else:  # a margin of -Infinity (sold for nothing at a cost): validation refuses it
        context = RequestContext(**facts, evidence=evidence, prior_actors=prior_actors)
    return trusted(Request, {
        "actor_id": world.actor_id(role), "role": role, "action": action,
        "resource": trusted(Resource, {"kind": "quote", "id": quote.id, "state": quote.state,
                                       "version_hash": quote.current_hash}),
        "context": context,
    })


def _context(world: World, role: Role, action: Action, quote: Quote, *, args: BaseModel,
             evidence: tuple[EvidenceDocument, ...]) -> TransitionContext | ToolResult:
    assert isinstance(args, TriggerArgs | EditLinesArgs)
    reason = justification = ""
    if isinstance(args, TriggerArgs):
        reason, justification = args.reason, args.justification
    purchase_order = receipt = invoice = None
    if isinstance(args, DocumentTriggerArgs):
        document = world.documents.get(args.document_id)
        wanted = PurchaseOrder if action is Action.RECEIVE_PO else GoodsReceipt
        if not isinstance(document, wanted):
            known = ", ".join(sorted(world.documents)) or "none yet"
            given = untrusted.quote(args.document_id)
            return world.fail(role, action.value, "not_found",
                              f"no {wanted.__name__} document_id={given}; "
                              f"the buyer's documents are: {known}")
        if isinstance(document, PurchaseOrder):
            purchase_order = document
        else:
            receipt = document
    if action is Action.INVOICE:
        invoice = _invoice(world, quote)
    fit_failures = _fit_failures(world, quote) if action is Action.CONFIRM_FIT else ()
    return trusted(TransitionContext, {
        "actor_id": world.actor_id(role), "role": role, "now_minute": world.minute,
        "reason": reason, "justification": justification, "evidence": evidence,
        "fit_failures": fit_failures, "purchase_order": purchase_order, "receipt": receipt,
        "invoice": invoice,
    })


def _fit_failures(world: World, quote: Quote) -> tuple[str, ...]:
    """Fit rules that records alone decide: DN as asked, and actuator pairings (C1, C2).

    Rules that need a party's hidden facts (C3-C7) are that party's to check before
    confirming; the gate cannot know what the agent was never told.
    """
    variants = [world.catalogue.variant(line.sku) for line in quote.current.lines]
    valves = [v for v in variants if v.family is Family.BALL_VALVE]
    actuators = [v for v in variants if v.family is Family.ACTUATOR]
    results: list[RuleResult] = [dn_match(v, world.setup.requirement) for v in valves]
    for valve in valves:
        for actuator in actuators:
            results += check_actuator(valve, actuator)
    return tuple(r.reason for r in results if not r.passed)


def _invoice(world: World, quote: Quote) -> Invoice | None:
    if quote.receipt is None:
        return None
    received = quote.receipt.quantities()
    factor = (_HUNDRED + world.setup.variance.invoice_price_delta_pct) / _HUNDRED
    return Invoice(invoice_number=f"INV-{quote.id}", lines=tuple(
        OrderLine(sku=line.sku, quantity=received.get(line.sku, line.quantity),
                  unit_price=line.net_unit_price * factor)
        for line in quote.current.lines
    ))


def _record_transition(world: World, record: TransitionRecord) -> None:
    world.record(trusted(TransitionEntry, {
        "step": world.step, "minute": world.minute, "kind": "transition",
        "quote_id": record.quote_id, "action": record.action,
        "from_state": record.from_state.value, "to_state": record.to_state.value,
        "version": record.version_number, "version_hash": record.version_hash,
        "actor_id": record.actor_id, "role": record.role,
    }))


def _after(world: World, action: Action, quote: Quote) -> None:
    """The buyer's side of the order: a PO after acceptance, goods after ordering."""
    variance = world.setup.variance
    if action is Action.ACCEPT:
        world.documents[f"PO-{quote.id}"] = PurchaseOrder(
            po_number=f"PO-{quote.id}",
            lines=tuple(OrderLine(sku=ln.sku,
                                  quantity=max(1, ln.quantity + variance.po_quantity_delta),
                                  unit_price=ln.net_unit_price)
                        for ln in quote.current.lines))
    elif action is Action.RECEIVE_PO and quote.purchase_order is not None:
        certificates: tuple[EvidenceDocument, ...] = ()
        if variance.certificates_delivered:
            certificates = tuple(
                doc for ln in quote.current.lines
                for doc_id in world.catalogue.variant(ln.sku).certificates
                if (doc := world.catalogue.documents[doc_id]).kind is EvidenceKind.CERTIFICATE)
        world.documents[f"GR-{quote.id}"] = GoodsReceipt(
            lines=tuple(ReceiptLine(sku=ln.sku,
                                    quantity=max(1, ln.quantity + variance.receipt_quantity_delta))
                        for ln in quote.purchase_order.lines),
            certificates=certificates)
