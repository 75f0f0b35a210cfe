"""Oracles that fail on purpose: one stops dead at a trial (for process-kill tests), one
meets an outage (for retrying infrastructure errors).

With ``REMIT_TEST_BLOCK_FIFO`` set, the factory, asked for its ``REMIT_TEST_BLOCK_AT``-th
agent, writes ``ready`` to that FIFO and then blocks reading a FIFO nobody writes to,
so the test can kill the process at a known point without sleeping. Without the
variable it is the plain oracle.
"""

from __future__ import annotations

import os

from remit.actors import OracleAgent, TrialInfo, reference_agent
from remit.errors import InfrastructureError

_built = 0


@reference_agent
def factory(info: TrialInfo) -> OracleAgent:
    """The oracle, or a dead stop at the configured trial."""
    global _built  # noqa: PLW0603 - one counter per worker process is the point
    _built += 1
    fifo = os.environ.get("REMIT_TEST_BLOCK_FIFO")
    if fifo and _built == int(os.environ.get("REMIT_TEST_BLOCK_AT", "1")):
        with open(fifo, "w", encoding="utf-8") as ready:
            ready.write("ready\n")
        with open(fifo + ".never", encoding="utf-8") as never:
            never.read()
    return OracleAgent(info)


OUTAGE_ENV = "REMIT_TEST_OUTAGE_SCENARIO"


@reference_agent
def outage(info: TrialInfo) -> OracleAgent:
    """The oracle, except that trials of the scenario named by ``REMIT_TEST_OUTAGE_SCENARIO``
    fail as if the model server were down, on every attempt."""
    if info.scenario_id == os.environ.get(OUTAGE_ENV):
        raise InfrastructureError("connection refused by the model server", kind="connection")
    return OracleAgent(info)
