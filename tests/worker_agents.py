"""Agents for the worker-process tests (``--workers``): each misbehaves in one way.

They live in an importable module so that ``--agent tests.worker_agents:NAME`` finds
them, and so that a ``forkserver`` worker can load them by name. What goes wrong
depends on the trial (its scenario, mode and index), never on which process runs it.
"""

from __future__ import annotations

import logging
import os
import signal

from remit.actors import Briefing, Observation, OracleAgent, TrialInfo, reference_agent
from remit.errors import InfrastructureError
from remit.world import ToolCall

__all__ = [
    "ATTEMPTS",
    "DIES_ON",
    "AsyncOracle",
    "NoArguments",
    "dying",
    "flaky",
    "hidden_async",
    "killed",
    "logging_oracle",
    "raising_factory",
    "unportable",
]

_LOG = logging.getLogger(__name__)

DIES_ON = 1
"""The trial index during which :func:`dying`'s agent ends its worker process."""


class AsyncOracle:
    """The oracle behind an asynchronous interface (as an LLM client would be)."""

    def __init__(self, info: TrialInfo) -> None:
        self.inner = OracleAgent(info)

    async def start(self, briefing: Briefing) -> None:
        """Read the briefing."""
        self.inner.start(briefing)

    async def act(self, observation: Observation) -> ToolCall:
        """The oracle's next call."""
        return self.inner.act(observation)


reference_agent(AsyncOracle)


class NoArguments:
    """An agent built without arguments, which ends every trial at once."""

    def start(self, briefing: Briefing) -> None:
        """Nothing to read."""

    def act(self, observation: Observation) -> ToolCall:
        """End the trial."""
        return ToolCall(tool="end", arguments={"summary": "nothing to do"})


@reference_agent
def hidden_async(info: TrialInfo):  # type: ignore[no-untyped-def]  # says nothing on purpose
    """An asynchronous agent behind a factory without a return annotation."""
    return AsyncOracle(info)


ATTEMPTS: dict[tuple[str, str, int], int] = {}
"""Attempts per trial in this process (a trial's retries happen where it runs)."""


@reference_agent
def flaky(info: TrialInfo) -> OracleAgent:
    """The oracle, after an infrastructure error on the first attempt of every trial 0."""
    key = (info.scenario_id, info.mode, info.trial)
    ATTEMPTS[key] = ATTEMPTS.get(key, 0) + 1
    if info.trial == 0 and ATTEMPTS[key] == 1:
        raise InfrastructureError(f"the agent's server is away for {info.scenario_id}")
    return OracleAgent(info)


class _Dies(OracleAgent):
    def act(self, observation: Observation) -> ToolCall:
        os._exit(3)  # a crash that leaves no exception behind (a segfault, the OOM killer)


@reference_agent
def dying(info: TrialInfo) -> OracleAgent:
    """The oracle, except that trial :data:`DIES_ON` ends its process mid-trial."""
    return _Dies(info) if info.trial == DIES_ON else OracleAgent(info)


class _Killed(OracleAgent):
    def act(self, observation: Observation) -> ToolCall:
        os.kill(os.getpid(), signal.SIGKILL)  # the OOM killer's way
        raise AssertionError("unreachable: SIGKILL cannot be caught")


@reference_agent
def killed(info: TrialInfo) -> OracleAgent:
    """The oracle, except that trial :data:`DIES_ON` is killed mid-trial."""
    return _Killed(info) if info.trial == DIES_ON else OracleAgent(info)


@reference_agent
def raising_factory(info: TrialInfo) -> OracleAgent:
    """A factory that cannot build the agent of trial 1 (its own bug)."""
    if info.trial == 1:
        raise LookupError(f"no agent configured for trial {info.trial} of {info.scenario_id}")
    return OracleAgent(info)


class UnportableError(Exception):
    """An exception pickle cannot rebuild: its constructor takes two arguments."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


@reference_agent
def unportable(info: TrialInfo) -> OracleAgent:
    """A factory whose error on trial 1 cannot be sent back from a worker."""
    if info.trial == 1:
        raise UnportableError("agent", "broken beyond pickling")
    return OracleAgent(info)


class _Logging(OracleAgent):
    def __init__(self, info: TrialInfo) -> None:
        super().__init__(info)
        self.trial = f"{info.scenario_id}/{info.mode}/{info.trial}"

    def start(self, briefing: Briefing) -> None:
        _LOG.warning("trial %s started", self.trial)
        super().start(briefing)


@reference_agent
def logging_oracle(info: TrialInfo) -> OracleAgent:
    """The oracle, logging one warning per trial."""
    return _Logging(info)
