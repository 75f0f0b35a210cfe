"""Several processes writing different runs to one database at once lose nothing.

Each writer is a separate Python process (so SQLite's file locks and PostgreSQL's
sessions are really exercised). Writers import remit, say "ready" and wait for "go" on
stdin, so all of them open the database (which does not exist yet: they also race to
create the schema) and write at the same moment, without any sleeping.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from remit.harness import RunResult
from remit.store import Store
from tests.store.sample import sample_manifest

WRITERS = 3
TRIALS_PER_RUN = 60

WRITER = """
import sys
from pathlib import Path
from remit.harness import RunManifest, TrialRecord
from remit.store import Store

url, run_id, manifest_path, record_path, count = sys.argv[1:6]
print("ready", flush=True)
sys.stdin.readline()
manifest = RunManifest.model_validate_json(Path(manifest_path).read_text())
record = TrialRecord.model_validate_json(Path(record_path).read_text())
with Store.open(url) as store:
    store.create_run(manifest.model_copy(update={"run_id": run_id}))
    for index in range(int(count)):
        scored = record.scored.model_copy(update={"trial": index})
        store.save_trial(run_id, record.model_copy(update={"scored": scored}))
"""


def _write_concurrently(url: str, tmp_path: Path, run_result: RunResult) -> list[str]:
    manifest_path = tmp_path / "manifest.json"
    record_path = tmp_path / "record.json"
    manifest_path.write_text(sample_manifest("template").model_dump_json())
    record_path.write_text(run_result.trials[0].model_dump_json())
    run_ids = [f"writer-{n}" for n in range(WRITERS)]
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, run_id, str(manifest_path),
             str(record_path), str(TRIALS_PER_RUN)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for run_id in run_ids
    ]
    for writer in writers:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
    failures = []
    for writer in writers:
        _, stderr = writer.communicate("go\n", timeout=120)
        if writer.returncode != 0:
            failures.append(stderr)
    assert failures == []
    return run_ids


def _assert_nothing_lost(url: str, run_ids: list[str], run_result: RunResult) -> None:
    trail = run_result.trials[0].trail
    with Store.open(url) as store:
        listing = {r.run_id: r.trials for r in store.runs()}
        assert listing == dict.fromkeys(run_ids, TRIALS_PER_RUN)
        for run_id in run_ids:
            records = store.trials(run_id)
            assert [r.scored.trial for r in records] == list(range(TRIALS_PER_RUN))
            assert all(r.trail == trail for r in records)


def test_concurrent_writers_to_one_sqlite_file(tmp_path: Path, run_result: RunResult) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    run_ids = _write_concurrently(url, tmp_path, run_result)
    _assert_nothing_lost(url, run_ids, run_result)


def test_concurrent_writers_to_postgresql(postgres_url: str, tmp_path: Path,
                                          run_result: RunResult) -> None:
    run_ids = _write_concurrently(postgres_url, tmp_path, run_result)
    _assert_nothing_lost(postgres_url, run_ids, run_result)
