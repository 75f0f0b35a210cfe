"""Where ``remit run`` runs its trials: ``--executor local|ray`` and its options.

The CLI only assembles the executor; :mod:`remit.harness.ray_executor` is the executor
itself. Everything here is checked before a database is opened, so a bad option, an
address that does not answer or an agent that cannot travel writes nothing.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from remit.actors import AgentFactory
    from remit.harness import TrialExecutor

__all__ = ["capacity", "check_runnable", "connected", "executor_of"]


def executor_of(executor: str, address: str | None, resources: str | None, *,
                workers: int, concurrency: int, workers_given: bool
                ) -> TrialExecutor | None:
    """The Ray executor ``--executor ray`` asks for (not yet connected), or ``None``
    for ``local``; the ``--ray-*`` options are refused without ``--executor ray``.

    Args:
        executor: ``local`` or ``ray``.
        address, resources: ``--ray-address`` and ``--ray-resources``.
        workers: ``--workers``: on Ray, the actors, when ``workers_given``; otherwise
            one per CPU of the cluster.
        concurrency: trials in flight at once over all actors.
        workers_given: whether ``--workers`` was given.

    Raises:
        ValueError: a ``--ray-*`` option without ``--executor ray``.
        ExecutorError: ``--ray-resources`` is not a JSON object of amounts.
    """
    if executor != "ray":
        given = [f"--{name.replace('_', '-')}" for name, value
                 in (("ray_address", address), ("ray_resources", resources)) if value]
        if given:
            verb, them = ("apply", "them") if len(given) > 1 else ("applies", "it")
            raise ValueError(f"{' and '.join(given)} only {verb} with --executor ray; add "
                             f"--executor ray, or leave {them} out to run on this machine")
        return None
    from remit.harness import RayExecutor, parse_resources

    return RayExecutor(address=address, resources=parse_resources(resources),
                       actors=workers if workers_given else None, concurrency=concurrency)


def check_runnable(factory: AgentFactory, executor: TrialExecutor | None, *, workers: int,
                   concurrency: int) -> None:
    """Refuse, before the run starts, an agent its executor cannot run: one that worker
    processes cannot run (:func:`~remit.harness.check_workers`), or one that cannot
    travel to Ray workers (:func:`~remit.harness.check_portable`)."""
    from remit.harness import check_portable, check_workers

    if executor is None:
        check_workers(factory, workers=workers, concurrency=concurrency)
    else:
        check_portable(factory)


def connected(executor: TrialExecutor | None) -> contextlib.AbstractContextManager[object]:
    """The Ray executor, connected for the run's duration (refused in one line if it
    cannot connect), or nothing to do for ``local``.

    Ray's driver prints what its workers report (a worker lost, a task retried) on
    ``stdout``; while the run goes, ``stdout`` is ``stderr``, so that ``stdout`` holds the
    command's output alone (``--json`` stays parseable).
    """
    from remit.harness import RayExecutor

    if not isinstance(executor, RayExecutor):
        return contextlib.nullcontext()
    return _stdout_to_stderr(executor)


@contextlib.contextmanager
def _stdout_to_stderr(executor: contextlib.AbstractContextManager[object]) -> Iterator[None]:
    with contextlib.redirect_stdout(sys.stderr), executor:
        yield


def capacity(executor: TrialExecutor | None, workers: int, concurrency: int) -> int:
    """The most trials an executor holds in flight (see :mod:`remit.cli.progress`)."""
    from remit.harness import RayExecutor
    from remit.harness.pool import IN_FLIGHT

    if isinstance(executor, RayExecutor):
        return executor.capacity()
    if workers > 1:
        return workers * IN_FLIGHT
    return concurrency
