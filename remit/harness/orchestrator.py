"""The turn loop of one trial (tau2-bench's orchestration, with an authority gate).

The buyer opens with a request. The agent acts: a read or write tool call returns at
once and the agent goes on; a message (``message``, ``ask``, ``request_action``,
``follow_up``) passes control to the addressee, whose review time passes on the clock
before it acts through the gate and replies. The system expires
a quote whose validity date has passed. The trial ends when the agent ends it, at the
step budget, when the quote reaches a terminal state (payment released, cancelled), or
when the agent fails (recorded as such, never crashing the run). An agent that offers
``finish(observation)`` is handed the last observation (its last call's result) when the
trial ends after a call, so it can count what it would otherwise never see.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from typing import NamedTuple

from remit.actors import Agent, AsyncAgent, Briefing, Observation, Persona
from remit.actors.personas import build_personas
from remit.actors.policy import policy_text
from remit.authority import (
    Action,
    ControlMode,
    Role,
    authority_prose,
    describe_authority,
    map_hash,
    who_can,
)
from remit.catalogue import shared_catalogue
from remit.errors import InfrastructureError, RunAbortedError
from remit.harness.driving import drive, interruptible
from remit.quotes import QuoteState, is_terminal
from remit.scenarios import Scenario
from remit.trusted import trusted
from remit.world import (
    ErrorEntry,
    MessageEntry,
    ToolCall,
    ToolResult,
    World,
    WorldSetup,
    tool_specs,
)
from remit.world.untrusted import clean_text, describe_exception, visible

__all__ = ["AGENT_STEP_MINUTES", "TrialLoop", "briefing_for", "drive", "interruptible",
           "run_trial", "run_trial_async", "trial_seed", "world_for"]
# drive and interruptible live in remit.harness.driving; they are named here too because
# the turn loop is where runs and tests have always found them.


_LOG = logging.getLogger(__name__)

#: Simulated minutes one agent step takes.
AGENT_STEP_MINUTES = 1
_EXPIRABLE = (QuoteState.PRESENTED.value, QuoteState.APPROVED.value)


def trial_seed(run_seed: int, scenario_id: str, mode: str, trial: int) -> int:
    """A stable per-trial seed: the same inputs give the same seed in every process."""
    digest = hashlib.sha256(f"{run_seed}/{scenario_id}/{mode}/{trial}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def world_for(scenario: Scenario, mode: ControlMode) -> World:
    """A fresh world for one trial of ``scenario`` in ``mode`` (its setup is the
    validated scenario's and mode's own records, so it is not validated again)."""
    return World(trusted(WorldSetup, {
        "catalogue": shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size),
        "mode": mode,
        "requirement": scenario.requirement,
        "truths": scenario.truths,
        "certificate_required": scenario.certificate_required,
        "terms": scenario.terms,
        "variance": scenario.variance,
    }))


class _ModeBriefing(NamedTuple):
    """What every briefing in one mode says alike: the policy text and the owners."""

    policy: str
    owners: tuple[tuple[Action, tuple[Role, ...]], ...]


_MODE_BRIEFINGS: dict[tuple[str, str], _ModeBriefing] = {}
"""Per process: each mode's :class:`_ModeBriefing`, by mode name and map hash (what it
is derived from; modes are immutable). Every trial in the mode is briefed with it."""
_MODE_BRIEFINGS_MAX = 64


def _mode_briefing(mode: ControlMode) -> _ModeBriefing:
    key = (mode.name, map_hash(mode.map))
    found = _MODE_BRIEFINGS.get(key)
    if found is None:
        authority = authority_prose(describe_authority(mode), mode=mode.name)
        found = _ModeBriefing(
            policy=f"{policy_text().rstrip()}\n\n{authority}\n",
            owners=tuple((action, tuple(sorted(who_can(mode, action), key=lambda r: r.value)))
                         for action in Action))
        if len(_MODE_BRIEFINGS) >= _MODE_BRIEFINGS_MAX:
            _MODE_BRIEFINGS.clear()
        _MODE_BRIEFINGS[key] = found
    return found


def briefing_for(scenario: Scenario, mode: ControlMode) -> Briefing:
    """The agent's briefing: role, policy, tools, who may do what on which conditions, and
    the plan in oracle-plan.

    Each trial gets a briefing of its own, with dicts of its own (the agent may keep it
    and change them), built from the mode's text and owners, which are worked out once
    per mode (:data:`_MODE_BRIEFINGS`), and from the validated scenario's records.
    """
    alike = _mode_briefing(mode)
    return trusted(Briefing, {
        "role": Role.AGENT,
        "mode": mode.name,
        "policy": alike.policy,
        "tools": tool_specs(),
        "owners": dict(alike.owners),
        "authority": describe_authority(mode),
        "quote_id": scenario.terms.quote_id,
        "max_steps": scenario.max_steps,
        "plan": scenario.plan if mode.plan_in_briefing else None,
    })


class TrialLoop:
    """One trial's turn loop, driven one agent tool call at a time.

    The sync and async drivers (:func:`run_trial`, :func:`run_trial_async`) pull tool
    calls from an agent; a push driver (the MCP server) feeds the calls an external
    client makes. Both go through :meth:`apply`, so a trial is the same whoever drives it.

    Building the loop builds the world and the personas; the buyer opens at once, so
    the first :meth:`observation` carries the buyer's opening message.

    Args:
        scenario: the scenario.
        mode: the control mode.
        seed: the trial's seed (personas choose among equivalent phrasings with it).

    Attributes:
        scenario: as given.
        world: the trial's world (its trail is the record of the trial).
        personas: the parties other than the agent, by role.
        agent_steps: tool calls the agent has made.

    Example:
        >>> loop = TrialLoop(scenario, mode, seed=0)                  # doctest: +SKIP
        >>> opening = loop.observation().messages                     # doctest: +SKIP
        >>> loop.apply(ToolCall(tool="end", arguments={"summary": ""}))  # doctest: +SKIP
        >>> loop.done()                                               # doctest: +SKIP
        True
    """

    def __init__(self, scenario: Scenario, mode: ControlMode, seed: int) -> None:
        self.scenario = scenario
        self.world = world_for(scenario, mode)
        self.personas: dict[Role, Persona] = build_personas(scenario, seed)
        self.seen = 0
        self.agent_steps = 0
        self.personas[Role.BUYER].opening(self.world)

    def observation(self, result: ToolResult | None = None) -> Observation:
        """What the agent sees now: ``result`` and the messages it has not seen yet."""
        inbox = self.world.inboxes[Role.AGENT]
        new = tuple(inbox[self.seen:])
        self.seen = len(inbox)
        return trusted(Observation, {"step": self.world.step, "minute": self.world.minute,
                                     "result": result, "messages": new})

    def agent_failed(self, exc: BaseException) -> None:
        """End the trial as ``agent_error`` because the agent raised ``exc``; its text is
        the agent's, so it is cleaned and cut short
        (:func:`~remit.world.untrusted.describe_exception`)."""
        self.end_with_agent_error(f"agent raised {describe_exception(exc)}")

    def end_with_agent_error(self, message: str) -> None:
        """Record an ``agent_error`` entry saying ``message`` and end the trial with it."""
        world = self.world
        message = clean_text(message)
        world.record(ErrorEntry(step=world.step, minute=world.minute, actor=Role.AGENT,
                                tool="", code="agent_error", message=message))
        world.end("agent_error", message)

    def apply(self, call: object) -> Observation:
        """Play one agent step: ``call`` through the gate, then the addressees' replies,
        the clock, and the end conditions; return what the agent sees next.

        Anything but a :class:`~remit.world.ToolCall` ends the trial as ``agent_error``.
        """
        world = self.world
        if not isinstance(call, ToolCall):
            self.agent_failed(TypeError(f"act() returned {type(call).__name__}, not ToolCall"))
            return self.observation()
        self.agent_steps += 1
        world.advance(AGENT_STEP_MINUTES)
        before = len(world.trail)
        result = world.call(Role.AGENT, call)
        self._route(before)
        self._clock()
        self._check_end()
        return self.observation(result)

    def _route(self, before: int) -> None:
        """Hand control to each persona addressed by the agent's call."""
        world = self.world
        delivered = [e for e in world.trail[before:]
                     if isinstance(e, MessageEntry) and e.sender is Role.AGENT]
        for message in delivered:
            persona = self.personas.get(message.to)
            if persona is None:
                continue
            persona.handle(world, message)  # advances the clock by its review time

    def _clock(self) -> None:
        world = self.world
        quote = world.quote
        if quote.state in _EXPIRABLE and world.minute > quote.valid_until_minute:
            world.call(Role.SYSTEM, ToolCall(tool="expire",
                                             arguments={"quote_id": quote.id}))

    def _check_end(self) -> None:
        world = self.world
        if world.ended is not None:
            return
        state = world.quote.state
        if is_terminal(state):
            world.end("terminal_state", f"quote reached {state}")
        elif self.agent_steps >= self.scenario.max_steps:
            world.end("max_steps", f"step budget of {self.scenario.max_steps} spent")

    def done(self) -> bool:
        """Whether the trial has ended."""
        return self.world.ended is not None


