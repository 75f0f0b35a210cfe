"""A fake chat-completions server on 127.0.0.1 that plays scripted model turns.

Standard library only: a ``ThreadingHTTPServer`` in a daemon thread, HTTP/1.1 with
keep-alive, so it serves concurrent requests as a real server does. A *policy* maps each
request body to a :class:`Reply`: a well-formed or malformed assistant message, an HTTP
error (429, 5xx, 401...), or a dropped connection. Latency is injectable (``latency``
seconds through ``delay``, ``time.sleep`` by default); tests keep it at 0 and never wait.

Tool-call ids and token counts are computed from the request alone, so the same
conversation gets byte-identical responses in any order and under any concurrency.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from remit.world import ToolCall

Body = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    Attributes:
        content: the assistant message's content (``None``: JSON null).
        tool_calls: native calls as (name, arguments exactly as written).
        status: the HTTP status; not 200 sends an OpenAI-style error body.
        error: the error message for a non-200 status.
        headers: extra response headers (``Retry-After``...).
        drop: close the connection without answering.
        finish_reason: the choice's ``finish_reason`` (``None``: ``tool_calls`` when the
            reply has native calls, else ``stop``).
    """

    content: str | None = None
    tool_calls: tuple[tuple[str, str], ...] = ()
    status: int = 200
    error: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    drop: bool = False
    finish_reason: str | None = None


def call(tool: str, **arguments: Any) -> Reply:
    """A reply with one well-formed native call."""
    return Reply(tool_calls=((tool, json.dumps(arguments, sort_keys=True)),))


def native(*calls: tuple[str, str], content: str | None = None) -> Reply:
    """A reply with native calls whose arguments are given exactly as written."""
    return Reply(content=content, tool_calls=tuple(calls))


def text(content: str) -> Reply:
    """A reply with content only."""
    return Reply(content=content)


def cut_off(content: str | None, *calls: tuple[str, str]) -> Reply:
    """A reply cut off by ``max_tokens``: ``finish_reason: "length"``, as a server sends it."""
    return Reply(content=content, tool_calls=tuple(calls), finish_reason="length")


def http_error(status: int, message: str = "scripted error", **headers: str) -> Reply:
    """An HTTP error response."""
    return Reply(status=status, error=message, headers=tuple(headers.items()))


def of_call(tool_call: ToolCall) -> Reply:
    """The native reply that makes ``tool_call``."""
    return call(tool_call.tool, **tool_call.arguments)


def assistant_turns(body: Body) -> int:
    """How many assistant messages the request's history holds (the model's turn index)."""
    return sum(1 for message in body.get("messages", []) if message.get("role") == "assistant")


class Scripted:
    """Replies in order, one per request; a request past the end gets HTTP 500."""

    def __init__(self, replies: Sequence[Reply]) -> None:
        self.replies = list(replies)
        self.served = 0
        self._lock = threading.Lock()

    def __call__(self, body: Body) -> Reply:
        with self._lock:
            index = self.served
            self.served += 1
        if index >= len(self.replies):
            return http_error(500, f"script exhausted after {len(self.replies)} replies")
        return self.replies[index]


class ByTurn:
    """Reply ``k`` answers a request whose history holds ``k`` assistant messages.

    Replays a known sequence of calls (the oracle's) whatever the order of requests.
    After the last reply, ``end`` is called.
    """

    def __init__(self, replies: Sequence[Reply]) -> None:
        self.replies = list(replies)

    def __call__(self, body: Body) -> Reply:
        turn = assistant_turns(body)
        if turn < len(self.replies):
            return self.replies[turn]
        return call("end", summary="script done")


class ReadThenEnd:
    """A trivial, well-behaved agent: reads ``reads`` times, then ends.

    The reads alternate between the quote and its order, so no call repeats the one
    before it (a repeat would be a ``repeated_call`` reply issue, not made).
    """

    def __init__(self, reads: int, quote_id: str = "Q-1") -> None:
        self.reads = reads
        self.quote_id = quote_id

    def __call__(self, body: Body) -> Reply:
        turn = assistant_turns(body)
        if turn < self.reads:
            return call("get_order" if turn % 2 else "get_quote", quote_id=self.quote_id)
        return call("end", summary="read the quote")


def _response(body: Body, reply: Reply) -> Body:
    turn = assistant_turns(body)
    message: Body = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{turn}_{index}", "type": "function",
             "function": {"name": name, "arguments": arguments}}
            for index, (name, arguments) in enumerate(reply.tool_calls)]
    prompt_tokens = len(json.dumps(body.get("messages", []))) // 4
    completion_tokens = max(1, len(json.dumps(message)) // 4)
    return {
        "id": f"chatcmpl-{turn}", "object": "chat.completion", "created": 0,
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": reply.finish_reason or (
                         "tool_calls" if reply.tool_calls else "stop")}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


class _Server(ThreadingHTTPServer):
    # The default backlog (5) drops connections opened together; each dropped SYN is
    # retried a second later, which a latency benchmark would measure.
    request_queue_size = 128
    daemon_threads = True


@dataclass
class FakeChatServer:
    """The server; use as a context manager, or ``start()`` and ``stop()``.

    Attributes:
        policy: maps each request body to a reply.
        latency: seconds each request waits before it is answered (0 in tests).
        delay: how to wait (``time.sleep``; a benchmark may pass something else).
        api_key: when set, requests without ``Authorization: Bearer <api_key>`` get 401.
        requests: every request body received, in arrival order.
    """

    policy: Callable[[Body], Reply]
    latency: float = 0.0
    delay: Callable[[float], None] = time.sleep
    api_key: str | None = None
    requests: list[Body] = field(default_factory=list)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        """The base URL clients use (``http://127.0.0.1:PORT/v1``)."""
        if self._httpd is None:
            raise RuntimeError("the fake server is not running; call start() first")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> FakeChatServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: without TCP_NODELAY, Nagle's
            # algorithm and delayed ACKs hold each response back for ~40 ms.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                """Stay quiet."""

            def do_POST(self) -> None:
                """Answer one chat-completions request."""
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(body)
                if server.api_key is not None and (
                        self.headers.get("Authorization") != f"Bearer {server.api_key}"):
                    reply = http_error(401, "Incorrect API key provided")
                elif not self.path.endswith("/chat/completions"):
                    reply = http_error(404, f"no route {self.path}")
                else:
                    reply = server.policy(body)
                if server.latency > 0:
                    server.delay(server.latency)
                if reply.drop:
                    self.close_connection = True
                    return
                if reply.status == 200:
                    payload = _response(body, reply)
                else:
                    payload = {"error": {"message": reply.error, "type": "scripted",
                                         "code": str(reply.status)}}
                data = json.dumps(payload).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        httpd = _Server(("127.0.0.1", 0), Handler)
        self._httpd = httpd
        # A short poll interval: shutdown() waits for the serving loop to look up.
        self._thread = threading.Thread(target=httpd.serve_forever, args=(0.01,),
                                        name="fake-chat-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def main() -> None:
    """Serve ``ReadThenEnd(reads)`` in this process until stdin closes (for benchmarks).

    ``python -m tests.llm.fake_server LATENCY_SECONDS READS`` prints the base URL on
    the first line of stdout.
    """
    latency = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    reads = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with FakeChatServer(ReadThenEnd(reads), latency=latency) as server:
        sys.stdout.write(server.url + "\n")
        sys.stdout.flush()
        sys.stdin.read()


if __name__ == "__main__":
    main()
