"""One model call over the official ``openai`` async client, with retries and error mapping.

This is the only module that imports ``openai`` (imported when the first live call is
made, so ``import remit`` stays fast). The SDK's own retries are off (``max_retries=0``);
what is retried depends on what a retry can achieve:

- HTTP 408, 409, 429 and 5xx, and a connection the server dropped mid-request, are
  transient: retried ``retries`` times with exponential backoff (``backoff_seconds`` x
  2^attempt; a server's ``Retry-After`` of up to a minute is honoured when backoff is
  on), each retry counted, then :class:`~remit.errors.InfrastructureError`.
- A server that cannot be reached (connection refused, a host name that does not
  resolve, no TCP connection within :data:`CONNECT_TIMEOUT_SECONDS`) fails at once,
  without waiting: one ``InfrastructureError`` (``kind='connection'``) naming the URL.
- A read timeout (no response within ``timeout_seconds``) is not resent. Requests are
  not streamed, so a timeout shows no progress: the server may still be reading the
  prompt or generating. Resending would make a server without a prompt cache start
  again from the beginning and wait as long again, so the call ends at once as an
  ``InfrastructureError`` (``kind='timeout'``); the runner's trial retries
  (``remit run --retries``) apply as to any infrastructure error.

HTTP 401/403 raise :class:`~remit.actors.llm.LlmAuthError` and 404
:class:`~remit.actors.llm.LlmEndpointError` at once (the run must stop); any other 4xx
raises :class:`~remit.actors.llm.LlmRequestError` (the trial's failure).

One client serves every trial of a factory within one event loop (one connection pool);
a call from another loop gets a new client.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import cast

import openai
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from pydantic import JsonValue

from remit.actors.llm.config import base_url_host, without_credentials
from remit.actors.llm.errors import LlmAuthError, LlmEndpointError, LlmRequestError
from remit.errors import InfrastructureError

__all__ = ["CONNECT_TIMEOUT_SECONDS", "OpenAiTransport", "Sleep"]

CONNECT_TIMEOUT_SECONDS = 10.0
"""How long a TCP connection to the server may take (at most ``timeout_seconds``); a
server not reached within it is treated as unreachable."""

_LOG = logging.getLogger(__name__)
_RETRY_AFTER_CAP_SECONDS = 60.0
_RETRIED_STATUSES = (408, 409, 429)
_VERBATIM = ("messages", "tools")

Sleep = Callable[[float], Awaitable[None]]
"""Waits a number of seconds (``asyncio.sleep``; tests may inject their own)."""


class OpenAiTransport:
    """Sends chat-completions requests; shared by the agents of one factory.

    Args:
        base_url: the server's URL (``.../v1``).
        api_key: the API key.
        timeout_seconds: one HTTP request's timeout.
        retries: retries of one call before it is an infrastructure error.
        backoff_seconds: the first retry's delay, doubled at each retry.
        sleep: how to wait between retries.
    """

    def __init__(self, *, base_url: str, api_key: str, timeout_seconds: float, retries: int,
                 backoff_seconds: float, sleep: Sleep = asyncio.sleep) -> None:
        self.base_url = base_url
        self._api_key = api_key
        self.timeout_seconds = timeout_seconds
        self.retries = retries
        self.backoff_seconds = backoff_seconds
        self._sleep = sleep
        self._client: openai.AsyncOpenAI | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closer: AsyncGenerator[None] | None = None

    async def _client_for_loop(self) -> openai.AsyncOpenAI:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            timeout = openai.Timeout(self.timeout_seconds, connect=min(
                self.timeout_seconds, CONNECT_TIMEOUT_SECONDS))
            client = openai.AsyncOpenAI(base_url=self.base_url, api_key=self._api_key,
                                        max_retries=0, timeout=timeout)
            # The client must be closed on its loop, and nothing tells a transport when a
            # run ends; an open async generator is closed by the loop's shutdown
            # (asyncio.run and the runner's drive() both call shutdown_asyncgens()).
            self._closer = _close_at_shutdown(client)
            await anext(self._closer)
            self._client, self._loop = client, loop
        return self._client

    async def aclose(self) -> None:
        """Close the current client (optional: the loop's shutdown closes it too)."""
        if self._closer is not None:
            await self._closer.aclose()
        self._client = self._loop = self._closer = None

    async def complete(self, body: dict[str, JsonValue],
                       on_retry: Callable[[], None] | None = None) -> dict[str, JsonValue]:
        """Send ``body`` and return the response as JSON, retrying transient failures.

        Args:
            body: the request body (``model``, ``messages``, and the options present).
            on_retry: called before each retry (to count it).

        Raises:
            InfrastructureError: retries ran out (``kind``: ``rate_limit``,
                ``server_error``, ``timeout`` or ``connection``), the server cannot be
                reached (``connection``, at once) or sent no response in time
                (``timeout``, at once).
            LlmAuthError: HTTP 401 or 403.
            LlmEndpointError: HTTP 404.
            LlmRequestError: another HTTP 4xx.
        """
        # ``create()`` walks its typed parameters against their annotations before sending
        # them: for a long history and the tools' nested JSON Schemas that is milliseconds
        # of CPU per call on the event loop every trial shares, which serialises
        # concurrent trials. Both are plain JSON already, so they go verbatim through
        # ``extra_body`` (which replaces the placeholder ``messages=[]``); the scalar
        # options stay typed.
        verbatim = {key: body[key] for key in _VERBATIM if key in body}
        typed = {key: value for key, value in body.items() if key not in _VERBATIM}
        params = cast(CompletionCreateParamsNonStreaming, {**typed, "messages": []})
        attempt = 0
        while True:
            try:
                client = await self._client_for_loop()
                response = await client.chat.completions.create(
                    **params, extra_body=verbatim)
            except openai.APIStatusError as exc:
                kind = self._status_kind(exc, body)
                delay = _retry_after(exc)
                error: openai.APIError = exc
            except openai.APIConnectionError as exc:  # timeouts included
                self._raise_unless_transient(exc)
                kind, delay, error = "connection", None, exc
            else:
                dumped: dict[str, JsonValue] = response.model_dump(mode="json",
                                                                   exclude_unset=True)
                return dumped
            if attempt >= self.retries:
                raise InfrastructureError(
                    f"model call to {base_url_host(self.base_url)} failed after "
                    f"{attempt + 1} attempts, kind={kind!r}: {_describe(error)}; the runner "
                    "retries the trial (--retries), or check the server and its rate limits",
                    kind=kind) from error
            wait = self.backoff_seconds * 2 ** attempt
            if delay is not None and self.backoff_seconds > 0:
                wait = max(wait, min(delay, _RETRY_AFTER_CAP_SECONDS))
            _LOG.info("model call failed (%s, %s); retry %d of %d in %.2f s", kind,
                      _describe(error), attempt + 1, self.retries, wait)
            if on_retry is not None:
                on_retry()
            attempt += 1
            await self._sleep(wait)

    def _raise_unless_transient(self, exc: openai.APIConnectionError) -> None:
        """Raise at once for an unreachable server or a read timeout (see the module)."""
        url = without_credentials(self.base_url)
        reason = _unreachable_reason(exc, min(self.timeout_seconds, CONNECT_TIMEOUT_SECONDS))
        if reason is not None:
            raise InfrastructureError(
                f"cannot connect to the model server at {url} ({reason}); start the server "
                "or correct --base-url (a connection that cannot be made is not retried)",
                kind="connection") from exc
        if isinstance(exc, openai.APITimeoutError):
            raise InfrastructureError(
                f"the model server at {url} sent no response within "
                f"{self.timeout_seconds:g} s (--llm-timeout); the request is not resent, "
                "since the server would start it again: give a slow server a longer "
                "--llm-timeout or a shorter prompt (--prompt compact)",
                kind="timeout") from exc

    def _status_kind(self, exc: openai.APIStatusError, body: dict[str, JsonValue]) -> str:
        """The retry kind of an HTTP error, or raise at once when retrying cannot help."""
        status = exc.status_code
        host = base_url_host(self.base_url)
        if status in (401, 403):
            raise LlmAuthError(
                f"the model server at {host} refused the API key (HTTP {status}: "
                f"{_describe(exc)}); set a valid key in the variable --api-key-env names "
                "(default OPENAI_API_KEY) and run again", status=status,
                base_url=self.base_url) from exc
        if status == 404:
            model = body.get("model")
            raise LlmEndpointError(
                f"the model server at {host} has no model={model!r} or no chat-completions "
                f"endpoint at {self.base_url!r} (HTTP 404: {_describe(exc)}); check --agent "
                "openai:MODEL and --base-url (it usually ends in /v1)",
                model=str(model), base_url=self.base_url) from exc
        if status >= 500 or status in _RETRIED_STATUSES:
            return {429: "rate_limit", 408: "timeout"}.get(status, "server_error")
        raise LlmRequestError(
            f"the model server at {host} refused the request (HTTP {status}: "
            f"{_describe(exc)}); the conversation may exceed the model's context, or the "
            "server may not support an option (try --tool-call-format content-json)",
            status=status) from exc


async def _close_at_shutdown(client: openai.AsyncOpenAI) -> AsyncGenerator[None]:
    try:
        yield
    finally:
        await client.close()


def _describe(error: openai.APIError) -> str:
    """The server's own error message when it sent one, on one line, at most 200 characters."""
    body = error.body
    said = body.get("message") if isinstance(body, dict) else None
    message = " ".join(str(said if isinstance(said, str) and said else error.message).split())
    return message[:200] + ("..." if len(message) > 200 else "")


def _causes(error: BaseException) -> list[BaseException]:
    """What caused ``error``, nearest first (``__cause__``, else ``__context__``)."""
    found: list[BaseException] = []
    below = error.__cause__ or error.__context__
    while below is not None and below not in found and len(found) < 20:
        found.append(below)
        below = below.__cause__ or below.__context__
    return found


def _caused_by(error: BaseException, name: str) -> bool:
    """Whether an exception named ``name`` caused ``error`` (httpx's ``ConnectError``,
    whichever httpx package the client uses)."""
    return any(type(cause).__name__ == name for cause in _causes(error))


def _unreachable_reason(error: BaseException, connect_seconds: float) -> str | None:
    """Why the server could not be reached, in a few words; ``None`` if it was."""
    if _caused_by(error, "ConnectTimeout"):
        return f"no connection within {connect_seconds:g} s"
    if not _caused_by(error, "ConnectError"):
        return None
    root = ([error, *_causes(error)])[-1]
    if isinstance(root, ConnectionRefusedError):
        return "connection refused"
    if isinstance(root, socket.gaierror):
        return f"host name not resolved: {root.strerror or root}"
    return " ".join(str(root).split())[:200] or type(root).__name__


def _retry_after(error: openai.APIStatusError) -> float | None:
    value = error.response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
