"""Sample data for the store tests: manifests, and the key records are ordered on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from remit.authority import builtin_modes
from remit.harness import ModeManifest, RunManifest, TrialRecord

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
