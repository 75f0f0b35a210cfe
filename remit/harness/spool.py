"""A session's outcomes on disk, so that every pytest process can hand over full trails.

Under pytest-xdist each worker runs its own tests; a report or a stored run needs every
trial with its trail, which is too much to ship in test-report properties. Each process
appends its :class:`~remit.harness.outcome.ScenarioOutcome` s, one JSON line each, to
its own file in a directory the controller chose; at the end the controller reads them
all back (:func:`read_spool`) and records or reports the session as one run.
"""

from __future__ import annotations

import os
from pathlib import Path

from remit.harness.outcome import ScenarioOutcome

__all__ = ["read_spool", "spool_outcome"]


def spool_outcome(directory: Path | str, outcome: ScenarioOutcome) -> None:
    """Append ``outcome`` to this process's file in ``directory``."""
    path = Path(directory) / f"outcomes-{os.getpid()}.jsonl"
    with path.open("a", encoding="utf-8") as spool:
        spool.write(outcome.model_dump_json() + "\n")


def read_spool(directory: Path | str) -> list[ScenarioOutcome]:
    """Every outcome spooled in ``directory``, in file then line order."""
    outcomes = []
    for path in sorted(Path(directory).glob("outcomes-*.jsonl")):
        with path.open(encoding="utf-8") as spool:
            outcomes += [ScenarioOutcome.model_validate_json(line) for line in spool if line]
    return outcomes
