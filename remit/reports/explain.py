"""Explaining a failed trial: the shortest trail that shows why, like a minimal example.

:func:`explain` renders one trial as numbered steps, one per tool call that matters
plus the owners' decisions on hand-offs::

    supersession-substitution in dual_control, trial 0 (seed 81..., agent guessing): failed;
    the agent left the reference plan at step 02
       01 [t=  0m] buyer message(to=agent) "Good morning, we need 3 x DN 80 ..." -> sent
    >> 02 [t=  1m] agent edit_lines(BV-00021 x3) -> v2
          plan expected: edit_lines(BV-00003)
       ... 2 reads
       06 [t= 19m] technical_owner reject_fit -> fit_pending -> configured; declined H-1: C5 ...
    expectation broke: final_state: expected accepted, got configured

- A step reads ``NN [t=MMMm] actor action -> outcome``, where NN is the trail's step
  (the number scoring sentences cite, "at step 12") and the outcome is the decision
  and its effect: a transition, a hand-off event, or the error or denial with its reason.
- Reads that succeed are noise and collapse into ``... N reads``; persona messages
  collapse too when the trail is long. The whole explanation stays under
  :data:`MAX_LINES` lines, keeping the start, the divergence and the end.
- ``>>`` marks the divergence of a failing trial (:func:`divergence`): the agent step
  after which the failure could no longer be avoided, approximated from the trail and
  the reference plan: the first of the agent's choices, after the last plan step the
  trail shows done, that moved the quote off the plan for good, or a call that was not
  what the plan needed next and was never made good, or else the agent's ``end``. A
  failed call the agent then retried successfully is never marked. Calls match plan
  steps by tool and key arguments (the owner and action of ``request_action``, the
  SKUs of ``edit_lines``); under the marker, ``plan expected:`` names the plan's step
  in the form the mode gives the agent (the owner's action when the mode lets the agent
  do it, ``request_action`` to the owner otherwise), or the owner's action the agent
  requested that was never done. A passing trial has no marker.
- It ends with a line saying that the agent made no valid write, when no write of the
  agent took effect, one with the trial's reply issues by kind, when its agent reports
  some (:meth:`remit.harness.TrialScore.notes`), then one ``expectation broke:`` line per broken
  expectation.

The renderer takes plain result objects and returns text; it prints nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from remit.authority import ControlMode
from remit.harness.outcome import ExpectationError
from remit.harness.runner import TrialRecord
from remit.reports.divergence import (
    Step,
    as_divergence,
    divergence,
    find_divergence,
    first_divergence,
    mode_of,
    steps_of,
)
from remit.reports.model import Divergence
from remit.reports.safe import visible
from remit.scenarios import Scenario

__all__ = ["MAX_LINES", "divergence", "explain", "explain_failure", "first_divergence"]

MAX_LINES = 40
"""The longest explanation, in lines."""


def divergence_and_explanation(record: TrialRecord, scenario: Scenario, *,
                               mode: ControlMode | None = None) -> tuple[Divergence | None, str]:
    """:func:`divergence` and :func:`explain` (with its defaults) of one trial, from one
    walk of its trail: what an approval trail shows of a failing trial."""
    steps = steps_of(record.trail)
    failed = not record.scored.score.passed
    found = find_divergence(steps, scenario, mode_of(record, mode), failed=failed)
    return as_divergence(steps, found), _explanation(record, scenario, steps, found,
                                                      failed=failed)


def _select(steps: Sequence[Step], diverged: int | None, budget: int) -> list[bool]:
    """Which steps to show: never successful reads; persona chat only when there is room;
    then, if still too long, the start, the divergence and as much of the end as fits."""
    keep = [not s.read for s in steps]
    if sum(keep) > budget:
        keep = [k and (s.by_agent or not s.chat) for k, s in zip(keep, steps,
                                                                                strict=True)]
    if diverged is not None:
        keep[diverged] = True
    shown = [i for i, k in enumerate(keep) if k]
    if len(shown) <= budget:
        return keep
    window = set(shown[:3])
    if diverged is not None:
        at = shown.index(diverged)
        window |= set(shown[max(0, at - 2):at + 3])
    room = max(0, budget - len(window) - 2)
    window |= set(shown[len(shown) - room:]) if room else set()
    return [i in window for i in range(len(steps))]


def _elided(steps: Sequence[Step]) -> str:
    reads = sum(s.read for s in steps)
    chat = sum(s.chat and not s.read for s in steps)
    other = len(steps) - reads - chat
    parts = [f"{n} {word}{'' if n == 1 else 's'}"
             for n, word in ((reads, "read"), (chat, "message"), (other, "step")) if n]
    return f"   ... {', '.join(parts)}"


def _body(steps: Sequence[Step], keep: Sequence[bool],
          found: tuple[int, str] | None) -> list[str]:
    """The numbered steps shown, with elided runs collapsed and the plan's expectation
    under the divergence."""
    lines: list[str] = []
    skipped: list[Step] = []
    for index, (step, shown) in enumerate(zip(steps, keep, strict=True)):
        if not shown:
            skipped.append(step)
            continue
        if skipped:
            lines.append(_elided(skipped))
            skipped = []
        marked = found is not None and index == found[0]
        lines.append(f"{'>>' if marked else '  '} {step.render()}")
        if marked and found is not None:
            lines.append(f"      plan expected: {found[1]}")
    if skipped:
        lines.append(_elided(skipped))
    return lines


def explain(record: TrialRecord, scenario: Scenario, *, mode: ControlMode | None = None,
            broke: Sequence[str] | None = None, agent: str | None = None,
            max_lines: int = MAX_LINES) -> str:
    """The shortest trail that explains why a trial failed (see the module docstring).

    Args:
        record: the trial.
        scenario: its scenario (the reference plan is compared with the agent's calls).
        mode: its control mode (default: the built-in mode of that name, if any; a custom
            mode must be given to word the plan's owner steps as the mode gives them).
        broke: the broken expectations to end with (default: the score's failures); given
            and not empty, the trial is explained as failing even if its score passed.
        agent: the agent's name, for the heading.
        max_lines: the longest explanation.
    """
    steps = steps_of(record.trail)
    failed = not record.scored.score.passed or bool(broke)
    found = find_divergence(steps, scenario, mode_of(record, mode), failed=failed)
    return _explanation(record, scenario, steps, found, failed=failed, broke=broke,
                        agent=agent, max_lines=max_lines)


def _explanation(record: TrialRecord, scenario: Scenario, steps: Sequence[Step],
                 found: tuple[int, str] | None, *, failed: bool,
                 broke: Sequence[str] | None = None, agent: str | None = None,
                 max_lines: int = MAX_LINES) -> str:
    """The text of :func:`explain`, given the trail's steps and its divergence."""
    diverged = None if found is None else found[0]
    ended = list(record.scored.score.failures if broke is None else broke)
    if not ended:
        ended = ["(none: the trial passed)"] if record.scored.score.passed else ["failed"]
    who = f", agent {agent}" if agent else ""
    if found is not None:
        where = f"the agent left the reference plan at step {steps[found[0]].step:02d}"
    else:
        where = "the agent followed the reference plan" if failed else "nothing is marked"
    header = (f"{scenario.id} in {record.scored.mode}, trial {record.scored.trial} "
              f"(seed {record.seed}{who}): {'passed' if record.scored.score.passed else 'failed'}"
              f"; {where}")
    footer = [*record.scored.score.notes(),
              *(f"expectation broke: {line}" for line in ended[:8])]
    if len(ended) > 8:
        footer.append(f"expectation broke: ... and {len(ended) - 8} more")
    room = max_lines - 1 - len(footer)
    budget = room
    body = _body(steps, _select(steps, diverged, budget), found)
    while len(body) > room and budget > 5:
        budget -= 1
        body = _body(steps, _select(steps, diverged, budget), found)
    return "\n".join([header, *body, *footer])


def explain_failure(error: ExpectationError) -> str:
    """The explanation of an expectation's first failing trial, for a pytest failure
    (printed to a terminal: the agent's text in it goes through
    :func:`remit.reports.safe.visible`)."""
    if not error.broken:
        return f"no failing trial to explain: {error}"
    first = error.broken[0]
    outcome = error.outcome
    text = explain(first.record, outcome.scenario, mode=outcome.mode, broke=first.broke,
                   agent=outcome.agent)
    others = [b.record.scored.trial for b in error.broken[1:]]
    if others:
        which = f"trial {others[0]}" if len(others) == 1 else \
            f"trials {', '.join(map(str, others))}"
        text += f"\n({which} also broke it; the first failing trial is shown)"
    return visible(text)
