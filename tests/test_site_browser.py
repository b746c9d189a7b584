"""The rules site in a real browser: Debian's chromium, headless, driven by Playwright.

Builds the site with ``mkdocs build --strict`` into a temporary folder, serves
it on 127.0.0.1 (a free port, in a thread), and checks what a reader sees:
pages render, a clause link lands on its anchor, the search finds "Jike", the
cards stay readable in the dark palette, and no request leaves the machine.
Screenshots go to reports/screenshots/.

Skips when /usr/bin/chromium, Playwright or MkDocs is missing, unless the
environment variable CI is set: then it fails, so CI cannot pass by skipping.
Never runs ``playwright install``: the browser is the system's.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest
from lunr_ranking import SearchIndex
from test_search_ranking import RULE_WORDS, is_rule_page

from specreader import spec

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "reports" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RULES = "rules/albastini.html"
EXAMPLE = "examples/albastini/trick/anna-boris.html"
CLAUSE = "albastini.play.trick-winner"
SCENARIO = "albastini/trick/anna-boris-trump-captures"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _missing() -> list[str]:
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install -e '.[docs]')")
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        missing.append("mkdocs (pip install -e '.[docs]')")
    return missing


@pytest.fixture(scope="module")
def requirements() -> None:
    missing = _missing()
    if missing:
        reason = "browser test needs " + ", ".join(missing) + "; .ci/docs installs them"
        if _in_ci():
            pytest.fail(f"CI is set, so not skipping: {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def site(requirements: None, built_site: Path) -> Path:
    return built_site  # one site a run for this module and the others that read it (tests/site_build.py)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """The site's files, and axe-core at AXE_URL beside them (the built site is shared and never written to)."""

    def translate_path(self, path: str) -> str:
        return str(AXE) if urlsplit(path).path == AXE_URL else super().translate_path(path)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(requirements: None) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Visit:
    """A page in a fresh browser context that records every request and blocks any to another host."""

    page: Page
    base: str
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)
        self.page.wait_for_load_state("load")

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))

    def assert_offline(self) -> None:
        assert not self.blocked, f"requests to other hosts: {self.blocked}"
        here = urlsplit(self.base).netloc
        outside = [u for u in self.requests if urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc != here]
        assert not outside, outside


@pytest.fixture
def visit(browser: Browser, server: str) -> Iterator[Visit]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    page = context.new_page()
    v = Visit(page, server)
    here = urlsplit(server).netloc

    def guard(route: Route) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != here:
            v.blocked.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", guard)
    page.on("request", lambda request: v.requests.append(request.url))
    try:
        yield v
    finally:
        context.close()


# ------------------------------------------------------------------ rendering


def test_home_page_renders(visit: Visit) -> None:
    visit.go("index.html")
    page = visit.page
    assert page.locator("h1").first.inner_text().startswith("trickspec")
    assert page.locator(".md-content .card").count() >= 10
    assert page.locator(".values-table").count() == 1
    assert "\ufe0e" in page.locator(".md-content .card__suit").first.inner_text()
    visit.shot("home-light")
    visit.assert_offline()


def test_rules_page_renders_every_clause_anchor(visit: Visit) -> None:
    visit.go(RULES)
    page = visit.page
    clauses = [cid for cid in spec.kit_spec().clause_index() if cid.startswith("albastini.")]
    ids = page.eval_on_selector_all("h3[id]", "els => els.map(e => e.id)")
    assert [i for i in ids if i.startswith("albastini.")] == clauses
    assert page.locator(f'[id="{CLAUSE}"] ~ details a[href*="examples/"]').count() > 0
    visit.shot("rules-light")
    visit.assert_offline()


def test_scenario_page_draws_the_deal(visit: Visit) -> None:
    visit.go(EXAMPLE)
    page = visit.page
    assert page.locator(f'[id="{SCENARIO}"]').count() == 1
    assert page.locator(".deal").first.locator(".card").count() >= 10
    assert page.locator(".deal .card--red").count() > 0 and page.locator(".deal .card--black").count() > 0
    texts = page.eval_on_selector_all(".deal .card__rank", "els => els.map(e => e.textContent)")
    assert "T" not in texts
    visit.shot("example-light")
    visit.assert_offline()


