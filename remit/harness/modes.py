"""Control modes by name or by file, and how a run's custom modes are kept with it.

``--modes all_tools,dual_control,agent-5pct.yaml`` (``remit run``, ``pytest
--remit-modes``, ``remit authority who-can --mode``) mixes built-in names with mode
files (:mod:`remit.authority.mode_files`). A run records the full definition of every
custom mode in its manifest's metadata, so a resume rebuilds the very same mode even if
the file has changed or gone since, and the mode's fingerprint proves it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import JsonValue, ValidationError

from remit.authority import (
    BUILTIN_MODE_NAMES,
    ControlMode,
    ModeError,
    UnknownModeError,
    load_mode_spec,
    mode_by_name,
)
from remit.authority.loading import MapFormat
from remit.documents import DocumentError, read_text
from remit.errors import MapError

__all__ = ["CUSTOM_MODES_KEY", "ModeFileError", "custom_mode_metadata", "load_mode",
           "load_modes", "modes_from_metadata"]

CUSTOM_MODES_KEY = "custom_modes"
"""The manifest metadata key holding each custom mode's definition, by name."""

_SUFFIXES: dict[str, MapFormat] = {".yaml": "yaml", ".yml": "yaml", ".json": "json"}


class ModeFileError(ModeError):
    """A mode file that cannot be read or does not describe a usable mode.

    Attributes:
        path: the file.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        super().__init__(path, f"mode file {path}: {problem}")


def load_mode(spec: str) -> ControlMode:
    """The control mode ``spec`` names: a built-in name, or a path to a mode file
    (``.yaml``, ``.yml`` or ``.json``).

    Raises:
        UnknownModeError: ``spec`` is neither a built-in name nor a mode file's path.
        ModeFileError: the file cannot be read (missing, a directory, not UTF-8), does not
            parse (one line naming the line and column) or does not describe a usable
            mode.
    """
    spec = spec.strip()
    if spec in BUILTIN_MODE_NAMES:
        return mode_by_name(spec)
    path = Path(spec)
    text_format = _SUFFIXES.get(path.suffix.lower())
    if text_format is None:
        raise UnknownModeError(spec)
    try:
        text = read_text(path)
    except DocumentError as exc:
        raise ModeFileError(spec, exc.problem) from None
    try:
        return load_mode_spec(text, format=text_format, source=spec).build()
    except MapError as exc:
        raise ModeFileError(spec, "; ".join(exc.problems)) from exc
    except ModeError as exc:
        raise ModeFileError(spec, str(exc)) from exc


def load_modes(specs: str, *, option: str = "--modes") -> list[ControlMode]:
    """The control modes of a comma-separated list of built-in names and mode files.

    Args:
        specs: e.g. ``"dual_control,agent-5pct.yaml"``.
        option: how messages name the option the list came from.

    Raises:
        ValueError: the list is empty or names a mode twice.
        UnknownModeError, ModeFileError: as :func:`load_mode`.
    """
    chosen = [load_mode(spec) for spec in specs.split(",") if spec.strip()]
    if not chosen:
        raise ValueError(f"{option} is empty; give at least one of "
                         f"{', '.join(BUILTIN_MODE_NAMES)} or a mode file")
    names = [mode.name for mode in chosen]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{option} names a mode twice: {', '.join(twice)}; give each once")
    return chosen


def custom_mode_metadata(modes: Sequence[ControlMode]) -> dict[str, JsonValue]:
    """The manifest metadata that keeps ``modes``' custom modes (none: empty)."""
    custom: dict[str, JsonValue] = {
        mode.name: mode.model_dump(mode="json")
        for mode in modes if mode.name not in BUILTIN_MODE_NAMES}
    return {CUSTOM_MODES_KEY: custom} if custom else {}


def modes_from_metadata(names: Sequence[str],
                        metadata: Mapping[str, JsonValue]) -> list[ControlMode]:
    """A run's modes, rebuilt: built-in ones by name, custom ones from their recorded
    definitions.

    Raises:
        ModeError: a custom mode has no recorded definition (a run recorded before modes
            were kept), or its definition no longer validates.
    """
    recorded = metadata.get(CUSTOM_MODES_KEY)
    custom = recorded if isinstance(recorded, dict) else {}
    modes = []
    for name in names:
        if name in BUILTIN_MODE_NAMES:
            modes.append(mode_by_name(name))
            continue
        if name not in custom:
            raise ModeError(name, f"custom mode {name!r} has no recorded definition in the "
                                  "run's manifest; run it again instead")
        try:
            modes.append(ControlMode.model_validate(custom[name]))
        except ValidationError as exc:
            raise ModeError(name, f"the recorded definition of custom mode {name!r} no "
                                  f"longer validates ({exc.error_count()} errors); run it "
                                  "again instead") from exc
    return modes
