"""What a client writes on stdin, checked line by line before the MCP SDK reads it.

The SDK's stdio transport logs and drops a line it cannot read, so a client that sent
one would wait for an answer until its own timeout. ``remit mcp serve`` reads stdin
itself (:class:`CheckedStdin`), answers every line it cannot pass on with a JSON-RPC
error, and hands the SDK only lines the SDK can read, cleaned as the world cleans a
call (:mod:`remit.world.untrusted`):

- not UTF-8, not JSON (``NaN``, ``Infinity`` and integers of more than 4,300 digits
  included), or nested too deep to read: parse error ``-32700``, ``id`` null;
- longer than :data:`MAX_LINE_BYTES`: invalid request ``-32600``, ``id`` null (the line
  is skipped unread);
- not one JSON object (a batch, a number), ``jsonrpc`` other than ``"2.0"``, an ``id``
  that is neither a string nor an integer (``null``, ``true``: the SDK would take the
  request for a notification and never answer), nested deeper than
  :data:`MAX_MESSAGE_DEPTH` levels, or no JSON-RPC request, notification or response:
  invalid request ``-32600``, with the message's ``id`` when it has one the client can
  match, else ``id`` null;
- anything else: every lone UTF-16 surrogate in it (``"\\\\ud800"``) replaced by U+FFFD,
  then passed on; the world applies its own limits to a ``tools/call``'s arguments.

Blank lines are skipped. Over streamable HTTP the SDK itself answers a body it cannot
read with HTTP 400 and a JSON-RPC error (parse error ``-32700`` for JSON it cannot parse,
lone surrogates and nesting deeper than about 200 levels included; ``-32602`` for JSON
that is no JSON-RPC message).

Example:
    >>> check_line(b'{"jsonrpc": "1.0", "id": 7, "method": "ping"}').error.code
    -32600
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import BinaryIO

import anyio
from mcp import types
from mcp.shared.message import SessionMessage
from pydantic import JsonValue, ValidationError

from remit.world.untrusted import MAX_ARGUMENT_DEPTH, QUOTE_CHARS, clean, depth, shorten

__all__ = ["MAX_LINE_BYTES", "MAX_MESSAGE_DEPTH", "CheckedStdin", "check_line"]

MAX_LINE_BYTES = 4 * 1024 * 1024
"""The longest line (one JSON-RPC message) read (4 MiB): far above any call the world
takes (:data:`~remit.world.untrusted.MAX_ARGUMENTS_CHARS`), so an oversized call still
reaches the world and is answered as a tool error naming the limit."""

MAX_MESSAGE_DEPTH = 2 * MAX_ARGUMENT_DEPTH
"""How deep a message may nest: room for a ``tools/call`` whose arguments break the
world's depth limit (it answers that with ``bad_arguments``), well below what the SDK's
own reader takes."""

_DETAIL_CHARS = 200
_SKIP_CHUNK = 64 * 1024

Answer = Callable[[SessionMessage], Awaitable[None]]
"""Where error answers go: the transport's write stream's ``send``."""


def _error(request_id: types.RequestId | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=code, message=message))


def _no_constant(name: str) -> JsonValue:
    raise ValueError(f"{name} is not JSON")


def _shown(value: JsonValue) -> str:
    """A client's JSON value as a message shows it: as JSON, cut short."""
    return shorten(json.dumps(value, ensure_ascii=False), QUOTE_CHARS)


def _request_id(message: dict[str, JsonValue]) -> types.RequestId | None:
    """The message's ``id`` if it is one a client can match (an integer or a string)."""
    found = message.get("id")
    if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
        return found
    return None