def _assert_in_view(page: Page, anchor: str) -> None:
    page.wait_for_function("id => document.querySelector(':target')?.id === id", arg=anchor)
    box = page.evaluate(
        "id => { const r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }",
        anchor,
    )
    top, bottom, height = box
    assert 0 <= top < height and bottom > 0, f"#{anchor} is not in view: {box}"


def test_clause_link_lands_on_its_anchor(visit: Visit) -> None:
    visit.go(EXAMPLE)
    page = visit.page
    link = page.locator(f'.md-content a[href$="#{CLAUSE}"]').first
    with page.expect_navigation():
        link.click()
    assert page.url.endswith(f"{RULES}#{CLAUSE}")
    _assert_in_view(page, CLAUSE)
    visit.shot("clause-anchor")
    # a scenario link from the clause leads back to the example
    back = page.locator(f'[id="{CLAUSE}"] ~ details').first
    back.locator("summary").click()
    target = back.locator(f'a[href$="#{SCENARIO}"]')
    with page.expect_navigation():
        target.click()
    _assert_in_view(page, SCENARIO)
    visit.assert_offline()


def test_search_finds_jike(visit: Visit) -> None:
    visit.go("index.html")
    page = visit.page
    box = page.locator("input[data-md-component='search-query']")
    box.click()
    box.type("Jike", delay=50)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(state="visible", timeout=20_000)
    assert "jike" in page.locator(".md-search-result").inner_text().lower()
    visit.shot("search-jike")
    visit.assert_offline()


def _search(visit: Visit, word: str) -> list[str]:
    """The pages the site's search lists for ``word``, in the order shown."""
    page = visit.page
    box = page.locator("input[data-md-component='search-query']")
    box.click()
    box.type(word, delay=50)
    # The results are for the whole word once their links carry it for highlighting.
    page.wait_for_function(
        "w => [...document.querySelectorAll('.md-search-result__link')].some(a => a.href.includes('h=' + w))",
        arg=word.lower(),
        timeout=20_000,
    )
    links = page.eval_on_selector_all(".md-search-result__item > .md-search-result__link", "els => els.map(e => e.href)")
    shown: list[str] = []
    for link in links:
        path = urlsplit(link).path.removeprefix(urlsplit(visit.base).path)
        if path not in shown:
            shown.append(path)
    return shown


@pytest.mark.parametrize("word", RULE_WORDS)
def test_search_puts_the_rules_first_as_the_ranking_model_says(visit: Visit, site: Path, word: str) -> None:
    """The browser's own order, held to tests/lunr_ranking.py's (which tests/test_search_ranking.py checks)."""
    visit.go("index.html")
    shown = _search(visit, word)
    assert shown and is_rule_page(shown[0]), shown
    if word == "mrithi":
        assert shown[0].startswith(("rules/", "play/")), shown
    expected = SearchIndex.read(site).pages(word)
    top = min(5, len(expected))
    assert shown[:top] == expected[:top]
    visit.assert_offline()


# ------------------------------------------------------------------ printing

A4 = (595.0, 842.0)  # points, each to within one
_PDF_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_table_s_sheet_prints_on_one_a4_sheet(browser: Browser, server: str, site: Path, scheme: str) -> None:
    """Chromium's own printing, as its --print-to-pdf does: the page size is the sheet's own (@page). Every
    page of print/ whose heading marks it a sheet: one per table size, and a game of one size has one."""
    sheets = sorted(p.stem for p in (site / "print").glob("*.html") if '<h1 class="print-sheet"' in p.read_text("utf-8"))
    games = sorted(spec.kit_spec().games())
    assert all(g in sheets or any(s.startswith(g + "-") for s in sheets) for g in games), sheets
    assert {f"albastini-{n}p" for n in range(2, 7)} <= set(sheets) and "altbaumer" in sheets, sheets
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    try:
        for sheet in sheets:
            page.goto(f"{server}print/{sheet}.html")
            page.wait_for_load_state("load")
            pdf = page.pdf(prefer_css_page_size=True)
            SHOTS.mkdir(parents=True, exist_ok=True)
            (SHOTS / f"print-{sheet}-{scheme}.pdf").write_bytes(pdf)
            pages = len(_PDF_PAGE.findall(pdf))
            sizes = {(round(float(w)), round(float(h))) for w, h in _MEDIA_BOX.findall(pdf)}
            assert pages == 1, f"{sheet} prints on {pages} pages"
            assert len(sizes) == 1 and all(abs(a - b) <= 1 for a, b in zip(sizes.pop(), A4, strict=True)), sizes
    finally:
        context.close()


