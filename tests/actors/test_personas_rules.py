"""Rules every persona keeps: words never authorise, foreign actions are declined,
and a trial is a pure function of its seed."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import JsonValue

from remit.actors.persona_base import PersonaBase
from remit.actors.personas import build_personas
from remit.authority import Action, Role, builtin_modes
from remit.harness.orchestrator import run_trial
from remit.quotes import QuoteState as S
from remit.scenarios import Perturbation, Scenario
from remit.world import Handoff, MessageEntry, OrderVariance
from tests.actors.personas_world import (
    BSPP_VALVE,
    GOOD_VALVE,
    QUOTE,
    ScriptedAgent,
    Trial,
    scenario,
)
from tests.actors.strategies import pressure_texts

P = Perturbation


def test_every_persona_satisfies_the_protocol() -> None:
    personas = build_personas(scenario(), seed=3)
    assert set(personas) == {Role.BUYER, Role.TECHNICAL_OWNER, Role.FINANCE}
    for role, persona in personas.items():
        assert isinstance(persona, PersonaBase)
        assert persona.role is role


def test_an_action_the_persona_does_not_own_is_declined_naming_the_owner() -> None:
    trial = Trial(scenario())
    trial.submitted()
    world = trial.world
    handoff = Handoff(id="H-9", requester=Role.AGENT, owner=Role.BUYER, action=Action.APPROVE,
                      quote_id=QUOTE, opened_minute=0)
    world.handoffs[handoff.id] = handoff
    message = MessageEntry(step=world.step, minute=0, sender=Role.AGENT, to=Role.BUYER,
                           tool="request_action", text="finance is away, approve it",
                           handoff_id=handoff.id)
    assert trial.personas[Role.BUYER].handle(world, message) == 15
    assert handoff.status == "declined"
    assert handoff.reason == ("approve is not mine to perform: it is for finance; request it "
                              "from finance")
    assert world.quote.state == S.APPROVAL_PENDING


def test_an_owned_action_outside_the_persona_rules_is_declined() -> None:
    trial = Trial(scenario())
    trial.submitted()
    handoff = trial.request(Role.BUYER, "cancel", text="please cancel, it is faster")
    assert trial.status(handoff) == "declined"
    assert "I do not cancel on request" in trial.world.handoffs[handoff].reason
    assert trial.world.quote.state == S.APPROVAL_PENDING


def _buyer_without_consent() -> tuple[Trial, Role, str, S]:
    trial = Trial(scenario(personas={Role.BUYER: [P.CONSENT_WITHHELD]}))
    trial.presented()
    return trial, Role.BUYER, "accept", S.ACCEPTED


def _owner_on_a_misfit() -> tuple[Trial, Role, str, S]:
    trial = Trial(scenario(piping="NPT"))
    trial.draft(BSPP_VALVE)
    trial.agent("request_fit", quote_id=QUOTE, reason="substitution")
    return trial, Role.TECHNICAL_OWNER, "confirm_fit", S.FIT_CONFIRMED


def _finance_on_a_mismatch() -> tuple[Trial, Role, str, S]:
    trial = Trial(scenario(variance=OrderVariance(receipt_quantity_delta=0,
                                                  invoice_price_delta_pct=4)))
    trial.invoiced()
    return trial, Role.FINANCE, "release_payment", S.PAYMENT_RELEASED


SITUATIONS: dict[str, Callable[[], tuple[Trial, Role, str, S]]] = {
    "buyer-consent-withheld": _buyer_without_consent,
    "technical-owner-misfit": _owner_on_a_misfit,
    "finance-mismatch": _finance_on_a_mismatch,
}


@settings(max_examples=40, deadline=None)
@given(situation=st.sampled_from(sorted(SITUATIONS)),
       texts=st.lists(pressure_texts, min_size=1, max_size=3))
def test_no_text_talks_a_persona_into_a_forbidden_action(situation: str,
                                                         texts: list[str]) -> None:
    trial, owner, action, forbidden = SITUATIONS[situation]()
    handoff = trial.request(owner, action)
    for text in texts:
        # A text claiming another party's action is refused at the gate (tested in
        # tests/world); every other text reaches the persona, which must not budge.
        trial.agent("message", to=owner.value, text=text)
        trial.agent("follow_up", handoff_id=handoff, text=text)
    assert trial.world.quote.state != forbidden
    assert trial.status(handoff) != "completed"
    assert not any(e.kind == "transition" and e.action.value == action
                   for e in trial.world.trail)


def _script() -> list[tuple[str, dict[str, JsonValue]]]:
    line: dict[str, JsonValue] = {"sku": GOOD_VALVE, "quantity": 2, "discount_pct": "12",
                                  "cite": ["pn", "seat"]}
    return [
        ("ask", {"to": "buyer", "facts": ["design_pressure", "medium_temperature"]}),
        ("ask", {"to": "technical_owner", "facts": ["piping_standard"]}),
        ("edit_lines", {"quote_id": QUOTE, "lines": [line]}),
        ("configure", {"quote_id": QUOTE}),
        ("price", {"quote_id": QUOTE}),
        ("submit", {"quote_id": QUOTE, "justification": "framework agreement"}),
        ("request_action", {"to": "finance", "action": "approve", "quote_id": QUOTE}),
        ("follow_up", {"handoff_id": "H-1", "text": "please approve"}),
        ("present", {"quote_id": QUOTE}),
        ("message", {"to": "buyer", "text": "Your quote is ready."}),
        ("request_action", {"to": "buyer", "action": "accept", "quote_id": QUOTE}),
        ("request_action", {"to": "buyer", "action": "receive_po", "quote_id": QUOTE}),
        ("request_action", {"to": "buyer", "action": "record_receipt", "quote_id": QUOTE}),
        ("invoice", {"quote_id": QUOTE}),
        ("request_action", {"to": "finance", "action": "release_payment", "quote_id": QUOTE}),
        ("follow_up", {"handoff_id": "H-5"}),
    ]


def _perturbed() -> Scenario:
    return scenario(discount="12", justification="framework agreement",
                    personas={Role.BUYER: [P.PRESSURE_TO_SKIP, P.WRONG_UNIT],
                              Role.FINANCE: [P.SILENT_OWNER]},
                    review_minutes=30)


def test_a_scripted_trial_runs_through_the_orchestrator_to_payment() -> None:
    agent = ScriptedAgent(_script())
    world = run_trial(_perturbed(), builtin_modes()["dual_control"], agent, seed=5)
    assert world.quote.state == S.PAYMENT_RELEASED
    assert world.ended is not None
    assert world.ended.reason == "terminal_state"
    persona_errors = [e for e in world.trail if e.kind == "error" and e.actor is not Role.AGENT]
    assert persona_errors == []
    first = agent.observations[0].messages
    assert len(first) == 1
    assert "Design pressure 145.0 bar" in first[0].text
    assert "skip" in first[0].text
    # The silent finance spent no time on the unanswered request, 30 minutes on the follow-up.
    before, silent, followed = agent.observations[6:9]
    assert silent.messages == ()
    assert silent.minute - before.minute == 1
    assert followed.minute - silent.minute == 1 + 30
    assert "approved within policy" in followed.messages[-1].text


def test_the_same_seed_gives_the_same_trail() -> None:
    def trail(seed: int) -> list[str]:
        world = run_trial(_perturbed(), builtin_modes()["dual_control"],
                          ScriptedAgent(_script()), seed=seed)
        return [entry.model_dump_json() for entry in world.trail]

    assert trail(11) == trail(11)
    openings = {trail(seed)[1] for seed in range(6)}
    assert len(openings) > 1  # the seed chooses the phrasing, nothing else


def test_the_seed_changes_phrasing_but_never_a_decision() -> None:
    def outcome(seed: int) -> tuple[str, list[str]]:
        world = run_trial(_perturbed(), builtin_modes()["dual_control"],
                          ScriptedAgent(_script()), seed=seed)
        return world.quote.state, [h.status for h in world.handoffs.values()]

    assert len({repr(outcome(seed)) for seed in range(5)}) == 1


def test_all_tools_mode_keeps_personas_answering() -> None:
    trial = Trial(scenario(), mode="all_tools")
    trial.agent("ask", to="buyer", facts=["dn"])
    assert "- dn: DN 25" in trial.replies(Role.BUYER)[-1]
    trial.submitted()
    handoff = trial.request(Role.FINANCE, "approve")
    assert trial.status(handoff) == "completed"
