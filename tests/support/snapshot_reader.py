"""A dashboard's reader of published.duckdb, run as its own process by the snapshot tests.

It connects the way Superset, Metabase and other SQLAlchemy-based tools do (the duckdb-engine
driver, read-only) and reads in a loop until its stop file appears: `fresh`, each read through a
new connection (a pool that keeps none, NullPool); `held`, every read through one connection
opened at the start, as a pool keeps one. One mode per process: DuckDB shares one open database
per file within a process, so a held connection would hold the fresh ones to its publication.
Every read is one JSON line on stdout: the run it saw, whether the tables it read are that run's
whole tables, and the error if the read failed.

    python tests/support/snapshot_reader.py fresh|held <published.duckdb> <stop file>
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

# One query: the run the snapshot says it holds, its recorded row counts, and what the tables
# hold. A read of a half-written snapshot would disagree with itself.
READ = sa.text(
    """
    SELECT p.run_id, p.requirements, p.answers, p.citations,
           (SELECT count(*) FROM current_requirements) AS requirements_read,
           (SELECT count(*) FROM current_answers) AS answers_read,
           (SELECT count(*) FROM current_citations) AS citations_read,
           (SELECT list(DISTINCT run_id) FROM current_requirements) AS requirement_runs,
           (SELECT list(DISTINCT run_id) FROM current_answers) AS answer_runs
    FROM published_run p
    """
)


def read(connection: sa.Connection) -> dict:
    """One read: the run seen and whether the tables are that run's, whole."""
    row = connection.execute(READ).one()
    whole = (
        (row.requirements, row.answers, row.citations)
        == (row.requirements_read, row.answers_read, row.citations_read)
        and list(row.requirement_runs) == [row.run_id]
        and list(row.answer_runs) == [row.run_id]
    )
    return {"run_id": row.run_id, "whole": whole, "error": None}


def reads(engine: sa.Engine, held: bool, stop: Path) -> None:
    """Read until `stop` exists, printing each read."""
    kept = engine.connect() if held else None
    print(json.dumps({"ready": True}), flush=True)
    while not stop.exists():
        try:
            if kept is not None:
                line = read(kept)
            else:
                with engine.connect() as connection:
                    line = read(connection)
        except sa.exc.DBAPIError as exc:  # recorded: the test fails on it
            line = {"run_id": None, "whole": False, "error": str(exc)}
        print(json.dumps(line), flush=True)
        time.sleep(0.02)


def main(mode: str, snapshot: str, stop: str) -> None:
    pool = {"poolclass": NullPool} if mode == "fresh" else {}
    engine = sa.create_engine(f"duckdb:///{snapshot}", connect_args={"read_only": True}, **pool)
    reads(engine, mode == "held", Path(stop))


if __name__ == "__main__":
    main(*sys.argv[1:4])
