"""The plugin's ``remit`` option group: declared, and read into the session's settings,
scenario selection and executor, each built on first use and kept in the config's stash.

Part of :mod:`remit.pytest_plugin` (which registers the hooks); the library is imported
inside the functions, as there.
"""

# The library is imported inside the functions on purpose (STYLE.md: a lazy plugin), so:
# ruff: noqa: PLC0415

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from remit.harness import TrialExecutor
    from remit.harness.manifest import ScenarioSelection
    from remit.harness.settings import RunSettings

__all__ = ["add_options", "check_executor", "close_executor", "executor", "selection",
           "settings"]

_SETTINGS = pytest.StashKey["RunSettings"]()
_SELECTION = pytest.StashKey["ScenarioSelection | None"]()
_EXECUTOR = pytest.StashKey["TrialExecutor | None"]()


def add_options(parser: pytest.Parser) -> None:
    """Declare the ``remit`` option group."""
    group = parser.getgroup("remit", "remit: scenario tests of commercial agents")
    group.addoption("--remit-agent", metavar="SPEC", default=None,
                    help="agent for scenario tests: a built-in name (oracle, baseline, "
                         "guessing, claiming, abandoning, overreaching), openai:MODEL or "
                         "package.module:factory (default: baseline); a test's "
                         "@pytest.mark.remit(agent=...) overrides it")
    group.addoption("--remit-modes", metavar="NAMES", default=None,
                    help="comma-separated control modes, one test id each: built-in names "
                         "or mode files (.yaml/.json) (default: all_tools,dual_control); "
                         "a test's @pytest.mark.remit(modes=...) overrides it")
    group.addoption("--remit-trials", metavar="N", type=int, default=None,
                    help="trials per scenario and mode, the n of pass^k (default: 1); "
                         "a test's @pytest.mark.remit(trials=...) overrides it")
    group.addoption("--remit-seed", metavar="N", type=int, default=None,
                    help="run seed; each trial's seed derives from it (default: 0); "
                         "a test's @pytest.mark.remit(seed=...) overrides it")
    group.addoption("--remit-db", metavar="URL", default=None,
                    help="store the session's trials as one run in this database (a SQLite "
                         "path or postgresql://...); see it with `remit show`")
    group.addoption("--remit-report", metavar="PATH", default=None,
                    help="write a report of the session's trials; the format follows the "
                         "suffix: .html, .md, .json or .xml (JUnit); one per agent when "
                         "the session ran several")
    group.addoption("--remit-scenario", metavar="ID", action="append", default=None,
                    help="run only this scenario (repeatable): scenario files' items of "
                         "other scenarios are deselected, and a test's remit.run of another "
                         "scenario skips the test")
    group.addoption("--remit-k", metavar="EXPR", default=None,
                    help="run only scenarios whose ids match EXPR (words with and, or, not "
                         "and parentheses, as -k for test ids); applies like --remit-scenario")
    group.addoption("--remit-tag", metavar="TAG", action="append", default=None,
                    help="run only scenarios carrying this tag, facet=value or a value of "
                         "any facet (repeatable: any of them); applies like --remit-scenario")
    group.addoption("--remit-sample", metavar="N", type=int, default=None,
                    help="run a seeded random sample of N of the selected scenario files' "
                         "scenarios (the others are deselected; remit.run is not sampled)")
    group.addoption("--remit-sample-seed", metavar="S", type=int, default=None,
                    help="seed of --remit-sample (default: 0)")
    group.addoption("--remit-junit-payload", action="store_true", default=False,
                    help="also put each outcome's scored trials, as JSON, in the test's "
                         "properties (--junitxml's <property name=\"remit_scored\">); "
                         "off by default: kilobytes per trial that CI dashboards do not read")
    group.addoption("--remit-executor", choices=("local", "ray"), default="local",
                    help="where scenario tests run their trials: local (this process) or "
                         "ray (a Ray cluster, with the remit[ray] extra; default: local)")
    group.addoption("--remit-ray-address", metavar="ADDRESS", default=None,
                    help="with --remit-executor ray: the cluster (auto, HOST:PORT or "
                         "ray://HOST:PORT; default: start a local Ray in each pytest "
                         "process)")


def settings(config: pytest.Config) -> RunSettings:
    """The session's settings from the ``--remit-*`` options, built on first use."""
    if _SETTINGS not in config.stash:
        from remit.harness.settings import RunSettings, SettingsError

        try:
            config.stash[_SETTINGS] = RunSettings.from_options(
                agent=config.getoption("remit_agent"), modes=config.getoption("remit_modes"),
                trials=config.getoption("remit_trials"), seed=config.getoption("remit_seed"),
                db=config.getoption("remit_db"), report=config.getoption("remit_report"))
        except SettingsError as exc:
            raise pytest.UsageError(str(exc)) from None
    return config.stash[_SETTINGS]


def selection(config: pytest.Config) -> ScenarioSelection | None:
    """The ``--remit-scenario/-k/-tag/-sample`` selection, checked on first use."""
    if _SELECTION not in config.stash:
        from remit.harness.selection import PLUGIN_OPTIONS, SelectionError, selection_of

        try:
            config.stash[_SELECTION] = selection_of(
                scenario_ids=config.getoption("remit_scenario") or (),
                keyword=config.getoption("remit_k"), tags=config.getoption("remit_tag") or (),
                sample=config.getoption("remit_sample"),
                sample_seed=config.getoption("remit_sample_seed"), options=PLUGIN_OPTIONS)
        except SelectionError as exc:
            raise pytest.UsageError(exc.problem) from None
    return config.stash[_SELECTION]


def check_executor(config: pytest.Config) -> None:
    """Refuse, before any test runs, an ``--remit-executor``/``--remit-ray-address`` that
    cannot run: an address without Ray, Ray not installed, an address that does not
    answer (each a usage error)."""
    address = config.getoption("remit_ray_address")
    if config.getoption("remit_executor") != "ray":
        if address is not None:
            raise pytest.UsageError("--remit-ray-address only applies with "
                                    "--remit-executor ray; add it, or leave the address "
                                    "out to run in this process")
        return
    from remit.harness import ExecutorError, RayExecutor

    try:
        RayExecutor(address=address).check()
    except ExecutorError as exc:
        raise pytest.UsageError(str(exc)) from None


def executor(config: pytest.Config) -> TrialExecutor | None:
    """The session's executor: ``None`` for ``local``; for ``ray``, a
    :class:`~remit.harness.RayExecutor` connected on first use (in each pytest process
    that runs tests) and kept until the session ends."""
    if _EXECUTOR not in config.stash:
        if config.getoption("remit_executor") != "ray":
            config.stash[_EXECUTOR] = None
            return None
        from remit.harness import RayExecutor

        chosen = RayExecutor(address=config.getoption("remit_ray_address"))
        chosen.connect()
        config.stash[_EXECUTOR] = chosen
    return config.stash[_EXECUTOR]


def close_executor(config: pytest.Config) -> None:
    """End the session's executor, if one was connected."""
    chosen = config.stash.get(_EXECUTOR, None)
    if chosen is not None:
        from remit.harness import RayExecutor

        if isinstance(chosen, RayExecutor):
            chosen.close()
    config.stash[_EXECUTOR] = None
