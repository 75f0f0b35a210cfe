"""What a run's manifest records about an LLM agent, and how a resumed run gets it back.

:func:`llm_run_metadata` splits a configuration in two. ``agent_config`` is what makes
the agent the agent (model, server host, sampling options, reply formats, prompt variant
and hash): the manifest hashes it, so runs with different agents are told apart.
``metadata`` is how the run was made (cache mode, cassette directory, full base URL, key
variable, cost table, retries and timeout): recorded, not hashed, so a replayed run
compares with the live run it replays, and the comparison can say that one side was
replayed.

Example:
    >>> agent_config, metadata = llm_run_metadata(LlmConfig(model="m", cache_mode="replay",
    ...                                                     cassette_dir=Path("c")))
    >>> metadata["llm_cache"]
    'replay'
"""

from __future__ import annotations

from pathlib import Path

from pydantic import JsonValue

from remit.actors.llm.config import LlmConfig, base_url_host, without_credentials
from remit.actors.llm.errors import LlmConfigError
from remit.actors.llm.prompt import prompt_hash

__all__ = ["ADAPTER_ID", "LLM_CACHE_KEY", "llm_config_from_manifest", "llm_run_metadata"]

ADAPTER_ID = "openai-chat-completions"
"""The ``adapter`` of an LLM agent's ``agent_config``."""

LLM_CACHE_KEY = "llm_cache"
"""The manifest metadata key of an LLM run's cache mode (``off``, ``record``, ``replay``),
which comparisons and reports read to tell replayed runs from live ones."""


def llm_run_metadata(config: LlmConfig) -> tuple[dict[str, JsonValue], dict[str, JsonValue]]:
    """``(agent_config, metadata)`` for ``start_run``; see the module's docstring.

    ``metadata["llm_cache"]`` is ``off``, ``record`` or ``replay``.
    """
    base_url = config.resolved_base_url()
    agent_config: dict[str, JsonValue] = {
        "adapter": ADAPTER_ID,
        "model": config.model,
        "base_url_host": base_url_host(base_url),
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
        "seed": config.seed,
        "tool_call_format": config.tool_call_format.value,
        "tool_results_as": config.tool_results_as.value,
        "max_reply_errors": config.max_reply_errors,
        "prompt": config.prompt.value,
        "prompt_hash": prompt_hash(config.tool_call_format, config.prompt),
    }
    metadata: dict[str, JsonValue] = {
        LLM_CACHE_KEY: config.cache_mode.value,
        "cassettes": None if config.cassette_dir is None else str(config.cassette_dir),
        "llm_base_url": without_credentials(base_url),
        "llm_api_key_env": config.api_key_env,
        "llm_cost_table": None if config.cost_table is None else str(config.cost_table),
        "llm_retries": config.retries,
        "llm_timeout_seconds": config.timeout_seconds,
    }
    return agent_config, metadata


def llm_config_from_manifest(agent_id: str, agent_config: dict[str, JsonValue],
                             metadata: dict[str, JsonValue]) -> LlmConfig:
    """The configuration of a recorded run, to resume it with the same agent.

    Args:
        agent_id: the run's ``openai:MODEL`` spec.
        agent_config, metadata: as :func:`llm_run_metadata` made them.

    Raises:
        LlmConfigError: the manifest was not written for an LLM agent.
    """
    if agent_config.get("adapter") != ADAPTER_ID:
        raise LlmConfigError(f"agent_id={agent_id!r} was not recorded as an LLM agent "
                             f"(adapter={agent_config.get('adapter')!r}); resume it with the "
                             "agent it was run with", field="agent_config")
    fields: dict[str, object] = {key: agent_config.get(key) for key in (
        "model", "temperature", "max_tokens", "seed", "tool_call_format", "tool_results_as",
        "max_reply_errors")}
    # Runs recorded before the compact variant had only the full prompt.
    fields["prompt"] = agent_config.get("prompt") or "full"
    fields.update({
        "base_url": metadata.get("llm_base_url"),
        "api_key_env": metadata.get("llm_api_key_env") or "OPENAI_API_KEY",
        "cache_mode": metadata.get(LLM_CACHE_KEY) or "off",
        "cassette_dir": _path(metadata.get("cassettes")),
        "cost_table": _path(metadata.get("llm_cost_table")),
    })
    for key in ("retries", "timeout_seconds"):
        value = metadata.get(f"llm_{key}")
        if value is not None:
            fields[key] = value
    return LlmConfig.model_validate(fields)


def _path(value: JsonValue) -> Path | None:
    return Path(value) if isinstance(value, str) and value else None
