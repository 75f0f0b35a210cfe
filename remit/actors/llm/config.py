"""How an LLM agent is configured: the model, the server, the reply format, the cache.

``remit run --agent openai:MODEL`` builds an :class:`LlmConfig` from its options with
:func:`parse_llm_config`; ``load_agent_factory("openai:MODEL")`` uses the defaults.

Example:
    >>> config = parse_llm_config("openai:gpt-4o-mini", {"temperature": 0.2})
    >>> config.model, config.temperature
    ('gpt-4o-mini', 0.2)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from remit.actors.llm.errors import LlmConfigError

__all__ = [
    "DEFAULT_BASE_URL",
    "LLM_AGENT_PREFIX",
    "CacheMode",
    "LlmConfig",
    "PromptVariant",
    "ToolCallFormat",
    "ToolResultsAs",
    "base_url_host",
    "is_llm_spec",
    "parse_llm_config",
    "without_credentials",
]

LLM_AGENT_PREFIX = "openai:"
"""An ``--agent`` spec starting with this names a model behind a chat-completions API."""

DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""The official API, used when neither ``base_url`` nor ``OPENAI_BASE_URL`` is set."""


class ToolCallFormat(StrEnum):
    """Where the adapter reads the model's tool calls from.

    ``native``: the reply's ``tool_calls`` only; content is always text for the buyer.
    ``content-json``: tools are described in the system prompt (not sent as ``tools``)
    and a call is a JSON object in the content, bare or in a fenced block.
    ``auto``: tools are sent natively; native calls if any, else a single well-formed
    JSON call in the content.
    """

    NATIVE = "native"
    CONTENT_JSON = "content-json"
    AUTO = "auto"


class PromptVariant(StrEnum):
    """How much the system prompt says.

    ``full``: the supplier's policy as written, tool schemas in full. ``compact``: for
    small local models with short contexts: the same rules in fewer words, the
    mode's authority with a shorter preamble, and tool schemas abbreviated (one
    signature per tool in ``content-json`` format; without titles and descriptions
    of arguments when sent natively). Every rule an agent is scored on is kept.
    """

    FULL = "full"
    COMPACT = "compact"


class ToolResultsAs(StrEnum):
    """How tool results go back to the model.

    ``tool``: ``role: tool`` messages answering each native call's id (calls the model
    wrote in its content have no id, so their results go as ``user`` text).
    ``user``: a ``user`` message, and the model's calls are kept in its history as JSON
    content; for small models that repeat a call after a ``role: tool`` message.
    """

    TOOL = "tool"
    USER = "user"


class CacheMode(StrEnum):
    """Record and replay of model calls (cassettes).

    ``off``: live calls, nothing stored. ``record``: live calls, each stored in the
    trial's cassette. ``replay``: responses come from the cassettes; the network is never
    touched and a request that was not recorded stops the run.
    """

    OFF = "off"
    RECORD = "record"
    REPLAY = "replay"


class LlmConfig(BaseModel):
    """Everything an LLM agent needs besides the briefing.

    Attributes:
        model: the model name the server knows (``gpt-4o-mini``, ``qwen2.5:0.5b``...).
        base_url: the chat-completions server (``None``: ``OPENAI_BASE_URL`` or the
            official API).
        api_key_env: the environment variable holding the API key.
        temperature, max_tokens, seed: sampling options sent with every request
            (``None``: not sent, the server's default applies).
        tool_call_format: where calls are read from (see :class:`ToolCallFormat`).
        tool_results_as: how results go back (see :class:`ToolResultsAs`).
        prompt: the prompt variant (see :class:`PromptVariant`).
        cache_mode: record/replay (see :class:`CacheMode`).
        cassette_dir: where cassettes live (required to record or replay).
        cost_table: a YAML or JSON file of prices per million tokens by model.
        retries: retries of one model call after HTTP 408/409/429/5xx or a connection the
            server dropped, before it counts as an infrastructure error. A server that
            cannot be reached, or sends no response within ``timeout_seconds``, is not
            retried (see :mod:`remit.actors.llm.transport`).
        timeout_seconds: how long one request waits for the server's response (the TCP
            connection itself may take at most 10 s of it).
        backoff_seconds: the first retry's delay, doubled at each retry.
        max_reply_errors: unusable replies in a row (empty, or with no valid call)
            after which the trial ends as ``agent_error``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str = Field(default="OPENAI_API_KEY", min_length=1)
    temperature: float | None = Field(default=0.0, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=1024, gt=0)
    seed: int | None = None
    tool_call_format: ToolCallFormat = ToolCallFormat.AUTO
    tool_results_as: ToolResultsAs = ToolResultsAs.TOOL
    prompt: PromptVariant = PromptVariant.FULL
    cache_mode: CacheMode = CacheMode.OFF
    cassette_dir: Path | None = None
    cost_table: Path | None = None
    retries: int = Field(default=3, ge=0, le=20)
    timeout_seconds: float = Field(default=60.0, gt=0.0)
    backoff_seconds: float = Field(default=1.0, ge=0.0)
    max_reply_errors: int = Field(default=3, ge=1)

    @model_validator(mode="after")
    def _cassettes_named(self) -> Self:
        if self.cache_mode is not CacheMode.OFF and self.cassette_dir is None:
            raise ValueError(f"cache_mode={self.cache_mode.value!r} needs a cassette "
                             "directory; give cassette_dir (--cassettes DIR)")
        if self.base_url is not None:
            _check_url(self.base_url)
        return self

    def resolved_base_url(self) -> str:
        """The server's URL: ``base_url``, else ``OPENAI_BASE_URL``, else the official API."""
        url = self.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        return url.rstrip("/")


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url={url!r} is not an http(s) URL; give e.g. "
                         "http://127.0.0.1:8080/v1")


def base_url_host(url: str) -> str:
    """``host[:port]`` of ``url``, without any user name or password it may carry."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{host}:{parts.port}" if parts.port else host


def without_credentials(url: str) -> str:
    """``url`` without a user name or password in its authority part."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    authority, slash, path = rest.partition("/")
    return f"{scheme}://{authority.rsplit('@', 1)[1]}{slash}{path}"


def is_llm_spec(spec: str) -> bool:
    """Whether an ``--agent`` spec names a model (``openai:MODEL``)."""
    return spec.strip().startswith(LLM_AGENT_PREFIX)


def parse_llm_config(spec: str, options: Mapping[str, object] | None = None) -> LlmConfig:
    """The :class:`LlmConfig` for ``--agent openai:MODEL`` and the CLI's LLM options.

    Args:
        spec: ``openai:MODEL``.
        options: :class:`LlmConfig` fields by name; ``None`` values are left out so the
            defaults apply.

    Raises:
        LlmConfigError: the spec names no model, or an option is invalid (one line, naming
            the option and its value).
    """
    name = spec.strip()
    if not is_llm_spec(name) or not name.removeprefix(LLM_AGENT_PREFIX):
        raise LlmConfigError(f"agent spec={spec!r} names no model; write "
                             f"'{LLM_AGENT_PREFIX}MODEL', e.g. '{LLM_AGENT_PREFIX}gpt-4o-mini'",
                             field="agent")
    given = {key: value for key, value in (options or {}).items() if value is not None}
    try:
        return LlmConfig.model_validate({"model": name.removeprefix(LLM_AGENT_PREFIX), **given})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        what = (f"LLM option {field}={first.get('input')!r} is" if field else "LLM options are")
        reason = first["msg"].removeprefix("Value error, ")
        raise LlmConfigError(f"{what} invalid: {reason}; fix the option and run again",
                             field=field or "options") from exc
