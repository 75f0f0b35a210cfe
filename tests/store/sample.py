"""Sample data for the store tests: manifests, and the key records are ordered on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from remit.actors import AgentUsage, load_agent_factory
from remit.authority import builtin_modes
from remit.catalogue import Money
from remit.harness import ModeManifest, RunManifest, TrialRecord, run
from remit.scenarios import Scenario
from remit.store.tables import FIGURE_COLUMNS

STARTED = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)

ManifestFactory = Callable[..., RunManifest]


def record_key(record: TrialRecord) -> tuple[str, str, int]:
    """The key records are ordered and unique on."""
    return record.scored.scenario_id, record.scored.mode, record.scored.trial


def sample_manifest(run_id: str, index: int = 0) -> RunManifest:
    """A manifest for ``run_id``; a later ``index`` starts later."""
    modes = tuple(ModeManifest(name=m.name, fingerprint=m.fingerprint, map_hash=f"map-{i}")
                  for i, m in enumerate(builtin_modes().values()))
    return RunManifest(
        run_id=run_id, remit_version="0.1.0", git_commit="abc123", git_dirty=False,
        suite_id="builtin", suite_fingerprint="f" * 64, modes=modes, agent_id="oracle",
        agent_config_hash="c" * 64, agent_config={"temperature": 0.0},
        persona_config_hash="p" * 64, trials=2, seed=7,
        started_at=STARTED + timedelta(minutes=index), metadata={"note": "store test"})


DROP_FIGURES = tuple(f"ALTER TABLE trials DROP COLUMN {name}" for name in FIGURE_COLUMNS)
"""What turns a schema 3 database back into schema 2: no figure columns."""


_AGENTS = ("baseline", "claiming", "abandoning", "overreaching", "guessing")


def _changed(record: TrialRecord, index: int) -> TrialRecord:
    """Every seventh record changed as trials of other runs are."""
    score = record.scored.score
    change = index // 7 % 6
    if index % 7 or not change:
        return record
    if change == 1:
        return record.model_copy(update={"infra_error": "TimeoutError: no reply",
                                         "attempts": 3})
    if change == 2:
        usage = AgentUsage(model_calls=3 + index, prompt_tokens=100 * index,
                           completion_tokens=7 * index, cost=Money.of(f"0.0{index % 9}"),
                           reply_issues={"invalid_json": index % 3, "unknown_tool": 1})
        score = score.model_copy(update={"usage": usage})
    elif change == 3:
        score = score.model_copy(update={"agent_writes": None})
    elif change == 4:
        score = score.model_copy(update={"handoffs": 0, "abandoned_handoffs": 2})
    else:
        score = score.model_copy(update={"end_reason": "agent_error", "passed": False})
    return record.model_copy(update={"scored": record.scored.model_copy(
        update={"score": score})})


def varied_records_of(scenarios: Sequence[Scenario]) -> list[TrialRecord]:
    """Records of one run whose scores differ in every figure (see the ``varied_records``
    fixture of ``tests/store/conftest.py``)."""
    modes = list(builtin_modes().values())
    records = []
    for number, agent in enumerate(_AGENTS):
        result = run(scenarios, modes, load_agent_factory(agent), trials=2, seed=7 + number)
        for record in result.trials:
            scored = record.scored.model_copy(update={"trial": 2 * number + record.scored.trial})
            records.append(record.model_copy(update={"scored": scored}))
    return [_changed(record, index) for index, record in enumerate(records)]
