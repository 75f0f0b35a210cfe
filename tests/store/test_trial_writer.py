"""The batched writer: what it saves when, what it reports, and how a run's end (or an
interruption) leaves the store."""

from __future__ import annotations

import logging
import signal

import pytest
from sqlalchemy import Engine, event

from remit.harness import RunResult, TrialRecord
from remit.store import Store, StoreError, TrialWriter
from tests.store.sample import ManifestFactory, record_key


class _Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _write(writer: TrialWriter, records: list[TrialRecord], *,
           then: BaseException | None = None) -> None:
    """Add ``records`` inside the writer's context, then raise ``then`` there if given."""
    with writer:
        for record in records:
            writer.add(record)
        if then is not None:
            raise then


def _stored(store: Store) -> list[tuple[str, str, int]]:
    return [record_key(r) for r in store.trials("r-1", with_trails=False)]


@pytest.fixture
def records(run_result: RunResult) -> list[TrialRecord]:
    return sorted(run_result.trials, key=record_key)


def test_a_batch_is_saved_when_full_and_reported_once_saved(
        store_url: str, records: list[TrialRecord], make_manifest: ManifestFactory) -> None:
    saved: list[tuple[str, str, int]] = []
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        writer = TrialWriter(store, "r-1", batch=4, clock=_Clock(),
                             on_saved=lambda r: saved.append(record_key(r)))
        for record in records[:3]:
            writer.add(record)
        assert _stored(store) == []
        assert saved == []  # nothing is reported before it is committed
        writer.add(records[3])
        assert _stored(store) == saved == [record_key(r) for r in records[:4]]


def test_a_trial_waits_no_longer_than_the_batch_seconds(
        store_url: str, records: list[TrialRecord], make_manifest: ManifestFactory) -> None:
    clock = _Clock()
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        writer = TrialWriter(store, "r-1", batch=64, seconds=0.5, clock=clock)
        writer.add(records[0])
        clock.now = 0.4
        writer.add(records[1])
        assert _stored(store) == []
        clock.now = 0.9  # a slow trial: saved with those that waited, as it finishes
        writer.add(records[2])
        assert _stored(store) == [record_key(r) for r in records[:3]]
        clock.now = 2.0
        writer.add(records[3])  # the only one waiting, saved at once
        assert len(_stored(store)) == 4


def test_the_end_of_a_run_saves_what_waits_even_when_it_failed(
        store_url: str, records: list[TrialRecord], make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        writer = TrialWriter(store, "r-1", clock=_Clock())
        with pytest.raises(KeyboardInterrupt):
            _write(writer, records[:2], then=KeyboardInterrupt())
        assert _stored(store) == [record_key(r) for r in records[:2]]


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_while_the_last_batch_is_saved_saves_it_whole(
        sqlite_url: str, records: list[TrialRecord], make_manifest: ManifestFactory) -> None:
    pressed: list[bool] = []

    def ctrl_c_mid_save(*args: object) -> None:
        # After the batch's trial rows, before their events: inside its transaction.
        if str(args[2]).startswith("INSERT INTO trials") and not pressed:
            pressed.append(True)
            signal.raise_signal(signal.SIGINT)

    with Store.open(sqlite_url) as store:
        store.create_run(make_manifest("r-1"))
        event.listen(Engine, "after_cursor_execute", ctrl_c_mid_save)
        try:
            with pytest.raises(KeyboardInterrupt):
                _write(TrialWriter(store, "r-1"), records[:5])
        finally:
            event.remove(Engine, "after_cursor_execute", ctrl_c_mid_save)
        assert pressed == [True]
        saved = store.trials("r-1")
    assert saved == records[:5]  # once each, each with its whole trail


def test_trials_another_process_saved_are_skipped_and_still_reported(
        store_url: str, records: list[TrialRecord], make_manifest: ManifestFactory,
        caplog: pytest.LogCaptureFixture) -> None:
    reported: list[tuple[str, str, int]] = []
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        store.save_trials("r-1", records[1:2])
        caplog.set_level(logging.INFO, logger="remit.store.writer")
        _write(TrialWriter(store, "r-1", on_saved=lambda r: reported.append(record_key(r))),
               records[:3])
        assert sorted(_stored(store)) == [record_key(r) for r in records[:3]]
    assert reported == [record_key(r) for r in records[:3]]
    assert "was already stored by another process" in caplog.text


def test_a_batch_that_cannot_be_saved_is_not_saved_again_on_the_way_out(
        store_url: str, records: list[TrialRecord]) -> None:
    attempts: list[str] = []

    def count(*args: object) -> None:
        if "INSERT INTO trials" in str(args[2]):
            attempts.append("save")

    with Store.open(store_url) as store:
        event.listen(Engine, "before_cursor_execute", count)
        try:
            with pytest.raises(StoreError, match="r-none"):
                _write(TrialWriter(store, "r-none", batch=1), records[:1])
        finally:
            event.remove(Engine, "before_cursor_execute", count)
    assert attempts == ["save"]


def test_a_batch_holds_at_least_one_trial(sqlite_url: str) -> None:
    with Store.open(sqlite_url) as store, pytest.raises(ValueError, match="batch=0"):
        TrialWriter(store, "r-1", batch=0)
