"""Throughput of the simulation: every built-in scenario x mode x trial with the oracle.

Run: ``python benchmarks/bench_trials.py [TRIALS]``. Prints trials per second and
milliseconds per step (a step is one tool call by any party), best of three runs, for
the whole pipeline: world, personas, turn loop and scoring. The catalogue is generated
once per process and excluded (it is cached by the harness).
"""

from __future__ import annotations

import sys
import time

from remit.actors import oracle_factory
from remit.authority import builtin_modes
from remit.catalogue import shared_catalogue
from remit.harness import run
from remit.scenarios import builtin_scenarios
from remit.world import ToolCallEntry


def main() -> None:
    """Print the figures."""
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    scenarios = builtin_scenarios()
    modes = list(builtin_modes().values())
    shared_catalogue(0, None)
    best = float("inf")
    result = None
    for _ in range(3):
        started = time.perf_counter()
        result = run(scenarios, modes, oracle_factory, trials=trials)
        best = min(best, time.perf_counter() - started)
    assert result is not None
    count = len(result.trials)
    steps = sum(1 for t in result.trials for e in t.trail if isinstance(e, ToolCallEntry))
    agent_steps = sum(t.scored.score.steps for t in result.trials)
    passed = sum(t.scored.score.passed for t in result.trials)
    print(f"{len(scenarios)} scenarios x {len(modes)} modes x {trials} trials = {count} trials, "
          f"{passed} passed")
    print(f"wall time:        {best:8.3f} s")
    print(f"trials/s:         {count / best:8.1f}")
    print(f"ms per trial:     {best / count * 1e3:8.3f}  ({steps / count:.1f} steps, "
          f"{agent_steps / count:.1f} by the agent)")
    print(f"ms per step:      {best / steps * 1e3:8.3f}")


if __name__ == "__main__":
    main()
