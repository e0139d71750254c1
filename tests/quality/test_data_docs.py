"""Great Expectations: suites that restate the review gates with their thresholds, Data Docs
beside each run's report, and the outcome as a soft row of check_results."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import groundwork.quality.data_docs
from groundwork.quality.data_docs import CHECK_NAME, quality_frames, recorded_data_docs, validated
from groundwork.quality.expectations import expectation_suites
from groundwork.quality.gates import checks
from groundwork.quality.offline import ASSETS, LOCAL_COPIES, VENDOR, local_text
from groundwork.warehouse.store import Warehouse
from tests.support.warehouses import rows

GATES = {c.name: c for c in checks()}


def _expectations(table: str, check: str) -> list:
    return [e for e in expectation_suites(GATES)[table] if (e.meta or {}).get("check") == check]


def test_soft_gates_keep_their_threshold_as_mostly():
    (quote_length,) = _expectations("requirements", "quote_length")
    assert quote_length.mostly == pytest.approx(1 - GATES["quote_length"].threshold)
    assert quote_length.severity == "warning" and quote_length.min_value == 10
    (coverage,) = _expectations("answers", "answer_coverage")
    assert coverage.mostly == pytest.approx(1 - GATES["answer_coverage"].threshold)
    (documents,) = _expectations("documents", "documents_without_requirements")
    assert documents.mostly == pytest.approx(0.4)


def test_hard_gates_allow_no_failing_row():
    hard = [e for suite in expectation_suites(GATES).values() for e in suite if e.meta]
    hard = [e for e in hard if e.meta["severity"] == "hard"]
    assert hard and all(e.mostly == 1 and e.severity == "critical" for e in hard)
    named = {e.meta["check"] for e in hard}
    assert {"requirement_ids_unique", "citations_verified", "statements_cited"} <= named
    assert named <= {n for n, c in GATES.items() if c.severity == "hard"}


@pytest.fixture(scope="module")
def published_docs(published_sample):
    warehouse, summary = published_sample  # its Data Docs are written (conftest)
    return warehouse, summary.run_id


def test_each_run_writes_data_docs_beside_its_report(published_docs):
    warehouse, run_id = published_docs
    folder = warehouse / "reports" / run_id
    assert (folder / "answers.md").is_file() and (folder / "data_docs" / "index.html").is_file()
    suites = {p.name for p in (folder / "data_docs" / "validations").iterdir()}
    assert suites == set(expectation_suites(GATES))
    index = (folder / "data_docs" / "index.html").read_text()
    assert run_id in index and "statements" in index


def test_outcome_is_a_soft_row_of_check_results(published_docs):
    warehouse, run_id = published_docs
    ((severity, passed, value, failed, metric),) = rows(
        warehouse,
        "SELECT severity, passed, value, offending_rows, metric FROM check_results "
        f"WHERE run_id = '{run_id}' AND check_name = '{CHECK_NAME}'",
    )
    evaluated = sum(len(s) for s in expectation_suites(GATES).values())
    assert (severity, passed, value, failed) == ("soft", True, 0.0, 0)
    assert f"share of {evaluated} Great Expectations expectations" in metric
    assert f"reports/{run_id}/data_docs/index.html" in metric


def test_broken_tables_fail_the_expectations_of_their_gates(published_docs, tmp_path):
    warehouse, run_id = published_docs
    with Warehouse(warehouse).connect(read_only=True) as con:
        frames = quality_frames(con, Warehouse(warehouse), run_id, expectation_suites(GATES))
    requirements = frames["requirements"]
    frames["requirements"] = requirements.assign(
        requirement_id=[requirements.requirement_id[0]] * len(requirements),
        has_quote=requirements.index != 3,  # one requirement without a quote
    )
    frames["citations"] = frames["citations"].assign(verified_for_question=False)
    outcome = validated(frames, expectation_suites(GATES), run_id, tmp_path / "data_docs")
    assert not outcome.success and outcome.index.is_file()
    assert {f["check"] for f in outcome.failed} == {
        "requirement_ids_unique",
        "requirements_verbatim",
        "citations_verified",
    }


def test_a_great_expectations_error_is_reported_not_raised(
    published_docs, sample_copy, monkeypatch
):
    from great_expectations.exceptions import GreatExpectationsError

    warehouse = sample_copy

    def broken(*_):
        raise GreatExpectationsError("no suite")

    monkeypatch.setattr(groundwork.quality.data_docs, "validated", broken)
    row = recorded_data_docs(Warehouse(warehouse), published_docs[1])
    assert (row["passed"], row["offending_rows"], row["value"]) == (False, 1, 1.0)
    assert json.loads(row["sample"]) == [{"error": "GreatExpectationsError: no suite"}]
    assert rows(
        warehouse, f"SELECT count(*) FROM check_results WHERE check_name = '{CHECK_NAME}'"
    ) == [(1,)]


def test_data_docs_of_a_warehouse_named_by_a_relative_path(
    published_docs, sample_copy, monkeypatch
):
    """`groundwork run` takes ./warehouse by default: the job must not need an absolute path."""
    monkeypatch.chdir(sample_copy.parent)
    row = recorded_data_docs(Warehouse(Path(sample_copy.name)), published_docs[1])
    assert row["passed"] and (sample_copy / "reports" / published_docs[1] / "data_docs").is_dir()


# A tag or a stylesheet that loads a file from another host (links to click are not loads).
REMOTE_LOAD = re.compile(
    r"""<(?:script|link|img)\b[^>]*\b(?:src|href)=["']?(https?://[^"'\s>]+)"""
    r"""|url\(["']?(https?://[^"')\s]+)""",
    re.IGNORECASE,
)


