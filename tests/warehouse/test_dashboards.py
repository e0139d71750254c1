"""The dashboard views in sql/views/, on a real warehouse: the session's run of data/corpus."""

from __future__ import annotations

import pytest

from tests.support.warehouses import DASHBOARD_VIEWS, rewrite, rows, tampered_run

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("view", DASHBOARD_VIEWS)
def test_every_view_in_sql_views_exists_and_runs(published_sample, view: str):
    warehouse, _ = published_sample
    assert rows(warehouse, f"SELECT count(*) >= 0 FROM {view}") == [(True,)]


def test_dashboard_requirements_adds_up_to_the_register(published_sample):
    warehouse, summary = published_sample
    assert rows(warehouse, "SELECT sum(requirements) FROM dashboard_requirements") == [
        (summary.requirements,)
    ]
    assert (
        rows(
            warehouse,
            "SELECT doc_id FROM dashboard_requirements GROUP BY jurisdiction, source_type, modality, "
            "doc_id HAVING count(*) > 1",
        )
        == []
    )  # one row per jurisdiction, source type, modality and document
    by_type = dict(
        rows(
            warehouse,
            "SELECT source_type, sum(requirements) FROM dashboard_requirements GROUP BY 1",
        )
    )
    assert set(by_type) == {"statute", "regulation", "policy"}
    assert by_type == dict(
        rows(
            warehouse,
            "SELECT d.source_type, count(*) FROM current_requirements r "
            "JOIN documents d USING (doc_id) GROUP BY 1",
        )
    )
    jurisdictions = {
        j for (j,) in rows(warehouse, "SELECT DISTINCT jurisdiction FROM dashboard_requirements")
    }
    assert {"US-Federal", "US-DC", "US-NY"} <= jurisdictions


def test_dashboard_answers_by_topic_counts_every_answer(published_sample):
    warehouse, summary = published_sample
    totals = dict(
        rows(warehouse, "SELECT result, sum(answers) FROM dashboard_answers_by_topic GROUP BY 1")
    )
    assert totals == {
        "ANSWERED": summary.answered,
        "NO_AUTHORITATIVE_EVIDENCE": summary.no_evidence,
    }
    breach = dict(
        rows(
            warehouse,
            "SELECT grounding_confidence, sum(answers) FROM dashboard_answers_by_topic "
            "WHERE topic = 'breach-notification' GROUP BY 1",
        )
    )
    assert sum(breach.values()) == 13 and breach.get("high", 0) >= 1
    assert rows(
        warehouse,
        "SELECT count(*) FROM dashboard_answers_by_topic "
        "WHERE result = 'NO_AUTHORITATIVE_EVIDENCE' AND grounding_confidence <> 'insufficient'",
    ) == [(0,)]


def test_dashboard_run_quality_rates(published_sample):
    warehouse, summary = published_sample
    ((run_id, statements, unsupported_rate, verified, cited, coverage),) = rows(
        warehouse,
        "SELECT run_id, statements, unsupported_rate, verified_pairs, cited_pairs, "
        "citation_coverage FROM dashboard_run_quality",
    )
    assert run_id == summary.run_id
    assert statements == rows(warehouse, "SELECT count(*) FROM current_statements")[0][0] > 0
    assert unsupported_rate == 0  # the extractive composer only quotes
    expected_cited = rows(
        warehouse, "SELECT count(DISTINCT (question_id, requirement_id)) FROM current_citations"
    )[0][0]
    assert cited == expected_cited and 0 < cited <= verified
    assert coverage == pytest.approx(cited / verified, abs=1e-4) and coverage < 1


def test_dashboard_claim_quality_counts_the_runs_claims(published_sample):
    warehouse, summary = published_sample
    ((run_id, claims, supported, rate, removed, replaced),) = rows(
        warehouse,
        "SELECT run_id, claims, supported, unsupported_claim_rate, removed, replaced "
        "FROM dashboard_claim_quality",
    )
    assert run_id == summary.run_id
    assert claims == rows(warehouse, "SELECT count(*) FROM current_claims")[0][0] > 0
    assert (supported, rate, removed, replaced) == (claims, 0, 0, 0)  # quotes support themselves


