"""The command line loads a command's libraries when that command runs: importing
``remit.cli``, parsing arguments and printing any ``--help`` load none of the store,
the charts, the model clients or the domain core (each in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("sqlalchemy", "sqlmodel", "matplotlib", "openai", "mcp", "pint", "faker", "numpy",
         "pydantic")
"""Libraries no ``--help`` needs; together they took most of a second to import. (typer
loads pydantic to coerce a parameter's value that is not already of its type: the
groups' ``--help`` flags default to ``False`` so that a left-out one needs none.)"""

_LOADED = """
import json, sys
{setup}
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}})))
"""

_EVERY_HELP = """
import contextlib, io
import typer.main
from remit.cli import app

def paths(command, prefix):
    yield prefix
    for name, sub in getattr(command, "commands", {}).items():
        yield from paths(sub, [*prefix, name])

for path in paths(typer.main.get_command(app), []):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        app([*path, "--help"], prog_name="remit", standalone_mode=False)
    assert "Usage: remit" in out.getvalue(), path
"""


def _loaded(setup: str, cwd: Path) -> set[str]:
    """The top-level modules loaded in a fresh interpreter after ``setup``."""
    shown = subprocess.run([sys.executable, "-c", _LOADED.format(setup=setup)],
                           capture_output=True, text=True, check=True, cwd=cwd)
    return set(json.loads(shown.stdout.splitlines()[-1]))


def test_importing_the_cli_loads_no_heavy_library(tmp_path: Path) -> None:
    loaded = _loaded("import remit.cli", tmp_path)
    assert {"remit", "typer"} <= loaded
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_every_help_loads_no_heavy_library(tmp_path: Path) -> None:
    loaded = _loaded(_EVERY_HELP, tmp_path)
    assert "rich" in loaded  # the help was drawn
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_importing_remit_loads_its_names_on_first_use(tmp_path: Path) -> None:
    assert "pydantic" not in _loaded("import remit", tmp_path)
    loaded = _loaded("from remit import Catalogue, RemitError\n"
                     "assert Catalogue.__module__.startswith('remit.catalogue')", tmp_path)
    assert "pydantic" in loaded


def test_reading_a_stored_run_loads_no_chart_catalogue_or_unit_library(tmp_path: Path) -> None:
    """``remit compare`` and ``remit show`` read scores: neither draws a chart
    (matplotlib), generates a catalogue (faker) nor converts a unit (pint)."""
    db = tmp_path / "runs.db"
    subprocess.run([sys.executable, "-m", "remit", "run", "--db", str(db), "--agent", "oracle",
                    "--sample", "2"], capture_output=True, check=True, cwd=tmp_path)
    listed = subprocess.run([sys.executable, "-m", "remit", "runs", "--db", str(db), "--json"],
                            capture_output=True, text=True, check=True, cwd=tmp_path)
    (run_id,) = [run["run_id"] for run in json.loads(listed.stdout)]
    for command in (["compare", run_id], ["show", run_id]):
        setup = ("import contextlib, io\nfrom remit.cli import app\n"
                 "with contextlib.redirect_stdout(io.StringIO()):\n"
                 f"    app({[*command, '--db', str(db)]!r}, prog_name='remit', "
                 "standalone_mode=False)")
        loaded = _loaded(setup, tmp_path)
        assert {"sqlalchemy", "pydantic"} <= loaded, command  # the command did run
        assert loaded.isdisjoint({"matplotlib", "faker", "pint"}), (
            command, sorted(loaded & {"matplotlib", "faker", "pint"}))


def test_a_run_converts_units_without_loading_pint(tmp_path: Path) -> None:
    """Trials search the catalogue by canonical values and check the units of claims:
    with the unit maps remit keeps (checked against pint in the unit tests), a run does
    not pay for loading pint and its registry."""
    setup = ("import contextlib, io\nfrom remit.cli import app\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    app(['run', '--db', {str(tmp_path / 'runs.db')!r}, '--sample', '4'], "
             "prog_name='remit', standalone_mode=False)")
    loaded = _loaded(setup, tmp_path)
    assert {"sqlalchemy", "faker"} <= loaded  # the run did run, on a generated catalogue
    assert "pint" not in loaded
