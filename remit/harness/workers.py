"""Worker processes for synchronous agents (``--workers N``): trials side by side on N cores.

A synchronous agent (the scripted ones, most hand-written ones) computes instead of
waiting, so trials in flight on one event loop (``--concurrency``) still run one after
another on one core. :func:`~remit.harness.pool.run_in_workers` runs them in N worker
processes instead (its side of the work is :mod:`remit.harness.pool`, a worker's is
:mod:`remit.harness.worker_process`; this module holds what both need):

- Each worker is given the run's work once, when it starts (the scenarios, the modes,
  the agent factory, the seed and the retries), then only small keys of the trials to
  run; it runs a trial where it was sent, retries included, and sends back the finished
  record and the log records the trial emitted. A few trials per worker are in flight
  (:data:`~remit.harness.pool.IN_FLIGHT`), so a worker does not wait for the parent
  between trials.
- The parent process is the one writer: it hands each record to ``on_result`` (which
  persists it and advances the progress bar) in the order the trials were planned to
  start, whatever order they finish in, so a run stores its trials in the order one
  process would.
- Ctrl-C stops the workers (they ignore SIGINT themselves; the parent ends them) and
  keeps every trial that finished: those not yet handed over are handed over before
  the interrupt propagates. A worker that dies, or whose trial raises something that
  cannot travel back, stops the run with :class:`WorkerFailedError`; an exception a
  trial raises (a factory's own error) is raised again in the parent.

The start method is ``fork`` on Linux: a worker starts in milliseconds with the built
suite, the warm catalogue and the agent factory already in memory (``forkserver`` and
``spawn`` import remit again, a second or more per run, and build the catalogue again).
``fork`` is safe here because a worker runs trial code only: it never touches the
parent's console, database connections or log handlers (its log records and warnings
travel back to the parent), it opens its own ``stdout``/``stderr`` objects on the
inherited descriptors (another thread of the parent, such as a progress bar's, may have
held the old ones' locks when it forked), and the objects it inherited are frozen
out of its garbage collector. Elsewhere (macOS, where ``fork`` is unsafe, and Windows)
it is ``forkserver`` or ``spawn``, and the agent factory must then be picklable: a
class or function at the top level of an importable module, as ``--agent
package.module:factory`` names it (:func:`check_workers` says so before the run).

Asynchronous agents are refused (:class:`WorkersError`): they overlap their waiting
with ``--concurrency`` in one process, and share their client and their abort state
across trials, which worker processes would split.
"""

from __future__ import annotations

import inspect
import multiprocessing
import pickle
import sys
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from remit.errors import RemitError, RunAbortedError
from remit.harness.provenance import built_class, unwrap_factory

__all__ = ["StartMethod", "WorkerFailedError", "WorkersError", "check_workers",
           "start_method", "sync_only"]

_R = TypeVar("_R")

StartMethod = Literal["fork", "forkserver", "spawn"]
"""How worker processes start (see :mod:`multiprocessing`)."""


class WorkersError(RemitError, ValueError):
    """A run that cannot be spread over worker processes, refused before it starts.

    Attributes:
        workers: the worker processes asked for.
        reason: why not, and what to do instead.
    """

    def __init__(self, workers: int, reason: str) -> None:
        self.workers = workers
        self.reason = reason
        super().__init__(f"cannot run with workers={workers} (--workers): {reason}")

    def __reduce__(self) -> tuple[type[WorkersError], tuple[int, str]]:
        return type(self), (self.workers, self.reason)


class WorkerFailedError(RunAbortedError):
    """A worker process failed during a run; the run stops, its finished trials are kept.

    A worker that exits in the middle of a trial (killed, crashed, out of memory), a
    trial that raises something that cannot be sent back, or an agent that turns out
    to be asynchronous.

    Attributes:
        trial: the trial the worker was running (``SCENARIO/MODE/TRIAL``).
        reason: what happened.
    """

    def __init__(self, trial: str, reason: str) -> None:
        self.trial = trial
        self.reason = reason
        super().__init__(f"the run stopped on trial {trial}, in a worker process: {reason}")

    def __reduce__(self) -> tuple[type[WorkerFailedError], tuple[str, str]]:
        return type(self), (self.trial, self.reason)


