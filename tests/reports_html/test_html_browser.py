"""The HTML report in headless Chromium (Debian's ``chromium``, driven by Playwright):
no console error, nothing fetched from the network, the summary table, a chart and a
failing trial's approval trail visible, a long denial reason readable without scrolling
sideways at 1280 and 800 px, screenshots saved as test artifacts.

Screenshots go to the test's ``tmp_path`` and are copied to ``$REMIT_TEST_ARTIFACTS``
(default: ``artifacts/`` at the repository root, which git ignores).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Route, expect, sync_playwright

from remit.reports.html import render_html
from remit.reports.model import RunReport
from remit.reports.trial_sections import trial_anchor
from tests.reports_html.denial_run import denial_report, long_denial
from tests.reports_html.sample_run import FAILING_ALL_TOOLS, STOPPED_WRITE

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS_ENV = "REMIT_TEST_ARTIFACTS"
REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the HTML report tests need Debian's chromium; "
                    "install it with `apt-get update && apt-get install -y chromium` "
                    "(never `playwright install`); .ci/run installs it when missing")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A page with its console errors, page errors and blocked requests recorded."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.blocked: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.route("**/*", self._route)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text}")

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        yield Watched(context.new_page())
    finally:
        context.close()


def _artifacts(tmp_path: Path, *names: str) -> None:
    """Copy the named screenshots from ``tmp_path`` to the stable artifacts directory."""
    target = Path(os.environ.get(ARTIFACTS_ENV, "") or REPO_ROOT / "artifacts")
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(tmp_path / name, target / name)


def test_report_opens_in_chromium_with_its_trail(
        watched: Watched, page: str, report: RunReport, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    tab = watched.page
    tab.goto(html.as_uri())

    summary = tab.locator("#summary table.summary")
    expect(summary).to_be_visible()
    expect(summary.locator("th", has_text="dual_control")).to_be_visible()
    chart = tab.locator('svg.chart[aria-label="pass^k curve per mode"]')
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] > 200
    tab.screenshot(path=str(tmp_path / "report.png"))
    tab.locator("#charts").scroll_into_view_if_needed()
    tab.evaluate("document.getElementById('charts').scrollIntoView()")
    tab.screenshot(path=str(tmp_path / "report-charts.png"))

    trial = next(t for t in report.trials
                 if t.scenario_id == FAILING_ALL_TOOLS and t.mode == "all_tools"
                 and not t.passed)
    section = tab.locator(f'details[id="{trial_anchor(trial.id)}"]')
    trail = section.locator("table.trail")
    expect(trail).to_be_hidden()
    section.locator(":scope > summary").click()
    expect(trail).to_be_visible()
    expect(trail.locator("td.grants", has_text="g-finance-approve@agent")).to_be_visible()
    expect(section.locator("svg.swimlane")).to_be_visible()
    expect(section.locator("ol.transcript")).to_be_visible()
    section.scroll_into_view_if_needed()
    tab.screenshot(path=str(tmp_path / "report-trail.png"))
    _artifacts(tmp_path, "report.png", "report-charts.png", "report-trail.png")

    assert watched.errors == []
    assert watched.blocked == []


def test_a_stopped_write_shows_its_effect_like_a_denial(
        watched: Watched, page: str, report: RunReport, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    trial = next(t for t in report.trials if (t.scenario_id, t.mode) == STOPPED_WRITE
                 and t.trail is not None)
    tab = watched.page
    tab.goto(f"{html.as_uri()}#{trial_anchor(trial.id)}")
    trail = tab.locator(f'details[id="{trial_anchor(trial.id)}"] table.trail')
    expect(trail.locator("th", has_text="effect")).to_be_visible()
    stopped = trail.locator("td.effect", has_text="guard_failed")
    expect(stopped).to_be_visible()
    why = trail.locator("tr.reasons td.reason .stopped", has_text="three-way match")
    expect(why).to_be_visible()  # the error's message, in the full-width row under it
    expect(why).to_contain_text("guard_failed:")
    expect(trail.locator("td.effect", has_text="approval_pending \u2192 approved")).to_be_visible()
    colour = "el => getComputedStyle(el).color"
    denial_red = tab.locator("span.no").first.evaluate(colour)
    assert stopped.locator("span.no").evaluate(colour) == denial_red == "rgb(198, 40, 40)"
    assert why.evaluate(colour) == denial_red
    stopped.scroll_into_view_if_needed()
    tab.screenshot(path=str(tmp_path / "report-effect.png"))
    _artifacts(tmp_path, "report-effect.png")
    assert watched.errors == []
    assert watched.blocked == []


def test_a_trial_link_opens_its_section(
        watched: Watched, page: str, report: RunReport, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    trial = next(t for t in report.trials if t.mode == "dual_control" and not t.passed)
    tab = watched.page
    tab.goto(f"{html.as_uri()}#{trial_anchor(trial.id)}")
    section = tab.locator(f'details[id="{trial_anchor(trial.id)}"]')
    expect(section).to_have_attribute("open", "")
    expect(section.locator("table.trail")).to_be_visible()

    scenario = tab.locator(f'details[id="scenario-{trial.scenario_id}"]')
    scenario.locator(":scope > summary").click()
    other = next(t for t in report.trials if t.scenario_id == trial.scenario_id
                 and t.id != trial.id and not t.passed)
    scenario.locator(f'a[href="#{trial_anchor(other.id)}"]').click()
    expect(tab.locator(f'details[id="{trial_anchor(other.id)}"]')).to_have_attribute(
        "open", "")
    assert watched.errors == []
    assert watched.blocked == []


CLIENT_WIDTH = "el => [el.scrollWidth, el.clientWidth]"


@pytest.fixture(scope="session")
def denial() -> RunReport:
    """The one-trial run with a long denial reason, run on a thread of its own: the
    harness drives an event loop, and Playwright's may already hold this thread's."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(denial_report).result()


