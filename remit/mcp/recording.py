"""Storing the trials played over MCP as one run, named after the client that played it.

A session's trials become one run: its manifest is written when the first trial has
been scored, each trial is saved the moment it ends (one transaction each, as ``remit
run`` does), and the run is marked ended when the last trial has been played or the
client has gone. The manifest names the suite and selection played (so ``remit
compare`` pairs the run with other runs of those scenarios), the modes, trials and run
seed, and the metadata ``driver: mcp``.

The agent is the client: :class:`McpClient` turns the name and version it gave in the
MCP handshake (``clientInfo``) into the agent id ``mcp:NAME@VERSION``, the agent
configuration ``{"client": NAME, "client_version": VERSION}`` and an
:class:`~remit.harness.AgentIdentity` that says what is known: no import path and no
code hash (the client's code is outside remit), the name and version as its declared
configuration. Two clients, or two versions of one, are two agents.

Example:
    >>> recorder = RunRecorder(store, target, started_at=started)      # doctest: +SKIP
    >>> recorder.save(record, McpClient(name="my-agent", version="1.2"))  # doctest: +SKIP
    'r-20261129-153012-4f9c2a'
    >>> recorder.finish()                                              # doctest: +SKIP
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.harness import AgentIdentity, RunManifest, TrialRecord, build_manifest, new_run_id
from remit.mcp.target import McpTarget
from remit.store import Store

__all__ = ["DRIVER_KEY", "MCP_AGENT_ID", "McpClient", "RunRecorder"]

MCP_AGENT_ID = "mcp-client"
"""The agent id of runs played by a client that gave no name."""

DRIVER_KEY = "driver"
"""Manifest metadata key saying how the run was driven (``mcp``)."""


class McpClient(BaseModel):
    """The client as it named itself in the MCP handshake.

    Attributes:
        name: ``clientInfo.name``, ``None`` if it gave none.
        version: ``clientInfo.version``, ``None`` if it gave none.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = None
    version: str | None = None

    @property
    def agent_id(self) -> str:
        """``mcp:NAME@VERSION`` (``mcp:NAME`` without a version; :data:`MCP_AGENT_ID`
        without a name)."""
        if not self.name:
            return MCP_AGENT_ID
        return f"mcp:{self.name}@{self.version}" if self.version else f"mcp:{self.name}"

    @property
    def label(self) -> str:
        """``NAME@VERSION`` for messages (``(unnamed)`` without a name)."""
        return self.agent_id.removeprefix("mcp:") if self.name else "(unnamed)"

    def agent_config(self) -> dict[str, JsonValue]:
        """The run's agent configuration: the client's name and version."""
        return {"client": self.name, "client_version": self.version}

    def identity(self) -> AgentIdentity:
        """What is known of the client's code: nothing but its name and version."""
        return AgentIdentity(import_path=None, code_hash=None,
                             declared_config=self.agent_config())


class RunRecorder:
    """One MCP session's run in the store: created with its first trial, ended once.

    Args:
        store: where to record.
        target: the suite, selection, modes, trials and seed played.
        started_at: when the session started (aware).

    Attributes:
        run_id: the run's id, once its first trial has been saved.
        client: the client the run is recorded for, from then on.
    """

    def __init__(self, store: Store, target: McpTarget, *, started_at: datetime) -> None:
        self.run_id: str | None = None
        self.client: McpClient | None = None
        self._store = store
        self._target = target
        self._started_at = started_at
        self._ended = False

    def manifest(self, client: McpClient) -> RunManifest:
        """The manifest the run is created with, for ``client``.

        Raises:
            ManifestError: ``started_at`` is naive.
        """
        target = self._target
        return build_manifest(
            run_id=new_run_id(self._started_at), suite=target.suite, modes=target.modes,
            agent_id=client.agent_id, agent_config=client.agent_config(),
            agent=client.identity(), selection=target.selection, trials=target.trials,
            seed=target.seed, started_at=self._started_at,
            metadata={DRIVER_KEY: "mcp", **target.manifest_metadata()})

    def save(self, record: TrialRecord, client: McpClient) -> str:
        """Store ``record``, creating the run (for ``client``) with the first one; return
        the run's id.

        Raises:
            StoreError: the store refused the run or the trial.
        """
        if self.run_id is None:
            manifest = self.manifest(client)
            self._store.create_run(manifest)
            self.run_id, self.client = manifest.run_id, client
        self._store.save_trial(self.run_id, record)
        return self.run_id

    def finish(self) -> None:
        """Mark the run ended (once; nothing to do when no trial was saved).

        Raises:
            StoreError: the store refused.
        """
        if self.run_id is None or self._ended:
            return
        self._store.finish_run(self.run_id, datetime.now(UTC))
        self._ended = True
