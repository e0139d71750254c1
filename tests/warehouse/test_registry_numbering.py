"""New requirement IDs are numbered in the candidates' order in their documents, ties included:
two candidates that open at one offset get the same IDs whatever order the rows arrive in, so
two runs of one corpus number a fresh register alike (sql/registry/assign_ids.sql); one quote that
is two candidates at one span (a duty alone, a permission under its lead-in) gets its keys alike."""

from __future__ import annotations

import duckdb

from groundwork.warehouse.sqlfiles import SQL_DIR, run_script

# Two candidates of one document at one offset, and a third after them. Numbered on the offset
# alone, the tie fell as the rows came out of the canonical keys' window: here the later-ending
# candidate first.
ROWS = [
    ("d", 10, 60, "the entity must notify the board", None, "obligation"),
    ("d", 10, 90, "each plan shall designate an officer", None, "obligation"),
    ("d", 95, 120, "the board may extend it", None, "permission"),
]
# One quote at one span, twice: read alone as a duty, and as a permission under its lead-in.
TWICE = [
    ("d", 200, 260, "to investigate and implement plans", None, "obligation"),
    ("d", 200, 260, "to investigate and implement plans", 150, "permission"),
]
Row = tuple[str, int, int, str, int | None, str]


def _numbered(rows: list[Row]) -> dict[tuple[int, int, str], str]:
    """(char_start, char_end, modality) -> the ID a fresh register gives it, the rows inserted in
    order."""
    con = duckdb.connect()
    con.execute("CREATE TABLE documents (doc_id VARCHAR, source_id VARCHAR, source_type VARCHAR)")
    con.execute("INSERT INTO documents VALUES ('d', 's', 'regulation')")
    con.execute("CREATE TABLE registered_sources AS SELECT 's' AS source_id")
    ddl = (SQL_DIR / "ddl" / "warehouse.sql").read_text()
    start = ddl.index("CREATE TABLE IF NOT EXISTS requirement_registry")
    con.execute(ddl[start : ddl.index(";", start)])
    con.execute(
        "CREATE TABLE run_rows (doc_id VARCHAR, char_start BIGINT, char_end BIGINT, "
        "normalised_quote VARCHAR, lead_in_start BIGINT, modality VARCHAR, trigger VARCHAR, "
        "is_requirement BOOLEAN)"
    )
    for row in rows:
        con.execute("INSERT INTO run_rows VALUES (?, ?, ?, ?, ?, ?, 'shall', true)", list(row))
    run_script(con, "registry/assign_ids", {"run_id": "r1"}, candidates="run_rows")
    numbered = con.execute(
        "SELECT c.char_start, c.char_end, c.modality, r.requirement_id FROM run_candidates c "
        "JOIN requirement_registry r USING (canonical_key)"
    ).fetchall()
    return {
        (start, end, modality): requirement_id for start, end, modality, requirement_id in numbered
    }


def test_ties_at_one_offset_are_numbered_alike_in_any_order():
    forward, backward = _numbered(ROWS), _numbered(ROWS[::-1])
    assert forward == backward
    assert [forward[(s, e, m)] for _, s, e, _, _, m in ROWS] == [
        "REQ-S0001",
        "REQ-S0002",
        "REQ-S0003",
    ]


def test_one_quote_twice_at_one_span_gets_its_keys_and_ids_alike_in_any_order():
    forward, backward = _numbered(ROWS + TWICE), _numbered((ROWS + TWICE)[::-1])
    assert forward == backward
    assert forward[(200, 260, "obligation")] == "REQ-S0004"  # alone first, then under its lead-in
    assert forward[(200, 260, "permission")] == "REQ-S0005"
