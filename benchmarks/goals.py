"""Every speed goal of remit in one table: what each measures, the goal, min / median.

Run from the repository root::

    python benchmarks/goals.py                 # every benchmark, 3 runs each
    python benchmarks/goals.py --runs 5 --only trial-baseline,help
    python benchmarks/goals.py --postgres postgresql://root@127.0.0.1:5432/test

Each row says exactly what it includes: the agent, the suite, the sizes, and whether
start-up (a fresh ``remit`` process) or the suite build is inside the figure. Ratios
(catalogue size, store vs memory, workers) are measured in the same run, side by side,
run after run. Nothing here is asserted by the test suite; speed is measured, not tested.

The large stores (10,000 trials for the report; 100,000 in SQLite and 1,000,000 in
PostgreSQL for ``compare``) are built once and kept under ``--work`` (default
``benchmarks/.work``), keyed by the store schema version; building them is never timed.
They hold real trials: 10,080 of the baseline agent and 10,080 of the guessing agent
(core suite, two modes, 42 trials each), recorded by ``remit run``. The compare stores
repeat those records under new trial indices up to the size wanted, without their trails
(``compare`` reads scores only, so the trails would only make the files bigger).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg

from remit.actors import load_agent_factory
from remit.authority import ControlMode, mode_by_name
from remit.catalogue import shared_catalogue
from remit.harness import builtin_suite, run
from remit.store import Store, start_run
from remit.store.tables import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
BASE_TRIALS = 42
"""Trials per scenario and mode of the real runs the big stores are made of (10,080)."""


@dataclass(frozen=True)
class Measure:
    """One measured figure per run, and how to read it against the goal."""

    name: str
    what: str
    includes: str
    unit: str
    goal: float
    values: tuple[float, ...]
    extra: str = ""

    def line(self) -> str:
        """A table row: goal, min, median, whether the median meets the goal."""
        low, mid = min(self.values), statistics.median(self.values)
        met = "yes" if mid <= self.goal else "NO"
        return (f"{self.name:18} {self.what:46} {self.goal:>9.3g} {low:>9.3g} {mid:>9.3g} "
                f"{self.unit:6} {met:4} {self.extra}")


@dataclass(frozen=True)
class Process:
    """What one child process cost: wall seconds, CPU seconds, peak RSS in MB."""

    wall: float
    cpu: float
    rss_mb: float


_PEAK_FILE = "REMIT_BENCH_PEAK_FILE"

_MEASURED = f"""\
import atexit, os, runpy, sys

def _peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["{_PEAK_FILE}"], "w") as out:
        out.write(peak)

atexit.register(_peak)
sys.argv[0] = "remit"
runpy.run_module("remit", run_name="__main__", alter_sys=True)
"""
"""``python -m remit`` that writes its own peak RSS (kB) at exit to the file named by
``$REMIT_BENCH_PEAK_FILE``. ``wait4``'s ``ru_maxrss`` cannot tell it: Linux starts a
child's figure at its parent's peak (the child is forked from it), so a benchmark
process that had just built a large store reported that store's memory as the
command's."""


