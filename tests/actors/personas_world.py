"""A small world for persona tests: one scenario builder, routing helpers, a scripted agent."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from pydantic import JsonValue

from remit.actors import Briefing, Observation, Persona
from remit.actors.personas import build_personas
from remit.authority import Role, builtin_modes
from remit.catalogue import InstallationFacts, OperatingFacts, Requirement, SiteTruths
from remit.harness.orchestrator import world_for
from remit.quotes import QuoteState
from remit.scenarios import Expectations, PersonaConfig, Perturbation, Scenario
from remit.world import HandoffEntry, MessageEntry, OrderVariance, ToolCall, ToolResult, World

QUOTE = "Q-1"
GOOD_VALVE = "BV-00018"  # DN25 PN10 PEEK 316 NPT, 3.1: passes every rule at the default site
PTFE_VALVE = "BV-00013"  # DN25 PN10 PTFE WCB NPT: fails C4 above 180 C and C6 with chlorides
BSPP_VALVE = "BV-00004"  # DN25 PN40 PEEK 316 BSPP: fails C5 at an NPT site


def operating(pressure: float = 10, unit: str = "bar", temperature: float = 80,
              temperature_unit: str = "C", chlorides: bool = False) -> OperatingFacts:
    """Operating facts with the defaults of the test site."""
    return OperatingFacts(design_pressure=pressure, pressure_unit=unit,
                          medium_temperature=temperature, temperature_unit=temperature_unit,
                          chlorides=chlorides, medium="brine" if chlorides else "water")


def scenario(*, requirement: Requirement | None = None, facts: OperatingFacts | None = None,
             piping: str = "NPT", discount: str = "0", justification: str = "",
             personas: dict[Role, Sequence[Perturbation]] | None = None,
             review_minutes: int = 15, variance: OrderVariance | None = None) -> Scenario:
    """A scenario at the test site (DN25 x 2, 10 bar, 80 C, water, NPT piping)."""
    return Scenario(
        id="persona-test", title="persona test",
        requirement=requirement or Requirement(dn=25, quantity=2),
        truths=SiteTruths(operating=facts or operating(),
                          installation=InstallationFacts.model_validate(
                              {"piping_standard": piping})),
        discount_pct=Decimal(discount), justification=justification,
        personas={role: PersonaConfig(review_minutes=review_minutes,
                                      perturbations=tuple(perturbations))
                  for role, perturbations in (personas or {}).items()},
        variance=variance or OrderVariance(),
        expect=Expectations(final_state=QuoteState.PAYMENT_RELEASED), plan=(),
    )


class Trial:
    """A world with its personas; the test plays the agent."""

    def __init__(self, scenario: Scenario, mode: str = "dual_control", seed: int = 0) -> None:
        self.world: World = world_for(scenario, builtin_modes()[mode])
        self.personas: dict[Role, Persona] = build_personas(scenario, seed)
        self.minutes = 0

    def agent(self, tool: str, **arguments: JsonValue) -> ToolResult:
        """One agent call, routed to the addressee persona like the orchestrator does."""
        before = len(self.world.trail)
        result = self.world.call(Role.AGENT, ToolCall(tool=tool, arguments=arguments))
        self.minutes = 0
        for entry in self.world.trail[before:]:
            if isinstance(entry, MessageEntry) and entry.sender is Role.AGENT:
                self.minutes += self.personas[entry.to].handle(self.world, entry)
        return result

    def request(self, to: Role, action: str, *, evidence: Sequence[str] = (),
                text: str = "") -> str:
        """request_action from ``to``; return the hand-off id."""
        result = self.agent("request_action", to=to.value, action=action, quote_id=QUOTE,
                            evidence=list(evidence), text=text)
        assert result.ok, result.error
        assert isinstance(result.content, dict)
        handoff_id = result.content["handoff_id"]
        assert isinstance(handoff_id, str)
        return handoff_id

    def replies(self, sender: Role) -> list[str]:
        """Texts ``sender`` sent the agent, in order."""
        return [m.text for m in self.world.inboxes[Role.AGENT] if m.sender is sender]

    def status(self, handoff_id: str) -> str:
        """The hand-off's status."""
        return self.world.handoffs[handoff_id].status

    def events(self, handoff_id: str) -> list[str]:
        """The hand-off's life on the trail."""
        return [e.event for e in self.world.trail
                if isinstance(e, HandoffEntry) and e.handoff_id == handoff_id]

    def draft(self, sku: str = GOOD_VALVE, *, discount: str = "0",
              cite: Sequence[str] = ("pn", "seat")) -> None:
        """The agent drafts and configures one line of ``sku``."""
        assert self.agent("edit_lines", quote_id=QUOTE, lines=[
            {"sku": sku, "quantity": 2, "discount_pct": discount, "cite": list(cite)}]).ok
        assert self.agent("configure", quote_id=QUOTE).ok

    def submitted(self, sku: str = GOOD_VALVE, *, discount: str = "0",
                  justification: str = "") -> None:
        """The agent drafts, prices and submits one line of ``sku``."""
        self.draft(sku, discount=discount)
        assert self.agent("price", quote_id=QUOTE).ok
        assert self.agent("submit", quote_id=QUOTE, justification=justification).ok

    def presented(self, sku: str = GOOD_VALVE) -> None:
        """The quote is approved by finance (directly) and presented."""
        self.submitted(sku)
        assert self.world.call(Role.FINANCE, ToolCall(tool="approve",
                                                      arguments={"quote_id": QUOTE})).ok
        assert self.agent("present", quote_id=QUOTE).ok

    def invoiced(self) -> None:
        """The quote runs through acceptance, order and delivery to the invoice."""
        self.presented()
        for tool, document in (("accept", None), ("receive_po", f"PO-{QUOTE}"),
                               ("record_receipt", f"GR-{QUOTE}")):
            arguments: dict[str, JsonValue] = {"quote_id": QUOTE}
            if document is not None:
                arguments["document_id"] = document
            assert self.world.call(Role.BUYER, ToolCall(tool=tool, arguments=arguments)).ok
        assert self.agent("invoice", quote_id=QUOTE).ok


class ScriptedAgent:
    """An agent that plays a fixed list of tool calls, then ends."""

    def __init__(self, calls: Sequence[tuple[str, dict[str, JsonValue]]]) -> None:
        self.calls = list(calls)
        self.observations: list[Observation] = []

    def start(self, briefing: Briefing) -> None:
        """Nothing to read."""

    def act(self, observation: Observation) -> ToolCall:
        """The next scripted call."""
        self.observations.append(observation)
        if not self.calls:
            return ToolCall(tool="end", arguments={"summary": "script done"})
        tool, arguments = self.calls.pop(0)
        return ToolCall(tool=tool, arguments=arguments)
