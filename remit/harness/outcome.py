"""One scenario in one control mode, all its trials: the outcome a scenario test asserts on.

:func:`run_scenario` runs a scenario ``trials`` times in one mode and returns a
:class:`ScenarioOutcome`: the per-trial records, pass^k, the rates of
:class:`~remit.harness.ModeSummary`, and expectation helpers that raise
:class:`ExpectationError` (an ``AssertionError``) naming the expectation, the failing
trials and what broke in each. The pytest plugin adds the explanation of the first
failing trial (:func:`remit.reports.explain.explain_failure`) as a note.

:class:`ScenarioRunner` is what the plugin's ``remit`` fixture returns: it runs a
scenario (an object, a built-in id or a YAML file) with the test's settings and hands
each outcome to a callback that records its metrics on the test item.

Example:
    >>> outcome = run_scenario(scenario, mode, oracle_factory, trials=3)  # doctest: +SKIP
    >>> outcome.pass_hat_k(3)                                             # doctest: +SKIP
    1.0
    >>> outcome.expect_pass_hat_k(1, at_least=0.9).expect_no_wrong_variant()  # doctest: +SKIP

The ``expect_no_*`` helpers follow the score's metrics: wrong variants (final and, by
default, shown), unsupported stated claims, unsupported citations, abandoned hand-offs
(opened by the agent and left) and missing hand-offs (required owner actions never
requested).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict

from remit.actors import AgentFactory
from remit.authority import ControlMode
from remit.errors import RemitError
from remit.harness.aggregate import ModeSummary, ScoredTrial, aggregate
from remit.harness.manifest import AgentIdentity
from remit.harness.provenance import agent_identity
from remit.harness.runner import TrialExecutor, TrialRecord, drive, run_async, run_one
from remit.harness.settings import RunSettings, agent_label, resolve_mode
from remit.harness.stats import pass_hat_k
from remit.quotes import QuoteState
from remit.scenarios import Scenario, load_scenario, scenario_by_id
from remit.world import HandoffEntry

__all__ = ["BrokenTrial", "ExpectationError", "ScenarioOutcome", "ScenarioRunner",
           "run_scenario"]


class BrokenTrial(BaseModel):
    """A trial that broke an expectation, and how.

    Attributes:
        record: the trial.
        broke: one sentence per broken expectation, starting with its name.
    """

    model_config = ConfigDict(frozen=True)

    record: TrialRecord
    broke: tuple[str, ...]


class ExpectationError(RemitError, AssertionError):
    """An expectation on a scenario's outcome that does not hold.

    Its message names the expectation, the scenario, mode and agent, how many trials broke
    it, and for the first of them what broke first, followed by what the score says about
    the agent beside it: that it made no valid write, and its reply issues by kind
    (:meth:`~remit.harness.TrialScore.notes`). It is printed to a terminal, so the agent's
    text in it is shown through :func:`remit.reports.safe.visible` (control characters and
    escape sequences as escapes).

    Attributes:
        expectation: the expectation, e.g. ``pass^1 >= 0.9`` or ``no wrong variant``.
        outcome: the outcome it was checked on.
        broken: the failing trials, in trial order, each with what broke.
    """

    def __init__(self, expectation: str, outcome: ScenarioOutcome, summary: str,
                 broken: Sequence[BrokenTrial]) -> None:
        self.expectation = expectation
        self.outcome = outcome
        self.broken = tuple(broken)
        detail = ""
        if self.broken:
            record = self.broken[0].record
            said = [*self.broken[0].broke[:1], *record.scored.score.notes()]
            detail = f"; trial {record.scored.trial}: {'; '.join(said)}" if said else ""
        from remit.reports.safe import visible  # noqa: PLC0415 - remit.reports imports this module

        super().__init__(visible(
            f"expected {expectation} for scenario {outcome.scenario.id!r} in mode "
            f"{outcome.mode.name!r} with agent {outcome.agent!r}: {summary}{detail}"
        ))


class ScenarioOutcome(BaseModel):
    """Every trial of one scenario in one control mode, aggregated.

    Attributes:
        scenario: the scenario run.
        mode: the control mode.
        agent: how the agent is named in reports.
        records: one record per trial, in trial order.
        identity: the agent's code identity (:func:`remit.harness.agent_identity`),
            recorded in the manifest of a stored session.
    """

    model_config = ConfigDict(frozen=True)

    scenario: Scenario
    mode: ControlMode
    agent: str
    records: tuple[TrialRecord, ...]
    identity: AgentIdentity | None = None

    @property
    def trials(self) -> int:
        """Trials run (``n`` of pass^k)."""
        return len(self.records)

    @property
    def passes(self) -> int:
        """Trials that passed."""
        return sum(r.scored.score.passed for r in self.records)

    @property
    def scored(self) -> tuple[ScoredTrial, ...]:
        """The trials' scores with their coordinates."""
        return tuple(r.scored for r in self.records)

    @property
    def summary(self) -> ModeSummary:
        """pass^k for every k, the rates with Wilson intervals, and the per-trial means."""
        return aggregate(self.scored)

    @property
    def mean_handoffs(self) -> float:
        """Hand-offs opened per trial, on average."""
        opened = sum(1 for r in self.records for e in r.trail
                     if isinstance(e, HandoffEntry) and e.event == "opened")
        return opened / self.trials

    def pass_hat_k(self, k: int) -> float:
        """``C(passes, k) / C(trials, k)``: the chance that ``k`` trials drawn all pass.

        Raises:
            ValueError: ``k`` is not between 1 and :attr:`trials`; run more trials.
        """
        if not 1 <= k <= self.trials:
            raise ValueError(f"cannot compute pass^{k} of scenario {self.scenario.id!r} from "
                             f"trials={self.trials}: k={k!r} must be between 1 and the trials "
                             f"run; run at least {k} trials (@pytest.mark.remit(trials={k}) or "
                             f"--remit-trials={k})")
        return pass_hat_k([(self.passes, self.trials)], k)

    # -- expectations -------------------------------------------------------------------

    def _check(self, expectation: str,
               broke: Callable[[TrialRecord], Sequence[str]]) -> Self:
        __tracebackhide__ = True  # pytest shows the test's line, not this helper's
        broken = [BrokenTrial(record=r, broke=tuple(b)) for r in self.records if (b := broke(r))]
        if broken:
            raise ExpectationError(expectation, self,
                                   f"{len(broken)} of {self.trials} trial(s) broke it", broken)
        return self

    def expect_passed(self) -> Self:
        """Every trial passed.

        Raises:
            ExpectationError: a trial failed; its broken expectations are listed.
        """
        __tracebackhide__ = True
        return self._check("every trial to pass", lambda r: (
            () if r.scored.score.passed else r.scored.score.failures or ("failed",)))

    def expect_pass_hat_k(self, k: int, *, at_least: float) -> Self:
        """pass^k is at least ``at_least``.

        Raises:
            ExpectationError: pass^k is lower; the failing trials are listed.
            ValueError: ``k`` exceeds the trials run.
        """
        __tracebackhide__ = True
        value = self.pass_hat_k(k)
        if value >= at_least:
            return self
        broken = [BrokenTrial(record=r, broke=r.scored.score.failures or ("failed",))
                  for r in self.records if not r.scored.score.passed]
        raise ExpectationError(
            f"pass^{k} >= {at_least:g}", self,
            f"pass^{k} is {value:.2f} ({self.passes} of {self.trials} trials passed)", broken)

    def expect_no_wrong_variant(self, *, shown: bool = True) -> Self:
        """No trial offered a SKU outside the scenario's acceptable set: not on the version
        offered last (a *final* wrong variant) and, unless ``shown=False``, not on any
        version presented or accepted before it (a *shown* wrong variant: the buyer saw it,
        even if a later version corrected it).

        Args:
            shown: also refuse wrong variants that a later version corrected; pass
                ``False`` to check the version offered last only.

        Raises:
            ExpectationError: a trial offered a wrong variant; the SKUs are named, then
                each offer of one with the rules that exclude it.
        """
        __tracebackhide__ = True
        what = "no wrong variant" if shown else "no wrong variant in the final offer"
        return self._check(what, lambda r: _wrong_variants(r, shown=shown))

    def expect_no_unsupported_claims(self) -> Self:
        """No trial stated a claim that does not hold: an attribute value the governed
        records do not support, a fit the rules do not give, or an authority the agent
        does not have (stated claims, in any text the agent wrote). Citations on quote
        lines are checked apart, by :meth:`expect_no_unsupported_citations`.

        Raises:
            ExpectationError: a trial made unsupported claims; each is named.
        """
        __tracebackhide__ = True
        return self._check("no unsupported claims", lambda r: tuple(
            f"no_unsupported_claims: {sentence}" for sentence in r.scored.score.unsupported))

    def expect_no_unsupported_citations(self) -> Self:
        """No quote line the agent wrote cites an attribute snapshot the governed records
        do not support.

        Raises:
            ExpectationError: a trial cited unsupported attributes; each is named.
        """
        __tracebackhide__ = True
        return self._check("no unsupported citations", lambda r: tuple(
            f"no_unsupported_citations: {sentence}"
            for sentence in r.scored.score.unsupported_cited))

    def expect_no_abandoned_handoffs(self) -> Self:
        """No trial left a hand-off it opened: still open at the end, declined and neither
        recovered nor reported to the buyer, or withdrawn without telling the buyer.
        Required owner actions the agent never requested are missing hand-offs, checked
        by :meth:`expect_no_missing_handoffs`.

        Raises:
            ExpectationError: a trial abandoned a hand-off; each is named.
        """
        __tracebackhide__ = True
        return self._check("no abandoned hand-offs", lambda r: r.scored.score.abandoned)

    def expect_no_missing_handoffs(self) -> Self:
        """No trial left out a hand-off the goal needed: an owner action another party
        holds, which the agent could have requested and never did, and which never
        happened.

        Raises:
            ExpectationError: a trial never requested a required owner action; each is
                named with its owners.
        """
        __tracebackhide__ = True
        return self._check("no missing hand-offs", lambda r: r.scored.score.missing)

    def expect_final_state(self, state: QuoteState | str) -> Self:
        """Every trial ended with the quote in ``state``.

        Raises:
            ExpectationError: a trial ended elsewhere.
            ValueError: ``state`` is not a quote state.
        """
        __tracebackhide__ = True
        wanted = QuoteState(state)
        return self._check(f"final state {wanted.value}", lambda r: (
            (f"final_state: expected {wanted.value}, got {r.scored.score.final_state}",)
            if r.scored.score.final_state != wanted.value else ()))


