"""``pytest --remit-executor ray``: scenario tests run their trials on Ray, with the
records they get in one process; a cluster that does not answer is a usage error.

The inner sessions run in this process (``pytester``), on the session's local Ray
(the ``ray_cluster`` fixture), and store their runs in real SQLite files.
"""

from __future__ import annotations

import socket
from pathlib import Path
from types import ModuleType

import pytest

from remit.harness import TrialRecord
from remit.store import Store

TESTS = """
import pytest

@pytest.mark.remit(agent="baseline", trials=2, seed=7)
def test_substitutions(remit):
    remit.run("fff-substitution")
    remit.run("supersession-substitution")
"""


def _session(db: Path) -> tuple[list[TrialRecord], dict[str, object]]:
    """The stored run's trials (without durations) and its manifest's metadata."""
    with Store.open(str(db), read_only=True) as store:
        [listing] = store.runs()
        trials = [r.model_copy(update={"seconds": None}) for r in store.trials(listing.run_id)]
        return trials, dict(store.manifest(listing.run_id).metadata)


def test_a_session_on_ray_stores_the_trials_of_one_process(
        pytester: pytest.Pytester, ray_cluster: ModuleType) -> None:
    pytester.makepyfile(test_subs=TESTS)
    here, there = pytester.path / "here.db", pytester.path / "there.db"
    pytester.runpytest(f"--remit-db={here}").assert_outcomes(passed=2)
    pytester.runpytest(f"--remit-db={there}", "--remit-executor", "ray"
                       ).assert_outcomes(passed=2)
    local, local_metadata = _session(here)
    on_ray, ray_metadata = _session(there)
    assert len(on_ray) == 2 * 2 * 2  # two scenarios, two modes, two trials
    assert on_ray == local
    assert (local_metadata.pop("executor"), ray_metadata.pop("executor")) == ("local", "ray")
    assert local_metadata == ray_metadata


def test_a_ray_address_that_does_not_answer_is_a_usage_error(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_subs=TESTS)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = pytester.runpytest("--remit-executor", "ray", "--remit-ray-address",
                                f"127.0.0.1:{port}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: cannot run with --executor ray: nothing answers at "
                                 f"--ray-address='127.0.0.1:{port}' (Connection refused)*"])