def _site(published_docs) -> Path:
    warehouse, run_id = published_docs
    return warehouse / "reports" / run_id / "data_docs"


def test_known_remote_files_are_pointed_at_their_copies():
    page = (
        '<script src="https://stackpath.bootstrapcdn.com/bootstrap/4.3.1/js/bootstrap.min.js" '
        'integrity="sha384-x" crossorigin="anonymous"></script>\n'
        '<img class="NO-CACHE"\n src="https://great-expectations-web-assets.s3.us-east-2'
        '.amazonaws.com/logo-long.png?d=20261125T174202Z" alt="Great Expectations"/>\n'
        "<style>a { background: url('https://great-expectations-web-assets.s3.us-east-2"
        ".amazonaws.com/full_logo_dark.png') 0 0 }</style>\n"
        '<a href="https://greatexpectations.io">Great Expectations</a>\n'
        '<script src="https://example.org/unknown.js" crossorigin="anonymous"></script>'
    )
    assert local_text(page, "../..") == (
        '<script src="../../static/vendor/bootstrap/js/bootstrap.min.js"></script>\n'
        '<img class="NO-CACHE"\n src="../../static/images/logo-long.png" '
        'alt="Great Expectations"/>\n'
        "<style>a { background: url('../../static/images/logo-long.png') 0 0 }</style>\n"
        '<a href="https://greatexpectations.io">Great Expectations</a>\n'
        '<script src="https://example.org/unknown.js" crossorigin="anonymous"></script>'
    )


def test_every_copy_is_vendored_with_its_licence():
    copies = {ASSETS / path for path in LOCAL_COPIES.values()}
    assert all(path.is_file() for path in copies)
    licensed = {p.parent for p in ASSETS.rglob("LICENSE*") if p.parent != ASSETS}
    assert {path.relative_to(ASSETS).parts[0] for path in copies} == {p.name for p in licensed}
    listed = (ASSETS / "LICENSES.md").read_text()
    assert all(f"`{folder.name}/`" in listed for folder in licensed)


