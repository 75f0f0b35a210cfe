"""A session's outcomes on disk, so that every pytest process can hand over full trails.

Under pytest-xdist each worker runs its own tests; a report or a stored run needs every
trial with its trail, which is too much to ship in test-report properties. Each process
appends its :class:`~remit.harness.outcome.ScenarioOutcome` s, one JSON line each, to
its own file in a directory the controller chose, with the node id of the test that
produced it; at the end the controller reads them all back (:func:`read_spool`) and
records or reports the session (one run per agent).
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from remit.harness.outcome import ScenarioOutcome

__all__ = ["SpooledOutcome", "read_spool", "spool_outcome"]


class SpooledOutcome(BaseModel):
    """One line of a spool: an outcome and the test that produced it.

    Attributes:
        test: the test's node id (``""`` when not produced by a test).
        outcome: the outcome, trails included.
    """

    model_config = ConfigDict(frozen=True)

    test: str
    outcome: ScenarioOutcome


def spool_outcome(directory: Path | str, outcome: ScenarioOutcome, *, test: str = "") -> None:
    """Append ``outcome`` of test ``test`` to this process's file in ``directory``."""
    path = Path(directory) / f"outcomes-{os.getpid()}.jsonl"
    with path.open("a", encoding="utf-8") as spool:
        spool.write(SpooledOutcome(test=test, outcome=outcome).model_dump_json() + "\n")


def read_spool(directory: Path | str) -> list[SpooledOutcome]:
    """Every outcome spooled in ``directory``, in file then line order."""
    outcomes = []
    for path in sorted(Path(directory).glob("outcomes-*.jsonl")):
        with path.open(encoding="utf-8") as spool:
            outcomes += [SpooledOutcome.model_validate_json(line) for line in spool if line]
    return outcomes