def _wrong_variants(record: TrialRecord, *, shown: bool) -> tuple[str, ...]:
    """What broke ``expect_no_wrong_variant`` in one trial: a sentence naming the SKUs,
    then the scorer's sentence for each offer of a wrong SKU (with the rules)."""
    score = record.scored.score
    if score.wrong_variant:
        head = (f"no_wrong_variant: the offered version quotes {', '.join(score.wrong_skus)}, "
                "outside the acceptable set")
    elif shown and score.wrong_variant_shown:
        head = (f"no_wrong_variant: a version offered before the last one quoted "
                f"{', '.join(score.wrong_shown_skus)}, outside the acceptable set")
    else:
        return ()
    return (head, *score.wrong_variants)


def run_scenario(scenario: Scenario, mode: ControlMode, factory: AgentFactory, *,
                 trials: int = 1, seed: int = 0, agent: str | None = None,
                 executor: TrialExecutor | None = None) -> ScenarioOutcome:
    """Run ``scenario`` ``trials`` times in ``mode`` and aggregate the trials.

    Args:
        scenario: the scenario.
        mode: the control mode.
        factory: builds a fresh agent per trial.
        trials: how many trials (``n`` of pass^k).
        seed: the run seed (each trial's seed derives from it, the scenario and the mode).
        agent: how reports name the agent (default: the factory's name).
        executor: runs the trials elsewhere (on Ray: ``--remit-executor ray``), with the
            same records; an infrastructure error then ends its trial as one (recorded,
            not raised), as in ``remit run`` without retries.

    Raises:
        remit.harness.ManifestError: the factory's ``remit_config`` is not a dict of JSON
            values (see :func:`remit.harness.agent_identity`).
    """
    if trials < 1:
        raise ValueError(f"cannot run scenario {scenario.id!r} with trials={trials!r}: run at "
                         "least one trial")
    identity = agent_identity(factory)
    if executor is not None:
        records = tuple(drive(run_async([scenario], [mode], factory, trials=trials, seed=seed,
                                        executor=executor)))
    else:
        records = tuple(run_one(scenario, mode, factory, trial=index, run_seed=seed)[0]
                        for index in range(trials))
    return ScenarioOutcome(scenario=scenario, mode=mode, records=records,
                           agent=agent or agent_label(factory), identity=identity)


