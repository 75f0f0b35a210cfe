"""Runs the report tests read: a small fixed run of three handwritten scenarios, and
synthetic large runs made by repeating its records.

Everything that would vary between machines or days is fixed: the run id, the
manifest's times, remit's version, the git state (unknown), the report's time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness import RunManifest, RunResult, TrialRecord, build_manifest, run
from remit.scenarios import Suite, scenario_by_id

RUN_ID = "r-20260101-090000-abcdef"
STARTED = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
ENDED = datetime(2026, 1, 1, 9, 1, 30, tzinfo=UTC)
GENERATED = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
MODES = ("all_tools", "dual_control")
TRIALS = 2


def small_suite() -> Suite:
    """Three handwritten scenarios: one passes everywhere, one fails in all-tools (the
    agent accepts for the buyer), one fails in dual-control (finance never approves)."""
    return Suite(id="handwritten-3", scenarios=tuple(scenario_by_id(i) for i in (
        "actuator-pairing", "consent-withheld", "three-way-mismatch")))


def small_run(agent: str) -> tuple[RunManifest, RunResult, Suite]:
    """The fixed run of :func:`small_suite` in both modes, two trials, with ``agent``."""
    suite = small_suite()
    modes = [builtin_modes()[name] for name in MODES]
    manifest = build_manifest(run_id=RUN_ID, suite=suite, modes=modes, agent_id=agent,
                              agent_config={}, trials=TRIALS, seed=0, started_at=STARTED,
                              cwd="/")
    manifest = manifest.model_copy(update={"remit_version": "0.0.0", "git_commit": None,
                                            "git_dirty": None, "ended_at": ENDED})
    result = run(suite.scenarios, modes, load_agent_factory(agent), trials=TRIALS, seed=0)
    return manifest, result, suite


def repeated(records: Sequence[TrialRecord], total: int, *, trials: int) -> list[TrialRecord]:
    """About ``total`` synthetic records: copies of ``records``' scenarios (``id-c0``,
    ``id-c1``...) with ``trials`` trials per scenario and mode, each a copy of one of
    the original trials with a new trial index."""
    by_key: dict[tuple[str, str], list[TrialRecord]] = {}
    for record in records:
        by_key.setdefault((record.scored.scenario_id, record.scored.mode), []).append(record)
    out: list[TrialRecord] = []
    copy = 0
    while len(out) < total:
        for (scenario_id, _mode), originals in by_key.items():
            for index in range(trials):
                source = originals[index % len(originals)]
                scored = source.scored.model_copy(
                    update={"scenario_id": f"{scenario_id}-c{copy}", "trial": index})
                out.append(source.model_copy(update={"scored": scored}))
        copy += 1
    return out
