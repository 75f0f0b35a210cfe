"""What one MCP session plays: a scenario of a suite, in a control mode.

:func:`resolve_target` turns the command line's ``--scenario``, ``--mode`` and
``--suite`` into a :class:`McpTarget`, raising a user error (one line, before any
server starts) when a name matches nothing. Without ``--suite`` the scenario is looked
up in the built-in suites, the hand-written one first (its ids are the ones people
type), then ``core``.

Example:
    >>> target = resolve_target("discount-exception", "dual_control")
    >>> target.suite.id, target.mode.name
    ('handwritten', 'dual_control')
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.authority import ControlMode
from remit.errors import RemitError
from remit.harness import builtin_suite, load_mode
from remit.scenarios import Scenario, Suite, UnknownScenarioInSuiteError
from remit.store import resolve_suite

__all__ = ["SUITE_PATH_KEY", "McpTarget", "UnknownTargetError", "resolve_target"]

SUITE_PATH_KEY = "suite_path"
"""Manifest metadata key holding a directory suite's path (as ``remit run`` records it)."""

_LOOKUP_ORDER = ("handwritten", "core")


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


class McpTarget(BaseModel):
    """The scenario, suite and control mode of one MCP session.

    Attributes:
        suite_spec: the suite as named (``core``, ``handwritten`` or a directory).
        suite: the suite the scenario comes from (recorded in the run's manifest, so
            the run compares with other runs of that suite).
        scenario: the scenario played.
        mode: the control mode.
    """

    model_config = ConfigDict(frozen=True)

    suite_spec: str
    suite: Suite
    scenario: Scenario
    mode: ControlMode

    def manifest_metadata(self) -> dict[str, JsonValue]:
        """What the run's manifest records about the suite's origin (a directory's path)."""
        if self.suite_spec in _LOOKUP_ORDER:
            return {}
        return {SUITE_PATH_KEY: str(Path(self.suite_spec).resolve())}


def resolve_target(scenario_id: str, mode: str, *, suite_spec: str | None = None) -> McpTarget:
    """The scenario ``scenario_id`` of ``suite_spec`` in the control mode ``mode``.

    Args:
        scenario_id: the scenario's id.
        mode: a built-in control mode's name (``all_tools``, ``dual_control``,
            ``oracle_plan``) or a mode file's path (see :mod:`remit.authority.mode_files`).
        suite_spec: a built-in suite's name or a directory of scenario files; ``None``
            looks in ``handwritten``, then ``core``.

    Raises:
        UnknownModeError: ``mode`` is neither a built-in mode nor a mode file's path.
        ModeFileError: the mode file is unreadable or invalid.
        UnknownSuiteError: ``suite_spec`` is neither a built-in name nor a directory.
        ScenarioFileError: the directory holds an invalid scenario file.
        UnknownScenarioInSuiteError: the named suite holds no such scenario.
        UnknownTargetError: no suite was named and no built-in suite holds it.
    """
    control = load_mode(mode)
    if suite_spec is not None:
        suite = resolve_suite(suite_spec)
        return McpTarget(suite_spec=suite_spec, suite=suite,
                         scenario=suite.scenario(scenario_id), mode=control)
    for name in _LOOKUP_ORDER:
        suite = builtin_suite(name)
        try:
            scenario = suite.scenario(scenario_id)
        except UnknownScenarioInSuiteError:
            continue
        return McpTarget(suite_spec=name, suite=suite, scenario=scenario, mode=control)
    handwritten = tuple(s.id for s in builtin_suite("handwritten"))
    raise UnknownTargetError(scenario_id, _LOOKUP_ORDER, handwritten)
