"""The console script reports usage errors in one line, like every other user error."""

from __future__ import annotations

import subprocess
import sys

import pytest

REMIT = [sys.executable, "-m", "remit.cli"]


@pytest.mark.parametrize(("args", "line"), [
    (["catalogue", "show", "--size", "0"],
     "error: Invalid value for '--size': Input should be greater than or equal to 1; see "
     "`python -m remit.cli catalogue show --help`"),
    (["run", "--bogus"], "error: No such option: --bogus; see `python -m remit.cli run --help`"),
    (["nosuch"], "error: No such command 'nosuch'; see `python -m remit.cli --help`"),
])
def test_a_usage_error_is_one_line_and_exit_2(args: list[str], line: str) -> None:
    done = subprocess.run([*REMIT, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [line]
    assert done.stdout == ""


def test_no_command_shows_the_help_without_an_error_line() -> None:
    done = subprocess.run(REMIT, capture_output=True, text=True, check=False)
    assert "Usage:" in done.stdout
    assert "error:" not in done.stderr