def start_method() -> StartMethod:
    """How worker processes start here: ``fork`` on Linux, else ``forkserver`` if the
    platform has it (macOS), else ``spawn`` (Windows). See the module docstring."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _is_async(agent: object) -> bool:
    return any(inspect.iscoroutinefunction(getattr(agent, name, None))
               for name in ("start", "act"))


def _label(factory: object) -> str:
    owner = unwrap_factory(factory)
    if not (inspect.isclass(owner) or inspect.isroutine(owner)):
        owner = type(owner)
    return f"{getattr(owner, '__module__', '?')}:{getattr(owner, '__qualname__', owner)}"


_ASYNC = ("is asynchronous (its start or act is a coroutine function): it overlaps its "
          "waiting in one process with concurrency (--concurrency N), and worker processes "
          "would run its trials one at a time and split what its factory shares between "
          "trials (an LLM agent's client); run it with --concurrency and one worker")


def check_workers(factory: object, *, workers: int, concurrency: int = 1,
                  method: StartMethod | None = None) -> None:
    """Refuse, before a run starts, what worker processes cannot run.

    Args:
        factory: the agent factory.
        workers: the worker processes asked for (1: no workers, nothing to check).
        concurrency: the trials in flight asked for.
        method: the start method (default: :func:`start_method`).

    Raises:
        WorkersError: ``workers`` is below 1; both ``workers`` and ``concurrency`` are
            above 1; the factory builds asynchronous agents (as far as its class or
            return annotation tells); or the start method pickles the factory and it
            cannot be pickled and loaded again.
    """
    if workers < 1:
        raise WorkersError(workers, "give at least one worker process")
    if workers == 1:
        return
    if concurrency > 1:
        raise WorkersError(workers, f"concurrency={concurrency} (--concurrency) was given "
                           "too; workers run a synchronous agent's trials side by side, "
                           "concurrency overlaps an asynchronous agent's waiting: give one "
                           "of them")
    built = built_class(unwrap_factory(factory))
    if built is not None and _is_async(built):
        raise WorkersError(workers, f"agent {_label(factory)} {_ASYNC}")
    chosen = method or start_method()
    if chosen != "fork":
        try:
            pickle.loads(pickle.dumps(factory))
        except Exception as exc:  # whatever pickling raises, the factory cannot travel
            raise WorkersError(workers, f"agent factory {_label(factory)} cannot be sent "
                               f"to worker processes started by {chosen}: "
                               f"{type(exc).__name__}: {exc}; {_portable_hint(factory)}"
                               ) from exc


def _portable_hint(factory: object) -> str:
    """What to do about a factory that cannot be pickled."""
    if inspect.isclass(getattr(factory, "__wrapped__", None)):
        # remit's loader builds a class that takes no TrialInfo through a local function
        return ("give the agent class's constructor a TrialInfo argument, so that the "
                "class itself is the factory")
    return ("define it at the top level of an importable module "
            "(--agent package.module:factory)")


class _SyncOnly:
    """An agent factory that refuses asynchronous agents (used inside workers, where an
    agent the static check could not classify shows what it is when built)."""

    def __init__(self, factory: Callable[[Any], object], trial: Callable[[Any], str]
                 ) -> None:
        self.factory = factory
        self.trial = trial

    def __call__(self, info: Any) -> Any:
        agent = self.factory(info)
        if _is_async(agent):
            raise WorkerFailedError(self.trial(info), f"agent {_label(self.factory)} {_ASYNC}")
        return agent


def sync_only(factory: Callable[[Any], _R]) -> Callable[[Any], _R]:
    """``factory``, refusing with :class:`WorkerFailedError` any asynchronous agent it
    builds (a worker process runs trials one at a time: see the module docstring)."""
    checked: Callable[[Any], _R] = _SyncOnly(factory, _info_trial)
    return checked


def _info_trial(info: Any) -> str:
    return f"{info.scenario_id}/{info.mode}/{info.trial}"
