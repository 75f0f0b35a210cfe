"""Can anything an agent sends crash a run or reach a reader raw? Calls tried, crashes,
unescaped outputs.

Run from the repository root: ``python benchmarks/bench_fuzz.py [N] [--seed S] [--list]``
(``N`` defaults to 500; ``--list`` prints every finding).

What it includes:

- **calls**: every line of ``tests/fuzz/corpus/malformed_calls.jsonl`` (the regression
  corpus, see ``tests/fuzz/make_corpus.py``) and ``N`` calls drawn from
  ``tests.fuzz.strategies.calls`` with seed ``S`` (default 0): tool names real, near and
  invented, arguments of every type, size (to 1 MB and 100,000 items) and depth (to
  100,000 levels), hostile text of every unicode class, control and markup;
- **pass 1**: each call through the world of a real trial of the handwritten scenario
  ``discount-exception`` (half the calls in all-tools, half in dual-control; about thirty
  a trial, each trial scored and its record turned into the JSON the store writes;
  ``tests/fuzz/replay.py``);
- **pass 2**: the trials of pass 1 run again as one real run with ``remit run`` into a
  SQLite file, then ``remit report`` in HTML, Markdown, JSON and JUnit, ``remit trail``
  of every trial and ``remit show`` (``tests/fuzz/pipeline.py``).

Not included: the MCP server (``tests/fuzz/test_mcp_fuzz.py`` drives it), the LLM
agent's reply parser, and agents that raise or return no tool call (the fuzz property,
``tests/fuzz/test_fuzz_property.py``, covers those).

What it counts:

- **crashes**: calls that raised out of their trial (``crash``), ran past the failure
  guard (``hang``: 30 s a step, 60 s a command; ``tests/fuzz/guard.py``) or left a
  record the store cannot write (``unstorable``); commands of pass 2 that raised, hung
  or exited nonzero; trials missing from the store;
- **unescaped outputs**: outputs (a report file, a command's stdout or stderr) with at
  least one finding of ``tests/fuzz/checks.py``: a raw control, bidi or surrogate
  character, active HTML, raw HTML or an active link outside code in the Markdown, a
  broken table, a JUnit or JSON file that does not parse or holds a lone surrogate,
  rich markup applied. Each output counts once, however many findings it has.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.checks import Finding
from tests.fuzz.replay import Replayed, load_corpus, replay
from tests.fuzz.strategies import drawn_calls

CRASHES = frozenset({"crash", "hang", "unstorable", "exit", "stored"})
"""The rules that count as crashes; every other rule is an unescaped output."""


def _output(finding: Finding) -> str:
    """The output a finding is about (a file checked raw and decoded is one output)."""
    return finding.where.removesuffix(" (as displayed)").removesuffix(" (decoded)")


def _print(found: Replayed, corpus: int, generated: int, *, seed: int, total: float,
           listing: bool) -> None:
    crashes = [f for f in found.findings if f.rule in CRASHES]
    unescaped = [f for f in found.findings if f.rule not in CRASHES]
    outputs = found.played.outputs if found.played is not None else 0
    trials = found.played.trials if found.played is not None else 0
    print(f"calls tried:       {found.tried:,} ({corpus:,} corpus lines + {generated:,} "
          f"generated with seed {seed})")
    played = sum(len(c) for c in found.chunks.values())
    print(f"trials:            {trials:,} stored in one run ({played:,} played in pass 1)")
    print(f"crashes:           {len(crashes):,}  {dict(Counter(f.rule for f in crashes))}")
    print(f"unescaped outputs: {len({_output(f) for f in unescaped}):,} of {outputs:,} "
          f"checked  {dict(Counter(f.rule for f in unescaped))}")
    first, second = found.seconds
    print(f"runtime:           {total:.1f} s (pass 1 {first:.1f} s, pass 2 {second:.1f} s)")
    if listing:
        for finding in found.findings:
            print(f"  {finding}")


def main() -> None:
    """Replay the corpus and ``N`` generated calls; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("n", nargs="?", type=int, default=500, help="generated calls")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated calls")
    parser.add_argument("--list", action="store_true", help="print every finding")
    options = parser.parse_args()
    corpus = load_corpus()
    generated = [(f"generated call {n}", call)
                 for n, call in enumerate(drawn_calls(options.n, options.seed), start=1)]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        found = replay(Path(directory), [*corpus, *generated])
    _print(found, len(corpus), len(generated), seed=options.seed,
           total=time.perf_counter() - started, listing=options.list)


if __name__ == "__main__":
    main()
