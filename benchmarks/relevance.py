"""The relevance model in the pipeline, on the held-back slice of ObliQA dev (the questions
training.relevance never trains on: sha256(QuestionID) mod 5 == 0).

1. Retrieval over the ingested ObliQA corpus (as benchmarks/retrieval.py builds it, in
   /tmp/gw-obliqa), Recall@10 and MAP@10 over the top 10 distinct passages of: groundwork's
   BM25 (top 10 chunks); BM25 as top 10 distinct units; BM25 and the dense encoder fused, as
   units; and each of those candidate sets reranked by the relevance model.
2. The gate: every gold passage and every non-gold passage of BM25's top 20, judged by
   `groundwork judge pairs`' own function (the pipeline's trained gate, the text as one quote):
   AUROC of the score, precision and recall of the verdict at the model's threshold.

    .venv/bin/python benchmarks/relevance.py --shared ../shared   # bench-out/relevance.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import duckdb
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import retrieval  # noqa: E402
from machine import cpu_model  # noqa: E402

from groundwork.judging import judged_pairs  # noqa: E402
from groundwork.models.scores import dense_embedder, gate_scorer, relevance_scorer  # noqa: E402
from groundwork.retrieve.bm25 import chunk_index, retrievals  # noqa: E402
from groundwork.retrieve.hybrid import HybridRetriever  # noqa: E402
from groundwork.warehouse.sqlfiles import run_script  # noqa: E402
from schemas.config import RunConfig  # noqa: E402
from training.metrics import auroc  # noqa: E402
from training.relevance import held_back  # noqa: E402

GATE_DEPTH = 20
# retrieval methods: name -> (reranked by the relevance model, fused with the dense encoder)
METHODS = {
    "bm25_units": (False, False),
    "fused_units": (False, True),
    "bm25_reranked": (True, False),
    "fused_reranked": (True, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-obliqa"))
    parser.add_argument(
        "--candidates", type=int, nargs="+", default=[RunConfig().retrieve_candidates]
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/gw-relevance-cache.duckdb"))
    parser.add_argument(
        "--methods",
        nargs="+",
        choices=[*METHODS, "gate"],
        default=[*METHODS, "gate"],
        help="what to measure [all]; fused_units is the default pipeline's hybrid retrieval",
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench-out" / "relevance.json")
    parser.add_argument(
        "--dense-chunks",
        type=int,
        default=RunConfig().dense_chunks,
        help="the encoder reads every chunk up to this many, else BM25's candidates [the default]",
    )
    args = parser.parse_args()
    ingest = retrieval.ingest(args.shared, args.warehouse, reuse=True)
    chunks = retrieval.published_chunks(args.warehouse)
    questions = retrieval.obliqa_questions(args.shared)
    keep = [held_back(q) for q in questions["question_id"].to_pylist()]
    questions = questions.filter(keep)
    relevant = {q: g for q, g in retrieval.qrels(args.shared).items() if held_back(q)}
    cache = duckdb.connect(str(args.cache))  # scores and vectors, kept between rounds
    run_script(cache, "migrations/002_model_scores")
    scorer = relevance_scorer(cache)
    out: dict = {
        "machine": {"cpu": cpu_model(), "python": sys.version.split()[0]},
        "ingest": ingest,
        "questions": questions.num_rows,
        "model": scorer.version,
        "threshold": scorer.model.info.threshold,
    }
    index = chunk_index(chunks)
    out["bm25_top10_chunks"] = retrieval.scores(
        retrieval.passage_ranking(retrievals(questions, index, 10)), relevant
    )
    embedder = dense_embedder(cache)
    out["dense_model"] = embedder.version
    for n in args.candidates:
        for name in args.methods:
            if name == "gate":
                continue
            score = scorer if METHODS[name][0] else None
            embed = embedder if METHODS[name][1] else None
            started = time.perf_counter()
            found = HybridRetriever(
                chunks, embed, n, "benchmark", score, args.dense_chunks
            ).retrievals(questions, 10)
            out[f"{name}_top{n}"] = {
                **retrieval.scores(retrieval.passage_ranking(found, 10), relevant),
                "seconds": round(time.perf_counter() - started, 1),
            }
            print(name, n, out[f"{name}_top{n}"], flush=True)
    out["dense_chunks"] = args.dense_chunks
    if "gate" in args.methods:
        out["gate"] = gate(args.shared, questions, relevant, index, gate_scorer(cache))
    target = args.out
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


def gate(shared: Path, questions, relevant: dict, index, scorer) -> dict:
    """The trained gate (the dense encoder's cosine, as `verify: trained` runs it) on (question,
    gold passage) and (question, BM25 non-gold passage)."""
    by_id = {p["ID"]: p["Passage"] for p in retrieval.passages(shared)}
    top = retrievals(questions, index, GATE_DEPTH)
    ranked = retrieval.passage_ranking(top, GATE_DEPTH)
    rows, gold = [], []
    for q in questions.to_pylist():
        qid = q["question_id"]
        for uid in sorted(relevant.get(qid, set()) | set(ranked.get(qid, []))):
            if by_id.get(uid, "").strip():
                rows.append({"id": f"{qid}/{uid}", "question": q["question"], "text": by_id[uid]})
                gold.append(uid in relevant.get(qid, set()))
    started = time.perf_counter()
    judged = judged_pairs(rows, scorer)
    seconds = time.perf_counter() - started
    score = np.array([j["score"] for j in judged])
    verified = np.array([j["verified"] for j in judged])
    truth = np.array(gold)
    tp = int((verified & truth).sum())
    return {
        "pairs": len(rows),
        "gold": int(truth.sum()),
        "auroc": round(auroc(score, truth), 4),
        "precision": round(tp / max(int(verified.sum()), 1), 4),
        "recall": round(tp / max(int(truth.sum()), 1), 4),
        "verified_share_gold": round(float(verified[truth].mean()), 4),
        "verified_share_non_gold": round(float(verified[~truth].mean()), 4),
        "pairs_per_second": round(len(rows) / seconds, 1),
    }


if __name__ == "__main__":
    main()
