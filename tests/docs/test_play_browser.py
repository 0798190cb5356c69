"""The play control in a real browser: headless Chromium driven by chromedriver through selenium.

Each check opens a scenario on a built rules page, drives it as a reader would (buttons, arrow keys,
taps, drag-and-drop, Enter, the language menu, the copy button) and compares what is drawn with
the reference engine. Every check runs twice: on a desktop window (1400x900, mouse) and on a phone
(390x844, touch: taps and drags are touch events, which the browser cancels when the board lets it
scroll instead). A screenshot of every check goes to $CRESCENT_SCREENSHOTS (default: a temporary
folder); CI keeps them. Skipped when chromium, chromedriver or selenium is missing (.ci/run installs
Debian's chromium and chromium-driver; selenium is in the dev extra).
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
from conformance.docs.play_words import word
from conformance.docs.runs import Run, play
from conformance.judging.state import canonical_action
from crescent_ref.cards import CARD_TEXT
from crescent_ref.cli import main as crescent_ref
from crescent_ref.game import Game
from crescent_ref.messages import message
from crescent_ref.position import Position

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[dev]')")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()), reason="no chromium/chromedriver (apt-get install chromium-driver)"
)

from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

DRAWN = """
const board = arguments[0].querySelector('.board');
const pick = (sel, keys) => [...board.querySelectorAll(sel)].map((g) => keys.map((k) => g.dataset[k] ?? ''));
return {piles: pick('g.pile', ['count', 'top', 'hidden']), foundations: pick('g.foundation', ['place', 'top']),
        held: pick('g.held', ['top']), backs: board.querySelectorAll('rect.back').length,
        status: board.dataset.status, position: board.dataset.position};