def child(args: Sequence[str], *, env: dict[str, str] | None = None,
          cwd: Path | None = None) -> Process:
    """Run a command to its end; its own wall time, CPU time (``wait4``) and peak RSS
    (as a :func:`measured` command reports it, else ``wait4``'s, which is at least the
    parent's)."""
    with tempfile.TemporaryDirectory() as directory:
        peak_file = Path(directory) / "peak"
        started = time.perf_counter()
        proc = subprocess.Popen(list(args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env={**os.environ, **(env or {}), _PEAK_FILE: str(peak_file)},
                                cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a gate or a worse agent
            error = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"{' '.join(args)} failed: {error[-2000:]}")
        peak_kb = int(peak_file.read_text()) if peak_file.exists() else usage.ru_maxrss
    return Process(wall, usage.ru_utime + usage.ru_stime, peak_kb / 1024)


def remit(*args: str) -> list[str]:
    """The command line of ``remit ARGS`` with this interpreter."""
    return [sys.executable, "-m", "remit", *args]


def measured(*args: str) -> list[str]:
    """``remit ARGS`` that reports its own peak RSS to :func:`child` (Linux)."""
    if not Path("/proc/self/status").exists():
        return remit(*args)
    return [sys.executable, "-c", _MEASURED, *args]


def cpu_of(work: Callable[[], object]) -> float:
    """CPU seconds of this process spent in ``work()``."""
    started = time.process_time()
    work()
    return time.process_time() - started


# -- in-process benchmarks -------------------------------------------------------------

def _modes() -> list[ControlMode]:
    return [mode_by_name("all_tools"), mode_by_name("dual_control")]


def trial_cpu(agent: str, runs: int, goal: float) -> Measure:
    """CPU ms per core-suite trial (build world, turn loop, score); suite built before."""
    scenarios = builtin_suite("core").scenarios
    factory, modes = load_agent_factory(agent), _modes()
    run(scenarios[:4], modes, factory)  # warm the shared catalogue and lazy imports
    count = len(scenarios) * len(modes)
    values = tuple(cpu_of(lambda: run(scenarios, modes, factory)) / count * 1e3
                   for _ in range(runs))
    return Measure(f"trial-{agent}", f"one core trial, {agent} agent",
                   f"{count} trials (core x all_tools,dual_control) by remit.harness.run in "
                   "process, its garbage collections included, every record kept to the end "
                   "(as run() returns them); suite and catalogue built before",
                   "ms CPU", goal, values)


def catalogue_ratio(runs: int) -> Measure:
    """CPU of the handwritten scenarios against 10,000 SKUs / against the default 48."""
    small = list(builtin_suite("handwritten").scenarios)
    large = [s.model_copy(update={"catalogue_size": 10_000}) for s in small]
    factory, modes = load_agent_factory("baseline"), _modes()
    shared_catalogue(0, 10_000)  # generating the catalogue is not part of a trial
    run(large, modes, factory)
    ratios = []
    for _ in range(runs):
        base = cpu_of(lambda: run(small, modes, factory))
        big = cpu_of(lambda: run(large, modes, factory))
        ratios.append(big / base)
    trials = len(small) * len(modes)
    return Measure("catalogue-10k", "trial CPU, 10,000 SKUs / 48 SKUs",
                   f"{trials} trials (handwritten x 2 modes), baseline agent, catalogues "
                   "generated before", "x", 1.5, tuple(ratios))


def _stored_run(url: str) -> None:
    """What ``remit run --db URL`` does once the suite is built: open (create) the store,
    record the run trial by trial through the writer, return its result (built from the
    trials just saved, as a new run's is)."""
    with Store.open(url) as store:
        start_run(store, suite_spec="core", modes=_modes(), agent_id="oracle", trials=1,
                  seed=0)


def _cpu_and_wall(work: Callable[[], object]) -> tuple[float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    work()
    return time.process_time() - cpu, time.perf_counter() - started


def store_ratio(runs: int, postgres: str | None) -> list[Measure]:
    """A recorded oracle run of core / the same run in memory, measured side by side.

    SQLite works inside this process, so its row compares CPU time (what the writer
    costs, without the other processes' noise); PostgreSQL works in its server's process
    too, so its row compares wall time. Each row's values are the ratios of the runs
    made side by side; its extra column gives the ratio of the minimum times (less
    sensitive to a busy machine than any one pair) and the other kind of time.
    """
    scenarios, modes = builtin_suite("core").scenarios, _modes()
    factory = load_agent_factory("oracle")
    run(scenarios[:4], modes, factory)
    times: dict[str, list[tuple[float, float]]] = {"memory": [], "sqlite": [], "postgres": []}
    with tempfile.TemporaryDirectory() as directory:
        _stored_run(str(Path(directory) / "warm.db"))  # the store's lazy imports
        for index in range(runs):
            times["memory"].append(_cpu_and_wall(lambda: run(scenarios, modes, factory)))
            times["sqlite"].append(_cpu_and_wall(lambda i=index: _stored_run(
                str(Path(directory) / f"store-{i}.db"))))
            if postgres:
                with PostgresDatabase(postgres) as url:
                    times["postgres"].append(_cpu_and_wall(lambda u=url: _stored_run(u)))
    includes = ("240 trials (core x 2 modes), oracle agent, suite built before; in memory: "
                "remit.harness.run, every record kept; recorded: start_run into a fresh "
                "store (opening and creating it, the manifest, the writer's batches, the "
                "result), its trails dropped once saved")

    def ratios(store: str, kind: int) -> tuple[float, ...]:
        return tuple(s[kind] / m[kind] for s, m in zip(times[store], times["memory"],
                                                         strict=True))

    def of_minimums(store: str, kind: int) -> float:
        return min(s[kind] for s in times[store]) / min(m[kind] for m in times["memory"])

    found = [Measure("store-sqlite", "recorded in SQLite / in memory, CPU", includes, "x",
                     1.2, ratios("sqlite", 0),
                     extra=f"of the minimums {of_minimums('sqlite', 0):.3g}; wall "
                           f"{of_minimums('sqlite', 1):.3g}")]
    if postgres:
        found.append(Measure("store-postgres", "recorded in PostgreSQL / in memory, wall",
                             includes + "; wall time (the server works too)", "x", 1.3,
                             ratios("postgres", 1),
                             extra=f"of the minimums {of_minimums('postgres', 1):.3g}; "
                                   f"client CPU {of_minimums('postgres', 0):.3g}"))
    return found


def workers_speedup(runs: int, work: Path) -> Measure | None:
    """Wall of ``remit run --workers 1`` over ``--workers 2`` (None when remit has none)."""
    if "workers" not in inspect.signature(run).parameters:
        return None
    speedups = []
    for _ in range(runs):
        walls = {}
        for workers in (1, 2):
            db = work / f"workers-{workers}.db"
            db.unlink(missing_ok=True)
            walls[workers] = child(remit("run", "--db", str(db), "--trials", "8",
                                         "--workers", str(workers))).wall
        speedups.append(walls[1] / walls[2])
    # A speed-up is better when larger: its goal is met at >= 1.8; shown as 1 / speed-up
    return Measure("workers-2", "wall, --workers 1 / --workers 2 (inverse)",
                   "remit run in a fresh process: 1,920 trials (core x 2 modes x 8), "
                   "baseline agent, SQLite, start-up and the suite cache read inside",
                   "x", 1 / 1.8, tuple(1 / s for s in speedups),
                   extra="speed-up " + ", ".join(f"{s:.2f}" for s in speedups))


# -- whole-process benchmarks ------------------------------------------------------------

class PostgresDatabase:
    """A fresh PostgreSQL database for one measurement, dropped afterwards."""

    def __init__(self, base: str, name: str | None = None, keep: bool = False) -> None:
        self.base, self.keep = base, keep
        self.name = name or f"remit_bench_{uuid.uuid4().hex[:8]}"

    def __enter__(self) -> str:
        with psycopg.connect(self.base, autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                        (self.name,)).fetchone()
            if not exists:
                connection.execute(f'CREATE DATABASE "{self.name}"')
        return self.base.rsplit("/", 1)[0] + "/" + self.name

    def __exit__(self, *exc: object) -> None:
        if self.keep:
            return
        with psycopg.connect(self.base, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{self.name}" WITH (FORCE)')


def help_wall(runs: int) -> Measure:
    """Wall seconds of ``remit --help`` in a fresh process."""
    values = tuple(child(remit("--help")).wall for _ in range(runs))
    return Measure("help", "remit --help", "a fresh process: interpreter start-up and imports",
                   "s wall", 0.25, values)


def default_run(runs: int, work: Path, *, cached: bool) -> Measure:
    """Wall seconds of the README's main job: core, both modes, SQLite, an HTML report.

    ``cached``: the verified core suite is read from a warm suite cache (a first, untimed
    run fills a cache directory of its own), as in every run after the first on a
    machine; else the cache is off and every run builds and verifies core.
    """
    cache = work / "suite-cache"
    env = {"REMIT_CACHE_DIR": str(cache)} if cached else {"REMIT_NO_CACHE": "1"}
    values, rss, cpu = [], [], []
    for index in range(runs + 1 if cached else runs):
        db, report = work / f"default-{index}.db", work / f"default-{index}.html"
        db.unlink(missing_ok=True)
        spent = child(measured("run", "--db", str(db), "--report", str(report)), env=env)
        if cached and index == 0:
            continue  # filled the cache
        values.append(spent.wall)
        rss.append(spent.rss_mb)
        cpu.append(spent.cpu)
    name = "default-run" if cached else "default-run-cold"
    suite = "core read from a warm suite cache" if cached else \
        "core built and verified (no suite cache)"
    return Measure(name, "remit run --db X.db --report r.html",
                   f"a fresh process: imports, {suite}, 240 baseline trials, SQLite, HTML "
                   "report", "s wall", 2.5, tuple(values),
                   extra=f"{_cpu(cpu)}; peak RSS {max(rss):.0f} MB")


def _cpu(seconds: Sequence[float]) -> str:
    """A process row's CPU seconds (user + system), min / median: on a shared machine
    they move much less than its wall time."""
    return f"CPU {min(seconds):.2f} / {statistics.median(seconds):.2f} s"


def _run_ids(db: str) -> list[str]:
    """The run ids of ``db``: the baseline agent's first, then the guessing agent's."""
    with Store.open(db, read_only=True) as store:
        listed = sorted(store.runs(), key=lambda listing: listing.agent_id != "baseline")
        return [listing.run_id for listing in listed]


def base_store(work: Path) -> tuple[Path, list[str]]:
    """The SQLite store of two real runs of 10,080 trials (baseline, guessing)."""
    path = work / f"base-v{SCHEMA_VERSION}.db"
    if not path.exists():
        print(f"building {path.name}: 2 x 10,080 real trials (not timed)...", flush=True)
        for agent in ("baseline", "guessing"):
            child(remit("run", "--db", str(path), "--agent", agent,
                        "--trials", str(BASE_TRIALS)))
    return path, _run_ids(str(path))


def report_10k(runs: int, work: Path) -> Measure:
    """Wall seconds and peak RSS of ``remit report`` of a stored 10,080-trial run."""
    db, ids = base_store(work)
    out = work / "report-10k.html"
    spent = [child(measured("report", ids[0], "--db", str(db), "-o", str(out)))
             for _ in range(runs)]
    return Measure("report-10k", "remit report RUN -o r.html, 10,080 trials",
                   "a fresh process: imports, the stored run (baseline, core x 2 modes x "
                   "42), HTML", "s wall", 4.0, tuple(s.wall for s in spent),
                   extra=f"{_cpu([s.cpu for s in spent])}; peak RSS "
                         f"{max(s.rss_mb for s in spent):.0f} MB (goal 300)")


def _save_all(store: object, run_id: str, records: list[object]) -> None:
    batch = getattr(store, "save_trials", None)
    if callable(batch):
        for start in range(0, len(records), 2_000):
            batch(run_id, records[start:start + 2_000])
        return
    for record in records:
        store.save_trial(run_id, record)  # type: ignore[attr-defined]


def compare_store(work: Path, url: str, per_run: int) -> list[str]:
    """Two runs of ``per_run`` trials each at ``url``: the base runs' records repeated."""
    base, ids = base_store(work)
    with Store.open(url) as store:
        if len(store.runs()) == 2:
            return _run_ids(url)
        with Store.open(str(base), read_only=True) as source:
            for run_id in ids:
                manifest = source.manifest(run_id)
                records = [r.model_copy(update={"trail": ()})
                           for r in source.trials(run_id, with_trails=False)]
                copies = per_run // len(records)
                trials = BASE_TRIALS * copies
                new = manifest.model_copy(update={"run_id": f"{run_id}-x{copies}",
                                                  "trials": trials})
                store.create_run(new)
                for copy in range(copies):
                    moved = [r.model_copy(update={"scored": r.scored.model_copy(
                        update={"trial": r.scored.trial + copy * BASE_TRIALS})})
                        for r in records]
                    _save_all(store, new.run_id, moved)
                store.finish_run(new.run_id, datetime.now(UTC))
        return [listing.run_id for listing in store.runs()]


def compare_big(runs: int, work: Path, url: str, *, label: str, per_run: int, goal: float,
                rss_goal: int) -> Measure:
    """``remit compare RUN1 RUN2`` over two stored runs of ``per_run`` trials each."""
    print(f"preparing {label} (not timed)...", flush=True)
    ids = compare_store(work, url, per_run)
    spent = [child(measured("compare", ids[0], ids[1], "--db", url)) for _ in range(runs)]
    return Measure(label, f"remit compare RUN1 RUN2, 2 x {per_run:,} trials",
                   "a fresh process: imports, baseline vs guessing, core x 2 modes, "
                   "scores only", "s wall", goal, tuple(s.wall for s in spent),
                   extra=f"{_cpu([s.cpu for s in spent])}; peak RSS "
                         f"{max(s.rss_mb for s in spent):.0f} MB (goal {rss_goal})")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmarks asked for and print goal vs measured."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each (min 3 to quote)")
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks" / ".work")
    parser.add_argument("--postgres", default=os.environ.get("REMIT_TEST_POSTGRES_URL"),
                        help="a PostgreSQL URL for the PostgreSQL rows (default: "
                             "$REMIT_TEST_POSTGRES_URL; rows skipped without one)")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    wanted = {name for name in args.only.split(",") if name}

    def want(name: str) -> bool:
        return not wanted or name in wanted

    rows: list[Measure] = []
    jobs: list[tuple[str, Callable[[], list[Measure] | Measure | None]]] = [
        ("help", lambda: help_wall(args.runs)),
        ("trial-baseline", lambda: trial_cpu("baseline", args.runs, 2.0)),
        ("trial-oracle", lambda: trial_cpu("oracle", args.runs, 1.5)),
        ("catalogue-10k", lambda: catalogue_ratio(args.runs)),
        ("store", lambda: store_ratio(args.runs, args.postgres)),
        ("workers-2", lambda: workers_speedup(args.runs, args.work)),
        ("default-run", lambda: default_run(args.runs, args.work, cached=True)),
        ("default-run-cold", lambda: default_run(args.runs, args.work, cached=False)),
        ("report-10k", lambda: report_10k(args.runs, args.work)),
        ("compare-100k", lambda: compare_big(
            args.runs, args.work, str(args.work / f"compare-100k-v{SCHEMA_VERSION}.db"),
            label="compare-100k", per_run=50_400, goal=1.5, rss_goal=250)),
    ]
    if args.postgres:
        name = f"remit_bench_compare_1m_v{SCHEMA_VERSION}"
        jobs.append(("compare-1m-pg", lambda: compare_big(
            args.runs, args.work, PostgresDatabase(args.postgres, name, keep=True)
            .__enter__(), label="compare-1m-pg", per_run=504_000, goal=15.0,
            rss_goal=400)))
    for name, job in jobs:
        if not want(name):
            continue
        found = job()
        for measure in found if isinstance(found, list) else [found] if found else []:
            rows.append(measure)
            print(measure.line(), flush=True)
    print()
    print(f"{'benchmark':18} {'what':46} {'goal':>9} {'min':>9} {'median':>9} {'unit':6} "
          f"met")
    for measure in rows:
        print(measure.line())
    print()
    for measure in rows:
        print(f"{measure.name}: {measure.includes}")
    (args.work / "last.json").write_text(json.dumps(
        [{"name": m.name, "goal": m.goal, "values": m.values, "unit": m.unit,
          "extra": m.extra} for m in rows], indent=1))


if __name__ == "__main__":
    main()
