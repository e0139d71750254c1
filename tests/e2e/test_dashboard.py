"""The compliance dashboard (dashboards/, Evidence) as a user sees it: built by the Makefile on a
published warehouse, served on localhost, opened in headless Chromium. Every chart renders, the
numbers under it equal SQL on published.duckdb, nothing is fetched from outside, and a run that
publishes while the dashboard is open and its snapshot is held succeeds and shows after a
rebuild and a refresh. Screenshots of each page go to tests/artifacts/ (docs/screenshots/
holds copies of them)."""

from __future__ import annotations

import functools
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import pytest

from schemas.config import RunConfig
from tests.support.paths import ARTIFACTS, REPO, SAMPLE_QUESTIONS

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
BUILD = REPO / "dashboards" / "build"
POLICY = "policies/gsa-tts-handbook-general-information-and-resources--tech-policies--records-management.md"

# Each chart's tile on each page, and the SQL on published.duckdb that gives the rows of the
# table of numbers under the chart (the dashboard reads the same snapshot through Evidence).
TILES: dict[str, dict[str, str]] = {
    "register": {
        "tile-jurisdiction": "SELECT jurisdiction, sum(requirements) FROM dashboard_requirements "
        "GROUP BY 1",
        "tile-source-type": "SELECT source_type, modality, sum(requirements) "
        "FROM dashboard_requirements GROUP BY 1, 2",
        "tile-source": "SELECT citation, jurisdiction, source_type, sum(requirements) "
        "FROM dashboard_requirements GROUP BY 1, 2, 3",
        "tile-changes": "SELECT change, count(*) FROM latest_requirement_changes GROUP BY 1",
    },
    "answers": {
        "tile-result": "SELECT result, grounding_confidence, count(*) FROM current_answers "
        "GROUP BY 1, 2",
        "tile-topic": "SELECT topic, result, sum(answers) FROM dashboard_answers_by_topic "
        "GROUP BY 1, 2",
        "tile-claims": "SELECT unnest(['supported', 'partial', 'unsupported']), "
        "unnest([supported, partial, unsupported]) FROM dashboard_claim_quality",
    },
    "runs": {
        "tile-status": "SELECT status, count(*) FROM runs GROUP BY 1",
        "tile-runs": "SELECT r.run_id, r.status, "
        "round(epoch(coalesce(r.finished_at, p.published_at) - r.started_at))::INT, "
        "(SELECT count(*) FROM check_results c WHERE c.run_id = r.run_id AND c.passed), "
        "(SELECT count(*) FROM check_results c WHERE c.run_id = r.run_id AND NOT c.passed), "
        "(SELECT count(*) FROM rejected_documents d WHERE d.run_id = r.run_id), "
        "(SELECT count(*) FROM rejected_questions q WHERE q.run_id = r.run_id) "
        "FROM runs r LEFT JOIN published_run p USING (run_id)",
        "tile-rejected": "SELECT 'document', reason, count(*) FROM rejected_documents GROUP BY 2 "
        "UNION ALL SELECT 'question', reason, count(*) FROM rejected_questions GROUP BY 2",
    },
}
# The big numbers of the front page and of the answers page, and their SQL.
KPIS: dict[str, dict[str, str]] = {
    "": {
        "kpi-documents": "SELECT documents FROM published_run",
        "kpi-requirements": "SELECT requirements FROM published_run",
        "kpi-answers": "SELECT answers FROM published_run",
        "kpi-runs": "SELECT count(*) FROM runs",
    },
    "answers": {
        "kpi-claims": "SELECT claims FROM dashboard_claim_quality",
        "kpi-unsupported": "SELECT format('{:.1f}%', 100 * unsupported_claim_rate) "
        "FROM dashboard_claim_quality",
    },
}


