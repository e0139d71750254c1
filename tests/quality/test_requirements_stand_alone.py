"""The hard check requirements_stand_alone fails a run that publishes a quote that is no
requirement on its own: it flags exactly the rows that the extractors set aside
(groundwork/extract/nonrequirements.py), and a run of the sample passes it."""

from __future__ import annotations

import duckdb
import pytest

from groundwork.extract.nonrequirements import set_aside
from groundwork.quality.gates import Check
from groundwork.warehouse.sqlfiles import SQL_DIR

CHECK = SQL_DIR / "checks" / "requirements_stand_alone.sql"
LEAD_IN = "When a standard includes addressable implementation specifications, it must--"
# (quote, the lead-in's offsets where the row is a list item), planted in one document
PLANTED = [
    (LEAD_IN, None),
    ("Assess whether each implementation specification is reasonable and appropriate.", 0),
    ("[68 FR 8376, Feb. 20, 2003, as amended at 78 FR 5694, Jan. 25, 2013]", 0),
    ("(Pub. L. 104-191, title II, § 262(a), Aug. 21, 1996, 110 Stat. 2021.)", None),
    ("Source: 65 FR 82802, Dec. 28, 2000, unless otherwise noted.", None),
    ("NB Effective until June 30, 2027", None),
    ("As applicable to the covered entity or business associate--", 0),
    ("A covered entity must:", None),
    ("The notice shall include the following— ", None),
    ("The Secretary shall have the right", None),  # carried below, though it ends without a mark
    ("to enjoin further such violation by the defendant;", 8),
    ("You may not disclose nonpublic personal information to a third party unless:", None),
    ("A covered entity may deny access, provided that:", None),
    ("(For example, an agreement may specify the duties of each party.)", None),
    ("A covered entity must comply with 45 CFR 164.530, as amended.", None),
    ("A covered entity must notify the Secretary.", None),
]


def _rows() -> list[dict]:
    """The planted rows at made-up offsets, each 100 characters after the last."""
    rows = []
    for i, (quote, lead) in enumerate(PLANTED):
        rows.append(
            {
                "requirement_id": f"REQ-S{i + 1:04d}",
                "doc_id": "d",
                "char_start": 100 * i,
                "char_end": 100 * i + len(quote),
                "exact_quote": quote,
                "lead_in_quote": None if lead is None else PLANTED[lead][0],
                "lead_in_start": None if lead is None else 100 * lead,
                "lead_in_end": None if lead is None else 100 * lead + len(PLANTED[lead][0]),
                "is_requirement": True,
            }
        )
    return rows


def test_the_check_flags_what_the_extractors_set_aside():
    rows = _rows()
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE fresh_requirements (requirement_id VARCHAR, doc_id VARCHAR, "
        "char_start BIGINT, char_end BIGINT, exact_quote VARCHAR, lead_in_quote VARCHAR, "
        "lead_in_start BIGINT, lead_in_end BIGINT)"
    )
    con.executemany(
        "INSERT INTO fresh_requirements VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [[r[c] for c in list(r)[:-1]] for r in rows],
    )
    flagged = {row[0] for row in con.execute(CHECK.read_text()).fetchall()}
    aside = {r["requirement_id"] for r in set_aside(rows) if not r["is_requirement"]}
    assert flagged == aside
    assert flagged == {f"REQ-S{i:04d}" for i in (1, 3, 4, 5, 6, 7, 8, 9)}


def test_the_check_is_hard():
    check = Check.from_file(CHECK)
    assert (check.name, check.table, check.severity) == (
        "requirements_stand_alone",
        "requirements",
        "hard",
    )


@pytest.mark.slow
def test_a_run_of_the_sample_passes_it(published_sample):
    folder, summary = published_sample
    con = duckdb.connect(str(folder / "groundwork.duckdb"), read_only=True)
    passed, offending = con.execute(
        "SELECT passed, offending_rows FROM check_results "
        "WHERE run_id = ? AND check_name = 'requirements_stand_alone'",
        [summary.run_id],
    ).fetchone()
    assert passed and offending == 0
