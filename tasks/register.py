"""Stage `requirements`: stable IDs from the append-only registry, then the run's table.

The registry update and the Parquet writes happen in one DuckDB transaction; the Parquet folder is
moved into place only after the transaction commits, so a crash leaves either nothing visible or
IDs that the next run of the same corpus will find and reuse (an ID is never handed out twice).

An incremental run registers only the sources it touched (a document of theirs was extracted
afresh, changed or removed): an ID's canonical key counts a quote's occurrences across its whole
source, so a source is the smallest unit that can be renumbered on its own. Every other source's
requirements are taken, with their IDs, from the runs the reused run's lineage names; they passed
their contract check there.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.incremental import lineage_sql
from groundwork.warehouse.lineage import own_relation, relation
from groundwork.warehouse.parquet import part_writer
from groundwork.warehouse.sqlfiles import query, relation_sql, run_script
from groundwork.warehouse.store import Warehouse
from schemas.contract import ContractViolation, checked, table_contract
from schemas.requirements import REGISTERED_FIELDS, Requirements

# The Requirements contract on the columns register adds (schemas/requirements.py)
_REGISTERED = table_contract(
    {name: Requirements.columns[name] for name in REGISTERED_FIELDS}, name="Requirements"
)


@task(name="register", cache_policy=NO_CACHE)
def register_stage(warehouse: Warehouse, run_id: str, reused: str | None) -> dict[str, int]:
    """Assign IDs to the run's candidates and write `requirements`; returns registry counts."""
    bar = stage_progress("register", None, "requirements")
    candidates = relation(warehouse, "candidates", run_id)
    writer = part_writer(warehouse, "requirements", run_id)
    with warehouse.connect() as con:
        con.execute("BEGIN TRANSACTION")
        run_script(
            con,
            "registry/registered_sources",
            {"reused": reused},
            fresh_candidates=own_relation(warehouse, "candidates", run_id),
        )
        run_script(con, "registry/assign_ids", {"run_id": run_id}, candidates=candidates)
        processed = relation_sql("registry/registered_documents")
        con.execute(
            lineage_sql(warehouse, "requirements", run_id, reused, processed, writer.lineage_path)
        )
        path = writer.next_path()
        run_script(
            con,
            "registry/write_run_requirements",
            requirements=relation_sql("registry/run_requirements"),
            path=path,
        )
        active, retired, new = query(con, "registry/counts", {"run_id": run_id}).fetchone()
        _check_written(path)
        con.execute("COMMIT")
    writer.commit()
    bar.done(active)
    return {"active": active, "retired": retired, "new": new}


def _check_written(path: Path) -> None:
    """Hold the written part to the Requirements contract: exactly its columns, and what register
    added (IDs, keys, sources) well formed; the candidate columns are copied unchanged from
    candidates that passed their own contract (schemas/requirements.py, REGISTERED_FIELDS).

    In batches of 250,000 rows of the four added columns: the contract runs on pandas, and whole
    rows, quotes included, in batches of 200,000 were once the run's memory peak. IDs and keys
    are unique across the whole run by the hard checks requirement_ids_unique and
    registry_ids_stable.
    """
    written = set(pq.read_schema(path).names)
    if written != set(Requirements.columns):
        raise ContractViolation(
            f"requirements: columns {sorted(written ^ set(Requirements.columns))} "
            "are not the contract's"
        )
    part = pq.ParquetFile(path)
    for batch in part.iter_batches(batch_size=250_000, columns=REGISTERED_FIELDS):
        checked(pa.Table.from_batches([batch]), _REGISTERED, "requirements")
