"""remit's pytest plugin: scenarios as tests, one test id per scenario x control mode.

A thin shell over :mod:`remit.harness` (settings, outcomes, scenario files, the
session summary) and :mod:`remit.reports` (the failure explanation, the mode table).
The library is imported lazily inside the hooks, so a project that has remit installed
but does not use it pays nothing at collection.

Writing a scenario test::

    import pytest

    @pytest.mark.remit(modes=("all_tools", "dual_control"), trials=3, agent="oracle")
    def test_supersession(remit):
        outcome = remit.run("supersession-substitution")  # a Scenario, an id or a YAML file
        outcome.expect_pass_hat_k(1, at_least=1.0).expect_no_wrong_variant()

- ``@pytest.mark.remit(modes=..., trials=..., agent=..., seed=...)``: modes are
  built-in names or :class:`~remit.authority.ControlMode` objects (custom modes); agent
  is a built-in name, ``"package.module:factory"``, a factory or an agent class.
  Marker values override the ``--remit-*`` options, which override the defaults
  (agent ``baseline``, modes ``all_tools,dual_control``, 1 trial, seed 0): a test that
  pins ``agent="oracle"`` runs the oracle whatever ``--remit-agent`` says.
- The options are checked before any test runs, each bad one a usage error naming it:
  ``--remit-agent`` must load, ``--remit-report`` must have a known suffix in a
  writable place, and ``--remit-db`` must be reachable (a SQLite file's directory must
  exist; nothing is created until the session stores its trials).
- A test that uses the ``remit`` fixture (or ``remit_mode``) is parametrised by mode;
  test ids carry the mode names (``test_supersession[dual_control]``).
- ``remit`` is a :class:`~remit.harness.outcome.ScenarioRunner`:
  ``remit.run(scenario, agent=None, trials=None, seed=None, mode=None)`` returns a
  :class:`~remit.harness.outcome.ScenarioOutcome` (trials aggregated: ``passes``,
  ``pass_hat_k(k)``, ``summary`` with the rates, ``records``) with ``expect_*`` helpers.
  A broken expectation fails the test with the shortest trail that explains its first
  failing trial (numbered steps, ``>>`` at the first departure from the reference
  plan, ``expectation broke: ...``), attached as a note to the ``AssertionError``.
- Scenario files: ``scenario_*.yaml`` and ``*.scenario.yaml`` (``.yml`` too, and
  ``*.scenario.json``) are collected; each is one Scenario (``remit suite export``
  writes such files) and yields one item per ``--remit-modes`` mode, which runs the
  scenario with the configured agent and trials and fails unless every trial passes. A
  file that does not validate is a collection error naming the file, the field path and
  the problem; so is a scenario that fails remit's scenario check in those modes
  (:func:`remit.harness.check.collection_failure`: one line per problem, naming the
  rule).
- ``expect_*`` helpers: ``expect_passed``, ``expect_pass_hat_k``, ``expect_final_state``,
  ``expect_no_wrong_variant`` (final and shown wrong variants; ``shown=False`` checks
  the final offer only), ``expect_no_unsupported_claims`` (stated claims),
  ``expect_no_unsupported_citations``, ``expect_no_abandoned_handoffs`` and
  ``expect_no_missing_handoffs``.
- Each outcome's metrics are attached to the test item as properties (``pass_hat_1``,
  ``pass_rate``, ``wrong_variant_rate``, ``wrong_variant_shown_rate``,
  ``missing_handoff_rate``, ...; see
  :func:`remit.harness.collected.outcome_properties`), so ``--junitxml`` carries them;
  the scored trials as JSON only with ``--remit-junit-payload``. A scenario file's
  items get the file's dotted path as their JUnit classname.
- The outcomes also travel on the test reports (under pytest-xdist, from the workers to
  the controller), which alone builds the summary: one table per agent, a column per
  mode with pass^k, the headline rates with Wilson intervals, the conversation's costs,
  below a rule the per-item rates, and for an agent that reports its usage its model
  calls and reply issues. The trials of several tests that ran a scenario
  in a mode with one agent are merged without loss
  (:func:`remit.harness.session.merge_session`), and a line names those tests.
- ``--remit-db`` stores the session as one run per agent (a run has one agent), with
  the same merged trials; ``--remit-report`` writes one report per run.
- ``--remit-scenario``, ``--remit-k``, ``--remit-tag`` deselect scenario files' items
  outside the selection and skip a test whose ``remit.run`` names a scenario outside it;
  ``--remit-sample``/``--remit-sample-seed`` sample the scenario files' scenarios.
- A database or report that cannot be written at the end anyway (a full disk, a
  directory removed during the session) is one ``remit: ERROR`` line under the table
  and exit status 1 when the tests passed; the test summary is still printed.
"""

