"""Runs that last: execute a run into the store as it goes, and resume one.

:func:`start_run` writes the manifest first, then the trials as they finish, a batch
per transaction (:class:`~remit.store.writer.TrialWriter`: at most 64 trials or half a
second apart, and whatever is left when the run ends or is interrupted), so an
interrupted run keeps every finished trial and one killed outright loses at most its
last batch.
:func:`resume_run` rebuilds the same suite, modes and agent from the manifest, refuses
if the suite or a mode has changed since (their fingerprints would differ), and runs
only the trials the store does not hold. Trial seeds derive from the run seed, so a
resumed run ends with exactly the records an uninterrupted one would have.

A run over a selection of a suite's scenarios (``--scenario``, ``-k``, ``--tag``,
``--sample``) records the selection in its manifest, the selected scenarios' fingerprint
as the suite fingerprint and the whole suite's fingerprint in its metadata
(``whole_suite_fingerprint``); a resume rebuilds the whole suite, applies the selection
again and refuses unless it gives the same scenarios.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from pydantic import JsonValue

from remit.actors import AgentFactory, load_agent_factory
from remit.actors.llm import is_llm_spec, llm_agent_factory, llm_config_from_manifest
from remit.authority import ControlMode, ModeError
from remit.errors import RemitError
from remit.harness import (
    SCORER_VERSION,
    AgentIdentity,
    ErrorTreatment,
    RunManifest,
    RunResult,
    ScenarioSelection,
    SelectionError,
    TrialExecutor,
    TrialRecord,
    agent_identity,
    apply_selection,
    build_manifest,
    builtin_suite,
    check_workers,
    drive,
    new_run_id,
    plan_trials,
    result_of,
    run_async,
    run_heap,
    select,
    suite_names,
)
from remit.harness.modes import custom_mode_metadata, modes_from_metadata
from remit.harness.outcome import ScenarioOutcome
from remit.harness.session import MergedAgent, Repeat, merge_session
from remit.harness.spool import SpooledOutcome
from remit.scenarios import Scenario, Suite, load_suite
from remit.store.store import Store
from remit.store.writer import TrialWriter

__all__ = ["ResumeError", "SessionRun", "resolve_suite", "result_from_store", "resume_run",
           "select_from", "session_runs", "start_run", "suite_metadata", "suite_of"]

_SUITE_PATH = "suite_path"
_WHOLE_SUITE = "whole_suite_fingerprint"
_DRIVER = "driver"  # "mcp" for runs played by an external client (remit.mcp records it)
_EXECUTOR = "executor"
"""The metadata key naming where a run started its trials: ``local`` (this machine, in one
process or in worker processes) or ``ray``. How a run was executed, not what it is: no
comparability key (a run on Ray compares with one in one process), and a run resumed on
another executor keeps the one it started on."""


class ResumeError(RemitError, ValueError):
    """A run that cannot be resumed as it was started (its suite or a mode changed)."""


def resolve_suite(spec: str) -> Suite:
    """A built-in suite by name (``core``, ``handwritten``) or a directory of scenario files.

    Raises:
        UnknownSuiteError: neither a built-in name nor an existing directory.
        ScenarioFileError: the directory holds an invalid scenario file.
    """
    if spec in suite_names() or not Path(spec).is_dir():
        return builtin_suite(spec)
    return load_suite(spec)


def _suite_metadata(spec: str) -> dict[str, JsonValue]:
    if spec in suite_names():
        return {}
    return {_SUITE_PATH: str(Path(spec).resolve())}


def suite_metadata(spec: str, whole_fingerprint: str,
                   selection: ScenarioSelection | None) -> dict[str, JsonValue]:
    """The manifest metadata that lets a run's suite be rebuilt (:func:`suite_of`): a
    directory suite's path, and the whole suite's fingerprint when a selection was run.

    Args:
        spec: the suite as named (a built-in name or a directory).
        whole_fingerprint: the whole suite's fingerprint.
        selection: the selection run, if any.
    """
    selected: dict[str, JsonValue] = {} if selection is None \
        else {_WHOLE_SUITE: whole_fingerprint}
    return {**_suite_metadata(spec), **selected}


def select_from(suite: Suite, selection: ScenarioSelection | None
                ) -> tuple[Suite, ScenarioSelection | None]:
    """``suite`` narrowed by ``selection``'s filters, and the selection with its counts
    (:func:`remit.harness.select`); ``(suite, None)`` without filters.

    Raises:
        SelectionError: an unknown id or tag, or nothing selected.
    """
    if selection is None:
        return suite, None
    return select(suite, scenario_ids=selection.scenario_ids, keyword=selection.keyword,
                  tags=selection.tags, sample=selection.sample,
                  sample_seed=selection.sample_seed)


def start_run(store: Store, *, suite_spec: str, modes: Sequence[ControlMode],
              agent_id: str, trials: int, seed: int, concurrency: int = 1,
              error_treatment: ErrorTreatment | None = None,
              agent_config: Mapping[str, JsonValue] | None = None,
              factory: AgentFactory | None = None,
              identity: AgentIdentity | None = None,
              selection: ScenarioSelection | None = None,
              metadata: Mapping[str, JsonValue] | None = None,
              on_trial: Callable[[TrialRecord], None] | None = None,
              on_start: Callable[[RunManifest, int], None] | None = None,
              workers: int = 1, executor: TrialExecutor | None = None) -> RunResult:
    """Run ``suite_spec`` x ``modes`` x ``trials`` with ``agent_id``, recording as it goes.

    Args:
        store: where the run is recorded.
        suite_spec: a built-in suite name or a directory of scenario files.
        modes: the control modes.
        agent_id: the agent spec (a built-in name or ``module:factory``); recorded.
        trials, seed, concurrency, workers: as for :func:`remit.harness.run_async`
            (``workers`` is how the run is executed, not what it is: it is not recorded).
        error_treatment: how infrastructure errors are treated (retries, exclusion).
        agent_config: the agent's configuration, hashed into the manifest.
        factory: the agent factory, when it is not loadable from ``agent_id`` alone.
        identity: the agent's code identity (default: :func:`remit.harness.agent_identity`
            of the factory).
        selection: run only the scenarios these filters select (ids, ``-k``, tags,
            sample; the counts are filled in); recorded in the manifest.
        metadata: extra manifest metadata.
        on_trial: called after each trial is stored (progress).
        on_start: called with the manifest and the number of trials to run, once the
            run is recorded (so a caller can say how to resume it).
        executor: runs the trials elsewhere (:class:`~remit.harness.RayExecutor`); its
            name is recorded in the manifest's metadata (``executor``: ``local`` without
            one), which is no comparability key.

    Raises:
        SelectionError: the selection names an unknown id or tag, or keeps nothing.
        ManifestError: the agent's ``remit_config`` is not a dict of JSON values.
        WorkersError: ``workers`` cannot run this agent (nothing is recorded).
    """
    whole = resolve_suite(suite_spec)
    suite, chosen = select_from(whole, selection)
    treatment = error_treatment or ErrorTreatment()
    agent_factory = factory or load_agent_factory(agent_id)  # a bad spec records nothing
    if executor is None:
        check_workers(agent_factory, workers=workers, concurrency=concurrency)
    started = datetime.now(UTC)
    manifest = build_manifest(
        run_id=new_run_id(started), suite=suite, modes=modes, agent_id=agent_id,
        agent_config=dict(agent_config or {}),
        agent=identity if identity is not None else agent_identity(agent_factory),
        selection=chosen, trials=trials, seed=seed,
        error_treatment=treatment, started_at=started,
        metadata={**suite_metadata(suite_spec, whole.fingerprint, chosen),
                  **custom_mode_metadata(modes),
                  _EXECUTOR: "local" if executor is None else executor.name,
                  **dict(metadata or {})})
    store.create_run(manifest)
    if on_start is not None:
        on_start(manifest, len(suite) * len(modes) * trials)
    return _execute(store, manifest, suite, modes, agent_factory,
                    concurrency=concurrency, on_trial=on_trial, workers=workers,
                    executor=executor)


def _whole_suite(manifest: RunManifest, *, quick: bool) -> Suite:
    """The whole suite a run selected from (a directory's, or a built-in one). ``quick``:
    let ``core`` skip its plan replays when that gives the recorded fingerprint."""
    path = manifest.metadata.get(_SUITE_PATH)
    if isinstance(path, str):
        return load_suite(path)
    expected = manifest.metadata.get(_WHOLE_SUITE) if manifest.selection is not None \
        else manifest.suite_fingerprint
    return builtin_suite(manifest.suite_id,
                         fingerprint=expected if quick and isinstance(expected, str) else None)


def suite_of(manifest: RunManifest) -> Suite | None:
    """The suite a run ran (its selection applied), rebuilt from its manifest, or
    ``None`` when it cannot be (a pytest session's ad-hoc suite, a moved directory, or a
    suite that has changed since: its fingerprint must match the manifest's)."""
    if not isinstance(manifest.metadata.get(_SUITE_PATH), str) \
            and manifest.suite_id not in suite_names():
        return None
    try:
        suite = apply_selection(_whole_suite(manifest, quick=True), manifest.selection)
    except RemitError:
        return None
    return suite if suite.fingerprint == manifest.suite_fingerprint else None


def resume_run(store: Store, run_id: str, *, concurrency: int = 1,
               factory: AgentFactory | None = None,
               on_trial: Callable[[TrialRecord], None] | None = None,
               on_start: Callable[[RunManifest, int], None] | None = None,
               retry_errors: bool = False, workers: int = 1,
               executor: TrialExecutor | None = None) -> RunResult:
    """Run the trials of ``run_id`` that the store does not hold yet.

    Args:
        workers: processes running trials (as for :func:`remit.harness.run_async`); a
            run may be resumed with other ``workers`` and ``concurrency`` than it started
            with, since neither changes its trials.
        executor: runs the trials elsewhere (as for :func:`start_run`); a run may be
            resumed on another executor than it started on (its manifest keeps the
            first).
        retry_errors: also run again the trials that ended in an infrastructure error
            (after an outage, say): their records are deleted, once the run is known to
            be resumable, and replaced by the new attempts.

    Raises:
        UnknownRunError: no such run.
        ResumeError: the suite or a mode's fingerprint changed since the run started, or
            the run was scored by another scorer version (its trials and the new ones
            would not mean the same), or its trials were played by an MCP client.
        WorkersError: ``workers`` cannot run the run's agent (nothing is changed).
    """
    manifest = store.manifest(run_id)
    if manifest.scorer_version != SCORER_VERSION:
        raise ResumeError(
            f"cannot resume {run_id}: it was scored by scorer {manifest.scorer_version!r} and "
            f"this remit scores with scorer {SCORER_VERSION!r}, so its trials and new ones "
            "would not mean the same; start a new run")
    if manifest.metadata.get(_DRIVER) == "mcp":
        raise ResumeError(f"cannot resume {run_id}: its trials were played by an external MCP "
                          f"client ({manifest.agent_id}), which remit cannot play itself; serve "
                          "a new run to the client with `remit mcp serve`")
    path = manifest.metadata.get(_SUITE_PATH)
    if not isinstance(path, str) and manifest.suite_id not in suite_names():
        raise ResumeError(f"cannot resume {run_id}: its suite {manifest.suite_id!r} is neither "
                          "built in nor a directory of scenario files (a pytest session's "
                          "runs are not resumable); run it again instead")
    suite = _resumed_suite(manifest)
    try:
        modes = modes_from_metadata([m.name for m in manifest.modes], manifest.metadata)
    except ModeError as exc:
        raise ResumeError(f"cannot resume {run_id}: {exc}") from exc
    for mode, recorded in zip(modes, manifest.modes, strict=True):
        if mode.fingerprint != recorded.fingerprint:
            raise ResumeError(f"cannot resume {run_id}: mode {mode.name!r} has changed since "
                              "the run started; start a new run")
    agent_factory = factory or _factory_of(manifest)
    if executor is None:
        check_workers(agent_factory, workers=workers, concurrency=concurrency)
    if retry_errors:
        store.discard_errored(run_id)
    done = store.completed(run_id)
    if on_start is not None:
        total = len(suite) * len(modes) * manifest.trials
        on_start(manifest, total - len(done))
    return _execute(store, manifest, suite, modes, agent_factory,
                    concurrency=concurrency, on_trial=on_trial, done=done, workers=workers,
                    executor=executor)


def _resumed_suite(manifest: RunManifest) -> Suite:
    """The suite of a run to resume: the whole suite, its selection applied again, with
    the fingerprints the manifest recorded."""
    run_id, name = manifest.run_id, manifest.suite_id
    whole = _whole_suite(manifest, quick=False)
    selection = manifest.selection
    recorded = manifest.metadata.get(_WHOLE_SUITE) if selection is not None \
        else manifest.suite_fingerprint
    if isinstance(recorded, str) and whole.fingerprint != recorded:
        raise ResumeError(
            f"cannot resume {run_id}: suite {name!r} has changed since the run started "
            f"(fingerprint {whole.fingerprint[:12]} now, {recorded[:12]} then); start a new run")
    try:
        suite = apply_selection(whole, selection)
    except SelectionError as exc:
        raise ResumeError(f"cannot resume {run_id}: its scenario selection no longer applies "
                          f"to suite {name!r} ({exc.problem}); start a new run") from None
    if suite.fingerprint != manifest.suite_fingerprint:
        raise ResumeError(
            f"cannot resume {run_id}: the scenarios it selected from suite {name!r} have "
            f"changed since the run started (fingerprint {suite.fingerprint[:12]} now, "
            f"{manifest.suite_fingerprint[:12]} then); start a new run")
    return suite


def _factory_of(manifest: RunManifest) -> AgentFactory:
    """The agent a run was started with: an LLM agent with its recorded configuration
    (model, sampling, formats, cache mode), or whatever its spec names."""
    if is_llm_spec(manifest.agent_id):
        return llm_agent_factory(llm_config_from_manifest(
            manifest.agent_id, dict(manifest.agent_config), dict(manifest.metadata)))
    return load_agent_factory(manifest.agent_id)


def _execute(store: Store, manifest: RunManifest, suite: Suite, modes: Sequence[ControlMode],
             factory: AgentFactory, *, concurrency: int,
             on_trial: Callable[[TrialRecord], None] | None,
             done: set[tuple[str, str, int]] | None = None, workers: int = 1,
             executor: TrialExecutor | None = None) -> RunResult:
    kept: list[TrialRecord] = []  # a new run's trials, without their trails

    def saved(record: TrialRecord) -> None:
        if done is None:
            kept.append(record.model_copy(update={"trail": ()}))
        if on_trial is not None:
            on_trial(record)

    # The last batch is saved as the run ends: inside the run's heap too (see heap).
    with run_heap(), TrialWriter(store, manifest.run_id, on_saved=saved) as writer:
        drive(run_async(
            suite.scenarios, modes, factory, trials=manifest.trials, seed=manifest.seed,
            concurrency=concurrency, retries=manifest.error_treatment.retries,
            skip=done or set(), on_trial=writer.add, workers=workers, executor=executor))
    expected = len(plan_trials(suite.scenarios, modes, manifest.trials))
    if done is None and writer.skipped == 0:
        # Every trial of this new run was saved by this writer, as it is in hand: the
        # result is built from them rather than read back (as result_from_store would).
        if len(kept) == expected:
            store.finish_run(manifest.run_id, datetime.now(UTC))
        kept.sort(key=lambda r: (r.scored.scenario_id, r.scored.mode, r.scored.trial))
        return result_of(kept, [m.name for m in manifest.modes],
                         exclude_infra_errors=manifest.error_treatment.on_exhausted == "exclude")
    if len(store.completed(manifest.run_id)) == expected:
        store.finish_run(manifest.run_id, datetime.now(UTC))
    return result_from_store(store, manifest.run_id)


class SessionRun(NamedTuple):
    """One agent's part of a pytest session, gathered into a run.

    Attributes:
        manifest: the run's manifest (suite ``pytest``: the scenarios the session ran
            with this agent).
        suite: those scenarios, ordered by id.
        records: the distinct trials (:func:`remit.harness.session.merge_session`),
            ordered by scenario, mode and trial.
        repeats: the scenarios run in several tests or several times, each naming them.
        tests: the node ids of the tests that ran this agent.
    """

    manifest: RunManifest
    suite: Suite
    records: list[TrialRecord]
    repeats: tuple[Repeat, ...]
    tests: tuple[str, ...]


def session_runs(outcomes: Sequence[SpooledOutcome], *, seed: int, started_at: datetime,
                 store: Store | None = None,
                 selection: ScenarioSelection | None = None,
                 executor: str = "local") -> list[SessionRun]:
    """Gather a pytest session's outcomes into runs, one per agent, stored if asked.

    A run has one agent, so a session whose tests use several agents (a marker may
    choose another) gives one run per agent, ordered by agent label. Within a run, the
    trials of every test are merged so that none is lost
    (:func:`remit.harness.session.merge_session`): a trial repeating another's seed and
    score is counted once, every other one is kept and numbered on.

    Args:
        outcomes: the spooled outcomes, with their tests.
        seed: the session's seed (``--remit-seed``), recorded as the run seed; each
            trial keeps its own seed.
        started_at: the runs' start time.
        store: where to store the runs (``None``: build them only).
        selection: the session's ``--remit-*`` scenario selection, if any; its counts
            are set per run (selected: the run's scenarios).
        executor: where the session ran its trials (``local`` or ``ray``), recorded in
            each manifest's metadata.
    """
    merged = merge_session((o.test, o.outcome.agent, o.outcome.records) for o in outcomes)
    return [_session_run([o.outcome for o in outcomes if o.outcome.agent == agent], part,
                         seed=seed, started_at=started_at, store=store, selection=selection,
                         executor=executor)
            for agent, part in merged.items()]


def _session_run(outcomes: Sequence[ScenarioOutcome], part: MergedAgent, *, seed: int,
                 started_at: datetime, store: Store | None,
                 selection: ScenarioSelection | None, executor: str) -> SessionRun:
    scenarios: dict[str, Scenario] = {}
    modes: dict[str, ControlMode] = {}
    for outcome in outcomes:
        scenarios.setdefault(outcome.scenario.id, outcome.scenario)
        modes.setdefault(outcome.mode.name, outcome.mode)
    suite = Suite(id="pytest", scenarios=tuple(scenarios[i] for i in sorted(scenarios)))
    per_cell: dict[tuple[str, str], int] = {}
    for record in part.records:
        cell = (record.scored.scenario_id, record.scored.mode)
        per_cell[cell] = per_cell.get(cell, 0) + 1
    identity = next((o.identity for o in outcomes if o.identity is not None), None)
    if selection is not None:
        selection = selection.model_copy(update={
            "selected": len(suite), "total": max(selection.total, len(suite))})
    manifest = build_manifest(run_id=new_run_id(started_at), suite=suite,
                              modes=list(modes.values()), agent_id=part.agent, agent_config={},
                              agent=identity, selection=selection,
                              trials=max(per_cell.values(), default=1), seed=seed,
                              started_at=started_at,
                              metadata={"source": "pytest", "tests": len(part.tests),
                                        _EXECUTOR: executor,
                                        **custom_mode_metadata(list(modes.values()))})
    if store is not None:
        store.create_run(manifest)
        with TrialWriter(store, manifest.run_id) as writer:
            for record in part.records:
                writer.add(record)
        store.finish_run(manifest.run_id, datetime.now(UTC))
    return SessionRun(manifest, suite, list(part.records), part.repeats, part.tests)


def result_from_store(store: Store, run_id: str, *, with_trails: bool = False) -> RunResult:
    """A run's stored trials and per-mode summaries, under its pinned error treatment."""
    manifest = store.manifest(run_id)
    records = store.trials(run_id, with_trails=with_trails)
    exclude = manifest.error_treatment.on_exhausted == "exclude"
    return result_of(records, [m.name for m in manifest.modes], exclude_infra_errors=exclude)
