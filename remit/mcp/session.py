"""One trial played by an external client, one pushed tool call at a time.

A :class:`TrialSession` wraps the harness's :class:`~remit.harness.TrialLoop`, the
same turn loop :func:`~remit.harness.run_trial` drives, so a trial played over MCP has
exactly the world, personas, clock, end conditions and trail of an in-process trial
with the same scenario, mode and seed. Where an in-process driver pulls ``act()`` from
an agent, the session is pushed each call the client makes and answers with a
:class:`~remit.mcp.TurnReport`.

The session adds only what a remote client needs:

- the briefing on demand (:meth:`TrialSession.brief`), which is not a step of the
  trial and leaves no trace on the trail;
- each message shown once: the buyer's opening comes with the briefing or, if the
  client never asked for it, with the first tool result;
- a call it does not play (:meth:`TrialSession.refusal`) reported with the trial's state,
  the world untouched (after the end, its trail is final);
- a client that goes away without ending the trial ends it as ``agent_error``
  (:meth:`TrialSession.disconnect`), since it abandoned the conversation.

A run of several trials is a :class:`~remit.mcp.RunSession` playing one
:class:`TrialSession` after another.

Example:
    >>> session = TrialSession(scenario, mode, run_seed=0)            # doctest: +SKIP
    >>> session.brief().opening[0].text                               # doctest: +SKIP
    'We need ...'
    >>> session.call("end", {"summary": "done"}).ended                # doctest: +SKIP
    True
    >>> session.finish().scored.score.passed                          # doctest: +SKIP
    False
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from pydantic import JsonValue

from remit.actors import Briefing
from remit.authority import ControlMode
from remit.errors import RemitError
from remit.harness import (
    ScoredTrial,
    TrialLoop,
    TrialRecord,
    briefing_for,
    score_trial,
    trial_seed,
)
from remit.mcp.turns import (
    BriefingReport,
    Refusal,
    RefusalCode,
    RefusalError,
    RefusalReport,
    TrialPosition,
    TurnReport,
)
from remit.scenarios import Scenario
from remit.world import MessageEntry, ToolCall, ToolResult
from remit.world.untrusted import quote

__all__ = ["SessionStateError", "TrialSession"]


class SessionStateError(RemitError):
    """A session asked to do something its state does not allow (finish before the end).

    Attributes:
        scenario_id: the session's scenario.
        problem: what was asked, and why it cannot be done yet.
    """

    def __init__(self, scenario_id: str, problem: str) -> None:
        self.scenario_id = scenario_id
        self.problem = problem
        super().__init__(f"trial of scenario_id={scenario_id!r}: {problem}")


class TrialSession:
    """One trial of ``scenario`` in ``mode``, driven by calls pushed from outside.

    Args:
        scenario: the scenario to play.
        mode: the control mode.
        run_seed: the run seed; the trial's seed derives from it as in a run
            (:func:`~remit.harness.trial_seed`), so the same run seed gives the trial
            an in-process run of the same scenario and mode would have.
        trial: the trial's index (for the seed and the stored record).
        number: the trial's place in its run, from 1.
        of: the trials of the run.

    Attributes:
        scenario: as given.
        mode: as given.
        trial: as given.
        seed: the trial's seed.
        position: which trial of the run this is.
        briefing: the agent's briefing.
        opening: the messages the buyer opened the conversation with.
        called: whether the client has called any tool (the briefing included).
    """

    def __init__(self, scenario: Scenario, mode: ControlMode, *, run_seed: int = 0,
                 trial: int = 0, number: int = 1, of: int = 1) -> None:
        self.scenario = scenario
        self.mode = mode
        self.trial = trial
        self.seed = trial_seed(run_seed, scenario.id, mode.name, trial)
        self.position = TrialPosition(scenario_id=scenario.id, mode=mode.name, trial=trial,
                                      seed=self.seed, number=number, of=of)
        self.briefing: Briefing = briefing_for(scenario, mode)
        self._loop = TrialLoop(scenario, mode, self.seed)
        self.opening: tuple[MessageEntry, ...] = self._loop.observation().messages
        self._unshown: tuple[MessageEntry, ...] = self.opening
        self.called = False
        self._record: TrialRecord | None = None
        self._started = time.perf_counter()

    # -- state ----------------------------------------------------------------------------

    @property
    def ended(self) -> bool:
        """Whether the trial has ended (by ``end``, the step budget, a terminal state,
        or the client going away)."""
        return self._loop.done()

    @property
    def agent_steps(self) -> int:
        """Tool calls of the trial the client has made (the briefing does not count)."""
        return self._loop.agent_steps

    # -- the client's calls ---------------------------------------------------------------

    def brief(self) -> BriefingReport:
        """The briefing and the buyer's opening; not a step of the trial."""
        self.called = True
        world = self._loop.world
        self._unshown = ()  # only the opening is ever held back, and this shows it
        return BriefingReport(briefing=self.briefing, opening=self.opening, step=world.step,
                              minute=world.minute, ended=self.ended, trial=self.position)

    def call(self, tool: str, arguments: Mapping[str, JsonValue] | None = None) -> TurnReport:
        """Play one agent step: call ``tool`` with ``arguments`` through the turn loop.

        A malformed call (an unknown tool, a missing or misspelt argument) is a step
        like any other and comes back as a structured error, as it would in-process.

        Raises:
            SessionStateError: the trial has ended (answer with :meth:`refusal` instead).
        """
        if self.ended:
            raise SessionStateError(
                self.scenario.id, f"cannot call tool={quote(tool)}: the trial has ended and takes "
                "no further tool calls; answer with refusal()")
        self.called = True
        observation = self._loop.apply(ToolCall(tool=tool, arguments=dict(arguments or {})))
        if observation.result is None:  # only a call that is no ToolCall lacks a result
            raise AssertionError("unreachable: the loop answers every ToolCall with a result")
        messages = self._unshown + observation.messages
        self._unshown = ()
        return self._report(observation.result, messages)

    def disconnect(self) -> None:
        """The client went away: end the trial as ``agent_error`` unless it has ended."""
        if self.ended:
            return
        self._loop.end_with_agent_error(
            f"the MCP client disconnected after {self.agent_steps} step(s) without calling "
            "end; an agent must end the conversation with the end tool")

    # -- the outcome ----------------------------------------------------------------------

    def finish(self) -> TrialRecord:
        """Score the ended trial (once; later calls return the same record).

        Raises:
            SessionStateError: the trial has not ended yet.
        """
        if self._record is not None:
            return self._record
        if not self.ended:
            raise SessionStateError(
                self.scenario.id, f"cannot finish the trial after {self.agent_steps} step(s): "
                "it has not ended; call end, or disconnect() when the client has gone")
        world = self._loop.world
        score = score_trial(self.scenario, world)
        scored = ScoredTrial(scenario_id=self.scenario.id, mode=self.mode.name,
                             trial=self.trial, score=score)
        self._record = TrialRecord(scored=scored, seed=self.seed, trail=tuple(world.trail),
                                   seconds=round(time.perf_counter() - self._started, 6))
        return self._record

    # -- reports --------------------------------------------------------------------------

    def _report(self, result: ToolResult, messages: tuple[MessageEntry, ...]) -> TurnReport:
        world = self._loop.world
        ended = world.ended
        return TurnReport(step=world.step, minute=world.minute, result=result,
                          messages=messages, ended=ended is not None,
                          end_reason=None if ended is None else ended.reason,
                          end_summary="" if ended is None else ended.summary)

    def refusal(self, tool: str, code: RefusalCode, message: str, *, trials_left: int = 0,
                run_complete: bool = False, run_id: str | None = None) -> RefusalReport:
        """A call to ``tool`` refused without being played, with the trial's state as it
        stands (no step, nothing on the trail).

        Args:
            tool: the tool called.
            code: why it was refused.
            message: what to do instead, one sentence.
            trials_left, run_complete, run_id: where the run stands.
        """
        world = self._loop.world
        ended = world.ended
        return RefusalReport(
            step=world.step, minute=world.minute,
            result=Refusal(tool=tool, error=RefusalError(code=code, message=message)),
            ended=ended is not None, end_reason=None if ended is None else ended.reason,
            end_summary="" if ended is None else ended.summary, trials_left=trials_left,
            run_complete=run_complete, run_id=run_id)

    @property
    def end_reason(self) -> str | None:
        """How the trial ended, once it has."""
        ended = self._loop.world.ended
        return None if ended is None else ended.reason