def test_dashboard_run_failures_names_the_runs_rejections_and_checks(published_sample):
    warehouse, summary = published_sample
    ((run_id, status, rejected, hard, soft, failed),) = rows(
        warehouse,
        "SELECT run_id, status, rejected_documents, failed_hard_checks, failed_soft_checks, "
        "failed_checks FROM dashboard_run_failures",
    )
    assert (run_id, status, rejected, hard) == (summary.run_id, "published", 0, 0)
    soft_failed = rows(
        warehouse,
        "SELECT string_agg(check_name, ', ' ORDER BY check_name) FROM check_results WHERE NOT passed",
    )[0][0]
    assert failed == soft_failed and soft == (0 if failed is None else len(failed.split(", ")))


def test_run_views_follow_a_second_run_with_failures(published_sample, tmp_path):
    """A copy of the session's warehouse plus a failed run whose tables are the published run's
    with one statement judged UNSUPPORTED, one rejected file and one failed hard check."""
    from groundwork.warehouse.store import Warehouse
    from groundwork.warehouse.views import refresh_views

    bad = "r99999999T000000000000Z"
    wh, good = tampered_run(published_sample[0], tmp_path, bad)

    def one_unsupported(records):
        records[0]["verdict"] = "UNSUPPORTED"
        return records

    rewrite(wh, "statements", bad, one_unsupported)
    with wh.connect() as con:
        con.execute(
            "INSERT INTO runs (run_id, status, started_at) VALUES (?, 'failed', now()::TIMESTAMP)",
            [bad],
        )
        con.execute(
            "INSERT INTO rejected_documents VALUES (?, 'x.md', NULL, NULL, 'empty', 'empty file')",
            [bad],
        )
        con.execute(
            "INSERT INTO check_results VALUES "
            "(?, 'statements_cited', 'statements', 'hard', 'm', 0, 2, false, 2, '[]')",
            [bad],
        )
        refresh_views(con, Warehouse(wh.root))
    quality = rows(
        wh.root,
        "SELECT run_id, statements, unsupported, unsupported_rate FROM dashboard_run_quality",
    )
    assert [q[0] for q in quality] == [good, bad]  # oldest first
    assert quality[1][2] == 1 and quality[1][3] == pytest.approx(1 / quality[1][1], abs=1e-4)
    failures = rows(
        wh.root,
        "SELECT run_id, rejected_documents, rejection_reasons, failed_hard_checks, failed_checks "
        f"FROM dashboard_run_failures WHERE run_id = '{bad}'",
    )
    assert failures == [(bad, 1, "empty", 1, "statements_cited")]


def test_views_work_from_another_directory_and_after_the_warehouse_moves(
    published_sample, tmp_path, monkeypatch
):
    """Views name Parquet files relative to the warehouse folder and every connection resolves
    them there: `groundwork sql` from elsewhere, and in a moved copy, sees the whole register."""
    import shutil

    from typer.testing import CliRunner

    from groundwork.cli import app
    from groundwork.warehouse.store import Warehouse

    source, summary = published_sample
    first = tmp_path / "first"
    shutil.copytree(source, first)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    moved = tmp_path / "moved" / "warehouse"
    for folder in (first, moved):
        if folder == moved:
            moved.parent.mkdir()
            shutil.move(first, moved)
        result = CliRunner().invoke(
            app, ["sql", "-w", str(folder), "SELECT count(*) AS n FROM current_requirements"]
        )
        assert result.exit_code == 0, result.output
        assert str(summary.requirements) in result.output
        with Warehouse(folder).connect(read_only=True) as con:
            for view in DASHBOARD_VIEWS:
                con.execute(f"SELECT count(*) FROM {view}").fetchall()
