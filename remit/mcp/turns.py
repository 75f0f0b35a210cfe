"""What an MCP client reads back: briefings, one report per tool call, refusals, the run.

Every tool result the server returns is one JSON document, as text content and as
structured content. A :class:`TurnReport` carries what an in-process agent's next
:class:`~remit.actors.Observation` would (the step, the simulated minute, the tool's
result, the messages addressed to the agent since its previous call) plus whether the
trial has ended, so an external agent sees exactly what an in-process one sees. A
:class:`BriefingReport` carries the agent's :class:`~remit.actors.Briefing` (without the
tools, which ``tools/list`` already gives), the buyer's opening message and where the
trial stands in the run (:class:`TrialPosition`).

A call the server does not play (a world tool after the trial has ended, arguments a
remit tool does not take) comes back as a :class:`RefusalReport`: the same shape as a
:class:`TurnReport`, with ``result.error.code`` one of :data:`RefusalCode`; it is no
step of the trial and leaves no trace on its trail. When the last trial of the run has
been played, ``remit_next_trial`` answers with a :class:`RunSummary`.

Example:
    A client's first call, before the buyer has been answered::

        {"step": 1, "minute": 1, "ended": false, "end_reason": null, "end_summary": "",
         "trials_left": 9,
         "result": {"tool": "get_quote", "ok": true, "content": {...}, "error": null},
         "messages": [{"sender": "buyer", "to": "agent", "tool": "message",
                       "text": "We need ...", ...}]}
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors import Briefing, Observation
from remit.world import EndReason, MessageEntry, ToolResult

__all__ = ["BriefingReport", "ModeTally", "Refusal", "RefusalCode", "RefusalError",
           "RefusalReport", "RunSummary", "TrialPosition", "TrialVerdict", "TurnReport"]

RefusalCode = Literal["trial_over", "trial_not_over", "bad_arguments", "other_client"]
"""Why the server refused a call without playing it:

- ``trial_over``: the trial has ended; call ``remit_next_trial`` (or the run is complete);
- ``trial_not_over``: ``remit_next_trial`` while the trial is still being played;
- ``bad_arguments``: a remit tool (``remit_briefing``, ``remit_next_trial``) was given
  arguments; it takes none;
- ``other_client``: another client (by name and version) is playing this run.
"""


class TrialPosition(BaseModel):
    """Which trial of the run this is.

    Attributes:
        scenario_id: the scenario played.
        mode: the control mode's name.
        trial: the trial's index for this scenario and mode (0 for the first).
        seed: the trial's seed (as an in-process agent's ``TrialInfo`` has it).
        number: the trial's place in the run, from 1.
        of: the trials the run plans in all.
    """

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    mode: str
    trial: int
    seed: int
    number: int
    of: int


class TurnReport(BaseModel):
    """What the client sees after one tool call.

    Attributes:
        step: tool calls made so far in the trial, by every party.
        minute: the simulated clock.
        result: the call's result: ``ok`` with ``content``, or an ``error`` with a code
            and a sentence saying what to do instead.
        messages: messages addressed to the agent that the client has not been shown
            yet (the buyer's opening on the first call unless the briefing showed it;
            the replies of the parties the call addressed).
        ended: whether the trial has ended; the client then calls ``remit_next_trial``.
        end_reason: how it ended (``agent_end``, ``max_steps``, ``terminal_state``,
            ``agent_error``), once it has.
        end_summary: the ending's summary (the agent's own, for ``end``).
        trials_left: trials of the run still to play after this one.
    """

    model_config = ConfigDict(frozen=True)

    step: int
    minute: int
    result: ToolResult
    messages: tuple[MessageEntry, ...] = ()
    ended: bool = False
    end_reason: EndReason | None = None
    end_summary: str = ""
    trials_left: int = 0

    def observation(self) -> Observation:
        """The in-process agent's view of this report (what ``act`` would be given)."""
        return Observation(step=self.step, minute=self.minute, result=self.result,
                           messages=self.messages)

    def document(self) -> dict[str, JsonValue]:
        """The report as a JSON object (the tool result's structured content)."""
        return self.model_dump(mode="json")


