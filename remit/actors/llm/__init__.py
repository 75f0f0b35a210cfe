"""The LLM agent adapter: any OpenAI-compatible chat-completions server, with cassettes.

``remit run --agent openai:MODEL`` drives OpenAI, vLLM, llama.cpp's server, Ollama or a
LiteLLM proxy through the official ``openai`` package's async client. The prompt comes
from the briefing: a system message the same in every trial of a run
(:func:`system_prompt`, ``full`` or ``compact``: :class:`PromptVariant`), then what
varies (:func:`trial_briefing`) opening the first user message, so a server's prompt
cache reuses the shared part; the tools come from the world; replies are
read by :func:`parse_reply` (native calls, or JSON in the content for small models);
record/replay cassettes (:class:`Cassette`) make CI deterministic; token usage, cost
(:func:`load_cost_table`) and every reply issue (:class:`ReplyIssue`) are counted in
``agent.stats``.

Example:
    >>> config = parse_llm_config("openai:qwen2.5-0.5b-instruct",
    ...                           {"base_url": "http://127.0.0.1:8080/v1",
    ...                            "tool_call_format": "auto"})
    >>> factory = llm_agent_factory(config)                         # doctest: +SKIP
    >>> agent_config, metadata = llm_run_metadata(config)
"""

from __future__ import annotations

from remit.actors.llm.agent import LlmAgent, LlmAgentFactory, RunGuard, llm_agent_factory
from remit.actors.llm.calls import (
    MAX_ARGUMENT_DEPTH,
    ParsedCall,
    ParsedReply,
    ReplyForm,
    ReplyIssue,
    parse_reply,
)
from remit.actors.llm.cassette import Cassette, CassetteFile, Interaction, request_hash
from remit.actors.llm.config import (
    DEFAULT_BASE_URL,
    LLM_AGENT_PREFIX,
    CacheMode,
    LlmConfig,
    PromptVariant,
    ToolCallFormat,
    ToolResultsAs,
    is_llm_spec,
    parse_llm_config,
)
from remit.actors.llm.errors import (
    CassetteMissError,
    LlmAbortError,
    LlmAuthError,
    LlmConfigError,
    LlmEndpointError,
    LlmReplyError,
    LlmRequestError,
)
from remit.actors.llm.pricing import CostTable, ModelPrice, load_cost_table
from remit.actors.llm.prompt import (
    prompt_hash,
    prompt_text,
    system_prompt,
    tool_definitions,
    trial_briefing,
)
from remit.actors.llm.provenance import ADAPTER_ID, llm_config_from_manifest, llm_run_metadata
from remit.actors.llm.stats import LlmStats

__all__ = [
    "ADAPTER_ID",
    "DEFAULT_BASE_URL",
    "LLM_AGENT_PREFIX",
    "MAX_ARGUMENT_DEPTH",
    "CacheMode",
    "Cassette",
    "CassetteFile",
    "CassetteMissError",
    "CostTable",
    "Interaction",
    "LlmAbortError",
    "LlmAgent",
    "LlmAgentFactory",
    "LlmAuthError",
    "LlmConfig",
    "LlmConfigError",
    "LlmEndpointError",
    "LlmReplyError",
    "LlmRequestError",
    "LlmStats",
    "ModelPrice",
    "ParsedCall",
    "ParsedReply",
    "PromptVariant",
    "ReplyForm",
    "ReplyIssue",
    "RunGuard",
    "ToolCallFormat",
    "ToolResultsAs",
    "is_llm_spec",
    "llm_agent_factory",
    "llm_config_from_manifest",
    "llm_run_metadata",
    "load_cost_table",
    "parse_llm_config",
    "parse_reply",
    "prompt_hash",
    "prompt_text",
    "request_hash",
    "system_prompt",
    "tool_definitions",
    "trial_briefing",
]
