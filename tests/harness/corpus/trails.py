"""Whole labelled trails: scripted agent calls played through the real world and scored.

Each trail entry names a built-in scenario, a mode and the agent's calls in order. The
calls are played by :class:`ScriptedAgent` through the real turn loop (personas answer,
owners act), so the trail is what a real agent making those calls would produce. The
labels say what the trail means (README.md, "Trail entries"); :func:`evaluate` compares
them with the score:

- hand-offs: the abandoned hand-off ids and the missing owner actions, as sets;
- wrong variants: final and shown, as booleans;
- unsupported stated claims: the count per kind.

Run ``python -m tests.harness.corpus.trails show ID`` to print one trail's entries
(messages, hand-off events, transitions, errors) without its score.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from remit.actors import Briefing, Observation
from remit.authority import builtin_modes
from remit.harness import TrialScore, run_trial, score_trial
from remit.scenarios import Scenario, scenario_by_id
from remit.world import (
    EndEntry,
    ErrorEntry,
    HandoffEntry,
    MessageEntry,
    ToolCall,
    TransitionEntry,
    World,
)
from tests.harness.corpus.files import load_entries

DETECTORS = ("abandoned", "missing", "wrong_variant_final", "wrong_variant_shown",
             "unsupported_attribute", "unsupported_fit", "unsupported_authority")


class ScriptedAgent:
    """Makes the given calls in order, whatever it is told, then ends."""

    def __init__(self, calls: Iterable[dict[str, Any]]) -> None:
        self.calls = [ToolCall(tool=c["tool"], arguments=dict(c.get("arguments") or {}))
                      for c in calls]
        self.position = 0

    def start(self, briefing: Briefing) -> None:
        """Nothing to prepare: the script is fixed."""
        del briefing

    def act(self, observation: Observation) -> ToolCall:
        """The next scripted call; ``end`` once the script is played."""
        del observation
        if self.position < len(self.calls):
            call = self.calls[self.position]
            self.position += 1
            return call
        return ToolCall(tool="end", arguments={"summary": ""})


def load_trails(pattern: str = "trails_*.yaml") -> list[dict[str, Any]]:
    """Every trail entry of the corpus files matching ``pattern``."""
    return load_entries(pattern)


def play(entry: dict[str, Any]) -> tuple[Scenario, World]:
    """Play ``entry``'s calls in its scenario and mode; the finished world."""
    scenario = scenario_by_id(entry["scenario"])
    mode = builtin_modes()[entry["mode"]]
    world = run_trial(scenario, mode, ScriptedAgent(entry["calls"]))
    return scenario, world


def found(score: TrialScore) -> dict[str, Any]:
    """What the scorer says, in the labels' terms."""
    return {
        "abandoned": {m.group(1) for s in score.abandoned
                      if (m := re.match(r"abandoned_handoff: (H-\d+)", s))},
        "missing": {m.group(1) for s in score.missing
                    if (m := re.match(r"missing_handoff: (\w+)", s))},
        "wrong_variant_final": score.wrong_variant,
        "wrong_variant_shown": score.wrong_variant_shown,
        "unsupported_attribute": score.unsupported_attribute_claims,
        "unsupported_fit": score.unsupported_fit_claims,
        "unsupported_authority": score.unsupported_authority_claims,
    }


def expected(labels: dict[str, Any]) -> dict[str, Any]:
    """The labels, in the same terms as :func:`found`."""
    unsupported = labels.get("unsupported") or {}
    return {
        "abandoned": set(labels.get("abandoned") or ()),
        "missing": set(labels.get("missing") or ()),
        "wrong_variant_final": bool(labels.get("wrong_variant_final", False)),
        "wrong_variant_shown": bool(labels.get("wrong_variant_shown", False)),
        "unsupported_attribute": int(unsupported.get("attribute", 0)),
        "unsupported_fit": int(unsupported.get("fit", 0)),
        "unsupported_authority": int(unsupported.get("authority", 0)),
    }


@dataclass
class Tally:
    """Positives (items flagged) per detector: true, false, missed."""

    true: int = 0
    false: int = 0
    missed: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Flags that were right."""
        flagged = self.true + self.false
        return 1.0 if flagged == 0 else self.true / flagged

    @property
    def recall(self) -> float:
        """Labelled positives that were flagged."""
        labelled = self.true + self.missed
        return 1.0 if labelled == 0 else self.true / labelled


def _count(tally: Tally, got: int, want: int, where: str, detector: str) -> None:
    tally.true += min(got, want)
    if got > want:
        tally.false += got - want
        tally.misses.append(f"{where}: {detector} flagged {got}, labelled {want}")
    elif want > got:
        tally.missed += want - got
        tally.misses.append(f"{where}: {detector} flagged {got}, labelled {want}")


def evaluate(entries: list[dict[str, Any]]) -> dict[str, Tally]:
    """Per detector, the positives found against the labels, with every miss by trail id."""
    tallies = {name: Tally() for name in DETECTORS}
    for entry in entries:
        scenario, world = play(entry)
        got = found(score_trial(scenario, world))
        want = expected(entry.get("labels") or {})
        for name in DETECTORS:
            tally = tallies[name]
            g, w = got[name], want[name]
            if isinstance(g, set):
                tally.true += len(g & w)
                tally.false += len(g - w)
                tally.missed += len(w - g)
                if g != w:
                    tally.misses.append(f"{entry['id']}: {name} flagged {sorted(g)}, labelled "
                                        f"{sorted(w)}")
            else:
                _count(tally, int(g), int(w), entry["id"], name)
    return tallies


def describe(world: World) -> list[str]:
    """The trail as lines a person reads: messages, hand-offs, transitions, errors."""
    lines = []
    for entry in world.trail:
        if isinstance(entry, MessageEntry):
            lines.append(f"{entry.step:>3} {entry.sender.value} -> {entry.to.value} "
                         f"[{entry.tool}] {entry.text}")
        elif isinstance(entry, HandoffEntry):
            reason = f" ({entry.reason})" if entry.reason else ""
            lines.append(f"{entry.step:>3} hand-off {entry.handoff_id} {entry.event}: "
                         f"{entry.action.value} from {entry.owner.value}{reason}")
        elif isinstance(entry, TransitionEntry):
            lines.append(f"{entry.step:>3} {entry.role.value} {entry.action.value}: "
                         f"{entry.from_state} -> {entry.to_state} (v{entry.version})")
        elif isinstance(entry, ErrorEntry):
            lines.append(f"{entry.step:>3} ERROR {entry.actor.value} {entry.tool}: "
                         f"{entry.code}: {entry.message[:160]}")
        elif isinstance(entry, EndEntry):
            lines.append(f"{entry.step:>3} end ({entry.reason}): {entry.summary}")
    return lines


def main(argv: list[str]) -> int:
    """``show ID``: print a trail without its score."""
    if len(argv) != 2 or argv[0] != "show":
        print("usage: python -m tests.harness.corpus.trails show ID")  # noqa: T201
        return 2
    entry = next((e for e in load_trails() if e["id"] == argv[1]), None)
    if entry is None:
        print(f"no trail id={argv[1]!r}")  # noqa: T201
        return 2
    _, world = play(entry)
    for line in describe(world):
        print(line)  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
