"""Scenarios as files: YAML or JSON in, YAML or JSON out, errors that name the place.

A bad file is a :class:`ScenarioFileError` that names the file, the field path
(``expect.final_state``, ``plan[3].tool``) and the problem, one line per problem.
Exporting a suite writes one file per scenario plus nothing else, so loading the
directory back gives the same suite fingerprint. Exported files read top-down (what the
scenario is, what the buyer asks and the site holds, the terms, the personas, the plan,
then the expectations; :data:`FILE_KEY_ORDER`), leave out values at their defaults, and
are named ``NNN-<id>.scenario.<fmt>``, a name the pytest plugin collects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fnmatch import fnmatch
from pathlib import Path
from typing import Literal

import yaml
from pydantic import JsonValue, ValidationError

from remit.documents import DocumentError, parse_text, read_text
from remit.errors import RemitError
from remit.scenarios.spec import Perturbation, Scenario
from remit.scenarios.suite import Suite

__all__ = [
    "FILE_KEY_ORDER",
    "SCENARIO_FILE_PATTERNS",
    "ScenarioFileError",
    "ScenarioFormat",
    "dump_scenario",
    "export_suite",
    "is_scenario_file",
    "load_scenario",
    "load_suite",
    "readable_data",
    "scenario_files",
    "scenario_schema",
]

ScenarioFormat = Literal["yaml", "json"]
_SUFFIXES: dict[str, ScenarioFormat] = {".yaml": "yaml", ".yml": "yaml", ".json": "json"}


class ScenarioFileError(RemitError, ValueError):
    """A scenario file that cannot be read or does not describe a valid scenario.

    Attributes:
        path: the file.
        problems: one ``field.path: problem`` sentence per problem.
    """

    def __init__(self, path: Path | str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__(f"{path}: " + "; ".join(self.problems))


SCENARIO_FILE_PATTERNS: tuple[str, ...] = (
    "scenario_*.yaml", "scenario_*.yml", "*.scenario.yaml", "*.scenario.yml",
    "*.scenario.json",
)
"""File names the pytest plugin collects as scenario tests."""

FILE_KEY_ORDER: tuple[str, ...] = (
    "id", "title", "tags", "catalogue_seed", "catalogue_size", "requirement", "truths",
    "certificate_required", "discount_pct", "justification", "terms", "variance",
    "personas", "max_steps", "plan", "expect",
)
"""The order of a written scenario's keys: what it is, what the buyer asks and the site
holds, the commercial terms, how the personas behave, the plan with its step budget,
and last what the end state must be. Nested keys keep the models' field order."""

_SHOWN_INPUT = 60
"""Characters of an offending value shown in a problem."""


def is_scenario_file(name: str) -> bool:
    """Whether a file called ``name`` is collected as a scenario test by the plugin."""
    return any(fnmatch(name, pattern) for pattern in SCENARIO_FILE_PATTERNS)


