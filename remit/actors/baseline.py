"""The baseline agent: a fair, imperfect, rule-based quoting agent (``remit run``'s default).

It sees only what its tools show: the buyer's opening, the answers to its questions,
product records and quote views; never the plan or the hidden truths. Its script:

1. parse the buyer's opening with regular expressions (quantity, DN, pressure and
   temperature with units, medium, a part number such as ``BV-00012``, a discount);
2. gather the missing facts: in all-tools it reads both parties' site facts, in
   dual-control it asks the buyer once for what the opening lacks and the technical
   owner for the installation facts;
3. search the catalogue, read the records, follow ``superseded_by`` to the successor,
   and pick the first active variant passing the fit rules it can evaluate;
4. draft the line citing released attributes, configure, request a fit review for a
   substitution or custom spec, price, and submit (justified above the standard discount);
5. see each owner action through (approve, present, accept; the order-to-cash actions
   only when the buyer's opening mentions delivery, invoicing or payment): perform it
   when the briefing says it holds it, otherwise request it and follow up once; if it
   is still not done, end.

Its imperfections are deliberate and stable: its unit check is crude (a pressure no
standard PN reaches is ignored as a typo rather than questioned; a plausible figure is
believed), it follows up only once, it stops at acceptance unless told otherwise, and
where it holds the buyer's ``accept`` (all-tools) it accepts without asking for consent.
It never raises on a tool error: it adapts (a justification the guard asks for) or ends.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass
from decimal import Decimal

from pydantic import JsonValue, ValidationError

from remit.actors.protocol import Briefing, Observation, TrialInfo
from remit.authority import Action, Role
from remit.catalogue import (
    STANDARD_PN,
    CertificateGrade,
    EndConnection,
    Family,
    GovernedAttribute,
    InstallationFacts,
    Iso5211Flange,
    Lifecycle,
    Money,
    OperatingFacts,
    Requirement,
    RuleResult,
    Unit,
    Variant,
    c1_mounting_flange,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
    check_actuator,
    dn_match,
)
from remit.world import MessageEntry, ToolCall, ToolResult

__all__ = ["BaselineAgent", "GatheredFacts", "evaluable_rules", "parse_installation",
           "parse_operating", "variant_from_record"]

_Script = Generator[ToolCall, Observation, None]
_Step = Generator[ToolCall, Observation, ToolResult]

_PART = re.compile(r"\b(?:BV|AC|GK)-\d{5}\b")
_DN = re.compile(r"\bDN\s*(\d+)")
_QUANTITY = (re.compile(r"\b(\d+)\s*(?:x\b|pcs\b|pieces\b|units\b|off\b|(?:ball\s+)?valves?\b)",
                        re.IGNORECASE),
             re.compile(r"\bquantity\D{0,12}(\d+)", re.IGNORECASE))
_PRESSURE = re.compile(r"(\d+(?:\.\d+)?)\s*(bar|psig?|MPa)\b", re.IGNORECASE)
_TEMPERATURE = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:°|deg(?:rees)?\s*)?([CF])\b")
_DISCOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_MEDIUM = re.compile(r"\bDN\s*\d+\s+[a-z ]+?\s+for\s+([^.,;]+)")
_ANSWER = re.compile(r"^-\s*([a-z_]+):\s*(.+)$", re.MULTILINE)
_NO_CHLORIDES = re.compile(r"^no\b|\b(?:no|without|free of)\s+chlorides?|chloride[- ]free",
                           re.IGNORECASE)
_CHLORIDES = re.compile(r"chlorides?|sea\s*water|brine|saline", re.IGNORECASE)
_FLANGE = re.compile(r"\bF(05|07|10|12)\b")
_CERTIFICATE = re.compile(r"\b([23]\.1)\b")
_BUYER_CERTIFICATE = re.compile(r"EN\s*10204\s+([23]\.1)")
_PIPING = ((re.compile(r"\bBSPP\b", re.IGNORECASE), EndConnection.BSPP),
           (re.compile(r"\bNPT\b", re.IGNORECASE), EndConnection.NPT),
           (re.compile(r"EN\s*1092|flange[ds]?\s+piping|\bflanged\b", re.IGNORECASE),
            EndConnection.FLANGED))
_UNITS = {"bar": Unit.BAR, "psi": Unit.PSI, "psig": Unit.PSI, "mpa": Unit.MPA}
_BUYER_FACTS = ("dn", "quantity", "design_pressure", "medium_temperature", "chlorides", "medium")
_TECH_FACTS = ("piping_standard", "actuator_flange", "certificate_required")
_QUOTE_ACTIONS = (Action.APPROVE, Action.PRESENT, Action.ACCEPT)
_ORDER_ACTIONS = (Action.RECEIVE_PO, Action.RECORD_RECEIPT, Action.INVOICE,
                  Action.RELEASE_PAYMENT)
_ORDER_CUE = re.compile(r"\b(?:deliver(?:y|ed)?|invoic(?:e|ing)|payment|purchase order)\b",
                        re.IGNORECASE)
_DOCUMENT_PREFIX = {Action.RECEIVE_PO: "PO-", Action.RECORD_RECEIPT: "GR-"}


@dataclass
class GatheredFacts:
    """What the baseline has gathered so far (``None``: not known).

    Pressure and temperature keep the unit they were stated in; ``installation_known``
    records that the technical owner's facts were read or answered (``None`` flange and
    certificate then mean "none required", not "unknown").
    """

    dn: int | None = None
    quantity: int | None = None
    pressure: tuple[float, Unit] | None = None
    temperature: tuple[float, Unit] | None = None
    chlorides: bool | None = None
    medium: str | None = None
    piping: EndConnection | None = None
    flange: Iso5211Flange | None = None
    certificate: CertificateGrade | None = None
    buyer_certificate: CertificateGrade | None = None
    installation_known: bool = False
    part: str | None = None
    discount: Decimal = Decimal(0)
    with_actuator: bool = False
    opening: str = ""

    def missing_buyer_facts(self) -> list[str]:
        """The buyer's facts (``ask`` vocabulary) still unknown."""
        known = {"dn": self.dn, "quantity": self.quantity, "design_pressure": self.pressure,
                 "medium_temperature": self.temperature, "chlorides": self.chlorides,
                 "medium": self.medium}
        return [name for name in _BUYER_FACTS if known[name] is None]


