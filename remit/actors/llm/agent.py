"""The LLM agent: a model behind any OpenAI-compatible chat-completions server.

``--agent openai:MODEL`` drives OpenAI, vLLM, llama.cpp's server, Ollama or a LiteLLM
proxy. Each ``act()`` turns the observation into chat messages, asks the model when it
has no call queued, and returns one :class:`~remit.world.ToolCall`. Every reply ends in
exactly one outcome:

- calls: a reply with one or several calls (native ``tool_calls``, or in ``auto`` and
  ``content-json`` format one written in the content): all are made, in order, one per
  ``act()``, each answered with its own result before the model is asked again;
- a message: a reply with text and no call is a message to the buyer, the
  conversation's default addressee (as in tau2-bench), so a plain chat model can take
  part;
- a reply issue (:class:`~remit.actors.llm.ReplyIssue`), sent back to the model as an
  error it can act on, and the model is asked again:

  - ``truncated``: the reply was cut off at ``max_tokens`` (``finish_reason:
    "length"``); nothing in it is made or delivered, however complete it looks;
  - ``invalid_json``: a call that cannot be read (arguments not one JSON object, or
    nested too deep) is not made;
  - ``unknown_tool`` / ``bad_arguments``: the call goes to the world, which refuses it
    with a structured error the model reads;
  - ``repeated_call``: a call with the same tool and arguments as the call made just
    before is not made when nothing happened in between (no message arrived, and the
    world's step count moved by that call only: no party and no system event acted),
    since the previous result stands; the same call after anything happened is made;
  - ``empty_reply``: a reply with neither text nor a call gets a note back.

After ``max_reply_errors`` replies in a row from which nothing could be made or sent
(truncated, empty, only unreadable or repeated calls) the agent raises
:class:`~remit.actors.llm.LlmReplyError`: the trial ends as ``agent_error`` with that
message. A model that never calls ``end`` runs into the step budget (``max_steps``); the
harness hands the agent the last observation (:meth:`LlmAgent.finish`), so the last
call's world error is counted too.

Every one of these is counted in ``agent.stats`` (:class:`~remit.actors.llm.LlmStats`),
whose ``issues`` are the trial's ``AgentUsage.reply_issues``.

Example:
    >>> factory = llm_agent_factory(LlmConfig(model="gpt-4o-mini"))  # doctest: +SKIP
    >>> run(scenarios, modes, factory, concurrency=16)                # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable
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
from remit.world.untrusted import clean, quote, shorten

if TYPE_CHECKING:
    from remit.actors.llm.transport import OpenAiTransport

__all__ = ["LlmAgent", "LlmAgentFactory", "RunGuard", "llm_agent_factory"]

_WORLD_ISSUES = {"unknown_tool": ReplyIssue.UNKNOWN_TOOL,
                 "bad_arguments": ReplyIssue.BAD_ARGUMENTS}
_EMPTY_NOTE = ("Your last reply was empty. Call one tool, or write a message to the buyer "
               "as plain text.")
_NO_CALL_NOTE = ("None of the calls in your last reply could be made (see the errors). "
                 "Call one tool with its arguments as one JSON object.")
_REPEAT_NOTE = ("None of the calls in your last reply was made: each repeated the call you "
                "had just made (see the errors). Do something else: call another tool, write "
                "to a party, or end.")
_NOTES = {ReplyIssue.EMPTY_REPLY: _EMPTY_NOTE, ReplyIssue.INVALID_JSON: _NO_CALL_NOTE,
          ReplyIssue.REPEATED_CALL: _REPEAT_NOTE}
_REPEAT_ERROR = ("not made: it is the same call, with the same arguments, as the one you "
                 "just made, and nothing has happened since, so that call's result still "
                 "holds; do something else (another tool, a message to a party, or end)")
_TEXT_MESSAGE = "__text_message__"
_TOOL_CHARS = 60
_RAW_QUOTE = 200
_HINT = ("Try --tool-call-format content-json or --tool-results-as user for a small "
         "model")
_HINTS = {ReplyIssue.TRUNCATED: "Raise --max-tokens, or try a model that writes shorter "
                                "replies",
          ReplyIssue.REPEATED_CALL: "Try --tool-results-as user: small models often repeat "
                                    "a call after a role: tool message"}


def _cleaned(response: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``response`` with every lone surrogate replaced (:func:`remit.world.untrusted.clean`),
    so that it can be recorded, hashed and sent back in the history."""
    cleaned = clean(response)
    assert isinstance(cleaned, dict)
    return cleaned


