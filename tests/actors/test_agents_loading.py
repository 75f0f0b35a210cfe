"""load_agent_factory: built-in names, ``module:factory`` specs, and every error."""

from __future__ import annotations

import pytest

from remit.actors.loading import BUILTIN_AGENTS, AgentSpecError, load_agent_factory
from remit.actors.protocol import Agent, Briefing, Observation, TrialInfo
from remit.errors import RemitError
from remit.world import ToolCall

INFO = TrialInfo(scenario_id="discount-exception", mode="dual_control", trial=0, seed=1,
                 plan=())
NOT_CALLABLE = 42


class QuitterAgent:
    """An agent class built with the trial's info."""

    def __init__(self, info: TrialInfo) -> None:
        self.info = info

    def start(self, briefing: Briefing) -> None:
        """Nothing to read."""

    def act(self, observation: Observation) -> ToolCall:
        """End at once."""
        return ToolCall(tool="end", arguments={"summary": "quit"})


class PlainAgent(QuitterAgent):
    """An agent class built without arguments."""

    def __init__(self) -> None:
        super().__init__(INFO)


class PairAgent(QuitterAgent):
    """An agent class whose constructor takes two arguments: not a factory."""

    def __init__(self, info: TrialInfo, extra: int) -> None:
        super().__init__(info)
        self.extra = extra


def quitter_factory(info: TrialInfo) -> QuitterAgent:
    """A factory function."""
    return QuitterAgent(info)


def no_argument_factory() -> QuitterAgent:
    """Not a factory: it takes no TrialInfo."""
    return QuitterAgent(INFO)


@pytest.mark.parametrize("name", BUILTIN_AGENTS)
def test_builtin_names_give_fresh_agents(name: str) -> None:
    factory = load_agent_factory(name)
    first, second = factory(INFO), factory(INFO)
    assert isinstance(first, Agent)
    assert first is not second


def test_builtin_names() -> None:
    assert BUILTIN_AGENTS == ("oracle", "baseline", "guessing", "claiming", "false-authority",
                              "abandoning", "withdrawing", "overreaching")


@pytest.mark.parametrize("attribute", ["QuitterAgent", "PlainAgent", "quitter_factory"])
def test_module_factory_spec(attribute: str) -> None:
    factory = load_agent_factory(f"{__name__}:{attribute}")
    agent = factory(INFO)
    assert isinstance(agent, QuitterAgent)
    assert agent.act(Observation(step=0, minute=0)).tool == "end"


@pytest.mark.parametrize(("spec", "match"), [
    ("no_such_agent", r"spec='no_such_agent': 'no_such_agent' is not a built-in agent"),
    ("remit_no_such_module.agents:build", r"module 'remit_no_such_module.agents' is not "
                                          r"importable"),
    (f"{__name__}:missing_factory", r"has no attribute 'missing_factory'"),
    (f"{__name__}:NOT_CALLABLE", r"'NOT_CALLABLE' .* is a int, not callable"),
    (f"{__name__}:", r"both parts given"),
])
def test_bad_specs_raise_with_the_builtin_names(spec: str, match: str) -> None:
    with pytest.raises(AgentSpecError, match=match) as caught:
        load_agent_factory(spec)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, RemitError)
    assert caught.value.spec == spec
    assert ("oracle, baseline, guessing, claiming, false-authority, abandoning, withdrawing, "
            "overreaching") in str(caught.value)


def test_class_with_unusable_constructor_is_refused() -> None:
    with pytest.raises(AgentSpecError, match=r"class .* cannot be built with a TrialInfo"):
        load_agent_factory(f"{__name__}:PairAgent")


def test_function_with_wrong_arity_is_refused() -> None:
    with pytest.raises(AgentSpecError, match=r"does not take one argument"):
        load_agent_factory(f"{__name__}:no_argument_factory")
