"""The manifest of a run: everything needed to reproduce it and to know what it compares to.

Two runs are comparable when their suite fingerprint and scorer version agree; the
manifest records those and everything else a reader needs to trust a number: remit's
version, the git commit (and whether the tree was dirty), each mode's map fingerprint,
the agent and its configuration hash, the persona configuration, trials, seed, and the
error treatment (how infrastructure errors were handled).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

__all__ = [
    "SCORER_VERSION",
    "AgentIdentity",
    "ErrorTreatment",
    "ModeManifest",
    "RunManifest",
    "ScenarioSelection",
]

SCORER_VERSION = "2"
"""Bumped whenever scoring changes what a trial's score means; runs scored by different
versions are not comparable."""


class ErrorTreatment(BaseModel):
    """How a run treats errors, pinned in its manifest.

    Agent errors (the agent raised or returned garbage) always count as failures.
    Infrastructure errors (timeouts, rate limits, a crashed agent process) are retried
    ``retries`` times; a trial whose retries run out is recorded as an error and then
    either excluded from the aggregates or counted as a failure.

    Attributes:
        retries: attempts after the first, for infrastructure errors.
        on_exhausted: ``exclude`` the trial from aggregates, or count it as a ``failure``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    retries: int = Field(default=2, ge=0)
    on_exhausted: Literal["exclude", "failure"] = "exclude"


class ModeManifest(BaseModel):
    """One control mode of a run: its name and fingerprint (map hash and flags)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    fingerprint: str
    map_hash: str


class AgentIdentity(BaseModel):
    """Which code played the agent, so that two different agents never look like one.

    Attributes:
        import_path: ``package.module:attribute`` of the agent factory (for built-in agents
            too, e.g. ``remit.actors.baseline:BaselineAgent``); ``None`` when the factory
            cannot be named (a lambda, a local function).
        code_hash: SHA-256 hex over the source of the module(s) that define the factory
            (the factory's module, and the agent class's module when it differs);
            ``None`` when no source can be read.
        modules: the modules hashed, in hashing order.
        declared_config: the configuration the agent declares about itself (a
            ``remit_config`` attribute or method of the factory), JSON-compatible.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    import_path: str | None = None
    code_hash: str | None = None
    modules: tuple[str, ...] = ()
    declared_config: dict[str, JsonValue] = {}


class ScenarioSelection(BaseModel):
    """Which of a suite's scenarios a run selected (``--scenario``, ``-k``, ``--tag``,
    ``--sample``); the default selects them all.

    The selected scenarios form their own suite, whose fingerprint the manifest records,
    so runs over different selections are never compared as one suite.

    Attributes:
        scenario_ids: ids given with ``--scenario`` (empty: no id filter).
        keyword: the ``-k`` expression, if any.
        tags: tags given with ``--tag`` (a scenario is kept when it has any of them).
        sample: ``--sample N``: at most N scenarios drawn after the filters.
        sample_seed: the seed of that draw.
        selected: how many scenarios the selection kept.
        total: how many scenarios the suite has.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario_ids: tuple[str, ...] = ()
    keyword: str | None = None
    tags: tuple[str, ...] = ()
    sample: int | None = Field(default=None, ge=1)
    sample_seed: int | None = None
    selected: int = Field(default=0, ge=0)
    total: int = Field(default=0, ge=0)

    @property
    def is_all(self) -> bool:
        """Whether nothing was filtered out."""
        return (not self.scenario_ids and self.keyword is None and not self.tags
                and self.sample is None)


class RunManifest(BaseModel):
    """What a run was: provenance, configuration and comparability keys.

    Attributes:
        run_id: the run's id.
        remit_version: the installed remit version.
        git_commit: the working directory's commit, if it is a git checkout.
        git_dirty: whether the working tree had uncommitted changes (``None``: unknown).
        suite_id, suite_fingerprint: what was run.
        scorer_version: :data:`SCORER_VERSION` at run time.
        modes: each mode with its fingerprint.
        agent_id: the agent spec (``baseline``, ``openai:MODEL``, ``pkg.mod:factory``).
        agent_config_hash: hash of the agent's configuration (model, temperature, prompt).
        agent_config: the configuration itself (for LLM agents: model, temperature...).
        agent: the agent's code identity (import path, source hash, declared config);
            ``None`` in runs stored before it was recorded.
        selection: the scenario selection; ``None`` when the whole suite ran (and in runs
            stored before selections existed).
        persona_config_hash: hash of the scenarios' persona configurations.
        trials: trials per scenario and mode.
        seed: the run seed.
        error_treatment: how infrastructure errors were handled.
        started_at, ended_at: aware UTC times (``ended_at`` is ``None`` while running).
        metadata: free-form extras (cache mode of LLM runs, notes).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: str
    remit_version: str
    git_commit: str | None = None
    git_dirty: bool | None = None
    suite_id: str
    suite_fingerprint: str
    scorer_version: str = SCORER_VERSION
    modes: tuple[ModeManifest, ...]
    agent_id: str
    agent_config_hash: str
    agent_config: dict[str, JsonValue] = {}
    agent: AgentIdentity | None = None
    selection: ScenarioSelection | None = None
    persona_config_hash: str
    trials: int = Field(ge=1)
    seed: int
    error_treatment: ErrorTreatment = ErrorTreatment()
    started_at: AwareDatetime
    ended_at: AwareDatetime | None = None
    metadata: dict[str, JsonValue] = {}

    def finished(self, at: datetime) -> RunManifest:
        """A copy with ``ended_at`` set."""
        return self.model_copy(update={"ended_at": at})
