"""The harness: the turn loop, the runner, scoring and aggregation.

Example:
    >>> from remit.actors import oracle_factory
    >>> from remit.authority import builtin_modes
    >>> from remit.harness import run
    >>> from remit.scenarios import builtin_scenarios
    >>> result = run(builtin_scenarios(), list(builtin_modes().values()), oracle_factory)
    >>> result.summaries["dual_control"].pass_hat_k[1]
    1.0
"""

from __future__ import annotations

from remit.harness.aggregate import (
    AggregationError,
    ModeSummary,
    ScoredTrial,
    aggregate,
    reply_issues_by_kind,
    summaries_of,
    summarise,
    summary_of,
)
from remit.harness.check import ScenarioCheck, check_path, check_scenario, collection_failure
from remit.harness.claims import ClaimCheck, ClaimSource, check_claim, check_claims, extract_claims
from remit.harness.compare import (
    Comparison,
    Flip,
    MissingScenario,
    NotComparableError,
    Side,
    SideReport,
    compare,
    mcnemar_exact_p,
    paired_bootstrap,
)
from remit.harness.gates import Gate, GateError, GateResult, check_gates, parse_gates
from remit.harness.heap import FRESH_THRESHOLDS, RARE_FULL_COLLECTIONS, run_heap
from remit.harness.manifest import (
    SCORER_VERSION,
    AgentIdentity,
    ErrorTreatment,
    ModeManifest,
    RunManifest,
    ScenarioSelection,
)
from remit.harness.modes import ModeFileError, load_mode, load_modes
from remit.harness.orchestrator import (
    AGENT_STEP_MINUTES,
    TrialLoop,
    briefing_for,
    drive,
    run_trial,
    run_trial_async,
    trial_seed,
    world_for,
)
from remit.harness.outcome import (
    BrokenTrial,
    ExpectationError,
    ScenarioOutcome,
    ScenarioRunner,
    run_scenario,
)
from remit.harness.pool import run_in_workers
from remit.harness.provenance import (
    ManifestError,
    agent_config_hash,
    agent_identity,
    build_manifest,
    git_revision,
    new_run_id,
)
from remit.harness.rates import (
    RATES,
    Rate,
    aggregable,
    measured_only,
    scorer_note,
    unkept,
    unmeasured,
)
from remit.harness.ray_executor import (
    ExecutorError,
    RayExecutor,
    check_portable,
    parse_resources,
)
from remit.harness.runner import (
    RunResult,
    TrialExecutor,
    TrialKey,
    TrialRecord,
    execution_order,
    plan_trials,
    result_of,
    run,
    run_async,
    run_one,
)
from remit.harness.scoring import NO_VALID_WRITE, TrialScore, reply_issues_text, score_trial
from remit.harness.selection import SelectionError, apply_selection, parse_keyword, select
from remit.harness.settings import RunSettings, SettingsError
from remit.harness.spool import SpooledOutcome, read_spool, spool_outcome
from remit.harness.stats import Interval, pass_hat_k, pass_hat_k_curve, wilson
from remit.harness.suites import (
    CORE_SEED,
    CORE_SIZE,
    CoreBuild,
    UnknownSuiteError,
    build_core,
    builtin_suite,
    suite_names,
)
from remit.harness.tally import ScenarioTally, Tally, UsageTally, tally_records, tally_scores
from remit.harness.tradeoff import PairedMetric, paired_metrics
from remit.harness.verify import (
    RULES,
    PlanReplay,
    ScenarioProblem,
    ScenarioRule,
    plan_checks,
    plan_problems,
    replay_checks,
    replay_plan,
    verify_scenario,
)
from remit.harness.workers import (
    WorkerFailedError,
    WorkersError,
    check_workers,
    start_method,
)

__all__ = [
    "AGENT_STEP_MINUTES",
    "CORE_SEED",
    "CORE_SIZE",
    "FRESH_THRESHOLDS",
    "NO_VALID_WRITE",
    "RARE_FULL_COLLECTIONS",
    "RATES",
    "RULES",
    "SCORER_VERSION",
    "AgentIdentity",
    "AggregationError",
    "BrokenTrial",
    "ClaimCheck",
    "ClaimSource",
    "Comparison",
    "CoreBuild",
    "ErrorTreatment",
    "ExecutorError",
    "ExpectationError",
    "Flip",
    "Gate",
    "GateError",
    "GateResult",
    "Interval",
    "ManifestError",
    "MissingScenario",
    "ModeFileError",
    "ModeManifest",
    "ModeSummary",
    "NotComparableError",
    "PairedMetric",
    "PlanReplay",
    "Rate",
    "RayExecutor",
    "RunManifest",
    "RunResult",
    "RunSettings",
    "ScenarioCheck",
    "ScenarioOutcome",
    "ScenarioProblem",
    "ScenarioRule",
    "ScenarioRunner",
    "ScenarioSelection",
    "ScenarioTally",
    "ScoredTrial",
    "SelectionError",
    "SettingsError",
    "Side",
    "SideReport",
    "SpooledOutcome",
    "Tally",
    "TrialExecutor",
    "TrialKey",
    "TrialLoop",
    "TrialRecord",
    "TrialScore",
    "UnknownSuiteError",
    "UsageTally",
    "WorkerFailedError",
    "WorkersError",
    "agent_config_hash",
    "agent_identity",
    "aggregable",
    "aggregate",
    "apply_selection",
    "briefing_for",
    "build_core",
    "build_manifest",
    "builtin_suite",
    "check_claim",
    "check_claims",
    "check_gates",
    "check_path",
    "check_portable",
    "check_scenario",
    "check_workers",
    "collection_failure",
    "compare",
    "drive",
    "execution_order",
    "extract_claims",
    "git_revision",
    "load_mode",
    "load_modes",
    "mcnemar_exact_p",
    "measured_only",
    "new_run_id",
    "paired_bootstrap",
    "paired_metrics",
    "parse_gates",
    "parse_keyword",
    "parse_resources",
    "pass_hat_k",
    "pass_hat_k_curve",
    "plan_checks",
    "plan_problems",
    "plan_trials",
    "read_spool",
    "replay_checks",
    "replay_plan",
    "reply_issues_by_kind",
    "reply_issues_text",
    "result_of",
    "run",
    "run_async",
    "run_heap",
    "run_in_workers",
    "run_one",
    "run_scenario",
    "run_trial",
    "run_trial_async",
    "score_trial",
    "scorer_note",
    "select",
    "spool_outcome",
    "start_method",
    "suite_names",
    "summaries_of",
    "summarise",
    "summary_of",
    "tally_records",
    "tally_scores",
    "trial_seed",
    "unkept",
    "unmeasured",
    "verify_scenario",
    "wilson",
    "world_for",
]
