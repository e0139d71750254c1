"""Stage `retrievals`: the top-k units of each of the run's questions, ranked by the configured
retrieval backend (groundwork/retrieve/), with the relevance model's scores cached in the
warehouse."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.models.scores import dense_embedder, relevance_scorer
from groundwork.retrieve import retriever
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.parquet import write_run_table
from groundwork.warehouse.sqlfiles import literal_sql
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.retrievals import RETRIEVALS_SCHEMA, Retrievals


@task(name="retrieve", cache_policy=NO_CACHE)
def retrieve_stage(warehouse: Warehouse, run_id: str, config: RunConfig) -> dict[str, float]:
    """Retrieve the top-k units of the run's questions from the run's chunks; returns the idf
    the lexical verifier weighs question terms with (empty, and no index built, without
    questions)."""
    parts = run_parts(warehouse, run_id, "chunks", "questions")
    bar = stage_progress("retrieve", None, "questions")
    with warehouse.connect(read_only=True) as con:
        questions = con.execute(literal_sql("answers/questions", **parts)).to_arrow_table()
        chunks = (
            con.execute(literal_sql("answers/index_chunks", **parts)).to_arrow_table()
            if questions.num_rows
            else None
        )
    if chunks is None:
        write_run_table(warehouse, "retrievals", run_id, RETRIEVALS_SCHEMA.empty_table())
        bar.done(0)
        return {}
    with warehouse.connect() as con:
        scorer = relevance_scorer(con) if config.retrieve == "trained" else None
        embedder = dense_embedder(con) if config.retrieve != "bm25" else None
        backend = retriever(chunks, config, scorer, embedder)
        found = backend.retrievals(questions, config.top_k)
    table = checked(found, Retrievals, "retrievals")
    write_run_table(warehouse, "retrievals", run_id, table)
    bar.done(questions.num_rows)
    return backend.idf