def _location(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in ("transition", "ask") and text.endswith("]"):
            continue  # the discriminator tag of a required entry, not a field
        else:
            text += f".{part}" if text else str(part)
    return text or "(top level)"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_INPUT else text[:_SHOWN_INPUT - 3] + "..."


def _problems(error: ValidationError) -> list[str]:
    return [f"{_location(tuple(e['loc']))}: {e['msg']}"
            + ("" if e["type"] == "missing" or "input" not in e
               else f" (got {_shown(e['input'])})")
            for e in error.errors(include_url=False)]


def _format(path: Path) -> ScenarioFormat:
    found = _SUFFIXES.get(path.suffix.lower())
    if found is None:
        raise ScenarioFileError(path, [f"unknown file type {path.suffix!r}; use .yaml, .yml "
                                       "or .json"])
    return found


def load_scenario(path: Path | str, *, shown_as: str | None = None) -> Scenario:
    """Load one scenario from a YAML or JSON file.

    Args:
        path: the file.
        shown_as: how messages name the file (default: ``path`` as given).

    Raises:
        ScenarioFileError: the file is missing, unparsable, or not a valid scenario; each
            problem names its field path and, where it helps, the offending value.
    """
    path = Path(path)
    name: Path | str = shown_as or path
    fmt = _format(path)
    try:
        data = parse_text(read_text(path, source=str(name)), fmt, source=str(name))
    except DocumentError as exc:
        where = "(top level): " if exc.problem.startswith("not valid") else ""
        raise ScenarioFileError(name, [where + exc.problem]) from None
    if not isinstance(data, dict):
        got = "an empty file" if data is None else type(data).__name__
        raise ScenarioFileError(name, ["(top level): expected a mapping of scenario fields, "
                                       f"got {got}"])
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioFileError(name, _problems(exc)) from None


def _restore_implicit(scenario: Scenario, data: dict[str, JsonValue]) -> None:
    """Put back the defaults a file must still spell out to load as ``scenario``: the
    ``kind`` of each required entry (it tells a transition from an ask), and the review
    minutes of a ``slow_owner`` persona (left out, they would become the slow default)."""
    expect = data.get("expect")
    entries = expect.get("required") if isinstance(expect, dict) else None
    if isinstance(expect, dict) and isinstance(entries, list):
        expect["required"] = [{"kind": required.kind, **entry} if isinstance(entry, dict)
                              else entry
                              for required, entry in zip(scenario.expect.required, entries,
                                                         strict=True)]
    personas = data.get("personas")
    for role, config in scenario.personas.items():
        written = personas.get(role.value) if isinstance(personas, dict) else None
        if isinstance(written, dict) and Perturbation.SLOW_OWNER in config.perturbations:
            written.setdefault("review_minutes", config.review_minutes)


def _ordered(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
    ordered = {key: data[key] for key in FILE_KEY_ORDER if key in data}
    ordered.update((key, value) for key, value in data.items() if key not in ordered)
    return ordered


def readable_data(scenario: Scenario) -> dict[str, JsonValue]:
    """``scenario`` as a file holds it: keys in :data:`FILE_KEY_ORDER`, values at their
    defaults left out, and still loading back to the very same scenario (if leaving out
    defaults ever changed it, every value is written)."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    _restore_implicit(scenario, data)
    if Scenario.model_validate(data) != scenario:
        data = scenario.model_dump(mode="json")
    return _ordered(data)


def dump_scenario(scenario: Scenario, fmt: ScenarioFormat = "yaml", *,
                  readable: bool = False) -> str:
    """One scenario as YAML or JSON text.

    Args:
        scenario: the scenario.
        fmt: ``yaml`` or ``json``.
        readable: write it as a person reads it (:func:`readable_data`: key order
            :data:`FILE_KEY_ORDER`, defaults left out); otherwise every field, keys sorted.
    """
    data = readable_data(scenario) if readable else scenario.model_dump(mode="json")
    if fmt == "json":
        return json.dumps(data, indent=2, sort_keys=not readable, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=not readable, allow_unicode=True)


def export_suite(suite: Suite, directory: Path | str, fmt: ScenarioFormat = "yaml") -> list[Path]:
    """Write one readable file per scenario (see :func:`dump_scenario`), named
    ``NNN-<id>.scenario.<fmt>``: the order survives, and the pytest plugin collects it.

    Returns:
        The files written, in suite order.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(len(suite))))
    written = []
    for index, scenario in enumerate(suite, start=1):
        path = directory / f"{index:0{width}d}-{scenario.id}.scenario.{fmt}"
        path.write_text(dump_scenario(scenario, fmt, readable=True), encoding="utf-8")
        written.append(path)
    return written


def scenario_files(directory: Path | str) -> list[Path]:
    """The scenario files of a suite directory (``.yaml``, ``.yml``, ``.json``), in
    file-name order: the run order of :func:`load_suite`.

    Raises:
        ScenarioFileError: ``directory`` is not a directory, or holds no such file.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise ScenarioFileError(directory, ["not a directory of scenario files"])
    files = sorted(p for p in directory.iterdir() if p.suffix.lower() in _SUFFIXES)
    if not files:
        raise ScenarioFileError(directory, ["holds no .yaml, .yml or .json scenario files"])
    return files


def load_suite(directory: Path | str, suite_id: str | None = None) -> Suite:
    """Load every scenario file of a directory, in file-name order, as one suite.

    Raises:
        ScenarioFileError: a file is invalid (the first one found), or there is none.
    """
    directory = Path(directory)
    scenarios = tuple(load_scenario(path) for path in scenario_files(directory))
    try:
        return Suite(id=suite_id or directory.name, scenarios=scenarios)
    except ValidationError as exc:
        raise ScenarioFileError(directory, _problems(exc)) from exc


def scenario_schema() -> dict[str, JsonValue]:
    """The JSON Schema of a scenario file (``remit suite schema``)."""
    schema: dict[str, JsonValue] = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "remit scenario"
    return schema
