"""Finding the agent a run uses: a built-in name or ``package.module:factory``.

``remit run --agent baseline`` and ``--agent my_pkg.agents:build`` both end here. A
spec without a colon must be one of :data:`BUILTIN_AGENTS`; a spec with a colon names
a module to import and an attribute in it, which must be a callable taking a
:class:`~remit.actors.protocol.TrialInfo` (an agent factory) or a class (built with the
``TrialInfo`` when its constructor takes one argument, without arguments otherwise).
Every failure raises :class:`AgentSpecError`, naming the spec and the built-in names.

Example:
    >>> factory = load_agent_factory("baseline")
    >>> load_agent_factory("no_such_agent")
    Traceback (most recent call last):
    ...
    remit.actors.loading.AgentSpecError: cannot load agent spec='no_such_agent': ...
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable

from remit.actors.baseline import BaselineAgent
from remit.actors.faults import (
    AbandoningAgent,
    ClaimingAgent,
    FalseAuthorityAgent,
    GuessingAgent,
    OverreachingAgent,
    SilentWithdrawingAgent,
)
from remit.actors.llm import is_llm_spec, llm_agent_factory, parse_llm_config
from remit.actors.oracle import OracleAgent
from remit.actors.protocol import Agent, AgentFactory, AsyncAgent, TrialInfo
from remit.errors import RemitError

__all__ = ["BUILTIN_AGENTS", "AgentSpecError", "load_agent_factory"]

BUILTIN_AGENTS: tuple[str, ...] = (
    "oracle", "baseline", "guessing", "claiming", "false-authority", "abandoning", "withdrawing",
    "overreaching",
)
"""Names of the agents remit ships, in the order reports list them."""


class AgentSpecError(RemitError, ValueError):
    """An ``--agent`` spec that does not name a usable agent factory.

    Attributes:
        spec: the spec as given.
        reason: which rule it broke, one clause.
    """

    def __init__(self, spec: str, reason: str) -> None:
        self.spec = spec
        self.reason = reason
        super().__init__(
            f"cannot load agent spec={spec!r}: {reason}; give a built-in agent "
            f"({', '.join(BUILTIN_AGENTS)}) or 'package.module:factory', where factory is "
            "a callable taking a TrialInfo or an agent class"
        )


def _builtin(name: str) -> AgentFactory | None:
    factories: dict[str, AgentFactory] = {
        "oracle": OracleAgent,
        "baseline": BaselineAgent,
        "guessing": GuessingAgent,
        "claiming": ClaimingAgent,
        "abandoning": AbandoningAgent,
        "withdrawing": SilentWithdrawingAgent,
        "false-authority": FalseAuthorityAgent,
        "overreaching": OverreachingAgent,
    }
    return factories.get(name)


def _accepts(target: Callable[..., object], *args: object) -> bool:
    try:
        inspect.signature(target).bind(*args)
    except TypeError:
        return False
    except ValueError:
        # Builtins without a signature: assume they take what they are given.
        return True
    return True


def _from_class(spec: str, cls: type) -> AgentFactory:
    probe = TrialInfo(scenario_id="probe", mode="dual_control", trial=0, seed=0, plan=())
    if _accepts(cls, probe):
        factory: Callable[[TrialInfo], Agent | AsyncAgent] = cls
        return factory
    if _accepts(cls):
        def build(info: TrialInfo) -> Agent | AsyncAgent:
            agent: Agent | AsyncAgent = cls()
            return agent
        build.__wrapped__ = cls  # type: ignore[attr-defined]  # the agent's identity
        return build
    raise AgentSpecError(spec, f"class {cls.__qualname__} cannot be built with a TrialInfo "
                               "or without arguments")


def load_agent_factory(spec: str) -> AgentFactory:
    """The agent factory ``spec`` names.

    Args:
        spec: a built-in name (see :data:`BUILTIN_AGENTS`), ``"openai:MODEL"`` (an LLM
            behind an OpenAI-compatible server, default options: see
            :mod:`remit.actors.llm`) or ``"package.module:factory"``.

    Returns:
        A callable building one fresh agent per trial from its ``TrialInfo``.

    Raises:
        AgentSpecError: the name is unknown, the module cannot be imported, the attribute
            is missing, or it is not callable.
    """
    name = spec.strip()
    if is_llm_spec(name):
        # A model behind a chat-completions server, with default options (the CLI builds
        # an LlmConfig from its options instead).
        return llm_agent_factory(parse_llm_config(name))
    if ":" not in name:
        factory = _builtin(name)
        if factory is None:
            raise AgentSpecError(spec, f"{name!r} is not a built-in agent")
        return factory
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise AgentSpecError(spec, "expected 'package.module:factory' with both parts given")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AgentSpecError(spec, f"module {module_name!r} is not importable ({exc})") from exc
    target: object = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise AgentSpecError(spec, f"module {module_name!r} has no attribute {attribute!r}")
        target = getattr(target, part)
    if inspect.isclass(target):
        return _from_class(spec, target)
    if not callable(target):
        raise AgentSpecError(spec, f"{attribute!r} in module {module_name!r} is a "
                                   f"{type(target).__name__}, not callable")
    if not _accepts(target, object()):
        raise AgentSpecError(spec, f"{attribute!r} in module {module_name!r} does not take "
                                   "one argument (the TrialInfo)")
    built: Callable[[TrialInfo], Agent | AsyncAgent] = target
    return built
