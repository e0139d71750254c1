"""What `groundwork sql` may run: queries only, named statement by statement."""

from __future__ import annotations

import duckdb


class NotAQuery(Exception):
    """A statement given to the query tool that is not a query."""


QUERY_STATEMENTS = ("SELECT", "EXPLAIN")  # SELECT includes DESCRIBE, SHOW, PRAGMA and WITH


def read_statements(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Nothing, or NotAQuery naming the first statement of `sql` that is not a query."""
    for statement in con.extract_statements(sql):
        if statement.type.name not in QUERY_STATEMENTS:
            said = statement.query.split(maxsplit=1)[0].upper()  # INSTALL, where DuckDB says LOAD
            raise NotAQuery(
                f"groundwork sql is read-only: it runs queries (SELECT, DESCRIBE, SHOW, EXPLAIN), "
                f"not {said}"
            )
