"""Do concurrent trials overlap their model calls? LLM agents against a slow fake server.

Run: ``python benchmarks/bench_llm_concurrency.py [LATENCY_MS] [TRIALS]``. The tests'
fake chat-completions server runs in its own process on 127.0.0.1 (so that its CPU does
not compete with remit's for the GIL) and answers every request after ``LATENCY_MS``
(default 200) with a trivial policy: three reads (the quote and its order in turn), then
end (four model calls per trial). Every built-in scenario in two modes, ``TRIALS``
(default 4) trials each, runs through ``remit.harness.run_async`` at concurrency 16, and
a smaller run at concurrency 1 for reference. Prints model calls, wall time, the ideal
(calls x latency / concurrency) and the efficiency (ideal / wall time).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from remit.actors.llm import LlmConfig, llm_agent_factory
from remit.authority import builtin_modes
from remit.catalogue import shared_catalogue
from remit.harness import run_async
from remit.scenarios import Scenario, builtin_scenarios

ROOT = Path(__file__).resolve().parents[1]
READS = 3


def measure(base_url: str, scenarios: list[Scenario], trials: int,
            concurrency: int) -> tuple[int, float]:
    """Run the trials; return the model calls made and the wall time in seconds."""
    modes = [builtin_modes()["dual_control"], builtin_modes()["all_tools"]]
    factory = llm_agent_factory(LlmConfig(model="fake-model", base_url=base_url,
                                          backoff_seconds=0.0))
    started = time.perf_counter()
    records = asyncio.run(run_async(scenarios, modes, factory, trials=trials,
                                    concurrency=concurrency))
    wall = time.perf_counter() - started
    ended = {r.scored.score.end_reason for r in records}
    assert ended == {"agent_end"}, ended
    calls = 0
    for record in records:
        scored = record.scored
        stats = factory.stats_for(scored.scenario_id, scored.mode, scored.trial)
        calls += stats.model_calls if stats is not None else 0
    return calls, wall


def report(label: str, calls: int, wall: float, latency: float, concurrency: int) -> None:
    """Print one run's figures."""
    ideal = calls * latency / concurrency
    print(f"{label}: {calls} model calls, wall {wall:6.2f} s, ideal {ideal:6.2f} s "
          f"(calls x {latency * 1e3:.0f} ms / {concurrency}), efficiency {ideal / wall:6.1%}")


def main() -> None:
    """Print the figures."""
    latency = (float(sys.argv[1]) if len(sys.argv) > 1 else 200.0) / 1e3
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    scenarios = list(builtin_scenarios())
    shared_catalogue(0, None)
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.llm.fake_server", str(latency), str(READS)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        measure(base_url, scenarios[:1], 1, 1)  # warm up: imports, the client, the catalogue
        calls, wall = measure(base_url, scenarios, trials, 16)
        report(f"concurrency 16, {len(scenarios)} scenarios x 2 modes x {trials} trials",
               calls, wall, latency, 16)
        calls, wall = measure(base_url, scenarios[:2], 1, 1)
        report("concurrency  1, 2 scenarios x 2 modes x 1 trial", calls, wall, latency, 1)
    finally:
        server.communicate("", timeout=10)  # closing stdin stops the server


if __name__ == "__main__":
    main()
