"""Replay many calls: each through the world of a real trial, then a stored run's outputs.

:func:`replay` takes labelled calls (``corpus line 12``, ``generated call 3``...) and
checks the fuzz property on all of them in two passes:

1. **Trials, call by call.** The calls are split between the two modes (all-tools,
   dual-control) of one handwritten scenario and played in chunks of up to
   :data:`CHUNK` calls, one trial (:func:`remit.harness.run_one`: the turn loop, the
   personas, the scorer) per chunk, each chunk followed by ``end`` as the scripted agent
   does; ``end`` calls are spread one per chunk, since each ends its trial. A call that
   raises out of the trial or hangs (a step, or the scoring, still running after
   :data:`~tests.fuzz.guard.CALL_SECONDS`) is a
   ``crash``/``hang`` finding of that call, left out, and the chunk played again
   without it. A trial that fails after its calls (``crash``/``hang`` in scoring, or
   ``unstorable``: its record cannot be turned into the JSON the store writes) has each
   of its calls tried alone: those that fail alone are findings of their own and left
   out; if none does, the chunk's calls are left out together (one finding naming
   them). A chunk ends early when a call ends its trial.
2. **The stored run.** The chunks that played are run again as one real run,
   ``remit run --agent tests.fuzz.agents:scripted`` (trial ``i`` of a mode plays that
   mode's chunk ``i``), stored in SQLite, and every report and terminal view checked
   (:func:`tests.fuzz.pipeline.play`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from remit.actors import Observation, TrialInfo
from remit.authority import ControlMode, builtin_modes
from remit.harness import TrialRecord, builtin_suite, run_one
from remit.scenarios import Scenario
from tests.fuzz.agents import ScriptedAgent, Step
from tests.fuzz.checks import Finding
from tests.fuzz.guard import CALL_SECONDS, Hang, rearm, within
from tests.fuzz.pipeline import Played, play

CORPUS = Path(__file__).parent / "corpus" / "malformed_calls.jsonl"
"""The regression corpus (see :mod:`tests.fuzz.make_corpus`)."""

SCENARIO = "discount-exception"
MODES = ("all_tools", "dual_control")
CHUNK = 30
"""Calls per trial at most (the scenario's step budget is 40)."""

Labelled = tuple[str, Step]
"""A call and what to call it in a finding."""

_CLIP = 160


def load_corpus(path: Path = CORPUS) -> list[Labelled]:
    """The corpus calls, labelled ``corpus line N``."""
    lines = path.read_text(encoding="ascii").splitlines()
    return [(f"corpus line {n}", json.loads(line)) for n, line in enumerate(lines, start=1)]


@dataclass
class Replayed:
    """What :func:`replay` found.

    Attributes:
        tried: calls replayed.
        findings: the findings of pass 1 (by call) and of pass 2 (by output).
        chunks: the chunks that played, by mode.
        played: pass 2's run.
        seconds: wall-clock seconds of pass 1 and of pass 2.
    """

    tried: int
    findings: list[Finding] = field(default_factory=list)
    chunks: dict[str, list[list[Step]]] = field(default_factory=dict)
    played: Played | None = None
    seconds: tuple[float, float] = (0.0, 0.0)


def replay(tmp: Path, calls: Sequence[Labelled]) -> Replayed:
    """Replay ``calls`` as the module docstring says."""
    scenario = builtin_suite("handwritten").scenario(SCENARIO)
    found = Replayed(tried=len(calls))
    started = time.perf_counter()
    for index, mode in enumerate(MODES):
        mine = list(calls[index::len(MODES)])
        chunks, findings = settle(scenario, builtin_modes()[mode], _spread_ends(mine))
        found.chunks[mode] = chunks
        found.findings += findings
    middle = time.perf_counter()
    trials = max(len(c) for c in found.chunks.values())
    if trials:
        found.played = play(tmp, found.chunks, scenarios=(SCENARIO,), modes=MODES,
                            trials=trials)
        found.findings += found.played.findings
    found.seconds = (middle - started, time.perf_counter() - middle)
    return found


def _spread_ends(calls: list[Labelled]) -> list[Labelled]:
    """``calls`` with the ``end`` calls moved so that one closes each run of
    ``CHUNK - 1`` other calls (the rest at the end)."""
    ends = [c for c in calls if c[1].get("tool") == "end"]
    others = [c for c in calls if c[1].get("tool") != "end"]
    spread: list[Labelled] = []
    for start in range(0, len(others), CHUNK - 1):
        spread += others[start:start + CHUNK - 1]
        if ends:
            spread.append(ends.pop(0))
    return spread + ends


@dataclass(frozen=True)
class _Outcome:
    """One chunk played: how many calls its trial took, or where it failed."""

    used: int
    failed_call: int | None = None
    failure: Finding | None = None


def settle(scenario: Scenario, mode: ControlMode,
           calls: list[Labelled]) -> tuple[list[list[Step]], list[Finding]]:
    """Pass 1 for one mode: the chunks that play, and the findings of the calls left out."""
    chunks: list[list[Step]] = []
    findings: list[Finding] = []
    queue = list(calls)
    while queue:
        batch = queue[:CHUNK]
        outcome = _play(scenario, mode, batch, trial=len(chunks))
        if outcome.failure is None:
            chunks.append([step for _, step in batch[:outcome.used]])
            del queue[:outcome.used]
        elif outcome.failed_call is not None:
            findings.append(outcome.failure)
            del queue[outcome.failed_call]
        else:
            taken = batch[:outcome.used]
            alone = [_play(scenario, mode, [call], trial=len(chunks)) for call in taken]
            guilty = [i for i, o in enumerate(alone) if o.failure is not None]
            findings += [f for o in alone if (f := o.failure) is not None]
            if not guilty:
                findings.append(outcome.failure)
                guilty = list(range(len(taken)))
            for i in reversed(guilty):
                del queue[i]
    return chunks, findings


class _GuardedAgent(ScriptedAgent):
    """A scripted agent that gives each step the guard's whole bound."""

    def act(self, observation: Observation) -> object:
        rearm()
        return super().act(observation)


def _play(scenario: Scenario, mode: ControlMode, batch: list[Labelled], *,
          trial: int) -> _Outcome:
    """Play ``batch`` in one trial (trial index ``trial`` of the run, for its seed)."""
    agents: list[ScriptedAgent] = []

    def factory(info: TrialInfo) -> ScriptedAgent:
        agents.append(_GuardedAgent(info, [step for _, step in batch]))
        return agents[-1]

    labels = ", ".join(label for label, _ in batch[:3]) + (", ..." if len(batch) > 3 else "")
    try:
        with within(CALL_SECONDS, f"a step of the trial of {labels}"):
            record, _ = run_one(scenario, mode, factory, trial=trial)
    except (Exception, Hang) as exc:
        return _failed(exc, batch, agents[0] if agents else None)
    used = max(agents[0].played, 1)
    try:
        _as_stored(record)
    except ValueError as exc:
        return _Outcome(used=used, failure=_finding(batch[:used], "unstorable", exc))
    return _Outcome(used=used)


def _as_stored(record: TrialRecord) -> None:
    """Turn ``record`` into the JSON the store writes: each trail entry's and the score's
    own ``model_dump_json`` (a whole record's dump can differ: pydantic replaces a lone
    surrogate in a nested key there, and raises for the entry alone)."""
    record.scored.score.model_dump_json().encode("utf-8")
    for entry in record.trail:
        entry.model_dump_json().encode("utf-8")


def _finding(batch: list[Labelled], rule: str, exc: BaseException) -> Finding:
    first = (str(exc).strip().splitlines() or [""])[0]
    where = f"{batch[0][0]} to {batch[-1][0]}" if len(batch) > 1 else batch[0][0]
    return Finding(where, rule, f"{type(exc).__name__}: {first[:_CLIP]!a}")


def _failed(exc: BaseException, batch: list[Labelled], agent: ScriptedAgent | None) -> _Outcome:
    """A trial that raised or hung: in a call (the one the agent played last), or after
    its calls (in scoring)."""
    rule = "hang" if isinstance(exc, Hang) else "crash"
    played = 0 if agent is None else agent.played
    if agent is not None and not agent.ended and _in_a_call(exc) and played > 0:
        return _Outcome(used=played, failed_call=played - 1,
                        failure=_finding([batch[played - 1]], rule, exc))
    used = max(played, 1)
    return _Outcome(used=used, failure=_finding(batch[:used], rule, exc))


def _in_a_call(exc: BaseException) -> bool:
    """Whether ``exc`` came out of an agent step (the turn loop's ``apply``)."""
    trace = exc.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_name == "apply" and code.co_filename.endswith("orchestrator.py"):
            return True
        trace = trace.tb_next
    return False