# The library is imported inside the hooks on purpose (STYLE.md: a lazy plugin), so:
# ruff: noqa: PLC0415

from __future__ import annotations

import io
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from remit.plugin_options import add_options, check_executor, close_executor, executor
from remit.plugin_options import selection as _selection
from remit.plugin_options import settings as _settings
from remit.plugin_session import record_session

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from remit.authority import ControlMode
    from remit.harness.collected import AgentSummary, SessionOutcome
    from remit.harness.outcome import ScenarioOutcome, ScenarioRunner
    from remit.harness.settings import RunSettings
    from remit.scenarios import Scenario

__all__ = ["ScenarioFile", "ScenarioItem"]

_RESULTS = pytest.StashKey[list["SessionOutcome"]]()
_SCENARIO = pytest.StashKey[tuple["Scenario", "ControlMode"]]()
_OUTCOMES = pytest.StashKey[list[str]]()
_SPOOL = pytest.StashKey[str]()
_RECORDED = pytest.StashKey[list[tuple[str, bool]]]()
_AGENT_PENDING = pytest.StashKey[str]()
_SPOOL_INPUT = "remit_spool"
_REPORT_OUTCOMES = "remit_outcomes"
"""The test report attribute carrying the item's outcomes (pytest-xdist ships it)."""
_REPORT_CLASSNAME = "remit_classname"
"""The test report attribute carrying a scenario file item's JUnit classname."""

