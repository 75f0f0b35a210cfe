"""The system prompt an LLM agent gets, built from its briefing, and the tool definitions.

The prompt states the role, the supplier's policy (ending with who may do what in this
mode, on which conditions), how hand-offs work, how the conversation runs (plain text is
a message to the buyer), the step budget and, in oracle-plan, the reference plan. Tool
schemas come from the world (:func:`remit.world.tool_specs`): they are sent as ``tools``
in ``native`` and ``auto`` format, and written into the prompt in ``content-json`` format.

:func:`prompt_hash` fingerprints the prompt for a run's manifest: it changes when the
template, the policy or the tool schemas change.

Example:
    >>> text = system_prompt(briefing)                          # doctest: +SKIP
    >>> "request_action" in text                                # doctest: +SKIP
    True
"""

from __future__ import annotations

import functools
import hashlib
import json

from pydantic import JsonValue

from remit.actors.llm.config import ToolCallFormat
from remit.actors.policy import policy_text
from remit.actors.protocol import Briefing
from remit.authority import (
    Action,
    Role,
    authority_prose,
    builtin_modes,
    describe_authority,
    who_can,
)
from remit.world import ToolSpec, tool_specs

__all__ = ["prompt_hash", "system_prompt", "tool_definitions"]

_INTRO = (
    "You are the supplier's quoting agent (role `{role}`) in a conversation about quote "
    "{quote_id}. Control mode: `{mode}`. The other parties are the buyer, the technical "
    "owner and finance; each acts only through their own tools."
)
_HANDOFFS = """\
Perform an action yourself only if your role holds it. For an action held by others,
call `request_action(to=OWNER, action=ACTION, quote_id=..., evidence=[...], text=...)`:
it opens a hand-off that the owner answers. Read the quote (`get_quote`) to see each
hand-off's status; `follow_up(handoff_id)` one left open or declined (cite what was
missing), and `withdraw(handoff_id, reason)` one you will no longer see completed. Never
say that another party acted unless they did."""
_TURNS = """\
Each reply does one thing: call one tool, or write plain text. Plain text is sent to the
buyer as a message and the buyer answers; to write to another party use
`message(to=..., text=...)`, to ask for facts use `ask`. A tool call's result comes back
before your next reply; messages to you arrive as user messages starting with
`From <party>:`. You have at most {max_steps} tool calls. When the quote is done or
nothing more can be done, call `end(summary=...)`."""
_CONTENT_JSON = """\
To call a tool, reply with one JSON object and nothing else:
{"name": "TOOL", "arguments": {...}}
The tools, each with the JSON Schema of its arguments:"""


def _owners(briefing: Briefing) -> str:
    lines = []
    for action in Action:
        roles = briefing.owners.get(action, ())
        holders = ", ".join(f"{role.value} (you)" if role is briefing.role else role.value
                            for role in roles)
        lines.append(f"- {action.value}: {holders or 'nobody'}")
    return "\n".join(lines)


def _plan(briefing: Briefing) -> str:
    steps = briefing.plan or ()
    lines = [f"{number}. {step.role.value}: {step.tool} "
             f"{json.dumps(step.arguments, sort_keys=True)}"
             for number, step in enumerate(steps, start=1)]
    return "\n".join(lines)


def _tool_lines(tools: tuple[ToolSpec, ...]) -> str:
    return "\n".join(f"- {spec.name}: {spec.description}\n  "
                     f"{json.dumps(spec.parameters, sort_keys=True, separators=(',', ':'))}"
                     for spec in tools)


def system_prompt(briefing: Briefing, fmt: ToolCallFormat = ToolCallFormat.AUTO) -> str:
    """The system prompt for ``briefing``.

    Args:
        briefing: the agent's briefing (role, mode, policy, tools, owners, budget, plan).
        fmt: the tool-call format; ``content-json`` writes the tools into the prompt.
    """
    sections = [
        _INTRO.format(role=briefing.role.value, quote_id=briefing.quote_id,
                      mode=briefing.mode),
        briefing.policy.strip(),
        # A briefing from remit carries who may do what, with conditions, in its policy;
        # one built by hand may have only the owners.
        *([] if briefing.authority else
          ["# Who holds each action in this mode\n" + _owners(briefing)]),
        "# Hand-offs\n" + _HANDOFFS,
        "# How the conversation runs\n" + _TURNS.format(max_steps=briefing.max_steps),
    ]
    if briefing.plan:
        sections.append("# Reference plan (follow it; request what you do not hold)\n"
                        + _plan(briefing))
    if fmt is ToolCallFormat.CONTENT_JSON:
        sections.append("# Calling tools\n" + _CONTENT_JSON + "\n" + _tool_lines(briefing.tools))
    return "\n\n".join(sections) + "\n"


def tool_definitions(tools: tuple[ToolSpec, ...]) -> list[JsonValue]:
    """The ``tools`` parameter of a chat-completions request: one function per tool."""
    return [{"type": "function",
             "function": {"name": spec.name, "description": spec.description,
                          "parameters": spec.parameters}}
            for spec in tools]


@functools.cache
def prompt_hash(fmt: ToolCallFormat = ToolCallFormat.AUTO) -> str:
    """A fingerprint of the prompt and tools, for the run's manifest (``sha256:`` + 16 hex).

    Computed on the dual-control briefing of a reference quote, so it moves with the
    template, the policy text, the tool schemas and the default authority map.
    """
    mode = builtin_modes()["dual_control"]
    owners = {action: tuple(sorted(who_can(mode, action), key=lambda role: role.value))
              for action in Action}
    authority = describe_authority(mode)
    policy = f"{policy_text().rstrip()}\n\n{authority_prose(authority, mode=mode.name)}\n"
    briefing = Briefing(role=Role.AGENT, mode=mode.name, policy=policy, tools=tool_specs(),
                        owners=owners, authority=authority, quote_id="Q-1", max_steps=40)
    payload = system_prompt(briefing, fmt) + json.dumps(
        tool_definitions(briefing.tools), sort_keys=True)
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()[:16]
