"""`groundwork ask`: one question against the published warehouse, read-only, in seconds.

The same stage backends as the corpus flow's offline defaults (hybrid retrieval, the dense
encoder as the gate, extractive composition), run in-process on the current published chunks
and requirements; nothing is written to the warehouse, so asking never competes with a nightly
run. No Prefect run is started: a single question is not a batch job.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.compose.tables import answers
from groundwork.models.scores import dense_embedder, gate_scorer
from groundwork.retrieve import retriever
from groundwork.verify import verifier
from groundwork.verify.absent import NAMED_PATTERN
from groundwork.verify.scope import verdicts
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import Sql, literal_sql, parquet_relation, query
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.questions import ARROW_SCHEMA, Question


def _written(table: pa.Table, path: Path) -> Sql:
    """Write a table of the one-off question to a Parquet file; the file as a relation."""
    pq.write_table(table, path)
    return parquet_relation(path)


class NothingPublished(Exception):
    """The warehouse has no published run to answer from."""


def asked(warehouse: Warehouse, text: str, top_k: int = 10) -> tuple[dict, list[dict], list[dict]]:
    """The answer to one question, its statements, and the sources its citations point to."""
    question = Question(question_id="ASK", question=text)
    with warehouse.connect(read_only=True) as con:
        published = query(con, "runs/published").fetchone()
        if published is None:
            raise NothingPublished(f"no published run in {warehouse.root}; run `groundwork run`")
        run = published[0]
        with tempfile.TemporaryDirectory() as tmp:
            parts = run_parts(warehouse, run, "chunks", "requirements")
            questions = pa.Table.from_pylist([question.model_dump()], schema=ARROW_SCHEMA)
            parts["questions"] = _written(questions, Path(tmp) / "questions.parquet")
            chunks = con.execute(literal_sql("answers/index_chunks", **parts)).to_arrow_table()
            config = RunConfig(top_k=top_k)
            # the default backends; the encoder reads the vectors the run cached, storing none
            backend = retriever(chunks, config, embedder=dense_embedder(con, stores=False))
            found = backend.retrievals(questions, top_k)
            parts["retrievals"] = _written(found, Path(tmp) / "retrievals.parquet")
            pairs = con.execute(literal_sql("answers/candidate_pairs", **parts)).to_arrow_table()
            scorer = gate_scorer(con, stores=False)
            with verifier(config, warehouse, "ask", backend.idf, scorer) as gate:
                verified = verdicts(con, gate, pairs, backend.idf)
            parts["verifications"] = _written(verified, Path(tmp) / "verifications.parquet")
            evidence = con.execute(literal_sql("answers/verified_evidence", **parts))
            evidence = evidence.to_arrow_table()
            rejected = con.execute(
                literal_sql("answers/rejection_counts", **parts, named=NAMED_PATTERN)
            )
            tables = answers(questions, evidence, rejected.to_arrow_table(), config.claims)
            answer, statements = tables["answers"], tables["statements"]
            parts["citations"] = _written(tables["citations"], Path(tmp) / "citations.parquet")
            sources = con.execute(literal_sql("answers/cited_sources", **parts))
            columns = [d[0] for d in sources.description]
            cited = [dict(zip(columns, row, strict=True)) for row in sources.fetchall()]
    return answer.to_pylist()[0], statements.to_pylist(), cited
