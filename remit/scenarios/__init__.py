"""Scenarios: commercial situations as data, with expectations and a reference plan.

Example:
    >>> from remit.scenarios import builtin_scenarios, scenario_by_id
    >>> scenario_by_id("discount-exception").expect.final_state
    <QuoteState.ACCEPTED: 'accepted'>
"""

from __future__ import annotations

from remit.scenarios.builtin import UnknownScenarioError, builtin_scenarios, scenario_by_id
from remit.scenarios.compose import (
    Combination,
    CompositionError,
    Rejection,
    RejectionReason,
    combinations,
    compose,
    composition_space,
    rejection_counts,
    required_handoffs,
    situations,
    space_size,
    validate,
)
from remit.scenarios.files import (
    FILE_KEY_ORDER,
    SCENARIO_FILE_PATTERNS,
    ScenarioFileError,
    ScenarioFormat,
    dump_scenario,
    export_suite,
    is_scenario_file,
    load_scenario,
    load_suite,
    readable_data,
    scenario_files,
    scenario_schema,
)
from remit.scenarios.groups import (
    CommercialGroup,
    LifecycleGroup,
    ProductGroup,
    ScenarioDraft,
    group_slug,
)
from remit.scenarios.groups_perturbation import PERTURBATION_VARIANTS, PerturbationVariant
from remit.scenarios.groups_product import Situation
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
from remit.scenarios.sampling import Bin, Sample, bin_of, sample
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
    "FILE_KEY_ORDER",
    "PERTURBATION_VARIANTS",
    "SCENARIO_FILE_PATTERNS",
    "Bin",
    "Combination",
    "CommercialGroup",
    "CompositionError",
    "Expectations",
    "LifecycleGroup",
    "PersonaConfig",
    "Perturbation",
    "PerturbationVariant",
    "PlanLine",
    "PlanStep",
    "ProductGroup",
    "Rejection",
    "RejectionReason",
    "RequiredAsk",
    "RequiredEntry",
    "RequiredTransition",
    "Sample",
    "Scenario",
    "ScenarioDraft",
    "ScenarioFileError",
    "ScenarioFormat",
    "Situation",
    "Suite",
    "UnknownScenarioError",
    "UnknownScenarioInSuiteError",
    "ask",
    "bin_of",
    "builtin_scenarios",
    "canonical_json",
    "combinations",
    "compose",
    "composition_space",
    "consent_request",
    "dump_scenario",
    "edit_lines",
    "export_suite",
    "fit_review_steps",
    "group_slug",
    "is_scenario_file",
    "load_scenario",
    "load_suite",
    "order_steps",
    "quote_steps",
    "readable_data",
    "rejection_counts",
    "required_handoffs",
    "sale_steps",
    "sample",
    "scenario_by_id",
    "scenario_files",
    "scenario_schema",
    "situations",
    "space_size",
    "validate",
    "write",
]