def _answers(text: str) -> dict[str, str]:
    """``- fact: value`` lines of a reply to ``ask``, keyed by fact."""
    return {m.group(1): m.group(2) for m in _ANSWER.finditer(text)}


def parse_operating(text: str, facts: GatheredFacts, *, override: bool) -> None:
    """Fill the buyer-side facts found in ``text`` (only unknown ones unless ``override``).

    ``text`` is the buyer's opening, or its reply to ``ask`` (one ``- fact: value`` line
    per fact asked, read fact by fact).
    """
    def put(name: str, value: object) -> None:
        if value is not None and (override or getattr(facts, name) is None):
            setattr(facts, name, value)

    answers = _answers(text)
    def scope(fact: str) -> str:
        return answers.get(fact, "") if answers else text

    if (m := _DN.search(scope("dn"))) is not None:
        put("dn", int(m.group(1)))
    for pattern in _QUANTITY:
        if (m := pattern.search(scope("quantity"))) is not None:
            put("quantity", int(m.group(1)))
            break
    if (m := _PRESSURE.search(scope("design_pressure"))) is not None:
        put("pressure", (float(m.group(1)), _UNITS[m.group(2).lower()]))
    if (m := _TEMPERATURE.search(scope("medium_temperature"))) is not None:
        unit = Unit.CELSIUS if m.group(2) == "C" else Unit.FAHRENHEIT
        put("temperature", (float(m.group(1)), unit))
    chlorides = scope("chlorides")
    if _NO_CHLORIDES.search(chlorides):
        put("chlorides", False)
    elif _CHLORIDES.search(chlorides):
        put("chlorides", True)
    if answers.get("medium"):
        put("medium", answers["medium"].strip().rstrip("."))
    elif not answers and (m := _MEDIUM.search(text)) is not None:
        put("medium", m.group(1).strip())
    if not answers and (m := _PART.search(text)) is not None:
        put("part", m.group(0))


