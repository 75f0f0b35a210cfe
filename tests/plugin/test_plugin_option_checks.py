"""The ``--remit-*`` options are checked before any test runs; the end never raises.

A bad ``--remit-agent``, ``--remit-report`` or ``--remit-db`` is one usage error naming
the option and its value, raised before the first test (each session here has a test
that leaves a file behind when it runs). A database or report that cannot be written
at the end anyway is one ``remit: ERROR`` line and exit status 1, below the test summary.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from remit.harness.settings import SettingsError, check_agent_option
from remit.store import Store

SESSION = """
    import pathlib

    import pytest

    def test_plain():
        pathlib.Path("plain-ran").write_text("yes")

    @pytest.mark.remit(agent="oracle", modes=("dual_control",))
    def test_scenario(remit):
        pathlib.Path("scenario-ran").write_text("yes")
        remit.run("discount-exception").expect_passed()
"""


def _usage_error_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.stderr.lines if line.startswith("ERROR:")]


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound, never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


@pytest.mark.parametrize(("option", "problem"), [
    ("--remit-agent=nosuch", "cannot load agent spec='nosuch': 'nosuch' is not a built-in "
                             "agent; give a built-in agent (oracle, *; or leave --remit-agent "
                             "out to run the default agent (baseline)"),
    ("--remit-agent=remit.actors:NoSuchAgent",
     "cannot load agent spec=*: module 'remit.actors' has no attribute 'NoSuchAgent'; *"),
    ("--remit-report=report.txt", "suffix='.txt' names no report format (known: .html, *"),
    ("--remit-report=plain.txt/report.md", "'plain.txt' is not a directory; pass a .html, *"),
    ("--remit-report=.", "suffix='' names no report format*"),
    ("--remit-db=missing/runs.db", "directory 'missing' does not exist; pass a SQLite file *"),
    ("--remit-db=plain.txt/runs.db", "'plain.txt' is not a directory; *"),
    ("--remit-db=subdir", "'subdir' is a directory, not a file; *"),
    ("--remit-db=plain.txt", "file is not a database (corrupt?); *"),
])
def test_a_bad_option_is_one_usage_error_before_any_test_runs(
        pytester: pytest.Pytester, option: str, problem: str) -> None:
    pytester.makepyfile(SESSION)
    pytester.path.joinpath("plain.txt").write_text("not a database", encoding="utf-8")
    pytester.mkdir("subdir")
    name, _, value = option.partition("=")
    # A good --remit-db beside a bad option must not be created either.
    good_db = [] if name == "--remit-db" else ["--remit-db=fresh.db"]

    result = pytester.runpytest(option, *good_db)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = _usage_error_lines(result)
    assert len(errors) == 1, errors
    result.stderr.fnmatch_lines(
        [f"ERROR: cannot use the remit settings from {name}={value!r}: {problem}"])
    assert not (pytester.path / "plain-ran").exists()
    assert not (pytester.path / "scenario-ran").exists()
    assert not (pytester.path / "fresh.db").exists(), "a failed session creates no database"
    assert (pytester.path / "plain.txt").read_text(encoding="utf-8") == "not a database"


def test_an_unreachable_postgresql_server_is_a_usage_error(
        pytester: pytest.Pytester, refused_port: int) -> None:
    pytester.makepyfile(SESSION)
    url = f"postgresql://remit@127.0.0.1:{refused_port}/remit"

    result = pytester.runpytest(f"--remit-db={url}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: cannot use the remit settings from --remit-db={url!r}: "
                                 f"*port {refused_port} failed: Connection refused; pass a *"])
    assert len(_usage_error_lines(result)) == 1
    assert not (pytester.path / "plain-ran").exists()


def test_an_llm_agent_without_its_api_key_is_a_usage_error(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    pytester.makepyfile(SESSION)

    result = pytester.runpytest("--remit-agent=openai:gpt-4o-mini")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: cannot use the remit settings from "
                                 "--remit-agent='openai:gpt-4o-mini': no API key for *: the "
                                 "environment variable OPENAI_API_KEY is not set; *"])
    assert not (pytester.path / "plain-ran").exists()


BESIDE = """
    from remit.world import ToolCall

    class Quitter:
        def start(self, briefing):
            pass

        def act(self, observation):
            return ToolCall(tool="end", arguments={"summary": "nothing to do"})
