"""Infrastructure failures: retried with backoff, then infrastructure errors; a bad key stops."""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import pytest

from remit.actors.llm import (
    LlmAuthError,
    LlmEndpointError,
    LlmRequestError,
    llm_agent_factory,
)
from remit.actors.llm.transport import OpenAiTransport
from remit.authority import builtin_modes
from remit.errors import InfrastructureError
from remit.harness import run_async
from remit.scenarios.builtin import scenario_by_id
from tests.llm.conftest import Serve
from tests.llm.fake_server import Reply, call, closed_port_url, http_error
from tests.llm.play import config, first_call, play

END = call("end", summary="done")
BODY = {"model": "fake-model", "messages": [{"role": "user", "content": "hi"}]}


def test_429_and_5xx_are_retried_and_the_retries_counted(serve: Serve) -> None:
    server = serve([http_error(429, "slow down"), http_error(503, "overloaded"),
                    Reply(drop=True), END])
    world, agent = play(config(server.url, retries=3))

    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    assert agent.stats.retries == 3
    assert agent.stats.model_calls == 1
    assert len(server.requests) == 4


@pytest.mark.parametrize(("reply", "kind"), [
    (http_error(429, "rate limited"), "rate_limit"),
    (http_error(500, "boom"), "server_error"),
    (http_error(502, "bad gateway"), "server_error"),
    (http_error(408, "request timeout"), "timeout"),
    (Reply(drop=True), "connection"),
])
def test_when_retries_run_out_the_call_is_an_infrastructure_error(
        serve: Serve, reply: Reply, kind: str) -> None:
    server = serve([reply] * 3)
    with pytest.raises(InfrastructureError, match=f"after 3 attempts, kind='{kind}'") as caught:
        play(config(server.url, retries=2))
    assert caught.value.kind == kind
    assert len(server.requests) == 3


def transport(base_url: str, waits: list[float], **options: Any) -> OpenAiTransport:
    """A transport whose waits between retries are recorded instead of slept."""

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    values: dict[str, Any] = {"timeout_seconds": 5.0, "retries": 3, "backoff_seconds": 1.0,
                              **options}
    return OpenAiTransport(base_url=base_url, api_key="k", sleep=record_wait, **values)


def complete(client: OpenAiTransport, retried: list[int]) -> None:
    async def go() -> None:
        try:
            await client.complete(dict(BODY), on_retry=lambda: retried.append(1))
        finally:
            await client.aclose()

    asyncio.run(go())


def test_a_refused_connection_fails_at_once_naming_the_url() -> None:
    url = closed_port_url()
    waits: list[float] = []
    retried: list[int] = []
    with pytest.raises(InfrastructureError) as caught:
        complete(transport(url, waits), retried)
    assert caught.value.kind == "connection"
    assert str(caught.value).startswith(
        f"cannot connect to the model server at {url} (connection refused); start the "
        "server or correct --base-url")
    assert (waits, retried) == ([], [])  # no retry, no wait


