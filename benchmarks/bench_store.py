"""Does persistence cost more than the simulation? Trials per second on ``core``.

Run: ``python benchmarks/bench_store.py [POSTGRES_URL]``. Runs the oracle over the core
suite in all-tools and dual-control three ways: in memory, recording into a fresh
SQLite file (WAL), and recording into PostgreSQL (when a URL is given or
``REMIT_TEST_POSTGRES_URL`` is set; each run goes to a fresh schema that is dropped
afterwards). Prints trials per second and the store's share of the time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

from remit.actors import oracle_factory
from remit.authority import mode_by_name
from remit.harness import builtin_suite, run
from remit.store import Store, start_run

MODES = [mode_by_name("all_tools"), mode_by_name("dual_control")]


def _memory() -> tuple[int, float]:
    suite = builtin_suite("core")
    started = time.perf_counter()
    result = run(suite.scenarios, MODES, oracle_factory)
    return len(result.trials), time.perf_counter() - started


def _stored(url: str) -> tuple[int, float]:
    with Store.open(url) as store:
        started = time.perf_counter()
        result = start_run(store, suite_spec="core", modes=MODES, agent_id="oracle", trials=1,
                           seed=0)
        return len(result.trials), time.perf_counter() - started


def _postgres(base: str) -> tuple[int, float]:
    schema = f"remit_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        joiner = "&" if "?" in base else "?"
        return _stored(f"{base}{joiner}options=-csearch_path%3D{schema}")
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    """Print the figures (best of three for each backend)."""
    builtin_suite("core")  # build and verify the suite once, outside the timings
    rows = [("in memory", min((_memory() for _ in range(3)), key=lambda r: r[1]))]
    with tempfile.TemporaryDirectory() as directory:
        rows.append(("SQLite (WAL)", min(
            (_stored(str(Path(directory) / f"bench-{i}.db")) for i in range(3)),
            key=lambda r: r[1])))
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("REMIT_TEST_POSTGRES_URL")
    if url:
        rows.append(("PostgreSQL", min((_postgres(url) for _ in range(3)),
                                       key=lambda r: r[1])))
    base = rows[0][1][1]
    for label, (trials, seconds) in rows:
        extra = "" if seconds is base else \
            f"  (store: {(seconds - base) / trials * 1e3:.2f} ms per trial, " \
            f"{(seconds - base) / base:.0%} of the simulation)"
        print(f"{label:14} {trials} trials in {seconds:6.2f} s = {trials / seconds:7.1f} "
              f"trials/s{extra}")


if __name__ == "__main__":
    main()
