"""What one MCP session plays: a suite's scenarios, in control modes, some trials each.

:func:`resolve_target` turns the command line's ``--suite``, ``--modes``, ``--trials``
and selection options (``--scenario``, ``-k``, ``--tag``, as :func:`remit.harness.select`
applies them for ``remit run``) into an :class:`McpTarget`, raising a user error (one
line, before any server starts) when a name matches nothing. Without ``--suite``, the
first ``--scenario`` id is looked up in the built-in suites, the hand-written one first
(its ids are the ones people type), then ``core``; with no id either, the suite is
``core``, as for ``remit run``.

The trials are planned as :func:`remit.harness.plan_trials` plans them for ``remit
run``, and each trial's seed derives from the run seed as in-process
(:func:`remit.harness.trial_seed`): a run served over MCP plays the very trials, with
the very seeds, that ``remit run`` would with the same suite, selection, modes, trials
and seed.

Example:
    >>> target = resolve_target(scenarios=["discount-exception"], modes="dual_control")
    >>> target.suite.id, [m.name for m in target.modes], len(target.plan())
    ('handwritten', ['dual_control'], 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from remit.authority import ControlMode
from remit.errors import RemitError
from remit.harness import (
    ScenarioSelection,
    builtin_suite,
    load_modes,
    plan_trials,
    select,
    trial_seed,
)
from remit.harness.modes import custom_mode_metadata
from remit.scenarios import Scenario, Suite
from remit.store import resolve_suite, suite_metadata

__all__ = ["DEFAULT_MODES", "SUITE_PATH_KEY", "McpTarget", "PlannedTrial", "UnknownTargetError",
           "resolve_target"]

SUITE_PATH_KEY = "suite_path"
"""Manifest metadata key holding a directory suite's path (as ``remit run`` records it)."""

DEFAULT_MODES = "all_tools,dual_control"
"""The modes served when none are named (``remit run``'s default)."""

_LOOKUP_ORDER = ("handwritten", "core")
_DEFAULT_SUITE = "core"


class UnknownTargetError(RemitError, ValueError):
    """A scenario id that no built-in suite holds (when no suite was named).

    Attributes:
        scenario_id: the id asked for.
        searched: the suites searched, in order.
    """

    def __init__(self, scenario_id: str, searched: tuple[str, ...],
                 handwritten: tuple[str, ...]) -> None:
        self.scenario_id = scenario_id
        self.searched = searched
        super().__init__(
            f"cannot serve scenario_id={scenario_id!r}: no built-in suite "
            f"({', '.join(searched)}) holds it; hand-written ids are: "
            f"{', '.join(handwritten)}; list core's with `remit suite list --suite core`, "
            "or pass --suite DIR for your own scenario files")


class PlannedTrial(BaseModel):
    """One trial of the run: its scenario, mode, index and seed.

    Attributes:
        scenario: the scenario.
        mode: the control mode.
        trial: the trial's index for this scenario and mode.
        seed: the trial's seed (derived from the run seed).
    """

    model_config = ConfigDict(frozen=True)

    scenario: Scenario
    mode: ControlMode
    trial: int
    seed: int


class McpTarget(BaseModel):
    """The scenarios, control modes and trials one MCP session plays, as one run.

    Attributes:
        suite_spec: the suite as named (``core``, ``handwritten`` or a directory).
        suite: the scenarios selected, as a suite (the whole suite without a selection);
            the run's manifest records its id and fingerprint, so the run compares with
            other runs of the same scenarios.
        whole_fingerprint: the whole suite's fingerprint (recorded with a selection).
        selection: the selection made (``--scenario``, ``-k``, ``--tag``), if any.
        modes: the control modes, in run order.
        trials: trials per scenario and mode.
        seed: the run seed.
    """

    model_config = ConfigDict(frozen=True)

    suite_spec: str
    suite: Suite
    whole_fingerprint: str
    selection: ScenarioSelection | None = None
    modes: tuple[ControlMode, ...]
    trials: int = Field(default=1, ge=1)
    seed: int = 0

    def plan(self) -> list[PlannedTrial]:
        """Every trial of the run, in ``remit run``'s order, with ``remit run``'s seeds."""
        return [PlannedTrial(scenario=scenario, mode=mode, trial=trial,
                             seed=trial_seed(self.seed, scenario.id, mode.name, trial))
                for scenario, mode, trial in plan_trials(self.suite.scenarios, self.modes,
                                                          self.trials)]

    def manifest_metadata(self) -> dict[str, JsonValue]:
        """What the run's manifest records about the suite's origin (a directory's path,
        the whole suite's fingerprint under a selection) and its custom modes."""
        return {**suite_metadata(self.suite_spec, self.whole_fingerprint, self.selection),
                **custom_mode_metadata(self.modes)}


def _lookup(scenario_id: str) -> tuple[str, Suite]:
    """The first built-in suite (hand-written, then core) holding ``scenario_id``."""
    for name in _LOOKUP_ORDER:
        suite = builtin_suite(name)
        if any(s.id == scenario_id for s in suite):
            return name, suite
    handwritten = tuple(s.id for s in builtin_suite("handwritten"))
    raise UnknownTargetError(scenario_id, _LOOKUP_ORDER, handwritten)


def resolve_target(*, scenarios: Sequence[str] = (), modes: str = DEFAULT_MODES,
                   suite_spec: str | None = None, keyword: str | None = None,
                   tags: Sequence[str] = (), trials: int = 1, seed: int = 0) -> McpTarget:
    """The run an MCP session plays: ``suite_spec``'s selected scenarios in ``modes``.

    Args:
        scenarios: scenario ids to play (``--scenario``, repeatable); empty: no id filter.
        modes: comma-separated built-in mode names and mode files (``--modes``).
        suite_spec: a built-in suite's name or a directory of scenario files; ``None``
            looks the first of ``scenarios`` up in ``handwritten``, then ``core``, and
            is ``core`` when no id is given.
        keyword: a ``-k`` expression over scenario ids.
        tags: keep the scenarios carrying any of these tags (``--tag``).
        trials: trials per scenario and mode.
        seed: the run seed.

    Raises:
        ValueError: ``modes`` is empty or names a mode twice, or ``trials`` is below 1.
        UnknownModeError, ModeFileError: a mode is neither built in nor a usable file.
        UnknownSuiteError: ``suite_spec`` is neither a built-in name nor a directory.
        ScenarioFileError: the directory holds an invalid scenario file.
        SelectionError: an unknown id or tag, a bad ``-k``, or nothing selected.
        UnknownTargetError: no suite was named and no built-in suite holds the id.
    """
    if trials < 1:
        raise ValueError(f"--trials {trials}: a run needs at least one trial per scenario and "
                         "mode; give --trials 1 or more")
    control = load_modes(modes)
    ids = [i.strip() for i in scenarios if i.strip()]
    if suite_spec is not None:
        spec, whole = suite_spec, resolve_suite(suite_spec)
    elif ids:
        spec, whole = _lookup(ids[0])
    else:
        spec, whole = _DEFAULT_SUITE, builtin_suite(_DEFAULT_SUITE)
    chosen, selection = select(whole, scenario_ids=ids, keyword=keyword, tags=tags)
    return McpTarget(suite_spec=spec, suite=chosen, whole_fingerprint=whole.fingerprint,
                     selection=selection, modes=tuple(control), trials=trials, seed=seed)
