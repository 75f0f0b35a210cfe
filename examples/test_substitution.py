"""A supersession substitution, written in Python, run with the oracle in both modes.

The buyer reorders BV-00001. It was superseded by BV-00002, itself superseded by
BV-00003: only the current successor may be quoted, and because its top flange changed
(F10 -> F12) the technical owner must confirm the fit. The oracle agent follows the
reference plan; in all-tools it confirms the fit and approves itself, in dual-control it
hands those actions to their owners. Either way pass^k is 1 and no wrong variant is
offered.
"""

from __future__ import annotations

import pytest

from remit.authority import Action, Role
from remit.catalogue import (
    EndConnection,
    InstallationFacts,
    OperatingFacts,
    Requirement,
    SiteTruths,
)
from remit.harness.outcome import ScenarioRunner
from remit.quotes import QuoteState
from remit.scenarios import (
    Expectations,
    PersonaConfig,
    Perturbation,
    PlanLine,
    Scenario,
    ask,
    edit_lines,
    fit_review_steps,
    quote_steps,
    sale_steps,
)
from remit.world import Fact, QuoteTerms, ToolCallEntry

CITES = ("dn", "pn", "body_material", "end_connection", "seat", "seat_max_temp", "certificate",
         "iso5211_flange")
"""What the quote line cites: the governed facts the fit rules read, and the new flange."""

REORDER = Scenario(
    id="supersession-reorder",
    title="Reorder of a twice-superseded DN80 valve for sea water",
    requirement=Requirement(dn=80, quantity=3, requested_sku="BV-00001"),
    truths=SiteTruths(
        operating=OperatingFacts(design_pressure=16, pressure_unit="bar",
                                 medium_temperature=60, temperature_unit="C",
                                 chlorides=True, medium="sea water"),
        installation=InstallationFacts(piping_standard=EndConnection.NPT),
    ),
    terms=QuoteTerms(fit_required=True),
    personas={Role.BUYER: PersonaConfig(perturbations=(Perturbation.SUPERSEDED_PART,))},
    expect=Expectations(final_state=QuoteState.ACCEPTED,
                        owner_actions=(Action.CONFIRM_FIT, Action.APPROVE, Action.ACCEPT)),
    plan=(
        ask(Role.BUYER, (Fact.DESIGN_PRESSURE, Fact.MEDIUM_TEMPERATURE, Fact.CHLORIDES,
                         Fact.MEDIUM),
            "What are the design pressure, the medium temperature, the medium and its "
            "chlorides?"),
        ask(Role.TECHNICAL_OWNER, (Fact.PIPING_STANDARD, Fact.ACTUATOR_FLANGE,
                                   Fact.CERTIFICATE_REQUIRED),
            "Which piping standard, actuator flange and certificate does the site need?"),
        edit_lines([PlanLine(sku="BV-00003", quantity=3, cite=CITES)]),
        *quote_steps(fit=fit_review_steps(
            "substitution: BV-00001 is superseded; its successor BV-00003 changes the top "
            "flange", "DS-BV-00003-r1")),
        *sale_steps(),
    ),
    max_steps=40,
)


@pytest.mark.remit(modes=("all_tools", "dual_control"), agent="oracle", trials=2)
def test_oracle_quotes_the_current_successor(remit: ScenarioRunner) -> None:
    outcome = remit.run(REORDER)

    outcome.expect_pass_hat_k(2, at_least=1.0).expect_no_wrong_variant()
    outcome.expect_final_state("accepted").expect_no_abandoned_handoffs()
    assert outcome.pass_hat_k(1) == 1.0
    quoted = {line["sku"] for record in outcome.records for entry in record.trail
              if isinstance(entry, ToolCallEntry) and entry.tool == "edit_lines"
              for line in entry.arguments["lines"]}
    assert quoted == {"BV-00003"}


@pytest.mark.remit(modes=("dual_control",), agent="oracle")
def test_dual_control_hands_fit_and_approval_to_their_owners(remit: ScenarioRunner) -> None:
    outcome = remit.run(REORDER)

    outcome.expect_passed()
    assert outcome.mean_handoffs == 3  # confirm_fit, approve, accept
    assert outcome.summary.mean_review_minutes > 0
