"""The report's browser fixtures, shared by the report tests of this folder: a copy of the
sample's warehouse with verdicts planted in it, its report, and that report open in a tab."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.warehouse.store import Warehouse
from tests.support.warehouses import rewrite, rows


def _set_verdicts(wh: Warehouse, run_id: str, verdicts: dict[str, list[str]]) -> None:
    """Rewrite the run's statements part: the first statements of each question get the
    verdicts given for it, in order."""

    def planted(records: list[dict]) -> list[dict]:
        for r in records:
            given = verdicts.get(r["question_id"], [])
            if r["ordinal"] <= len(given):
                r["verdict"] = given[r["ordinal"] - 1]
        return records

    rewrite(wh, "statements", run_id, planted)


@pytest.fixture(scope="module")
def planted(
    published_sample, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path, str, str]:
    """A copy of the warehouse where one answer has 3 of its statements not supported (over
    20 %) and another exactly 20 %, and the report of it. Returns the warehouse, the report,
    the warned question and the one at the limit."""
    source, summary = published_sample
    warehouse = tmp_path_factory.mktemp("planted") / "wh"
    shutil.copytree(source, warehouse)
    sizes = rows(
        warehouse,
        "SELECT question_id, count(*) AS n FROM current_statements GROUP BY 1 "
        "ORDER BY n DESC, question_id",
    )
    warned, n = sizes[0]
    limit, m = next((q, k) for q, k in sizes[1:] if k % 5 == 0)
    _set_verdicts(
        Warehouse(warehouse),
        summary.run_id,
        {
            warned: ["UNSUPPORTED", "CONTRADICTED", "PARTIAL", "UNSUPPORTED"],
            limit: ["UNSUPPORTED"] * (m // 5),
        },
    )
    report = warehouse / "planted.html"
    result = CliRunner().invoke(app, ["report", "-w", str(warehouse), "--out", str(report)])
    assert result.exit_code == 0, result.output
    assert n >= 8  # 3 of n not supported is over 20 %
    return warehouse, report, warned, limit


@pytest.fixture
def page(browser, planted):
    """The planted report open in a new tab; fails the test on a script error or any request
    other than the file itself."""
    tab = browser.new_page()
    errors, requests = [], []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("request", lambda request: requests.append(request.url))
    tab.goto(planted[1].as_uri())
    yield tab
    tab.close()
    assert errors == []
    assert requests == [planted[1].as_uri()]
