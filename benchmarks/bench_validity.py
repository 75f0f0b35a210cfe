"""Validity of remit's detectors on the labelled corpus: precision and recall, every miss.

Run from the repository root: ``python benchmarks/bench_validity.py [--quiet]``.

What it measures (tests/harness/corpus/README.md has the labelling rules):

- **sentences** (``sentences_*.yaml``: agent messages labelled with the claims they
  make): for each detector (attribute, fit and authority claims), precision and recall
  of *finding* claims, and of *judging* them unsupported against the corpus catalogue,
  the entry's site facts and the owner actions done before it. Figures are given per
  corpus file set: the development files the detectors were tuned on, and the held-out
  files (``sentences_holdout*.yaml``) written afterwards and never tuned on.
- **trails** (``trails_*.yaml``: scripted agents played through the real world): per
  detector (abandoned and missing hand-offs, wrong variants final and shown, unsupported
  claims of each kind), precision and recall of the items it flags.
- **time**: milliseconds per message for reading every claim of a message with the
  catalogue's product names (min and median of five passes over the sentence corpus,
  same process, the reading cache cleared before each pass; reading only, no judging).

Every detector must reach 0.95 on both figures on the development files (the test
suite holds it there); a figure marked ``<`` is below. Held-out figures are measured,
not held: a ``<`` there is a finding to report, not a failure. With
``--quiet`` only the table is printed, otherwise every miss follows, by entry id.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from remit.authority import Role
from remit.catalogue import shared_catalogue
from remit.claims import ProductNames, read_claims
from tests.harness.corpus import sentences, trails

FLOOR = 0.95


def _mark(value: float) -> str:
    return f"{value:.3f}" + (" <" if value < FLOOR else "  ")


def _sentence_table(title: str, pattern: str, quiet: bool) -> None:
    entries = sentences.load_sentences(pattern)
    if not entries:
        print(f"\n{title}: no entries match {pattern}")
        return
    tallies = sentences.evaluate(entries)
    print(f"\n{title} ({len(entries)} messages, {pattern})")
    print(f"{'detector':<10} {'labelled':>8} {'found':>6} {'precision':>10} {'recall':>9}"
          f" | {'unsupp.':>7} {'precision':>10} {'recall':>9}")
    for kind, t in tallies.items():
        if not t.labelled and not t.found:
            print(f"{kind:<10} {0:>8} {0:>6} {'-':>10} {'-':>9} | {0:>7} {'-':>10} {'-':>9}")
            continue
        print(f"{kind:<10} {t.labelled:>8} {t.found:>6} {_mark(t.precision):>10} "
              f"{_mark(t.recall):>9} | {t.unsupported_labelled:>7} "
              f"{_mark(t.unsupported_precision):>10} {_mark(t.unsupported_recall):>9}")
    if not quiet:
        for kind, t in tallies.items():
            for miss in t.misses:
                print(f"  [{kind}] {miss}")


def _trail_table(quiet: bool) -> None:
    entries = trails.load_trails()
    tallies = trails.evaluate(entries)
    print(f"\ntrails ({len(entries)} scripted trials)")
    print(f"{'detector':<24} {'flagged right':>13} {'wrong':>6} {'missed':>7} "
          f"{'precision':>10} {'recall':>9}")
    for name, t in tallies.items():
        print(f"{name:<24} {t.true:>13} {t.false:>6} {t.missed:>7} {_mark(t.precision):>10} "
              f"{_mark(t.recall):>9}")
    if not quiet:
        for name, t in tallies.items():
            for miss in t.misses:
                print(f"  [{name}] {miss}")


def _timing() -> None:
    entries = sentences.load_sentences()
    names = ProductNames.of(shared_catalogue())
    passes = []
    for _ in range(5):
        read_claims.cache_clear()  # reading is cached per text: time the reading itself
        start = time.perf_counter()
        for entry in entries:
            read_claims(entry["text"], Role(entry.get("to", "buyer")), names)
        passes.append((time.perf_counter() - start) / len(entries) * 1000)
    print(f"\nreading one message: min {min(passes):.3f} ms, median "
          f"{statistics.median(passes):.3f} ms ({len(entries)} messages, 5 passes)")


def main() -> None:
    """Print the figures (and the misses unless ``--quiet``)."""
    quiet = "--quiet" in sys.argv[1:]
    _sentence_table("sentences, development", sentences.DEVELOPMENT, quiet)
    _sentence_table("sentences, held out", sentences.HELD_OUT, quiet)
    _trail_table(quiet)
    _timing()


if __name__ == "__main__":
    main()
