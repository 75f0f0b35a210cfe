"""A whole run played by one external client: trial after trial, stored as one run.

A :class:`RunSession` plays the trials of an :class:`~remit.mcp.McpTarget` in ``remit
run``'s order, one :class:`~remit.mcp.TrialSession` at a time, and records them as one
run (:class:`~remit.mcp.RunRecorder`). It is what the MCP server's handlers call, and
knows nothing of MCP itself:

- :meth:`RunSession.brief` (``remit_briefing``): the current trial's briefing;
- :meth:`RunSession.call` (every world tool): one step of the current trial. When the
  step ends the trial (``end``, the step budget, a terminal state), the trial is scored
  and stored at once and its verdict said; a call after the end is refused as
  ``trial_over``, with what to do next;
- :meth:`RunSession.next_trial` (``remit_next_trial``): once the trial has ended, start
  the next one and return its briefing, or, after the last, the run's
  :class:`~remit.mcp.RunSummary`. Asked before the current trial has begun, it begins
  that one; asked while it is being played, it is refused as ``trial_not_over``;
- :meth:`RunSession.close` when the client has gone (disconnected, or killed the
  server): a trial in play is ended as ``agent_error`` and stored, the run is marked
  ended, and the trials never started are left unplayed: they are not stored (no
  trial is invented for them), and the run's summary says how many there were.

Every line it says (each trial's verdict, the run's) goes to ``say``.

Example:
    >>> run = RunSession(target, store=store, say=print)               # doctest: +SKIP
    >>> run.brief(client).trial.number                                 # doctest: +SKIP
    1
    >>> run.call(client, "end", {"summary": "done"}).ended              # doctest: +SKIP
    True
    >>> run.next_trial(client)                                         # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.harness import TrialRecord
from remit.mcp.recording import McpClient, RunRecorder
from remit.mcp.session import TrialSession
from remit.mcp.target import McpTarget
from remit.mcp.turns import (
    BriefingReport,
    ModeTally,
    RefusalCode,
    RefusalReport,
    RunSummary,
    TrialVerdict,
    TurnReport,
)
from remit.store import Store
from remit.world.untrusted import QUOTE_CHARS, shorten

__all__ = ["BRIEFING_TOOL", "NEXT_TRIAL_TOOL", "McpOutcome", "RunSession"]

_LOG = logging.getLogger(__name__)

BRIEFING_TOOL = "remit_briefing"
"""The tool that returns the current trial's briefing and the buyer's opening (not a
step of the trial)."""

NEXT_TRIAL_TOOL = "remit_next_trial"
"""The tool that starts the next trial once the current one has ended (not a step)."""


def _short(text: str) -> str:
    """A client's name for something (a tool, its arguments) as a message shows it."""
    return shorten(text, QUOTE_CHARS)


class McpOutcome(BaseModel):
    """How a served session ended.

    Attributes:
        records: the trials played and scored, in play order (none when the client
            called no tool: a client that only lists the tools plays nothing, and
            nothing is stored).
        summary: the run as it stands (played, passed, unplayed, per mode).
        run_id: the run the trials were recorded as, when a store was given.
        client: the client that played, as it named itself.
    """

    model_config = ConfigDict(frozen=True)

    records: tuple[TrialRecord, ...] = ()
    summary: RunSummary
    run_id: str | None = None
    client: McpClient | None = None


