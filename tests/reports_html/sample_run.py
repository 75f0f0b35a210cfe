"""The run the HTML report tests render: four handwritten scenarios in all-tools and
dual-control, two trials each, with the baseline agent, and a synthetic large run made
by repeating its records with new trial indices.

Everything that would vary between machines or days is fixed: the run id, the
manifest's times, remit's version, the git state (unknown) and the report's time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness import RunManifest, TrialRecord, build_manifest, run
from remit.reports.build import build_report
from remit.reports.model import RunReport
from remit.scenarios import Suite, scenario_by_id

RUN_ID = "r-20260101-090000-c0ffee"
STARTED = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
ENDED = datetime(2026, 1, 1, 9, 2, tzinfo=UTC)
GENERATED = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
MODES = ("all_tools", "dual_control")
TRIALS = 2
SCENARIOS = ("actuator-pairing", "consent-withheld", "unresponsive-finance",
             "three-way-mismatch")
"""One passes everywhere; consent-withheld fails in all-tools (the agent accepts for
the buyer); unresponsive-finance and three-way-mismatch fail in dual-control."""

FAILING_ALL_TOOLS = "consent-withheld"
"""A scenario whose all-tools trials fail because the agent used other roles' grants."""

STOPPED_WRITE = ("three-way-mismatch", "all_tools")
"""A scenario and mode whose kept trail has an allowed write stopped by its guard: the
agent releases payment under finance's authority against a mismatched invoice."""


def small_run() -> tuple[RunManifest, tuple[TrialRecord, ...], Suite]:
    """The fixed run: manifest, records (with trails) and suite."""
    suite = Suite(id="handwritten-4", scenarios=tuple(scenario_by_id(i) for i in SCENARIOS))
    modes = [builtin_modes()[name] for name in MODES]
    manifest = build_manifest(run_id=RUN_ID, suite=suite, modes=modes, agent_id="baseline",
                              agent_config={}, trials=TRIALS, seed=0, started_at=STARTED,
                              cwd="/")
    manifest = manifest.model_copy(update={"remit_version": "0.0.0", "git_commit": None,
                                            "git_dirty": None, "ended_at": ENDED})
    result = run(suite.scenarios, modes, load_agent_factory("baseline"), trials=TRIALS,
                 seed=0)
    return manifest, result.trials, suite


def repeated(records: Sequence[TrialRecord], per_group: int) -> list[TrialRecord]:
    """``per_group`` trials per (scenario, mode): copies of the real trials, in turn,
    with new trial indices, in run order (scenario, mode, trial)."""
    groups: dict[tuple[str, str], list[TrialRecord]] = {}
    for record in records:
        groups.setdefault((record.scored.scenario_id, record.scored.mode), []).append(record)
    out: list[TrialRecord] = []
    for originals in groups.values():
        for index in range(per_group):
            source = originals[index % len(originals)]
            scored = source.scored.model_copy(update={"trial": index})
            out.append(source.model_copy(update={"scored": scored}))
    return out


def large_report(manifest: RunManifest, records: Sequence[TrialRecord], suite: Suite,
                 total: int) -> RunReport:
    """A report of ``total`` trials (rounded up to whole groups) repeated from a run."""
    groups = len({(r.scored.scenario_id, r.scored.mode) for r in records})
    per_group = -(-total // groups)
    big = repeated(records, per_group)
    manifest = manifest.model_copy(update={"trials": per_group})
    return build_report(manifest, big, suite, generated_at=GENERATED, resamples=200)
