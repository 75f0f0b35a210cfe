"""What running trials on Ray costs on one machine, against one process and ``--workers 2``.

Run: ``python benchmarks/ray_bench.py [--trials N] [--runs R]`` (with the ``remit[ray]``
extra). Two measurements, each repeated ``R`` times (default 3) in a fresh process,
reported as min and median:

1. Scripted trials (the baseline agent on the ``core`` suite in ``all_tools`` and
   ``dual_control``; ``N`` trials, default 10,000, rounded up to whole rounds of the
   240 scenario x mode pairs), in one process (``run_async``, concurrency 1), with
   ``workers=2`` (forked worker processes) and on a local Ray (``num_cpus=2``, two
   actors). Each measuring process first runs one warm-up round (240 trials: the
   catalogue, imports, Ray's actors started), then times the ``N`` trials:

   - ``trials/s``: ``N`` / the wall time of the timed run (the trial loop and handing
     every record to ``on_trial``; no store: ``bench_store.py`` measures that);
   - ``driver CPU/trial``: the driver process's CPU time during the timed run / ``N``
     (for ``workers`` and Ray: receiving a record, ordering it, handing it over; the
     trials themselves run elsewhere): what limits how many workers one driver feeds;
   - ``driver peak RSS``: the driver process's peak resident memory over the whole
     measuring process (every record of the run is held in memory, as ``run`` returns
     them);
   - ``Ray start``: ``ray.init`` plus the warm-up round (starting the actors), once per
     measuring process.

2. An asynchronous LLM agent against the tests' fake chat-completions server (its own
   process on 127.0.0.1, answering every request after 200 ms; three reads then end,
   so four model calls per trial), every ``core`` scenario in the two modes, 2 trials
   each (480 trials, 1,920 calls), on Ray with two actors at concurrency 64 (32 trials in
   flight per actor). ``ideal`` is calls x 200 ms / 64 (the calls back to back, 64 at a
   time); the wall time includes the warm-up round's absence only (the actors are
   started by a 2-trial warm-up run first).

The machine is shared in development: quote the figures as measured under load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from remit.actors import load_agent_factory
from remit.actors.llm import LlmConfig, llm_agent_factory
from remit.authority import mode_by_name
from remit.harness import RayExecutor, builtin_suite, run_async

ROOT = Path(__file__).resolve().parents[1]
ROUND = 240  # the core suite's scenario x mode pairs in two modes
LATENCY = 0.2
CONCURRENCY = 64
READS = 3


def _ray_up() -> Any:
    import ray  # noqa: PLC0415  # the extra: only the measuring processes on Ray import it

    ray.init(num_cpus=2, object_store_memory=200 * 1024**2, include_dashboard=False,
             log_to_driver=False)
    return ray


def _scripted(executor: str, trials: int) -> dict[str, float]:
    """One measuring process's figures for ``executor`` (local, workers, ray)."""
    scenarios = builtin_suite("core").scenarios
    modes = [mode_by_name("all_tools"), mode_by_name("dual_control")]
    factory = load_agent_factory("baseline")
    rounds = -(-trials // ROUND)
    options: dict[str, Any] = {}
    figures: dict[str, float] = {}
    began = time.perf_counter()
    if executor == "workers":
        options["workers"] = 2
    elif executor == "ray":
        _ray_up()
        options["executor"] = RayExecutor(actors=2).__enter__()
    asyncio.run(run_async(scenarios, modes, factory, trials=1, **options))  # warm-up
    if executor == "ray":
        figures["ray_start_s"] = time.perf_counter() - began
    handed: list[object] = []
    cpu = time.process_time()
    wall = time.perf_counter()
    records = asyncio.run(run_async(scenarios, modes, factory, trials=rounds, seed=1,
                                    on_trial=handed.append, **options))
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    assert len(records) == len(handed) == rounds * ROUND
    figures.update(trials=len(records), wall_s=wall, trials_per_s=len(records) / wall,
                   driver_cpu_ms_per_trial=cpu / len(records) * 1e3,
                   driver_peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return figures


def _llm() -> dict[str, float]:
    """The asynchronous LLM agent on Ray at concurrency 64: wall time and the ideal."""
    scenarios = builtin_suite("core").scenarios
    modes = [mode_by_name("all_tools"), mode_by_name("dual_control")]
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.llm.fake_server", str(LATENCY), str(READS)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        factory = llm_agent_factory(LlmConfig(model="fake-model", base_url=base_url,
                                              backoff_seconds=0.0))
        _ray_up()
        with RayExecutor(actors=2, concurrency=CONCURRENCY) as executor:
            asyncio.run(run_async(scenarios[:1], modes[:1], factory, trials=2,
                                  executor=executor))  # warm-up: the actors start
            wall = time.perf_counter()
            records = asyncio.run(run_async(scenarios, modes, factory, trials=2,
                                            executor=executor))
            wall = time.perf_counter() - wall
    finally:
        server.communicate("", timeout=10)  # closing stdin stops the server
    ended = {r.scored.score.end_reason for r in records}
    assert ended == {"agent_end"}, ended
    calls = sum(r.scored.score.usage.model_calls for r in records
                if r.scored.score.usage is not None)
    ideal = calls * LATENCY / CONCURRENCY
    return {"trials": len(records), "calls": calls, "wall_s": wall, "ideal_s": ideal,
            "wall_over_ideal": wall / ideal}


def _measure(*args: str) -> dict[str, float]:
    shown = subprocess.run([sys.executable, __file__, "--one", *args], cwd=ROOT, check=True,
                           capture_output=True, text=True)
    figures: dict[str, float] = json.loads(shown.stdout.strip().splitlines()[-1])
    return figures


def _spread(values: list[float], digits: int = 1) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f}"


def main() -> None:
    """Measure in fresh processes; print a Markdown table (min / median of the runs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.one:
        kind = options.one[0]
        figures = _llm() if kind == "llm" else _scripted(kind, int(options.one[1]))
        print(json.dumps(figures))
        return
    print(f"scripted trials ({options.trials} asked), min / median of {options.runs} runs:")
    print("| executor | trials | trials/s | driver CPU ms/trial | driver peak RSS MB "
          "| Ray start s |")
    print("|---|---|---|---|---|---|")
    for executor in ("local", "workers", "ray"):
        runs = [_measure(executor, str(options.trials)) for _ in range(options.runs)]
        start = _spread([r["ray_start_s"] for r in runs]) if executor == "ray" else "-"
        print(f"| {executor} | {int(runs[0]['trials'])} "
              f"| {_spread([r['trials_per_s'] for r in runs])} "
              f"| {_spread([r['driver_cpu_ms_per_trial'] for r in runs], 2)} "
              f"| {_spread([r['driver_peak_rss_mb'] for r in runs], 0)} | {start} |")
    runs = [_measure("llm") for _ in range(options.runs)]
    print(f"\nasync fake LLM ({int(runs[0]['trials'])} trials, {int(runs[0]['calls'])} calls "
          f"at {LATENCY * 1e3:.0f} ms), Ray, 2 actors, concurrency {CONCURRENCY}: "
          f"wall {_spread([r['wall_s'] for r in runs])} s, ideal {runs[0]['ideal_s']:.1f} s, "
          f"wall/ideal {_spread([r['wall_over_ideal'] for r in runs], 2)}")


if __name__ == "__main__":
    main()
