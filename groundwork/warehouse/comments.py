"""Every table, view and column described where a BI tool looks: DuckDB's comments.

Metabase, Superset and DBeaver show `duckdb_columns().comment` beside each column; the
descriptions come from sql/comments.yaml (schemas/descriptions.py reads it). They are written
into whichever database a connection has open, groundwork.duckdb or the published snapshot, for
the relations it holds: a relation or column the YAML does not describe gets no comment (and
tests/warehouse/test_comments.py fails). `CREATE OR REPLACE VIEW` drops a view's comments, so
they are written again after every refresh of the views.
"""

from __future__ import annotations

import duckdb

from groundwork.warehouse.sqlfiles import literal, query
from schemas.descriptions import descriptions


def _identifier(*parts: str) -> str:
    """A qualified SQL name, each part double-quoted: `"main"."runs"."status"`."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in parts)


def comment_statements(con: duckdb.DuckDBPyConnection, snapshot: bool = False) -> list[str]:
    """`COMMENT ON ...` for every table, view and column of the connection's database (the
    published snapshot when `snapshot`) that the YAML describes and whose comment says something
    else (or nothing): the tables keep theirs from one refresh of the views to the next, and
    each statement costs a catalog change."""
    described = descriptions()
    statements = []
    for schema, name, kind, comment in query(con, "comments/relations").fetchall():
        relation = described.relation(name, snapshot)
        if relation is not None and relation.description != comment:
            target = _identifier(schema, name)
            statements.append(f"COMMENT ON {kind} {target} IS {literal(relation.description)}")
    for schema, table, column, comment in query(con, "comments/columns").fetchall():
        text = described.column(table, column, snapshot)
        if text is not None and text != comment:
            target = _identifier(schema, table, column)
            statements.append(f"COMMENT ON COLUMN {target} IS {literal(text)}")
    return statements


def apply_comments(con: duckdb.DuckDBPyConnection, snapshot: bool = False) -> None:
    """Describe every table, view and column of the connection's database (the published
    snapshot when `snapshot`), within the caller's transaction if it has one."""
    for statement in comment_statements(con, snapshot):
        con.execute(statement)


def uncommented(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The tables and views (`name`) and columns (`name.column`) of the connection's database
    that have no comment: what a BI tool shows undescribed."""
    relations = query(con, "comments/relations").fetchall()
    columns = query(con, "comments/columns").fetchall()
    return [name for _, name, _, comment in relations if not comment] + [
        f"{table}.{column}" for _, table, column, comment in columns if not comment
    ]
