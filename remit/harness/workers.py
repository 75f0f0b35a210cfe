"""Worker processes for synchronous agents (``--workers N``): trials side by side on N cores.

A synchronous agent (the scripted ones, most hand-written ones) computes instead of
waiting, so trials in flight on one event loop (``--concurrency``) still run one after
another on one core. :func:`run_in_workers` runs them in N worker processes instead:

- Each worker is given the run's work once, when it starts (the scenarios, the modes,
  the agent factory, the seed and the retries), then only small keys of the trials to
  run; it runs a trial where it was sent, retries included, and sends back the finished
  record and the log records the trial emitted. A few trials per worker are in flight
  (:data:`IN_FLIGHT`), so a worker does not wait for the parent between trials.
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

import asyncio
import functools
import gc
import inspect
import io
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
import typing
import warnings
from collections import deque
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from remit.errors import RemitError, RunAbortedError

__all__ = ["StartMethod", "WorkerFailedError", "WorkersError", "check_workers",
           "run_in_workers", "start_method", "sync_only"]

_K = TypeVar("_K")
_R = TypeVar("_R")

IN_FLIGHT = 4
"""Trials sent to a worker and not yet returned: one running, the others waiting, so that
a worker goes on while the parent is not scheduled (on a busy machine that takes longer
than a trial), and the last trials are still spread evenly."""
_JOIN_SECONDS = 5.0
"""How long a stopping worker is given to exit before it is killed."""
_NO_FULL_COLLECTIONS = 1_000_000
"""The third ``gc`` threshold while records stream in: no automatic full collection."""


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


StartMethod = Literal["fork", "forkserver", "spawn"]
"""How worker processes start (see :mod:`multiprocessing`)."""


def start_method() -> StartMethod:
    """How worker processes start here: ``fork`` on Linux, else ``forkserver`` if the
    platform has it (macOS), else ``spawn`` (Windows). See the module docstring."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _unwrapped(factory: object) -> object:
    target = factory
    for _ in range(100):  # wrappers form a chain; a cycle must not hang the check
        if isinstance(target, functools.partial):
            target = target.func
        elif (inner := getattr(target, "__wrapped__", None)) is not None:
            target = inner
        else:
            break
    return target


def _built_class(factory: object) -> type | None:
    """The agent class ``factory`` builds, when it says: the class itself, or the class
    its return annotation names; ``None`` when it cannot be told without building one."""
    target = _unwrapped(factory)
    if inspect.isclass(target):
        return target
    if not callable(target):
        return None
    call = target if inspect.isroutine(target) else type(target).__call__
    try:
        built = typing.get_type_hints(call).get("return")
    except Exception:  # an annotation that does not resolve says nothing either way
        return None
    return built if inspect.isclass(built) else None


def _is_async(agent: object) -> bool:
    return any(inspect.iscoroutinefunction(getattr(agent, name, None))
               for name in ("start", "act"))


def _label(factory: object) -> str:
    owner = _unwrapped(factory)
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
    built = _built_class(factory)
    if built is not None and _is_async(built):
        raise WorkersError(workers, f"agent {_label(factory)} {_ASYNC}")
    if (method or start_method()) != "fork":
        try:
            pickle.loads(pickle.dumps(factory))
        except Exception as exc:  # whatever pickling raises, the factory cannot travel
            raise WorkersError(workers, f"agent factory {_label(factory)} cannot be sent "
                               f"to worker processes started by {method or start_method()}: "
                               f"{type(exc).__name__}: {exc}; define it at the top level "
                               "of an importable module (--agent package.module:factory)"
                               ) from exc


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


# -- inside a worker ----------------------------------------------------------------------

class _Forwarder(logging.Handler):
    """The worker's only log handler: keeps each record, ready to travel to the parent."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep ``record`` with its message formatted (its arguments may not pickle)."""
        record.msg = record.getMessage()
        record.args = None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        """The records kept since the last call."""
        taken, self.records = self.records, []
        return taken


class _Done(NamedTuple):
    at: int  # the key's index
    result: object
    logs: list[logging.LogRecord]


class _Raised(NamedTuple):
    at: int
    error: bytes | None  # the pickled exception, if it survives a round trip
    description: str  # its type, message and traceback otherwise
    logs: list[logging.LogRecord]


def _portable(exc: BaseException) -> tuple[bytes | None, str]:
    """``exc`` pickled, if it loads again; and its description, for when it does not."""
    description = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    try:
        blob = pickle.dumps(exc)
        pickle.loads(blob)
    except Exception:  # an exception whose constructor pickle cannot call again
        return None, description
    return blob, description


def _own_stdio() -> None:
    """Give the worker ``stdout``/``stderr`` objects of its own on descriptors 1 and 2:
    the inherited ones may be locked by a thread that did not survive the fork, and may
    hold the parent's unflushed output."""
    for name, fd in (("stdout", 1), ("stderr", 2)):
        try:
            os.fstat(fd)
        except OSError:
            continue  # no such descriptor: leave the stream as it is
        stream = io.TextIOWrapper(io.FileIO(fd, "w", closefd=False),
                                  line_buffering=True, errors="backslashreplace")
        setattr(sys, name, stream)


