"""A run tallied in SQL equals its records tallied in Python, however the figures are read:
from their columns, from the scores' JSON (a database of schema 2, read as it is), or
from the JSON where a column is empty; and a comparison of tallied sides equals one of
their records."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from remit.harness import TrialRecord
from remit.harness.compare import Side, compare
from remit.harness.tally import FIGURES, figures, tally_records
from remit.harness.tradeoff import paired_metrics
from remit.store import Store, UnknownRunError, resolve_url
from remit.store.tables import FIGURE_COLUMNS
from tests.store.sample import DROP_FIGURES, ManifestFactory, record_key


def _execute(url: str, *statements: str) -> list[tuple[object, ...]]:
    engine = create_engine(resolve_url(url, environ={}))
    rows: list[tuple[object, ...]] = []
    with engine.begin() as connection:
        for statement in statements:
            result = connection.execute(text(statement))
            if result.returns_rows:
                rows = [tuple(row) for row in result]
    engine.dispose()
    return rows


def _stored(url: str, records: list[TrialRecord], make_manifest: ManifestFactory) -> None:
    with Store.open(url) as store:
        store.create_run(make_manifest("r-1"))
        store.save_trials("r-1", records)


def test_the_figure_columns_are_the_scores_figures(
        store_url: str, varied_records: list[TrialRecord],
        make_manifest: ManifestFactory) -> None:
    _stored(store_url, varied_records, make_manifest)
    columns = ", ".join(FIGURE_COLUMNS)
    rows = _execute(store_url, f"SELECT scenario_id, mode, trial, {columns} FROM trials")
    stored = {row[:3]: dict(zip(FIGURE_COLUMNS, row[3:], strict=True)) for row in rows}
    assert stored == {record_key(r): figures(r.scored.score) for r in varied_records}
    assert FIGURE_COLUMNS == FIGURES


def test_tallies_in_sql_equal_the_records_tallied(
        store_url: str, varied_records: list[TrialRecord],
        make_manifest: ManifestFactory) -> None:
    _stored(store_url, varied_records, make_manifest)
    with Store.open(store_url, read_only=True) as store:
        tallied = store.tallies("r-1")
        records = store.trials("r-1", with_trails=False)
    assert tallied == tally_records(records)
    assert tallied == tally_records(sorted(varied_records, key=record_key))
    assert {t.tally.usage.reported for t in tallied} > {0}  # the usage was read too


def test_a_schema_2_database_is_tallied_from_its_scores(
        store_url: str, varied_records: list[TrialRecord],
        make_manifest: ManifestFactory) -> None:
    _stored(store_url, varied_records, make_manifest)
    _execute(store_url, *DROP_FIGURES, "UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    expected = tally_records(sorted(varied_records, key=record_key))
    with Store.open(store_url, read_only=True) as store:
        assert store.tallies("r-1") == expected
    assert _execute(store_url, "SELECT value FROM meta WHERE key = 'schema_version'") == [("2",)]

    with Store.open(store_url) as store:  # a writer migrates: the columns are filled
        assert store.tallies("r-1") == expected
    columns = ", ".join(FIGURE_COLUMNS)
    rows = _execute(store_url, f"SELECT scenario_id, mode, trial, {columns} FROM trials")
    assert {row[:3]: dict(zip(FIGURE_COLUMNS, row[3:], strict=True)) for row in rows} == \
        {record_key(r): figures(r.scored.score) for r in varied_records}


def test_empty_figure_columns_are_read_from_the_scores(
        store_url: str, varied_records: list[TrialRecord],
        make_manifest: ManifestFactory) -> None:
    _stored(store_url, varied_records, make_manifest)
    emptied = ", ".join(f"{name} = NULL" for name in FIGURE_COLUMNS)
    _execute(store_url, f"UPDATE trials SET {emptied} WHERE trial % 2 = 0")
    with Store.open(store_url, read_only=True) as store:
        assert store.tallies("r-1") == tally_records(sorted(varied_records, key=record_key))


def test_tallies_of_an_unknown_run_are_refused(store_url: str) -> None:
    with Store.open(store_url) as store, pytest.raises(UnknownRunError, match="r-none"):
        store.tallies("r-none")


@pytest.mark.parametrize("on_exhausted", ["exclude", "failure"])
def test_a_comparison_of_tallies_equals_one_of_records(
        store_url: str, varied_records: list[TrialRecord], make_manifest: ManifestFactory,
        on_exhausted: str) -> None:
    manifest = make_manifest("r-1")
    manifest = manifest.model_copy(update={"error_treatment": manifest.error_treatment
                                           .model_copy(update={"on_exhausted": on_exhausted})})
    with Store.open(store_url) as store:
        store.create_run(manifest)
        store.save_trials("r-1", varied_records)
        tallied = store.tallies("r-1")
        records = tuple(store.trials("r-1", with_trails=False))
    modes = [m.name for m in manifest.modes]
    for a, b in ((modes[0], modes[1]), (modes[2], modes[0])):
        by_records = compare(Side(manifest=manifest, mode=a, trials=records),
                             Side(manifest=manifest, mode=b, trials=records), resamples=500)
        by_tallies = compare(Side(manifest=manifest, mode=a, tallies=tallied),
                             Side(manifest=manifest, mode=b, tallies=tallied), resamples=500)
        assert by_tallies == by_records
        exclude = on_exhausted == "exclude"
        assert paired_metrics(by_tallies, tallied, tallied, exclude_infra=exclude) == \
            paired_metrics(by_records, tally_records(records), tally_records(records),
                           exclude_infra=exclude)
