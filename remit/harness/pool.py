"""The parent's side of :mod:`remit.harness.workers`: start the worker processes, deal
them keys, hand their results over in key order, and end them.

:func:`run_in_workers` is generic: ``work`` is any picklable asynchronous function of
one key (the runner's is one trial of a run). The parent waits for the workers' pipes
on its event loop, so Ctrl-C reaches it as in a run in one process
(:func:`~remit.harness.driving.drive`): it ends the workers, hands over every result
they had finished (those received, those still in the pipes) and propagates.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
import signal
import typing
import warnings
from collections import deque
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from remit.harness.heap import run_heap
from remit.harness.in_order import InOrder
from remit.harness.worker_process import Done, Raised, emit, send, serve
from remit.harness.workers import StartMethod, WorkerFailedError, start_method

__all__ = ["IN_FLIGHT", "run_in_workers"]

_K = TypeVar("_K")
_R = TypeVar("_R")

IN_FLIGHT = 4
"""Keys (trials) sent to a worker and not yet returned: one running, the others waiting,
so that a worker goes on while the parent is not scheduled (on a busy machine that takes
longer than a trial), and the last trials are still spread evenly."""
_JOIN_SECONDS = 5.0
"""How long a stopping worker is given to exit before it is killed."""


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
        # a worker never takes a lock another thread may hold (see remit.harness.workers).
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=r".*use of fork\(\) may lead to deadlocks")
        try:
            for _ in range(count):
                parent, child = context.Pipe()
                inherited = [*(w.conn for w in started), parent] if method == "fork" else []
                process = context.Process(target=serve, args=(child, work, level, inherited),
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
            send(worker.conn, None)
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
        self.order: InOrder[_R] = InOrder(len(keys), on_result)
        self.inbox: asyncio.Queue[tuple[_Worker, Done | Raised | None]] = asyncio.Queue()

    def dispatch(self, worker: _Worker, up_to: int = IN_FLIGHT) -> None:
        """Send ``worker`` keys until it has ``up_to`` in flight (or none are left)."""
        while self.todo and len(worker.sent) < up_to:
            index = self.todo.popleft()
            worker.sent.append(index)
            if not send(worker.conn, (index, self.keys[index])):
                return  # it died: its pipe's end says so to the reader

    def read(self, worker: _Worker) -> None:
        """Called by the event loop when a worker's pipe is readable: one message, or
        ``None`` when the worker is gone."""
        try:
            message: Done | Raised | None = worker.conn.recv()
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
            while not self.order.complete:
                worker, message = await self.inbox.get()
                self.receive(worker, message)
        finally:
            for worker in self.workers:
                loop.remove_reader(worker.conn.fileno())
        return self.order.results

    def salvage(self) -> None:
        """Once the workers have ended early: hand over every trial they finished (those
        received, those still in their pipes), in key order with gaps. Not after an
        error of ``on_result`` itself, which would only fail again."""
        if self.order.handing:
            return
        arrived = [self.inbox.get_nowait()[1] for _ in range(self.inbox.qsize())]
        for worker in self.workers:
            while worker.conn.poll():
                try:
                    arrived.append(worker.conn.recv())
                except (EOFError, OSError):
                    break  # a message cut short when its worker ended
        for message in arrived:
            if isinstance(message, Done):
                emit(message.logs)
                self.order.finished[message.at] = typing.cast(_R, message.result)
        self.order.hand_over(everything=True)

    def receive(self, worker: _Worker, message: Done | Raised | None) -> None:
        if message is None:
            self.died(worker)
        emit(message.logs)
        if isinstance(message, Raised):
            self.raised(message)
        worker.sent.remove(message.at)
        self.dispatch(worker)
        self.order.add(message.at, typing.cast(_R, message.result))

    def died(self, worker: _Worker) -> typing.NoReturn:
        worker.process.join(_JOIN_SECONDS)
        trial = self.describe(self.keys[worker.sent[0]]) if worker.sent else "none"
        code = worker.process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 \
            else f"exited with status {code}"
        raise WorkerFailedError(trial, f"process {worker.process.pid} {how} before "
                                "finishing it")

    def raised(self, message: Raised) -> typing.NoReturn:
        trial = self.describe(self.keys[message.at])
        if message.error is None:
            raise WorkerFailedError(trial, f"it raised {message.description}, which cannot "
                                    "be sent back to the parent process")
        error: BaseException = pickle.loads(message.error)
        error.add_note(f"raised in a worker process, on trial {trial}")
        raise error


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

    with run_heap():  # forked workers share the frozen heap; records pile up in this one
        pool = _start(work, min(workers, len(keys)), method or start_method())
        run = _Run(keys, pool, on_result or ignore, describe)
        try:
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
