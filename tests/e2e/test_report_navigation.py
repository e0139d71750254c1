"""Finding, following and printing the evidence in the report of a real run on data/, in real
headless Chromium: search, each filter, permalinks, keys, the print appendix and the PDF's
text, the words a reader sees (no stems, no unlinked IDs), and screenshots kept as artifacts."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from playwright.sync_api import expect
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.text.terms import terms
from schemas.verifications import REJECTION_REASONS
from tests.support.browser import skip_without_chromium
from tests.support.paths import ARTIFACTS, SAMPLE_CORPUS, SAMPLE_QUESTIONS
from tests.support.runs import flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]

EVIDENCE = """
    WITH ev AS (
        SELECT question_id, requirement_id FROM current_citations
        UNION SELECT question_id, unnest(unused_requirement_ids) FROM current_answers
    )
    SELECT ev.question_id, ev.requirement_id, r.exact_quote, coalesce(r.lead_in_quote, ''),
           d.title, d.citation, coalesce(d.url, ''), d.jurisdiction, d.source_type
    FROM ev JOIN current_requirements r USING (requirement_id) JOIN documents d USING (doc_id)
"""


SHOWN = """() => [
    [...document.querySelectorAll('article.gw-answer')].filter(e => !e.hidden).map(e => e.id),
    [...document.querySelectorAll('.gw-toc li')].filter(e => !e.hidden).map(e => e.dataset.for),
    document.getElementById('gw-shown-n').textContent,
]"""


def _shown(tab) -> list[str]:
    """The question sections shown, and check the index shows the same ones and counts them
    (read in one go: a search applies between two reads)."""
    articles, listed, count = tab.evaluate(SHOWN)
    assert listed == articles and count == str(len(articles))
    return articles


def _facets(warehouse: Path) -> dict[str, dict[str, set[str]]]:
    """question -> facet -> values, from the tables (the report's rule: the evidence's
    jurisdictions and source types, with the question's own jurisdiction, and the question's
    source types where nothing was verified)."""
    found: dict[str, dict[str, set[str]]] = {}
    for qid, result, confidence, topic, jurisdiction, kinds in rows(
        warehouse,
        "SELECT a.question_id, a.result, a.grounding_confidence, q.topic, q.jurisdiction, "
        "q.source_types FROM current_answers a JOIN current_questions q USING (question_id)",
    ):
        found[qid] = {
            "result": {result},
            "confidence": {confidence},
            "topic": {topic or "none"},
            "jurisdiction": {jurisdiction} if jurisdiction else set(),
            "source": set(),
            "asked": set(kinds or []),
        }
    for qid, *_, jurisdiction, kind in rows(warehouse, EVIDENCE):
        found[qid]["jurisdiction"].add(jurisdiction)
        found[qid]["source"].add(kind)
    for values in found.values():
        values["source"] = values["source"] or values.pop("asked")
        values.pop("asked", None)
        for name in ("jurisdiction", "source"):
            values[name] = values[name] or {"none"}
    return found


@pytest.mark.parametrize("facet", ["result", "confidence", "topic", "jurisdiction", "source"])
def test_each_filter_shows_the_answers_with_that_value(page, planted, facet):
    facets = _facets(planted[0])
    counts: dict[str, int] = {}
    for values in facets.values():
        for value in values[facet]:
            counts[value] = counts.get(value, 0) + 1
    # the value that leaves the most answers while still hiding some
    value = max((v for v, n in counts.items() if n < len(facets)), key=lambda v: counts[v])
    page.select_option(f"select[data-facet='{facet}']", value)
    expected = sorted(q for q, values in facets.items() if value in values[facet])
    assert sorted(_shown(page)) == expected
    assert page.locator("#gw-reset").is_visible()
    page.locator("#gw-reset").click()
    assert len(_shown(page)) == len(facets)


def test_filters_combine(page, planted):
    facets = _facets(planted[0])
    page.select_option("select[data-facet='result']", "ANSWERED")
    page.select_option("select[data-facet='source']", "policy")
    expected = sorted(
        q for q, v in facets.items() if "ANSWERED" in v["result"] and "policy" in v["source"]
    )
    assert expected and sorted(_shown(page)) == expected


# the answers whose text holds every word, the candidates they did not use set aside
MATCHING = """text => [...document.querySelectorAll('article.gw-answer')].filter(a => {
    const copy = a.cloneNode(true);
    copy.querySelectorAll('.gw-notused').forEach(e => e.remove());
    const said = copy.textContent.toLowerCase();
    return text.toLowerCase().split(/\\s+/).every(w => said.includes(w));
}).map(a => a.id)"""


def _search(tab, text: str) -> list[str]:
    """Type a search and wait for its result (the field waits for a pause in typing): the
    answers whose text holds every word."""
    tab.fill("#gw-q", text)
    expected = tab.evaluate(MATCHING, text)
    for _ in range(40):
        if _shown(tab) == expected:
            break
        tab.wait_for_timeout(50)
    assert _shown(tab) == expected
    return expected


def test_search_finds_questions_quotes_and_sources(page, planted):
    warehouse = planted[0]
    evidence = rows(warehouse, EVIDENCE)
    questions = dict(rows(warehouse, "SELECT question_id, question FROM current_answers"))
    # a phrase of a quote: every answer with that quote among its evidence, and only those
    phrase = "prominent media outlets"
    with_quote = {q for q, _, quote, lead, *_ in evidence if phrase in f"{lead} {quote}".lower()}
    assert with_quote and set(_search(page, phrase)) == with_quote
    # a source's title: the answers with evidence from it
    title = next(t for *_, t, _, _, _, _ in evidence if "Regulation P" in t or "privacy" in t)
    from_title = {q for q, *_, t, _, _, _, _ in evidence if t == title}
    assert from_title <= set(_search(page, title))
    # words of a question, in any order: that question
    qid, text = next((q, t) for q, t in questions.items() if "media" in t.lower())
    words = " ".join(reversed(text.split()[-4:])).strip("?")
    assert qid in _search(page, words)
    assert _search(page, "zzz-no-such-text") == []
    page.keyboard.press("Escape")  # in the search field: clears it
    assert page.input_value("#gw-q") == "" and len(_shown(page)) == len(questions)


NOT_USED = """() => [...document.querySelectorAll('article.gw-answer')].map(a => [
    a.id, [...a.querySelectorAll('.gw-notused-item')].map(li => li.querySelector('a.gw-req').textContent)
])"""


def test_closest_candidates_not_used_are_the_nearest_rejected_at_most_three(page, planted):
    warehouse = planted[0]
    listed = dict(page.evaluate(NOT_USED))
    assert max(len(ids) for ids in listed.values()) == 3
    assert sum(1 for ids in listed.values() if ids) > 40
    # closeness: the model's score where it scored them, else the quote's coverage
    closeness: dict[str, dict[str, tuple]] = {}
    for qid, rid, score, cover in rows(
        warehouse,
        "SELECT question_id, requirement_id, score, quote_coverage FROM current_verifications "
        "WHERE NOT verified AND rejection_reason <> 'not_verbatim'",
    ):
        closeness.setdefault(qid, {})[rid] = (score is not None, score or 0.0, cover)
    for qid, ids in listed.items():
        candidates = closeness.get(qid, {})
        assert len(ids) == min(3, len(candidates))
        left = [c for rid, c in candidates.items() if rid not in ids]
        assert all(candidates[rid] >= max(left, default=(False, 0.0, 0.0)) for rid in ids)
    # a refused answer shows what was checked, each candidate with its quote, source and why
    refused = [q for (q,) in rows(warehouse, REFUSED) if listed.get(q)]
    assert refused
    block = page.locator(f"article[id='{refused[0]}'] .gw-notused")
    assert block.is_visible() and "What was checked" in block.inner_text()
    for item in block.locator(".gw-notused-item").all():
        assert item.locator(".gw-notused-quote").inner_text()
        assert item.locator(".gw-notused-source").inner_text()
        assert item.locator(".gw-notused-why").inner_text().startswith("Why not used: ")


REFUSED = (
    "SELECT question_id FROM current_answers WHERE result = 'NO_AUTHORITATIVE_EVIDENCE' "
    "ORDER BY question_id"
)


def test_permalinks_open_questions_and_requirements(browser, planted):
    tab = browser.new_page()
    uri = planted[1].as_uri()
    tab.goto(f"{uri}#Q003")
    assert tab.evaluate("Math.abs(document.getElementById('Q003').getBoundingClientRect().top)") < 8
    for href in tab.eval_on_selector_all(".gw-toc a", "els => els.map(e => e.hash.slice(1))"):
        assert tab.locator(f"article[id='{href}']").count() == 1
    # a requirement's own permalink opens the appendix that holds it, at its entry
    rid = tab.locator(".gw-req-anchor").nth(5).get_attribute("id")
    tab.goto(f"{uri}#{rid}")
    entry = tab.locator(f".gw-ev:has(#{rid})")
    assert entry.is_visible() and "gw-open" in entry.locator("xpath=../..").get_attribute("class")
    top = entry.evaluate("e => e.getBoundingClientRect().top")
    assert -1 < top < 50
    # a permalink to an answer the filters hide clears the filters
    tab.select_option("select[data-facet='result']", "NO_AUTHORITATIVE_EVIDENCE")
    assert not tab.locator("#Q001").is_visible()
    tab.evaluate("location.hash = '#Q001'")
    expect(tab.locator("#Q001")).to_be_visible()
    assert tab.locator("select[data-facet='result']").input_value() == ""
    # a card's requirement link goes to the entry under its own question
    marker = tab.locator("#Q002 .gw-marker").first
    marker.click()
    link = tab.locator(".gw-card:visible .gw-card-req")
    assert link.get_attribute("href") == f"#Q002-{marker.get_attribute('data-req')}"
    tab.close()


def test_keys_search_step_through_questions_and_open_an_appendix(page):
    page.locator("header h1").click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "gw-q"
    page.keyboard.type("media")
    expect(page.locator("#gw-reset")).to_be_visible()
    shown = _shown(page)
    assert 1 < len(shown) < 85
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('article').id") == shown[0]
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.closest('article').id") == shown[1]
    page.keyboard.press("k")
    assert page.evaluate("document.activeElement.closest('article').id") == shown[0]
    toggle = page.locator(f"article[id='{shown[0]}'] .gw-appendix-toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator(f"article[id='{shown[0]}'] .gw-ev").first.is_visible()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "false"
    page.keyboard.press("/")
    page.keyboard.press("Escape")
    assert len(_shown(page)) == 85


def _cited(warehouse: Path) -> list[tuple[str, str, str]]:
    """(question, requirement, URL) of every requirement the answers quote or list."""
    return [(q, rid, url) for q, rid, *_, url, _, _ in rows(warehouse, EVIDENCE)]


def test_print_keeps_every_answers_evidence(page, planted):
    page.emulate_media(media="print")
    assert not page.locator("#gw-nav").is_visible()
    assert page.locator(".gw-ev:visible").count() == page.locator(".gw-ev").count()
    printed = page.locator("main").inner_text()
    for qid, rid, url in _cited(planted[0]):
        entry = page.locator(f"article[id='{qid}'] .gw-ev[id='{qid}-{rid}']")
        assert entry.is_visible()
        assert rid in entry.inner_text() and url in printed
        for label in ("Citation", "URL", "Location", "Verdict"):
            assert label in entry.inner_text()


def test_the_pdf_holds_every_cited_requirement_and_url(planted, published_sample):
    from pypdf import PdfReader

    skip_without_chromium()  # the CLI prints with it
    warehouse, run_id = planted[0], published_sample[1].run_id
    out = warehouse / "printed" / "report.html"
    result = CliRunner().invoke(app, ["report", "-w", str(warehouse), "-o", str(out), "--pdf"])
    assert result.exit_code == 0, result.output
    pdf = out.with_suffix(".pdf")
    assert pdf.is_file() and str(pdf) in result.output.replace("\n", "")
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    flat = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))  # ligatures, line breaks
    cited = _cited(warehouse)
    assert len(cited) > 100
    for _, rid, url in cited:
        assert rid in flat and re.sub(r"\s+", "", url) in flat
    assert run_id in flat


def test_pdf_without_a_browser_is_one_clear_error(planted, tmp_path, monkeypatch):
    monkeypatch.setenv("GROUNDWORK_CHROMIUM", str(tmp_path / "no-chromium"))
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", "-w", str(planted[0]), "-o", str(out), "--pdf"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "could not print" in result.output and out.is_file()
    assert not list(tmp_path.glob("*.pdf")) and not list(tmp_path.glob(".*.tmp"))


WHOLE_TEXT = """() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll('script, style, template').forEach(e => e.remove());
    const cards = [...document.querySelectorAll('template')].map(t => t.content.textContent);
    return [body.textContent, ...cards].join(' ');
}"""


def _stems(warehouse: Path) -> set[str]:
    """The index terms the verifier produces for the sample (matched terms, question terms)
    that are not words: no question or document in the corpus writes them."""
    produced = {
        t
        for (ts,) in rows(warehouse, "SELECT matched_terms FROM current_verifications")
        for t in ts
    }
    questions = [q for (q,) in rows(warehouse, "SELECT question FROM current_questions")]
    produced |= {t for q in questions for t in terms(q)}
    texts = [t for (t,) in rows(warehouse, "SELECT text FROM documents")] + questions
    words = {w for text in texts for w in re.findall(r"[a-z0-9]+", text.lower())}
    return produced - words


def test_the_sample_report_says_everything_in_words(browser, published_sample):
    warehouse, run_id = published_sample[0], published_sample[1].run_id
    tab = browser.new_page()
    tab.goto((warehouse / "reports" / run_id / "report.html").as_uri())
    text = tab.evaluate(WHOLE_TEXT).lower()
    stems = _stems(warehouse)
    assert {"discov", "entiti", "notifi"} <= stems  # the list is the verifier's, and not empty
    shown = set(re.findall(r"[a-z0-9]+", text))
    assert sorted(stems & shown) == []
    assert [code for code in REJECTION_REASONS if code in text] == []
    tab.close()


UNLINKED_IDS = """() => {
    const roots = [document.body, ...[...document.querySelectorAll('template')].map(t => t.content)];
    const bad = [];
    for (const root of roots) {
        const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            if (node.parentElement.closest('script, style')) continue;
            for (const id of node.data.match(/REQ-[SP]\\d{4,}/g) || []) {
                const link = node.parentElement.closest('a[href^="#"]');
                const target = link && document.getElementById(link.getAttribute('href').slice(1));
                if (!target) bad.push(id);
            }
        }
    }
    return bad;
}"""


def test_every_requirement_id_in_the_sample_report_is_a_link(browser, published_sample):
    warehouse, run_id = published_sample[0], published_sample[1].run_id
    tab = browser.new_page()
    tab.goto((warehouse / "reports" / run_id / "report.html").as_uri())
    assert tab.evaluate("document.body.textContent.match(/REQ-[SP]\\d{4,}/g).length") > 100
    assert tab.evaluate(UNLINKED_IDS) == []
    tab.close()


@pytest.mark.parametrize(
    ("name", "width", "height"), [("desktop", 1400, 1000), ("phone", 390, 844)]
)
def test_screenshots_at_desktop_and_phone_width(browser, planted, name, width, height, capsys):
    tab = browser.new_page()
    tab.set_viewport_size({"width": width, "height": height})
    tab.goto(f"{planted[1].as_uri()}#Q003")
    assert tab.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    nav = tab.locator("#gw-nav").bounding_box()
    assert nav["y"] <= 1 and tab.locator("#gw-q").is_visible()  # the panel stays in view
    ARTIFACTS.mkdir(exist_ok=True)
    shots = [ARTIFACTS / f"report-{name}.png", ARTIFACTS / f"report-{name}-appendix.png"]
    tab.screenshot(path=str(shots[0]))
    tab.locator("#Q003 .gw-appendix-toggle").click()
    tab.locator("#Q003 .gw-appendix").screenshot(path=str(shots[1]))
    assert all(shot.stat().st_size > 10_000 for shot in shots)
    with capsys.disabled():
        print(f"\nreport screenshots ({name}): {', '.join(map(str, shots))}")
    tab.close()


def test_back_to_top_returns_to_the_header(page):
    page.locator("#Q010 .gw-totop a").click()
    assert page.evaluate("window.scrollY") == 0


def test_the_provenance_of_the_published_report(published_sample):
    warehouse, run_id = published_sample[0], published_sample[1].run_id
    page = (warehouse / "reports" / run_id / "report.html").read_text()
    ((corpus_hash, documents),) = rows(
        warehouse,
        f"SELECT corpus_hash, counts->>'documents' FROM runs WHERE run_id = '{run_id}'",
    )
    # written at publication, before the run records these: the same figures
    assert f'gw-fingerprint">{corpus_hash}<' in page and f'gw-doc-count">{documents}<' in page
    assert "profile default" in page and "no earlier published run to compare with" in page


def test_a_later_run_links_its_changes_since_the_previous_one(sample_copy):
    warehouse = sample_copy
    before = rows(warehouse, "SELECT run_id FROM publications WHERE table_name = 'answers'")[0][0]
    summary = flow_run(SAMPLE_CORPUS, warehouse, SAMPLE_QUESTIONS, force=True)
    assert summary.status == "published"
    folder = warehouse / "reports" / summary.run_id
    changes = (folder / "changes.md").read_text()
    assert before in changes and summary.run_id in changes
    page = (folder / "report.html").read_text()
    assert f'<a href="changes.md">changes since {before}</a>' in page