class RunSession:
    """The trials of ``target``, played one after another by one client.

    Args:
        target: the suite, selection, modes, trials and seed to play.
        store: where to record the run; ``None`` scores without storing.
        say: where the verdict lines go (default: this module's logger, at INFO).

    Attributes:
        target: as given.
        trial: the current trial's session.
        records: the trials played and scored so far, in play order.
        client: the client playing, once it has called a tool.
    """

    def __init__(self, target: McpTarget, *, store: Store | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.target = target
        self._plan = target.plan()
        self._index = 0
        self.trial = self._session(0)
        self.records: list[TrialRecord] = []
        self.client: McpClient | None = None
        self._recorder = None if store is None else RunRecorder(
            store, target, started_at=datetime.now(UTC))
        self._say = say if say is not None else _LOG.info
        self._outcome: McpOutcome | None = None
        self._leaving = False

    # -- state ----------------------------------------------------------------------------

    @property
    def planned(self) -> int:
        """The trials the run plans."""
        return len(self._plan)

    @property
    def trials_left(self) -> int:
        """Trials still to start after the current one."""
        return self.planned - self._index - 1

    @property
    def complete(self) -> bool:
        """Whether every planned trial has been played."""
        return len(self.records) == self.planned

    @property
    def run_id(self) -> str | None:
        """The run's id, once its first trial has been stored."""
        return None if self._recorder is None else self._recorder.run_id

    # -- the client's calls ---------------------------------------------------------------

    def brief(self, client: McpClient,
              arguments: Mapping[str, JsonValue] | None = None) -> BriefingReport | RefusalReport:
        """The current trial's briefing and the buyer's opening; not a step."""
        refused = self._admit(client, BRIEFING_TOOL, arguments, takes_arguments=False)
        return refused if refused is not None else self.trial.brief()

    def call(self, client: McpClient, tool: str,
             arguments: Mapping[str, JsonValue] | None = None) -> TurnReport | RefusalReport:
        """One step of the current trial; refused as ``trial_over`` once it has ended."""
        refused = self._admit(client, tool, arguments, takes_arguments=True)
        if refused is not None:
            return refused
        if self.trial.ended:
            return self._refuse(tool, "trial_over", self._over(tool))
        report = self.trial.call(tool, arguments)
        if report.ended:
            self._end_trial()
        return report.model_copy(update={"trials_left": self.trials_left})

    def next_trial(self, client: McpClient, arguments: Mapping[str, JsonValue] | None = None
                   ) -> BriefingReport | RunSummary | RefusalReport:
        """Start the next trial and return its briefing, or the run's summary after the
        last; refused as ``trial_not_over`` while the current trial is being played."""
        refused = self._admit(client, NEXT_TRIAL_TOOL, arguments, takes_arguments=False)
        if refused is not None:
            return refused
        current = self.trial
        if not current.ended and not current.called:
            return current.brief()  # the run's first trial, not begun yet: begin it
        if not current.ended:
            where = current.position
            return self._refuse(
                NEXT_TRIAL_TOOL, "trial_not_over",
                f"trial {where.number} of {where.of} ({where.scenario_id} in {where.mode}) has "
                f"not ended after {current.agent_steps} step(s); play it to the end (call "
                f"end) before calling {NEXT_TRIAL_TOOL}")
        if self.trials_left == 0:
            return self.summary()
        self._index += 1
        self.trial = self._session(self._index)
        return self.trial.brief()

    def close(self) -> McpOutcome:
        """The client has gone: end a trial in play as ``agent_error`` and store it, mark
        the run ended, say how it went (once; later calls return the same outcome)."""
        if self._outcome is not None:
            return self._outcome
        self._leaving = True
        if self.trial.called and not self.trial.ended:
            self.trial.disconnect()
            self._end_trial()
        if not self.records:
            who = self.client.label if self.client is not None else "(unnamed)"
            self._say(f"MCP client {who} called no tool; no trial was played and nothing "
                      "was stored")
        elif not self.complete:
            self._end_run()
        self._outcome = McpOutcome(records=tuple(self.records), summary=self.summary(),
                                   run_id=self.run_id, client=self.client)
        return self._outcome

    def summary(self) -> RunSummary:
        """The run as it stands: trials played, passed and never started, per mode."""
        modes = {mode.name: ModeTally() for mode in self.target.modes}
        verdicts = []
        for record in self.records:
            scored = record.scored
            tally = modes[scored.mode]
            modes[scored.mode] = ModeTally(played=tally.played + 1,
                                           passed=tally.passed + scored.score.passed)
            verdicts.append(TrialVerdict(
                scenario_id=scored.scenario_id, mode=scored.mode, trial=scored.trial,
                passed=scored.score.passed, end_reason=scored.score.end_reason,
                failures=scored.score.failures))
        return RunSummary(run_complete=self.complete, run_id=self.run_id, planned=self.planned,
                          played=len(self.records),
                          passed=sum(r.scored.score.passed for r in self.records),
                          unplayed=self.planned - len(self.records), modes=modes,
                          trials=tuple(verdicts))

    # -- inside ---------------------------------------------------------------------------

    def _session(self, index: int) -> TrialSession:
        planned = self._plan[index]
        return TrialSession(planned.scenario, planned.mode, run_seed=self.target.seed,
                            trial=planned.trial, number=index + 1, of=self.planned)

    def _admit(self, client: McpClient, tool: str, arguments: Mapping[str, JsonValue] | None,
               *, takes_arguments: bool) -> RefusalReport | None:
        """Refuse a call from another client than the run's, or arguments to a remit tool."""
        if self.client is None:
            self.client = client
        elif client != self.client:
            return self._refuse(
                tool, "other_client",
                f"this run is being played by client {self.client.label}, not "
                f"{client.label}; one run has one agent, so start your own server")
        if not takes_arguments and arguments:
            names = _short(", ".join(sorted(arguments)))
            return self._refuse(tool, "bad_arguments",
                                f"{tool} takes no arguments, got {names}; call it with {{}}")
        return None

    def _refuse(self, tool: str, code: RefusalCode, message: str) -> RefusalReport:
        return self.trial.refusal(tool, code, message, trials_left=self.trials_left,
                                  run_complete=self.complete, run_id=self.run_id)

    def _over(self, tool: str) -> str:
        where = self.trial.position
        if self.complete:
            stored = f"stored as run {self.run_id}" if self.run_id else "not stored"
            return (f"cannot call {_short(tool)}: the run is complete (all {where.of} trials "
                    f"played, {stored}); call {NEXT_TRIAL_TOOL} for its summary, then "
                    "disconnect")
        return (f"cannot call {_short(tool)}: trial {where.number} of {where.of} has ended "
                f"({self.trial.end_reason}); call {NEXT_TRIAL_TOOL} to start trial "
                f"{where.number + 1}")

    def _end_trial(self) -> None:
        """Score the ended trial, store it, say its verdict; end the run after the last."""
        record = self.trial.finish()
        self.records.append(record)
        if self._recorder is not None:
            self._recorder.save(record, self.client or McpClient())
        self._say(self._trial_line(record))
        if self.complete:
            self._end_run()

    def _end_run(self) -> None:
        if self._recorder is not None:
            self._recorder.finish()
        self._say(self._run_line())

    def _trial_line(self, record: TrialRecord) -> str:
        score = record.scored.score
        verdict = "passed" if score.passed else "failed"
        failures = f"; failures: {'; '.join(score.failures)}" if score.failures else ""
        position = self.trial.position
        return (f"{self._where()}: {record.scored.scenario_id} in {record.scored.mode} "
                f"{verdict} ({score.end_reason}, {score.steps} steps; trial {position.number} "
                f"of {position.of}){failures}")

    def _run_line(self) -> str:
        summary = self.summary()
        modes = ", ".join(f"{name} {t.passed}/{t.played}" for name, t in summary.modes.items())
        state = "ended when the client left" if self._leaving else "complete"
        unplayed = "" if summary.run_complete else (
            f"; {summary.unplayed} of {summary.planned} planned trials were not played")
        agent = (self.client or McpClient()).agent_id
        see = f"; see it with `remit show {self.run_id}`" if self.run_id else ""
        return (f"{self._where()} {state}: {summary.passed} of {summary.played} trials passed "
                f"({modes}){unplayed}; agent {agent}{see}")

    def _where(self) -> str:
        return f"run {self.run_id}" if self.run_id else "run not stored (no store given)"
