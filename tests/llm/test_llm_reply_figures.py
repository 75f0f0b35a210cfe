"""A model that invents tools and sends bad arguments, through ``remit run --agent
openai:MODEL`` against a server on 127.0.0.1: its reply issues and its lack of a valid
write are in the terminal table, not hidden behind "agent errors 0"."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from remit.cli import app
from tests.llm.conftest import Serve
from tests.llm.fake_server import Body, Reply, assistant_turns, call

LINES = [{"sku": "BV-00003"}]  # no quantity: bad arguments


def _invents_tools(body: Body) -> Reply:
    """An unknown tool, then ``edit_lines`` without a quantity twice, then ``end``."""
    turn = assistant_turns(body)
    if turn == 0:
        return call("create_quote", sku="BV-00003")
    if turn in (1, 2):
        return call("edit_lines", quote_id="Q-1", lines=LINES)
    return call("end", summary="done")


def _cells(text: str, label: str) -> list[str]:
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│") if c.strip()]
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f"no row {label!r} in:\n{text}")


def test_a_model_that_never_writes_validly_shows_its_reply_issues(
        serve: Serve, tmp_path: Path) -> None:
    server = serve(_invents_tools)
    db = str(tmp_path / "llm.db")
    result = CliRunner().invoke(app, [
        "run", "--agent", "openai:tiny-model", "--base-url", server.url, "--db", db,
        "--suite", "handwritten", "--scenario", "supersession-substitution",
        "--modes", "dual_control,all_tools"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    shown = result.stdout

    assert _cells(shown, "agent errors") == ["0", "0"]
    assert _cells(shown, "no valid write (trials)") == ["1.00 [0.21, 1.00]"] * 2
    assert _cells(shown, "reply issue (trials)") == ["1.00 [0.21, 1.00]"] * 2
    per_trial = _cells(shown, "reply issues per trial")
    assert all(float(cell) >= 3 for cell in per_trial), per_trial
    for kind in ("unknown_tool", "bad_arguments"):
        assert all(int(cell) >= 1 for cell in _cells(shown, f"reply issues: {kind}")), kind
    assert re.search(r"FAIL supersession-substitution \(dual_control, trial 0 of 1\): the "
                     r"agent made no valid write; ", shown)

    run_id = re.search(r"stored as (r-\S+);", shown)
    assert run_id is not None
    compared = CliRunner().invoke(app, ["compare", run_id.group(1), "--db", db, "--json"])
    assert compared.exit_code == 0, compared.output
    metrics = {row["metric"] for row in json.loads(compared.stdout)["tradeoff"]}
    assert {"no_valid_write_rate", "reply_issue_rate", "mean_reply_issues"} <= metrics
