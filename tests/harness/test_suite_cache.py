"""The suite cache keeps the verified ``core`` build on disk under a key naming everything
it depends on, and never serves an entry that is not the one this code would build.

These tests build a small ``core`` (a few scenarios) into a cache directory of their own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import remit
from remit.harness import build_core
from remit.harness.suite_cache import (
    BUILD_DISTRIBUTIONS,
    CACHE_DIR_ENV,
    KEPT_ENTRIES,
    NO_CACHE_ENV,
    cache_dir,
    cache_key,
    read_entry,
    source_digest,
    write_entry,
)

N = 6  # scenarios in the small core these tests build


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory, in use for the test."""
    directory = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_ENV, str(directory))
    monkeypatch.delenv(NO_CACHE_ENV, raising=False)
    return directory


def _entry(cache: Path) -> Path:
    (entry,) = cache.glob("core-*.json")
    return entry


def _edit(entry: Path, change: dict[str, object]) -> None:
    """Change fields of the build stored in ``entry``."""
    wrapper = json.loads(entry.read_text(encoding="utf-8"))
    payload = json.loads(wrapper["payload"])
    payload["build"].update(change)
    wrapper["payload"] = json.dumps(payload)
    entry.write_text(json.dumps(wrapper), encoding="utf-8")


def _key(n: int = N, seed: int = 0) -> dict[str, str]:
    key = cache_key("core", {"n": n, "seed": seed})
    assert key is not None  # remit's files did not change while the tests ran
    return key


def test_a_build_is_written_then_read_back_equal(cache: Path) -> None:
    built = build_core.__wrapped__(n=N)
    entry = _entry(cache)
    fresh = build_core.__wrapped__(n=N, cached=False)
    assert built == fresh.model_copy(update={"seconds": built.seconds})
    _edit(entry, {"seconds": 123.0})  # a mark only a read of this entry can show
    read = build_core.__wrapped__(n=N)
    assert read.seconds == 123.0
    assert read.model_copy(update={"seconds": built.seconds}) == built
    assert read.suite.fingerprint == built.suite.fingerprint


def test_an_entry_whose_scenarios_do_not_give_its_fingerprint_is_rebuilt(cache: Path) -> None:
    built = build_core.__wrapped__(n=N)
    entry = _entry(cache)
    suite = json.loads(json.loads(entry.read_text(encoding="utf-8"))["payload"])["build"]["suite"]
    suite["scenarios"][0]["title"] = "tampered"
    _edit(entry, {"suite": suite, "seconds": 123.0})
    again = build_core.__wrapped__(n=N)
    assert again.suite == built.suite
    assert again.seconds != 123.0
    assert "tampered" not in entry.read_text(encoding="utf-8")  # written again


@pytest.mark.parametrize("garbage", ["", "{", "[]", '{"key": {}, "payload": "x"}'])
def test_an_unreadable_entry_is_a_miss_and_is_written_again(cache: Path, garbage: str) -> None:
    built = build_core.__wrapped__(n=N)
    entry = _entry(cache)
    entry.write_text(garbage, encoding="utf-8")
    assert build_core.__wrapped__(n=N).suite == built.suite
    assert json.loads(entry.read_text(encoding="utf-8"))["key"] == _key()


def test_the_key_names_the_source_the_versions_and_the_parameters() -> None:
    key = _key()
    assert key["remit source"] == source_digest()
    assert key["python"] == sys.version
    assert {f"version {d}" for d in BUILD_DISTRIBUTIONS.values()} <= set(key)
    assert key != _key(seed=1)
    assert key != _key(n=N + 1)


def test_an_entry_is_read_only_under_its_own_key(cache: Path) -> None:
    key = _key()
    write_entry(key, "payload")
    assert read_entry(key) == "payload"
    for field in ("remit source", "python", "version pydantic", "parameter n"):
        assert read_entry({**key, field: "other"}) is None, field