_NOT_THE_AGENTS = (InfrastructureError, RunAbortedError)
"""Errors that leave the trial instead of failing it: the runner retries infrastructure
errors and stops the run on an abort. Anything else an agent raises is its failure."""


def run_trial(scenario: Scenario, mode: ControlMode, agent: Agent | AsyncAgent, *,
              seed: int = 0) -> World:
    """Run one trial outside any event loop; return the finished world (with its trail).

    The agent's exceptions end the trial with reason ``agent_error``; they never escape,
    except :class:`~remit.errors.InfrastructureError` (the runner retries it) and
    :class:`~remit.errors.RunAbortedError` (the run stops).
    """
    return drive(run_trial_async(scenario, mode, agent, seed=seed))


async def run_trial_async(scenario: Scenario, mode: ControlMode, agent: Agent | AsyncAgent,
                          *, seed: int = 0) -> World:
    """Run one trial with a synchronous or asynchronous agent (the one turn loop).

    A synchronous agent's calls run inline; an asynchronous agent's are awaited, so
    trials in flight overlap their waiting. When the trial ends after a call, an agent
    that offers ``finish(observation)`` (sync or async) is handed the last observation.
    """
    with interruptible():
        loop = TrialLoop(scenario, mode, seed)
        try:
            await _settled(agent.start(briefing_for(scenario, mode)))
        except _NOT_THE_AGENTS:
            raise
        except Exception as exc:
            loop.agent_failed(exc)
        observation = loop.observation()
        while not loop.done():
            try:
                acted: object = agent.act(observation)
                # an asynchronous agent's call is awaited; a synchronous one's is at hand
                call = await _settled(acted) if inspect.isawaitable(acted) else acted
            except _NOT_THE_AGENTS:
                raise
            except Exception as exc:
                loop.agent_failed(exc)
                break
            observation = loop.apply(call)
            if loop.done():
                await _finished(agent, observation)
        return loop.world


async def _finished(agent: object, observation: Observation) -> None:
    """Hand the trial's last observation to an agent that offers ``finish(observation)``.

    The trial has ended, so an error raised there cannot fail it: it is logged and the
    record stands (infrastructure errors and aborts still leave, as from ``act()``).
    """
    finish = getattr(agent, "finish", None)
    if not callable(finish):
        return
    try:
        await _settled(finish(observation))
    except _NOT_THE_AGENTS:
        raise
    except Exception as exc:
        _LOG.warning("the agent's finish() raised %s; the ended trial stands",
                     visible(describe_exception(exc)))


async def _settled(value: object) -> object:
    """``value``, awaited first if an asynchronous agent returned an awaitable (Ctrl-C
    then cancels it rather than breaking into it: see :func:`interruptible`)."""
    if not inspect.isawaitable(value):
        return value
    with interruptible(at_once=False):
        return await value
