"""One fuzz example end to end: a real run, its store, every report and the terminal.

:func:`play` runs ``remit run --agent tests.fuzz.agents:scripted`` through typer's
``CliRunner`` on a small suite into a fresh SQLite file, then ``remit runs``,
``remit report`` in every format (HTML, Markdown, JSON, JUnit), ``remit trail`` of every
trial and ``remit show``, and returns every :class:`~tests.fuzz.checks.Finding`:

- ``crash``: an exception escaped a command (its type and message are quoted);
- ``hang``: a command was still running after :data:`~tests.fuzz.guard.COMMAND_SECONDS`
  (a failure guard, see :mod:`tests.fuzz.guard`);
- ``exit``: a command exited with a status other than 0 (none of these commands has a
  documented failure status for a run whose trials all ran: ``remit run`` exits 1 only
  when every trial was an infrastructure error or a ``--fail-under`` gate failed, 2 on a
  user error, which a script file is not);
- ``stored``: the store holds another number of trials than the run planned, or no run;
- ``json-schema``: the JSON report breaks ``remit.reports.report_schema()``;
- each format's rules (:mod:`tests.fuzz.checks`) on each report file, and the terminal
  rules on every command's stdout and stderr.

Commands run with ``COLUMNS`` set very wide, so rich wraps no table cell (a wrapped cell
could split a markup probe from its tag), and without ``FORCE_COLOR``/``TTY_COMPATIBLE``,
so remit's own styling adds no escape sequence to what is checked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from remit.cli import app
from remit.reports import report_schema
from remit.store import Store, trial_id_for
from tests.fuzz.agents import SCRIPT_ENV, Chunks, write_script
from tests.fuzz.checks import (
    Finding,
    check_html,
    check_json,
    check_junit,
    check_markdown,
    check_terminal,
)
from tests.fuzz.guard import COMMAND_SECONDS, Hang, within
from tests.reports.schema_check import violations

AGENT = "tests.fuzz.agents:scripted"
SCENARIOS = ("discount-exception", "consent-withheld")
"""Two handwritten scenarios: a discount exception (finance decides) and a buyer who
withholds consent."""
MODES = ("all_tools", "dual_control")
WIDE = "1000000"
"""``COLUMNS`` for every command (see the module docstring)."""

_REPORTS = {"md": check_markdown, "json": check_json, "xml": check_junit, "html": check_html}
"""Report formats by suffix, the slowest (HTML, with its charts) last."""
_CLIP = 160


@dataclass
class Played:
    """What :func:`play` found.

    Attributes:
        findings: every finding, in the order the outputs were checked.
        run_id: the run's id, if a run was stored.
        trials: trials stored.
        outputs: outputs checked (report files and command outputs).
    """

    findings: list[Finding] = field(default_factory=list)
    run_id: str | None = None
    trials: int = 0
    outputs: int = 0


def environment(script: Path | None) -> dict[str, str | None]:
    """The environment of every command (``None`` unsets a variable), naming ``script``
    for the scripted agent."""
    return {SCRIPT_ENV: None if script is None else str(script), "COLUMNS": WIDE,
            "REMIT_DB": None, "FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None,
            "TERM": "dumb"}


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return ascii(lines[-1][:_CLIP]) if lines else "(nothing)"


def command(played: Played, args: Sequence[str], env: dict[str, str | None]) -> Result | None:
    """Invoke ``remit ARGS``; record a hang, a crash, a nonzero exit and the terminal
    rules; return the result (``None`` after a hang)."""
    where = "remit " + " ".join(a if len(a) < 60 else a[:57] + "..." for a in args[:3])
    played.outputs += 1
    try:
        with within(COMMAND_SECONDS, where):
            result = CliRunner().invoke(app, list(args), env=env)
    except Hang as exc:
        played.findings.append(Finding(where, "hang", str(exc)))
        return None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        played.findings.append(Finding(where, "crash", f"{type(result.exception).__name__}: "
                                                       f"{str(result.exception)[:_CLIP]!a}"))
    elif result.exit_code != 0:
        played.findings.append(Finding(where, "exit", f"status {result.exit_code}; stderr "
                                                      f"ends {_last_line(result.stderr)}"))
    played.findings += check_terminal(f"{where} (stdout)", result.stdout)
    played.findings += check_terminal(f"{where} (stderr)", result.stderr)
    return result


def play(tmp: Path, chunks: Chunks | Mapping[str, Chunks], *,
         scenarios: Sequence[str] = SCENARIOS, modes: Sequence[str] = MODES,
         trials: int = 1, agent: Sequence[str] = ("--agent", AGENT),
         env: Mapping[str, str | None] | None = None) -> Played:
    """Run the scripted agent on ``scenarios`` x ``modes`` x ``trials`` (trial ``i``
    plays chunk ``i`` modulo their number, of the trial's mode if ``chunks`` is by mode)
    and check every output (see the module docstring). ``agent`` (the ``--agent`` option
    and any other) and ``env`` (more variables) run another agent."""
    played = Played()
    env = {**environment(write_script(tmp / "script.json", chunks)), **(env or {})}
    db = str(tmp / "remit.db")
    selection = [arg for s in scenarios for arg in ("--scenario", s)]
    command(played, ["run", "--suite", "handwritten", *selection, "--modes", ",".join(modes),
                     "--trials", str(trials), *agent, "--db", db], env)
    check_stored(played, tmp, db, env, planned=len(scenarios) * len(modes) * trials)
    return played


def check_stored(played: Played, tmp: Path, db: str, env: dict[str, str | None], *,
                 planned: int) -> None:
    """Check the one run stored in ``db``: ``planned`` trials, every report, every trial's
    ``remit trail`` and ``remit show`` (files are written in ``tmp``)."""
    listed = command(played, ["runs", "--db", db, "--json"], env)
    runs = json.loads(listed.stdout) if listed is not None and listed.exit_code == 0 else []
    if len(runs) != 1:
        played.findings.append(Finding("store", "stored", f"{len(runs)} runs, not 1"))
        return
    run_id = played.run_id = runs[0]["run_id"]
    with Store.open(db, create=False) as store:
        records = store.trials(run_id, with_trails=False)
    played.trials = len(records)
    if played.trials != planned:
        played.findings.append(Finding("store", "stored",
                                       f"{played.trials} trials of {planned} planned"))
    _reports(played, tmp, run_id, db, env)
    for record in records:
        scored = record.scored
        command(played, ["trail", trial_id_for(run_id, scored.scenario_id, scored.mode,
                                               scored.trial), "--db", db], env)
    command(played, ["show", run_id, "--db", db], env)


def _reports(played: Played, tmp: Path, run_id: str, db: str,
             env: dict[str, str | None]) -> None:
    """``remit report`` in every format; each file checked by its format's rules."""
    for suffix, check in _REPORTS.items():
        path = tmp / f"report.{suffix}"
        result = command(played, ["report", run_id, "-o", str(path), "--db", db], env)
        if result is None or result.exit_code != 0 or not path.exists():
            continue
        played.outputs += 1
        text = path.read_text(encoding="utf-8")
        played.findings += check(path.name, text)
        if suffix == "json" and not any(f.where == path.name for f in played.findings):
            broken = violations(json.loads(text), report_schema())
            played.findings += [Finding(path.name, "json-schema", v[:_CLIP]) for v in broken[:3]]