"""
RESET = """
CrescentPlay.setLanguage('en');
for (const name of ['reset', 'first']) {
  const button = arguments[0].querySelector(`[data-do=${name}]`);
  if (!button.disabled) button.click();
}
"""


SIZES = {"desktop": (1400, 900), "phone": (390, 844)}
MEASURE = """
const svg = arguments[0].querySelector('.board svg');
const scale = svg.getScreenCTM().a;
const cards = [...svg.querySelectorAll('g.place rect.face, g.place rect.back, g.place rect.slot')];
const labels = [...svg.querySelectorAll('text.label')];
return {layout: svg.dataset.layout, card: Math.min(...cards.map((r) => r.getBoundingClientRect().width)),
        label: Math.min(...labels.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
        board: svg.getBoundingClientRect().width, page: document.documentElement.scrollWidth,
        touchAction: getComputedStyle(svg.parentElement).touchAction};
"""


class Browser:
    """One Chromium for the module, with a screenshot folder and a console that must stay clean.

    ``touch`` (the phone) makes taps and drags touch input; otherwise they are the mouse's.
    """

    def __init__(self, driver: WebDriver, shots: Path, device: str) -> None:
        self.driver, self.shots, self.device = driver, shots, device
        self.touch = device == "phone"

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
        path = self.shots / f"{self.device}-{name}.png"
        if element is not None:
            self.driver.execute_script("arguments[0].scrollIntoView();", element)
        self.driver.save_screenshot(str(path))
        assert path.stat().st_size > 2000, f"{path} is (nearly) empty"

    def pointer(self) -> ActionBuilder:
        """An action chain for a finger (phone) or the mouse (desktop)."""
        kind = interaction.POINTER_TOUCH if self.touch else interaction.POINTER_MOUSE
        device = PointerInput(kind, "finger" if self.touch else "mouse")  # type: ignore[no-untyped-call]
        return ActionBuilder(self.driver, mouse=device)

    def tap(self, element: WebElement) -> None:
        """Tap (phone) or click (desktop) the middle of ``element``."""
        chain = self.pointer()
        finger: Any = chain.pointer_action  # selenium's pointer actions are not typed
        finger.move_to(element).pointer_down().pointer_up()
        chain.perform()

    def centre(self, element: WebElement) -> tuple[int, int]:
        """The middle of ``element`` in viewport pixels."""
        script = "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
        box = self.driver.execute_script(script, element)
        return round(box[0]), round(box[1])

    def drag(self, source: WebElement, target: WebElement) -> None:
        """Press on ``source``, move off it and on to ``target`` in steps, and let go there (by points, found
        first, so that a board redrawn under the finger fails the check, not the driver)."""
        (x, y), (to_x, to_y) = self.centre(source), self.centre(target)
        chain = self.pointer()
        finger: Any = chain.pointer_action
        finger.move_to_location(x, y).pointer_down()
        for k in range(1, 6):
            finger.move_to_location(x + (to_x - x) * k // 5, y + (to_y - y) * k // 5)
        finger.pointer_up()
        chain.perform()

    def choose_language(self, details: WebElement, lang: str) -> None:
        """Pick ``lang`` in the control's language menu."""
        Select(details.find_element(By.CSS_SELECTOR, "select.lang")).select_by_value(lang)

    def console_errors(self) -> list[str]:
        """Console messages of level error (and uncaught exceptions) since the last call."""
        entries: list[dict[str, Any]] = self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        return [str(e["message"]) for e in entries if e["level"] == "SEVERE"]


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Headless Chromium through chromedriver, with the console log kept: a 1400x900 desktop window with a
    mouse, or a 390x844 phone with touch input."""
    device: str = request.param
    width, height = SIZES[device]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}", "--lang=en"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(str(DRIVER)), options=options)
    driver.implicitly_wait(10)  # the play script loads after the click that opens a run
    if device == "phone":
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    shots = Path(os.environ.get("CRESCENT_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    try:
        yield Browser(driver, shots, device)
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


def summary(details: WebElement) -> str:
    """The text of the control's ``<summary>`` (read from the DOM: a summary's text is not its visible text
    in every driver)."""
    return str(details.find_element(By.CSS_SELECTOR, "summary").get_attribute("textContent"))


def test_stepping_through_a_scenario_draws_each_state_it_expects(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, run = stepping_scenario(corpus, "app", code=False)
    details = browser.open(site / rules_file("app"), sc.id)
    assert run.start is not None
    check_drawn(browser, details, run.start, run.status)
    browser.shot(f"step-{sc.id}-0", details)
    browser.tap(details.find_element(By.CSS_SELECTOR, "[data-do=forward]"))
    for n, view in enumerate(run.steps, 1):
        if n > 1:
            ActionChains(browser.driver).send_keys(Keys.ARROW_RIGHT).perform()
        status = str(view.expected.state.get("status", view.reply.state["status"]))
        check_drawn(browser, details, view.position, status)
        assert verdict(details)[:2] == (view.outcome, view.reason if view.outcome == "rejected" else "")
        assert "as the scenario expects" in verdict(details)[2]
        counters = details.find_element(By.CSS_SELECTOR, ".counters").text
        assert f"status {status} · moves {view.position.moves} · reshuffles left {view.position.reshuffles}" in counters
        assert summary(details).endswith(f"reshuffles left {view.position.reshuffles} · moves {view.position.moves}")
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


def test_a_reshuffle_keeps_the_summary_and_the_counters_current(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, run = stepping_scenario(corpus, "app", code=False)
    assert run.start is not None and run.start.reshuffles > 0
    details = browser.open(site / rules_file("app"), sc.id)
    assert f"reshuffles left {run.start.reshuffles} ·" in summary(details)
    browser.tap(details.find_element(By.CSS_SELECTOR, "[data-do=reshuffle]"))
    game = Game("app", run.start)
    assert game.apply("reshuffle").accepted and verdict(details)[0] == "accepted"
    check_drawn(browser, details, game.position, game.status())
    left = game.position.reshuffles
    assert left == run.start.reshuffles - 1
    assert f"reshuffles left {left} ·" in details.find_element(By.CSS_SELECTOR, ".counters").text
    assert summary(details).endswith(f"reshuffles left {left} · moves {game.position.moves}")
    browser.shot(f"reshuffle-{sc.id}", details)


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


def replay(command: str) -> tuple[int, str]:
    """Run a copied ``crescent-ref play`` command in process: its exit code and output."""
    words = shlex.split(command)
    assert words[:2] == ["crescent-ref", "play"], command
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = crescent_ref(words[1:])
    return code, out.getvalue()


def check_translated(details: WebElement, lang: str, status: str) -> None:
    """Every part of the control is in ``lang``: buttons, counters, status, step counter, verdict label, summary."""
    for name, key in (("undo", "undo"), ("reshuffle", "reshuffle"), ("reset", "scenario"), ("copy", "copy")):
        assert details.find_element(By.CSS_SELECTOR, f"[data-do={name}]").text == word(lang, key), (name, lang)
    forward = details.find_element(By.CSS_SELECTOR, "[data-do=forward]")
    assert forward.get_attribute("title") == word(lang, "forward")
    counters = details.find_element(By.CSS_SELECTOR, ".counters").text
    assert counters.startswith(f"{word(lang, 'status')} {word(lang, f'status-{status}')} · {word(lang, 'moves')} ")
    assert f"{word(lang, 'reshuffles-left')} " in counters
    assert word(lang, "rejected") in verdict(details)[2]
    assert summary(details).startswith(word(lang, "summary") + " · ")
    player = details.find_element(By.CSS_SELECTOR, ".player")
    assert player.get_attribute("lang") == lang
    place = details.find_element(By.CSS_SELECTOR, '[data-place="p1"]')
    assert (place.get_attribute("aria-label") or "").startswith(word(lang, "pile", n=1, what=""))


def test_an_illegal_move_by_tap_is_shown_in_three_languages_and_copied_with_its_language(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, _ = stepping_scenario(corpus, "app", code=False)
    src, dst, reason = refused_tap_pair(sc, "app")
    details = browser.open(site / rules_file("app"), sc.id)
    browser.tap(details.find_element(By.CSS_SELECTOR, f'[data-place="{src}"]'))
    assert verdict(details)[:2] == ("accepted", "") and f"selected {src}" in details.text
    browser.tap(details.find_element(By.CSS_SELECTOR, f'[data-place="{dst}"]'))
    status = str(details.find_element(By.CSS_SELECTOR, ".board").get_attribute("data-status"))
    for lang in ("en", "id", "zh"):
        browser.choose_language(details, lang)
        outcome, shown_reason, text = verdict(details)
        assert (outcome, shown_reason) == ("rejected", reason)
        assert f"tap {dst}" in text and message(reason, lang) in text
        check_translated(details, lang, status)
        command = details.find_element(By.CSS_SELECTOR, "textarea.command").get_attribute("value") or ""
        assert ("--lang" in command) == (lang != "en") and (lang == "en" or f" --lang {lang} " in command)
        code, out = replay(command)
        assert code == 1 and f"rejected ({reason}) {message(reason, lang)}" in out
        browser.shot(f"refused-{reason}-{lang}", details)
    browser.choose_language(details, "en")


def test_a_typed_action_that_is_not_one_is_labelled_once(browser: Browser, site: Path, corpus: list[Scenario]) -> None:
    sc, _ = stepping_scenario(corpus, "app", code=False)
    details = browser.open(site / rules_file("app"), sc.id)
    typed = details.find_element(By.CSS_SELECTOR, "input.typed")
    for text in ("zz", "p99-p1", "tap"):
        typed.send_keys(text, Keys.ENTER)
        outcome, _, shown = verdict(details)
        assert outcome == "errored" and shown.startswith(f"{text} → not an action: "), shown
        assert shown.count("not an action") == 1, shown
    browser.shot(f"typed-{sc.id}", details)


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
    browser.drag(source, target)
    assert verdict(details)[0] == "accepted" and f"{src}-{dst}" in verdict(details)[2]
    check_drawn(browser, details, first.position, str(first.reply.state["status"]))
    browser.shot(f"drag-{sc.id}", details)
    browser.tap(details.find_element(By.CSS_SELECTOR, "[data-do=undo]"))
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
    browser.tap(details.find_element(By.CSS_SELECTOR, "[data-do=last]"))
    button = details.find_element(By.CSS_SELECTOR, "[data-do=copy]")
    copies = int(button.get_attribute("data-copied") or "0")
    browser.tap(button)
    # The copy is done when data-copied counts it (the clipboard answers later than the click; the
    # button's text changes back after a moment, so it is no state to wait for).
    WebDriverWait(browser.driver, 10).until(lambda _: button.get_attribute("data-copied") == str(copies + 1))
    command = details.find_element(By.CSS_SELECTOR, "textarea.command").get_attribute("value") or ""
    words = shlex.split(command)
    assert words[:4] == ["crescent-ref", "play", "--profile", "app"] and words[5] == sc.position
    code, out = replay(command)
    assert code == (0 if all(v.outcome == "accepted" for v in run.steps) else 1)
    assert out.count("\n") > len(run.steps)
    browser.shot(f"copy-{sc.id}", details)


def test_the_table_fits_the_window_with_cards_and_labels_big_enough_to_read_and_hit(
    browser: Browser, site: Path, corpus: list[Scenario]
) -> None:
    sc, _ = stepping_scenario(corpus, "app", code=False)
    details = browser.open(site / rules_file("app"), sc.id, fresh=True)
    seen = browser.driver.execute_script(MEASURE, details)
    width = SIZES[browser.device][0]
    assert seen["page"] <= width and 300 < seen["board"] <= width, seen
    assert seen["layout"] == ("narrow" if browser.touch else "wide"), seen
    assert seen["card"] >= 40 and seen["label"] >= 11, seen
    assert seen["touchAction"] == "none", seen
    browser.shot(f"fits-{sc.id}", details)


def test_a_console_error_in_the_page_is_seen(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>throw new Error("boom")</script>', encoding="utf-8")
    browser.driver.get(page.as_uri())
    assert any("boom" in line for line in browser.console_errors())