def test_a_host_name_that_does_not_resolve_fails_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = socket.getaddrinfo

    def resolve(host: object, *args: Any, **kwargs: Any) -> Any:
        if host in ("model-server.invalid", b"model-server.invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "no such host (test resolver)")
        return real(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)  # the OS resolver, not the network
    waits: list[float] = []
    with pytest.raises(InfrastructureError) as caught:
        complete(transport("http://model-server.invalid:8080/v1", waits), [])
    assert caught.value.kind == "connection"
    assert ("at http://model-server.invalid:8080/v1 (host name not resolved: no such host "
            "(test resolver))") in str(caught.value)
    assert waits == []


def test_the_url_in_a_connection_error_carries_no_password() -> None:
    port = closed_port_url().split(":")[2].split("/")[0]
    with pytest.raises(InfrastructureError) as caught:
        complete(transport(f"http://user:secret@127.0.0.1:{port}/v1", []), [])
    assert f"at http://127.0.0.1:{port}/v1 (connection refused)" in str(caught.value)
    assert "secret" not in str(caught.value)


def test_a_trial_against_a_closed_port_ends_as_an_infrastructure_error_without_waiting(
        ) -> None:
    url = closed_port_url()
    factory = llm_agent_factory(config(url, retries=3, backoff_seconds=30.0))
    records = asyncio.run(run_async([scenario_by_id("discount-exception")],
                                    [builtin_modes()["dual_control"]], factory, retries=2))
    (record,) = records
    assert record.attempts == 3  # the runner's retries, each failing at its first call
    assert record.infra_error is not None
    assert f"cannot connect to the model server at {url} (connection refused)" in (
        record.infra_error)
    stats = factory.stats_for("discount-exception", "dual_control", 0)
    assert stats is not None
    assert stats.retries == 0  # a 30 s backoff would have been waited three times


def test_a_timeout_is_not_resent(serve: Serve) -> None:
    release = threading.Event()
    server = serve([END, END], latency=1.0, delay=lambda _: release.wait(5))
    try:
        with pytest.raises(InfrastructureError) as caught:
            play(config(server.url, retries=3, timeout_seconds=0.05))
    finally:
        release.set()
    assert caught.value.kind == "timeout"
    assert str(caught.value).startswith(
        f"the model server at {server.url} sent no response within 0.05 s (--llm-timeout); "
        "the request is not resent")
    assert len(server.requests) == 1


def test_a_server_that_accepts_but_never_answers_times_out_once() -> None:
    with socket.socket() as listener:  # the kernel accepts; nobody ever reads or answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        waits: list[float] = []
        retried: list[int] = []
        with pytest.raises(InfrastructureError, match=r"sent no response within 0\.05 s"):
            complete(transport(url, waits, timeout_seconds=0.05), retried)
    assert (waits, retried) == ([], [])


def test_the_runner_retries_the_trial_then_records_the_infrastructure_error(
        serve: Serve) -> None:
    server = serve(lambda body: http_error(503, "down for maintenance"))
    factory = llm_agent_factory(config(server.url, retries=1))
    records = asyncio.run(run_async([scenario_by_id("discount-exception")],
                                    [builtin_modes()["dual_control"]], factory, retries=2))

    (record,) = records
    assert record.attempts == 3
    assert record.infra_error is not None
    assert "kind='server_error'" in record.infra_error
    assert len(server.requests) == 6  # 3 trial attempts x (1 call + 1 retry)


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_raises_an_auth_error_at_once(serve: Serve, status: int) -> None:
    server = serve([http_error(status, "Incorrect API key provided: sk-test")] * 5)
    with pytest.raises(LlmAuthError, match=f"refused the API key \\(HTTP {status}") as caught:
        first_call(config(server.url, retries=3))
    assert caught.value.status == status
    assert len(server.requests) == 1
    assert "\n" not in str(caught.value)


def test_a_wrong_key_stops_the_whole_run(serve: Serve) -> None:
    server = serve([END] * 10, api_key="sk-right")
    factory = llm_agent_factory(config(server.url))  # sends OPENAI_API_KEY=sk-test
    scenarios = [scenario_by_id("discount-exception"), scenario_by_id("actuator-pairing")]
    done: list[str] = []
    with pytest.raises(LlmAuthError, match="--api-key-env"):
        asyncio.run(run_async(scenarios, [builtin_modes()["dual_control"]], factory,
                              retries=3, on_trial=lambda r: done.append(r.scored.score.end_reason)))
    # An abort error escapes the turn loop and the runner: no trial is recorded for it.
    assert done == []
    assert len(server.requests) == 1


def test_an_unknown_model_stops_with_an_endpoint_error(serve: Serve) -> None:
    server = serve([http_error(404, "The model `nope` does not exist")])
    with pytest.raises(LlmEndpointError, match="has no model='fake-model'"):
        first_call(config(server.url))


def test_another_4xx_is_the_trials_failure(serve: Serve) -> None:
    server = serve([http_error(400, "context length exceeded")] * 2)
    with pytest.raises(LlmRequestError, match="HTTP 400: context length exceeded") as caught:
        first_call(config(server.url, retries=3))
    assert caught.value.status == 400
    world, _ = play(config(server.url))
    assert world.ended is not None
    assert world.ended.reason == "agent_error"
    assert "LlmRequestError" in world.ended.summary
    assert len(server.requests) == 2


def test_backoff_doubles_and_honours_retry_after(serve: Serve) -> None:
    server = serve([http_error(500), http_error(500), http_error(429, **{"Retry-After": "7"}),
                    END])
    waits: list[float] = []

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    transport = OpenAiTransport(base_url=server.url, api_key="k", timeout_seconds=5,
                                retries=3, backoff_seconds=0.5, sleep=record_wait)

    async def go() -> None:
        await transport.complete(dict(BODY))
        await transport.aclose()

    asyncio.run(go())
    assert waits == [0.5, 1.0, 7.0]


def test_without_backoff_retry_after_is_ignored(serve: Serve) -> None:
    server = serve([http_error(429, **{"Retry-After": "30"}), END])
    waits: list[float] = []

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    transport = OpenAiTransport(base_url=server.url, api_key="k", timeout_seconds=5,
                                retries=1, backoff_seconds=0.0, sleep=record_wait)
    response = asyncio.run(transport.complete(dict(BODY)))
    assert waits == [0.0]
    assert response["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "end"


def test_concurrent_trials_overlap_their_model_calls(serve: Serve) -> None:
    """Four trials at once must have four requests in flight together (no timing)."""
    barrier = threading.Barrier(4, timeout=10)

    def policy(body: dict[str, object]) -> Reply:
        barrier.wait()  # raises BrokenBarrierError (HTTP 500) unless 4 requests overlap
        return END

    server = serve(policy)
    factory = llm_agent_factory(config(server.url, retries=0))
    scenarios = [scenario_by_id(s) for s in ("discount-exception", "actuator-pairing")]
    modes = [builtin_modes()["dual_control"], builtin_modes()["all_tools"]]
    records = asyncio.run(run_async(scenarios, modes, factory, concurrency=4))
    assert [r.scored.score.end_reason for r in records] == ["agent_end"] * 4
    assert len(server.requests) == 4