def test_the_source_digest_follows_every_file_but_compiled_ones(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "data.yaml").write_text("k: v\n")
    first = source_digest(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert source_digest(package) == first
    (package / "sub" / "data.yaml").write_text("k: w\n")
    changed = source_digest(package)
    assert changed != first
    (package / "sub" / "data.yaml").rename(package / "sub" / "other.yaml")
    assert source_digest(package) not in (first, changed)


def test_no_cache_builds_and_writes_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setenv(NO_CACHE_ENV, "1")
    assert cache_dir() is None
    assert len(build_core.__wrapped__(n=N).suite) == N
    assert not cache.exists()


def test_an_unwritable_cache_directory_is_no_error(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker / "cache"))
    monkeypatch.delenv(NO_CACHE_ENV, raising=False)
    assert len(build_core.__wrapped__(n=N).suite) == N
    assert write_entry(_key(), "payload") is None


def test_the_default_directory_is_the_users_cache_directory(tmp_path: Path) -> None:
    assert cache_dir({CACHE_DIR_ENV: str(tmp_path)}) == tmp_path
    assert cache_dir({NO_CACHE_ENV: "1", CACHE_DIR_ENV: str(tmp_path)}) is None
    assert cache_dir({NO_CACHE_ENV: "0", CACHE_DIR_ENV: str(tmp_path)}) == tmp_path
    if sys.platform.startswith("linux"):
        assert cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "remit"
        assert cache_dir({}) == Path.home() / ".cache" / "remit"
        assert cache_dir({"XDG_CACHE_HOME": "relative"}) == Path.home() / ".cache" / "remit"


def test_only_the_newest_entries_are_kept(cache: Path) -> None:
    keys = [_key(n=n) for n in range(KEPT_ENTRIES + 3)]
    for key in keys:
        write_entry(key, "payload")
    assert len(list(cache.glob("*.json"))) == KEPT_ENTRIES
    assert read_entry(keys[-1]) == "payload"


def test_the_key_names_every_library_the_build_runs_through(tmp_path: Path) -> None:
    """Building ``core`` imports no third-party module whose version the key leaves out."""
    script = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        "from remit.harness import build_core\n"
        f"build_core(n={N}, cached=False)\n"
        "print(json.dumps({name: getattr(module, '__file__', None) or ''\n"
        "                  for name, module in list(sys.modules.items())\n"
        "                  if name not in before}))\n")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=tmp_path)
    libraries = {sysconfig.get_paths()[p] for p in ("purelib", "platlib")}
    third_party = {name.split(".")[0] for name, path in json.loads(shown.stdout).items()
                   if any(path.startswith(lib) for lib in libraries)}
    assert "pydantic" in third_party
    assert third_party - {"remit"} <= set(BUILD_DISTRIBUTIONS)


_EDITED_WHILE_RUNNING = """
import os, sys, time
from pathlib import Path
import remit.harness
from remit.harness import build_core
if sys.argv[1] == "edit":  # an edit after the process loaded remit, as in a long session
    edited = Path(remit.harness.__file__).parent / "suites.py"
    os.utime(edited, (time.time() + 5, time.time() + 5))
build_core(n={n})
"""


@pytest.mark.parametrize("edit", ["edit", "none"])
def test_a_process_whose_files_changed_since_it_loaded_them_leaves_the_cache_alone(
        tmp_path: Path, edit: str) -> None:
    """Its code is not the code on disk: an entry it wrote would carry the wrong key."""
    shutil.copytree(Path(remit.__file__).parent, tmp_path / "tree" / "remit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    subprocess.run([sys.executable, "-c", _EDITED_WHILE_RUNNING.format(n=N), edit],
                   check=True, cwd=tmp_path,
                   env={**os.environ, "PYTHONPATH": str(tmp_path / "tree"),
                        CACHE_DIR_ENV: str(cache), NO_CACHE_ENV: ""})
    assert len(list(cache.glob("core-*.json"))) == (0 if edit == "edit" else 1)