def _make(target: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "-s", target, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def installed() -> None:
    """dashboards/node_modules from the lock (`make dashboard-install`); skips, saying why,
    where npm is missing or cannot install."""
    if shutil.which("npm") is None:
        pytest.skip("npm is missing: the dashboard (Evidence) installs with npm")
    done = _make("dashboard-install")
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        pytest.skip(f"make dashboard-install failed: {' | '.join(tail)}")


class _Quiet(SimpleHTTPRequestHandler):
    """Serves files without a log line per request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """dashboards/build served on a free localhost port, as `make dashboard` serves it; the
    folder is read per request, so a rebuild is served at once."""
    handler = functools.partial(_Quiet, directory=str(BUILD))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _built(published: Path) -> None:
    """The dashboard's sources extracted from `published` and the site built, by the Makefile."""
    done = _make("dashboard-build", f"PUBLISHED={published}")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _cells(text: str) -> str:
    """A number as the dashboard writes it (1,234) or SQL gives it, as one string."""
    return text.strip().replace(",", "")


def _expected(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[str, ...]]:
    return sorted(tuple(_cells(str(v)) for v in row) for row in con.execute(sql).fetchall())


def _shown(page, tile: str) -> list[tuple[str, ...]]:
    """The rows of the table of numbers in a tile, as the page shows them."""
    rows = page.locator(f"#{tile} table:visible").first.locator("tr").all()  # not the print copy
    return sorted(
        tuple(_cells(c) for c in row.locator("td").all_inner_texts())
        for row in rows
        if row.locator("td").count()
    )


def _open(page, url: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.wait_for_function(
        "document.querySelectorAll('[_echarts_instance_] svg, .inline-block').length > 0 || !document.querySelector('[_echarts_instance_]')"
    )
    page.wait_for_timeout(1000)  # charts finish their first animation frame


def _check_pages(page, base: str, published: Path, screenshots: bool) -> dict[str, object]:
    """Opens every page, checks every chart and number against SQL; returns what it read."""
    seen: dict[str, object] = {}
    with duckdb.connect(str(published), read_only=True) as con:
        for name in ("", "register", "answers", "runs"):
            _open(page, f"{base}/{name}")
            assert page.locator("h1").first.is_visible()
            assert page.get_by_text("Error", exact=True).count() == 0
            for tile, sql in TILES.get(name, {}).items():
                expected = _expected(con, sql)
                if not expected:  # the page says there is nothing to chart
                    assert page.locator(f"#{tile} svg").count() == 0
                    assert page.locator(f"#{tile}").inner_text().startswith("No ")
                    continue
                charts = page.locator(f"#{tile} [_echarts_instance_] svg")
                assert charts.count() >= 1, f"{name}: {tile} has no chart"
                for chart in charts.all():
                    assert chart.locator("path").count() > 0, f"{name}: {tile} drew nothing"
                assert _shown(page, tile) == expected, f"{name}: {tile}"
                seen[tile] = expected
            for kpi, sql in KPIS.get(name, {}).items():
                (value,) = con.execute(sql).fetchone()
                shown = page.locator(f"#{kpi}").inner_text()
                assert _cells(str(value)) in _cells(shown).split(), f"{name}: {kpi}: {shown!r}"
                seen[kpi] = _cells(str(value))
            if screenshots:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                shot = ARTIFACTS / f"dashboard-{name or 'index'}.png"
                page.screenshot(path=str(shot), full_page=True)
    return seen


def test_the_dashboard_shows_the_snapshot_and_the_next_run(
    installed, browser, server, published_sample, corpus_copy: Path, tmp_path: Path
) -> None:
    from flows.corpus import corpus_run

    folder = tmp_path / "wh"
    shutil.copytree(published_sample[0], folder)
    published = folder / "published.duckdb"
    _built(published)
    page = browser.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    before = _check_pages(page, server, published, screenshots=True)
    assert before["kpi-runs"] == "1"

    # A run publishes while the page is open and a reader holds the snapshot it was built from
    # (as Evidence's source reader does while it extracts): the run does not fail.
    with (corpus_copy / POLICY).open("a") as policy:
        policy.write("\nEvery team must review its records schedule twice a year.\n")
    with duckdb.connect(str(published), read_only=True) as held:
        summary = corpus_run(
            corpus=str(corpus_copy),
            warehouse=str(folder),
            questions=str(SAMPLE_QUESTIONS),
            config=RunConfig(workers=1, data_docs=False),
        )
        assert summary.status == "published"
        assert held.execute("SELECT count(*) FROM runs").fetchone() == (1,)  # its publication

    _built(published)
    page.reload(wait_until="networkidle")
    after = _check_pages(page, server, published, screenshots=False)
    assert after["kpi-runs"] == "2"
    assert len(after["tile-runs"]) == len(before["tile-runs"]) + 1
    assert summary.run_id in {row[0] for row in after["tile-runs"]}
    page.close()
    assert errors == []
    assert [u for u in requests if not u.startswith(server)] == []  # nothing from outside
