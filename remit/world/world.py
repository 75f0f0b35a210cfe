"""One trial's world: its state, its trail, and the single entry point for every tool call.

Every party, agent or persona, acts through :meth:`World.call`. Read tools answer from
the state (respecting who may see what in the mode); write tools pass the one gate in
:mod:`remit.world.gate`; communication tools are handled by
:mod:`remit.world.conversation`. Nothing raises out of :meth:`World.call`: a bad call
comes back as a :class:`ToolResult` error and is recorded on the trail.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, JsonValue, ValidationError

from remit.authority import Role
from remit.catalogue import Constraint, ConstraintOp, Unit, Variant, parse_unit
from remit.errors import RemitError
from remit.quotes import GoodsReceipt, PurchaseOrder, Quote, QuoteVersion
from remit.trusted import trusted
from remit.world import conversation, gate, untrusted
from remit.world.calls import ToolCall, ToolResult
from remit.world.handoffs import Handoff
from remit.world.setup import ACTOR_IDS, WorldSetup
from remit.world.tools import (
    GetEvidenceArgs,
    GetProductArgs,
    GetSiteFactsArgs,
    QuoteRefArgs,
    SearchCatalogueArgs,
    ToolGroup,
    tool_spec,
    tool_specs,
)
from remit.world.trail import (
    EndEntry,
    EndReason,
    ErrorCode,
    ErrorEntry,
    MessageEntry,
    ToolCallEntry,
    TrailEntry,
)

__all__ = ["World"]

_LOG = logging.getLogger(__name__)

_SHOWN_ERRORS = 5
"""How many of a call's validation errors its error message describes."""
_LOCATION_CHARS = untrusted.QUOTE_CHARS
_DETAIL_CHARS = 300