def parse_installation(text: str, facts: GatheredFacts) -> None:
    """Fill the technical owner's facts found in its reply to ``ask``."""
    answers = _answers(text)
    piping = answers.get("piping_standard", "")
    for pattern, standard in _PIPING:
        if pattern.search(piping):
            facts.piping = standard
            break
    flange = _FLANGE.search(answers.get("actuator_flange", ""))
    facts.flange = Iso5211Flange(f"F{flange.group(1)}") if flange else None
    certificate = _CERTIFICATE.search(answers.get("certificate_required", ""))
    facts.certificate = CertificateGrade(certificate.group(1)) if certificate else None
    facts.installation_known = bool(answers)


def _obj(value: JsonValue) -> dict[str, JsonValue]:
    return value if isinstance(value, dict) else {}


def _list(value: JsonValue) -> list[JsonValue]:
    return value if isinstance(value, list) else []


def _money(text: JsonValue) -> Money:
    amount, _, currency = str(text).partition(" ")
    return Money.of(amount, currency or "EUR")


_VARIANTS: dict[str, Variant | None] = {}
"""Variants already rebuilt, by their record's ``repr`` (key order and JSON types
included): a frozen variant is rebuilt once per distinct record, not at every read."""
_VARIANTS_KEPT = 4096


def variant_from_record(record: dict[str, JsonValue]) -> Variant | None:
    """Rebuild a :class:`Variant` from a ``get_product`` record (``None`` if malformed).

    The record shows no unit cost; the list price stands in (fit rules never read it).
    """
    key = repr(record)
    if key not in _VARIANTS:
        if len(_VARIANTS) >= _VARIANTS_KEPT:
            _VARIANTS.clear()
        _VARIANTS[key] = _variant(record)
    return _VARIANTS[key]


def _variant(record: dict[str, JsonValue]) -> Variant | None:
    attributes: dict[str, GovernedAttribute] = {}
    try:
        for name, raw in _obj(record.get("attributes")).items():
            attr = _obj(raw)
            value = attr.get("value")
            unit = attr.get("unit")
            attributes[name] = GovernedAttribute(
                name=name, value=value if isinstance(value, float | int) else str(value),
                unit=Unit(str(unit)) if unit is not None else None,
                status=str(attr.get("status")), evidence_id=str(attr.get("evidence_id")))
        price = _money(record.get("list_price"))
        superseded_by = record.get("superseded_by")
        return Variant(
            sku=str(record.get("sku")), family=Family(str(record.get("family"))),
            name=str(record.get("name")), attributes=attributes,
            lifecycle=Lifecycle(
                status=str(record.get("lifecycle")),
                superseded_by=None if superseded_by is None else str(superseded_by)),
            stock=int(str(record.get("stock"))),
            lead_time_days=int(str(record.get("lead_time_days"))),
            list_price=price, unit_cost=price,
            certificates=tuple(str(c) for c in _list(record.get("certificates"))))
    except (ValidationError, ValueError):
        return None


