"""Inside a worker process (:mod:`remit.harness.workers`): its setup, its loop, and the
messages it sends back.

A worker ignores Ctrl-C (the parent ends it), freezes what it inherited out of its
garbage collector, writes through ``stdout``/``stderr`` objects of its own, and keeps
its log records (warnings included) to send them to the parent with each result,
where :func:`emit` logs them through the parent's handlers. It runs one key at a time
on one event loop and stops at ``None``, when the parent has gone, or after a key's
work raised (sent back as :class:`Raised`).
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Coroutine, Sequence
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

from remit.harness.heap import FRESH_THRESHOLDS

__all__ = ["Done", "Forwarder", "Raised", "emit", "send", "serve"]


class Forwarder(logging.Handler):
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


class Done(NamedTuple):
    """A key's result, and the log records its work emitted."""

    at: int  # the key's index
    result: object
    logs: list[logging.LogRecord]


class Raised(NamedTuple):
    """What a key's work raised, pickled if it survives a round trip, and described."""

    at: int
    error: bytes | None  # the pickled exception, if it survives a round trip
    description: str  # its type and message, for when it does not
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


def serve(conn: Connection, work: Callable[[Any], Coroutine[Any, Any, object]], level: int,
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
    gc.set_threshold(*FRESH_THRESHOLDS)  # not the parent's run thresholds (see heap)
    _own_stdio()
    forwarder = Forwarder()
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
                send(conn, Raised(index, error, description, forwarder.take()))
                return
            if not send(conn, Done(index, result, forwarder.take())):
                return


def send(conn: Connection, message: object) -> bool:
    try:
        conn.send(message)
    except (BrokenPipeError, EOFError, OSError):
        return False  # the parent has gone
    return True


def emit(records: Sequence[logging.LogRecord]) -> None:
    """Log a worker's records in the parent, through the parent's handlers."""
    for record in records:
        logging.getLogger(record.name).handle(record)
