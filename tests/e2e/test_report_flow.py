"""The report of a real run on data/: written at publication and by `groundwork report`, and
used in headless Chromium (Debian's, driven by Playwright; `make browser` installs it)."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.warehouse.store import Warehouse
from tests.support.paths import ARTIFACTS
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
CATEGORY = {
    "SUPPORTED": "supported",
    "PARTIAL": "partial",
    "UNSUPPORTED": "unsupported",
    "CONTRADICTED": "unsupported",
}


def test_publication_writes_the_report_beside_answers_md(published_sample):
    warehouse, run_id = published_sample[0], published_sample[1].run_id
    folder = warehouse / "reports" / run_id
    assert {"answers.md", "audit_trail.json", "report.html"} <= {p.name for p in folder.iterdir()}
    page = (folder / "report.html").read_text()
    # the latest report's copy is the same page, its links to the run's files from its folder
    latest = (warehouse / "report.html").read_text()
    assert 'href="reports/' in latest and 'href="answers.md"' in page
    assert latest.replace(f'href="reports/{run_id}/', 'href="') == page
    assert run_id in page and page.count('<article class="gw-answer') == 85
    # answers.md says why each quote was used and, under answers and refusals, what was not
    answers = (folder / "answers.md").read_text()
    assert answers.count("\nWhy quoted:\n") > 40 and answers.count("\nNot used:\n") > 40
    sections = answers.split("\n## ")
    refused = [a for a in sections if "*NO_AUTHORITATIVE_EVIDENCE*" in a]
    assert refused and sum("\nNot used:\n" in a for a in refused) > len(refused) / 2


def test_report_command_defaults_to_the_published_run(published_sample, sample_copy, tmp_path):
    warehouse, run_id = sample_copy, published_sample[1].run_id
    runner = CliRunner()
    target = warehouse / "reports" / run_id / "report.html"
    target.unlink()
    result = runner.invoke(app, ["report", "-w", str(warehouse)])
    assert result.exit_code == 0, result.output
    assert target.is_file() and str(target) in result.output.replace("\n", "")
    elsewhere = tmp_path / "out" / "r.html"
    result = runner.invoke(
        app, ["report", "-w", str(warehouse), "--run", run_id, "-o", str(elsewhere)]
    )
    assert result.exit_code == 0
    # the same page, its links to the run's files made relative to where it was written
    prefix = Path(os.path.relpath(target.parent, elsewhere.parent)).as_posix() + "/"
    assert (Path(elsewhere.parent, prefix, "answers.md")).resolve() == target.parent / "answers.md"
    assert elsewhere.read_text().replace(f'href="{prefix}', 'href="') == target.read_text()
    unknown = runner.invoke(app, ["report", "-w", str(warehouse), "--run", "r0"])
    assert unknown.exit_code == 2 and "has no answers" in unknown.output
    missing = runner.invoke(app, ["report", "-w", str(tmp_path / "none")])
    assert missing.exit_code == 2
    help_text = runner.invoke(app, ["report", "--help"]).output
    assert "--run" in help_text and "--out" in help_text and "evidence card" in help_text


def _quote(warehouse: Path, requirement_id: str) -> str:
    return rows(
        warehouse,
        f"SELECT exact_quote FROM current_requirements WHERE requirement_id = '{requirement_id}'",
    )[0][0]


def test_a_marker_opens_its_card_and_escape_closes_it(page, planted):
    warehouse = planted[0]
    marker = page.locator("article.gw-answer .gw-marker").first
    marker.click()
    requirement_id = marker.get_attribute("data-req")
    card = page.locator(".gw-card:visible")
    assert card.count() == 1
    assert card.locator(".gw-quote:visible").inner_text() == _quote(warehouse, requirement_id)
    assert card.locator(".gw-card-req").inner_text() == requirement_id
    facts = card.locator(".gw-card-facts").inner_text()
    for label in ("Citation", "Jurisdiction", "Date", "URL", "Location", "Verdict"):
        assert label in facts
    assert card.locator("a[href^='https://']").count() == 1
    assert marker.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert page.locator(".gw-card:visible").count() == 0
    assert marker.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.dataset.req") == requirement_id


def test_keyboard_focus_opens_a_card_and_a_click_outside_closes_it(page):
    marker = page.locator("article.gw-answer .gw-marker").nth(2)
    marker.focus()
    assert page.locator(".gw-card:visible").count() == 1
    page.keyboard.press("Tab")  # into the card: its source link
    assert page.evaluate("!!document.activeElement.closest('.gw-card')")
    assert page.locator(".gw-card:visible").count() == 1
    page.locator("header h1").click()
    assert page.locator(".gw-card:visible").count() == 0


def test_markers_in_one_statement_open_distinct_cards(page, planted):
    statement = page.locator(".gw-stmt").filter(has=page.locator(".gw-marker >> nth=1")).first
    first, second = statement.locator(".gw-marker").nth(0), statement.locator(".gw-marker").nth(1)
    ids = [first.get_attribute("data-req"), second.get_attribute("data-req")]
    assert ids[0] != ids[1]
    first.click()
    assert page.locator(".gw-card:visible .gw-quote:visible").inner_text() == _quote(
        planted[0], ids[0]
    )
    second.click()
    cards = page.locator(".gw-card:visible")
    assert cards.count() == 1
    assert cards.locator(".gw-quote:visible").inner_text() == _quote(planted[0], ids[1])
    assert first.inner_text() in cards.locator(".gw-card-also").inner_text()


def test_show_more_reveals_the_whole_passage(page):
    requirement_id = page.evaluate(
        "[...document.querySelectorAll('template')]"
        ".find(t => t.content.querySelector('.gw-more')).id.slice(3)"
    )
    marker = page.locator(f".gw-marker[data-req='{requirement_id}']").first
    marker.click()
    card = page.locator(".gw-card:visible")
    short = card.locator(".gw-passage").inner_text()
    card.locator(".gw-more").click()
    assert card.locator(".gw-more").inner_text() == "Show less"
    assert len(card.locator(".gw-passage").inner_text()) > len(short)


def test_a_number_chip_expands_to_its_source_quote_and_value(page):
    chip = page.locator(".gw-num:not(.gw-chip-unmatched) .gw-chip").first
    surface = chip.inner_text()
    chip.click()
    detail = page.locator(f"#{chip.get_attribute('aria-controls')}")
    assert detail.is_visible()
    assert detail.locator("mark").inner_text() == surface
    text = detail.inner_text()
    assert "Value" in text and "Transformation" in text
    chip.click()
    assert not detail.is_visible()


def test_the_planted_answer_warns_and_highlights_its_unsupported_statements(page, planted, capsys):
    _, _, warned, limit = planted
    answer = page.locator(f"article[data-question='{warned}']")
    assert answer.locator(".gw-warning").is_visible()
    assert page.locator("article .gw-warning").count() == 1  # not the one at exactly 20 %
    assert page.locator(f"article[data-question='{limit}'] .gw-warning").count() == 0
    assert page.locator(".gw-toc .gw-warn").count() == 1  # the index flags it too
    assert page.locator(f".gw-toc li[data-for='{warned}'] .gw-warn").count() == 1
    answer.locator(".gw-filter[data-verdict='unsupported']").click()
    highlighted = answer.locator(".gw-stmt[data-verdict='unsupported']")
    assert highlighted.count() == 3
    marked = "getComputedStyle(e).backgroundColor"
    plain = answer.locator(".gw-stmt[data-verdict='supported']").first.evaluate(f"e => {marked}")
    for n in range(3):
        assert highlighted.nth(n).evaluate(f"e => {marked}") != plain
    ARTIFACTS.mkdir(exist_ok=True)
    answer.locator(".gw-marker").first.click()
    shot = ARTIFACTS / "report.png"
    answer.screenshot(path=str(shot))
    page.screenshot(path=str(ARTIFACTS / "report-top.png"))
    assert shot.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nreport screenshots: {shot} and {ARTIFACTS / 'report-top.png'}")


def _shown_counts(scope) -> dict[str, int]:
    return {
        f.get_attribute("data-verdict"): int(f.locator(".gw-count").inner_text())
        for f in scope.locator(".gw-verdicts").first.locator(".gw-filter").all()
    }


def _table(warehouse: Path, table: str, run_id: str) -> list[dict]:
    """A run's table as the copy holds it."""
    return pq.read_table(Warehouse(warehouse).parts(table, run_id)[0]).to_pylist()


def test_summary_counts_match_the_tables(page, planted, published_sample):
    warehouse, run_id = planted[0], published_sample[1].run_id
    expected = {"supported": 0, "partial": 0, "unsupported": 0}
    per_answer: dict[str, dict[str, int]] = {}
    for statement in _table(warehouse, "statements", run_id):
        category = CATEGORY[statement["verdict"]]
        expected[category] += 1
        answer = per_answer.setdefault(statement["question_id"], dict.fromkeys(expected, 0))
        answer[category] += 1
    assert expected["unsupported"] == 5  # the planted ones
    assert _shown_counts(page.locator("#run-summary")) == expected
    for qid, counts in per_answer.items():
        assert _shown_counts(page.locator(f"article[data-question='{qid}']")) == counts
    results = [a["result"] for a in _table(warehouse, "answers", run_id)]
    answered, missing = results.count("ANSWERED"), results.count("NO_AUTHORITATIVE_EVIDENCE")
    assert int(page.locator(".gw-n-answered").inner_text()) == answered
    assert int(page.locator(".gw-n-missing").inner_text()) == missing
    assert page.locator("article:has(.gw-missing)").count() == missing
