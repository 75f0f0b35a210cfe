"""Running a run's coroutine to the end, and what Ctrl-C stops where.

:func:`drive` is the one place remit turns its asynchronous runner into a blocking call.
It differs from :func:`asyncio.run` in how it treats Ctrl-C: a trial's own synchronous
code (marked with :func:`interruptible`) stops at once, everything else is cancelled at
its next ``await``, and every task is collected before the loop closes, so an interrupted
run leaves the resume hint and nothing else on the terminal.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Coroutine, Generator, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import Any, TypeVar

__all__ = ["drive", "interruptible"]

_LOG = logging.getLogger(__name__)
_T = TypeVar("_T")


_SYNC_TRIAL_CODE: ContextVar[bool] = ContextVar("remit_sync_trial_code", default=False)
"""Whether the code running now is a trial's synchronous code (see :func:`interruptible`)."""


@contextmanager
def interruptible(at_once: bool = True) -> Iterator[None]:
    """Mark the synchronous code inside as a trial's own, which Ctrl-C may stop at once.

    While :func:`drive` runs, Ctrl-C raises ``KeyboardInterrupt`` at once only inside
    such code (building an agent, a synchronous agent's calls, the turn loop): that may
    stop a slow agent mid-trial, and the trial is then never recorded. Anywhere else
    (the event loop, an awaited asynchronous agent, saving a finished trial) it
    cancels the run at its next ``await`` instead, so asyncio's own bookkeeping is never
    broken into and a trial being saved is saved whole. ``at_once=False`` marks the
    inside as not the trial's own (an ``await`` within such code).
    """
    token = _SYNC_TRIAL_CODE.set(at_once)
    try:
        yield
    finally:
        _SYNC_TRIAL_CODE.reset(token)


class _CtrlC:
    """SIGINT while :func:`drive` runs (see :func:`interruptible`).

    A second Ctrl-C raises ``KeyboardInterrupt`` wherever it lands, so a run that does
    not stop when cancelled can still be left.

    Attributes:
        cancelled: whether a Ctrl-C has cancelled the run (the run's task, once it exists).
    """

    def __init__(self) -> None:
        self.cancelled = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._main: asyncio.Task[Any] | None = None

    def watch(self, loop: asyncio.AbstractEventLoop, main: asyncio.Task[Any]) -> None:
        """Cancel ``main`` on Ctrl-C from now on, or at once if Ctrl-C came already."""
        self._loop = loop
        self._main = main
        if self.cancelled:
            main.cancel()

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.cancelled or _SYNC_TRIAL_CODE.get():
            raise KeyboardInterrupt
        self.cancelled = True
        loop, main = self._loop, self._main
        if loop is not None and main is not None and not loop.is_closed():
            main.cancel()
            loop.call_soon_threadsafe(_wake_up)  # the loop may be waiting in select()

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Handle SIGINT while inside, if Python's own handler has it now (and this is
        the main thread); otherwise leave it alone."""
        if (threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
            yield
            return
        signal.signal(signal.SIGINT, self)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _wake_up() -> None:
    """Nothing: scheduling it wakes an event loop waiting for I/O."""


_INTERRUPTS = (KeyboardInterrupt, SystemExit)
"""What asyncio re-raises out of the loop when a task's step raises it; the task still
ends with it as its exception, which nothing retrieves unless :func:`drive` does."""

_TaskCoroutine = Coroutine[Any, Any, Any] | Generator[Any, None, Any]


def drive(coroutine: Coroutine[object, object, _T]) -> _T:
    """Run ``coroutine`` to completion on a fresh event loop; Ctrl-C stops it at once.

    Unlike :func:`asyncio.run`, Ctrl-C interrupts even a synchronous agent in the middle
    of a trial (``asyncio.run`` would only cancel at the next ``await``); see
    :func:`interruptible` for where it stops what. Either way every task is cancelled
    and awaited before the loop closes, and ``KeyboardInterrupt`` propagates, with
    nothing logged about the tasks it ended. Trials that finished have already been
    handed to ``on_trial``; a trial being handed over when Ctrl-C comes is handed over
    whole first.
    """
    ctrl_c = _CtrlC()
    tasks: list[asyncio.Task[Any]] = []

    def track(loop: asyncio.AbstractEventLoop, coro: _TaskCoroutine,
              **options: Any) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, **options)
        tasks.append(task)
        return task

    with ctrl_c.installed():
        loop = asyncio.new_event_loop()
        try:
            loop.set_task_factory(track)
            result = _run(loop, coroutine, ctrl_c, tasks)
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
    if ctrl_c.cancelled:  # Ctrl-C came as the run finished: it still stops the caller
        raise KeyboardInterrupt
    return result


def _run(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[object, object, _T],
         ctrl_c: _CtrlC, tasks: list[asyncio.Task[Any]]) -> _T:
    """Run ``coroutine`` on ``loop`` as :func:`drive` says; leave no task pending."""
    interrupt: BaseException | None = None
    try:
        main = loop.create_task(coroutine)
        ctrl_c.watch(loop, main)
        return loop.run_until_complete(main)
    except asyncio.CancelledError:
        if not ctrl_c.cancelled:
            raise
        interrupt = KeyboardInterrupt()
        raise interrupt from None
    except _INTERRUPTS as exc:
        interrupt = exc
        raise
    finally:
        try:
            _cancel_pending(loop, interrupt)
        finally:
            if interrupt is not None:
                _retrieve_exceptions(tasks)


def _cancel_pending(loop: asyncio.AbstractEventLoop, interrupt: BaseException | None) -> None:
    """Cancel every task still pending on ``loop`` and run the loop until all have ended.

    After Ctrl-C in a task, each task awaiting it (through ``gather`` or ``await``) ends
    with the same ``interrupt``, which asyncio re-raises out of the loop; it is already
    on its way to the caller, so here it only means "run the loop again". Any other
    interrupt (Ctrl-C pressed again) propagates.
    """
    while pending := asyncio.all_tasks(loop):
        for task in pending:
            task.cancel()
        try:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        except _INTERRUPTS as exc:
            if exc is not interrupt:
                raise


def _retrieve_exceptions(tasks: list[asyncio.Task[Any]]) -> None:
    """Retrieve the exception of every ended task, so that asyncio does not log "Task
    exception was never retrieved" for each task an interrupt ended.

    Only called when the run is interrupted: the interrupt propagating from
    :func:`drive` is the report. Any other exception a task ended with is logged at
    debug level, since the interrupt stopped whatever would have awaited it.
    """
    for task in tasks:
        if not task.done() or task.cancelled():
            continue
        exc = task.exception()
        if exc is not None and not isinstance(exc, _INTERRUPTS):
            _LOG.debug("task %s ended with %r while the run was interrupted",
                       task.get_name(), exc)
    tasks.clear()
