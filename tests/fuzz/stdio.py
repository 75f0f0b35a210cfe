"""``remit mcp serve`` over stdio, spoken to one raw line at a time.

The official MCP client cannot send what the fuzz needs most (its serialiser refuses a
lone surrogate and nesting deeper than about 250 levels, and it never writes a line that
is not a JSON-RPC message), so :class:`RawServer` writes bytes to the server's stdin and
reads its stdout line by line on a thread; every wait for an answer is bounded
(:data:`ANSWER_SECONDS`, a failure guard: the server answers in milliseconds).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.mcp.spawn import server_env

ANSWER_SECONDS = 30.0
"""How long to wait for answers before calling them missing."""

EXIT_SECONDS = 60.0
"""How long a server may take to store its run and exit once stdin closes."""

PROTOCOL_VERSION = "2025-06-18"


class RawServer:
    """``python -m remit.cli mcp serve OPTIONS --db DB`` in a subprocess (a context
    manager: leaving it kills a server still running).

    Attributes:
        db: the server's SQLite file.
        log: where its stderr goes.
        answers: every JSON line it wrote, parsed (a line that is not JSON is kept as
            ``{"unparsable": TEXT}``).
        stopped_reading: whether a write found the server's stdin closed.
    """

    def __init__(self, tmp: Path, *options: str) -> None:
        self.db = tmp / "mcp.db"
        self.log = tmp / "server.log"
        self.answers: list[dict[str, Any]] = []
        self.stopped_reading = False
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        with self.log.open("wb") as errors:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "remit.cli", "mcp", "serve", *options,
                 "--db", str(self.db)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, cwd=tmp,
                env=server_env())
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._reader.join(timeout=EXIT_SECONDS)
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None and not stream.closed:
                stream.close()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def write(self, line: bytes) -> None:
        """Write ``line`` and a line feed to the server's stdin (nothing once the server
        has stopped reading: ``stopped_reading`` says so)."""
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + b"\n")
            self._process.stdin.flush()
        except (BrokenPipeError, ValueError):
            self.stopped_reading = True

    def send(self, message: dict[str, Any]) -> None:
        """Write one JSON-RPC message (ASCII JSON, so surrogates go as escapes)."""
        self.write(json.dumps(message).encode("ascii"))

    def collect(self, done: set[Any], seconds: float = ANSWER_SECONDS) -> bool:
        """Read answers until every id in ``done`` has one, the server closes stdout, or
        ``seconds`` pass; whether every id was answered."""
        deadline = time.monotonic() + seconds
        while not done <= self._answered():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                return False
            if line is None:
                return False
            self.answers.append(_parsed(line))
        return True

    def _answered(self) -> set[Any]:
        return {a.get("id") for a in self.answers if "result" in a or "error" in a}

    def request(self, ident: str, method: str, params: dict[str, Any] | None = None
                ) -> dict[str, Any] | None:
        """Send a request and return its answer (``None`` if none came in time)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        if not self.collect({ident}):
            return None
        return next(a for a in self.answers if a.get("id") == ident)

    def initialize(self, name: str, version: str) -> dict[str, Any] | None:
        """The MCP handshake, as client ``name``/``version``; the server's answer."""
        answer = self.request("init", "initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": name, "version": version}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self) -> int | None:
        """Close stdin and wait for the server to exit; its status (``None``: it did not
        exit in time and was killed)."""
        assert self._process.stdin is not None
        if not self._process.stdin.closed:
            self._process.stdin.close()
        try:
            return self._process.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            return None

    def log_text(self) -> str:
        """What the server wrote on stderr (undecodable bytes replaced)."""
        return self.log.read_bytes().decode("utf-8", errors="replace")


def _parsed(line: bytes) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {"unparsable": line.decode("utf-8", errors="replace")}
    return value if isinstance(value, dict) else {"unparsable": repr(value)}
