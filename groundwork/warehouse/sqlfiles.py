"""SQL lives in sql/ as files; this module finds them and runs them statement by statement.

Every placeholder in sql/ is a DuckDB named parameter, `$name`; nothing else is filled in. A
name is filled in one of two ways, by how the caller passes its value:

- as a parameter (`params`, per statement of a script, so a script can mix statements that use
  different ones): a scalar (text, number, truth value, None, a timestamp without time zone)
  as a typed SQL literal, any other value bound. Binding any Python value makes DuckDB import
  pandas (slow to import), which a run with nothing to do never needs otherwise.
- as a substitution (the keyword arguments of `run_script`, `literal_sql`, `relation_sql`),
  for what DuckDB cannot bind: a path in DDL or COPY (a view over Parquet, `ATTACH`), a
  relation or a name. It is put into the text before the parameters are filled: a value
  marked `Sql` (a run's table as a relation, `$chunks c`; a table's name, `current_$table`)
  as the SQL text it is, any other as a quoted SQL string literal (`literal`).

A `--` comment line is never filled in, so a file's header can name its `$parameters`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"
_PARAM = re.compile(r"\$([a-z_][a-z0-9_]*)")
_STATEMENT_END = re.compile(r";\s*(?:\n|$)")


def sql_text(name: str) -> str:
    """The text of sql/<name>.sql."""
    return (SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")


class Sql(str):
    """SQL text (a relation such as `read_parquet(...)`, or a name), substituted for a `$name`
    as it is, where any other value is quoted as a literal."""


def literal(value: str | Path) -> str:
    """A string as a single-quoted SQL literal."""
    return "'" + str(value).replace("'", "''") + "'"


def literal_list(values: list[str]) -> Sql:
    """Strings as a parenthesised list of SQL string literals, for `IN $name` (SQL has no empty
    one: `values` must not be empty)."""
    return Sql("(" + ", ".join(literal(v) for v in values) + ")")


def parquet_relation(files: str | Path) -> Sql:
    """The rows of Parquet files (a path or a glob) as a relation to substitute for a `$name`."""
    return Sql(f"read_parquet({literal(files)}, hive_partitioning = false, union_by_name = true)")


def statements(script: str) -> list[str]:
    """The statements of a script, split at a `;` that ends a line."""
    parts = _STATEMENT_END.split(script)
    return [p.strip() for p in parts if _code(p)]


def _code(part: str) -> str:
    return "\n".join(ln for ln in part.splitlines() if not ln.strip().startswith("--")).strip()


def literal_sql(name: str, **subst: Any) -> str:
    """The text of sql/<name>.sql with the `$names` in `subst` substituted (module docstring)."""
    return _substituted(sql_text(name), subst)


def relation_sql(name: str, **subst: Any) -> Sql:
    """sql/<name>.sql, a relation, filled in as `literal_sql` does and without its comments, to
    be put into other SQL."""
    return Sql(_code(literal_sql(name, **subst)))


def _substituted(script: str, subst: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        if match.group(1) not in subst:
            return match.group(0)
        found = subst[match.group(1)]
        return found if isinstance(found, Sql) else literal(found)

    return _filled(script, value)


def _filled(text: str, value: Callable[[re.Match[str]], str]) -> str:
    """`text` with each `$name` outside `--` comment lines replaced by `value(match)`."""
    return "".join(
        line if line.lstrip().startswith("--") else _PARAM.sub(value, line)
        for line in text.splitlines(keepends=True)
    )


def scalar_literal(value: object) -> str | None:
    """A scalar as a typed SQL literal; None for a value that must be bound instead."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return f"CAST({value} AS BIGINT)"
    if isinstance(value, float):
        return f"CAST({literal(repr(value))} AS DOUBLE)"
    if isinstance(value, str):
        return f"CAST({literal(value)} AS VARCHAR)"
    if isinstance(value, datetime) and value.tzinfo is None:
        return f"CAST({literal(value.isoformat(sep=' '))} AS TIMESTAMP)"
    return None


def _execute(
    con: duckdb.DuckDBPyConnection, stmt: str, params: dict[str, Any]
) -> duckdb.DuckDBPyConnection:
    """Execute one statement with the named parameters it uses (see the module docstring)."""
    bound: dict[str, Any] = {}

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            return match.group(0)
        text = scalar_literal(params[name])
        if text is None:
            bound[name] = params[name]
            return match.group(0)
        return text

    return con.execute(_filled(stmt, value), bound or None)


def run_script(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None, **subst: Any
) -> None:
    """Run every statement of sql/<name>.sql with the named parameters each one uses."""
    script = _substituted(sql_text(name), subst)
    for stmt in statements(script):
        _execute(con, stmt, params or {})


def query(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None, **subst: Any
) -> duckdb.DuckDBPyConnection:
    """Execute the single query in sql/<name>.sql, with the named parameters it uses and the
    substitutions given, and return the cursor for fetching."""
    return _execute(con, _substituted(sql_text(name), subst), params or {})
