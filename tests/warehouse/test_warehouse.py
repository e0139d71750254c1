"""The warehouse's own tables (the split of documents into rows and texts, and its migration), and
how a run holds its database open."""

from pathlib import Path

import duckdb

from groundwork.warehouse.store import Warehouse

# `documents` as warehouses before the split stored it: one table, text included
OLD_DOCUMENTS = """
CREATE TABLE documents (
    doc_id VARCHAR PRIMARY KEY, source_id VARCHAR, path VARCHAR, format VARCHAR,
    source_type VARCHAR, title VARCHAR, citation VARCHAR, jurisdiction VARCHAR, url VARCHAR,
    effective_date VARCHAR, retrieved VARCHAR, hierarchy VARCHAR[], metadata VARCHAR,
    text VARCHAR, sha256 VARCHAR, status VARCHAR, first_run VARCHAR, last_run VARCHAR,
    changed_run VARCHAR
);
INSERT INTO documents VALUES
    ('a', 'S1', 'a.md', 'markdown', 'statute', 'A', '1 U.S.C. 1', NULL, NULL, NULL, NULL,
     ['Part 1'], '{}', 'Staff must wear badges.', sha256('Staff must wear badges.'),
     'active', 'r1', 'r1', 'r1'),
    ('b', 'S1', 'b.md', 'markdown', 'statute', 'B', NULL, NULL, NULL, NULL, NULL,
     [], '{}', 'Staff must wear badges.', sha256('Staff must wear badges.'),
     'removed', 'r1', 'r1', 'r1');
"""


def test_an_old_warehouse_is_migrated_to_rows_and_texts_with_nothing_lost(tmp_path: Path):
    db = tmp_path / "groundwork.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(OLD_DOCUMENTS)
        before = con.execute("SELECT * FROM documents ORDER BY doc_id").fetchall()
    with Warehouse(tmp_path).connect() as con:
        after = con.execute("SELECT * EXCLUDE (n_chars) FROM documents ORDER BY doc_id").fetchall()
        kinds = dict(
            con.execute(
                "SELECT table_name, table_type FROM information_schema.tables "
                "WHERE table_name LIKE 'document%'"
            ).fetchall()
        )
        texts = con.execute("SELECT count(*) FROM document_texts").fetchone()[0]
        n_chars = con.execute("SELECT DISTINCT n_chars FROM document_rows").fetchall()
    assert after == before
    assert kinds == {
        "documents": "VIEW",
        "document_rows": "BASE TABLE",
        "document_texts": "BASE TABLE",
    }
    assert texts == 1  # one text shared by two documents is stored once
    assert n_chars == [(len("Staff must wear badges."),)]


OLD_REGISTRY = """
CREATE TABLE requirement_registry (
    requirement_id VARCHAR PRIMARY KEY, prefix VARCHAR NOT NULL, seq INTEGER NOT NULL,
    canonical_key VARCHAR NOT NULL UNIQUE, source_id VARCHAR NOT NULL,
    normalised_quote VARCHAR NOT NULL, status VARCHAR NOT NULL, first_run VARCHAR NOT NULL,
    last_run VARCHAR NOT NULL, retired_run VARCHAR
);
INSERT INTO requirement_registry VALUES
    ('REQ-S0001', 'S', 1, 'k1', 'S1', 'staff must wear badges.', 'active', 'r1', 'r1', NULL),
    ('REQ-S0002', 'S', 2, 'k2', 'S1', 'visitors must sign in.', 'retired', 'r1', 'r1', 'r2');
"""


def test_an_old_registry_loses_its_key_indexes_and_keeps_its_rows(tmp_path: Path):
    with duckdb.connect(str(tmp_path / "groundwork.duckdb")) as con:
        con.execute(OLD_REGISTRY)
        before = con.execute("SELECT * FROM requirement_registry ORDER BY seq").fetchall()
    with Warehouse(tmp_path).connect() as con:
        after = con.execute("SELECT * FROM requirement_registry ORDER BY seq").fetchall()
        keys = con.execute(
            "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'requirement_registry' "
            "AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')"
        ).fetchone()[0]
        tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert after == before and keys == 0
    assert "requirement_registry_keyed" not in tables


def test_registry_ids_stable_catches_an_id_given_twice(tmp_path: Path):
    from groundwork.quality.gates import checks

    check = next(c for c in checks() if c.name == "registry_ids_stable")
    with Warehouse(tmp_path).connect() as con:
        assert con.execute(check.sql).fetchall() == []
        con.execute(
            "INSERT INTO requirement_registry VALUES "
            "('REQ-S0001', 'S', 1, 'k1', 'S1', 'a.', 'active', 'r1', 'r1', NULL), "
            "('REQ-S0001', 'S', 1, 'k2', 'S1', 'b.', 'active', 'r1', 'r1', NULL)"
        )
        assert {row[1] for row in con.execute(check.sql).fetchall()} == {"k1", "k2"}


