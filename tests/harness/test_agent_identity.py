"""The agent's code identity: import path, source hash, declared configuration; two
different agents never share an agent_config_hash, and remit show names the code."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import remit.actors.baseline
import remit.actors.oracle
from remit.actors import load_agent_factory
from remit.actors.llm import llm_agent_factory, parse_llm_config
from remit.authority import builtin_modes
from remit.cli import app
from remit.harness import (
    ManifestError,
    agent_config_hash,
    agent_identity,
    build_manifest,
    builtin_suite,
)
from remit.harness.provenance import config_hash
from remit.harness.settings import agent_factory

AGENTS = '''
from remit.actors import BaselineAgent, TrialInfo
from remit.world import ToolCall
from helpers_mod import Helper


class Quitter:
    """Ends at once."""

    def __init__(self, info: TrialInfo) -> None: ...
    def start(self, briefing: object) -> None: ...
    def act(self, observation: object) -> ToolCall:
        return ToolCall(tool="end", arguments={"summary": "no"})


class Stubborn(Quitter):
    remit_config = {"patience": 3, "style": "terse"}


class Tuned(Quitter):
    @classmethod
    def remit_config(cls) -> dict[str, object]:
        return {"temperature": 0.5}


class NoInfo:
    def __init__(self) -> None: ...
    def start(self, briefing: object) -> None: ...
    def act(self, observation: object) -> ToolCall:
        return ToolCall(tool="end", arguments={"summary": "no"})


class Broken(Quitter):
    remit_config = {"when": object()}


def build(info: TrialInfo) -> Helper:
    return Helper(info)


def build_baseline(info: TrialInfo) -> BaselineAgent:
    return BaselineAgent(info)


build_baseline.remit_config = lambda: {"variant": "b"}
'''

HELPERS = '''
from remit.actors import TrialInfo
from remit.world import ToolCall


class Helper:
    def __init__(self, info: TrialInfo) -> None: ...
    def start(self, briefing: object) -> None: ...
    def act(self, observation: object) -> ToolCall:
        return ToolCall(tool="end", arguments={"summary": "no"})
'''


@pytest.fixture
def agents_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``my_agents`` and ``helpers_mod`` importable from a fresh directory."""
    (tmp_path / "my_agents.py").write_text(AGENTS, encoding="utf-8")
    (tmp_path / "helpers_mod.py").write_text(HELPERS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in ("my_agents", "helpers_mod"):
        sys.modules.pop(name, None)


def _source_hash(*modules: object) -> str:
    digest = hashlib.sha256()
    for module in modules:
        digest.update(inspect.getsource(module).encode())  # type: ignore[arg-type]
        digest.update(b"\0")
    return digest.hexdigest()


def test_a_built_in_agent_is_named_and_hashed_by_its_module() -> None:
    identity = agent_identity(load_agent_factory("baseline"))
    assert identity.import_path == "remit.actors.baseline:BaselineAgent"
    assert identity.modules == ("remit.actors.baseline",)
    assert identity.code_hash == _source_hash(remit.actors.baseline)
    assert identity.declared_config == {}
    oracle = agent_identity(load_agent_factory("oracle"))
    assert oracle.import_path == "remit.actors.oracle:OracleAgent"
    assert oracle.code_hash == _source_hash(remit.actors.oracle)


def test_a_factory_hashes_the_module_of_the_class_it_builds_too(agents_dir: Path) -> None:
    identity = agent_identity(load_agent_factory("my_agents:build"))
    mine, helpers = (importlib.import_module(n) for n in ("my_agents", "helpers_mod"))
    assert identity.import_path == "my_agents:build"
    assert identity.modules == ("my_agents", "helpers_mod")
    assert identity.code_hash == _source_hash(mine, helpers)


def test_declared_configuration_comes_from_remit_config(agents_dir: Path) -> None:
    assert agent_identity(load_agent_factory("my_agents:Stubborn")).declared_config == {
        "patience": 3, "style": "terse"}
    assert agent_identity(load_agent_factory("my_agents:Tuned")).declared_config == {
        "temperature": 0.5}
    baseline_built = agent_identity(load_agent_factory("my_agents:build_baseline"))
    assert baseline_built.declared_config == {"variant": "b"}
    assert baseline_built.modules == ("my_agents", "remit.actors.baseline")
    with pytest.raises(ManifestError, match=(
            r"^cannot record the configuration agent factory my_agents:Broken declares in "
            r"remit_config: when: input was not a valid JSON value; make remit_config a dict "
            r"of JSON values, or a function, static method or class method returning one$")):
        agent_identity(load_agent_factory("my_agents:Broken"))


def test_a_class_built_without_arguments_is_named_not_its_builder(agents_dir: Path) -> None:
    for factory in (load_agent_factory("my_agents:NoInfo"),
                    agent_factory(importlib.import_module("my_agents").NoInfo)):
        identity = agent_identity(factory)
        assert identity.import_path == "my_agents:NoInfo"
        assert identity.modules == ("my_agents",)


def test_a_lambda_has_no_import_path_and_an_llm_agent_names_remits_module(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert agent_identity(lambda info: None).import_path is None
    monkeypatch.setenv("OPENAI_API_KEY", "not-used")
    identity = agent_identity(llm_agent_factory(parse_llm_config("openai:some-model")))
    assert identity.import_path == "remit.actors.llm.agent:LlmAgentFactory"
    assert identity.modules == ("remit.actors.llm.agent",)


def test_editing_the_agents_source_changes_its_code_hash(agents_dir: Path) -> None:
    before = agent_identity(load_agent_factory("my_agents:Quitter"))
    path = agents_dir / "my_agents.py"
    path.write_text(path.read_text(encoding="utf-8").replace('"no"', '"bye"'),
                    encoding="utf-8")
    importlib.reload(importlib.import_module("my_agents"))
    after = agent_identity(load_agent_factory("my_agents:Quitter"))
    assert after.import_path == before.import_path
    assert after.code_hash != before.code_hash


def test_different_agents_never_share_a_config_hash(agents_dir: Path) -> None:
    specs = ["baseline", "oracle", "my_agents:Quitter", "my_agents:Stubborn", "my_agents:Tuned"]
    manifests = [build_manifest(
        run_id="r-1", suite=builtin_suite("handwritten"),
        modes=[builtin_modes()["dual_control"]], agent_id=spec, agent_config={},
        agent=agent_identity(load_agent_factory(spec)), trials=1, seed=0,
        started_at=datetime(2026, 1, 1, tzinfo=UTC), cwd=agents_dir) for spec in specs]
    hashes = [m.agent_config_hash for m in manifests]
    assert len(set(hashes)) == len(specs)
    identity = manifests[0].agent
    assert identity is not None
    assert hashes[0] == config_hash({"config": {}, "import_path": identity.import_path,
                                     "code_hash": identity.code_hash, "declared_config": {}})
    # runs recorded without an identity keep the hash they had: the configuration's
    assert agent_config_hash({"model": "m"}) == config_hash({"model": "m"})


def test_remit_show_names_the_agents_code(agents_dir: Path) -> None:
    cli = CliRunner()
    db = str(agents_dir / "remit.db")
    runs = []
    for spec in ("my_agents:Quitter", "my_agents:Stubborn"):
        result = cli.invoke(app, ["run", "--suite", "handwritten", "--agent", spec, "--db", db,
                                  "--modes", "dual_control", "--scenario", "unclear-request",
                                  "--json"])
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout)["manifest"])
    quitter, stubborn = runs
    assert quitter["agent_config_hash"] != stubborn["agent_config_hash"]
    assert quitter["agent"]["import_path"] == "my_agents:Quitter"
    shown = cli.invoke(app, ["show", stubborn["run_id"], "--db", db], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    code = stubborn["agent"]["code_hash"][:12]
    assert (f"│ agent code    │ my_agents:Stubborn (code {code}, declares patience=3, "
            "style=terse)") in shown.stdout
    broken = cli.invoke(app, ["run", "--suite", "handwritten", "--agent", "my_agents:Broken",
                              "--db", str(agents_dir / "never.db")])
    assert broken.exit_code == 2
    assert "make remit_config a dict of JSON values" in broken.stderr
    assert not (agents_dir / "never.db").exists()
