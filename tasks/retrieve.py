"""Stage `retrievals`: the top-k chunks of each of the run's questions, ranked by the retrieval
backend (groundwork/retrieve/)."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.retrieve import retriever
from groundwork.sqlfiles import literal_sql
from groundwork.warehouse import Warehouse, run_parts, write_run_table
from schemas.contract import checked
from schemas.retrievals import RETRIEVALS_SCHEMA, Retrievals


@task(name="retrieve", cache_policy=NO_CACHE)
def retrieve_stage(warehouse: Warehouse, run_id: str, top_k: int) -> dict[str, float]:
    """Retrieve the top-k chunks of the run's questions from the run's chunks; returns the idf
    the verifier weighs question terms with (empty, and no index built, without questions)."""
    parts = run_parts(warehouse, run_id, "chunks", "questions")
    with warehouse.connect(read_only=True) as con:
        questions = con.execute(literal_sql("answers/questions", **parts)).to_arrow_table()
        chunks = (
            con.execute(literal_sql("answers/index_chunks", **parts)).to_arrow_table()
            if questions.num_rows
            else None
        )
    if chunks is None:
        write_run_table(warehouse, "retrievals", run_id, RETRIEVALS_SCHEMA.empty_table())
        return {}
    backend = retriever(chunks)
    table = checked(backend.retrievals(questions, top_k), Retrievals, "retrievals")
    write_run_table(warehouse, "retrievals", run_id, table)
    return backend.idf
