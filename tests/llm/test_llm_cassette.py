"""Record and replay: plain JSON cassettes, replay without a network, misses that explain."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.actors.llm import (
    CacheMode,
    Cassette,
    CassetteMissError,
    ToolResultsAs,
    llm_agent_factory,
    request_hash,
)
from remit.authority import builtin_modes
from remit.cli import app
from remit.harness import run_async
from remit.scenarios.builtin import scenario_by_id
from tests.llm import record_cassette
from tests.llm.conftest import Serve
from tests.llm.fake_server import call, closed_port_url
from tests.llm.play import assert_valid_history, config, play

SCRIPT = [call("get_quote", quote_id="Q-1"), call("get_order", quote_id="Q-1"),
          call("end", summary="done")]


def test_the_committed_cassette_replays_the_recorded_trail_byte_for_byte() -> None:
    factory = llm_agent_factory(config(closed_port_url(), cache_mode=CacheMode.REPLAY,
                                       cassette_dir=record_cassette.CASSETTES))
    record = record_cassette.run_trial(factory)

    expected = record_cassette.trail_path(record_cassette.CASSETTES).read_text(encoding="utf-8")
    assert record_cassette.trail_json(record) == expected
    assert record.scored.score.passed
    stats = factory.stats_for(record_cassette.SCENARIO, record_cassette.MODE, 0)
    assert stats is not None
    assert stats.replayed_calls == stats.model_calls == 12


def test_every_recorded_request_holds_a_valid_chat_history() -> None:
    path = record_cassette.CASSETTES / record_cassette.SCENARIO / record_cassette.MODE
    data = json.loads((path / "0.json").read_text(encoding="utf-8"))
    for interaction in data["interactions"]:
        assert_valid_history(interaction["request"]["messages"])
    last = data["interactions"][-1]["request"]["messages"]
    assert [m["role"] for m in last[:3]] == ["system", "user", "assistant"]
    assert sum(m["role"] == "tool" for m in last) == 11


def test_recording_again_gives_the_committed_files(tmp_path: Path) -> None:
    """The cassette is current and the recording deterministic; the model played the oracle."""
    record = record_cassette.record(tmp_path)
    _, oracle = record_cassette.oracle_calls()

    relative = Path(record_cassette.SCENARIO) / record_cassette.MODE
    for name in ("0.json", "0.trail.json"):
        assert (tmp_path / relative / name).read_bytes() == (
            record_cassette.CASSETTES / relative / name).read_bytes(), (
            f"{name} is stale: run .venv/bin/python -m tests.llm.record_cassette")
    assert record_cassette.trail_json(record) == record_cassette.trail_json(oracle)


def test_a_recorded_trial_replays_without_the_server(serve: Serve, tmp_path: Path) -> None:
    server = serve(SCRIPT)
    recorded, _ = play(config(server.url, cache_mode=CacheMode.RECORD, cassette_dir=tmp_path))
    server.stop()

    replayed, agent = play(config(closed_port_url(), cache_mode=CacheMode.REPLAY,
                                  cassette_dir=tmp_path))
    assert [e.model_dump() for e in replayed.trail] == [e.model_dump() for e in recorded.trail]
    assert agent.stats.replayed_calls == 3
    assert agent.stats.prompt_tokens > 0


def test_a_cassette_is_plain_json_keyed_by_the_request_hash(serve: Serve,
                                                             tmp_path: Path) -> None:
    server = serve(SCRIPT)
    play(config(server.url, cache_mode=CacheMode.RECORD, cassette_dir=tmp_path))

    data = json.loads((tmp_path / "discount-exception" / "dual_control" / "0.json").read_text())
    assert data["trial"] == "discount-exception/dual_control/0"
    assert len(data["interactions"]) == 3
    (tools_key,) = data["tools"]
    for sent, interaction in zip(server.requests, data["interactions"], strict=True):
        assert interaction["request"]["tools"] == tools_key
        assert interaction["request_hash"] == request_hash(sent)
        full = {**interaction["request"], "tools": data["tools"][tools_key]}
        assert full == sent


def test_a_miss_names_the_trial_the_step_and_the_first_differing_message(
        serve: Serve, tmp_path: Path) -> None:
    server = serve(SCRIPT)
    play(config(server.url, cache_mode=CacheMode.RECORD, cassette_dir=tmp_path))
    replay = config(closed_port_url(), cache_mode=CacheMode.REPLAY, cassette_dir=tmp_path,
                    tool_results_as=ToolResultsAs.USER)

    with pytest.raises(CassetteMissError) as caught:
        play(replay)
    summary = str(caught.value)
    assert "replay of trial discount-exception/dual_control/0" in summary
    assert "model call #1 (step" in summary
    assert "message 2 (role='assistant') differs" in summary
    assert "--llm-cache record" in summary


def test_a_miss_stops_the_run(serve: Serve, tmp_path: Path) -> None:
    modes = [builtin_modes()["dual_control"]]
    scenarios = [scenario_by_id("discount-exception"), scenario_by_id("actuator-pairing")]
    factory = llm_agent_factory(config(closed_port_url(), cache_mode=CacheMode.REPLAY,
                                       cassette_dir=tmp_path))
    with pytest.raises(CassetteMissError, match="the cassette is missing or empty") as caught:
        asyncio.run(run_async(scenarios, modes, factory))
    assert caught.value.trial == "discount-exception/dual_control/0"
    assert caught.value.call == 0


def test_a_miss_on_options_says_which_option_differs(tmp_path: Path) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.0}
    recorder = Cassette.for_trial(tmp_path, "s", "dual_control", 0, CacheMode.RECORD)
    recorder.record(body, {"choices": []})

    player = Cassette.for_trial(tmp_path, "s", "dual_control", 0, CacheMode.REPLAY)
    assert player.replay(body, call=0, step=0) == {"choices": []}
    with pytest.raises(CassetteMissError, match="'temperature' differs") as caught:
        player.replay({**body, "temperature": 0.7}, call=0, step=0)
    assert caught.value.message_index is None
    with pytest.raises(CassetteMissError, match="only 1 calls were recorded"):
        player.replay(body, call=1, step=4)


def test_identical_requests_are_answered_in_recorded_order(tmp_path: Path) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "again"}]}
    recorder = Cassette.for_trial(tmp_path, "s", "m", 1, CacheMode.RECORD)
    recorder.record(body, {"n": 1})
    recorder.record(body, {"n": 2})

    player = Cassette.for_trial(tmp_path, "s", "m", 1, CacheMode.REPLAY)
    assert [player.replay(body, call=i, step=i)["n"] for i in range(2)] == [1, 2]
    with pytest.raises(CassetteMissError, match="already replayed"):
        player.replay(body, call=1, step=2)


def test_cassette_paths_are_safe_for_any_scenario_id(tmp_path: Path) -> None:
    cassette = Cassette.for_trial(tmp_path, "../evil/id", "mode x", 3, CacheMode.RECORD)
    assert cassette.path == tmp_path / "_evil_id" / "mode_x" / "3.json"


LEGACY = Path(__file__).parent / "legacy_cassettes"
"""The first calls of the committed cassette as recorded before the system message was
made the same in every trial (the mode named in its first sentence)."""


def test_a_cassette_recorded_with_the_earlier_prompt_stops_at_its_first_call() -> None:
    factory = llm_agent_factory(config(closed_port_url(), cache_mode=CacheMode.REPLAY,
                                       cassette_dir=LEGACY))
    with pytest.raises(CassetteMissError) as caught:
        record_cassette.run_trial(factory)
    message = str(caught.value)
    assert message.startswith(
        "replay of trial discount-exception/dual_control/0 has no recorded response for "
        "model call #0 (step 1)")
    assert "message 0 (role='system') differs" in message
    assert "in a conversation about quote Q-1. Cont" in message  # what was recorded
    assert message.endswith("record the cassette again with --llm-cache record, or "
                            "restore what changed the request (prompt, tools, options, an "
                            "earlier reply)")


def test_the_cli_stops_a_replay_of_an_earlier_cassette_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [
        "run", "--suite", "handwritten", "--scenario", "discount-exception", "--modes",
        "dual_control", "--agent", "openai:fake-model", "--llm-cache", "replay",
        "--cassettes", str(LEGACY), "--db", str(tmp_path / "replay.db")])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert "replay of trial discount-exception/dual_control/0" in line
    assert "message 0 (role='system') differs" in line
    assert line.endswith("; nothing was stored")