# ------------------------------------------------------------------ colours

_RGB = re.compile(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)")


def _rgb(css: str) -> tuple[float, float, float]:
    m = _RGB.match(css)
    assert m, css
    if m.group(4) is not None and float(m.group(4)) == 0:
        raise AssertionError(f"transparent colour {css}")
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_COLOURS = """() => {
  const bg = el => { for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor;
                      if (!/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; };
  const red = document.querySelector('.md-content .card--red');
  const black = document.querySelector('.md-content .card--black');
  return {scheme: document.body.getAttribute('data-md-color-scheme'),
          page: bg(document.querySelector('.md-content')),
          red: getComputedStyle(red).color, redFace: bg(red),
          black: getComputedStyle(black).color, blackFace: bg(black)};
}"""


def _check_cards(colours: dict[str, str]) -> None:
    page, red, black = _rgb(colours["page"]), _rgb(colours["red"]), _rgb(colours["black"])
    red_face, black_face = _rgb(colours["redFace"]), _rgb(colours["blackFace"])
    assert red != page and red != red_face
    assert red[0] > red[1] + 60 and red[0] > red[2] + 60, f"the red suits are not red: {colours}"
    assert contrast(red, red_face) >= 3 and contrast(red, page) >= 3, colours
    assert contrast(black, black_face) >= 4.5 and contrast(black, page) >= 4.5, colours
    assert max(black) - min(black) < 40, f"the black suits are not neutral: {colours}"


def test_cards_stay_readable_in_both_palettes(visit: Visit) -> None:
    visit.go(EXAMPLE)
    page = visit.page
    light = page.evaluate(_COLOURS)
    assert light["scheme"] == "default"
    _check_cards(light)
    page.locator("label[for='__palette_1']").click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    page.wait_for_timeout(300)  # let the colour transitions settle
    dark = page.evaluate(_COLOURS)
    _check_cards(dark)
    assert _luminance(_rgb(dark["page"])) < 0.1, "the slate palette is not dark"
    assert dark["black"] != light["black"], "black suits must turn light on the slate background"
    visit.shot("example-dark")
    visit.go("index.html")
    visit.page.evaluate("window.scrollTo(0, document.querySelector('.labelled-row').offsetTop - 200)")
    visit.shot("home-dark")
    visit.assert_offline()


def test_the_rank_table_fits_a_phone_whole(browser: Browser, server: str) -> None:
    """The first thing a learner needs, read whole at 390 px, not scrolled inside its box."""
    context = browser.new_context(viewport={"width": WIDTHS["phone"], "height": 900})
    page = context.new_page()
    try:
        for path in ("index.html", "play/albastini.html"):
            page.goto(server + path)
            page.wait_for_load_state("load")
            sizes = page.evaluate("[...document.querySelectorAll('.values-table')].map(t => [t.scrollWidth, t.clientWidth])")
            assert sizes and all(scroll <= client for scroll, client in sizes), (path, sizes)
    finally:
        context.close()


