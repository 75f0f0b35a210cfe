"""The regression corpus: at least 500 distinct malformed calls, each replayed through
the world of a real trial, the stored run, every report and the terminal.

``tests/fuzz/corpus/malformed_calls.jsonl`` is written by ``python -m
tests.fuzz.make_corpus`` (see that module for its families and how to regenerate it).
:func:`tests.fuzz.replay.replay` plays every call in trials of a handwritten scenario
(all-tools and dual-control, about thirty calls a trial), then stores them as one run
and checks it as the fuzz property does (:mod:`tests.fuzz.pipeline`): no call raises
out of its trial or hangs, every trial's record can be stored, the run completes with
every trial stored, every report renders and parses, and no agent text appears
unescaped (:mod:`tests.fuzz.checks`).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.replay import CORPUS, load_corpus, replay


def test_the_corpus_holds_500_distinct_malformed_calls() -> None:
    lines = CORPUS.read_text(encoding="ascii").splitlines()
    assert len(lines) >= 500
    assert len(set(lines)) == len(lines)
    for line in lines:
        call = json.loads(line)
        assert set(call) == {"tool", "arguments"}
        assert isinstance(call["arguments"], dict)


def test_every_corpus_call_keeps_the_property(tmp_path: Path) -> None:
    calls = load_corpus()
    found = replay(tmp_path, calls)
    assert not found.findings, (f"{len(found.findings)} findings over {found.tried} calls:\n"
                                + "\n".join(str(f) for f in found.findings))
    assert found.played is not None
    assert found.played.trials == len(found.chunks) * max(len(c) for c in found.chunks.values())
    assert sum(len(c) for chunks in found.chunks.values() for c in chunks) == len(calls)
