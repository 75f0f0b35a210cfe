"""Inside a Ray actor (:mod:`remit.harness.ray_executor`): load a run's work once, run
trials by key, send each record back with the log records its trial emitted.

:class:`TrialActor` is a plain class, made a Ray actor by the driver
(``ray.remote(TrialActor)``), so that importing this module never imports Ray. Its
methods are coroutines: Ray runs them on the actor's own event loop, up to the actor's
``max_concurrency`` at a time, so an asynchronous agent (an LLM's) overlaps its trials'
waiting inside each actor as ``--concurrency`` does in one process; a synchronous
agent's trial holds the loop, and the actor runs one trial at a time.

The work (the scenarios, the modes, the agent factory, the seed, the retries) travels as
one pickled blob in Ray's object store; each call carries the blob's reference and id,
and the actor unpickles it on its first call (and again after Ray restarts it on another
worker, when a worker is lost). An agent factory travels as data: a class or function by
its import path, the LLM agent's factory by its configuration, so every worker imports
the agent and builds its own client. A worker that cannot load it raises
:class:`WorkLoadError`, naming the node.
"""

from __future__ import annotations

import logging
import os
import pickle
import socket
from collections.abc import Callable, Coroutine
from typing import Any

from remit.errors import RunAbortedError
from remit.harness.worker_process import Done, Forwarder

__all__ = ["TrialActor", "WorkLoadError"]


class WorkLoadError(RunAbortedError):
    """A Ray worker could not load a run's work (most often: it cannot import the agent).

    Attributes:
        node: the node's address, as Ray names it.
        reason: what failed, as the worker saw it.
    """

    def __init__(self, node: str, reason: str) -> None:
        self.node = node
        self.reason = reason
        super().__init__(f"a Ray worker on node {node} cannot load the run's agent: {reason}; "
                         "install the agent's package (and remit) on every node, or give "
                         "--agent as an import path every node can import")

    def __reduce__(self) -> tuple[type[WorkLoadError], tuple[str, str]]:
        return type(self), (self.node, self.reason)


def node_address() -> str:
    """This process's node, as Ray names it (its IP address), or its host name."""
    try:
        import ray  # noqa: PLC0415  # only ever called inside a Ray worker

        address: Callable[[], object] = ray.util.get_node_ip_address  # untyped in Ray
        return str(address())
    except Exception:  # outside Ray, or Ray cannot tell: the host name will do
        return socket.gethostname()


Work = Callable[[Any], Coroutine[Any, Any, object]]


class TrialActor:
    """One Ray actor: keeps one run's work (and so one agent factory) warm, runs its
    trials by key.

    Args:
        level: the driver's log level; records at or above it travel back.
    """

    def __init__(self, level: int = logging.WARNING) -> None:
        self._work: Work | None = None
        self._work_id = ""
        self._forwarder = Forwarder()
        root = logging.getLogger()
        root.addHandler(self._forwarder)
        root.setLevel(level)
        logging.captureWarnings(True)

    def where(self) -> tuple[str, int]:
        """The node and process id this actor runs in."""
        return node_address(), os.getpid()

    def _load(self, work_id: str, boxed: list[Any]) -> Work:
        if self._work is None or self._work_id != work_id:
            import ray  # noqa: PLC0415  # only ever called inside a Ray worker

            try:
                loaded = pickle.loads(ray.get(boxed[0]))
            except Exception as exc:  # whatever unpickling raises, the work cannot load
                raise WorkLoadError(node_address(), f"{type(exc).__name__}: {exc}") from None
            self._work, self._work_id = loaded, work_id
        return self._work

    async def run(self, work_id: str, boxed: list[Any], index: int, key: object) -> Done:
        """Run the trial ``key`` of the work ``work_id`` (its blob's reference is
        ``boxed[0]``, in a list so that Ray hands over the reference, not the blob).

        Returns:
            the trial's :class:`~remit.harness.worker_process.Done` (``index``, the
            record, and the log records emitted since the last call returned).
        """
        work = self._load(work_id, boxed)
        try:
            result = await work(key)
        except Exception as exc:  # the driver raises it again: say where it was raised
            exc.add_note(f"raised in a Ray worker on node {node_address()}")
            raise
        return Done(index, result, self._forwarder.take())
