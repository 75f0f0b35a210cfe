"""Checked scenarios: a user's scenario file is held to the rules the ``core`` suite is.

A scenario is a fair test only if it can be passed, by the reference plan it carries,
in every mode it runs in. :func:`check_scenario` applies every rule of
:data:`~remit.harness.verify.RULES` and returns each problem as a
:class:`~remit.harness.verify.ScenarioProblem` under its rule's stable id:

- ``plan.sku-acceptable``: the plan quotes only SKUs of the acceptable set; a problem
  names the catalogue's fit rules that exclude the SKU (``c3_pressure_rating``...);
- ``plan.cites-released``: the plan's lines cite no draft attribute;
- ``plan.replays``, ``plan.goal-at-end``, ``plan.reaches-goal``: the plan, replayed
  through the gate in each mode (:func:`~remit.harness.verify.replay_plan`), is accepted
  step by step, reaches the expected final state only at its last step, and passes the
  scenario's expectations;
- ``oracle.passes``: the oracle agent, run as a real trial through the harness in each
  mode, passes the scenario's expectations within its step budget.

``remit suite check FILE|DIR`` (:func:`check_path`) and the pytest plugin's collection
of scenario files (:func:`collection_failure`) both call it. Results are cached by
scenario content, modes and seed, so a file collected twice is checked once.

Example:
    >>> from remit.scenarios import scenario_by_id
    >>> check_scenario(scenario_by_id("discount-exception"))
    ()
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from remit.actors import oracle_factory
from remit.authority import ControlMode, builtin_modes
from remit.harness.driving import drive
from remit.harness.runner import TrialRecord, run_async
from remit.harness.verify import ScenarioProblem, plan_checks, replay_checks, replay_plan
from remit.scenarios import Scenario, canonical_json, load_scenario, load_suite, scenario_files

__all__ = ["ScenarioCheck", "check_path", "check_scenario", "collection_failure"]

_CacheKey = tuple[str, tuple[str, ...], int]
_CHECKED: dict[_CacheKey, tuple[ScenarioProblem, ...]] = {}


class ScenarioCheck(BaseModel):
    """The verdict on one scenario file.

    Attributes:
        source: the file, as given (or found in the directory given).
        scenario_id: the scenario's id.
        modes: the modes it was checked in.
        problems: every problem found, in rule order (empty: the scenario is sound).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    scenario_id: str
    modes: tuple[str, ...]
    problems: tuple[ScenarioProblem, ...]

    @property
    def ok(self) -> bool:
        """Whether the scenario has no problem."""
        return not self.problems


def _oracle_problem(scenario: Scenario, record: TrialRecord) -> ScenarioProblem | None:
    score = record.scored.score
    if score.passed:
        return None
    ended = (f"it ran out of max_steps={scenario.max_steps}; raise max_steps"
             if score.end_reason == "max_steps" else f"the trial ended: {score.end_reason}")
    return ScenarioProblem(
        rule="oracle.passes", scenario_id=scenario.id, mode=record.scored.mode,
        message=f"the oracle, following the plan, fails the expectations after "
                f"{score.steps} step(s) ({ended}): " + "; ".join(score.failures))


def _checked(scenario: Scenario, modes: Sequence[ControlMode],
             seed: int) -> tuple[ScenarioProblem, ...]:
    problems = plan_checks(scenario)
    replayed: list[ControlMode] = []
    for mode in modes:
        found = replay_checks(scenario, replay_plan(scenario, mode, seed=seed))
        problems += found
        if not found:
            replayed.append(mode)
    # The oracle follows the plan: in a mode where the plan's replay already fails, its
    # failure says nothing more.
    records = drive(run_async([scenario], replayed, oracle_factory, seed=seed))
    problems += [p for r in records if (p := _oracle_problem(scenario, r)) is not None]
    return tuple(problems)


def check_scenario(scenario: Scenario, modes: Sequence[ControlMode] | None = None, *,
                   seed: int = 0) -> tuple[ScenarioProblem, ...]:
    """Every problem that keeps ``scenario`` from being a fair test (empty: none).

    The plan's lines are checked once; the replay and the oracle's trial once per mode.
    The answer is cached by the scenario's canonical JSON, the modes' fingerprints and
    the seed (a scenario takes about 5 ms per mode to check).

    Args:
        scenario: the scenario.
        modes: the control modes (default: the built-in modes).
        seed: the run seed of the oracle's trials and the personas' phrasing.
    """
    chosen = tuple(modes if modes is not None else builtin_modes().values())
    key = (canonical_json(scenario), tuple(mode.fingerprint for mode in chosen), seed)
    if key not in _CHECKED:
        _CHECKED[key] = _checked(scenario, chosen, seed)
    return _CHECKED[key]


def check_path(path: Path | str, modes: Sequence[ControlMode] | None = None, *,
               seed: int = 0) -> list[ScenarioCheck]:
    """Check one scenario file, or every scenario file of a suite directory (the files
    ``remit run --suite DIR`` would run, in its order).

    Raises:
        remit.scenarios.ScenarioFileError: the path is missing, a file does not load (the
            error names the file and the field path), or two files share an id.
    """
    path = Path(path)
    chosen = tuple(modes if modes is not None else builtin_modes().values())
    if path.is_dir():
        pairs = list(zip(scenario_files(path), load_suite(path), strict=True))
    else:
        pairs = [(path, load_scenario(path))]
    return [ScenarioCheck(source=str(file), scenario_id=scenario.id,
                          modes=tuple(mode.name for mode in chosen),
                          problems=check_scenario(scenario, chosen, seed=seed))
            for file, scenario in pairs]


def collection_failure(scenario: Scenario, modes: Sequence[ControlMode], *, source: str,
                       seed: int = 0) -> str | None:
    """Why the pytest plugin must refuse to collect ``scenario`` from ``source`` (``None``:
    it passes :func:`check_scenario` in ``modes``): a first line saying what to do, then
    one line per problem naming the scenario, the mode, the rule and the plan step."""
    problems = check_scenario(scenario, modes, seed=seed)
    if not problems:
        return None
    return "\n".join([
        f"scenario file {source} fails remit's scenario check in "
        f"{', '.join(mode.name for mode in modes)}: {len(problems)} problem(s), one per line "
        f"below; fix them (`remit suite check {source}` checks the file again)",
        *(problem.line for problem in problems)])
