"""Every command refuses bad input the same way: one ``error:`` line on stderr, exit status
2, before any work, and nothing written.

Each case gives a command a bad value of one kind (a missing file, a directory where a
file is expected, a file that is not UTF-8, is empty or is not YAML, another
application's database, an output that cannot be written, a huge or negative number)
and names a phrase the line must hold. The working directory and the scratch directory
are compared before and after: a refused command creates nothing, and another
application's database keeps every byte.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app

HUGE = "100000000000"
"""A number no option accepts: a hundred billion."""
BAD_YAML = "name: x\n  grants: [\n"
"""A YAML syntax error at line 2, column 9 (the parser's message spans five lines)."""


def _scratch(root: Path) -> dict[str, str]:
    """The bad inputs, by placeholder name, under ``root``."""
    (root / "bad.yaml").write_text(BAD_YAML, encoding="utf-8")
    (root / "latin.yaml").write_bytes(b"name: caf\xe9\n")
    (root / "empty.yaml").write_bytes(b"")
    (root / "empty.db").write_bytes(b"")
    (root / "garbage.db").write_bytes(b"this is not a database" * 50)
    (root / "dir.yaml").mkdir()
    (root / "dir.html").mkdir()
    (root / "dir.db").mkdir()
    (root / "nosuites").mkdir()
    (root / "badsuite").mkdir()
    (root / "badsuite" / "a.scenario.yaml").write_text("id: [\n", encoding="utf-8")
    (root / "latinsuite").mkdir()
    (root / "latinsuite" / "a.scenario.yaml").write_bytes(b"id: caf\xe9\n")
    other = root / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.execute("INSERT INTO notes (body) VALUES ('not remit''s')")
    connection.close()
    names = ["bad.yaml", "latin.yaml", "empty.yaml", "empty.db", "garbage.db", "dir.yaml",
             "dir.html", "dir.db", "nosuites", "badsuite", "latinsuite", "other.db"]
    return {name.replace(".", "_"): str(root / name) for name in names} | {
        "missing": str(root / "missing.yaml"), "tmp": str(root)}


DB = ["--db", "{tmp}/never.db"]
LLM = ["run", "--agent", "openai:m", *DB]
CASES: dict[str, tuple[list[str], str]] = {
    # remit run: bounds
    "run --trials huge": (["run", "--trials", HUGE, *DB], "'--trials'"),
    "run --trials negative": (["run", "--trials", "-1", *DB], "'--trials'"),
    "run --concurrency huge": (["run", "--concurrency", HUGE, *DB], "'--concurrency'"),
    "run --concurrency zero": (["run", "--concurrency", "0", *DB], "'--concurrency'"),
    "run --workers huge": (["run", "--workers", HUGE, *DB], "'--workers'"),
    "run --workers zero": (["run", "--workers", "0", *DB], "'--workers'"),
    "run --seed negative": (["run", "--seed", "-1", *DB], "'--seed'"),
    "run --seed huge": (["run", "--seed", "9" * 30, *DB], "'--seed'"),
    "run --seed not a number": (["run", "--seed", "1e3", *DB], "'--seed'"),
    "run --retries huge": (["run", "--retries", HUGE, *DB], "'--retries'"),
    "run --retries negative": (["run", "--retries", "-1", *DB], "'--retries'"),
    "run --sample huge": (["run", "--sample", HUGE, *DB], "'--sample'"),
    "run --sample negative": (["run", "--sample", "-3", *DB],
                              "a sample needs at least one scenario"),
    "run --sample-seed negative": (["run", "--sample-seed", "-1", *DB], "'--sample-seed'"),
    # remit run: mode files and suites
    "run --modes YAML error": (["run", "--modes", "{bad_yaml}", *DB],
                               "not valid YAML at line 2, column 9: mapping values"),
    "run --modes not UTF-8": (["run", "--modes", "{latin_yaml}", *DB], "is not UTF-8 text"),
    "run --modes empty": (["run", "--modes", "{empty_yaml}", *DB], "an empty document"),
    "run --modes directory": (["run", "--modes", "{dir_yaml}", *DB], "is a directory"),
    "run --modes missing": (["run", "--modes", "{missing}", *DB], "cannot be read"),
    "run --suite missing": (["run", "--suite", "{tmp}/nowhere", *DB], "no such suite"),
    "run --suite empty directory": (["run", "--suite", "{nosuites}", *DB],
                                    "holds no .yaml, .yml or .json scenario files"),
    "run --suite YAML error": (["run", "--suite", "{badsuite}", *DB],
                               "a.scenario.yaml: (top level): not valid YAML at line 2"),
    "run --suite not UTF-8": (["run", "--suite", "{latinsuite}", *DB],
                              "a.scenario.yaml: is not UTF-8 text"),
    # remit run: outputs, checked before any work
    "run --report in /proc": (["run", "--report", "/proc/r.html", *DB],
                              "--report /proc/r.html: cannot write there: directory '/proc' "
                              "is not writable"),
    "run --report a directory": (["run", "--report", "{dir_html}", *DB],
                                 "is a directory, not a file"),
    "run --report under a file": (["run", "--report", "{empty_yaml}/r.html", *DB],
                                  "is not a directory"),
    "run --report unknown suffix": (["run", "--report", "{tmp}/r.txt", *DB],
                                    "cannot tell the report format"),
    "run --db a directory": (["run", "--db", "{dir_db}"], "is a directory"),
    "run --db in a missing directory": (["run", "--db", "{tmp}/nowhere/r.db"],
                                        "does not exist"),
    "run --db in /proc": (["run", "--db", "/proc/remit.db"], "is not writable"),
    "run --db another application's": (["run", "--db", "{other_db}"],
                                       "other.db: it is not a remit database"),
    "run --db not a database": (["run", "--db", "{garbage_db}"], "not a database"),
    "run --db unknown scheme": (["run", "--db", "bogus://x"], "scheme='bogus'"),
    "run --resume without a database": (["run", "--resume", "r-1", *DB],
                                        "no remit database at"),
    # remit run: LLM options
    "run --cost-table YAML error": ([*LLM, "--cost-table", "{bad_yaml}"],
                                    "--cost-table {bad_yaml}: not valid YAML at line 2, "
                                    "column 9"),
    "run --cost-table not UTF-8": ([*LLM, "--cost-table", "{latin_yaml}"],
                                   "is not UTF-8 text"),
    "run --cost-table directory": ([*LLM, "--cost-table", "{dir_yaml}"], "is a directory"),
    "run --cost-table missing": ([*LLM, "--cost-table", "{missing}"], "cannot be read"),
    "run --llm-timeout negative": ([*LLM, "--llm-timeout", "-1"], "'--llm-timeout'"),
    "run --llm-timeout huge": ([*LLM, "--llm-timeout", "1e300"], "'--llm-timeout'"),
    "run --max-tokens zero": ([*LLM, "--max-tokens", "0"], "'--max-tokens'"),
    "run --max-tokens huge": ([*LLM, "--max-tokens", HUGE], "'--max-tokens'"),
    "run --temperature negative": ([*LLM, "--temperature", "-1"], "'--temperature'"),
    "run --llm-retries huge": ([*LLM, "--llm-retries", HUGE], "'--llm-retries'"),
    "run --llm-seed negative": ([*LLM, "--llm-seed", "-1"], "'--llm-seed'"),
    "run --cassettes a file": ([*LLM, "--llm-cache", "replay", "--cassettes", "{empty_yaml}"],
                               "it is a file, not a directory"),
    "run --cassettes missing for replay": ([*LLM, "--llm-cache", "replay", "--cassettes",
                                            "{tmp}/nowhere"], "nothing to replay"),
    "run --cassettes in /proc": ([*LLM, "--llm-cache", "record", "--cassettes", "/proc/c"],
                                 "is not writable"),
    # reading commands
    "runs --db missing": (["runs", "--db", "{tmp}/absent.db"], "no remit database at"),
    "runs --db empty file": (["runs", "--db", "{empty_db}"], "no remit database at"),
    "runs --db another application's": (["runs", "--db", "{other_db}"],
                                        "it is not a remit database"),
    "runs --db a directory": (["runs", "--db", "{dir_db}"], "is a directory"),
    "runs --db not a database": (["runs", "--db", "{garbage_db}"], "not a database"),
    "show --db another application's": (["show", "r-1", "--db", "{other_db}"],
                                        "it is not a remit database"),
    "trail --db another application's": (["trail", "r-1/s/m/0", "--db", "{other_db}"],
                                         "it is not a remit database"),
    "compare --db another application's": (["compare", "r-1", "--db", "{other_db}"],
                                           "it is not a remit database"),
    "report -o in /proc": (["report", "r-1", "-o", "/proc/r.html", "--db", "{other_db}"],
                           "--output /proc/r.html: cannot write there"),
    "report -o a directory": (["report", "r-1", "-o", "{dir_html}", "--db", "{other_db}"],
                              "is a directory, not a file"),
    "report --db another application's": (["report", "r-1", "-o", "{tmp}/r.html", "--db",
                                           "{other_db}"], "it is not a remit database"),
    "report of two runs -o in /proc": (["report", "r-1", "r-2", "-o", "/proc/r.html", "--db",
                                        "{other_db}"], "--output /proc/r.html"),
    # remit authority
    "authority check YAML error": (["authority", "check", "{bad_yaml}"],
                                   "bad.yaml: not valid YAML at line 2, column 9: mapping "
                                   "values are not allowed here"),
    "authority check not UTF-8": (["authority", "check", "{latin_yaml}"], "is not UTF-8 text"),
    "authority check empty": (["authority", "check", "{empty_yaml}"], "the file is empty"),
    "authority check directory": (["authority", "check", "{dir_yaml}"], "is a directory"),
    "authority check missing": (["authority", "check", "{missing}"], "cannot be read"),
    "authority who-can --mode YAML error": (["authority", "who-can", "price", "--mode",
                                             "{bad_yaml}"], "not valid YAML at line 2"),
    # remit catalogue
    "catalogue show --size huge": (["catalogue", "show", "--size", HUGE], "'--size'"),
    "catalogue show --size zero": (["catalogue", "show", "--size", "0"], "'--size'"),
    "catalogue show --seed negative": (["catalogue", "show", "--seed", "-1"], "'--seed'"),
    "catalogue show --seed huge": (["catalogue", "show", "--seed", "9" * 30], "'--seed'"),
    # remit suite
    "suite list --sample huge": (["suite", "list", "--sample", HUGE], "'--sample'"),
    "suite list --seed negative": (["suite", "list", "--seed", "-1"], "'--seed'"),
    "suite list --suite YAML error": (["suite", "list", "--suite", "{badsuite}"],
                                      "not valid YAML at line 2"),
    "suite export -o a file": (["suite", "export", "-o", "{empty_yaml}"], "is not a directory"),
    "suite export -o in /proc": (["suite", "export", "-o", "/proc/x"], "is not writable"),
    "suite check missing": (["suite", "check", "{missing}"], "no such file or directory"),
    "suite check not UTF-8": (["suite", "check", "{latinsuite}"], "is not UTF-8 text"),
    "suite check empty": (["suite", "check", "{empty_yaml}"], "got an empty file"),
    "suite check --seed negative": (["suite", "check", "{badsuite}", "--seed", "-1"],
                                    "'--seed'"),
    "suite check --modes YAML error": (["suite", "check", "{badsuite}", "--modes",
                                        "{bad_yaml}"], "not valid YAML at line 2"),
    # remit mcp serve
    "mcp serve --trials huge": (["mcp", "serve", "--trials", HUGE], "'--trials'"),
    "mcp serve --seed negative": (["mcp", "serve", "--seed", "-1"], "'--seed'"),
    "mcp serve --db another application's": (["mcp", "serve", "--db", "{other_db}"],
                                             "it is not a remit database"),
    "mcp serve --db a directory": (["mcp", "serve", "--db", "{dir_db}"], "is a directory"),
}


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    scratch, work = tmp_path / "scratch", tmp_path / "work"
    scratch.mkdir()
    work.mkdir()
    places = _scratch(scratch)
    monkeypatch.chdir(work)
    monkeypatch.delenv("REMIT_DB", raising=False)
    before = _snapshot(scratch)
    args, phrase = CASES[case]

    result = CliRunner().invoke(app, [arg.format(**places) for arg in args])

    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert phrase.format(**places) in line
    assert result.stdout == ""
    assert _snapshot(scratch) == before
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["authority", "check", "{bad_yaml}"],
    ["run", "--report", "/proc/r.html", "--db", "{tmp}/never.db"],
    ["runs", "--db", "{other_db}"],
    ["catalogue", "show", "--size", HUGE],
], ids=["yaml", "report", "other-db", "size"])
def test_the_console_script_prints_exactly_one_line(tmp_path: Path, args: list[str]) -> None:
    places = _scratch(tmp_path)
    done = subprocess.run([sys.executable, "-m", "remit.cli",
                           *(arg.format(**places) for arg in args)],
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: ")
    assert done.stdout == ""


def test_another_applications_database_is_left_exactly_as_it_was(tmp_path: Path) -> None:
    other = Path(_scratch(tmp_path)["other_db"])
    before = other.read_bytes()
    for command in (["runs"], ["run", "--suite", "handwritten"], ["show", "r-1"]):
        result = CliRunner().invoke(app, [*command, "--db", str(other)])
        assert result.exit_code == 2
        assert result.stderr == (
            f"error: cannot use {other}: it is not a remit database (it holds tables 'notes' "
            "and no remit marker), and remit never writes to another application's database; "
            "pass --db with a new file (or an empty PostgreSQL database or schema)\n")
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("other")) == [
        "other.db"]
    connection = sqlite3.connect(f"file:{other}?mode=ro", uri=True)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert connection.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
    finally:
        connection.close()