def _scenario(scenario: Scenario | str | Path) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, Path) or scenario.endswith((".yaml", ".yml")):
        return load_scenario(Path(scenario))
    return scenario_by_id(scenario)


class ScenarioRunner:
    """Runs scenarios with a test's settings in its control mode (the ``remit`` fixture).

    Args:
        settings: the test's settings (command line narrowed by the marker).
        mode: the mode of this test id.
        on_outcome: called with every outcome (the plugin records its metrics).
        admit: called with each scenario before it runs; it may raise to stop the run
            (the plugin skips the test when the scenario is outside its
            ``--remit-scenario``/``--remit-k``/``--remit-tag`` selection).
        executor: runs the trials elsewhere (``--remit-executor ray``).

    Attributes:
        settings: as given.
        mode: as given.
    """

    def __init__(self, settings: RunSettings, mode: ControlMode,
                 on_outcome: Callable[[ScenarioOutcome], None] | None = None,
                 admit: Callable[[Scenario], None] | None = None,
                 executor: TrialExecutor | None = None) -> None:
        self.settings = settings
        self.mode = mode
        self._on_outcome = on_outcome
        self._admit = admit
        self._executor = executor

    def run(self, scenario: Scenario | str | Path, *, agent: str | AgentFactory | None = None,
            trials: int | None = None, seed: int | None = None,
            mode: str | ControlMode | None = None) -> ScenarioOutcome:
        """Run ``scenario`` and return its outcome; each argument overrides the settings.

        Args:
            scenario: a Scenario, a built-in scenario id, or a scenario YAML file.
            agent: a built-in agent name, ``"package.module:factory"``, a factory or an
                agent class.
            trials: trials to run.
            seed: the run seed.
            mode: another mode than this test id's (to compare modes in one test).

        Raises:
            remit.actors.AgentSpecError: the agent cannot be loaded.
            remit.scenarios.UnknownScenarioError: no built-in scenario has that id.
            ScenarioFileError: the YAML file does not load.
        """
        chosen = self.settings.agent if agent is None else agent
        loaded = _scenario(scenario)
        if self._admit is not None:
            self._admit(loaded)
        outcome = run_scenario(
            loaded, self.mode if mode is None else resolve_mode(mode),
            self.settings.factory(chosen),
            trials=self.settings.trials if trials is None else trials,
            seed=self.settings.seed if seed is None else seed,
            agent=agent_label(chosen), executor=self._executor)
        if self._on_outcome is not None:
            self._on_outcome(outcome)
        return outcome
