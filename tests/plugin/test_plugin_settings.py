"""RunSettings: defaults, command-line values, and the marker narrowing them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.actors import OracleAgent, TrialInfo
from remit.authority import Action, Role, default_map, delegate
from remit.harness.settings import RunSettings, SettingsError, agent_factory, agent_label
from remit.world import ToolCall


def test_defaults() -> None:
    settings = RunSettings()

    assert (settings.agent, settings.trials, settings.seed) == ("baseline", 1, 0)
    assert [m.name for m in settings.modes] == ["all_tools", "dual_control"]


def test_options_then_marker() -> None:
    options = RunSettings.from_options(agent=" oracle ", modes="dual_control, oracle_plan",
                                       trials=3, seed=9, db="runs.db")
    custom = delegate(default_map(), Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                      attribute="discount_pct", limit=Decimal(5), name="agent-approves-5pct")

    marked = options.with_marker((), {"modes": ("all_tools", custom), "trials": 2},
                                 where="t.py::test")

    assert (options.agent, options.trials, options.seed, options.db) == ("oracle", 3, 9, "runs.db")
    assert [m.name for m in options.modes] == ["dual_control", "oracle_plan"]
    assert [m.name for m in marked.modes] == ["all_tools", "agent-approves-5pct"]
    assert (marked.agent, marked.trials, marked.seed, marked.db) == ("oracle", 2, 9, "runs.db")
    assert options.with_marker((), {"modes": "dual_control"}, where="t").modes[0].name == \
        "dual_control"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"trails": 3}, r"on t.py::test: trails: Extra inputs are not permitted \(got 3\)"),
    ({"trials": 0}, r"trials: Input should be greater than or equal to 1 \(got 0\)"),
    ({"modes": ()}, r"modes: Tuple should have at least 1 item"),
    ({"modes": ("dual_control", "nope")}, r"unknown control mode name='nope'"),
    ({"seed": "x"}, r"seed: Input should be a valid integer"),
])
def test_a_bad_marker_names_the_test_the_key_and_the_valid_keys(
        kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message) as caught:
        RunSettings().with_marker((), kwargs, where="t.py::test")

    assert "the marker takes the keywords modes, trials, agent, seed" in str(caught.value)
    assert caught.value.where == "@pytest.mark.remit on t.py::test"


def test_positional_marker_arguments_are_refused() -> None:
    with pytest.raises(SettingsError, match=r"keyword arguments only, got args=\('oracle',\)"):
        RunSettings().with_marker(("oracle",), {}, where="t")


@pytest.mark.parametrize(("options", "message"), [
    ({"modes": "nope"}, r"the --remit-\* options: unknown control mode name='nope'"),
    ({"modes": " , "}, r"--remit-modes: Tuple should have at least 1 item"),
    ({"trials": 0}, r"--remit-trials: Input should be greater than or equal to 1 \(got 0\)"),
    ({"modes": "all_tools,all_tools"}, r"repeated: all_tools"),
])
def test_bad_options_say_where_to_look(options: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message) as caught:
        RunSettings.from_options(**options)  # type: ignore[arg-type]

    assert "see the 'remit' group of pytest --help" in str(caught.value)


class _NoArguments:
    def start(self, briefing: object) -> None:
        pass

    def act(self, observation: object) -> ToolCall:
        return ToolCall(tool="end", arguments={"summary": "done"})


def test_agents_by_name_spec_factory_or_class() -> None:
    info = TrialInfo(scenario_id="s", mode="dual_control", trial=0, seed=0, plan=())

    assert isinstance(agent_factory("oracle")(info), OracleAgent)
    assert isinstance(agent_factory("remit.actors:OracleAgent")(info), OracleAgent)
    assert isinstance(agent_factory(OracleAgent)(info), OracleAgent)
    assert isinstance(agent_factory(_NoArguments)(info), _NoArguments)
    assert agent_label(" oracle") == "oracle"
    assert agent_label(OracleAgent) == "remit.actors.oracle:OracleAgent"
