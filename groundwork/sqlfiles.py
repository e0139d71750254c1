"""SQL lives in sql/ as files; this module finds them and runs them statement by statement.

Named parameters (`$run_id`) are bound per statement, so a script can mix statements that use
different parameters. Paths cannot be bound in DDL (views over Parquet), so `{name}` placeholders
are substituted as quoted SQL string literals by `literal`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"
_PARAM = re.compile(r"\$([a-z_][a-z0-9_]*)")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_STATEMENT_END = re.compile(r";\s*(?:\n|$)")


def sql_text(name: str) -> str:
    """The text of sql/<name>.sql."""
    return (SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")


def literal(value: str | Path) -> str:
    """A string as a single-quoted SQL literal."""
    return "'" + str(value).replace("'", "''") + "'"


def statements(script: str) -> list[str]:
    """The statements of a script, split at a `;` that ends a line."""
    parts = _STATEMENT_END.split(script)
    return [p.strip() for p in parts if _code(p)]


def _code(part: str) -> str:
    return "\n".join(ln for ln in part.splitlines() if not ln.strip().startswith("--")).strip()


def literal_sql(name: str, **subst: Any) -> str:
    """The text of sql/<name>.sql with `{placeholders}` replaced by quoted literals (paths)."""
    return _substituted(sql_text(name), subst)


def _substituted(script: str, subst: dict[str, Any]) -> str:
    return _PLACEHOLDER.sub(
        lambda m: literal(subst[m.group(1)]) if m.group(1) in subst else m.group(0), script
    )


def run_script(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None, **subst: Any
) -> None:
    """Run every statement of sql/<name>.sql with the named parameters each one uses."""
    params = params or {}
    script = _substituted(sql_text(name), subst)
    for stmt in statements(script):
        used = {k: params[k] for k in set(_PARAM.findall(stmt)) if k in params}
        con.execute(stmt, used or None)


def query(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None
) -> duckdb.DuckDBPyConnection:
    """Execute the single query in sql/<name>.sql and return the cursor for fetching."""
    stmt = sql_text(name)
    used = {k: v for k, v in (params or {}).items() if f"${k}" in stmt}
    return con.execute(stmt, used or None)
