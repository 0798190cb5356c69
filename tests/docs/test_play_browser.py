"""The play control in a real browser: headless Chromium driven by chromedriver through selenium.

Each check opens a scenario on a built rules page, drives it as a reader would (buttons, arrow keys,
taps, drag-and-drop, Enter, the language menu, the copy button) and compares what is drawn with
the reference engine. A screenshot of every check goes to $CRESCENT_SCREENSHOTS (default: a
temporary folder); CI keeps them. Skipped when chromium, chromedriver or selenium is missing
(.ci/run installs Debian's chromium and chromium-driver; selenium is in the dev extra).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.scenarios import Scenario
from conformance.docs.common import rules_file
from conformance.docs.runs import Run, play
from conformance.judging.state import canonical_action
from crescent_ref.cards import CARD_TEXT
from crescent_ref.cli import main as crescent_ref
from crescent_ref.messages import message
from crescent_ref.position import Position

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[dev]')")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()), reason="no chromium/chromedriver (apt-get install chromium-driver)"
)

from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402

DRAWN = """
const board = arguments[0].querySelector('.board');
const pick = (sel, keys) => [...board.querySelectorAll(sel)].map((g) => keys.map((k) => g.dataset[k] ?? ''));
return {piles: pick('g.pile', ['count', 'top', 'hidden']), foundations: pick('g.foundation', ['place', 'top']),
        held: pick('g.held', ['top']), backs: board.querySelectorAll('rect.back').length,
        status: board.dataset.status, position: board.dataset.position};