def check_line(line: bytes) -> str | types.JSONRPCError:
    """One line from a client: the JSON text to hand the SDK, or the error to answer with.

    Args:
        line: the line as read, with or without its newline.

    Returns:
        The message as compact JSON, every lone surrogate replaced by U+FFFD; or the
        :class:`mcp.types.JSONRPCError` that answers it (see the module docstring).
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _error(None, types.PARSE_ERROR,
                      f"Parse error: the line is not UTF-8 (byte {exc.start}); send UTF-8 JSON")
    try:
        parsed: JsonValue = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        return _error(None, types.PARSE_ERROR,
                      "Parse error: the message nests too deep to read; send at most "
                      f"{MAX_MESSAGE_DEPTH} levels")
    except ValueError as exc:  # JSONDecodeError, NaN, an integer too long to convert
        return _error(None, types.PARSE_ERROR,
                      f"Parse error: {shorten(str(exc), _DETAIL_CHARS)}; send one JSON-RPC "
                      "message as JSON on one line")
    if not isinstance(parsed, dict):
        return _error(None, types.INVALID_REQUEST,
                      "Invalid Request: a message is one JSON object (batches are not "
                      "supported); send one JSON-RPC message per line")
    message = clean(parsed)
    assert isinstance(message, dict)
    return _checked(message)


def _checked(message: dict[str, JsonValue]) -> str | types.JSONRPCError:
    request_id = _request_id(message)
    if depth(message) > MAX_MESSAGE_DEPTH:
        return _error(request_id, types.INVALID_REQUEST,
                      f"Invalid Request: the message nests deeper than {MAX_MESSAGE_DEPTH} "
                      f"levels; tool arguments may nest {MAX_ARGUMENT_DEPTH}")
    if message.get("jsonrpc") != "2.0":
        given = ("it is missing" if "jsonrpc" not in message
                 else f"not {_shown(message['jsonrpc'])}")
        return _error(request_id, types.INVALID_REQUEST,
                      f'Invalid Request: jsonrpc must be "2.0", {given}')
    if "id" in message and request_id is None and "error" not in message:
        return _error(None, types.INVALID_REQUEST,
                      f"Invalid Request: id must be a string or an integer, not "
                      f"{_shown(message['id'])}; leave it out only for a notification")
    try:
        types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False, include_context=False)[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        return _error(request_id, types.INVALID_REQUEST,
                      "Invalid Request: not a JSON-RPC request, notification or response "
                      f"({shorten(where, _DETAIL_CHARS)}: {shorten(first['msg'], _DETAIL_CHARS)})")
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class CheckedStdin:
    """A client's lines as the SDK's stdio transport reads them: checked and cleaned, each
    line it cannot pass on answered with a JSON-RPC error instead (:func:`check_line`).

    Pass it as ``stdin`` to :func:`mcp.server.stdio.stdio_server`, then give it the write
    stream with :meth:`answer_with`; lines that need an answer wait for it.

    Args:
        source: the binary stream to read (the process's stdin).
    """

    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self._answer: Answer | None = None
        self._ready = anyio.Event()

    def answer_with(self, answer: Answer) -> None:
        """Send error answers through ``answer`` (the transport's write stream's ``send``)."""
        self._answer = answer
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            line = await self._read(MAX_LINE_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                await self._skip_rest()
                await self._send(_error(None, types.INVALID_REQUEST,
                                        f"Invalid Request: the line is longer than "
                                        f"{MAX_LINE_BYTES} bytes; send smaller messages"))
                continue
            if not line.strip():
                continue
            checked = check_line(line)
            if isinstance(checked, str):
                yield checked
            else:
                await self._send(checked)

    async def _read(self, limit: int) -> bytes:
        return await anyio.to_thread.run_sync(self._source.readline, limit,
                                              abandon_on_cancel=True)

    async def _skip_rest(self) -> None:
        """Read and drop the rest of an oversized line."""
        while True:
            chunk = await self._read(_SKIP_CHUNK)
            if not chunk or chunk.endswith(b"\n"):
                return

    async def _send(self, error: types.JSONRPCError) -> None:
        await self._ready.wait()
        assert self._answer is not None
        await self._answer(SessionMessage(error))
