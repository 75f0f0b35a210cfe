"""Trials on Ray (``--executor ray``): one run over the cores of many machines.

:class:`RayExecutor` runs a run's trials in a pool of Ray actors
(:class:`~remit.harness.ray_actor.TrialActor`), with the design of the worker processes
(:mod:`remit.harness.workers`):

- The run's work (the scenarios, the modes, the agent factory, the seed, the retries)
  is pickled once and put in Ray's object store; each actor loads it once, then runs
  trials named by small keys. An actor keeps the agent factory warm between trials
  (an LLM agent's client, an agent with costly set-up).
- Back-pressure: each actor has at most its concurrency plus a few trials in flight
  (:data:`~remit.harness.pool.IN_FLIGHT`), so a run of any size holds a bounded
  number of trials on the cluster, and the driver hands out the next trial as one
  finishes.
- The driver is the one writer: each finished record streams back to it and is
  handed to ``on_result`` in the order the trials were planned to start
  (:class:`~remit.harness.in_order.InOrder`), whatever order they finish in, so the
  store (SQLite or PostgreSQL) holds the records one process would, in its order.
- A lost worker (its process killed, its node gone) is Ray's to recover: the actor is
  restarted (on another node if it must) and its unfinished trials are run again there
  (:data:`RESTARTS` times); a trial's result reaches the driver once, so it is stored
  once. The same seed gives the same trial wherever it runs.

:meth:`RayExecutor.connect` and :func:`check_portable` refuse, before a run starts,
what cannot run: Ray not installed, an address that does not answer, a cluster of
another Ray or Python version, an agent factory that cannot be pickled.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import pickle
import socket
import typing
import uuid
from collections import deque
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from remit.errors import RemitError
from remit.harness.in_order import InOrder
from remit.harness.pool import IN_FLIGHT
from remit.harness.ray_actor import TrialActor
from remit.harness.worker_process import Done, emit
from remit.harness.workers import WorkerFailedError

__all__ = ["RESTARTS", "ExecutorError", "RayExecutor", "check_portable", "parse_resources"]

_LOG = logging.getLogger(__name__)
_K = TypeVar("_K")
_R = TypeVar("_R")

RESTARTS = 3
"""How many times Ray restarts a lost actor, and runs a lost trial again, before the
run stops with :class:`~remit.harness.workers.WorkerFailedError`."""
_CONNECT_SECONDS = 5.0
"""How long an address is given to answer before the run is refused."""
_INSTALL = "install the extra: pip install 'remit[ray]'"


class ExecutorError(RemitError, ValueError):
    """A run that cannot start on its executor, refused before anything is written.

    Attributes:
        executor: the executor asked for (``ray``).
        reason: why not, and what to do instead.
    """

    def __init__(self, executor: str, reason: str) -> None:
        self.executor = executor
        self.reason = reason
        super().__init__(f"cannot run with --executor {executor}: {reason}")

    def __reduce__(self) -> tuple[type[ExecutorError], tuple[str, str]]:
        return type(self), (self.executor, self.reason)


_SPECIAL = {"CPU": "num_cpus", "GPU": "num_gpus", "memory": "memory"}


def parse_resources(text: str | None) -> dict[str, float]:
    """``--ray-resources``: a JSON object of resource names and amounts per actor.

    ``CPU``, ``GPU`` and ``memory`` (bytes) are Ray's own; any other name is a custom
    resource a node was started with (``ray start --resources``). Default: one CPU.

    Raises:
        ExecutorError: not a JSON object of non-negative numbers.

    Example:
        >>> parse_resources('{"GPU": 0.25}')
        {'GPU': 0.25}
    """
    if text is None:
        return {"CPU": 1.0}
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExecutorError("ray", f"--ray-resources={text!r} is not JSON ({exc.msg}); give "
                            'an object such as \'{"CPU": 1, "GPU": 0.25}\'') from None
    if not isinstance(parsed, dict) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            for v in parsed.values()):
        raise ExecutorError("ray", f"--ray-resources={text!r} must be a JSON object of "
                            'non-negative amounts, such as \'{"CPU": 1, "GPU": 0.25}\'')
    return {str(name): float(amount) for name, amount in parsed.items()}


def _actor_options(resources: Mapping[str, float]) -> dict[str, Any]:
    options: dict[str, Any] = {"num_cpus": 0.0}
    custom = {}
    for name, amount in resources.items():
        if name in _SPECIAL:
            options[_SPECIAL[name]] = int(amount) if name == "memory" else amount
        else:
            custom[name] = amount
    if custom:
        options["resources"] = custom
    return options


def _ray() -> Any:
    """The ``ray`` module, or :class:`ExecutorError` saying how to install it."""
    try:
        import ray  # noqa: PLC0415  # an optional extra: imported when a run asks for it
    except ImportError:
        raise ExecutorError("ray", f"Ray is not installed here; {_INSTALL}") from None
    return ray


def check_portable(factory: object) -> None:
    """Refuse an agent factory that cannot travel to Ray workers (pickled, then loaded).

    A class or function at the top level of an importable module travels by its import
    path; the LLM agent's factory by its configuration.

    Raises:
        ExecutorError: pickling or loading the factory fails.
    """
    cloudpickle = _ray().cloudpickle
    try:
        pickle.loads(cloudpickle.dumps(factory))
    except Exception as exc:  # whatever pickling raises, the factory cannot travel
        owner = getattr(factory, "__qualname__", type(factory).__qualname__)
        raise ExecutorError("ray", f"agent factory {owner} cannot be sent to Ray workers: "
                            f"{type(exc).__name__}: {exc}; define it at the top level of an "
                            "importable module (--agent package.module:factory)") from None


def _probe(address: str) -> None:
    """Refuse an address that does not answer within :data:`_CONNECT_SECONDS` (Ray's
    own connection attempt waits minutes, then exits the process)."""
    if address == "auto":
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise ExecutorError("ray", f"--ray-address={address!r} is not auto, HOST:PORT or "
                            "ray://HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=_CONNECT_SECONDS).close()
    except OSError as exc:
        raise ExecutorError("ray", f"nothing answers at --ray-address={address!r} "
                            f"({exc.strerror or exc}); start the cluster's head with `ray start "
                            "--head` there, or give its address") from None


class RayExecutor:
    """Runs trials on a Ray cluster: the driver's side of ``--executor ray``.

    Use it as a context manager around the run (it connects on entry and, on exit, ends
    its actors and shuts down a Ray it started itself).

    Args:
        address: the cluster (``auto``: the one started on this machine with ``ray
            start``; ``HOST:PORT`` or ``ray://HOST:PORT``); ``None`` starts a local Ray
            (or uses the one this process has already started, as tests do).
        resources: what each actor holds (see :func:`parse_resources`).
        actors: how many actors (``None``: as many as the cluster's CPUs allow).
        concurrency: trials in flight at once over all actors (asynchronous agents
            overlap their waiting inside each actor).

    Example:
        >>> with RayExecutor(actors=2) as executor:                   # doctest: +SKIP
        ...     run(scenarios, modes, factory, executor=executor)
    """

    name = "ray"

    def __init__(self, *, address: str | None = None,
                 resources: Mapping[str, float] | None = None, actors: int | None = None,
                 concurrency: int = 1) -> None:
        if actors is not None and actors < 1:
            raise ExecutorError("ray", f"workers={actors} (--workers): give at least one")
        if concurrency < 1:
            raise ExecutorError("ray", f"concurrency={concurrency} must be at least 1")
        self.address = address
        self.resources = dict(resources or {"CPU": 1.0})
        self.actors = actors
        self.concurrency = concurrency
        self._ray: Any = None
        self._started = False
        self._pool: list[Any] = []

    def __enter__(self) -> RayExecutor:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> None:
        """Connect to the cluster (start a local Ray without an address).

        Raises:
            ExecutorError: Ray is not installed, the address does not answer, or the
                cluster runs another version of Ray or Python.
        """
        self.check()
        ray = self._ray
        if ray.is_initialized():
            return  # this process is connected already (a test session's Ray)
        try:
            # Ray's own notices (a local instance started, token authentication) would
            # interleave with the run's progress; its errors still show.
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     namespace="remit", logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, SystemExit) as exc:
            raise ExecutorError("ray", _refusal(self.address, exc)) from None
        self._started = True

    def check(self) -> None:
        """Refuse what cannot connect, without connecting: Ray not installed, an address
        that does not answer (a version mismatch shows only on :meth:`connect`).

        Raises:
            ExecutorError: as for :meth:`connect`.
        """
        self._ray = _ray()
        if self.address is not None:
            _probe(self.address)

    def close(self) -> None:
        """End the actors; shut down the Ray this executor started, if it did."""
        ray = self._ray
        if ray is None:
            return
        self._end_actors()
        if self._started:
            ray.shutdown()
            self._started = False

    def _end_actors(self) -> None:
        for actor in self._pool:
            try:
                self._ray.kill(actor)
            except Exception as exc:  # already gone with its node: nothing left to end
                _LOG.debug("could not end a Ray actor: %s", exc)
        self._pool = []

    def capacity(self) -> int:
        """The most trials in flight at once over all actors, once connected."""
        actors = self._size(self.concurrency + 1_000_000)
        return actors * self._per_actor(actors)

    def _per_actor(self, actors: int) -> int:
        """Trials in flight per actor: its concurrency, plus a few waiting, so that an
        actor goes on while the driver is not scheduled."""
        return math.ceil(self.concurrency / actors) + IN_FLIGHT - 1

    def _size(self, keys: int) -> int:
        if self.actors is not None:
            return min(self.actors, keys)
        cpus = float(self._ray.cluster_resources().get("CPU", 1.0))
        each = self.resources.get("CPU", 1.0)
        fit = int(cpus // each) if each > 0 else int(cpus)
        return max(1, min(fit, keys))

    def _start(self, count: int) -> list[Any]:
        if len(self._pool) < count:
            per_actor = math.ceil(self.concurrency / count)
            remote = self._ray.remote(TrialActor).options(
                max_restarts=RESTARTS, max_task_retries=RESTARTS,
                max_concurrency=per_actor, **_actor_options(self.resources))
            level = logging.getLogger().getEffectiveLevel()
            self._pool += [remote.remote(level) for _ in range(count - len(self._pool))]
        return self._pool[:count]

    async def run_keys(self, work: Callable[[_K], Coroutine[Any, Any, _R]],
                       keys: Sequence[_K], *, on_result: Callable[[int, _R], None],
                       describe: Callable[[_K], str] = str) -> list[_R]:
        """Run ``work(key)`` for every key on the actors; return the results in key order.

        ``on_result`` gets each result (with its key's index) in key order as results
        arrive. When the run stops early (Ctrl-C, a failure), the results that arrived
        are handed over, out of order if they must, the actors are ended and the error
        propagates.

        Raises:
            ExecutorError: ``work`` cannot be pickled.
            WorkLoadError: a worker cannot load ``work`` (import the agent), naming its node.
            WorkerFailedError: a trial's actor was lost more often than Ray retries it.
            BaseException: whatever a key's work raised, raised again (with a note).
        """
        if not keys:
            return []
        try:
            blob = self._ray.cloudpickle.dumps(work)
        except Exception as exc:  # whatever pickling raises, the work cannot travel
            raise ExecutorError("ray", f"the run's work cannot be pickled: "
                                f"{type(exc).__name__}: {exc}") from None
        actors = self._start(self._size(len(keys)))
        run = _RayRun(self._ray, actors, keys, work_id=uuid.uuid4().hex,
                      boxed=[self._ray.put(blob)], order=InOrder(len(keys), on_result),
                      describe=describe, per_actor=self._per_actor(len(actors)))
        try:
            return await run.collect()  # under the run's run_heap (see runner.run_async)
        except BaseException:
            self._end_actors()  # their trials in flight are abandoned with them
            run.salvage()
            raise


class _RayRun(typing.Generic[_K, _R]):
    """The driver's side of one run on Ray: dispatch, collect, hand over in order."""

    def __init__(self, ray: Any, actors: list[Any], keys: Sequence[_K], *, work_id: str,
                 boxed: list[Any], order: InOrder[_R], describe: Callable[[_K], str],
                 per_actor: int) -> None:
        self.ray = ray
        self.actors = actors
        self.work_id = work_id
        self.boxed = boxed
        self.keys = keys
        self.order = order
        self.describe = describe
        self.per_actor = per_actor
        self.todo = deque(range(len(keys)))
        self.pending: dict[asyncio.Future[Done], tuple[int, int]] = {}
        self.in_flight = [0] * len(actors)

    def dispatch(self, at: int, up_to: int) -> None:
        """Send actor ``at`` keys until it has ``up_to`` in flight (or none are left)."""
        while self.todo and self.in_flight[at] < up_to:
            index = self.todo.popleft()
            ref = self.actors[at].run.remote(self.work_id, self.boxed, index, self.keys[index])
            self.pending[asyncio.wrap_future(ref.future())] = (at, index)
            self.in_flight[at] += 1

    async def collect(self) -> list[_R]:
        for up_to in range(1, self.per_actor + 1):  # in turn: a short run is spread evenly
            for at in range(len(self.actors)):
                self.dispatch(at, up_to)
        while not self.order.complete:
            done, _ = await asyncio.wait(self.pending, return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                at, index = self.pending.pop(future)
                self.in_flight[at] -= 1
                message = self.outcome(future, index)
                emit(message.logs)
                self.dispatch(at, self.per_actor)
                self.order.add(index, typing.cast(_R, message.result))
        return self.order.results

    def outcome(self, future: asyncio.Future[Done], index: int) -> Done:
        """The finished trial's message, or the error its trial ended with, raised."""
        error = future.exception()
        if error is None:
            return future.result()
        trial = self.describe(self.keys[index])
        exceptions = self.ray.exceptions
        if isinstance(error, exceptions.RayTaskError):
            cause = error.cause
            if isinstance(cause, BaseException):
                cause.add_note(f"on trial {trial}")
                raise cause from None
        if isinstance(error, exceptions.RayError):
            raise WorkerFailedError(trial, f"its Ray worker was lost more than {RESTARTS} "
                                    f"times: {type(error).__name__}: "
                                    f"{str(error).splitlines()[0] if str(error) else ''}"
                                    ) from None
        raise error

    def salvage(self) -> None:
        """Once the run stops early: hand over every trial that had finished (out of
        order if it must). Not after an error of ``on_result`` itself."""
        if self.order.handing:
            return
        for future, (_, index) in self.pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                message = future.result()
                emit(message.logs)
                self.order.finished[index] = typing.cast(_R, message.result)
            elif not future.done():
                future.cancel()
        self.order.hand_over(everything=True)


def _refusal(address: str | None, exc: BaseException) -> str:
    """One sentence for what ``ray.init`` raised."""
    text = " ".join(str(exc).split())
    where = "a local Ray" if address is None else f"the Ray cluster at --ray-address={address!r}"
    if "version mismatch" in text.lower():
        return (f"{where} runs another version of Ray or Python than this machine ({text}); "
                "install the same versions on every node and the driver")
    return f"cannot connect to {where}: {type(exc).__name__}: {text}"