class World:
    """The state of one trial and the gate every write passes.

    Args:
        setup: catalogue, mode, facts and terms of the trial.

    Attributes:
        quotes: quotes by id (a trial has one, ``setup.terms.quote_id``).
        documents: the buyer's documents not yet recorded on a quote (POs, receipts).
        handoffs: hand-offs by id, in order of opening.
        inboxes: messages delivered to each role, in order.
        minute: the simulated clock.
        step: the number of tool calls made so far.
        trail: every entry, in order.
        ended: how the trial ended, once it has.
    """

    def __init__(self, setup: WorldSetup) -> None:
        self.setup = setup
        self.catalogue = setup.catalogue
        self.mode = setup.mode
        terms = setup.terms
        self.quotes: dict[str, Quote] = {
            terms.quote_id: Quote(
                terms.quote_id,
                policy=terms.policy,
                valid_until_minute=terms.validity_minutes,
                fit_required=terms.fit_required,
                certificate_required=setup.certificate_required,
            )
        }
        self.documents: dict[str, PurchaseOrder | GoodsReceipt] = {}
        self.handoffs: dict[str, Handoff] = {}
        self.inboxes: dict[Role, list[MessageEntry]] = {role: [] for role in Role}
        self.minute = 0
        self.step = 0
        self.trail: list[TrailEntry] = []
        self.ended: EndEntry | None = None
        self._long: tuple[str, ...] = ()
        self._facts: dict[str, tuple[QuoteVersion, dict[str, Decimal | None]]] = {}

    # -- recording ---------------------------------------------------------------------

    @property
    def quote(self) -> Quote:
        """The trial's quote."""
        return self.quotes[self.setup.terms.quote_id]

    def record(self, entry: TrailEntry) -> None:
        """Append ``entry`` to the trail (and deliver it, if it is a message)."""
        self.trail.append(entry)
        if isinstance(entry, MessageEntry):
            self.inboxes[entry.to].append(entry)

    def fail(self, role: Role, tool: str, code: ErrorCode, message: str) -> ToolResult:
        """Record an error entry and return it as the call's result (any long string of
        the call's arguments still in ``message`` cut to a short quote)."""
        message = untrusted.cut_long_values(message, self._long)
        if type(tool) is str and type(message) is str:
            self.record(trusted(ErrorEntry, {
                "step": self.step, "minute": self.minute, "kind": "error", "actor": role,
                "tool": tool, "code": code, "message": message}))
        else:  # a name of the agent's that is no plain str: validation makes it one
            self.record(ErrorEntry(step=self.step, minute=self.minute, actor=role, tool=tool,
                                   code=code, message=message))
        return ToolResult.failure(tool, code, message)

    def current_facts(self, quote: Quote) -> dict[str, Decimal | None]:
        """:func:`~remit.world.gate.line_facts` of ``quote``'s current version: worked out
        once per version (versions never change), for every write and ``get_quote``."""
        version = quote.current
        kept = self._facts.get(quote.id)
        if kept is None or kept[0] is not version:
            kept = (version, gate.line_facts(version.lines))
            self._facts[quote.id] = kept
        return dict(kept[1])

    def advance(self, minutes: int) -> None:
        """Move the simulated clock forward."""
        if minutes < 0:
            raise ValueError(f"the clock cannot go back: minutes={minutes!r}")
        self.minute += minutes

    def end(self, reason: EndReason, summary: str = "") -> EndEntry:
        """End the trial (once); later calls return the first ending."""
        if self.ended is None:
            self.ended = EndEntry(step=self.step, minute=self.minute, reason=reason,
                                  summary=untrusted.clean_text(summary))
            self.trail.append(self.ended)
        return self.ended

    # -- the entry point ----------------------------------------------------------------

    def call(self, role: Role, call: ToolCall) -> ToolResult:  # noqa: PLR0911 - one exit per refusal kind
        """Perform one tool call for ``role``; never raises.

        The call passes :mod:`remit.world.untrusted` first: its tool name and arguments
        are recorded cleaned (lone surrogates replaced by U+FFFD); arguments that break
        a limit (depth, size, string length, item count) are recorded as a short note
        and answered with ``bad_arguments``; every error quotes at most a short prefix
        of what was sent. An exception from remit's own code on the way (a defect) is
        logged with its traceback and answered with ``bad_arguments`` too.
        """
        self.step += 1
        tool = untrusted.tool_name(call.tool)
        arguments, problem, long, plain = untrusted.read_arguments(call.arguments)
        self._long = (tool, *long)
        if plain and type(tool) is str:  # plain JSON, copied just now: as validation makes it
            self.record(trusted(ToolCallEntry, {
                "step": self.step, "minute": self.minute, "kind": "tool_call", "actor": role,
                "tool": tool, "arguments": arguments}))
        else:
            recorded = (arguments if problem is None
                        else untrusted.unrecorded_arguments(call.arguments, problem))
            self.record(ToolCallEntry(step=self.step, minute=self.minute, actor=role,
                                      tool=tool, arguments=recorded))
        if self.ended is not None:
            return self.fail(role, tool, "bad_arguments",
                             "the conversation has ended; no further tool calls are taken")
        spec = tool_spec(tool)
        if spec is None:
            names = ", ".join(s.name for s in tool_specs())
            return self.fail(role, tool, "unknown_tool",
                             f"unknown tool={untrusted.quote(call.tool)}; available tools: {names}")
        if problem is not None:
            return self.fail(role, tool, "bad_arguments",
                             f"bad arguments for {tool}: {problem}; fix them and call again")
        try:
            args = spec.args_model.model_validate(arguments)
        except ValidationError as exc:
            return self.fail(role, tool, "bad_arguments",
                             f"bad arguments for {tool}: {_describe(exc, self._long)}; "
                             "fix them and call again")
        try:
            if spec.group is ToolGroup.READ:
                return self._read(role, tool, args)
            if spec.group is ToolGroup.WRITE:
                assert spec.action is not None
                return gate.write(self, role, spec.action, args)
            return conversation.communicate(self, role, tool, args)
        except ValidationError as exc:
            # Arguments that pass the tool's schema but not a domain model built from
            # them (a search bound that is not a number, say).
            _LOG.debug("tool %s by %s failed: %s", tool, role, exc)
            return self.fail(role, tool, "bad_arguments",
                             f"bad arguments for {tool}: {_describe(exc, self._long)}; "
                             "fix them and call again")
        except (RemitError, ValueError, ArithmeticError) as exc:
            # Domain errors that slipped past the specific handlers are still the caller's
            # problem, not the trial's: report them as bad arguments. A plain ValueError or
            # arithmetic error means the schemas let through what the domain cannot take:
            # say so where a maintainer will see it.
            level = logging.DEBUG if isinstance(exc, RemitError) else logging.WARNING
            _LOG.log(level, "tool %s by %s failed behind its schema: %r", tool, role, exc)
            return self.fail(role, tool, "bad_arguments",
                             f"{tool} cannot be done with these arguments: "
                             f"{_detail(str(exc) or type(exc).__name__, self._long)}"
                             "; fix them and call again")
        except Exception as exc:
            # A defect of remit's, met on the way through an agent's call: it is logged
            # with its traceback for a maintainer, and the trial goes on (nothing an
            # agent sends may raise out of a trial).
            _LOG.exception("tool %s by %s raised behind its schema", untrusted.visible(tool), role)
            return self.fail(role, tool, "bad_arguments",
                             f"{tool} failed inside remit ({type(exc).__name__}), not "
                             "because of your call as such; try another call")

    # -- read tools ---------------------------------------------------------------------

    def _read(self, role: Role, tool: str, args: BaseModel) -> ToolResult:
        return _READERS[tool](self, role, args)

    def _search(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, SearchCatalogueArgs)
        constraints = [
            Constraint(attribute=c.attribute, op=c.op, value=c.value,
                       unit=parse_unit(c.unit) if c.unit else None)
            for c in args.constraints
        ]
        if args.dn is not None:
            constraints.append(Constraint(attribute="dn", op=ConstraintOp.EQ, value=float(args.dn)))
        found = self.catalogue.matching(args.family, constraints)
        return ToolResult.answer("search_catalogue", {
            "count": len(found),
            "results": [_summary(v) for v in found[: args.limit]],
        })

    def _product(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, GetProductArgs)
        if args.sku not in self.catalogue:
            return self.fail(role, "get_product", "not_found", self.unknown_sku(args.sku))
        return ToolResult.answer("get_product", product_record(self.catalogue.variant(args.sku)))

    def catalogue_error(self, sku: str) -> Exception:
        """The catalogue's own explanation of why ``sku`` is unknown."""
        try:
            self.catalogue.variant(sku)
        except RemitError as exc:
            return exc
        return KeyError(sku)

    def unknown_sku(self, sku: str) -> str:
        """Why ``sku`` is unknown, for the agent: the catalogue's explanation and
        suggestions, with ``sku`` quoted short (:func:`~remit.world.untrusted.quote`)."""
        return str(self.catalogue_error(sku)).replace(repr(sku), untrusted.quote(sku), 1)

    def _evidence(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, GetEvidenceArgs)
        document = self.catalogue.documents.get(args.evidence_id)
        if document is None:
            return self.fail(role, "get_evidence", "not_found",
                             f"no evidence document id={untrusted.quote(args.evidence_id)}; "
                             "read the product record for the ids of its evidence")
        return ToolResult.answer("get_evidence", document.model_dump(mode="json"))

    def _get_quote(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, QuoteRefArgs)
        quote = self.quotes.get(args.quote_id)
        if quote is None:
            return self._no_quote(role, "get_quote", args.quote_id)
        return ToolResult.answer("get_quote", quote_view(quote, self))

    def _order(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, QuoteRefArgs)
        quote = self.quotes.get(args.quote_id)
        if quote is None:
            return self._no_quote(role, "get_order", args.quote_id)
        view: dict[str, JsonValue] = {
            "purchase_order": _dump(quote.purchase_order),
            "receipt": _dump(quote.receipt),
            "invoice": _dump(quote.invoice),
        }
        if self.may_see(role, "buyer"):
            view["buyer_documents"] = list(sorted(self.documents))
        return ToolResult.answer("get_order", view)

    def _site_facts(self, role: Role, args: BaseModel) -> ToolResult:
        assert isinstance(args, GetSiteFactsArgs)
        if not self.may_see(role, args.owner):
            return self.fail(
                role, "get_site_facts", "not_visible",
                f"{role.value} may not read the {args.owner}'s site facts in "
                f"{self.mode.name}; ask(to={args.owner!r}, facts=[...]) for what you need")
        truths = self.setup.truths
        facts = truths.operating if args.owner == "buyer" else truths.installation
        return ToolResult.answer("get_site_facts", facts.model_dump(mode="json"))

    def may_see(self, role: Role, owner: Literal["buyer", "technical_owner"]) -> bool:
        """Whether ``role`` may read ``owner``'s site facts and documents in this mode."""
        return role.value == owner or (role is Role.AGENT and self.mode.agent_reads_all)

    def _no_quote(self, role: Role, tool: str, quote_id: str) -> ToolResult:
        return self.fail(role, tool, "not_found",
                         f"no quote id={untrusted.quote(quote_id)}; the quotes are: "
                         f"{', '.join(self.quotes)}")

    def actor_id(self, role: Role) -> str:
        """The actor id of ``role`` in this trial."""
        return ACTOR_IDS[role]


