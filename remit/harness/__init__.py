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

from remit.harness.aggregate import AggregationError, ModeSummary, ScoredTrial, aggregate, summarise
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
from remit.harness.manifest import SCORER_VERSION, ErrorTreatment, ModeManifest, RunManifest
from remit.harness.orchestrator import (
    AGENT_STEP_MINUTES,
    briefing_for,
    run_trial,
    run_trial_async,
    trial_seed,
    world_for,
)
from remit.harness.provenance import ManifestError, build_manifest, git_revision, new_run_id
from remit.harness.runner import (
    RunResult,
    TrialKey,
    TrialRecord,
    plan_trials,
    result_of,
    run,
    run_async,
    run_one,
)
from remit.harness.scoring import TrialScore, score_trial
from remit.harness.stats import Interval, pass_hat_k, pass_hat_k_curve, wilson

__all__ = [
    "AGENT_STEP_MINUTES",
    "SCORER_VERSION",
    "AggregationError",
    "ClaimCheck",
    "ClaimSource",
    "Comparison",
    "ErrorTreatment",
    "Flip",
    "Interval",
    "ManifestError",
    "MissingScenario",
    "ModeManifest",
    "ModeSummary",
    "NotComparableError",
    "RunManifest",
    "RunResult",
    "ScoredTrial",
    "Side",
    "SideReport",
    "TrialKey",
    "TrialRecord",
    "TrialScore",
    "aggregate",
    "briefing_for",
    "build_manifest",
    "check_claim",
    "check_claims",
    "compare",
    "extract_claims",
    "git_revision",
    "mcnemar_exact_p",
    "new_run_id",
    "paired_bootstrap",
    "pass_hat_k",
    "pass_hat_k_curve",
    "plan_trials",
    "result_of",
    "run",
    "run_async",
    "run_one",
    "run_trial",
    "run_trial_async",
    "score_trial",
    "summarise",
    "trial_seed",
    "wilson",
    "world_for",
]
