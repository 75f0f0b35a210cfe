"""The suite cache: built suites kept on disk under a key that names everything they
depend on, so that a command reads ``core`` instead of composing, sampling and
verifying it again (about two seconds, in every ``remit run`` and ``remit report``).

A cache that can serve a stale suite would be worse than none, so an entry is used
only when its key equals the key of the code that asks for it. The key is the SHA-256
of:

- remit's source: every file of the ``remit`` package (code and data), by path and
  content, so that any edit to remit, whatever it touches, gives another key;
- the Python version, and the version of each third-party distribution whose code the
  build runs through (:data:`BUILD_DISTRIBUTIONS`);
- what was built and with which parameters (``core``, its size and its seed), and the
  format of an entry (:data:`CACHE_FORMAT`).

A process whose remit files changed on disk after it loaded them (an edit during a long
test session) neither reads nor writes the cache: its code is not the code the key
would name. Reading checks the entry's key and, through the caller
(:func:`remit.harness.build_core`), that its suite's fingerprint recomputed from its
scenarios is the one recorded; a missing, partial, corrupt or foreign entry is a miss,
and the suite is built and written again. Entries are written atomically (a temporary
file renamed over the entry), so a process never reads another's half-written file, and
only the newest :data:`KEPT_ENTRIES` are kept.

Where: ``$REMIT_CACHE_DIR``, else the user's cache directory (``$XDG_CACHE_HOME/remit``
or ``~/.cache/remit``; ``~/Library/Caches/remit`` on macOS; ``%LOCALAPPDATA%\\remit`` on
Windows). ``REMIT_NO_CACHE=1`` turns the cache off: every suite is then built. A
directory that cannot be created or written leaves the cache off for that process;
the cache never makes a command fail.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

__all__ = ["BUILD_DISTRIBUTIONS", "CACHE_DIR_ENV", "CACHE_FORMAT", "KEPT_ENTRIES",
           "NO_CACHE_ENV", "cache_dir", "cache_key", "read_entry", "source_digest",
           "write_entry"]

_LOG = logging.getLogger(__name__)

CACHE_DIR_ENV = "REMIT_CACHE_DIR"
"""The environment variable naming the cache directory."""
NO_CACHE_ENV = "REMIT_NO_CACHE"
"""The environment variable that turns the cache off (any value but ``""`` or ``0``)."""
CACHE_FORMAT = 1
"""The format of an entry; a change of format changes every key."""
KEPT_ENTRIES = 8
"""Entries kept per cache directory: the newest, so that a few versions of remit used in
turn (branches, worktrees) each keep theirs."""

BUILD_DISTRIBUTIONS: Mapping[str, str] = {
    "annotated_types": "annotated-types",
    "faker": "faker",
    "flexcache": "flexcache",
    "flexparser": "flexparser",
    "numpy": "numpy",
    "pint": "pint",
    "platformdirs": "platformdirs",
    "pydantic": "pydantic",
    "pydantic_core": "pydantic-core",
    "six": "six",
    "transitions": "transitions",
    "typing_extensions": "typing-extensions",
    "typing_inspection": "typing-inspection",
    "yaml": "PyYAML",
}
"""The third-party modules that building ``core`` imports, and their distributions,
whose versions are part of the key (a test holds this list to what the build imports)."""

_PACKAGE = Path(__file__).resolve().parents[1]
"""The ``remit`` package directory."""


def cache_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The cache directory, or ``None`` when the cache is off (``REMIT_NO_CACHE``)."""
    env = os.environ if environ is None else environ
    if env.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    chosen = env.get(CACHE_DIR_ENV, "")
    if chosen:
        return Path(chosen).expanduser()
    if sys.platform == "win32":
        local = env.get("LOCALAPPDATA", "")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "remit"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "remit"
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "remit"


def _files(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*")
                  if p.is_file() and "__pycache__" not in p.relative_to(package).parts
                  and p.suffix != ".pyc")


def source_digest(package: Path = _PACKAGE) -> str:
    """SHA-256 over every file of the ``remit`` package (or ``package``): each one's path
    and bytes, compiled files left out. It changes with any change to remit's code or
    data, and with a file added, removed or renamed."""
    digest = hashlib.sha256()
    for path in _files(package):
        content = path.read_bytes()
        digest.update(f"{path.relative_to(package).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


_LOADED_AT = time.time()
"""When this process loaded remit (this module is imported with the harness)."""


@functools.cache
def _loaded_source_digest() -> str | None:
    """The source digest of the remit this process runs, or ``None`` when a file of the
    package changed after the process loaded it (an edit during a long test session):
    the files on disk are then not the code that would build the suite."""
    if any(path.stat().st_mtime > _LOADED_AT for path in _files(_PACKAGE)):
        return None
    return source_digest()


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


def cache_key(what: str, parameters: Mapping[str, int | str]) -> dict[str, str] | None:
    """Everything an entry of ``what`` built with ``parameters`` depends on (see the
    module docstring; its :func:`json.dumps` with sorted keys is hashed into the key), or
    ``None`` when remit's files changed after this process loaded them: a process whose
    code is not the code on disk neither reads nor writes the cache."""
    source = _loaded_source_digest()
    if source is None:
        return None
    return {
        "format": str(CACHE_FORMAT),
        "what": what,
        **{f"parameter {name}": str(value) for name, value in sorted(parameters.items())},
        "remit source": source,
        "python": sys.version,
        **{f"version {dist}": _version(dist)
           for dist in sorted(set(BUILD_DISTRIBUTIONS.values()))},
    }


def _entry_path(directory: Path, key: Mapping[str, str]) -> Path:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    return directory / f"{key['what']}-{digest[:32]}.json"


def read_entry(key: Mapping[str, str], environ: Mapping[str, str] | None = None
               ) -> str | None:
    """The payload stored under ``key``, or ``None``: the cache is off, or holds no
    readable entry whose recorded key is ``key``."""
    directory = cache_dir(environ)
    if directory is None:
        return None
    path = _entry_path(directory, key)
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        _LOG.debug("suite cache: ignoring unreadable entry %s: %s", path, exc)
        return None
    if not isinstance(entry, dict) or entry.get("key") != dict(key) \
            or not isinstance(entry.get("payload"), str):
        _LOG.debug("suite cache: ignoring entry %s: it was written for another key", path)
        return None
    payload: str = entry["payload"]
    return payload


def write_entry(key: Mapping[str, str], payload: str,
                environ: Mapping[str, str] | None = None) -> Path | None:
    """Store ``payload`` under ``key`` (atomically), then keep only the newest
    :data:`KEPT_ENTRIES` entries; return the entry's path, or ``None`` when the cache is
    off or cannot be written (never an error)."""
    directory = cache_dir(environ)
    if directory is None:
        return None
    path = _entry_path(directory, key)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"key": dict(key), "payload": payload}, out)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _prune(directory)
    except OSError as exc:
        _LOG.debug("suite cache: cannot write %s: %s", path, exc)
        return None
    return path


def _prune(directory: Path) -> None:
    """Delete all but the newest :data:`KEPT_ENTRIES` entries (another process may be
    pruning too: a file already gone is fine)."""
    entries = []
    for entry in directory.glob("*.json"):
        try:
            entries.append((entry.stat().st_mtime, entry.name, entry))
        except FileNotFoundError:
            continue
    for _, _, stale in sorted(entries, reverse=True)[KEPT_ENTRIES:]:
        stale.unlink(missing_ok=True)
