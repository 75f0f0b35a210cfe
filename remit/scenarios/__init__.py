"""Scenarios: commercial situations as data, with expectations and a reference plan.

Example:
    >>> from remit.scenarios import builtin_scenarios, scenario_by_id
    >>> scenario_by_id("discount-exception").expect.final_state
    <QuoteState.ACCEPTED: 'accepted'>
"""

from __future__ import annotations

from remit.scenarios.builtin import UnknownScenarioError, builtin_scenarios, scenario_by_id
from remit.scenarios.files import (
    ScenarioFileError,
    ScenarioFormat,
    dump_scenario,
    export_suite,
    load_scenario,
    load_suite,
    scenario_schema,
)
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
from remit.scenarios.spec import (
    DEFAULT_TOLERATED,
    Expectations,
    PersonaConfig,
    Perturbation,
    PlanStep,
    RequiredAsk,
    RequiredEntry,
    RequiredTransition,
    Scenario,
)
from remit.scenarios.suite import Suite, UnknownScenarioInSuiteError, canonical_json

__all__ = [
    "DEFAULT_QUOTE_ID",
    "DEFAULT_TOLERATED",
    "Expectations",
    "PersonaConfig",
    "Perturbation",
    "PlanLine",
    "PlanStep",
    "RequiredAsk",
    "RequiredEntry",
    "RequiredTransition",
    "Scenario",
    "ScenarioFileError",
    "ScenarioFormat",
    "Suite",
    "UnknownScenarioError",
    "UnknownScenarioInSuiteError",
    "ask",
    "builtin_scenarios",
    "canonical_json",
    "consent_request",
    "dump_scenario",
    "edit_lines",
    "export_suite",
    "fit_review_steps",
    "load_scenario",
    "load_suite",
    "order_steps",
    "quote_steps",
    "sale_steps",
    "scenario_by_id",
    "scenario_schema",
    "write",
]
