"""A command refused for a user's mistake writes nothing: no database file, no tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app

MISTAKES = {
    "unknown suite": (["run", "--suite", "nosuch"], "nosuch"),
    "unknown agent": (["run", "--suite", "handwritten", "--agent", "nosuch"], "nosuch"),
    "unknown mode": (["run", "--suite", "handwritten", "--modes", "nosuch"], "nosuch"),
    "resume in a missing database": (["run", "--resume", "r-nope"], "no remit database at"),
    "LLM option without an LLM agent": (["run", "--suite", "handwritten", "--temperature", "1"],
                                        "only apply to --agent openai:MODEL"),
    "report with an unknown suffix": (["run", "--suite", "handwritten", "--report", "r.txt"],
                                      "r.txt"),
    "workers with concurrency": (["run", "--suite", "handwritten", "--workers", "2",
                                  "--concurrency", "4"], "give one of them"),
    "workers with an asynchronous agent": (["run", "--suite", "handwritten", "--workers", "2",
                                            "--agent", "tests.worker_agents:AsyncOracle"],
                                           "AsyncOracle is asynchronous"),
    "compare in a missing database": (["compare", "r-nope"], "no remit database at"),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_refused_command_leaves_no_database(tmp_path: Path, mistake: str) -> None:
    args, named = MISTAKES[mistake]
    db = tmp_path / "remit.db"

    result = CliRunner().invoke(app, [*args, "--db", str(db)])

    assert result.exit_code == 2, result.output
    assert named in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
