"""Hostile agents end to end: ``remit run`` completes, every trial is stored and reads back.

Before the inbound boundary (:mod:`remit.world.untrusted`), a lone surrogate in any text
an agent sent stopped the whole run when the trial was stored (and ``--resume`` died on
the same trial again), arguments 250 levels deep could not be serialised, an agent's 1 MB
exception text was stored twice, and a ``usage()`` that raised stopped the run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.harness import TrialRecord
from remit.store import Store
from remit.world import EndEntry, ErrorEntry, MessageEntry, ToolCallEntry

SCENARIO = "discount-exception"


def _run(db: Path, agent: str) -> TrialRecord:
    """Run ``agent`` on one trial; the stored trial, read back from the database."""
    result = CliRunner().invoke(app, [
        "run", "--db", str(db), "--suite", "handwritten", "--scenario", SCENARIO,
        "--modes", "dual_control", "--agent", f"tests.untrusted_agents:{agent}"])
    assert result.exit_code == 0, result.output
    found = re.search(r"stored as (r-\S+);", result.stdout)
    assert found is not None, result.stdout
    with Store.open(str(db)) as store:
        [record] = store.trials(found.group(1))
    trail = CliRunner().invoke(app, ["trail", f"{found.group(1)}/{SCENARIO}/dual_control/0",
                                     "--db", str(db)])
    assert trail.exit_code == 0, trail.output
    return record


def _calls(record: TrialRecord) -> list[ToolCallEntry]:
    return [e for e in record.trail if isinstance(e, ToolCallEntry) and e.actor == "agent"]


def _errors(record: TrialRecord) -> list[ErrorEntry]:
    return [e for e in record.trail if isinstance(e, ErrorEntry) and e.actor == "agent"]


def test_lone_surrogates_are_replaced_and_the_run_is_stored(tmp_path: Path) -> None:
    record = _run(tmp_path / "remit.db", "surrogates")

    calls = _calls(record)
    assert calls[0].arguments == {"to": "buyer", "text": "hello \ufffd there"}
    assert calls[2].arguments == {"quote\ufffd": calls[1].arguments["quote_id"][:-1]}
    assert calls[3].tool == "get_quote\ufffd"
    sent = [e for e in record.trail if isinstance(e, MessageEntry) and e.sender == "agent"]
    assert sent[0].text == "hello \ufffd there"
    assert [e.code for e in _errors(record)] == ["not_found", "bad_arguments", "unknown_tool"]
    end = record.trail[-1]
    assert isinstance(end, EndEntry)
    assert end.summary == "bye \ufffd"


def test_arguments_too_deep_are_refused_and_recorded_as_a_note(tmp_path: Path) -> None:
    record = _run(tmp_path / "remit.db", "deep")

    errors = _errors(record)
    assert [e.code for e in errors[:3]] == ["bad_arguments"] * 3
    assert all("nest deeper than 32 levels" in e.message for e in errors[:3])
    for call in _calls(record)[:3]:
        assert "nest deeper than 32 levels" in str(call.arguments["not_recorded"])
        assert len(str(call.arguments["prefix"])) < 250


def test_huge_arguments_are_refused_and_quoted_short(tmp_path: Path) -> None:
    record = _run(tmp_path / "remit.db", "huge")

    errors = _errors(record)
    assert [e.code for e in errors] == ["not_found", "bad_arguments", "bad_arguments",
                                        "bad_arguments", "bad_arguments", "unknown_tool"]
    assert all(len(e.message) < 1000 for e in errors)
    assert errors[0].message.startswith(f"unknown SKU sku={'B' * 80!r}… (8000 chars); ")
    calls = _calls(record)
    assert calls[0].arguments == {"sku": "B" * 8000}  # within the limits: recorded whole
    assert "the string at sku has 1000000 characters" in errors[1].message
    assert "the string at sku has 1000000 characters" in str(calls[1].arguments["not_recorded"])
    assert "the string at text has 2000000 characters" in errors[2].message
    assert "arguments take more than 65536 characters as JSON" in errors[3].message
    assert "the list at many has 5000 items, more than the limit of 1000" in errors[4].message
    assert "(100000 chars)" in errors[5].message
    assert len(calls[5].tool) < 200


def test_an_agent_exception_is_recorded_cleaned_and_cut_short(tmp_path: Path) -> None:
    record = _run(tmp_path / "remit.db", "raising")

    [error] = _errors(record)
    assert error.code == "agent_error"
    assert error.message.startswith("agent raised RuntimeError: gave up \ufffd!!!")
    assert len(error.message) < 1100
    end = record.trail[-1]
    assert isinstance(end, EndEntry)
    assert end.reason == "agent_error"
    assert end.summary == error.message


@pytest.mark.parametrize(("agent", "issues"), [
    ("bad_usage", {"odd\ufffd": 1, "x" * 80 + "… (10000 chars)": 2}),
    ("failing_usage", None),
])
def test_usage_reports_are_cleaned_or_left_out_never_fatal(
        tmp_path: Path, agent: str, issues: dict[str, int] | None) -> None:
    record = _run(tmp_path / "remit.db", agent)

    usage = record.scored.score.usage
    assert (usage.reply_issues if usage is not None else None) == issues
