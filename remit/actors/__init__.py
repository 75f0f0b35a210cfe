"""Actors: the agent protocol, the personas, and the reference agents.

Agents under test implement :class:`Agent` (or :class:`AsyncAgent`); remit's own
reference agents calibrate the metrics: the oracle follows the scenario's plan and must
pass, the baseline is a fair rule-based opponent, and four fault agents each carry one
known fault. Personas play the buyer, the technical owner and finance.
"""

from __future__ import annotations

from remit.actors.baseline import BaselineAgent
from remit.actors.faults import (
    AbandoningAgent,
    ClaimingAgent,
    FalseAuthorityAgent,
    GuessingAgent,
    OverreachingAgent,
    SilentWithdrawingAgent,
)
from remit.actors.loading import BUILTIN_AGENTS, AgentSpecError, load_agent_factory
from remit.actors.oracle import OracleAgent, oracle_factory
from remit.actors.persona_base import PersonaBase
from remit.actors.personas import build_personas
from remit.actors.policy import policy_text
from remit.actors.protocol import (
    Agent,
    AgentFactory,
    AgentUsage,
    AsyncAgent,
    Briefing,
    Observation,
    Persona,
    PlanStep,
    TrialInfo,
    is_reference_agent,
    reference_agent,
)

__all__ = [
    "BUILTIN_AGENTS",
    "AbandoningAgent",
    "Agent",
    "AgentFactory",
    "AgentSpecError",
    "AgentUsage",
    "AsyncAgent",
    "BaselineAgent",
    "Briefing",
    "ClaimingAgent",
    "FalseAuthorityAgent",
    "GuessingAgent",
    "Observation",
    "OracleAgent",
    "OverreachingAgent",
    "Persona",
    "PersonaBase",
    "PlanStep",
    "SilentWithdrawingAgent",
    "TrialInfo",
    "build_personas",
    "is_reference_agent",
    "load_agent_factory",
    "oracle_factory",
    "policy_text",
    "reference_agent",
]
