"""`groundwork ask`: one question against the published warehouse, read-only, in seconds.

The same stage functions as the corpus flow (retrieve, verify, compose), run in-process on the
current published chunks and requirements; nothing is written to the warehouse, so asking never
competes with a nightly run. No Prefect run is started: a single question is not a batch job.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.sqlfiles import literal_sql
from groundwork.warehouse import Warehouse
from schemas.config import ClaimChecks
from schemas.questions import ARROW_SCHEMA, Question
from tasks.compose import answers
from tasks.retrieve import chunk_index, retrievals
from tasks.verify import verifications


class NothingPublished(Exception):
    """The warehouse has no published run to answer from."""


def asked(warehouse: Warehouse, text: str, top_k: int = 10) -> tuple[dict, list[dict], list[dict]]:
    """The answer to one question, its statements, and the sources its citations point to."""
    question = Question(question_id="ASK", question=text)
    with warehouse.connect(read_only=True) as con:
        published = dict(con.execute(literal_sql("answers/published_runs")).fetchall())
        if "requirements" not in published:
            raise NothingPublished(f"no published run in {warehouse.root}; run `groundwork run`")
        run = published["requirements"]
        with tempfile.TemporaryDirectory() as tmp:
            parts = {
                t: warehouse.run_dir(t, run) / "part-*.parquet" for t in ("chunks", "requirements")
            }
            parts["questions"] = Path(tmp) / "questions.parquet"
            questions = pa.Table.from_pylist([question.model_dump()], schema=ARROW_SCHEMA)
            pq.write_table(questions, parts["questions"])
            chunks = con.execute(literal_sql("answers/index_chunks", **parts)).to_arrow_table()
            parts["retrievals"] = Path(tmp) / "retrievals.parquet"
            index = chunk_index(chunks)
            pq.write_table(retrievals(questions, index, top_k), parts["retrievals"])
            pairs = con.execute(literal_sql("answers/candidate_pairs", **parts)).to_arrow_table()
            parts["verifications"] = Path(tmp) / "verifications.parquet"
            pq.write_table(verifications(pairs, index.idf), parts["verifications"])
            evidence = con.execute(literal_sql("answers/verified_evidence", **parts))
            evidence = evidence.to_arrow_table()
            rejected = con.execute(literal_sql("answers/rejection_counts", **parts))
            tables = answers(questions, evidence, rejected.to_arrow_table(), ClaimChecks())
            answer, statements = tables["answers"], tables["statements"]
            parts["citations"] = Path(tmp) / "citations.parquet"
            pq.write_table(tables["citations"], parts["citations"])
            sources = con.execute(literal_sql("answers/cited_sources", **parts))
            columns = [d[0] for d in sources.description]
            cited = [dict(zip(columns, row, strict=True)) for row in sources.fetchall()]
    return answer.to_pylist()[0], statements.to_pylist(), cited