def test_a_new_warehouse_reads_documents_through_the_view(tmp_path: Path):
    with Warehouse(tmp_path).connect() as con:
        columns = [
            c for (c,) in con.execute("SELECT column_name FROM (DESCRIBE documents)").fetchall()
        ]
    assert columns[12:15] == ["metadata", "text", "sha256"]
    assert columns[-1] == "n_chars"


def _ingested(corpus: Path, warehouse: Warehouse, run_id: str) -> None:
    from groundwork.ingest.listing import corpus_listing
    from schemas.config import RunConfig
    from tasks.ingest import ingest

    ingest(warehouse, corpus_listing(corpus, warehouse), run_id, RunConfig(workers=1))


def test_a_changed_document_gets_its_new_text_and_hierarchy_and_old_texts_go(tmp_path: Path):
    corpus, warehouse = tmp_path / "corpus", Warehouse(tmp_path / "wh")
    corpus.mkdir()
    a, b = corpus / "a.md", corpus / "b.md"
    a.write_text("---\nhierarchy: [Title 1, Part 2]\n---\nStaff must wear badges.\n")
    b.write_text("---\nhierarchy: [Title 1, Part 3]\n---\nVisitors must sign in.\n")
    with warehouse.connect():  # a run creates its warehouse before it ingests
        pass
    _ingested(corpus, warehouse, "r1")
    a.write_text("---\nhierarchy: [Title 1, Part 9]\n---\nStaff must wear badges at all times.\n")
    b.write_text("---\nhierarchy: [Title 1, Part 3]\n---\nVisitors must sign in and out.\n")
    _ingested(corpus, warehouse, "r2")
    with warehouse.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT doc_id, hierarchy, text, n_chars, changed_run FROM documents ORDER BY doc_id"
        ).fetchall()
        texts = con.execute("SELECT text FROM document_texts ORDER BY text").fetchall()
    assert rows == [
        ("a", ["Title 1", "Part 9"], "Staff must wear badges at all times.", 36, "r2"),
        ("b", ["Title 1", "Part 3"], "Visitors must sign in and out.", 30, "r2"),
    ]
    assert texts == [("Staff must wear badges at all times.",), ("Visitors must sign in and out.",)]


def test_a_document_whose_title_alone_changes_gets_the_new_title_and_keeps_its_text_run(
    tmp_path: Path,
):
    """Descriptive fields are updated only where one differs; a new title is not a new text (the
    source, keyed by URL, stays the same)."""
    corpus, warehouse = tmp_path / "corpus", Warehouse(tmp_path / "wh")
    corpus.mkdir()
    a, b = corpus / "a.md", corpus / "b.md"
    a.write_text("---\ntitle: Badges\nurl: https://example.gov/a\n---\nStaff must wear badges.\n")
    b.write_text("---\ntitle: Visitors\n---\nVisitors must sign in.\n")
    with warehouse.connect():
        pass
    _ingested(corpus, warehouse, "r1")
    a.write_text(
        "---\ntitle: Staff badges\nurl: https://example.gov/a\n---\nStaff must wear badges.\n"
    )
    b.write_text("---\ntitle: Visitors\n---\nVisitors must sign in and out.\n")
    _ingested(corpus, warehouse, "r2")
    with warehouse.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT doc_id, title, changed_run, last_run FROM documents ORDER BY doc_id"
        ).fetchall()
    assert rows == [("a", "Staff badges", "r1", "r2"), ("b", "Visitors", "r2", "r2")]


def test_a_session_keeps_the_database_open_and_checkpoints_once_at_its_end(tmp_path: Path):
    """Inside a session, closing a connection neither checkpoints (the write-ahead log stays)
    nor loses what it committed; the session's end checkpoints it all."""
    wh = Warehouse(tmp_path)
    wal = tmp_path / "groundwork.duckdb.wal"
    with wh.session():
        with wh.connect() as con:
            con.execute("CREATE TABLE notes (n INTEGER)")
            con.execute("INSERT INTO notes VALUES (1), (2)")
        assert wal.exists()
        with wh.connect(read_only=True) as con:
            assert con.execute("SELECT sum(n) FROM notes").fetchone() == (3,)
        assert wal.exists()
    assert not wal.exists()
    with wh.connect(read_only=True) as con:
        assert con.execute("SELECT sum(n) FROM notes").fetchone() == (3,)


def test_without_a_session_each_connection_checkpoints_on_close(tmp_path: Path):
    wh = Warehouse(tmp_path)
    with wh.connect() as con:
        con.execute("CREATE TABLE notes (n INTEGER)")
    assert not (tmp_path / "groundwork.duckdb.wal").exists()
