"""What an agent is to remit: a briefing in, one tool call per observation out.

An agent is anything with ``start(briefing)`` and ``act(observation) -> ToolCall``,
synchronous or ``async``. It sees only its briefing, the results of its own tool calls
and the messages addressed to it; hidden truths stay with the personas.

Two methods are optional: ``usage() -> AgentUsage`` (what the trial cost, recorded with
its score) and ``finish(observation)`` (sync or ``async``: the last observation, with the
last call's result, handed over when the trial ends after a call; no call is asked for).

Example:
    >>> class Quitter:
    ...     def start(self, briefing: Briefing) -> None: ...
    ...     def act(self, observation: Observation) -> ToolCall:
    ...         return ToolCall(tool="end", arguments={"summary": "nothing to do"})
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from remit.authority import Action, ActionAuthority, Role
from remit.catalogue import Money
from remit.scenarios.spec import PlanStep, Scenario
from remit.world import MessageEntry, ToolCall, ToolResult, ToolSpec, World

__all__ = [
    "Agent",
    "AgentFactory",
    "AgentUsage",
    "AsyncAgent",
    "Briefing",
    "Observation",
    "Persona",
    "PlanStep",
    "TrialInfo",
    "is_reference_agent",
    "reference_agent",
]


class Briefing(BaseModel):
    """What an agent is told before the conversation starts.

    Attributes:
        role: the role the agent plays (always ``agent`` for the agent under test).
        mode: the control mode's name.
        policy: the supplier's policy, as Markdown, ending with who may do what in this
            mode and on which conditions (the prose of ``authority``).
        tools: the tools the agent may call, with JSON Schemas.
        owners: for each write action, the roles that hold it in this mode (with or
            without conditions; ``authority`` says which).
        authority: for each action, its grants (role and conditions: delegation bounds,
            evidence required, states) and the forbids that can stop it (separation of
            duties), as data; ``authority[action].decide(request)`` applies the gate's
            rules to a request before it is made.
        quote_id: the quote the conversation is about.
        max_steps: the step budget.
        plan: the reference plan, in ``oracle_plan`` mode only.
    """

    model_config = ConfigDict(frozen=True)

    role: Role
    mode: str
    policy: str
    tools: tuple[ToolSpec, ...]
    owners: dict[Action, tuple[Role, ...]]
    authority: dict[Action, ActionAuthority] = {}
    quote_id: str
    max_steps: int
    plan: tuple[PlanStep, ...] | None = None


class Observation(BaseModel):
    """What the agent sees before each step.

    Attributes:
        step: tool calls made so far in the trial (all parties).
        minute: the simulated clock.
        result: the result of the agent's previous tool call (``None`` at the start).
        messages: messages addressed to the agent since its previous step.
    """

    model_config = ConfigDict(frozen=True)

    step: int
    minute: int
    result: ToolResult | None = None
    messages: tuple[MessageEntry, ...] = ()


@runtime_checkable
class Agent(Protocol):
    """A synchronous agent."""

    def start(self, briefing: Briefing) -> None:
        """Read the briefing before the first observation."""

    def act(self, observation: Observation) -> ToolCall:
        """Choose the next tool call."""


class AsyncAgent(Protocol):
    """An asynchronous agent (an LLM client, say)."""

    async def start(self, briefing: Briefing) -> None:
        """Read the briefing before the first observation."""

    def act(self, observation: Observation) -> Awaitable[ToolCall]:
        """Choose the next tool call."""


class Persona(Protocol):
    """A party other than the agent: buyer, technical owner or finance.

    Personas are deterministic given their seed. They act only through
    ``world.call(self.role, ...)``, the same gate as the agent, and reply with the
    ``message`` tool.
    """

    @property
    def role(self) -> Role:
        """The role the persona plays."""

    def opening(self, world: World) -> None:
        """Open the conversation (the buyer sends its request; others do nothing)."""

    def handle(self, world: World, message: MessageEntry) -> int:
        """Handle one message addressed to the persona.

        The persona advances ``world``'s clock by its review time before it acts, and
        returns the minutes it spent.
        """


class TrialInfo(BaseModel):
    """What an agent factory is told about the trial it builds an agent for.

    An agent under test gets the ids and ``seed`` only: ``plan`` is empty and
    ``scenario`` is ``None``, since the scenario holds the hidden truths and the plan is
    the answer. (In ``oracle_plan`` mode the plan reaches every agent through its
    :class:`Briefing`, as the mode intends.) Only a factory marked with
    :func:`reference_agent` (the oracle and the fault agents, which calibrate the
    metrics) is given both.

    Attributes:
        scenario_id: the scenario's id.
        mode: the control mode's name.
        trial: the trial index.
        seed: the trial's seed.
        plan: the scenario's reference plan, for reference agents; empty otherwise.
        scenario: the whole scenario, for reference agents; ``None`` otherwise.
    """

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    mode: str
    trial: int
    seed: int
    plan: tuple[PlanStep, ...] = ()
    scenario: Scenario | None = None


AgentFactory = Callable[[TrialInfo], "Agent | AsyncAgent"]
"""Builds one fresh agent per trial (``--agent package.module:factory``): a function or a
class taking :class:`TrialInfo`."""

_REFERENCE = "remit_reference"

F = TypeVar("F", bound=Callable[..., object])


def reference_agent(factory: F) -> F:
    """Mark an agent factory (a function, a class, or a callable object's class) as a
    reference agent, which is told the scenario and its plan in :class:`TrialInfo`.

    For agents that calibrate remit's metrics, never for an agent under test: with the
    hidden truths in hand an agent cannot be wrong for the reasons the metrics count.

    Example:
        >>> @reference_agent
        ... def my_oracle(info: TrialInfo) -> OracleAgent: ...   # doctest: +SKIP
    """
    setattr(factory, _REFERENCE, True)
    return factory


def is_reference_agent(factory: object) -> bool:
    """Whether ``factory`` was marked with :func:`reference_agent` (or is an instance of
    a class so marked)."""
    return getattr(factory, _REFERENCE, False) is True


class AgentUsage(BaseModel):
    """What an agent spent in one trial, for agents that call models.

    An agent may offer ``usage() -> AgentUsage``; the runner records it with the trial's
    score, and summaries and reports add it up.

    Attributes:
        model_calls: requests answered (live or replayed from a cassette).
        prompt_tokens, completion_tokens: tokens the server reported.
        cost: the trial's cost from the cost table, if one was given.
        retries: requests retried after an infrastructure error.
        reply_issues: model replies that could not be used as they were, by kind
            (``invalid_json``, ``empty_reply``, ``unknown_tool``...).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Money | None = None
    retries: int = 0
    reply_issues: dict[str, int] = {}