class RefusalError(BaseModel):
    """Why a call was refused, and what to do instead (one sentence)."""

    model_config = ConfigDict(frozen=True)

    code: RefusalCode
    message: str


class Refusal(BaseModel):
    """A refused call's result: shaped as a failed :class:`~remit.world.ToolResult`."""

    model_config = ConfigDict(frozen=True)

    tool: str
    ok: Literal[False] = False
    content: None = None
    error: RefusalError


class RefusalReport(BaseModel):
    """A call the server refused without playing it: the trial's state as it stands.

    Shaped as a :class:`TurnReport` (a client reads ``result.error.code`` either way);
    the refused call is no step of the trial and leaves its trail untouched.

    Attributes:
        step, minute: the trial's step count and clock, unchanged by the call.
        result: the refusal.
        messages: always empty (nothing happened).
        ended, end_reason, end_summary: the current trial's ending, if it has ended.
        trials_left: trials of the run still to play after the current one.
        run_complete: whether every trial of the run has been played.
        run_id: the run's id, once it has been stored.
    """

    model_config = ConfigDict(frozen=True)

    step: int
    minute: int
    result: Refusal
    messages: tuple[MessageEntry, ...] = ()
    ended: bool
    end_reason: EndReason | None = None
    end_summary: str = ""
    trials_left: int = 0
    run_complete: bool = False
    run_id: str | None = None

    def document(self) -> dict[str, JsonValue]:
        """The report as a JSON object."""
        return self.model_dump(mode="json")


class BriefingReport(BaseModel):
    """The result of the briefing tool: who the agent is, and the buyer's opening.

    ``remit_next_trial`` answers with the same document, plus ``"run_complete": false``.

    Attributes:
        briefing: the agent's briefing (role, mode, policy, who holds each action in
            this mode, quote id, step budget, and the plan in ``oracle_plan``). Its
            ``tools`` are left out of :meth:`document`: ``tools/list`` gives them.
        opening: the messages the buyer opened the conversation with.
        step: tool calls made so far in the trial.
        minute: the simulated clock.
        ended: whether the trial has ended.
        trial: which trial of the run this is.
    """

    model_config = ConfigDict(frozen=True)

    briefing: Briefing
    opening: tuple[MessageEntry, ...]
    step: int
    minute: int
    ended: bool
    trial: TrialPosition

    def document(self) -> dict[str, JsonValue]:
        """The report as a JSON object, without the briefing's tools."""
        return self.model_dump(mode="json", exclude={"briefing": {"tools"}})


class TrialVerdict(BaseModel):
    """One played trial's verdict, as the run summary lists it."""

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    mode: str
    trial: int
    passed: bool
    end_reason: str
    failures: tuple[str, ...] = ()


class ModeTally(BaseModel):
    """Trials played and passed in one mode."""

    model_config = ConfigDict(frozen=True)

    played: int = 0
    passed: int = 0


class RunSummary(BaseModel):
    """The run as it stands: what ``remit_next_trial`` answers once the last trial has
    been played, and what the server says when the session ends.

    Attributes:
        run_complete: whether every planned trial was played.
        run_id: the run's id (``None`` when nothing was stored).
        planned: the trials the run plans (scenarios x modes x trials).
        played: the trials played and recorded.
        passed: how many of those passed.
        unplayed: planned trials never started (the client left before them).
        modes: per mode, trials played and passed, in run order.
        trials: each played trial's verdict, in play order.
    """

    model_config = ConfigDict(frozen=True)

    run_complete: bool
    run_id: str | None
    planned: int
    played: int
    passed: int
    unplayed: int
    modes: dict[str, ModeTally]
    trials: tuple[TrialVerdict, ...] = ()

    def document(self) -> dict[str, JsonValue]:
        """The summary as a JSON object."""
        return self.model_dump(mode="json")
