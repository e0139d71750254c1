"""New requirement IDs are numbered in the candidates' order in their documents, ties included:
two candidates that open at one offset get the same IDs whatever order the rows arrive in, so
two runs of one corpus number a fresh register alike (sql/registry/assign_ids.sql)."""

from __future__ import annotations

import duckdb

from groundwork.warehouse.sqlfiles import SQL_DIR, run_script

# Two candidates of one document at one offset, and a third after them. Numbered on the offset
# alone, the tie fell as the rows came out of the canonical keys' window: here the later-ending
# candidate first.
ROWS = [
    ("d", 10, 60, "the entity must notify the board"),
    ("d", 10, 90, "each plan shall designate an officer"),
    ("d", 95, 120, "the board may extend it"),
]


def _numbered(rows: list[tuple[str, int, int, str]]) -> dict[tuple[int, int], str]:
    """(char_start, char_end) -> the ID a fresh register gives it, the rows inserted in order."""
    con = duckdb.connect()
    con.execute("CREATE TABLE documents (doc_id VARCHAR, source_id VARCHAR, source_type VARCHAR)")
    con.execute("INSERT INTO documents VALUES ('d', 's', 'regulation')")
    con.execute("CREATE TABLE registered_sources AS SELECT 's' AS source_id")
    ddl = (SQL_DIR / "ddl" / "warehouse.sql").read_text()
    start = ddl.index("CREATE TABLE IF NOT EXISTS requirement_registry")
    con.execute(ddl[start : ddl.index(";", start)])
    con.execute(
        "CREATE TABLE run_rows (doc_id VARCHAR, char_start BIGINT, char_end BIGINT, "
        "normalised_quote VARCHAR, is_requirement BOOLEAN)"
    )
    for row in rows:
        con.execute("INSERT INTO run_rows VALUES (?, ?, ?, ?, true)", list(row))
    run_script(con, "registry/assign_ids", {"run_id": "r1"}, candidates="run_rows")
    numbered = con.execute(
        "SELECT c.char_start, c.char_end, r.requirement_id FROM run_candidates c "
        "JOIN requirement_registry r USING (canonical_key)"
    ).fetchall()
    return {(start, end): requirement_id for start, end, requirement_id in numbered}


def test_ties_at_one_offset_are_numbered_alike_in_any_order():
    forward, backward = _numbered(ROWS), _numbered(ROWS[::-1])
    assert forward == backward
    assert [forward[(s, e)] for _, s, e, _ in ROWS] == ["REQ-S0001", "REQ-S0002", "REQ-S0003"]
