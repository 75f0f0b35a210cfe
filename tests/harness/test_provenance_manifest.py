"""build_manifest, the hashes it records, the git state and run ids."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta, timezone
from importlib import metadata
from pathlib import Path

import pytest

import remit
from remit.actors import load_agent_factory
from remit.authority import Role, builtin_modes, map_hash, mode_by_name
from remit.harness import run
from remit.harness.manifest import SCORER_VERSION, ErrorTreatment, RunManifest
from remit.harness.provenance import (
    ManifestError,
    build_manifest,
    config_hash,
    git_revision,
    new_run_id,
    persona_config_hash,
    remit_version,
)
from remit.scenarios import PersonaConfig, Perturbation, Suite, builtin_scenarios

STARTED = datetime(2026, 11, 29, 15, 30, 12, tzinfo=UTC)
REPO = Path(__file__).resolve().parents[2]
CONFIG = {"model": "gpt-x", "temperature": 0.2, "prompt_hash": "abc"}


def _suite(count: int = 2) -> Suite:
    return Suite(id="core", scenarios=tuple(builtin_scenarios()[:count]))


def _build(cwd: Path, suite: Suite | None = None, **overrides: object) -> RunManifest:
    arguments: dict[str, object] = {
        "run_id": "r-20261129-153012-000001", "suite": suite or _suite(),
        "modes": list(builtin_modes().values()), "agent_id": "baseline",
        "agent_config": CONFIG, "trials": 2, "seed": 3,
        "error_treatment": ErrorTreatment(retries=1, on_exhausted="failure"),
        "started_at": STARTED, "cwd": cwd,
    }
    arguments.update(overrides)
    return build_manifest(**arguments)  # type: ignore[arg-type]


def test_manifest_of_a_real_run_records_what_was_run(tmp_path: Path) -> None:
    suite = _suite()
    modes = list(builtin_modes().values())
    result = run(suite.scenarios, modes, load_agent_factory("baseline"), trials=2, seed=3)
    manifest = _build(tmp_path, suite, metadata={"note": "smoke"})
    assert [m.name for m in manifest.modes] == list(result.summaries)
    assert len({m.fingerprint for m in manifest.modes}) == len(modes) == 3
    assert [m.fingerprint for m in manifest.modes] == [m.fingerprint for m in modes]
    assert [m.map_hash for m in manifest.modes] == [map_hash(m.map) for m in modes]
    assert (manifest.suite_id, manifest.suite_fingerprint) == ("core", suite.fingerprint)
    assert manifest.scorer_version == SCORER_VERSION
    assert manifest.remit_version == metadata.version("remit")
    assert (manifest.trials, manifest.seed, manifest.agent_id) == (2, 3, "baseline")
    assert manifest.error_treatment.on_exhausted == "failure"
    assert manifest.agent_config == CONFIG
    assert manifest.metadata == {"note": "smoke"}
    assert (manifest.started_at, manifest.ended_at) == (STARTED, None)
    assert re.fullmatch(r"[0-9a-f]{64}", manifest.agent_config_hash)
    assert re.fullmatch(r"[0-9a-f]{64}", manifest.persona_config_hash)


def test_same_inputs_give_the_same_manifest(tmp_path: Path) -> None:
    first = _build(tmp_path)
    again = _build(tmp_path, agent_config=dict(reversed(list(CONFIG.items()))))
    assert first == again
    assert first.model_dump_json() == again.model_dump_json()


def test_agent_config_hash_changes_with_the_configuration(tmp_path: Path) -> None:
    base = _build(tmp_path).agent_config_hash
    warmer = _build(tmp_path, agent_config={**CONFIG, "temperature": 0.7}).agent_config_hash
    assert base != warmer
    assert config_hash({"b": [1, 2], "a": None}) == config_hash({"a": None, "b": [1, 2]})
    assert config_hash({"a": 1}) != config_hash({"a": 1.5})


def test_persona_hash_covers_every_scenarios_effective_personas() -> None:
    suite = _suite(3)
    first = suite.scenarios[0]
    explicit = first.model_copy(update={"personas": {
        **first.personas, Role.FINANCE: first.persona(Role.FINANCE)}})
    slower = first.model_copy(update={"personas": {
        **first.personas,
        Role.FINANCE: PersonaConfig(review_minutes=99, perturbations=(Perturbation.SLOW_OWNER,)),
    }})
    rest = suite.scenarios[1:]
    assert persona_config_hash(suite) == persona_config_hash(_suite(3))
    # a role given the defaults explicitly runs like a role left out
    assert persona_config_hash(Suite(id="x", scenarios=(explicit, *rest))) == (
        persona_config_hash(suite))
    assert persona_config_hash(Suite(id="x", scenarios=(slower, *rest))) != (
        persona_config_hash(suite))
    # suite order is part of the hash
    assert persona_config_hash(Suite(id="x", scenarios=tuple(reversed(suite.scenarios)))) != (
        persona_config_hash(suite))


def test_modes_must_be_given_and_named_once(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"modes=\[\]: a run needs at least one"):
        _build(tmp_path, modes=[])
    twice = [mode_by_name("dual_control"), mode_by_name("dual_control")]
    with pytest.raises(ManifestError, match=r"modes repeat name\(s\) \['dual_control'\]"):
        _build(tmp_path, modes=twice)


def test_default_error_treatment_and_metadata(tmp_path: Path) -> None:
    manifest = _build(tmp_path, error_treatment=None)
    assert manifest.error_treatment == ErrorTreatment()
    assert manifest.metadata == {}


def test_git_state_is_none_outside_a_checkout(tmp_path: Path) -> None:
    assert git_revision(tmp_path) == (None, None)
    manifest = _build(tmp_path)
    assert (manifest.git_commit, manifest.git_dirty) == (None, None)


def test_git_state_is_none_when_git_is_missing(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert git_revision(REPO) == (None, None)


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(),
                    reason="needs git and a git checkout of remit")
def test_git_state_is_recorded_inside_the_checkout() -> None:
    commit, dirty = git_revision(REPO)
    assert commit is not None
    assert re.fullmatch(r"[0-9a-f]{40}", commit)
    assert isinstance(dirty, bool)
    manifest = _build(REPO)
    assert manifest.git_commit == commit


def test_remit_version_falls_back_to_the_package_attribute(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert remit_version() == remit.__version__


def test_run_ids_are_readable_and_sort_by_start_time() -> None:
    rng = random.Random(0)
    times = [STARTED + timedelta(seconds=s) for s in (0, 1, 59, 3600, 86400 * 40)]
    ids = [new_run_id(t, rng=rng) for t in times]
    assert re.fullmatch(r"r-20261129-153012-[0-9a-f]{6}", ids[0])
    assert sorted(reversed(ids)) == ids
    # an aware time in another zone is written in UTC
    east = STARTED.astimezone(timezone(timedelta(hours=5)))
    assert new_run_id(east, rng=rng).startswith("r-20261129-153012-")


def test_run_ids_of_the_same_second_are_unique() -> None:
    rng = random.Random(1)
    ids = {new_run_id(STARTED, rng=rng) for _ in range(300)}
    assert len(ids) == 300
    assert re.fullmatch(r"r-20261129-153012-[0-9a-f]{6}", new_run_id(STARTED))  # secrets


def test_run_id_refuses_a_naive_time() -> None:
    with pytest.raises(ManifestError, match="naive; pass an aware time"):
        new_run_id(datetime(2026, 1, 1))  # noqa: DTZ001 - the naive time under test


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_state_names_the_commit_and_any_change(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.name=remit", "-c", "user.email=r@example.com",
                               *args], cwd=tmp_path, check=True, capture_output=True,
                              text=True).stdout.strip()

    git("init", "-q")
    assert git_revision(tmp_path) == (None, None)  # no commit yet
    (tmp_path / "a.txt").write_text("one\n")
    git("add", "a.txt")
    git("commit", "-q", "-m", "first")
    head = git("rev-parse", "HEAD")
    assert git_revision(tmp_path) == (head, False)
    (tmp_path / "a.txt").write_text("two\n")
    assert git_revision(tmp_path) == (head, True)
    git("checkout", "-q", "a.txt")
    (tmp_path / "new.txt").write_text("untracked\n")
    assert git_revision(tmp_path) == (head, True)
    assert _build(tmp_path).git_commit == head
    git("add", "new.txt")
    git("commit", "-q", "-m", "second")
    # a process that runs again after a commit records the new commit, not the first
    assert _build(tmp_path).git_commit == git("rev-parse", "HEAD") != head
