"""Scenarios: commercial situations as data, with expectations and a reference plan.

Example:
    >>> from remit.scenarios import builtin_scenarios, scenario_by_id
    >>> scenario_by_id("discount-exception").expect.final_state
    <QuoteState.ACCEPTED: 'accepted'>
"""

from __future__ import annotations

from remit.scenarios.builtin import UnknownScenarioError, builtin_scenarios, scenario_by_id
from remit.scenarios.plans import (
    DEFAULT_QUOTE_ID,
    PlanLine,
    ask,
    consent_request,
    edit_lines,
    fit_review_steps,
    order_steps,
    quote_steps,
    sale_steps,
    write,
)
from remit.scenarios.spec import Expectations, PersonaConfig, Perturbation, PlanStep, Scenario

__all__ = [
    "DEFAULT_QUOTE_ID",
    "Expectations",
    "PersonaConfig",
    "Perturbation",
    "PlanLine",
    "PlanStep",
    "Scenario",
    "UnknownScenarioError",
    "ask",
    "builtin_scenarios",
    "consent_request",
    "edit_lines",
    "fit_review_steps",
    "order_steps",
    "quote_steps",
    "sale_steps",
    "scenario_by_id",
    "write",
]
