"""``remit run --agent openai:MODEL`` against a chat-completions server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from remit.actors.llm import PromptVariant, ToolCallFormat, prompt_hash, system_prompt
from remit.authority import Role, builtin_modes
from remit.cli import app
from remit.harness.orchestrator import briefing_for
from remit.scenarios.builtin import scenario_by_id
from remit.scenarios.files import dump_scenario
from remit.store import Store
from remit.world import ErrorEntry, ToolCallEntry
from tests.llm.conftest import Serve
from tests.llm.fake_server import (
    ByTurn,
    ReadThenEnd,
    call,
    closed_port_url,
    cut_off,
    http_error,
    native,
    text,
)


def test_the_core_suite_runs_against_a_local_server_in_both_modes(
        serve: Serve, tmp_path: Path) -> None:
    server = serve(ReadThenEnd(reads=2))
    db = tmp_path / "llm.db"
    result = CliRunner().invoke(app, [
        "run", "--agent", "openai:tiny-model", "--base-url", server.url, "--db", str(db),
        "--concurrency", "8", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["modes"]) == {"all_tools", "dual_control"}
    for summary in report["modes"].values():
        assert summary["trials"] == 120
        assert summary["model_calls"] == 3 * 120  # two reads and an end per trial
        assert summary["prompt_tokens"] > 0
    manifest = report["manifest"]
    assert manifest["agent_id"] == "openai:tiny-model"
    assert manifest["agent_config"]["model"] == "tiny-model"
    assert manifest["metadata"]["llm_cache"] == "off"
    with Store.open(str(db), create=False) as store:
        records = store.trials(report["run_id"], with_trails=False)
    assert len(records) == 240
    assert all(r.scored.score.usage is not None and r.scored.score.usage.model_calls == 3
               and r.scored.score.usage.reply_issues == {} for r in records)


def test_a_refused_api_key_stops_the_run_with_one_line(serve: Serve, tmp_path: Path) -> None:
    server = serve([http_error(401, "invalid api key")] * 50)
    result = CliRunner().invoke(app, [
        "run", "--suite", "handwritten", "--agent", "openai:tiny-model", "--base-url",
        server.url, "--db", str(tmp_path / "auth.db")])
    assert result.exit_code == 2
    assert "401" in result.stderr or "API key" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert len(server.requests) == 1  # stopped at once, no retries of a bad key
    assert result.stderr.strip().endswith("; nothing was stored")
    with Store.open(str(tmp_path / "auth.db"), create=False) as store:
        assert store.runs() == []  # the mistake leaves no empty run behind


def test_a_run_that_only_met_infrastructure_errors_exits_1(serve: Serve,
                                                          tmp_path: Path) -> None:
    server = serve([http_error(503, "overloaded")] * 400)
    result = CliRunner().invoke(app, [
        "run", "--suite", "handwritten", "--modes", "dual_control", "--agent",
        "openai:tiny-model", "--base-url", server.url, "--db", str(tmp_path / "down.db"),
        "--retries", "0", "--llm-retries", "0"])
    assert result.exit_code == 1, result.output
    assert "infrastructure errors: 10 trials" in result.stdout
    assert "every trial of r-" in result.stderr
    assert "--retry-errors" in result.stderr
    as_json = CliRunner().invoke(app, [
        "run", "--suite", "handwritten", "--modes", "dual_control", "--agent",
        "openai:tiny-model", "--base-url", server.url, "--db", str(tmp_path / "down.db"),
        "--retries", "0", "--llm-retries", "0", "--json"])
    assert as_json.exit_code == 1, as_json.output
    assert json.loads(as_json.stdout)["infra_errors"] == 10


def test_llm_options_with_another_agent_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "--suite", "handwritten", "--temperature", "0.2",
                                      "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert "only apply to --agent openai:MODEL" in result.stderr


NESTED = '{"a": ' * 299 + "{}" + "}" * 299
MISBEHAVING = ByTurn([
    call("get_quote", quote_id="Q-1"),                                      # native call
    text('```json\n{"name": "get_order", "arguments": {"quote_id": "Q-1"}}\n```'),  # content
    cut_off('```json\n{"name": "configure", "arguments": {"quote_id": "Q-1", "lines": ['),
    call("teleport", to="mars"),                                            # invented, native
    text('{"name": "lookup_price", "arguments": {"sku": "BV-1"}}'),        # invented, content
    native(("get_quote", NESTED)),                                          # nested arguments
    call("get_product", sku=42),                                            # wrong type
    call("get_product", sku=42),                                            # the same again
    text("Which design pressure do you need?"),                             # a message
    text(""),                                                               # empty
    text('{"name": "end", "arguments": {"summary": "done"}}'),             # content end
])


def _run(server_url: str, db: Path, *options: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [
        "run", "--agent", "openai:fake-model", "--base-url", server_url, "--db", str(db),
        "--modes", "dual_control", "--tool-call-format", "auto", "--json", *options])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_every_reply_of_a_misbehaving_model_is_recorded_and_counted_in_the_stored_run(
        serve: Serve, tmp_path: Path) -> None:
    server = serve(MISBEHAVING)
    db = tmp_path / "llm.db"
    report = _run(server.url, db, "--suite", "handwritten", "--scenario", "discount-exception")

    with Store.open(str(db), create=False) as store:
        (record,) = store.trials(report["run_id"], with_trails=True)
    usage = record.scored.score.usage
    assert usage is not None
    assert usage.model_calls == len(server.requests) == 11
    assert usage.reply_issues == {"truncated": 1, "unknown_tool": 2, "invalid_json": 1,
                                  "bad_arguments": 1, "repeated_call": 1, "empty_reply": 1}
    made = [(e.tool, e.arguments) for e in record.trail
            if isinstance(e, ToolCallEntry) and e.actor is Role.AGENT]
    assert [tool for tool, _ in made] == ["get_quote", "get_order", "teleport", "lookup_price",
                                          "get_product", "message", "end"]
    assert made[5][1] == {"to": "buyer", "text": "Which design pressure do you need?"}
    refused = [e.code for e in record.trail if isinstance(e, ErrorEntry)
               and e.actor is Role.AGENT]
    assert refused == ["unknown_tool", "unknown_tool", "bad_arguments"]
    # Each reply has exactly one outcome: a call the world took, a message, or an issue.
    taken = len(made) - len(refused)
    assert taken + sum(usage.reply_issues.values()) == usage.model_calls
    assert record.scored.score.end_reason == "agent_end"


def test_the_last_calls_error_is_counted_when_the_step_budget_ends_a_stored_trial(
        serve: Serve, tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    scenario = scenario_by_id("discount-exception").model_copy(update={"max_steps": 2})
    (suite / "001-discount-exception.scenario.yaml").write_text(dump_scenario(scenario))
    server = serve([call("get_quote", quote_id="Q-1"), call("teleport", to="mars")])
    db = tmp_path / "budget.db"
    report = _run(server.url, db, "--suite", str(suite))

    with Store.open(str(db), create=False) as store:
        (record,) = store.trials(report["run_id"], with_trails=False)
    assert record.scored.score.end_reason == "max_steps"
    assert record.scored.score.usage is not None
    assert record.scored.score.usage.reply_issues == {"unknown_tool": 1}
    assert len(server.requests) == 2


def _one_trial(url: str, db: Path, *options: str) -> list[str]:
    return ["run", "--suite", "handwritten", "--scenario", "discount-exception", "--modes",
            "dual_control", "--agent", "openai:tiny-model", "--base-url", url, "--db",
            str(db), "--json", *options]


def test_prompt_compact_is_sent_and_named_in_the_manifest(serve: Serve, tmp_path: Path) -> None:
    server = serve(ReadThenEnd(reads=0))
    db = tmp_path / "prompt.db"
    runs = {}
    for variant in ("full", "compact"):
        result = CliRunner().invoke(app, _one_trial(
            server.url, db, "--tool-call-format", "content-json", "--prompt", variant))
        assert result.exit_code == 0, result.output
        runs[variant] = json.loads(result.stdout)["manifest"]["agent_config"]
    assert (runs["full"]["prompt"], runs["compact"]["prompt"]) == ("full", "compact")
    assert runs["compact"]["prompt_hash"] == prompt_hash(ToolCallFormat.CONTENT_JSON,
                                                         PromptVariant.COMPACT)
    assert runs["compact"]["prompt_hash"] != runs["full"]["prompt_hash"]
    briefing = briefing_for(scenario_by_id("discount-exception"), builtin_modes()["dual_control"])
    full_system, compact_system = (r["messages"][0]["content"] for r in server.requests)
    assert full_system == system_prompt(briefing, ToolCallFormat.CONTENT_JSON)
    assert compact_system == system_prompt(briefing, ToolCallFormat.CONTENT_JSON,
                                           PromptVariant.COMPACT)


def test_a_bad_prompt_variant_is_refused_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _one_trial("http://127.0.0.1:9/v1", tmp_path / "x.db",
                                                "--prompt", "tiny"))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "prompt='tiny' is invalid" in line


def test_a_run_against_a_closed_port_ends_every_trial_as_a_connection_error(
        tmp_path: Path) -> None:
    url = closed_port_url()
    db = tmp_path / "closed.db"
    result = CliRunner().invoke(app, [
        "run", "--suite", "handwritten", "--modes", "dual_control", "--agent",
        "openai:tiny-model", "--base-url", url, "--db", str(db), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["infra_errors"] == 10
    assert "every trial of r-" in result.stderr
    with Store.open(str(db), create=False) as store:
        records = store.trials(report["run_id"], with_trails=False)
    assert {r.attempts for r in records} == {3}  # the runner's --retries 2, nothing more
    assert all(f"cannot connect to the model server at {url} (connection refused)"
               in str(r.infra_error) for r in records)
