"""Record and replay of model calls: one plain JSON file per trial that a team can commit.

A cassette lives at ``<dir>/<scenario>/<mode>/<trial>.json`` and holds the trial's model
calls in order, each as ``{request_hash, request, response}``: the request body as
canonical JSON (keys sorted) and the response as the server sent it. The tool
definitions, the same in every request, are stored once under ``tools`` and referred to
by their hash (``"tools": "sha256:..."``) to keep the files small and their diffs
readable; the request hash is always computed on the full body.

Replay matches a request by its hash (identical requests are answered in recorded
order) and never touches the network. On a miss it raises
:class:`~remit.actors.llm.CassetteMissError` naming the trial, the call, the step and
the first message that differs from the request recorded at the same position.

Example:
    >>> cassette = Cassette.for_trial(Path("cassettes"), "discount-exception",
    ...                               "dual_control", 0, CacheMode.REPLAY)  # doctest: +SKIP
    >>> cassette.replay(body, step=3)                                         # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from remit.actors.llm.config import CacheMode
from remit.actors.llm.errors import CassetteMissError, LlmConfigError

__all__ = ["Cassette", "CassetteFile", "Interaction", "canonical_json", "request_hash"]

_EXCERPT = 60


def canonical_json(value: JsonValue) -> str:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_hash(body: JsonValue) -> str:
    """The key of a request: ``sha256:`` and the hex digest of its canonical JSON."""
    return "sha256:" + hashlib.sha256(canonical_json(body).encode()).hexdigest()


class Interaction(BaseModel):
    """One recorded model call.

    Attributes:
        request_hash: :func:`request_hash` of the full request body.
        request: the body as sent (``tools`` replaced by a reference into the file).
        response: the response body as received.
    """

    model_config = ConfigDict(extra="forbid")

    request_hash: str
    request: dict[str, JsonValue]
    response: dict[str, JsonValue]


class CassetteFile(BaseModel):
    """The JSON document of one trial's cassette.

    Attributes:
        version: the file format's version.
        trial: ``scenario/mode/trial``.
        tools: tool definitions by hash, shared by the requests.
        interactions: the model calls in order.
    """

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    trial: str
    tools: dict[str, JsonValue] = {}
    interactions: list[Interaction] = []


class Cassette:
    """The cassette of one trial, in record or replay mode.

    Args:
        path: the cassette file.
        trial: ``scenario/mode/trial``, for messages.
        mode: ``record`` (the file is rewritten after each call) or ``replay``.
    """

    def __init__(self, path: Path, trial: str, mode: CacheMode) -> None:
        if mode is CacheMode.OFF:
            raise ValueError("a cassette is only used to record or replay; mode='off'")
        self.path = path
        self.trial = trial
        self.mode = mode
        self._file = CassetteFile(trial=trial)
        self._used: set[int] = set()
        self._loaded = mode is CacheMode.RECORD

    @classmethod
    def for_trial(cls, directory: Path, scenario_id: str, mode_name: str, trial: int,
                  cache_mode: CacheMode) -> Cassette:
        """The cassette of one trial under ``directory``."""
        path = directory / _safe(scenario_id) / _safe(mode_name) / f"{trial}.json"
        return cls(path, f"{scenario_id}/{mode_name}/{trial}", cache_mode)

    # -- record -------------------------------------------------------------------------

    def record(self, body: dict[str, JsonValue], response: dict[str, JsonValue]) -> None:
        """Append one call and rewrite the file (a trial cut short keeps its calls)."""
        request = dict(body)
        tools = request.get("tools")
        if tools is not None:
            key = request_hash(tools)
            self._file.tools[key] = tools
            request["tools"] = key
        self._file.interactions.append(Interaction(request_hash=request_hash(body),
                                                   request=request, response=response))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self._file.model_dump(mode="json"), sort_keys=True,
                          ensure_ascii=False, indent=1) + "\n"
        partial = self.path.with_suffix(".json.partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, self.path)

    # -- replay -------------------------------------------------------------------------

    def _load(self) -> None:
        if self._loaded:
            return
        try:
            self._file = CassetteFile.model_validate_json(self.path.read_bytes())
        except FileNotFoundError:
            self._file = CassetteFile(trial=self.trial)
        except (OSError, ValidationError) as exc:
            raise LlmConfigError(f"cannot replay trial {self.trial}: cassette "
                                 f"path={str(self.path)!r} is unreadable ({exc}); record it "
                                 "again with --llm-cache record", field="cassettes") from exc
        self._loaded = True

    def _full(self, interaction: Interaction) -> dict[str, JsonValue]:
        request = dict(interaction.request)
        ref = request.get("tools")
        if isinstance(ref, str) and ref in self._file.tools:
            request["tools"] = self._file.tools[ref]
        return request

    def replay(self, body: dict[str, JsonValue], *, call: int, step: int) -> dict[str, JsonValue]:
        """The recorded response to ``body``.

        Args:
            body: the request body.
            call: the index of this model call within the trial.
            step: the trial's step, for the message on a miss.

        Raises:
            CassetteMissError: nothing recorded has this request's hash.
        """
        self._load()
        key = request_hash(body)
        for index, interaction in enumerate(self._file.interactions):
            if index not in self._used and interaction.request_hash == key:
                self._used.add(index)
                return interaction.response
        raise self._miss(body, call, step)

    def _miss(self, body: dict[str, JsonValue], call: int, step: int) -> CassetteMissError:
        where = (f"replay of trial {self.trial} has no recorded response for model call "
                 f"#{call} (step {step}) in cassette {str(self.path)!r}")
        fix = ("; record the cassette again with --llm-cache record, or restore what "
               "changed the request (prompt, tools, options, an earlier reply)")
        interactions = self._file.interactions
        if not interactions:
            return CassetteMissError(f"{where}: the cassette is missing or empty{fix}",
                                     trial=self.trial, call=call, step=step, message_index=None)
        if call >= len(interactions):
            return CassetteMissError(
                f"{where}: only {len(interactions)} calls were recorded{fix}",
                trial=self.trial, call=call, step=step, message_index=None)
        index, difference = first_difference(self._full(interactions[call]), body)
        return CassetteMissError(f"{where}: {difference}{fix}", trial=self.trial, call=call,
                                 step=step, message_index=index)


def first_difference(recorded: dict[str, JsonValue],
                     current: dict[str, JsonValue]) -> tuple[int | None, str]:
    """Where ``current`` first departs from ``recorded``: a message index and a sentence."""
    old_messages = recorded.get("messages")
    new_messages = current.get("messages")
    old_list = old_messages if isinstance(old_messages, list) else []
    new_list = new_messages if isinstance(new_messages, list) else []
    for index, (old, new) in enumerate(zip(old_list, new_list, strict=False)):
        if old != new:
            role = new.get("role") if isinstance(new, dict) else None
            return index, (f"message {index} (role={role!r}) differs: "
                           f"{_diff(canonical_json(old), canonical_json(new))}")
    if len(old_list) != len(new_list):
        index = min(len(old_list), len(new_list))
        return index, (f"the recorded request has {len(old_list)} messages, this one "
                       f"{len(new_list)}; message {index} is the first not in both")
    for key in sorted(set(recorded) | set(current)):
        old_value, new_value = recorded.get(key), current.get(key)
        if key != "messages" and old_value != new_value:
            return None, (f"the messages are the same but {key!r} differs: "
                          f"{_diff(canonical_json(old_value), canonical_json(new_value))}")
    return None, "a request with the same hash was already replayed (calls repeat more often)"


def _diff(old: str, new: str) -> str:
    """The first differing character and a little context on each side."""
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
              min(len(old), len(new)))
    start = max(0, at - _EXCERPT // 3)

    def cut(text: str) -> str:
        piece = text[start:start + _EXCERPT]
        return ("..." if start else "") + piece + ("..." if start + _EXCERPT < len(text) else "")

    return f"at character {at}, recorded {cut(old)!r}, now {cut(new)!r}"


def _safe(name: str) -> str:
    """A path component: anything but letters, digits, ``-``, ``_`` and ``.`` becomes ``_``."""
    cleaned = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return cleaned.strip(".") or "_"