def _serve(conn: Connection, work: Callable[[Any], Coroutine[Any, Any, object]], level: int,
           inherited: Sequence[Connection]) -> None:
    """A worker's life: run each key received with ``work``, send back its result, stop at
    ``None`` (or when the parent has gone).

    ``inherited``: the parent's ends of every worker's pipe, which a forked worker holds
    too; it closes them, so that each pipe ends when the parent does (a worker whose
    parent was killed then exits instead of waiting for work forever).
    """
    for end in inherited:
        end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    gc.freeze()  # what the worker inherited lives as long as it does: never collect it
    _own_stdio()
    forwarder = _Forwarder()
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(forwarder)
    root.setLevel(level)
    logging.captureWarnings(True)
    with asyncio.Runner() as runner:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return  # the parent has gone: nothing to send results to
            if message is None:
                return
            index, key = message
            try:
                result = runner.run(work(key))
            except BaseException as exc:  # anything: the parent decides what it means
                error, description = _portable(exc)
                _send(conn, _Raised(index, error, description, forwarder.take()))
                return
            if not _send(conn, _Done(index, result, forwarder.take())):
                return


def _send(conn: Connection, message: object) -> bool:
    try:
        conn.send(message)
    except (BrokenPipeError, EOFError, OSError):
        return False  # the parent has gone
    return True


# -- in the parent ------------------------------------------------------------------------

class _Worker:
    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.sent: deque[int] = deque()  # indices in flight, oldest first


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Hold SIGINT back while workers start: a worker ignores it before it unblocks it,
    and the parent receives a Ctrl-C pressed meanwhile as soon as they have started."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _context(method: StartMethod) -> multiprocessing.context.DefaultContext:
    """The ``multiprocessing`` context of ``method``, typed as one that makes processes."""
    context = multiprocessing.get_context(method)
    assert isinstance(context, multiprocessing.context.BaseContext)
    return typing.cast(multiprocessing.context.DefaultContext, context)


def _start(work: Callable[[Any], Coroutine[Any, Any, object]], count: int,
           method: StartMethod) -> list[_Worker]:
    context = _context(method)
    level = logging.getLogger().getEffectiveLevel()
    started: list[_Worker] = []
    with _sigint_blocked(), warnings.catch_warnings():
        # Python 3.12+ warns about fork() in a process with threads (a progress bar's);
        # a worker never takes a lock another thread may hold (see the module docstring).
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=r".*use of fork\(\) may lead to deadlocks")
        try:
            for _ in range(count):
                parent, child = context.Pipe()
                inherited = [*(w.conn for w in started), parent] if method == "fork" else []
                process = context.Process(target=_serve, args=(child, work, level, inherited),
                                          daemon=True, name="remit-worker")
                process.start()
                child.close()
                started.append(_Worker(process, parent))
        except BaseException:
            _stop(started, kill=True)
            _close(started)
            raise
    return started


def _stop(workers: Sequence[_Worker], *, kill: bool) -> None:
    """Stop the workers: ask them to exit (``kill``: end them at once), then wait; their
    pipes stay open (what they sent before they ended can still be read)."""
    for worker in workers:
        if kill:
            worker.process.terminate()
        else:
            _send(worker.conn, None)
    for worker in workers:
        worker.process.join(_JOIN_SECONDS)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def _close(workers: Sequence[_Worker]) -> None:
    for worker in workers:
        worker.conn.close()


