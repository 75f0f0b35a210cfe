"""Fixtures for the LLM adapter tests: a fake chat-completions server per test.

Every test talks to 127.0.0.1 only: the ``serve`` fixture starts a server on a free port
and points ``OPENAI_BASE_URL`` at it, and the configs built here always name it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest

from tests.llm.fake_server import Body, FakeChatServer, Reply, Scripted

Serve = Callable[..., FakeChatServer]


@pytest.fixture(autouse=True)
def _no_real_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach the official API: its base URL and key are fakes by default."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[Serve]:
    """Start a fake server for a script (a list of replies) or a policy; stopped after."""
    servers: list[FakeChatServer] = []

    def start(script: Sequence[Reply] | Callable[[Body], Reply], **options: object
              ) -> FakeChatServer:
        policy = Scripted(script) if isinstance(script, Sequence) else script
        server = FakeChatServer(policy, **options).start()  # type: ignore[arg-type]
        servers.append(server)
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        return server

    yield start
    for server in servers:
        server.stop()
