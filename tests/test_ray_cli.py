"""``remit run --executor ray``: the run one process makes, resumable on either executor,
and refused in one line, with nothing written, for what cannot run on Ray.

The runs go through the command line in this process (so they use the session's local
Ray, started once by the ``ray_cluster`` fixture) into real SQLite stores; the missing
extra is shown in a fresh interpreter that cannot import Ray.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from remit.authority import mode_by_name
from remit.cli import app
from remit.harness import TrialRecord
from remit.store import Store, start_run
from tests.stored_runs import invoke_run, stored_trials


def _refused(*args: str) -> str:
    """The one line ``remit run ARGS`` is refused with (exit status 2)."""
    result = CliRunner().invoke(app, ["run", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def _closed_port() -> int:
    """A loopback port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_run_on_ray_is_the_run_one_process_makes(ray_cluster: ModuleType,
                                                   tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    one = invoke_run("--suite", "handwritten", "--trials", "2", "--seed", "3", "--db", str(db))
    ray = invoke_run("--suite", "handwritten", "--trials", "2", "--seed", "3", "--db", str(db),
                  "--executor", "ray", "--workers", "2")
    assert ray["modes"] == one["modes"]
    assert stored_trials(db, str(ray["run_id"])) == stored_trials(db, str(one["run_id"]))
    manifests = [ray["manifest"], one["manifest"]]
    executors = []
    for manifest in manifests:
        assert isinstance(manifest, dict)
        for varies in ("run_id", "started_at", "ended_at"):
            manifest.pop(varies)
        executors.append(manifest["metadata"].pop("executor"))
    assert executors == ["ray", "local"]
    assert manifests[0] == manifests[1]  # the executor is recorded, and nothing else differs
    compared = CliRunner().invoke(app, ["compare", str(one["run_id"]), str(ray["run_id"]),
                                        "--db", str(db)])
    assert compared.exit_code == 0, compared.output  # comparable as any two runs


def test_a_run_stopped_in_one_process_is_finished_on_ray(ray_cluster: ModuleType,
                                                         tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    saved: list[TrialRecord] = []

    def stop_after_five(record: TrialRecord) -> None:
        saved.append(record)
        if len(saved) == 5:
            raise KeyboardInterrupt

    modes = [mode_by_name("all_tools"), mode_by_name("dual_control")]
    with Store.open(str(db)) as store, pytest.raises(KeyboardInterrupt):
        start_run(store, suite_spec="handwritten", modes=modes, agent_id="baseline",
                  trials=2, seed=9, on_trial=stop_after_five)
    with Store.open(str(db)) as store:
        [listing] = store.runs()
    resumed = invoke_run("--resume", listing.run_id, "--db", str(db), "--executor", "ray")
    whole = invoke_run("--suite", "handwritten", "--trials", "2", "--seed", "9", "--db", str(db))
    assert resumed["run_id"] == listing.run_id
    assert resumed["modes"] == whole["modes"]
    assert stored_trials(db, listing.run_id) == stored_trials(db, str(whole["run_id"]))


def test_off_a_terminal_the_progress_is_one_line(ray_cluster: ModuleType,
                                                 tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "--suite", "handwritten", "--db",
                                      str(tmp_path / "remit.db"), "--executor", "ray"])
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.stderr.splitlines() if "trials done" in line]
    assert line.startswith("r-")
    assert ": 20 of 20 trials done in " in line
    assert line.endswith("; 3 failing, 0 infrastructure errors")


def test_an_address_that_does_not_answer_is_refused_before_anything_is_written(
        tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    port = _closed_port()
    line = _refused("--db", str(db), "--executor", "ray", "--ray-address", f"127.0.0.1:{port}")
    assert line == (f"error: cannot run with --executor ray: nothing answers at "
                    f"--ray-address='127.0.0.1:{port}' (Connection refused); start the "
                    "cluster's head with `ray start --head` there, or give its address")
    line = _refused("--db", str(db), "--executor", "ray", "--ray-address", "nowhere")
    assert "--ray-address='nowhere' is not auto, HOST:PORT or ray://HOST:PORT" in line
    assert not db.exists()


def test_an_agent_that_cannot_be_pickled_is_refused_before_anything_is_written(
        ray_cluster: ModuleType, tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    line = _refused("--db", str(db), "--executor", "ray",
                    "--agent", "tests.ray_agents:unpicklable")
    assert line.startswith("error: cannot run with --executor ray: agent factory _HoldsALock "
                           "cannot be sent to Ray workers: TypeError: ")
    assert line.endswith("define it at the top level of an importable module "
                         "(--agent package.module:factory)")
    assert not db.exists()


def test_ray_options_need_the_ray_executor_and_valid_resources(tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    assert _refused("--db", str(db), "--ray-address", "auto") == (
        "error: --ray-address only applies with --executor ray; add --executor ray, or "
        "leave it out to run on this machine")
    line = _refused("--db", str(db), "--executor", "ray", "--ray-resources", '{"GPU": -1}')
    assert line.endswith("--ray-resources='{\"GPU\": -1}' must be a JSON object of "
                         "non-negative amounts, such as '{\"CPU\": 1, \"GPU\": 0.25}'")
    assert not db.exists()


def test_without_the_extra_the_ray_executor_says_how_to_install_it(tmp_path: Path) -> None:
    db = tmp_path / "remit.db"
    without_ray = ("import sys; sys.modules['ray'] = None; from remit.cli import main; "
                   "sys.argv = ['remit', *sys.argv[1:]]; main()")
    shown = subprocess.run([sys.executable, "-c", without_ray, "run", "--db", str(db),
                            "--executor", "ray"], capture_output=True, text=True,
                           check=False, cwd=tmp_path)
    assert shown.returncode == 2, shown.stderr
    assert shown.stderr.strip() == ("error: cannot run with --executor ray: Ray is not "
                                    "installed here; install the extra: pip install "
                                    "'remit[ray]'")
    assert not db.exists()