class _Run(Generic[_K, _R]):
    """The parent's side of one pooled run: dispatch, collect, hand over in order."""

    def __init__(self, keys: Sequence[_K], workers: list[_Worker],
                 on_result: Callable[[int, _R], None], describe: Callable[[_K], str]) -> None:
        self.keys = keys
        self.workers = workers
        self.on_result = on_result
        self.describe = describe
        self.todo = deque(range(len(keys)))
        self.finished: dict[int, _R] = {}
        self.results: list[_R] = []  # handed over, in key order
        self.inbox: asyncio.Queue[tuple[_Worker, _Done | _Raised | None]] = asyncio.Queue()
        self.handing = False  # inside on_result: an error there stops the handing over

    def dispatch(self, worker: _Worker, up_to: int = IN_FLIGHT) -> None:
        """Send ``worker`` trials until it has ``up_to`` in flight (or none are left)."""
        while self.todo and len(worker.sent) < up_to:
            index = self.todo.popleft()
            worker.sent.append(index)
            if not _send(worker.conn, (index, self.keys[index])):
                return  # it died: its pipe's end says so to the reader

    def read(self, worker: _Worker) -> None:
        """Called by the event loop when a worker's pipe is readable: one message, or
        ``None`` when the worker is gone."""
        try:
            message: _Done | _Raised | None = worker.conn.recv()
        except (EOFError, OSError):
            message = None
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        self.inbox.put_nowait((worker, message))

    async def collect(self) -> list[_R]:
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            loop.add_reader(worker.conn.fileno(), self.read, worker)
        for up_to in range(1, IN_FLIGHT + 1):  # in turn: a short run is spread evenly
            for worker in self.workers:
                self.dispatch(worker, up_to)
        try:
            while len(self.results) < len(self.keys):
                worker, message = await self.inbox.get()
                self.receive(worker, message)
        finally:
            for worker in self.workers:
                loop.remove_reader(worker.conn.fileno())
        return self.results

    def salvage(self) -> None:
        """Once the workers have ended early: hand over every trial they finished (those
        received, those still in their pipes), in key order with gaps. Not after an
        error of ``on_result`` itself, which would only fail again."""
        if self.handing:
            return
        arrived = [self.inbox.get_nowait()[1] for _ in range(self.inbox.qsize())]
        for worker in self.workers:
            while worker.conn.poll():
                try:
                    arrived.append(worker.conn.recv())
                except (EOFError, OSError):
                    break  # a message cut short when its worker ended
        for message in arrived:
            if isinstance(message, _Done):
                _emit(message.logs)
                self.finished[message.at] = typing.cast(_R, message.result)
        self.hand_over(everything=True)

    def receive(self, worker: _Worker, message: _Done | _Raised | None) -> None:
        if message is None:
            self.died(worker)
        _emit(message.logs)
        if isinstance(message, _Raised):
            self.raised(message)
        worker.sent.remove(message.at)
        self.finished[message.at] = typing.cast(_R, message.result)
        self.dispatch(worker)
        self.hand_over()

    def died(self, worker: _Worker) -> typing.NoReturn:
        worker.process.join(_JOIN_SECONDS)
        trial = self.describe(self.keys[worker.sent[0]]) if worker.sent else "none"
        code = worker.process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 \
            else f"exited with status {code}"
        raise WorkerFailedError(trial, f"process {worker.process.pid} {how} before "
                                "finishing it")

    def raised(self, message: _Raised) -> typing.NoReturn:
        trial = self.describe(self.keys[message.at])
        if message.error is None:
            raise WorkerFailedError(trial, f"it raised {message.description}, which cannot "
                                    "be sent back to the parent process")
        error: BaseException = pickle.loads(message.error)
        error.add_note(f"raised in a worker process, on trial {trial}")
        raise error

    def hand_over(self, *, everything: bool = False) -> None:
        """Hand the finished results to ``on_result`` in key order, as far as they go
        without a gap (``everything``: the rest too, when the run stops early)."""
        self.handing = True
        while (index := len(self.results)) in self.finished:
            result = self.finished.pop(index)
            self.on_result(index, result)
            self.results.append(result)
        if everything:
            for index in sorted(self.finished):
                self.on_result(index, self.finished.pop(index))
        self.handing = False


def _emit(records: Sequence[logging.LogRecord]) -> None:
    """Log a worker's records in the parent, through the parent's handlers."""
    for record in records:
        logging.getLogger(record.name).handle(record)


async def run_in_workers(work: Callable[[_K], Coroutine[Any, Any, _R]], keys: Sequence[_K], *,
                         workers: int, on_result: Callable[[int, _R], None] | None = None,
                         describe: Callable[[_K], str] = str,
                         method: StartMethod | None = None) -> list[_R]:
    """Run ``work(key)`` for every key in ``workers`` processes; return the results in key
    order.

    ``work`` is sent to each worker once, when it starts; the keys one by one. The
    parent hands each result to ``on_result`` (with its key's index) in key order as
    results arrive; when the run stops early (Ctrl-C, a failure), the results that
    arrived are handed over, out of order if they must, before the error propagates,
    and the workers are ended.

    Args:
        work: an asynchronous function of one key (picklable unless ``method`` is ``fork``).
        keys: what to run, in the order to start it and hand it over.
        workers: how many processes (at most one per key).
        on_result: called in the parent with each result's index and the result.
        describe: how errors name a key.
        method: the start method (default: :func:`start_method`).

    Raises:
        WorkerFailedError: a worker died, or a key's work raised an exception that
            cannot be sent back.
        BaseException: whatever a key's work raised, raised again (with a note).
    """
    if not keys:
        return []

    def ignore(index: int, result: _R) -> None:
        del index, result

    with _frozen_heap():
        pool = _start(work, min(workers, len(keys)), method or start_method())
        run = _Run(keys, pool, on_result or ignore, describe)
        try:
            with _no_full_collections():  # the workers have started: they collect as usual
                results = await run.collect()
        except BaseException:
            _stop(pool, kill=True)
            try:
                run.salvage()  # Ctrl-C or a failure: keep every finished trial
            finally:
                _close(pool)
            raise
        _stop(pool, kill=False)
        _close(pool)
    return results


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """Keep what exists when the workers start (the suite, the catalogue) out of the
    garbage collector until they end, as Python's documentation advises before a fork:
    forked workers share its pages, and no collection in the parent traverses it. Left
    alone if someone else froze the heap."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def _no_full_collections() -> Iterator[None]:
    """Leave the parent's oldest generation alone while records stream in.

    Every record received lives until the run ends, so each full collection the
    records trigger would traverse all of them again (half the parent's time); young
    objects are still collected as usual, and the thresholds are restored afterwards.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], _NO_FULL_COLLECTIONS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
