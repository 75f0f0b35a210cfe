"""Rows from domain models, and domain models back from rows.

Everything that has a pydantic model is stored as that model's JSON (the manifest, the
score, each trail entry) and read back with the same model, so a record read back equals
the record written. The trail of a trial is decoded in one call: its payloads are joined
into one JSON array and validated as ``list[TrailEntry]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from pydantic import TypeAdapter

from remit.harness import RunManifest, ScoredTrial, TrialRecord, TrialScore
from remit.harness.tally import figures
from remit.store.database import RowValue
from remit.world import TrailEntry

__all__ = [
    "TrailRow",
    "manifest_from_json",
    "record_from_row",
    "run_row",
    "trail_from_payloads",
    "trail_rows",
    "trial_id_for",
    "trial_row",
    "utc",
]

_TRAIL = TypeAdapter(list[TrailEntry])
"""Validates a whole trail from one JSON array (immutable; built once at import)."""



def trial_id_for(run_id: str, scenario_id: str, mode: str, trial: int) -> str:
    """A trial's id: ``RUN/SCENARIO/MODE/TRIAL``, readable and derived from its unique key."""
    return f"{run_id}/{scenario_id}/{mode}/{trial}"


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive value (SQLite stores no offset) is taken as UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def run_row(manifest: RunManifest) -> dict[str, RowValue]:
    """The ``runs`` row of a manifest."""
    return {
        "run_id": manifest.run_id,
        "suite_id": manifest.suite_id,
        "suite_fingerprint": manifest.suite_fingerprint,
        "scorer_version": manifest.scorer_version,
        "agent_id": manifest.agent_id,
        "modes": json.dumps([m.name for m in manifest.modes]),
        "started_at": utc(manifest.started_at),
        "ended_at": None if manifest.ended_at is None else utc(manifest.ended_at),
        "manifest": manifest.model_dump_json(),
    }


def manifest_from_json(payload: str) -> RunManifest:
    """The manifest stored in a ``runs`` row."""
    return RunManifest.model_validate_json(payload)


def trial_row(run_id: str, record: TrialRecord) -> dict[str, RowValue]:
    """The ``trials`` row of a record (without ``pk``, which the database assigns), its
    score's figures included."""
    scored = record.scored
    return {
        "trial_id": trial_id_for(run_id, scored.scenario_id, scored.mode, scored.trial),
        "run_id": run_id,
        "scenario_id": scored.scenario_id,
        "mode": scored.mode,
        "trial": scored.trial,
        "seed": str(record.seed),
        "passed": scored.score.passed,
        "attempts": record.attempts,
        "infra_error": record.infra_error,
        "score": scored.score.model_dump_json(),
        "seconds": record.seconds,
        **figures(scored.score),
    }


TrailRow = tuple[int, str, int, int, str]
"""One trail entry as the ``events`` table keeps it: (seq, kind, step, minute, payload)."""


def trail_rows(record: TrialRecord) -> list[TrailRow]:
    """The ``events`` rows of a record's trail without the trial's key, ``seq`` counting
    from 0; each payload is the entry's ``model_dump_json()``."""
    return [(seq, entry.kind, entry.step, entry.minute,
             entry.__pydantic_serializer__.to_json(entry).decode())  # model_dump_json()
            for seq, entry in enumerate(record.trail)]


def trail_from_payloads(payloads: Sequence[str]) -> tuple[TrailEntry, ...]:
    """The trail whose entries' JSON payloads are ``payloads``, in order."""
    if not payloads:
        return ()
    return tuple(_TRAIL.validate_json("[" + ",".join(payloads) + "]"))


def record_from_row(*, scenario_id: str, mode: str, trial: int, seed: str, attempts: int,
                    infra_error: str | None, score: str,
                    trail: tuple[TrailEntry, ...], seconds: float | None = None) -> TrialRecord:
    """The record stored in a ``trials`` row and its events."""
    scored = ScoredTrial(scenario_id=scenario_id, mode=mode, trial=trial,
                         score=TrialScore.model_validate_json(score))
    return TrialRecord(scored=scored, seed=int(seed), trail=trail, attempts=attempts,
                       infra_error=infra_error, seconds=seconds)
