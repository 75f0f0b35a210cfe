"""A scripted, untrusted agent: it plays a list of steps, then ends.

A *step* is one JSON object, in the format of the corpus and of the script files:

- ``{"tool": NAME, "arguments": {...}}``: a tool call. The agent builds it with
  :class:`~remit.world.ToolCall`'s validation, and where that refuses the call (arguments
  nested deeper than pydantic's ~255 levels) with ``ToolCall.model_construct``, as agent
  code may: an agent is someone else's code, and what it hands over is a ``ToolCall``
  either way. The tool name is always a string and the arguments always an object.
- ``{"raise": TEXT, "type": NAME}``: ``act`` raises an exception whose message is
  ``TEXT``, of a class called ``NAME`` (default ``RuntimeError``).
- ``{"return": VALUE}``: ``act`` returns ``VALUE`` (any JSON value), not a ``ToolCall``.
- ``{"return_object_named": NAME}``: ``act`` returns an instance of a fresh class called
  ``NAME``.

After its last step the agent ends the trial (``end`` with the summary ``script done``).

Values in steps are *encoded*: three markers keep huge and deep values compact in files
and readable in hypothesis' shrunk examples, and :func:`decode` expands them:

- ``{"__repeat__": S, "times": N}``: the string ``S * N``;
- ``{"__list__": V, "times": N}``: a list of ``N`` copies of ``V``;
- ``{"__nest__": N}``: ``N`` nested lists around ``0``; with ``"key": K`` (and optionally
  ``"leaf": V``), ``N`` nested objects ``{K: {K: ... V}}``.

Lone surrogates are written as ``\\ud800`` escapes (``json.dumps(..., ensure_ascii=True)``),
so script and corpus files are valid UTF-8.

A script file is named by the environment variable :data:`SCRIPT_ENV`:
``{"chunks": [[step, ...], ...]}``, trial ``i`` of a run playing chunk ``i`` modulo their
number, or ``{"by_mode": {MODE: [[step, ...], ...], ...}}``, the same per mode. Run it
with ``remit run --agent tests.fuzz.agents:scripted``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from remit.actors import Briefing, Observation, TrialInfo
from remit.world import ToolCall

SCRIPT_ENV = "REMIT_FUZZ_SCRIPT"
"""The environment variable naming the script file of :func:`scripted`."""

END_OF_SCRIPT = ToolCall(tool="end", arguments={"summary": "script done"})
"""What the agent does once its steps are played."""

Step = dict[str, Any]


def decode(value: Any) -> Any:
    """``value`` with the markers of the module docstring expanded."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__repeat__" in value:
        return str(value["__repeat__"]) * int(value["times"])
    if "__list__" in value:
        item = decode(value["__list__"])
        return [item] * int(value["times"])
    if "__nest__" in value:
        return _nest(int(value["__nest__"]), value.get("key"), decode(value.get("leaf", 0)))
    return {key: decode(v) for key, v in value.items()}


def _nest(depth: int, key: str | None, leaf: Any) -> Any:
    nested = leaf
    for _ in range(depth):
        nested = [nested] if key is None else {key: nested}
    return nested


def dumps(value: Any) -> str:
    """One line of JSON, ASCII only (lone surrogates as ``\\udxxx`` escapes), strict (no
    NaN); ``value`` must be encoded (no deep nesting)."""
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


Chunks = Sequence[Sequence[Step]]


def json_text(value: Any) -> str:
    """The JSON text of the decoded ``value``, written without building it: a nesting
    marker becomes brackets, so any depth can be written (as a model or a client would
    send it); ASCII, lone surrogates as escapes."""
    if isinstance(value, list):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    if not isinstance(value, dict):
        return dumps(value)
    if "__repeat__" in value:
        return dumps(decode(value))
    if "__list__" in value:
        item = json_text(value["__list__"])
        return "[" + ",".join([item] * int(value["times"])) + "]"
    if "__nest__" in value:
        depth, key = int(value["__nest__"]), value.get("key")
        leaf = json_text(value.get("leaf", 0))
        opening, closing = ("[", "]") if key is None else (f"{{{dumps(key)}:", "}")
        return opening * depth + leaf + closing * depth
    return "{" + ",".join(f"{dumps(k)}:{json_text(v)}" for k, v in value.items()) + "}"


def write_script(path: Path, chunks: Chunks | Mapping[str, Chunks]) -> Path:
    """Write a script file to ``path``: the same ``chunks`` (of encoded steps) in every
    mode, or chunks by mode; return the path."""
    script = {"by_mode": {mode: [list(c) for c in each] for mode, each in chunks.items()}} \
        if isinstance(chunks, Mapping) else {"chunks": [list(c) for c in chunks]}
    path.write_text(dumps(script) + "\n", encoding="ascii")
    return path


def read_script(path: Path, mode: str) -> list[list[Step]]:
    """The chunks a script file gives ``mode`` (still encoded)."""
    script = json.loads(path.read_text(encoding="ascii"))
    chunks = script["by_mode"].get(mode, []) if "by_mode" in script else script["chunks"]
    return [list(chunk) for chunk in chunks]


def tool_call(step: Step) -> ToolCall:
    """The :class:`ToolCall` of a call step, built as the module docstring says."""
    tool, arguments = decode(step["tool"]), decode(step.get("arguments", {}))
    try:
        return ToolCall.model_validate({"tool": tool, "arguments": arguments})
    except (ValidationError, RecursionError):
        return ToolCall.model_construct(tool=tool, arguments=arguments)


def _exception(step: Step) -> Exception:
    name = str(step.get("type", "RuntimeError"))
    kind = type(name, (Exception,), {}) if name != "RuntimeError" else RuntimeError
    return kind(decode(step["raise"]))


class ScriptedAgent:
    """Plays ``steps`` (see the module docstring), one per ``act``, then ends.

    Attributes:
        steps: the encoded steps.
        played: how many steps ``act`` has played so far.
        ended: whether ``act`` has ended the trial after the last step.
    """

    def __init__(self, info: TrialInfo, steps: Sequence[Step]) -> None:
        self.info = info
        self.steps = list(steps)
        self.played = 0
        self.ended = False

    def start(self, briefing: Briefing) -> None:
        """Nothing to prepare: the script is fixed."""

    def act(self, observation: Observation) -> object:
        """The next step: a tool call, an exception, or a value that is no tool call."""
        if self.played >= len(self.steps):
            self.ended = True
            return END_OF_SCRIPT
        step = self.steps[self.played]
        self.played += 1
        if "raise" in step:
            raise _exception(step)
        if "return" in step:
            return decode(step["return"])
        if "return_object_named" in step:
            return type(str(decode(step["return_object_named"])), (), {})()
        return tool_call(step)


def scripted(info: TrialInfo) -> ScriptedAgent:
    """The agent of ``remit run --agent tests.fuzz.agents:scripted``: plays chunk
    ``info.trial`` (modulo their number) of the script file named by :data:`SCRIPT_ENV`
    (the chunks of the trial's mode)."""
    path = os.environ.get(SCRIPT_ENV)
    if not path:
        raise RuntimeError(f"set {SCRIPT_ENV} to a script file (see tests/fuzz/agents.py)")
    chunks = read_script(Path(path), info.mode)
    return ScriptedAgent(info, chunks[info.trial % len(chunks)] if chunks else [])
