"""Authority: who may do what to a quote, decided with reasons, per control mode.

Cedar-like semantics: deny by default, a forbid always wins, the order of grants never
matters, and every decision lists the grants and forbids that decided it, every unmet
condition as a sentence, and the map's hash.

Example:
    >>> from remit.authority import Action, Request, Resource, Role, decide, default_map
    >>> request = Request(actor_id="a-1", role=Role.AGENT, action=Action.APPROVE,
    ...                   resource=Resource(id="Q-1"))
    >>> decide(default_map(), request).allowed
    False
"""

from __future__ import annotations

from remit.authority.analysis import (
    ModeDiff,
    SodConflict,
    check_map,
    diff_modes,
    run_problems,
    sod_conflicts,
    unreachable,
    who_can,
    who_can_table,
)
from remit.authority.briefing import ActionAuthority, authority_prose, describe_authority
from remit.authority.conditions import (
    Condition,
    Custom,
    DelegationLimit,
    EvidenceRequired,
    SeparationOfDuties,
    StateIn,
    Threshold,
)
from remit.authority.decision import Decision, Unmet, decide
from remit.authority.loading import dump_map, load_map
from remit.authority.mode_files import Delegation, ModeSpec, load_mode_spec
from remit.authority.modes import (
    BUILTIN_MODE_NAMES,
    ControlMode,
    ModeError,
    UnknownModeError,
    all_tools,
    builtin_modes,
    delegate,
    dual_control,
    mode_by_name,
    oracle_plan,
)
from remit.authority.policy import AuthorityMap, Forbid, Grant, map_hash
from remit.authority.request import CitedEvidence, Request, RequestContext, Resource
from remit.authority.roles import Action, Role
from remit.authority.valve_map import default_map, grant_id

__all__ = [
    "BUILTIN_MODE_NAMES",
    "Action",
    "ActionAuthority",
    "AuthorityMap",
    "CitedEvidence",
    "Condition",
    "ControlMode",
    "Custom",
    "Decision",
    "Delegation",
    "DelegationLimit",
    "EvidenceRequired",
    "Forbid",
    "Grant",
    "ModeDiff",
    "ModeError",
    "ModeSpec",
    "Request",
    "RequestContext",
    "Resource",
    "Role",
    "SeparationOfDuties",
    "SodConflict",
    "StateIn",
    "Threshold",
    "UnknownModeError",
    "Unmet",
    "all_tools",
    "authority_prose",
    "builtin_modes",
    "check_map",
    "decide",
    "default_map",
    "delegate",
    "describe_authority",
    "diff_modes",
    "dual_control",
    "dump_map",
    "grant_id",
    "load_map",
    "load_mode_spec",
    "map_hash",
    "mode_by_name",
    "oracle_plan",
    "run_problems",
    "sod_conflicts",
    "unreachable",
    "who_can",
    "who_can_table",
]