@pytest.mark.parametrize("width", [1280, 800])
def test_a_long_denial_reason_wraps_inside_the_viewport(
        browser: Browser, denial: RunReport, width: int, tmp_path: Path) -> None:
    trial, denied, reason = long_denial(denial)
    assert len(reason) > 120, "a reason long enough to have scrolled sideways"
    html = tmp_path / "report.html"
    html.write_text(render_html(denial), encoding="utf-8")
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        watched = Watched(context.new_page())
        tab = watched.page
        tab.goto(f"{html.as_uri()}#{trial_anchor(trial.id)}")
        section = tab.locator(f'details[id="{trial_anchor(trial.id)}"]')
        expect(section).to_have_attribute("open", "")
        table = section.locator("table.trail")
        row = table.locator("tr", has=tab.locator("td.reason", has_text=reason))
        expect(row).to_have_count(1)
        held = row.locator("td.reason .unmet")
        expect(held).to_have_text(f"unmet: {reason}")  # all of it
        held.scroll_into_view_if_needed()
        box = held.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
        scroll_width, client_width = held.evaluate(CLIENT_WIDTH)
        assert scroll_width <= client_width, "nothing of the reason is clipped"
        container = table.locator("xpath=..")
        expect(container).to_have_class("scroll")
        scroll_width, client_width = container.evaluate(CLIENT_WIDTH)
        assert scroll_width <= client_width, "the trail table needs no sideways scroll"
        # the denied decision's row sits right above; the swimlane's tooltip on it
        # carries the whole reason too
        decision = row.locator("xpath=preceding-sibling::tr[1]")
        expect(decision).to_contain_text("DENIED")
        expect(decision.locator("td").nth(1)).to_have_text(f"{denied.step}{denied.minute}m")
        tip = section.locator("svg.swimlane rect.no title")
        expect(tip).to_contain_text(reason)
        tab.screenshot(path=str(tmp_path / f"report-denial-{width}.png"))
        _artifacts(tmp_path, f"report-denial-{width}.png")
        assert watched.errors == []
        assert watched.blocked == []
    finally:
        context.close()