def _repeat_key(call: ParsedCall) -> tuple[str, str]:
    """What makes two calls the same call: the tool and the arguments."""
    return call.tool, json.dumps(call.arguments or {}, sort_keys=True)


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
        self._made_at = -1

    def usage(self) -> AgentUsage:
        """What this trial cost: model calls, tokens, cost and reply issues by kind."""
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

    def finish(self, observation: Observation) -> None:
        """Take in the trial's last observation (the harness calls this when the trial
        ends after a call), so the last call's world error is counted like any other."""
        if self._transcript is not None:
            self._absorb(self._transcript, observation)

    async def _next_call(self, observation: Observation) -> ToolCall:
        transcript = self._require_started()
        self._absorb(transcript, observation)
        call = self._next_queued(transcript)
        unusable = 0
        while call is None:
            reply = await self._reply(transcript, observation.step)
            if not reply.truncated and not reply.calls and reply.text:
                return self._message_to_buyer(reply)
            issue = self._take_calls(transcript, reply)
            call = self._next_queued(transcript)
            if call is not None:
                break
            issue = issue or ReplyIssue.REPEATED_CALL
            transcript.add_note(self._note(issue))
            unusable += 1
            if unusable >= self.config.max_reply_errors:
                raise LlmReplyError(
                    f"model={self.config.model!r} gave {unusable} unusable replies in a row "
                    f"at step {observation.step} of trial {self._trial()} (last: {issue}); "
                    f"the trial ends as agent_error. {_HINTS.get(issue, _HINT)}",
                    count=unusable, last_issue=issue.value)
        self._last = call
        self._previous = _repeat_key(call)
        self._made_at = observation.step
        return ToolCall(tool=call.tool, arguments=call.arguments or {})

    # -- observations in ------------------------------------------------------------------

    def _absorb(self, transcript: Transcript, observation: Observation) -> None:
        result = observation.result
        last, self._last = self._last, None
        if result is not None and last is not None:
            self._absorb_result(transcript, last, result)
        if observation.messages or observation.step != self._made_at + 1:
            self._previous = None  # something happened: the same call again may be news
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

    async def _reply(self, transcript: Transcript, step: int) -> ParsedReply:
        """Ask the model; its reply, read, added to the history, its issues counted."""
        message, finish_reason = await self._ask(transcript, step)
        reply = parse_reply(message, self.config.tool_call_format,
                            finish_reason=finish_reason)
        transcript.add_reply(reply)
        for issue in reply.issues:
            self.stats.count(issue)
        for form in reply.forms:
            self.stats.note(form)
        return reply

    def _message_to_buyer(self, reply: ParsedReply) -> ToolCall:
        text = reply.text
        self._last = ParsedCall(id=_TEXT_MESSAGE, tool="message", source="content",
                                arguments={"to": Role.BUYER.value, "text": text},
                                raw_arguments="")
        self._previous = None
        return ToolCall(tool="message", arguments={"to": Role.BUYER.value, "text": text})

    def _take_calls(self, transcript: Transcript, reply: ParsedReply) -> ReplyIssue | None:
        """Queue the reply's valid calls and answer the others; the issue if none is valid."""
        if reply.truncated:
            for call in reply.calls:  # answered, so a history with native calls stays valid
                name = shorten(call.tool, _TOOL_CHARS) or "a tool"
                transcript.add_call_error(call, ReplyIssue.TRUNCATED.value,
                                          f"your call of {name} was not made: {call.error}")
            return ReplyIssue.TRUNCATED
        for call in reply.calls:
            if call.error is None:
                self._queue.append(call)
                continue
            transcript.add_call_error(call, ReplyIssue.INVALID_JSON.value, (
                f"your call of {shorten(call.tool, _TOOL_CHARS) or 'a tool'} was not made: "
                f"{call.error}; you wrote {quote(call.raw_arguments, _RAW_QUOTE)}. Call it "
                "again with its arguments as one JSON object"))
        if not reply.calls:
            return ReplyIssue.EMPTY_REPLY
        return None if self._queue else ReplyIssue.INVALID_JSON

    def _next_queued(self, transcript: Transcript) -> ParsedCall | None:
        """The next queued call to make; a repeat of the call made just before, with
        nothing happening in between, is answered with a ``repeated_call`` error instead."""
        while self._queue:
            call = self._queue.popleft()
            if _repeat_key(call) != self._previous:
                return call
            self.stats.count(ReplyIssue.REPEATED_CALL)
            transcript.add_call_error(call, ReplyIssue.REPEATED_CALL.value, _REPEAT_ERROR)
        return None

    def _note(self, issue: ReplyIssue) -> str:
        """What the model is told when nothing in its reply could be made or sent."""
        if issue is ReplyIssue.TRUNCATED:
            limit = (f"max_tokens={self.config.max_tokens}" if self.config.max_tokens
                     else "the server's token limit")
            return (f"Your last reply was cut off at {limit} before it ended, so nothing in "
                    "it was sent or made. Reply shorter: call one tool with short arguments, "
                    "or write a short message.")
        return _NOTES[issue]

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

    async def _ask(self, transcript: Transcript, step: int) -> tuple[JsonValue, JsonValue]:
        """One model call (live, recorded or replayed): the first choice's message as JSON,
        and its ``finish_reason``."""
        body = self._body(transcript)
        call_index = self.stats.model_calls
        if self._cassette is not None and self._cassette.mode is CacheMode.REPLAY:
            response = self._cassette.replay(body, call=call_index, step=step)
            self.stats.replayed_calls += 1
        else:
            if self._transport is None:
                raise AssertionError("a live LLM agent has a transport")
            response = await self._transport.complete(body, on_retry=self._count_retry)
            response = _cleaned(response)  # a server's lone surrogates stop at the door
            if self._cassette is not None:
                self._cassette.record(body, response)
        self.stats.model_calls += 1
        self._add_usage(response.get("usage"))
        choices = response.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        if not isinstance(first, dict):
            return None, None
        return first.get("message"), first.get("finish_reason")

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

    def __reduce__(self) -> tuple[Callable[[LlmConfig], LlmAgentFactory], tuple[LlmConfig]]:
        """Pickled as its configuration: a process that loads it (a Ray worker) builds a
        factory of its own, with its own client, reading its own API key variable."""
        return llm_agent_factory, (self.config,)

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
