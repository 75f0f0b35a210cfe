"""Agents for the Ray executor tests (``--executor ray``): each tests one thing that can
go wrong between the driver and its Ray workers.

They live in an importable module so that Ray workers import them by name, as they
would a user's ``--agent package.module:factory``.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

from remit.actors import OracleAgent, TrialInfo, reference_agent
from remit.world import ToolCall

__all__ = ["KILLED_ON", "KillsItsWorkerOnce", "NotOnWorkers", "unpicklable"]

KILLED_ON = ("fff-substitution", "dual_control", 0)
"""The trial during which :class:`KillsItsWorkerOnce` kills its worker process."""


class _Killed(OracleAgent):
    def __init__(self, info: TrialInfo, marker: Path) -> None:
        super().__init__(info)
        self.marker = marker

    def act(self, observation: object) -> ToolCall:
        if not self.marker.exists():
            self.marker.write_text(str(os.getpid()), encoding="utf-8")
            os.kill(os.getpid(), signal.SIGKILL)  # the OOM killer's way, mid-trial
        return super().act(observation)  # type: ignore[arg-type]


class KillsItsWorkerOnce:
    """The oracle, except that trial :data:`KILLED_ON` kills its worker process the first
    time it runs (when ``marker`` does not exist yet; it then writes its pid there).

    Args:
        marker: the file that says the kill has happened.
    """

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __call__(self, info: TrialInfo) -> OracleAgent:
        """The trial's agent."""
        if (info.scenario_id, info.mode, info.trial) == KILLED_ON:
            return _Killed(info, self.marker)
        return OracleAgent(info)


reference_agent(KillsItsWorkerOnce)


def _only_in(pid: int) -> OracleAgent:
    """What unpickling a :class:`NotOnWorkers` calls: fails in any other process, as an
    import of a module that only the driver's machine has would."""
    if os.getpid() != pid:
        raise ModuleNotFoundError("No module named 'agent_only_on_the_driver'")
    return NotOnWorkers(pid)  # type: ignore[return-value]


class NotOnWorkers:
    """A factory that pickles, and loads again in the driver, but not on a Ray worker."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = os.getpid() if pid is None else pid

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _only_in, (self.pid,)

    def __call__(self, info: TrialInfo) -> OracleAgent:
        """The oracle."""
        return OracleAgent(info)


reference_agent(NotOnWorkers)


class _HoldsALock:
    """A factory holding a lock: it cannot be pickled."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __call__(self, info: TrialInfo) -> OracleAgent:
        with self.lock:
            return OracleAgent(info)


unpicklable = _HoldsALock()
"""``--agent tests.ray_agents:unpicklable``: a factory that cannot travel to Ray workers."""
