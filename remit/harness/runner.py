"""Run scenarios x modes x trials with one agent, score every trial, aggregate per mode.

:func:`run_async` is the engine: bounded concurrency (asynchronous agents overlap
their waiting), worker processes (synchronous agents use several cores: see
:mod:`remit.harness.workers`) or another executor (a Ray cluster: see
:mod:`remit.harness.ray_executor`), retries of infrastructure errors, skipping trials already
done (resume) and a callback per finished trial (persistence, progress). :func:`run` is the
in-memory front that ``remit run`` and the pytest plugin call. Each trial gets a fresh
agent from the factory and a stable seed derived from the run seed, so a run is
reproducible trial by trial, and a resumed run gives the same results as an
uninterrupted one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from remit.actors import AgentFactory, AgentUsage, TrialInfo, is_reference_agent
from remit.authority import ControlMode
from remit.errors import InfrastructureError, RunAbortedError
from remit.harness.aggregate import ModeSummary, ScoredTrial, summarise
from remit.harness.heap import run_heap
from remit.harness.orchestrator import drive, interruptible, run_trial_async, trial_seed
from remit.harness.pool import run_in_workers
from remit.harness.rates import aggregable
from remit.harness.scoring import TrialScore, score_trial
from remit.harness.workers import check_workers, sync_only
from remit.scenarios import Scenario
from remit.trusted import trusted
from remit.world import TrailEntry, World
from remit.world.untrusted import QUOTE_CHARS, clean, describe_exception, shorten, visible

__all__ = ["RunResult", "TrialExecutor", "TrialKey", "TrialRecord", "drive", "execution_order",
           "plan_trials", "result_of", "run", "run_async", "run_one"]


_LOG = logging.getLogger(__name__)
_T = TypeVar("_T")


class TrialRecord(BaseModel):
    """One finished trial: its identity, its score and its trail.

    Attributes:
        scored: the trial's identity and score.
        seed: the trial's seed.
        trail: every entry of the trial, in order.
        attempts: how many times the trial was run (infrastructure errors are retried).
        infra_error: the last infrastructure error when retries ran out (the trial is
            then excluded or counted as a failure, as the run's error treatment says).
        seconds: wall-clock seconds of the trial's last attempt, from building the agent
            to the score; ``None`` when unknown (trials stored before remit kept it).
            Not part of what the trial *is*: a trial run again with its seed has the
            same score and trail, not the same duration.
    """

    model_config = ConfigDict(frozen=True)

    scored: ScoredTrial
    seed: int
    trail: tuple[TrailEntry, ...]
    attempts: int = 1
    infra_error: str | None = None
    seconds: float | None = None


class RunResult(BaseModel):
    """Every trial of a run, and the per-mode summaries.

    Attributes:
        trials: in run order (scenario, then mode, then trial index).
        summaries: per mode, in the order the modes were given.
    """

    model_config = ConfigDict(frozen=True)

    trials: tuple[TrialRecord, ...]
    summaries: dict[str, ModeSummary]


TrialKey = tuple[str, str, int]
"""(scenario id, mode name, trial index): what makes a trial unique within a run."""


def _info(scenario: Scenario, mode: ControlMode, trial: int, run_seed: int,
          factory: AgentFactory) -> TrialInfo:
    """The trial's ids and seed; the plan and the scenario only for a reference agent."""
    seed = trial_seed(run_seed, scenario.id, mode.name, trial)
    if is_reference_agent(factory):
        return TrialInfo(scenario_id=scenario.id, mode=mode.name, trial=trial, seed=seed,
                         plan=scenario.plan, scenario=scenario)
    return TrialInfo(scenario_id=scenario.id, mode=mode.name, trial=trial, seed=seed)


_USAGE_KINDS = 64
"""The most reply-issue kinds of one trial's usage that are recorded."""


def _usage(agent: object) -> AgentUsage | None:
    """The agent's spending, if it reports any (``usage() -> AgentUsage``).

    The usage is the agent's own output, so it is cleaned before it is recorded (lone
    surrogates replaced, at most :data:`_USAGE_KINDS` issue kinds, each name cut short);
    a ``usage()`` that raises, or returns something unusable, records none (with a
    warning) instead of stopping the run.
    """
    report = getattr(agent, "usage", None)
    if not callable(report):
        return None
    try:
        found = report()
        if not isinstance(found, AgentUsage):
            return None
        dumped = clean(found.model_dump())  # Money stays a model, which clean() keeps
        assert isinstance(dumped, dict)
        issues = dumped.get("reply_issues")
        if isinstance(issues, dict):
            dumped["reply_issues"] = {shorten(kind, QUOTE_CHARS): count for kind, count
                                      in list(issues.items())[:_USAGE_KINDS]}
        return AgentUsage.model_validate(dumped)
    except Exception as exc:  # the agent's code: whatever it raises, the trial stands
        _LOG.warning("the agent's usage() gave no usable report (%s); the trial is recorded "
                     "without usage", visible(describe_exception(exc)))
        return None


def _record(scenario: Scenario, mode: ControlMode, info: TrialInfo, world: World,
            *, attempts: int, agent: object = None, started: float | None = None
            ) -> TrialRecord:
    score = score_trial(scenario, world)
    usage = _usage(agent)
    if usage is not None:
        score = score.model_copy(update={"usage": usage})
    # Built from the world's own, validated entries: not validated again (see trusted)
    scored = trusted(ScoredTrial, {"scenario_id": scenario.id, "mode": mode.name,
                                   "trial": info.trial, "score": score})
    return trusted(TrialRecord, {"scored": scored, "seed": info.seed,
                                 "trail": tuple(world.trail), "attempts": attempts,
                                 "infra_error": None, "seconds": _since(started)})


def _since(started: float | None) -> float | None:
    return None if started is None else round(time.perf_counter() - started, 6)


def _infra_record(scenario: Scenario, mode: ControlMode, info: TrialInfo, error: Exception,
                  attempts: int, *, started: float | None = None) -> TrialRecord:
    """A trial whose retries ran out: scored as a failure, marked as an infra error."""
    message = f"{type(error).__name__}: {error}"
    score = TrialScore(
        passed=False, failures=(f"infra_error: {message}",), wrong_variant=False,
        wrong_skus=(), claims=0, unsupported_claims=0, unsupported=(),
        abandoned_handoffs=0, abandoned=(), clarification_rounds=0, review_minutes=0,
        denials=0, steps=0, end_reason="infra_error", final_state="unknown")
    scored = ScoredTrial(scenario_id=scenario.id, mode=mode.name, trial=info.trial, score=score)
    return TrialRecord(scored=scored, seed=info.seed, trail=(), attempts=attempts,
                       infra_error=message, seconds=_since(started))


def run_one(scenario: Scenario, mode: ControlMode, factory: AgentFactory, *, trial: int = 0,
            run_seed: int = 0) -> tuple[TrialRecord, World]:
    """Run and score one trial; return its record and the finished world.

    Infrastructure errors propagate (no retries here); see :func:`run_async`.
    """
    info = _info(scenario, mode, trial, run_seed, factory)
    started = time.perf_counter()
    agent = factory(info)
    world = drive(run_trial_async(scenario, mode, agent, seed=info.seed))
    return _record(scenario, mode, info, world, attempts=1, agent=agent,
                   started=started), world


async def _attempt(scenario: Scenario, mode: ControlMode, factory: AgentFactory,
                   info: TrialInfo, retries: int) -> TrialRecord:
    """Run one trial, retrying infrastructure errors ``retries`` times."""
    for attempt in range(1, retries + 2):
        started = time.perf_counter()
        try:
            with interruptible():  # building an agent may block (Ctrl-C stops it) or fail
                agent = factory(info)
            world = await run_trial_async(scenario, mode, agent, seed=info.seed)
        except RunAbortedError:
            raise
        except InfrastructureError as exc:
            _LOG.warning("trial %s/%s/%d: %s (attempt %d of %d)", scenario.id, mode.name,
                         info.trial, visible(shorten(str(exc), 1_000)), attempt, retries + 1)
            if attempt > retries:
                return _infra_record(scenario, mode, info, exc, attempt, started=started)
            continue
        return _record(scenario, mode, info, world, attempts=attempt, agent=agent,
                       started=started)
    raise AssertionError("unreachable: the loop returns on its last attempt")


def plan_trials(scenarios: Sequence[Scenario], modes: Sequence[ControlMode],
                trials: int) -> list[tuple[Scenario, ControlMode, int]]:
    """Every (scenario, mode, trial index) of a run, in run order."""
    if trials < 1:
        raise ValueError(f"trials={trials!r} must be at least 1")
    return [(s, m, i) for s in scenarios for m in modes for i in range(trials)]


def execution_order(planned: Sequence[tuple[Scenario, ControlMode, int]]
                    ) -> list[tuple[Scenario, ControlMode, int]]:
    """The order trials start in: mode by mode, each mode's trials in run order.

    Every scenario of the first mode runs, then every scenario of the next: consecutive
    trials share the mode, so an LLM agent's consecutive requests share the longest
    prompt prefix, which a server's prompt cache (llama.cpp, vLLM) reads once. Results
    do not depend on the order (each trial has its own seed and a fresh agent).
    """
    first_seen: dict[str, int] = {}
    for _, mode, _ in planned:
        first_seen.setdefault(mode.name, len(first_seen))
    return sorted(planned, key=lambda trial: first_seen[trial[1].name])


_Key = tuple[int, int, int]
"""A trial as a worker knows it: (scenario index, mode index, trial index)."""


@dataclass(frozen=True)
class _TrialWork:
    """Everything a worker process needs to run any trial of a run, sent to it once;
    a trial is then named by its key (scenario index, mode index, trial index).
    ``sync_only``: refuse asynchronous agents (a worker process runs one trial at a
    time; a Ray actor overlaps them)."""

    scenarios: tuple[Scenario, ...]
    modes: tuple[ControlMode, ...]
    factory: AgentFactory
    seed: int
    retries: int
    sync_only: bool = True

    async def __call__(self, key: _Key) -> TrialRecord:
        """Run the trial ``key`` (as :func:`run_async` does in one process)."""
        scenario, mode, trial = self.scenarios[key[0]], self.modes[key[1]], key[2]
        info = _info(scenario, mode, trial, self.seed, self.factory)
        factory = sync_only(self.factory) if self.sync_only else self.factory
        return await _attempt(scenario, mode, factory, info, self.retries)


class TrialExecutor(Protocol):
    """Runs a run's trials somewhere else than this process (such as
    :class:`~remit.harness.ray_executor.RayExecutor`), handing each record back here.

    Attributes:
        name: how the manifest names the executor (``ray``).
    """

    name: str

    def run_keys(self, work: Callable[[_Key], Coroutine[Any, Any, TrialRecord]],
                 keys: Sequence[_Key], *, on_result: Callable[[int, TrialRecord], None],
                 describe: Callable[[_Key], str]) -> Coroutine[Any, Any, list[TrialRecord]]:
        """Run ``work(key)`` for every key; hand each record to ``on_result`` (with its
        key's index) in key order, here; return the records in key order."""
        ...


async def run_async(scenarios: Sequence[Scenario], modes: Sequence[ControlMode],
                    factory: AgentFactory, *, trials: int = 1, seed: int = 0,
                    concurrency: int = 1, retries: int = 0,
                    skip: Collection[TrialKey] = (),
                    on_trial: Callable[[TrialRecord], None] | None = None,
                    workers: int = 1, executor: TrialExecutor | None = None
                    ) -> list[TrialRecord]:
    """Run the trials of a run with bounded concurrency; return the new records in run order.

    Asynchronous agents overlap their waiting (an LLM's latency) up to ``concurrency``
    trials at a time; synchronous agents run one after another on the event loop, or
    side by side in ``workers`` processes (:mod:`remit.harness.workers`), with the same
    records. Trials start in :func:`execution_order` (mode by mode), so ``on_trial`` sees
    them mode by mode (with workers, in exactly that order); the records returned are in
    run order (scenario, mode, trial). While it runs, the garbage collector leaves alone
    what the run holds (:func:`~remit.harness.heap.run_heap`).

    Args:
        scenarios, modes, factory, trials, seed: what to run (see :func:`run`).
        concurrency: trials in flight at once.
        retries: retries of a trial after an infrastructure error (where it runs).
        skip: keys of trials already done (a resumed run).
        on_trial: called as each trial finishes (to persist it, advance a progress bar),
            always in this process. A trial is complete once its callback returns.
        workers: processes running trials (1: this one). More than one needs a
            synchronous agent and ``concurrency`` 1.
        executor: runs the trials elsewhere (on Ray), with the same records, handed to
            ``on_trial`` here in execution order; ``workers`` and ``concurrency`` are
            then the executor's own (given when it was made).

    Raises:
        WorkersError: ``workers`` cannot run this agent (refused before any trial).
        WorkerFailedError: a worker process failed; the trials it finished are kept.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency={concurrency!r} must be at least 1")
    if executor is None:
        check_workers(factory, workers=workers, concurrency=concurrency)
    todo = [(s, m, i) for s, m, i in plan_trials(scenarios, modes, trials)
            if (s.id, m.name, i) not in skip]
    position = {(s.id, m.name, i): index for index, (s, m, i) in enumerate(todo)}
    with run_heap():  # what the run holds is not traversed again and again (see heap)
        if executor is not None:
            return await _elsewhere(todo, position, factory, seed=seed, retries=retries,
                                    on_trial=on_trial, run_keys=executor.run_keys,
                                    sync_only=False)
        if workers > 1:
            return await _elsewhere(todo, position, factory, seed=seed, retries=retries,
                                    on_trial=on_trial,
                                    run_keys=partial(run_in_workers, workers=workers))
        return await _in_process(todo, position, factory, seed=seed, retries=retries,
                                 on_trial=on_trial, concurrency=concurrency)


async def _in_process(todo: Sequence[tuple[Scenario, ControlMode, int]],
                      position: dict[TrialKey, int], factory: AgentFactory, *, seed: int,
                      retries: int, on_trial: Callable[[TrialRecord], None] | None,
                      concurrency: int) -> list[TrialRecord]:
    """:func:`run_async`'s trials on this event loop, ``concurrency`` at a time."""
    gate = asyncio.Semaphore(concurrency)
    results: list[TrialRecord | None] = [None] * len(todo)

    async def one(index: int, scenario: Scenario, mode: ControlMode, trial: int) -> None:
        async with gate:
            info = _info(scenario, mode, trial, seed, factory)
            record = await _attempt(scenario, mode, factory, info, retries)
            if on_trial is not None:
                on_trial(record)
            results[index] = record

    await asyncio.gather(*(one(position[s.id, m.name, t], s, m, t)
                           for s, m, t in execution_order(todo)))
    return [r for r in results if r is not None]


_RunKeys = Callable[..., Coroutine[Any, Any, list[TrialRecord]]]
"""``run_in_workers`` with its workers, or an executor's ``run_keys``: (work, keys, *,
on_result, describe) -> the records in key order."""


async def _elsewhere(todo: Sequence[tuple[Scenario, ControlMode, int]],
                     position: dict[TrialKey, int], factory: AgentFactory, *, seed: int,
                     retries: int, on_trial: Callable[[TrialRecord], None] | None,
                     run_keys: _RunKeys, sync_only: bool = True) -> list[TrialRecord]:
    """:func:`run_async`'s trials in worker processes or on an executor, started in
    execution order, each handed to ``on_trial`` here."""
    scenarios = tuple({s.id: s for s, _, _ in todo}.values())
    modes = tuple({m.name: m for _, m, _ in todo}.values())
    at = {s.id: index for index, s in enumerate(scenarios)}
    mode_at = {m.name: index for index, m in enumerate(modes)}
    started = execution_order(todo)
    keys = [(at[s.id], mode_at[m.name], t) for s, m, t in started]
    results: list[TrialRecord | None] = [None] * len(todo)

    def finished(index: int, record: TrialRecord) -> None:
        if on_trial is not None:
            on_trial(record)
        scenario, mode, trial = started[index]
        results[position[scenario.id, mode.name, trial]] = record

    def describe(key: _Key) -> str:
        return f"{scenarios[key[0]].id}/{modes[key[1]].name}/{key[2]}"

    await run_keys(_TrialWork(scenarios, modes, factory, seed, retries, sync_only), keys,
                   on_result=finished, describe=describe)
    return [r for r in results if r is not None]


def run(scenarios: Sequence[Scenario], modes: Sequence[ControlMode], factory: AgentFactory,
        *, trials: int = 1, seed: int = 0, concurrency: int = 1, retries: int = 0,
        progress: Callable[[TrialRecord], None] | None = None, workers: int = 1,
        executor: TrialExecutor | None = None) -> RunResult:
    """Run every scenario in every mode ``trials`` times, in memory.

    Args:
        scenarios: the scenarios.
        modes: the control modes.
        factory: builds a fresh agent per trial.
        trials: trials per scenario and mode (``n`` of pass^k).
        seed: the run seed.
        concurrency: trials in flight at once (asynchronous agents overlap).
        retries: retries of a trial after an infrastructure error.
        progress: called after each trial (the CLI advances its progress bar).
        workers: processes running trials side by side (synchronous agents; see
            :func:`run_async`).
        executor: runs the trials elsewhere (see :func:`run_async`).
    """
    records = drive(run_async(scenarios, modes, factory, trials=trials, seed=seed,
                              concurrency=concurrency, retries=retries, on_trial=progress,
                              workers=workers, executor=executor))
    return result_of(records, [m.name for m in modes])


def result_of(records: Sequence[TrialRecord], modes: Sequence[str],
              exclude_infra_errors: bool = True) -> RunResult:
    """Aggregate records into a :class:`RunResult`, modes in the given order.

    Trials that ended in an infrastructure error are excluded from the summaries when
    ``exclude_infra_errors`` (they still appear in ``trials``); otherwise they count as
    the failures they are scored as. Scores kept by an older scorer are summarised
    through :func:`~remit.harness.rates.aggregable`.
    """
    counted = [aggregable(r.scored) for r in records
               if not (exclude_infra_errors and r.infra_error)]
    summaries = summarise(counted)
    ordered = {name: summaries[name] for name in modes if name in summaries}
    return RunResult(trials=tuple(records), summaries=ordered)