def test_field_paths_are_never_broken_mid_word(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": WIDTHS["phone"], "height": 900})
    page = context.new_page()
    try:
        page.goto(server + "reference/fields/altbaumer.html")
        page.wait_for_load_state("load")
        paths, broken = page.evaluate(
            "(() => { const cs = [...document.querySelectorAll('table td:first-child code')];"
            " return [cs.length, cs.filter(c => c.getClientRects().length > 1).map(c => c.textContent)]; })()"
        )
        assert paths > 40 and not broken, broken[:5]
    finally:
        context.close()


# ------------------------------------------------------------------ every page type, phone and desktop, light and dark

AXE = ROOT / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
AXE_URL = "/_tests/axe.min.js"
# One page of each kind the site has.
PAGE_TYPES = {
    "home": "index.html",
    "how-to-play": "play/albastini.html",
    "how-to-play-altbaumer": "play/altbaumer.html",
    "print-summary": "print/albastini-4p.html",
    "print-chooser": "print/albastini.html",
    "ruleset": "rules/albastini-4p.html",
    "specification": "rules/altbaumer.html",
    "variants": "variants.html",
    "rulings": "rulings.html",
    "glossary": "glossary.html",
    "bibliography": "sources.html",
    "examples-index": "examples/index.html",
    "example": EXAMPLE,
    "protocol": "protocol.html",
    "schemas": "reference/schemas.html",
    "refusals": "reference/refusals.html",
    "guide": "guide/running.html",
    "guide-adapter": "guide/adapter.html",
    "guide-traces": "guide/traces.html",
    "guide-reports": "guide/reports.html",
    "guide-property-tests": "guide/property-tests.html",
    "guide-house-rules": "guide/house-rules.html",
    "action-ids": "action-ids.html",
    "scenario-format": "scenarios.html",
    "fields": "reference/fields.html",
    "fields-game": "reference/fields/albastini.html",
    "implementations": "implementations.html",
    "print-altbaumer": "print/altbaumer.html",
    "print-briscola": "print/briscola.html",
    "print-bisca": "print/bisca.html",
    "how-to-play-briscola": "play/briscola.html",
    "changelog": "changelog.html",
}
WIDTHS = {"desktop": 1280, "phone": 390}
BLOCKING = ("serious", "critical")
# Rules that block whatever axe's impact: two landmarks of one name leave a screen reader no way to tell them apart.
BLOCKING_RULES = ("landmark-unique",)

_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 1) return false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === 'auto' || o === 'scroll' || o === 'hidden') && p.getBoundingClientRect().right <= width + 1) return false;
    }
    return true;
  });
  return {scroll: document.documentElement.scrollWidth - width,
          wide: wide.slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))};
}"""


@pytest.fixture(scope="module")
def axe(requirements: None, server: str) -> str:
    """The URL the test server gives axe-core at."""
    if not AXE.exists():
        reason = f"{AXE.relative_to(ROOT)} is missing: bash .ci/docs installs axe-core"
        if _in_ci():
            pytest.fail(f"CI is set, so not skipping: {reason}", pytrace=False)
        pytest.skip(reason)
    return server + AXE_URL.lstrip("/")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", list(WIDTHS))
def test_every_page_type_fits_the_screen_and_passes_axe(
    browser: Browser, server: str, axe: str, device: str, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": WIDTHS[device], "height": 900}, color_scheme=scheme)
    page = context.new_page()
    problems = []
    try:
        for kind, path in PAGE_TYPES.items():
            page.goto(server + path)
            page.wait_for_load_state("load")
            expected = "slate" if scheme == "dark" else "default"
            assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == expected
            page.wait_for_timeout(100)  # the palette's colour transitions
            overflow = page.evaluate(_OVERFLOW)
            if overflow["scroll"] > 0 or overflow["wide"]:
                problems.append(f"{kind} ({path}) scrolls sideways by {overflow['scroll']}px: {overflow['wide']}")
            # By its URL, not inline: Chromium then keeps the script compiled from one page to the next.
            page.add_script_tag(url=axe)
            found = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                ".map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
            )
            problems += [
                f"{kind} ({path}): {v['impact']} {v['id']}: {v['help']} at {v['nodes']}"
                for v in found
                if v["impact"] in BLOCKING or v["id"] in BLOCKING_RULES
            ]
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{kind}-{device}-{scheme}.png"))
    finally:
        context.close()
    assert not problems, "\n".join(problems)
