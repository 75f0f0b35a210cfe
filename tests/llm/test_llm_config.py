"""Configuration, API keys, loading ``openai:MODEL``, manifest metadata, and the cost table."""

from __future__ import annotations

import importlib
import inspect
from decimal import Decimal
from pathlib import Path

import pytest

from remit.actors import load_agent_factory
from remit.actors.llm import (
    DEFAULT_BASE_URL,
    CacheMode,
    LlmAgentFactory,
    LlmAuthError,
    LlmConfig,
    LlmConfigError,
    PromptVariant,
    ToolCallFormat,
    llm_agent_factory,
    llm_config_from_manifest,
    llm_run_metadata,
    load_cost_table,
    parse_llm_config,
    prompt_hash,
)
from remit.catalogue.money import Money
from tests.llm.conftest import Serve
from tests.llm.fake_server import call
from tests.llm.play import config, play


def test_every_exported_name_exists_and_is_documented() -> None:
    package = importlib.import_module("remit.actors.llm")
    assert len(set(package.__all__)) == len(package.__all__)
    for name in package.__all__:
        obj = getattr(package, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), name


def test_parse_llm_config_reads_the_spec_and_leaves_unset_options_at_their_defaults() -> None:
    parsed = parse_llm_config("openai:qwen2.5:0.5b", {
        "base_url": "http://127.0.0.1:11434/v1", "temperature": None, "seed": 3,
        "tool_call_format": "content-json", "tool_results_as": "user"})
    assert parsed.model == "qwen2.5:0.5b"
    assert parsed.temperature == 0.0
    assert parsed.seed == 3
    assert parsed.tool_call_format is ToolCallFormat.CONTENT_JSON


@pytest.mark.parametrize(("spec", "options", "message"), [
    ("openai:", {}, "names no model"),
    ("gpt-4o", {}, "names no model"),
    ("openai:m", {"temperature": 5}, r"temperature=5 is invalid"),
    ("openai:m", {"tool_call_format": "xml"}, r"tool_call_format='xml' is invalid"),
    ("openai:m", {"base_url": "localhost:8080"}, "is not an http"),
    ("openai:m", {"cache_mode": "replay"}, "needs a cassette directory"),
    ("openai:m", {"colour": "red"}, "colour='red' is invalid"),
    ("openai:m", {"prompt": "tiny"}, "prompt='tiny' is invalid"),
])
def test_bad_options_are_one_line_config_errors(spec: str, options: dict[str, object],
                                                message: str) -> None:
    with pytest.raises(LlmConfigError, match=message) as caught:
        parse_llm_config(spec, options)
    assert isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value)


def test_the_base_url_comes_from_the_option_then_the_environment_then_the_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert LlmConfig(model="m", base_url="http://127.0.0.1:1/v1/").resolved_base_url() == (
        "http://127.0.0.1:1/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:2/v1")
    assert LlmConfig(model="m").resolved_base_url() == "http://127.0.0.1:2/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert LlmConfig(model="m").resolved_base_url() == DEFAULT_BASE_URL


