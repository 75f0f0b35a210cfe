"""Storing a trial played over MCP as a run of its own.

A session's trial becomes a one-trial run: its manifest names the suite the scenario
came from (so ``remit compare`` pairs it with other runs of that suite by scenario),
the one mode, the agent id :data:`MCP_AGENT_ID` and, as the agent's configuration, the
name the client gave when it connected (so two clients hash apart). The client's code is
outside remit, so its identity (:class:`~remit.harness.AgentIdentity`) has no import
path, no code hash and no declared configuration: it says "unknown code", and the
client's name is all that tells two clients apart. The run is created, its trial saved
and the run finished in one go once the trial has ended.

Example:
    >>> run_id = record_trial(store, target, record, client="my-agent",
    ...                       run_seed=0, started_at=started)        # doctest: +SKIP
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import JsonValue

from remit.harness import AgentIdentity, TrialRecord, build_manifest, new_run_id
from remit.harness.modes import custom_mode_metadata
from remit.mcp.target import McpTarget
from remit.store import Store

__all__ = ["DRIVER_KEY", "MCP_AGENT_ID", "record_trial"]

MCP_AGENT_ID = "mcp-client"
"""The agent id of runs played by an external client over MCP."""

DRIVER_KEY = "driver"
"""Manifest metadata key saying how the run was driven (``mcp``)."""


def record_trial(store: Store, target: McpTarget, record: TrialRecord, *, client: str | None,
                 run_seed: int, started_at: datetime) -> str:
    """Store ``record`` as a new one-trial run of ``target``; return the run's id.

    Args:
        store: where to record.
        target: the suite, scenario and mode played.
        record: the scored trial.
        client: the MCP client's name (from its ``initialize``), ``None`` if unknown.
        run_seed: the run seed the trial's seed derives from.
        started_at: when the session started (aware).

    Raises:
        StoreError: the store refused the run or the trial.
        ManifestError: ``started_at`` is naive.
    """
    metadata: dict[str, JsonValue] = {DRIVER_KEY: "mcp", **target.manifest_metadata(),
                                      **custom_mode_metadata([target.mode])}
    manifest = build_manifest(
        run_id=new_run_id(started_at), suite=target.suite, modes=[target.mode],
        agent_id=MCP_AGENT_ID, agent_config={"client": client}, agent=AgentIdentity(),
        trials=1, seed=run_seed,
        started_at=started_at, metadata=metadata)
    store.create_run(manifest)
    store.save_trial(manifest.run_id, record)
    store.finish_run(manifest.run_id, datetime.now(UTC))
    return manifest.run_id