_READERS: dict[str, Callable[[World, Role, BaseModel], ToolResult]] = {
    "search_catalogue": World._search,
    "get_product": World._product,
    "get_evidence": World._evidence,
    "get_quote": World._get_quote,
    "get_order": World._order,
    "get_site_facts": World._site_facts,
}
"""The read tools, by name."""


def _detail(text: str, long: tuple[str, ...]) -> str:
    """A domain error's text for the agent: its long values cut, then the whole cut."""
    return untrusted.shorten(untrusted.cut_long_values(text, long), _DETAIL_CHARS)


def _describe(exc: ValidationError, long: tuple[str, ...]) -> str:
    """The first few validation errors, each ``where: what``, with the agent's keys and
    values in them cut short."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    described = [
        f"{untrusted.shorten('.'.join(str(p) for p in err['loc']), _LOCATION_CHARS) or 'arguments'}"
        f": {_detail(err['msg'], long)}"
        for err in errors[:_SHOWN_ERRORS]
    ]
    if len(errors) > _SHOWN_ERRORS:
        described.append(f"and {len(errors) - _SHOWN_ERRORS} more errors")
    return "; ".join(described)


def _dump(model: BaseModel | None) -> JsonValue:
    return None if model is None else model.model_dump(mode="json")


def _attr_view(variant: Variant) -> dict[str, JsonValue]:
    return {
        name: {"value": a.value, "unit": a.unit.value if isinstance(a.unit, Unit) else None,
               "status": a.status.value, "evidence_id": a.evidence_id}
        for name, a in variant.attributes.items()
    }


def _summary(variant: Variant) -> dict[str, JsonValue]:
    return {
        "sku": variant.sku,
        "family": variant.family.value,
        "name": variant.name,
        "lifecycle": variant.lifecycle.status.value,
        "superseded_by": variant.lifecycle.superseded_by,
    }


def product_record(variant: Variant) -> dict[str, JsonValue]:
    """The product record a read tool returns: governed attributes and commercial data."""
    return {
        **_summary(variant),
        "attributes": _attr_view(variant),
        "fff_class": variant.fff_class,
        "stock": variant.stock,
        "lead_time_days": variant.lead_time_days,
        "list_price": str(variant.list_price),
        "certificates": list(variant.certificates),
    }


def quote_view(quote: Quote, world: World) -> dict[str, JsonValue]:
    """What ``get_quote`` returns."""
    current = quote.current
    approval = quote.valid_approval()
    return {
        "quote_id": quote.id,
        "state": quote.state,
        "version": current.number,
        "version_hash": current.content_hash,
        "valid_until_minute": quote.valid_until_minute,
        "fit_required": quote.fit_required,
        "lines": [
            {"sku": ln.sku, "quantity": ln.quantity, "unit_price": str(ln.unit_price),
             "discount_pct": str(ln.discount_pct), "net_unit_price": str(ln.net_unit_price),
             "cited": [s.name for s in ln.cited]}
            for ln in current.lines
        ],
        "authority_facts": {name: None if value is None else format(value.normalize(), "f")
                            for name, value in world.current_facts(quote).items()},
        "approved_by": None if approval is None else approval.role.value,
        "handoffs": [
            {"id": h.id, "owner": h.owner.value, "action": h.action.value, "status": h.status}
            for h in world.handoffs.values() if h.quote_id == quote.id
        ],
    }