def evaluable_rules(valve: Variant, facts: GatheredFacts) -> list[RuleResult]:
    """The fit rules the baseline can evaluate for ``valve`` with the facts it has."""
    results: list[RuleResult] = []
    requirement = Requirement(dn=facts.dn or 1, quantity=facts.quantity or 1,
                              certificate=facts.buyer_certificate)
    if facts.dn is not None:
        results.append(dn_match(valve, requirement))
    temperature = facts.temperature or (20.0, Unit.CELSIUS)
    pressure = facts.pressure or (1.0, Unit.BAR)
    operating = OperatingFacts(
        design_pressure=pressure[0], pressure_unit=pressure[1],
        medium_temperature=temperature[0], temperature_unit=temperature[1],
        chlorides=bool(facts.chlorides), medium=facts.medium or "the medium")
    if facts.pressure is not None and _sane(facts.pressure):
        results.append(c3_pressure_rating(valve, operating))
    if facts.temperature is not None:
        results.append(c4_seat_temperature(valve, operating))
    if facts.chlorides is not None:
        results.append(c6_chlorides(valve, operating))
    installation = InstallationFacts(piping_standard=facts.piping or EndConnection.FLANGED,
                                     actuator_flange=facts.flange,
                                     certificate_required=facts.certificate)
    if facts.piping is not None:
        results.append(c5_end_connection(valve, installation))
    if facts.installation_known or facts.buyer_certificate is not None:
        results.append(c7_certificate(valve, installation, requirement))
        if facts.flange is not None and not facts.with_actuator:
            results.append(c1_mounting_flange(valve, facts.flange.value))
    return results


def _sane(pressure: tuple[float, Unit]) -> bool:
    """The crude unit check: a bar figure no standard PN reaches is taken as a typo."""
    value, unit = pressure
    return not (unit is Unit.BAR and value > STANDARD_PN[-1])


def _released(variant: Variant) -> list[str]:
    return [name for name, a in variant.attributes.items() if a.status.value == "released"]


def _datasheets(variant: Variant) -> list[str]:
    ids = (variant.attributes[name].evidence_id for name in _released(variant))
    return list(dict.fromkeys(i for i in ids if i.startswith("DS-")))[:1]