_MARKER_HELP = ("remit(modes=('all_tools', 'dual_control'), trials=1, agent='baseline', seed=0):"
                " run the test's scenarios in each control mode (one test id per mode) with "
                "this agent and number of trials; overrides the --remit-* options")


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``remit`` option group (:func:`remit.plugin_options.add_options`)."""
    add_options(parser)


def _is_worker(config: pytest.Config) -> bool:
    """pytest-xdist gives its workers a ``workerinput``; the controller has none."""
    return hasattr(config, "workerinput")


class _ResultCollector:
    """Gathers the outcomes of every test report (the controller's, under xdist), and
    gives scenario file items their JUnit classname."""

    def __init__(self, config: pytest.Config, results: list[SessionOutcome]) -> None:
        self._config = config
        self._results = results

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        classname = getattr(report, _REPORT_CLASSNAME, None)
        if isinstance(classname, str):
            _junit_classname(self._config, report, classname)
        outcomes = getattr(report, _REPORT_OUTCOMES, None)
        if report.when != "call" or not outcomes:
            return
        from remit.harness.collected import SessionOutcome

        self._results += [SessionOutcome.model_validate_json(text) for text in outcomes]


def _junit_classname(config: pytest.Config, report: pytest.TestReport, classname: str) -> None:
    """Set the classname ``--junitxml`` writes for ``report``'s test case.

    pytest derives it from the node id, which for ``dir/scenario_x.yaml`` gives
    ``dir.scenario_x.yaml`` (a class ``yaml`` in a package ``dir.scenario_x``); a scenario
    file's items get ``dir.scenario_x`` instead, as a Python test module's would. This
    uses pytest's junitxml internals as ``record_xml_attribute`` does; if they change,
    pytest's own classname stays.
    """
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # pragma: no cover - a pytest without the stash key
        return
    xml = config.stash.get(xml_key, None)
    reporter = getattr(xml, "node_reporter", None)
    if callable(reporter):
        add = getattr(reporter(report), "add_attribute", None)
        if callable(add):
            add("classname", classname)


def _usage_error(option: str, value: str, problem: str, hint: str) -> pytest.UsageError:
    """One line naming the option, its value, the problem and what to do."""
    from remit.harness.settings import SettingsError

    return pytest.UsageError(str(SettingsError(f"{option}={value!r}", (problem,), hint)))


def _check_agent(config: pytest.Config, *, collected: bool) -> None:
    """Load ``--remit-agent`` before any test runs: a bad spec is one usage error.

    A ``package.module:factory`` whose module is not importable at configuration may
    live beside the tests, which pytest puts on ``sys.path`` as it collects them; it is
    loaded again when collection has finished (not under pytest-xdist, whose controller
    collects nothing: there each test that uses it fails instead).
    """
    spec = config.stash.get(_AGENT_PENDING, None) if collected \
        else config.getoption("remit_agent")
    if spec is None:
        return
    from remit.harness.settings import SettingsError, check_agent_option

    try:
        if not check_agent_option(spec, import_later=not collected):
            config.stash[_AGENT_PENDING] = spec
    except SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None


def _report_problem(report: str) -> str | None:
    """Why ``--remit-report`` cannot be written (``None`` if it can), without writing it."""
    from remit.outputs import output_file_problem
    from remit.reports import REPORT_FORMATS

    path = Path(report)
    if path.suffix.lower() not in REPORT_FORMATS:
        return (f"suffix={path.suffix!r} names no report format (known: "
                f"{', '.join(REPORT_FORMATS)})")
    return output_file_problem(path)


def _check_outputs(config: pytest.Config) -> None:
    """Check ``--remit-db`` and ``--remit-report`` before any test runs."""
    from remit.outputs import database_problem

    db, report = config.getoption("remit_db"), config.getoption("remit_report")
    if db is not None and (problem := database_problem(db)) is not None:
        raise _usage_error("--remit-db", db, problem,
                           "pass a SQLite file in an existing, writable directory or a "
                           "reachable postgresql://USER@HOST:PORT/DB")
    if report is not None and (problem := _report_problem(report)) is not None:
        raise _usage_error("--remit-report", report, problem,
                           "pass a .html, .md, .json or .xml (JUnit) file in a writable place")


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker; check the options if any is given; collect results."""
    config.addinivalue_line("markers", _MARKER_HELP)
    options = ("remit_agent", "remit_modes", "remit_trials", "remit_seed", "remit_db",
               "remit_report")
    if any(config.getoption(name) is not None for name in options):
        _settings(config)
    _selection(config)
    check_executor(config)
    if not _is_worker(config):
        # The controller checks for everyone, before the spool below exists.
        _check_agent(config, collected=False)
        _check_outputs(config)
        results: list[SessionOutcome] = []
        config.stash[_RESULTS] = results
        config.pluginmanager.register(_ResultCollector(config, results), "remit-results")
        if config.getoption("remit_db") is not None or config.getoption("remit_report"):
            import tempfile

            config.stash[_SPOOL] = tempfile.mkdtemp(prefix="remit-session-")
    else:
        spool = config.workerinput.get(_SPOOL_INPUT)  # type: ignore[attr-defined]
        if spool:
            config.stash[_SPOOL] = spool


def pytest_collection_finish(session: pytest.Session) -> None:
    """Load an ``--remit-agent`` whose module only collection put on ``sys.path``."""
    _check_agent(session.config, collected=True)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Deselect the scenario file items outside the ``--remit-*`` scenario selection (the
    filters, then the sample); an ``--remit-scenario`` id that names no collected
    scenario file and no built-in scenario is a usage error."""
    selection = _selection(config)
    if selection is None:
        return
    from remit.harness.selection import draw, scenario_filter
    from remit.scenarios import builtin_scenarios

    files = [item for item in items if isinstance(item, ScenarioItem)]
    scenarios = {item.stash[_SCENARIO][0].id: item.stash[_SCENARIO][0] for item in files}
    known = set(scenarios) | {s.id for s in builtin_scenarios()}
    unknown = [i for i in selection.scenario_ids if i not in known]
    if unknown:
        raise pytest.UsageError(
            f"--remit-scenario {', '.join(unknown)}: no scenario file collected and no "
            "built-in scenario has that id; give the id a scenario file or remit.run uses "
            "(`remit suite list --suite DIR` lists a directory's), or select a scenario "
            "built in code with --remit-k")
    passes = scenario_filter(selection)
    kept = [s for _, s in sorted(scenarios.items()) if passes(s)]
    if selection.sample is not None:
        kept = draw(kept, selection.sample, selection.sample_seed or 0)
    chosen = {s.id for s in kept}
    deselected = [item for item in files if item.stash[_SCENARIO][0].id not in chosen]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        dropped = {id(item) for item in deselected}
        items[:] = [item for item in items if id(item) not in dropped]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """Under pytest-xdist: tell each worker where to spool its outcomes."""
    config: pytest.Config = node.config  # type: ignore[attr-defined]
    if _SPOOL in config.stash:
        node.workerinput[_SPOOL_INPUT] = config.stash[_SPOOL]  # type: ignore[attr-defined]


def _sink(config: pytest.Config, item: pytest.Item) -> Callable[[ScenarioOutcome], None]:
    """What happens to each outcome: properties on the item, the outcome on its report
    (for the summary), and the spool if any."""
    from remit.harness.collected import outcome_properties, session_outcome
    from remit.harness.spool import spool_outcome

    spool = config.stash.get(_SPOOL, None)
    payload = bool(config.getoption("remit_junit_payload"))

    def sink(outcome: ScenarioOutcome) -> None:
        item.user_properties.extend(outcome_properties(outcome, payload=payload))
        item.stash.setdefault(_OUTCOMES, []).append(
            session_outcome(item.nodeid, outcome).model_dump_json())
        if spool is not None:
            spool_outcome(spool, outcome, test=item.nodeid)

    return sink


def _admit(config: pytest.Config) -> Callable[[Scenario], None] | None:
    """What the ``remit`` fixture does before running a scenario: skip the test when the
    scenario is outside the ``--remit-scenario/-k/-tag`` selection."""
    selection = _selection(config)
    if selection is None:
        return None
    from remit.harness.selection import PLUGIN_OPTIONS, describe, scenario_filter

    filters = selection.model_copy(update={"sample": None})  # remit.run is not sampled
    if filters.is_all:
        return None
    passes = scenario_filter(filters)
    options = describe(filters, PLUGIN_OPTIONS)

    def admit(scenario: Scenario) -> None:
        if not passes(scenario):
            pytest.skip(f"scenario {scenario.id} is not selected by {options}")

    return admit


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Put the item's outcomes on its call report, and a scenario file item's JUnit
    classname on each report: attributes pytest-xdist ships to the controller."""
    report = yield
    if call.when == "call" and (outcomes := item.stash.get(_OUTCOMES, None)):
        setattr(report, _REPORT_OUTCOMES, list(outcomes))
    if isinstance(item, ScenarioItem):
        setattr(report, _REPORT_CLASSNAME, item.junit_classname)
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Record the session (``--remit-db``: one run per agent, as a run has one agent)
    and write its report (``--remit-report``: one per run), once, on the controller.

    A database or report that cannot be written (the options were checked at the start,
    but a disk can fill up) is one error line in the summary and exit status 1 when the
    tests passed, never a traceback that would hide the test summary.
    """
    config = session.config
    close_executor(config)
    spool = config.stash.get(_SPOOL, None)
    if _is_worker(config) or spool is None:
        return
    import shutil

    from remit.harness.spool import read_spool

    outcomes = read_spool(spool)
    shutil.rmtree(spool, ignore_errors=True)
    lines: list[tuple[str, bool]] = []
    config.stash[_RECORDED] = lines
    if not outcomes:
        lines.append(("remit: no scenario ran; nothing stored or reported", False))
        return
    record_session(_settings(config), outcomes, _selection(config), lines,
                   executor="local" if config.getoption("remit_executor") != "ray" else "ray")
    if any(error for _, error in lines) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _node_settings(node: pytest.Item) -> RunSettings:
    """The settings of one test: the session's, narrowed by its ``remit`` marker."""
    marker = node.get_closest_marker("remit")
    settings = _settings(node.config)
    if marker is None:
        return settings
    from remit.harness.settings import SettingsError

    try:
        return settings.with_marker(marker.args, marker.kwargs, where=node.nodeid)
    except SettingsError as exc:
        problem = str(exc)
    pytest.fail(problem, pytrace=False)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise a test that uses ``remit`` or ``remit_mode`` by control mode."""
    if "remit_mode" not in metafunc.fixturenames:
        return
    modes = _node_settings(metafunc.definition).modes
    metafunc.parametrize("remit_mode", modes, ids=[mode.name for mode in modes])


@pytest.fixture
def remit_mode(request: pytest.FixtureRequest) -> ControlMode:
    """The control mode of this test id (the first configured mode when not parametrised)."""
    return _node_settings(request.node).modes[0]


@pytest.fixture
def remit(request: pytest.FixtureRequest, remit_mode: ControlMode) -> ScenarioRunner:
    """Runs scenarios in this test id's mode with the test's agent, trials and seed.

    Each outcome's metrics become properties of the test item (as ``record_property``
    does, without its warning under junit_family xunit2).
    """
    from remit.harness.outcome import ScenarioRunner

    node: pytest.Item = request.node
    return ScenarioRunner(_node_settings(node), remit_mode, _sink(node.config, node),
                          admit=_admit(node.config), executor=executor(node.config))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Attach the explanation of the first failing trial to a broken expectation."""
    try:
        return (yield)
    except AssertionError as exc:
        from remit.harness.outcome import ExpectationError

        if isinstance(exc, ExpectationError):
            from remit.reports.explain import explain_failure

            exc.add_note(explain_failure(exc))
        raise


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ScenarioFile | None:
    """Collect ``scenario_*.yaml``, ``*.scenario.yaml`` (``.yml`` too) and
    ``*.scenario.json`` files."""
    name = file_path.name
    if "scenario" in name and name.endswith((".yaml", ".yml", ".json")):
        # Only candidate names import remit: other projects' YAML files cost nothing.
        from remit.scenarios import is_scenario_file

        if is_scenario_file(name):
            file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
            return file
    return None