"""


def test_an_agent_module_beside_the_tests_loads_once_they_are_collected(
        pytester: pytest.Pytester) -> None:
    # pytest puts suite/ on sys.path only as it imports the tests there.
    pytester.mkdir("suite")
    pytester.path.joinpath("suite", "beside_agents.py").write_text(
        BESIDE.replace("\n    ", "\n"), encoding="utf-8")
    pytester.path.joinpath("suite", "test_beside.py").write_text(
        "def test_quits(remit):\n"
        "    outcome = remit.run('discount-exception')\n"
        "    assert (outcome.agent, outcome.passes) == ('beside_agents:Quitter', 0)\n",
        encoding="utf-8")

    result = pytester.runpytest("suite", "--remit-agent=beside_agents:Quitter",
                                "--remit-modes=dual_control")

    result.assert_outcomes(passed=1)


def test_an_agent_module_missing_after_collection_is_a_usage_error_before_any_test(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SESSION)

    result = pytester.runpytest("--remit-agent=no_such_agents_module:Agent")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: cannot use the remit settings from "
                                 "--remit-agent='no_such_agents_module:Agent': cannot load "
                                 "agent spec=* module 'no_such_agents_module' is not importable*"])
    assert not (pytester.path / "plain-ran").exists()


def test_good_options_create_nothing_until_a_scenario_runs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")

    result = pytester.runpytest("--remit-db=runs.db", "--remit-report=out/report.md")

    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*remit summary*",
                                 "remit: no scenario ran; nothing stored or reported"])
    assert not (pytester.path / "runs.db").exists()
    assert not (pytester.path / "out").exists()


def test_an_existing_database_is_accepted_and_added_to(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SESSION)
    db = pytester.path / "runs.db"
    Store.open(str(db)).close()

    result = pytester.runpytest(f"--remit-db={db}")

    result.assert_outcomes(passed=2)
    with Store.open(str(db), create=False) as store:
        assert [listing.agent_id for listing in store.runs()] == ["oracle"]


VANISHING = """
    import pathlib
    import shutil

    import pytest

    @pytest.mark.remit(agent="oracle", modes=("dual_control",))
    def test_scenario(remit):
        remit.run("discount-exception").expect_passed()
        # The directory the options named becomes a file: nothing can be written there.
        shutil.rmtree("out")
        pathlib.Path("out").write_text("in the way")
"""


@pytest.mark.parametrize(("options", "error", "written"), [
    (("--remit-db=out/runs.db", "--remit-report=kept/report.md"),
     "remit: ERROR: the session's trials were not stored in --remit-db='out/runs.db': "
     "cannot open out/runs.db: directory 'out' does not exist; *", "report.md"),
    (("--remit-db=kept/runs.db", "--remit-report=out/report.md"),
     "remit: ERROR: the report of oracle was not written to out/report.md: *", "runs.db"),
])
def test_a_failing_write_at_the_end_is_one_error_line_and_a_failed_session(
        pytester: pytest.Pytester, options: tuple[str, ...], error: str, written: str) -> None:
    pytester.makepyfile(VANISHING)
    pytester.mkdir("out")
    pytester.mkdir("kept")

    result = pytester.runpytest(*options)

    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=1)
    output = result.stdout.str()
    assert len([line for line in output.splitlines() if "ERROR" in line]) == 1
    result.stdout.fnmatch_lines(["*remit summary*", error, "*= 1 passed*"])
    assert "Traceback" not in output + result.stderr.str()
    # The other output is still written.
    assert [path.name for path in (pytester.path / "kept").iterdir()] == [written]


def test_a_failed_test_keeps_its_exit_status_when_a_write_fails(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(VANISHING + "\n    def test_failing():\n        assert False\n")
    pytester.mkdir("out")

    result = pytester.runpytest("--remit-db=out/runs.db")

    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["remit: ERROR: the session's trials were not stored *"])


def test_the_marker_agent_overrides_the_option_and_the_help_says_so(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(agent="oracle", modes=("dual_control",))
        def test_marked(remit):
            assert remit.run("discount-exception").agent == "oracle"

        @pytest.mark.remit(modes=("dual_control",))
        def test_unmarked(remit):
            assert remit.run("discount-exception").agent == "guessing"
    """)

    result = pytester.runpytest("--remit-agent=guessing")
    shown = pytester.runpytest("--help")

    result.assert_outcomes(passed=2)
    text = " ".join(shown.stdout.str().split())
    assert ("package.module:factory (default: baseline); a test's "
            "@pytest.mark.remit(agent=...) overrides it") in text
    for key in ("modes", "trials", "seed"):
        assert f"a test's @pytest.mark.remit({key}=...) overrides it" in text


def test_check_agent_option_loads_defers_or_refuses() -> None:
    assert check_agent_option("oracle") is True
    assert check_agent_option("no_such_agents_module:Agent", import_later=True) is False
    with pytest.raises(SettingsError, match=r"^cannot use the remit settings from "
                       r"--remit-agent='nosuch': cannot load agent spec='nosuch'") as caught:
        check_agent_option("nosuch", import_later=True)
    assert caught.value.where == "--remit-agent='nosuch'"
    assert caught.value.hint == "or leave --remit-agent out to run the default agent (baseline)"
    with pytest.raises(SettingsError, match=r"module 'no_such_agents_module' is not importable"):
        check_agent_option("no_such_agents_module:Agent")