def test_the_site_loads_nothing_from_another_host(published_docs):
    """Every page and stylesheet Great Expectations wrote names only files inside the site, and
    the copies it names are there (a Great Expectations release that loads another remote file
    fails here until groundwork/quality/offline.py maps it to a copy)."""
    site = _site(published_docs)
    written = [
        p
        for p in [*site.rglob("*.html"), *site.rglob("*.css")]
        if not p.is_relative_to(site / VENDOR)
    ]
    assert len(written) > 10
    remote = {str(p.relative_to(site)): REMOTE_LOAD.findall(p.read_text()) for p in written}
    assert {page: found for page, found in remote.items() if found} == {}
    index = (site / "index.html").read_text()
    copies = re.findall(rf"""(?:src|href)="\./({VENDOR}/[^"]+)\"""", index)
    assert set(copies) == {f"{VENDOR}/{path}" for path in LOCAL_COPIES.values()}
    assert all((site / copy).is_file() for copy in copies)


@pytest.fixture
def offline_tab(browser):
    """A new tab with the network cut: every request for anything but a local file is refused.
    Fails the test on a script error, a local file that does not load, or any request that left
    for another host."""
    tab = browser.new_page()
    outside, failed, errors = [], [], []
    tab.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file:")
            else route.abort("internetdisconnected")
        ),
    )
    tab.on(
        "request", lambda r: None if r.url.startswith(("file:", "data:")) else outside.append(r.url)
    )
    tab.on("requestfailed", lambda r: failed.append(r.url))
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    tab.close()
    assert (outside, failed, errors) == ([], [], [])


def _loaded_libraries(tab) -> dict[str, str]:
    """What each script the pages load defines, as `typeof` says it."""
    names = ["jQuery", "Popper", "vega", "vegaLite", "vegaEmbed"]
    plugins = ["bootstrapTable", "datepicker", "tab", "collapse"]
    found = tab.evaluate(
        f"[...{names}.map(n => typeof window[n]), ...{plugins}.map(p => typeof jQuery.fn[p])]"
    )
    return dict(zip(names + plugins, found, strict=True))


def _loaded_fonts(tab) -> set[str]:
    return set(
        tab.evaluate(
            "document.fonts.ready.then(() => [...document.fonts]"
            ".filter(f => f.status === 'loaded').map(f => f.family))"
        )
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_index_lists_the_validations_with_no_network(offline_tab, published_docs, scheme):
    site = _site(published_docs)
    offline_tab.emulate_media(color_scheme=scheme)
    offline_tab.goto((site / "index.html").as_uri())
    assert set(_loaded_libraries(offline_tab).values()) <= {"function", "object"}
    suites = set(expectation_suites(GATES))
    results = offline_tab.locator("#Validation-Results tbody tr")
    assert results.count() == len(suites)
    links = results.locator("a.ge-index-page-table-expectation-suite-link")
    assert {t.strip() for t in links.all_inner_texts()} == suites
    assert all(link.is_visible() for link in links.all())
    pages = [row.get_attribute("data-href") for row in results.all()]
    assert all((site / page).is_file() for page in pages)
    assert "Font Awesome 6 Free" in _loaded_fonts(offline_tab)  # the status icons

    offline_tab.locator("#Expectation-Suites-tab").click()  # Bootstrap's tabs
    listed = offline_tab.locator("#Expectation-Suites tbody tr")
    listed.first.wait_for(state="visible")
    assert {t.strip() for t in listed.all_inner_texts()} == suites
    results.first.wait_for(state="hidden")


def test_a_validation_page_renders_its_table_with_no_network(offline_tab, published_docs):
    site = _site(published_docs)
    (page,) = (site / "validations" / "requirements").rglob("*.html")
    offline_tab.goto(page.as_uri())
    assert set(_loaded_libraries(offline_tab).values()) <= {"function", "object"}
    tables = offline_tab.locator(".bootstrap-table table", has=offline_tab.locator("th"))
    expectation_rows = tables.filter(has_text="Observed Value").locator(":scope > tbody > tr")
    shown = " ".join(" ".join(t.split()) for t in expectation_rows.all_inner_texts())
    described = [e.description for e in expectation_suites(GATES)["requirements"]]
    assert described and all(d in shown for d in described)
    assert all(row.is_visible() for row in expectation_rows.all())
    assert offline_tab.locator(".ge-success-icon, .fa-check-circle").first.is_visible()
    assert "Font Awesome 6 Free" in _loaded_fonts(offline_tab)
