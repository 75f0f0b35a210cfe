"""A pytest session's trials gathered per agent, none lost: what the plugin stores and sums.

Tests run scenarios in any combination: one test may run a scenario twice, several tests
may run the same scenario in the same mode with the same agent. A run (and a summary
column) holds each trial of a scenario in a mode once, so :func:`merge_session` gathers
the trials of every test, per agent, by this rule:

- a trial is its scenario, mode, agent and seed: a trial that repeats one already kept
  (same seed) *with the same score* is the same trial run again, and is counted once;
- every other trial is kept: trials with other seeds (a test's ``seed=``, or another
  ``trials=`` count) are further trials, and so is a trial whose seed repeats but whose
  score differs (an agent that does not replay its seed exactly, such as a sampling LLM);
- the trials kept of a scenario in a mode are numbered 0, 1, ... in test id order, then
  in the order each test ran them (a single test's trials keep their numbers).

So no result is dropped: a trial left out is one whose identical result is kept. Every
scenario in a mode that more than one test ran, or that a test ran more than once, gives
a :class:`Repeat`, which the plugin prints, naming the tests.

Example:
    >>> merged = merge_session([("t.py::test_a", "oracle", a.records),
    ...                         ("t.py::test_b", "oracle", b.records)])  # doctest: +SKIP
    >>> [r.line() for r in merged["oracle"].repeats]                     # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from remit.harness.runner import TrialRecord

__all__ = ["MergedAgent", "Repeat", "merge_session"]


@dataclass(frozen=True)
class Repeat:
    """A scenario that one agent ran in one mode in several tests, or several times.

    Attributes:
        agent: the agent's label.
        scenario_id, mode: what was run.
        tests: the node ids of the tests that ran it, in id order.
        ran: the trials those tests ran in all.
        kept: the distinct trials kept.
        merged: trials that repeated a kept trial's seed and score, counted once.
        differing: trials that repeated a kept trial's seed with another score, kept as
            further trials.
    """

    agent: str
    scenario_id: str
    mode: str
    tests: tuple[str, ...]
    ran: int
    kept: int
    merged: int
    differing: int

    def line(self) -> str:
        """One line naming the scenario, the mode, the agent, the tests and the counts."""
        where = (f"{len(self.tests)} tests ({', '.join(self.tests)})" if len(self.tests) > 1
                 else f"test {self.tests[0]}")
        text = (f"remit: {self.scenario_id} in {self.mode} with {self.agent} ran in {where}: "
                f"{self.ran} trial(s) counted as {self.kept} distinct trial(s)")
        if self.merged:
            text += (f"; {self.merged} repeated a trial's seed and result and "
                     f"{'is' if self.merged == 1 else 'are'} counted once")
        if self.differing:
            text += (f"; {self.differing} repeated a trial's seed with another result (an "
                     "agent that does not replay its seed) and "
                     f"{'is' if self.differing == 1 else 'are'} counted as further trial(s)")
        return text


@dataclass(frozen=True)
class MergedAgent:
    """One agent's trials of a session, merged (see the module docstring).

    Attributes:
        agent: the agent's label.
        records: the distinct trials, renumbered, ordered by scenario, mode and trial.
        repeats: the scenarios run in several tests or several times, in that order.
        tests: the node ids of the tests that ran this agent, in id order.
    """

    agent: str
    records: tuple[TrialRecord, ...]
    repeats: tuple[Repeat, ...]
    tests: tuple[str, ...]


def _merge_group(agent: str, key: tuple[str, str], ran: Sequence[tuple[str, TrialRecord]]
                 ) -> tuple[list[TrialRecord], Repeat | None]:
    kept: list[TrialRecord] = []
    merged = differing = 0
    for _, record in ran:
        same_seed = [k for k in kept if k.seed == record.seed]
        if any(k.scored.score == record.scored.score for k in same_seed):
            merged += 1
            continue
        differing += bool(same_seed)
        kept.append(record)
    numbered = [r if r.scored.trial == index else
                r.model_copy(update={"scored": r.scored.model_copy(update={"trial": index})})
                for index, r in enumerate(kept)]
    tests = tuple(dict.fromkeys(test for test, _ in ran))
    per_test = [sum(1 for t, _ in ran if t == test) for test in tests]
    single = len(tests) == 1 and len({r.scored.trial for _, r in ran}) == per_test[0]
    if single and not merged:
        return numbered, None
    return numbered, Repeat(agent=agent, scenario_id=key[0], mode=key[1], tests=tests,
                            ran=len(ran), kept=len(kept), merged=merged, differing=differing)


def merge_session(ran: Iterable[tuple[str, str, Sequence[TrialRecord]]]
                  ) -> dict[str, MergedAgent]:
    """Every agent's distinct trials of a session (see the module docstring).

    Args:
        ran: per outcome, the test's node id, the agent's label and the outcome's trial
            records, in any order (under pytest-xdist reports arrive as workers finish;
            the result depends only on the test ids and each test's own order).

    Returns:
        Per agent (ordered by label), its merged trials.
    """
    ordered = sorted(ran, key=lambda item: item[0])  # stable: a test's own order stays
    groups: dict[str, dict[tuple[str, str], list[tuple[str, TrialRecord]]]] = {}
    for test, agent, ran_records in ordered:
        by_key = groups.setdefault(agent, {})
        for record in ran_records:
            key = (record.scored.scenario_id, record.scored.mode)
            by_key.setdefault(key, []).append((test, record))
    merged: dict[str, MergedAgent] = {}
    for agent in sorted(groups):
        records: list[TrialRecord] = []
        repeats: list[Repeat] = []
        for key in sorted(groups[agent]):
            kept, repeat = _merge_group(agent, key, groups[agent][key])
            records += kept
            if repeat is not None:
                repeats.append(repeat)
        tests = tuple(sorted({test for test, a, _ in ordered if a == agent}))
        merged[agent] = MergedAgent(agent=agent, records=tuple(records),
                                    repeats=tuple(repeats), tests=tests)
    return merged