"""
RESET = """
for (const name of ['reset', 'first']) {
  const button = arguments[0].querySelector(`[data-do=${name}]`);
  if (!button.disabled) button.click();
}
"""


class Browser:
    """One Chromium for the module, with a screenshot folder and a console that must stay clean."""

    def __init__(self, driver: WebDriver, shots: Path) -> None:
        self.driver, self.shots = driver, shots

    def open(self, page: Path, scenario_id: str, run: int = 0, *, fresh: bool = False) -> WebElement:
        """Open the play control of ``scenario_id``'s run ``run`` on ``page`` (loaded if it is not, or ``fresh``),
        at the scenario's first step."""
        if fresh or self.driver.current_url != page.as_uri():
            self.driver.get(page.as_uri())
        details = self.driver.find_elements(By.CSS_SELECTOR, f'section[id="{scenario_id}"] details.play')[run]
        self.driver.execute_script("arguments[0].scrollIntoView(); arguments[0].open = true;", details)
        details.find_element(By.CSS_SELECTOR, ".board svg")
        self.driver.execute_script(RESET, details)
        return details

    def shot(self, name: str, element: WebElement | None = None) -> None:
        """Save a screenshot (of ``element`` if given) and check it is a real image."""
        path = self.shots / f"{name}.png"
        if element is not None:
            self.driver.execute_script("arguments[0].scrollIntoView();", element)
        self.driver.save_screenshot(str(path))
        assert path.stat().st_size > 2000, f"{path} is (nearly) empty"

    def console_errors(self) -> list[str]:
        """Console messages of level error (and uncaught exceptions) since the last call."""
        entries: list[dict[str, Any]] = self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        return [str(e["message"]) for e in entries if e["level"] == "SEVERE"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Headless Chromium through chromedriver, 1200x1000, with the console log kept."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000", "--lang=en"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(str(DRIVER)), options=options)
    driver.implicitly_wait(10)  # the play script loads after the click that opens a run
    shots = Path(os.environ.get("CRESCENT_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    try:
        yield Browser(driver, shots)
    finally:
        driver.quit()


@pytest.fixture(autouse=True)
def clean_console(browser: Browser) -> Iterator[None]:
    """Every check ends with no console error."""
    browser.console_errors()
    yield
    assert browser.console_errors() == []


def stepping_scenario(corpus: list[Scenario], profile: str, *, code: bool) -> tuple[Scenario, Run]:
    """A short scenario of ``profile`` (dealt from a code or not) with accepted and rejected steps."""
    for sc in corpus:
        if sc.profiles[0] == profile and bool(sc.code) == code and 3 <= len(sc.steps) <= 10:
            run = play(sc, profile)
            outcomes = {v.outcome for v in run.steps}
            if run.start is not None and all(v.agrees for v in run.steps) and (code or len(outcomes) == 2):
                return sc, run
    raise AssertionError(f"no scenario to step through in {profile}")


def expected_drawing(position: Position) -> dict[str, Any]:
    """What the page should draw for a position: each pile's count, top card and face-down cards."""
    piles = []
    for cards, hidden in zip(position.piles, position.hidden, strict=True):
        shown = min(hidden, len(cards))
        top = CARD_TEXT[cards[-1]] if cards and shown < len(cards) else ""
        piles.append([str(len(cards)), top, str(shown)])
    return {"piles": piles, "position": position.to_text()}


def check_drawn(browser: Browser, details: WebElement, position: Position, status: str) -> dict[str, Any]:
    """The board drawn in ``details`` shows ``position`` with ``status``."""
    drawn: dict[str, Any] = browser.driver.execute_script(DRAWN, details)
    wanted = expected_drawing(position)
    assert drawn["piles"] == wanted["piles"]
    assert drawn["position"] == wanted["position"] and drawn["status"] == status
    return drawn


def verdict(details: WebElement) -> tuple[str, str, str]:
    """The outcome, reason code and text of the verdict line."""
    line = details.find_element(By.CSS_SELECTOR, ".verdict")
    return line.get_attribute("data-outcome") or "", line.get_attribute("data-reason") or "", line.text


def test_stepping_through_a_scenario_draws_each_state_it_expects(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, run = stepping_scenario(corpus, "app", code=False)
    details = browser.open(site / rules_file("app"), sc.id)
    assert run.start is not None
    check_drawn(browser, details, run.start, run.status)
    browser.shot(f"step-{sc.id}-0", details)
    details.find_element(By.CSS_SELECTOR, "[data-do=forward]").click()
    for n, view in enumerate(run.steps, 1):
        if n > 1:
            ActionChains(browser.driver).send_keys(Keys.ARROW_RIGHT).perform()
        status = str(view.expected.state.get("status", view.reply.state["status"]))
        check_drawn(browser, details, view.position, status)
        assert verdict(details)[:2] == (view.outcome, view.reason if view.outcome == "rejected" else "")
        assert "as the scenario expects" in verdict(details)[2]
        counters = details.find_element(By.CSS_SELECTOR, ".counters").text
        assert f"status {status} · moves {view.position.moves} · reshuffles left {view.position.reshuffles}" in counters
        assert details.find_element(By.CSS_SELECTOR, ".at").text.startswith(f"step {n} of {len(run.steps)}")
        browser.shot(f"step-{sc.id}-{n}", details)
    ActionChains(browser.driver).send_keys(Keys.ARROW_LEFT).perform()
    check_drawn(browser, details, run.steps[-2].position, str(run.steps[-2].reply.state["status"]))


def test_a_closed_deal_is_drawn_with_card_backs(browser: Browser, site: Path, corpus: list[Scenario]) -> None:
    sc, run = stepping_scenario(corpus, "morehead-1949", code=True)
    details = browser.open(site / rules_file("morehead-1949"), sc.id)
    assert run.start is not None
    drawn = check_drawn(browser, details, run.start, run.status)
    assert drawn["backs"] > 16 and sum(int(p[2]) for p in drawn["piles"]) > 0
    assert details.find_element(By.CSS_SELECTOR, "[data-do=undo]").get_attribute("disabled") is not None
    browser.shot(f"closed-{sc.id}", details)


def refused_tap_pair(sc: Scenario, profile: str) -> tuple[str, str, str]:
    """Two piles such that tapping the first selects it and tapping the second is refused: (src, dst, reason)."""
    for src in range(1, 17):
        for dst in range(1, 17):
            adapter = ReferenceAdapter()
            adapter.start(profile, position=sc.position, code=sc.code)
            if adapter.act(f"tap p{src}").effect == "select" and src != dst:
                reply = adapter.act(f"tap p{dst}")
                if not reply.accepted and reply.reason:
                    return f"p{src}", f"p{dst}", reply.reason
    raise AssertionError(f"no refused tap in {sc.id}")


def test_an_illegal_move_by_tap_shows_its_reason_in_three_languages(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, _ = stepping_scenario(corpus, "app", code=False)
    src, dst, reason = refused_tap_pair(sc, "app")
    details = browser.open(site / rules_file("app"), sc.id)
    details.find_element(By.CSS_SELECTOR, f'[data-place="{src}"]').click()
    assert verdict(details)[:2] == ("accepted", "") and f"selected {src}" in details.text
    details.find_element(By.CSS_SELECTOR, f'[data-place="{dst}"]').click()
    for lang in ("en", "id", "zh"):
        if lang != "en":
            menu = details.find_element(By.CSS_SELECTOR, "select.lang")
            menu.find_element(By.CSS_SELECTOR, f'option[value="{lang}"]').click()
        outcome, shown_reason, text = verdict(details)
        assert (outcome, shown_reason) == ("rejected", reason)
        assert f"tap {dst}" in text and message(reason, lang) in text
        browser.shot(f"refused-{reason}-{lang}", details)
    menu = details.find_element(By.CSS_SELECTOR, "select.lang")
    menu.find_element(By.CSS_SELECTOR, 'option[value="en"]').click()


def first_move_scenario(corpus: list[Scenario]) -> tuple[Scenario, Run, str, str]:
    """An app scenario from a position whose first step is an accepted card move: (scenario, run, src, dst)."""
    for sc in corpus:
        if sc.profiles[0] == "app" and sc.position and sc.steps:
            action = canonical_action(sc.steps[0].action)
            if sc.steps[0].expect.outcome == "accepted" and "-" in action and " " not in action:
                run = play(sc, "app")
                if run.start is not None and run.steps[0].agrees:
                    src, dst = action.split("-")
                    return sc, run, src, dst
    raise AssertionError("no scenario starting with a move")


def test_drag_and_drop_undo_and_the_enter_key(browser: Browser, site: Path, corpus: list[Scenario]) -> None:
    sc, run, src, dst = first_move_scenario(corpus)
    first = run.steps[0]
    details = browser.open(site / rules_file("app"), sc.id)
    source = details.find_element(By.CSS_SELECTOR, f'[data-place="{src}"]')
    target = details.find_element(By.CSS_SELECTOR, f'[data-place="{dst}"]')
    ActionChains(browser.driver).click_and_hold(source).move_by_offset(8, 8).move_to_element(target).release().perform()
    assert verdict(details)[0] == "accepted" and f"{src}-{dst}" in verdict(details)[2]
    check_drawn(browser, details, first.position, str(first.reply.state["status"]))
    browser.shot(f"drag-{sc.id}", details)
    details.find_element(By.CSS_SELECTOR, "[data-do=undo]").click()
    assert verdict(details)[0] == "accepted" and "undo" in verdict(details)[2]
    assert run.start is not None
    check_drawn(browser, details, run.start, run.status)
    browser.shot(f"undo-{sc.id}", details)
    places = details.find_elements(By.CSS_SELECTOR, "[data-place]")
    assert len(places) == 24 and all(p.get_attribute("tabindex") == "0" for p in places)
    assert all((p.get_attribute("aria-label") or "").startswith(("pile ", "Ace ", "King ")) for p in places)
    place = details.find_element(By.CSS_SELECTOR, f'[data-place="{src}"]')
    browser.driver.execute_script("arguments[0].focus();", place)
    ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
    assert f"tap {src}" in verdict(details)[2]
    browser.shot(f"enter-{sc.id}", details)


def test_the_copied_command_replays_the_line_with_crescent_ref(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, run = stepping_scenario(corpus, "app", code=False)
    details = browser.open(site / rules_file("app"), sc.id)
    details.find_element(By.CSS_SELECTOR, "[data-do=last]").click()
    button = details.find_element(By.CSS_SELECTOR, "[data-do=copy]")
    button.click()
    assert button.text == "copied"
    command = details.find_element(By.CSS_SELECTOR, "textarea.command").get_attribute("value") or ""
    words = shlex.split(command)
    assert words[:4] == ["crescent-ref", "play", "--profile", "app"] and words[5] == sc.position
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = crescent_ref(words[1:])
    assert code == (0 if all(v.outcome == "accepted" for v in run.steps) else 1)
    assert out.getvalue().count("\n") > len(run.steps)
    browser.shot(f"copy-{sc.id}", details)


def test_a_phone_sized_window_shows_the_table_without_sideways_scrolling(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, _ = stepping_scenario(corpus, "app", code=False)
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        details = browser.open(site / rules_file("app"), sc.id, fresh=True)
        width = browser.driver.execute_script("return document.documentElement.scrollWidth")
        board = browser.driver.execute_script(
            "return arguments[0].querySelector('.board svg').getBoundingClientRect().width", details
        )
        assert width <= 390 and 300 < board <= 390
        browser.shot(f"phone-{sc.id}", details)
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_console_error_in_the_page_is_seen(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>throw new Error("boom")</script>', encoding="utf-8")
    browser.driver.get(page.as_uri())
    assert any("boom" in line for line in browser.console_errors())
