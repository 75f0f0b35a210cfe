"""The LLM agent: a model behind any OpenAI-compatible chat-completions server.

``--agent openai:MODEL`` drives OpenAI, vLLM, llama.cpp's server, Ollama or a LiteLLM
proxy. Each ``act()`` turns the observation into chat messages, asks the model when it
has no call queued, and returns one :class:`~remit.world.ToolCall`:

- a reply with text and no call is a message to the buyer, the conversation's default
  addressee (as in tau2-bench), so a plain chat model can take part;
- a reply with several calls: all are made, in order, one per ``act()``, each answered
  with its own result before the model is asked again;
- a call whose arguments are not a JSON object is not made: the model gets an
  ``invalid_json`` error for it and is asked again;
- unknown tools and wrong argument types go to the world, which refuses them with a
  structured error the model reads;
- an empty reply gets a note back and the model is asked again;
- after ``max_reply_errors`` unusable replies in a row (empty, or no valid call) the
  agent raises :class:`~remit.actors.llm.LlmReplyError`: the trial ends as
  ``agent_error`` with that message;
- a model that never calls ``end`` runs into the step budget (``max_steps``).

Every one of these is counted in ``agent.stats`` (:class:`~remit.actors.llm.LlmStats`).

Example:
    >>> factory = llm_agent_factory(LlmConfig(model="gpt-4o-mini"))  # doctest: +SKIP
    >>> run(scenarios, modes, factory, concurrency=16)                # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING

from pydantic import JsonValue

from remit.actors.llm.calls import ParsedCall, ParsedReply, ReplyIssue, parse_reply
from remit.actors.llm.cassette import Cassette
from remit.actors.llm.config import DEFAULT_BASE_URL, CacheMode, LlmConfig, ToolCallFormat
from remit.actors.llm.errors import LlmAbortError, LlmAuthError, LlmReplyError
from remit.actors.llm.pricing import CostTable, load_cost_table
from remit.actors.llm.prompt import system_prompt, tool_definitions, trial_briefing
from remit.actors.llm.stats import LlmStats
from remit.actors.llm.transcript import Transcript
from remit.actors.protocol import AgentUsage, Briefing, Observation, TrialInfo
from remit.authority import Role
from remit.world import ToolCall, ToolResult

if TYPE_CHECKING:
    from remit.actors.llm.transport import OpenAiTransport

__all__ = ["LlmAgent", "LlmAgentFactory", "RunGuard", "llm_agent_factory"]

_WORLD_ISSUES = {"unknown_tool": ReplyIssue.UNKNOWN_TOOL,
                 "bad_arguments": ReplyIssue.BAD_ARGUMENTS}
_EMPTY_NOTE = ("Your last reply was empty. Call one tool, or write a message to the buyer "
               "as plain text.")
_NO_CALL_NOTE = ("None of the calls in your last reply could be made (see the errors). "
                 "Call one tool with its arguments as one JSON object.")
_TEXT_MESSAGE = "__text_message__"


class LlmAgent:
    """One trial's LLM agent (an :class:`~remit.actors.AsyncAgent`).

    Args:
        config: the model and how to talk to it.
        info: the trial (its ids name the cassette; nothing else is read).
        transport: the HTTP client, ``None`` in replay mode.
        cassette: the trial's cassette, ``None`` when the cache is off.
        costs: the cost table, if any.
        guard: where an abort is reported to the factory.

    Attributes:
        stats: the trial's counters, updated as the trial goes.
    """

    def __init__(self, config: LlmConfig, info: TrialInfo, *,
                 transport: OpenAiTransport | None, cassette: Cassette | None,
                 costs: CostTable | None, guard: RunGuard | None = None) -> None:
        self.config = config
        self._guard = guard or RunGuard()
        self.info = info
        self.stats = LlmStats()
        self._transport = transport
        self._cassette = cassette
        self._costs = costs
        self._transcript: Transcript | None = None
        self._tools: list[JsonValue] | None = None
        self._queue: deque[ParsedCall] = deque()
        self._last: ParsedCall | None = None
        self._previous: tuple[str, str] | None = None

    def usage(self) -> AgentUsage:
        """What this trial cost: model calls, tokens, cost and unusable replies."""
        stats = self.stats
        return AgentUsage(
            model_calls=stats.model_calls, prompt_tokens=stats.prompt_tokens,
            completion_tokens=stats.completion_tokens, cost=stats.cost, retries=stats.retries,
            reply_issues={issue.value: n for issue, n in stats.issues.items() if n})

    async def start(self, briefing: Briefing) -> None:
        """Build the system prompt, the trial's briefing (which opens the first user
        message) and the tool definitions from the briefing."""
        fmt, variant = self.config.tool_call_format, self.config.prompt
        self._transcript = Transcript(system_prompt(briefing, fmt, variant),
                                      self.config.tool_results_as)
        self._transcript.add_note(trial_briefing(briefing, variant))  # opens the first message
        self._tools = None if fmt is ToolCallFormat.CONTENT_JSON else tool_definitions(
            briefing.tools, variant)

    async def act(self, observation: Observation) -> ToolCall:
        """The next tool call: a queued one, or one from a new model reply."""
        try:
            return await self._next_call(observation)
        except LlmAbortError as exc:
            self._guard.abort = exc
            raise

    async def _next_call(self, observation: Observation) -> ToolCall:
        transcript = self._require_started()
        self._absorb(transcript, observation)
        unusable = 0
        while not self._queue:
            reply = parse_reply(await self._ask(transcript, observation.step),
                                self.config.tool_call_format)
            transcript.add_reply(reply)
            for issue in reply.issues:
                self.stats.count(issue)
            if not reply.calls and reply.text:
                return self._message_to_buyer(reply)
            issue = self._queue_calls(transcript, reply)
            if self._queue:
                break
            unusable += 1
            if unusable >= self.config.max_reply_errors:
                raise LlmReplyError(
                    f"model={self.config.model!r} gave {unusable} unusable replies in a row "
                    f"at step {observation.step} of trial {self._trial()} (last: {issue}); "
                    "the trial ends as agent_error. Try --tool-call-format content-json or "
                    "--tool-results-as user for a small model", count=unusable,
                    last_issue=issue.value)
        call = self._queue.popleft()
        self._last = call
        self._count_repeat(call)
        return ToolCall(tool=call.tool, arguments=call.arguments or {})

    # -- observations in ------------------------------------------------------------------

    def _absorb(self, transcript: Transcript, observation: Observation) -> None:
        result = observation.result
        last, self._last = self._last, None
        if result is not None and last is not None:
            self._absorb_result(transcript, last, result)
        transcript.add_incoming(observation.messages)

    def _absorb_result(self, transcript: Transcript, call: ParsedCall,
                       result: ToolResult) -> None:
        code = result.error.code if result.error is not None else None
        if code in _WORLD_ISSUES:
            self.stats.count(_WORLD_ISSUES[code])
        if call.id == _TEXT_MESSAGE:
            if not result.ok and result.error is not None:
                transcript.add_note("Your message to the buyer was not delivered: "
                                    f"{result.error.message}")
            return
        transcript.add_result(call, result)

    # -- replies out ----------------------------------------------------------------------

    def _message_to_buyer(self, reply: ParsedReply) -> ToolCall:
        text = reply.text
        self._last = ParsedCall(id=_TEXT_MESSAGE, tool="message", source="content",
                                arguments={"to": Role.BUYER.value, "text": text},
                                raw_arguments="")
        self._previous = None
        return ToolCall(tool="message", arguments={"to": Role.BUYER.value, "text": text})

    def _queue_calls(self, transcript: Transcript, reply: ParsedReply) -> ReplyIssue:
        """Queue the reply's valid calls, answer the invalid ones; the issue if none is valid."""
        for call in reply.calls:
            if call.error is None:
                self._queue.append(call)
                continue
            transcript.add_call_error(call, ReplyIssue.INVALID_JSON.value, (
                f"your call of {call.tool or 'a tool'} was not made: {call.error}; you wrote "
                f"{call.raw_arguments[:200]!r}. Call it again with its arguments as one JSON "
                "object"))
        if not reply.calls:
            transcript.add_note(_EMPTY_NOTE)
            return ReplyIssue.EMPTY_REPLY
        if not self._queue:
            transcript.add_note(_NO_CALL_NOTE)
        return ReplyIssue.INVALID_JSON

    def _count_repeat(self, call: ParsedCall) -> None:
        key = (call.tool, repr(sorted((call.arguments or {}).items())))
        if key == self._previous:
            self.stats.count(ReplyIssue.REPEATED_CALL)
        self._previous = key

    # -- the model ------------------------------------------------------------------------

    def _body(self, transcript: Transcript) -> dict[str, JsonValue]:
        config = self.config
        body: dict[str, JsonValue] = {"model": config.model,
                                      "messages": transcript.request_messages()}
        if self._tools is not None:
            body["tools"] = self._tools
        options: dict[str, JsonValue] = {"temperature": config.temperature,
                                         "max_tokens": config.max_tokens, "seed": config.seed}
        body.update({key: value for key, value in options.items() if value is not None})
        return body

    async def _ask(self, transcript: Transcript, step: int) -> JsonValue:
        """One model call (live, recorded or replayed); the reply's message as JSON."""
        body = self._body(transcript)
        call_index = self.stats.model_calls
        if self._cassette is not None and self._cassette.mode is CacheMode.REPLAY:
            response = self._cassette.replay(body, call=call_index, step=step)
            self.stats.replayed_calls += 1
        else:
            if self._transport is None:
                raise AssertionError("a live LLM agent has a transport")
            response = await self._transport.complete(body, on_retry=self._count_retry)
            if self._cassette is not None:
                self._cassette.record(body, response)
        self.stats.model_calls += 1
        self._add_usage(response.get("usage"))
        choices = response.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else {}
        return first.get("message") if isinstance(first, dict) else None

    def _count_retry(self) -> None:
        self.stats.retries += 1

    def _add_usage(self, usage: JsonValue) -> None:
        if not isinstance(usage, dict):
            return
        prompt = usage.get("prompt_tokens")
        completion = usage.get("completion_tokens")
        prompt_tokens = prompt if isinstance(prompt, int) else 0
        completion_tokens = completion if isinstance(completion, int) else 0
        cost = None if self._costs is None else self._costs.cost(
            self.config.model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        self.stats.add_usage(prompt_tokens, completion_tokens, cost)

    def _require_started(self) -> Transcript:
        if self._transcript is None:
            raise RuntimeError(f"act() before start() on the LLM agent of trial {self._trial()}; "
                               "the orchestrator calls start(briefing) first")
        return self._transcript

    def _trial(self) -> str:
        return f"{self.info.scenario_id}/{self.info.mode}/{self.info.trial}"


class RunGuard:
    """Shared by a factory's agents: the first error after which the run must stop."""

    def __init__(self) -> None:
        self.abort: LlmAbortError | None = None


class LlmAgentFactory:
    """Builds one :class:`LlmAgent` per trial, sharing one HTTP client and cost table.

    The key is read and the cost table loaded when the factory is built, so a missing
    key or a bad table stops the run before any trial. Once a trial has met an error
    after which no trial can succeed (:class:`~remit.actors.llm.LlmAbortError`: a
    refused key, an unknown model, a cassette miss), building the next agent raises it
    again, which stops the run.

    Args:
        config: the model and how to talk to it.
    """

    def __init__(self, config: LlmConfig) -> None:
        self.config = config
        self.costs = load_cost_table(config.cost_table) if config.cost_table else None
        self._transport: OpenAiTransport | None = None
        if config.cache_mode is not CacheMode.REPLAY:
            # Imported here: ``openai`` takes half a second to import, and replay needs none.
            from remit.actors.llm.transport import OpenAiTransport  # noqa: PLC0415

            self._transport = OpenAiTransport(
                base_url=config.resolved_base_url(), api_key=_api_key(config),
                timeout_seconds=config.timeout_seconds, retries=config.retries,
                backoff_seconds=config.backoff_seconds)
        self._guard = RunGuard()
        self._stats: dict[tuple[str, str, int], LlmStats] = {}

    def __call__(self, info: TrialInfo) -> LlmAgent:
        """A fresh agent for the trial ``info``.

        Raises:
            LlmAbortError: an earlier trial met an error that stops the run.
        """
        if self._guard.abort is not None:
            raise self._guard.abort
        cassette = None
        if self.config.cache_mode is not CacheMode.OFF and self.config.cassette_dir is not None:
            cassette = Cassette.for_trial(self.config.cassette_dir, info.scenario_id,
                                          info.mode, info.trial, self.config.cache_mode)
        agent = LlmAgent(self.config, info, transport=self._transport, cassette=cassette,
                         costs=self.costs, guard=self._guard)
        self._stats[(info.scenario_id, info.mode, info.trial)] = agent.stats
        return agent

    def stats_for(self, scenario_id: str, mode: str, trial: int) -> LlmStats | None:
        """The stats of the last agent built for that trial, or ``None``."""
        return self._stats.get((scenario_id, mode, trial))


def _api_key(config: LlmConfig) -> str:
    """The API key, or a placeholder for a server named by URL that may need none."""
    key = os.environ.get(config.api_key_env)
    if key:
        return key
    base_url = config.resolved_base_url()
    if base_url == DEFAULT_BASE_URL or config.api_key_env != "OPENAI_API_KEY":
        raise LlmAuthError(
            f"no API key for {base_url}: the environment variable {config.api_key_env} is "
            "not set; export it, or name the variable holding the key with --api-key-env",
            status=None, base_url=base_url)
    return "no-key"


def llm_agent_factory(config: LlmConfig) -> LlmAgentFactory:
    """The agent factory for ``config`` (pass it as ``factory=`` to ``start_run``).

    Raises:
        LlmAuthError: no API key is set for a server that needs one (live modes only).
        LlmConfigError: the cost table cannot be read.
    """
    return LlmAgentFactory(config)