def test_a_missing_key_stops_before_any_trial_for_the_official_api(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    with pytest.raises(LlmAuthError, match="OPENAI_API_KEY is not set") as caught:
        llm_agent_factory(LlmConfig(model="m"))
    assert caught.value.status is None
    with pytest.raises(LlmAuthError, match="MY_KEY is not set"):
        llm_agent_factory(LlmConfig(model="m", base_url="http://127.0.0.1:1/v1",
                                    api_key_env="MY_KEY"))
    # A local server named by URL may need no key; replay needs none at all.
    assert llm_agent_factory(LlmConfig(model="m", base_url="http://127.0.0.1:1/v1"))
    assert llm_agent_factory(LlmConfig(model="m", cache_mode=CacheMode.REPLAY,
                                       cassette_dir=Path("nowhere")))


def test_the_key_is_sent_from_the_variable_named(serve: Serve,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    server = serve([call("end", summary="ok")], api_key="sk-local")
    monkeypatch.setenv("LOCAL_LLM_KEY", "sk-local")
    world, _ = play(config(server.url, api_key_env="LOCAL_LLM_KEY"))
    assert world.ended is not None
    assert world.ended.reason == "agent_end"


def test_load_agent_factory_builds_an_llm_agent_from_openai_model(serve: Serve) -> None:
    server = serve([call("end", summary="ok")])  # OPENAI_BASE_URL now points at it
    factory = load_agent_factory("openai:tiny-model")
    assert isinstance(factory, LlmAgentFactory)
    assert factory.config.model == "tiny-model"
    assert factory.config.resolved_base_url() == server.url
    world, _ = play(factory.config.model_copy(update={"backoff_seconds": 0.0}))
    assert server.requests[0]["model"] == "tiny-model"
    assert world.ended is not None


def test_run_metadata_separates_the_agents_identity_from_how_the_run_was_made() -> None:
    llm = LlmConfig(model="m", base_url="http://user:secret@127.0.0.1:8080/v1",
                    temperature=0.5, seed=4, cache_mode=CacheMode.REPLAY,
                    cassette_dir=Path("tests/llm/cassettes"))
    agent_config, metadata = llm_run_metadata(llm)
    assert agent_config == {
        "adapter": "openai-chat-completions", "model": "m", "base_url_host": "127.0.0.1:8080",
        "temperature": 0.5, "max_tokens": 1024, "seed": 4, "tool_call_format": "auto",
        "tool_results_as": "tool", "max_reply_errors": 3, "prompt": "full",
        "prompt_hash": prompt_hash()}
    assert metadata["llm_cache"] == "replay"
    assert metadata["cassettes"] == "tests/llm/cassettes"
    assert metadata["llm_base_url"] == "http://127.0.0.1:8080/v1"
    assert "secret" not in str(agent_config) + str(metadata)
    live_config, live = llm_run_metadata(llm.model_copy(update={"cache_mode": CacheMode.OFF}))
    assert live_config == agent_config  # replayed and live runs are the same agent...
    assert live["llm_cache"] == "off"  # ...and the manifest says which is which


def test_a_resumed_run_gets_the_config_back_from_the_manifest() -> None:
    llm = LlmConfig(model="m", base_url="http://127.0.0.1:8080/v1", temperature=None,
                    tool_call_format=ToolCallFormat.CONTENT_JSON, retries=5,
                    cache_mode=CacheMode.RECORD, cassette_dir=Path("c"),
                    cost_table=Path("prices.yaml"))
    agent_config, metadata = llm_run_metadata(llm)
    back = llm_config_from_manifest("openai:m", agent_config, metadata)
    assert back == llm
    with pytest.raises(LlmConfigError, match="was not recorded as an LLM agent"):
        llm_config_from_manifest("baseline", {}, {})


def test_the_prompt_variant_is_part_of_the_agent_and_comes_back_on_resume() -> None:
    full = LlmConfig(model="m", base_url="http://127.0.0.1:8080/v1")
    compact = full.model_copy(update={"prompt": PromptVariant.COMPACT})
    full_config, metadata = llm_run_metadata(full)
    compact_config, _ = llm_run_metadata(compact)
    assert (full_config["prompt"], compact_config["prompt"]) == ("full", "compact")
    assert compact_config["prompt_hash"] == prompt_hash(ToolCallFormat.AUTO,
                                                        PromptVariant.COMPACT)
    assert compact_config["prompt_hash"] != full_config["prompt_hash"]
    assert llm_config_from_manifest("openai:m", compact_config, metadata) == compact
    older = {key: value for key, value in full_config.items() if key != "prompt"}
    assert llm_config_from_manifest("openai:m", older, metadata).prompt is PromptVariant.FULL


def test_the_prompt_hash_is_stable_and_moves_with_the_format() -> None:
    assert prompt_hash() == prompt_hash(ToolCallFormat.AUTO)
    assert prompt_hash().startswith("sha256:")
    assert prompt_hash(ToolCallFormat.CONTENT_JSON) != prompt_hash(ToolCallFormat.NATIVE)


# -- cost table ----------------------------------------------------------------------------


def test_a_yaml_cost_table_prices_tokens_exactly(tmp_path: Path) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text('fake-model: {input_per_million: 0.15, output_per_million: "0.60"}\n'
                    "other: {input_per_million: 3, output_per_million: 15, currency: EUR}\n")
    table = load_cost_table(path)
    cost = table.cost("fake-model", prompt_tokens=1_000_000, completion_tokens=333)
    assert cost == Money(amount=Decimal("0.1501998"), currency="USD")
    assert table.cost("unlisted", prompt_tokens=1, completion_tokens=1) is None
    price = table.price("other")
    assert price is not None
    assert price.currency == "EUR"


def test_a_json_cost_table_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    path.write_text('{"m": {"input_per_million": "2.5", "output_per_million": "10"}}')
    cost = load_cost_table(path).cost("m", prompt_tokens=400, completion_tokens=100)
    assert cost is not None
    assert cost.amount == Decimal("0.002")


@pytest.mark.parametrize(("content", "message"), [
    ("m: {input_per_million: 1}", r"entry 'm.output_per_million' is invalid"),
    ("m: {input_per_million: 1, output_per_million: 1, discount: 5}", "m.discount"),
    ("m: {input_per_million: -1, output_per_million: 1}", "m.input_per_million"),
    ("m: [1, 2", "is not valid YAML"),
])
def test_a_bad_cost_table_is_a_config_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(content)
    with pytest.raises(LlmConfigError, match=message):
        load_cost_table(path)


def test_a_missing_cost_table_stops_before_any_trial(tmp_path: Path) -> None:
    with pytest.raises(LlmConfigError, match="cannot read cost table"):
        llm_agent_factory(config("http://127.0.0.1:9/v1", cost_table=tmp_path / "none.yaml"))


def test_the_trials_cost_is_recorded_in_its_stats(serve: Serve, tmp_path: Path) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text('fake-model: {input_per_million: "1", output_per_million: "2"}\n')
    server = serve([call("get_quote", quote_id="Q-1"), call("end", summary="ok")])
    _, agent = play(config(server.url, cost_table=path))

    stats = agent.stats
    expected = (Decimal(stats.prompt_tokens) + 2 * Decimal(stats.completion_tokens)) / 10**6
    assert stats.cost == Money(amount=expected, currency="USD")
    metrics = stats.as_metrics()
    assert metrics["cost"] == str(expected)
    assert metrics["model_calls"] == 2
    assert metrics["issue_invalid_json"] == 0
    assert metrics["issue_truncated"] == 0
    assert metrics["form_content_json_call"] == 0