class BaselineAgent:
    """The default agent of ``remit run``: rule-based, fair and imperfect.

    Args:
        info: the trial; the baseline reads nothing from it (no plan, no truths).

    Example:
        >>> agent = BaselineAgent()
        >>> agent.start(briefing)                        # doctest: +SKIP
        >>> agent.act(observation).tool                  # doctest: +SKIP
        'get_quote'
    """

    def __init__(self, info: TrialInfo | None = None) -> None:
        self.facts = GatheredFacts()
        self.inbox: list[MessageEntry] = []
        self._script: _Script | None = None
        self._started = False
        self._evidence: list[str] = []

    def start(self, briefing: Briefing) -> None:
        """Read the briefing: the quote id and the owners of each action."""
        self._script = self._run(briefing)
        self._started = False

    def act(self, observation: Observation) -> ToolCall:
        """The next step of the script; ``end`` once it is done."""
        self.inbox.extend(observation.messages)
        if self._script is None:
            return _end("no briefing was given; nothing to do")
        try:
            if not self._started:
                self._started = True
                return next(self._script)
            return self._script.send(observation)
        except StopIteration:
            self._script = None
            return _end("done")

    # -- the script ----------------------------------------------------------------------

    def _call(self, tool: str, **arguments: JsonValue) -> _Step:
        observation = yield ToolCall(tool=tool, arguments=arguments)
        if observation.result is None:
            return ToolResult.failure(tool, "agent_error", "no result was observed")
        return observation.result

    def _run(self, briefing: Briefing) -> _Script:
        for message in self.inbox:
            if message.sender is Role.BUYER:
                self._read_opening(message.text)
        quote = yield from self._call("get_quote", quote_id=briefing.quote_id)
        fit_required = bool(_obj(quote.content).get("fit_required")) if quote.ok else False
        yield from self._gather(briefing)
        summary = yield from self._draft(briefing, fit_required)
        if summary is None:
            actions: tuple[Action, ...] = _QUOTE_ACTIONS
            if _ORDER_CUE.search(self.facts.opening):
                actions += _ORDER_ACTIONS
            for action in actions:
                done = yield from self._see_through(briefing, action, self._evidence)
                if not done:
                    summary = f"{action.value} was not done; stopping here"
                    break
        yield _end(summary or f"quote {briefing.quote_id} went through")

    def _draft(self, briefing: Briefing,
               fit_required: bool) -> Generator[ToolCall, Observation, str | None]:
        """Choose, draft, configure, (fit,) price and submit; a summary if it stops."""
        facts, quote_id = self.facts, briefing.quote_id
        if facts.dn is None or facts.quantity is None:
            return "the buyer did not give a DN and a quantity; cannot quote"
        chosen = yield from self._choose()
        if chosen is None:
            return "no catalogue variant passes the fit rules I could check"
        valve, substituted = chosen
        self._evidence = _datasheets(valve)
        lines: list[JsonValue] = [self._line(valve)]
        if facts.with_actuator:
            actuator = yield from self._actuator(valve)
            if actuator is None:
                return f"no actuator fits valve {valve.sku}; cannot quote"
            lines.append(self._line(actuator))
        result = yield from self._call("edit_lines", quote_id=quote_id, lines=lines)
        if result.ok:
            result = yield from self._call("configure", quote_id=quote_id)
        if result.ok and (fit_required or substituted):
            result = yield from self._fit(briefing, valve, substituted)
        if result.ok:
            result = yield from self._call("price", quote_id=quote_id)
        if result.ok:
            result = yield from self._submit(quote_id)
        return None if result.ok else _failure(result)

    def _read_opening(self, text: str) -> None:
        facts = self.facts
        facts.opening = f"{facts.opening} {text}".strip()
        parse_operating(text, facts, override=False)
        if (m := _DISCOUNT.search(text)) is not None:
            facts.discount = Decimal(m.group(1))
        facts.with_actuator = facts.with_actuator or "with actuator" in text.lower()
        if (m := _BUYER_CERTIFICATE.search(text)) is not None:
            facts.buyer_certificate = CertificateGrade(m.group(1))
        for pattern, standard in _PIPING:
            if facts.piping is None and pattern.search(text):
                facts.piping = standard

    def _gather(self, briefing: Briefing) -> Generator[ToolCall, Observation, None]:
        facts = self.facts
        if Role.AGENT in briefing.owners.get(Action.ACCEPT, ()):
            # All-tools: the agent may read every party's site facts.
            for owner in ("buyer", "technical_owner"):
                result = yield from self._call("get_site_facts", owner=owner)
                if result.ok:
                    self._site_facts(owner, _obj(result.content))
        if not facts.installation_known:
            seen = len(self.inbox)
            yield from self._call("ask", to="technical_owner", facts=list(_TECH_FACTS),
                                  text="Which piping standard, existing actuator flange and "
                                       "certificate does the site require?")
            for message in self.inbox[seen:]:
                if message.sender is Role.TECHNICAL_OWNER:
                    parse_installation(message.text, facts)
        missing = facts.missing_buyer_facts()
        if missing:
            seen = len(self.inbox)
            yield from self._call("ask", to="buyer", facts=list(missing),
                                  text="Could you give me these details for the quote?")
            for message in self.inbox[seen:]:
                if message.sender is Role.BUYER:
                    parse_operating(message.text, facts, override=True)

    def _site_facts(self, owner: str, content: dict[str, JsonValue]) -> None:
        try:
            self._read_site_facts(owner, content)
        except ValueError:
            return  # an unreadable record: what is still missing is asked for instead

    def _read_site_facts(self, owner: str, content: dict[str, JsonValue]) -> None:
        facts = self.facts
        if owner == "technical_owner":
            piping, flange, cert = (content.get(k) for k in _TECH_FACTS)
            facts.piping = EndConnection(str(piping)) if piping is not None else facts.piping
            facts.flange = Iso5211Flange(str(flange)) if flange is not None else None
            facts.certificate = CertificateGrade(str(cert)) if cert is not None else None
            facts.installation_known = True
            return
        pressure, temperature = content.get("design_pressure"), content.get("medium_temperature")
        if isinstance(pressure, float | int):
            facts.pressure = (float(pressure), Unit(str(content.get("pressure_unit"))))
        if isinstance(temperature, float | int):
            facts.temperature = (float(temperature), Unit(str(content.get("temperature_unit"))))
        if isinstance(content.get("chlorides"), bool):
            facts.chlorides = bool(content.get("chlorides"))
        if content.get("medium") is not None:
            facts.medium = str(content.get("medium"))

    def _product(self, sku: str) -> Generator[ToolCall, Observation, Variant | None]:
        result = yield from self._call("get_product", sku=sku)
        return variant_from_record(_obj(result.content)) if result.ok else None

    def _current(self, sku: str) -> Generator[ToolCall, Observation, Variant | None]:
        """Read ``sku`` and follow ``superseded_by`` to its current successor."""
        variant = yield from self._product(sku)
        hops = 0
        while variant is not None and variant.lifecycle.superseded_by is not None and hops < 5:
            hops += 1
            variant = yield from self._product(variant.lifecycle.superseded_by)
        return variant

    def _fits(self, variant: Variant) -> bool:
        return (variant.is_active and variant.family is Family.BALL_VALVE
                and all(r.passed for r in evaluable_rules(variant, self.facts)))

    def _choose(self) -> Generator[ToolCall, Observation, tuple[Variant, bool] | None]:
        facts = self.facts
        if facts.part is not None:
            current = yield from self._current(facts.part)
            if current is not None and self._fits(current):
                return current, current.sku != facts.part
        constraints: list[JsonValue] = []
        if facts.pressure is not None and _sane(facts.pressure):
            constraints.append({"attribute": "pn", "op": "min", "value": facts.pressure[0],
                                "unit": facts.pressure[1].value})
        found = yield from self._call("search_catalogue", family="ball_valve", dn=facts.dn,
                                      constraints=constraints)
        checked: set[str] = set()
        for summary in _list(_obj(found.content).get("results")) if found.ok else []:
            sku = str(_obj(summary).get("sku"))
            if sku in checked:
                continue
            current = yield from self._current(sku)
            checked.add(sku)
            if current is None or current.sku in checked - {sku}:
                continue
            checked.add(current.sku)
            if self._fits(current):
                return current, False
        return None

    def _actuator(self, valve: Variant) -> Generator[ToolCall, Observation, Variant | None]:
        found = yield from self._call("search_catalogue", family="actuator")
        for summary in _list(_obj(found.content).get("results")) if found.ok else []:
            if _obj(summary).get("lifecycle") != "active":
                continue
            actuator = yield from self._product(str(_obj(summary).get("sku")))
            if actuator is not None and all(r.passed for r in check_actuator(valve, actuator)):
                return actuator
        return None

    def _line(self, variant: Variant) -> JsonValue:
        cite: list[JsonValue] = list(_released(variant))
        return {"sku": variant.sku, "quantity": self.facts.quantity or 1,
                "discount_pct": str(self.facts.discount), "cite": cite}

    def _fit(self, briefing: Briefing, valve: Variant, substituted: bool) -> _Step:
        reason = (f"substitution of {self.facts.part} by its successor {valve.sku}"
                  if substituted else "custom specification needs a fit review")
        result = yield from self._call("request_fit", quote_id=briefing.quote_id, reason=reason)
        if not result.ok:
            return result
        done = yield from self._see_through(briefing, Action.CONFIRM_FIT, self._evidence)
        if done:
            return result
        return ToolResult.failure("confirm_fit", "bad_handoff",
                                  "the fit review was not confirmed after one follow-up")

    def _submit(self, quote_id: str) -> _Step:
        justification = ""
        if self.facts.discount > Decimal(5):
            justification = (f"the buyer asks for a {self.facts.discount}% discount: "
                             f"{self.facts.opening[:200]}")
        result = yield from self._call("submit", quote_id=quote_id, justification=justification)
        if not result.ok and result.error is not None and "justification" in result.error.message:
            justification = justification or f"buyer's request: {self.facts.opening[:200]}"
            result = yield from self._call("submit", quote_id=quote_id,
                                           justification=justification)
        return result

    def _see_through(self, briefing: Briefing, action: Action,
                     evidence: list[str]) -> Generator[ToolCall, Observation, bool]:
        """Perform ``action`` if the agent holds it and its bounds hold, else request it
        and follow up once.

        A grant that is bounded (a delegation up to 5 % discount, say) is checked first
        against the quote's ``authority_facts``; beyond its bound, or when the gate still
        denies the action, the agent asks the role the briefing names (the delegating
        role, else the action's natural owner).
        """
        quote_id = briefing.quote_id
        owners = briefing.owners.get(action, ())
        arguments: dict[str, JsonValue] = {"quote_id": quote_id}
        if action is Action.CONFIRM_FIT:
            arguments["evidence"] = list[JsonValue](evidence)
        if Role.AGENT in owners and (yield from self._within_bounds(briefing, action)):
            prefix = _DOCUMENT_PREFIX.get(action)
            if prefix is not None:
                order = yield from self._call("get_order", quote_id=quote_id)
                documents = _list(_obj(order.content).get("buyer_documents"))
                arguments["document_id"] = next(
                    (str(d) for d in documents if str(d).startswith(prefix)), f"{prefix}{quote_id}")
            result = yield from self._call(action.value, **arguments)
            if result.ok or result.error is None or result.error.code != "denied":
                return result.ok
        owner = _owner(briefing, action)
        if owner is None:
            return False
        request = yield from self._call(
            "request_action", to=owner.value, action=action.value, quote_id=quote_id,
            evidence=list[JsonValue](evidence), text=f"Please {action.value} quote {quote_id}.")
        handoff = _obj(request.content).get("handoff_id") if request.ok else None
        if handoff is None:
            return False
        for attempt in range(2):
            status = yield from self._handoff_status(quote_id, str(handoff))
            if status == "completed":
                return True
            if attempt == 0:
                yield from self._call("follow_up", handoff_id=str(handoff),
                                      text=f"Following up: please {action.value} {quote_id}.")
        return False

    def _within_bounds(self, briefing: Briefing,
                       action: Action) -> Generator[ToolCall, Observation, bool]:
        """Whether the agent's grants of ``action`` have their bounds met by the quote
        (unbounded grants: yes; a fact the quote does not show: try and let the gate
        decide)."""
        authority = briefing.authority.get(action)
        if authority is None or not authority.is_conditional(Role.AGENT):
            return True
        quote = yield from self._call("get_quote", quote_id=briefing.quote_id)
        facts = _obj(_obj(quote.content).get("authority_facts"))
        values = {name: None if value is None else Decimal(str(value))
                  for name, value in facts.items()}
        return authority.within_bounds(Role.AGENT, values) is not False
    def _handoff_status(self, quote_id: str, handoff: str) -> Generator[ToolCall, Observation, str]:
        result = yield from self._call("get_quote", quote_id=quote_id)
        for entry in _list(_obj(result.content).get("handoffs")):
            if _obj(entry).get("id") == handoff:
                return str(_obj(entry).get("status"))
        return "unknown"


def _owner(briefing: Briefing, action: Action) -> Role | None:
    """Whom to ask for ``action``: the role that delegated it to the agent within a
    bound, else its natural owner, else any other holder."""
    authority = briefing.authority.get(action)
    if authority is not None:
        delegators = [r for r in authority.delegated_from(Role.AGENT)
                      if r not in (Role.AGENT, Role.SYSTEM)]
        if delegators:
            return delegators[0]
    natural = {Action.CONFIRM_FIT: Role.TECHNICAL_OWNER, Action.APPROVE: Role.FINANCE,
               Action.RELEASE_PAYMENT: Role.FINANCE}
    holders = [r for r in briefing.owners.get(action, ()) if r not in (Role.AGENT, Role.SYSTEM)]
    preferred = natural.get(action)
    if preferred in holders:
        return preferred
    return holders[0] if holders else None


def _end(summary: str) -> ToolCall:
    return ToolCall(tool="end", arguments={"summary": summary})


def _failure(result: ToolResult) -> str:
    message = result.error.message if result.error is not None else "unknown error"
    return f"{result.tool} failed: {message}"