class ScenarioFile(pytest.File):
    """A scenario file: one item per configured control mode."""

    def collect(self) -> Generator[ScenarioItem, None, None]:
        """Load and check the scenario; a file that does not validate, or a scenario that
        fails the check (:func:`remit.harness.check.collection_failure`), is a collection
        error."""
        from remit.harness.check import collection_failure
        from remit.scenarios import ScenarioFileError, load_scenario

        shown = self.path.relative_to(self.config.rootpath) \
            if self.path.is_relative_to(self.config.rootpath) else self.path
        try:
            scenario = load_scenario(self.path, shown_as=shown.as_posix())
        except ScenarioFileError as exc:
            lines = "\n".join(f"{exc.path}: {problem}" for problem in exc.problems)
            raise self.CollectError(
                f"cannot load scenario file {exc.path}: {len(exc.problems)} problem(s); fix "
                f"the file so that it validates as remit.scenarios.Scenario\n{lines}") from None
        settings = _settings(self.config)
        failure = collection_failure(scenario, settings.modes, source=shown.as_posix(),
                                     seed=settings.seed)
        if failure is not None:
            raise self.CollectError(failure)
        for mode in settings.modes:
            item: ScenarioItem = ScenarioItem.from_parent(self, name=f"{scenario.id}[{mode.name}]")
            item.stash[_SCENARIO] = (scenario, mode)
            yield item


