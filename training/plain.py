"""The plain-language questions (data/plain-questions/) over the real corpus (../shared/corpus),
as dense training and its benchmark (benchmarks/plain_questions.py) read them: the corpus's
chunks exactly as the pipeline publishes them, each answerable question's answer chunks (those
that hold one of its verbatim quotes), the deterministic halves of dev, and the measure: is an
expected document among the first 10 distinct documents a retriever ranks?

dev is split in two by a hash of the question id: the tuning half chooses (epochs, settings), the
reported half is only measured. test is read once, at the end, for the chosen models.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from groundwork.models.relevance import header, relevance_text
from groundwork.quality.evaluation import distinct_documents
from groundwork.retrieve.bm25 import chunk_index, question_hits
from groundwork.retrieve.hybrid import fused, nearest
from groundwork.warehouse.sqlfiles import literal_sql

DATA = Path(__file__).resolve().parents[1] / "data" / "plain-questions"
SPLITS = ("train", "dev", "test")
QUOTE_PREFIX = 60  # characters of a quote that place it when it runs over a chunk's end


def split_questions(split: str) -> list[dict]:
    """The records of one split file (answerable and near-miss)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}")
    lines = (DATA / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def family_folds() -> dict[str, set[str]]:
    """Family -> ids of the questions all of whose documents belong to that family."""
    folds = json.loads((DATA / "family-folds.json").read_text(encoding="utf-8"))
    return {family: set(ids) for family, ids in folds.items()}


def tuning_half(question_id: str) -> bool:
    """Whether a dev question is in the half that tuning may look at (the other half is
    reported): sha256 of the id, even or odd."""
    return int(hashlib.sha256(question_id.encode()).hexdigest(), 16) % 2 == 0


def corpus_chunks(shared: Path, warehouse: Path) -> pa.Table:
    """The corpus's published chunks with their document fields (sql/answers/index_chunks.sql),
    from a `groundwork run` over shared/corpus with no questions, made first when `warehouse`
    has none."""
    if not (warehouse / "groundwork.duckdb").exists():
        env = {**os.environ, "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
        command = [str(Path(sys.executable).parent / "groundwork"), "run"]
        command += ["--corpus", str(shared / "corpus"), "--warehouse", str(warehouse)]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode not in (0, 3):  # 3: some files rejected (the manifest, the stats)
            raise SystemExit(f"groundwork run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return published_chunks(warehouse)


def published_chunks(warehouse: Path) -> pa.Table:
    """The published run's chunks with their document fields, as the retrieve stage reads them
    (benchmarks/retrieval.py reads ObliQA's the same way)."""
    with duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True) as con:
        (run,) = con.execute(
            "SELECT run_id FROM publications WHERE table_name = 'chunks'"
        ).fetchone()
        chunks = warehouse / "tables/chunks" / f"run_id={run}" / "part-*.parquet"
        return con.execute(literal_sql("answers/index_chunks", chunks=chunks)).to_arrow_table()


def chunks_by_document(rows: list[dict]) -> dict[str, list[int]]:
    """doc_id -> the positions of its chunks in `rows`, in order."""
    by_doc: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        by_doc.setdefault(row["doc_id"], []).append(i)
    return by_doc


def answer_chunks(question: dict, rows: list[dict], by_doc: dict[str, list[int]]) -> list[int]:
    """Positions (in `rows`, the chunks) of the chunks that hold the question's quotes: the
    chunk that contains a quote whole, or else the one its first QUOTE_PREFIX characters begin
    in (a quote may run over a chunk's end). One per quote, in order, without repeats."""
    found: list[int] = []
    for answer in question["answers"]:
        mine = by_doc.get(answer["doc_id"], [])
        quote = answer["quote"]
        hits = [i for i in mine if quote in rows[i]["text"]]
        hits = hits or [i for i in mine if quote[:QUOTE_PREFIX] in rows[i]["text"]]
        found.extend(i for i in hits[:1] if i not in found)
    return found


TOP = 10  # distinct documents a question's expected document must be among
DEPTH = 100  # chunks each ranking keeps, and the fused ranking's length


def answerable(splits: str, half: str | None = None, family: str | None = None) -> list[dict]:
    """The answerable questions of the splits named (comma-separated), of one half of dev
    ("tune" or "report") and of one family's fold, when given."""
    asked = [q for s in splits.split(",") for q in split_questions(s) if q["answerable"]]
    if half is not None:
        tune = half == "tune"
        asked = [q for q in asked if q["split"] != "dev" or tuning_half(q["id"]) == tune]
    if family is not None:
        fold = family_folds()[family]
        asked = [q for q in asked if q["id"] in fold]
    return asked


def chunk_texts(rows: list[dict]) -> list[str]:
    """Each chunk as an encoder reads it: its context (title, citation, heading), then its text."""
    return [relevance_text(header(r), r["text"]) for r in rows]


def chunk_vectors(model, texts: list[str], cache: Path | None) -> np.ndarray:
    """Every chunk's vector by `model` (an Encoder or StaticEncoder), from `cache` when this
    model version has encoded these texts before."""
    digest = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    path = cache / f"{model.version}-{digest}.npy" if cache is not None else None
    if path is not None and path.exists():
        return np.load(path)
    vectors = model.embeddings(texts)
    if path is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors


def rankings(
    asked: list[dict],
    rows: list[dict],
    encoders: dict,
    cache: Path | None,
    candidates: str | None = None,
) -> dict[str, list[list[int]]]:
    """Method -> each question's chunk ranking (positions, best first, DEPTH long): `bm25`
    (the pipeline's), each encoder by cosine, and `bm25+NAME`, the two fused by reciprocal rank
    as the pipeline's trained retrieval fuses them. With `candidates` (the name of a cheap
    encoder, the static model), also `bm25+NAME/CANDIDATES` for every other encoder: NAME
    reads only the chunks among BM25's and the cheap encoder's first DEPTH (the corpus side
    is the cheap one; NAME encodes the question and those chunks), fused with BM25."""
    index = chunk_index(pa.Table.from_pylist(rows))
    every = np.ones(len(rows), dtype=bool)
    plain = [{**q, "source_types": [], "jurisdiction": None} for q in asked]
    bm25 = [[p for p, _ in question_hits(index, q, DEPTH)] for q in plain]
    ranked = {"bm25": bm25}
    texts = chunk_texts(rows)
    for name, model in encoders.items():
        vectors = chunk_vectors(model, texts, cache)
        asks = model.embeddings([q["question"] for q in asked])
        ranked[name] = [nearest(vectors @ a, every, DEPTH) for a in asks]
        ranked[f"bm25+{name}"] = [
            list(fused(b, d, DEPTH)) for b, d in zip(bm25, ranked[name], strict=True)
        ]
        if candidates is not None and name != candidates and candidates in ranked:
            cheap = ranked[candidates]
            read = [np.isin(np.arange(len(rows)), b + c) for b, c in zip(bm25, cheap, strict=True)]
            ranked[f"bm25+{name}/{candidates}"] = [
                list(fused(b, nearest(vectors @ a, m, DEPTH), DEPTH))
                for b, a, m in zip(bm25, asks, read, strict=True)
            ]
    return ranked


def documents_first(ranking: list[int], doc_ids: list[str], k: int = TOP) -> list[str]:
    """The first k distinct documents of a chunk ranking, as `groundwork eval` counts them."""
    return distinct_documents((doc_ids[pos] for pos in ranking), k)


def found(asked: list[dict], ranked: list[list[int]], doc_ids: list[str]) -> list[bool]:
    """Per question: is one of its expected documents among the first TOP distinct documents?"""
    return [
        bool({a["doc_id"] for a in q["answers"]} & set(documents_first(r, doc_ids)))
        for q, r in zip(asked, ranked, strict=True)
    ]