class ScenarioItem(pytest.Item):
    """One scenario in one mode: passes when every trial passes."""

    @property
    def junit_classname(self) -> str:
        """The classname ``--junitxml`` gives this item: the file's path from the rootdir,
        dotted, without ``.yaml``/``.yml`` and ``.scenario`` (``scenarios.scenario_x``),
        as a Python test module's tests get ``tests.test_x``."""
        path = self.path.relative_to(self.config.rootpath) \
            if self.path.is_relative_to(self.config.rootpath) else Path(self.path.name)
        name = path.name.rsplit(".", 1)[0].removesuffix(".scenario")
        return ".".join([*path.parent.parts, name])

    def runtest(self) -> None:
        """Run the scenario with the configured agent and trials; expect every trial to pass."""
        from remit.harness.outcome import ScenarioRunner

        scenario, mode = self.stash[_SCENARIO]
        runner = ScenarioRunner(_settings(self.config), mode, _sink(self.config, self),
                                executor=executor(self.config))
        runner.run(scenario).expect_passed()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: str | None = None) -> str | TerminalRepr:
        """A broken expectation shows its message and explanation, without a traceback."""
        from remit.harness.outcome import ExpectationError

        if isinstance(excinfo.value, ExpectationError):
            return "\n".join([str(excinfo.value), *getattr(excinfo.value, "__notes__", ())])
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the item comes from, for pytest's reports."""
        scenario, mode = self.stash[_SCENARIO]
        return self.path, None, f"scenario {scenario.id} in {mode.name}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """Print the session's summary, one table per agent (a column per mode), the
    scenarios several tests ran, and what was stored and reported (or could not be),
    once (the controller)."""
    recorded = config.stash.get(_RECORDED, [])
    results = config.stash.get(_RESULTS, [])
    if _is_worker(config) or not (results or recorded):
        return
    terminalreporter.section("remit summary")
    from remit.reports.safe import visible

    if results:
        from remit.harness.collected import session_summaries

        settings = _settings(config)
        agents = session_summaries(results, [m.name for m in settings.modes])
        for agent in agents.values():
            # The title is a line of its own: a table title wraps to the table's width.
            terminalreporter.write_line(visible(
                f"remit: {agent.agent}: {agent.trials} trial(s) of {agent.scenarios} "
                f"scenario(s) in {len(agent.summaries)} mode(s), from {agent.tests} test(s)"),
                bold=True)
            terminalreporter.write(_summary_table(config, agent))
        for agent in agents.values():
            for repeat in agent.repeats:
                terminalreporter.write_line(visible(repeat.line()))
    for line, error in recorded:
        terminalreporter.write_line(visible(line), red=error)


def _summary_table(config: pytest.Config, agent: AgentSummary) -> str:
    """One agent's per-mode table, as wide as it needs, with colour when the terminal
    has it."""
    from rich.measure import Measurement

    from remit.reports import mode_table
    from remit.reports.safe import SafeConsole

    table = mode_table(agent.summaries, title="")
    writer = config.get_terminal_writer()
    buffer = io.StringIO()
    console = SafeConsole(file=buffer, highlight=False, force_terminal=writer.hasmarkup,
                          color_system="standard" if writer.hasmarkup else None)
    # As wide as the table needs (CI logs do not wrap), at least the terminal's width.
    needed = Measurement.get(console, console.options.update_width(1000), table).maximum
    console.width = max(writer.fullwidth, needed)
    console.print(table)
    return buffer.getvalue()
