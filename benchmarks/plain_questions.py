"""Plain-language questions over the real corpus: is an expected document among the first 10
distinct documents a retriever ranks?

The chunks are the pipeline's own (a `groundwork run` over ../shared/corpus with no questions,
read back with sql/answers/index_chunks.sql: training.plain.corpus_chunks). For each answerable
question of data/plain-questions/ (near-misses have nothing to find), each method ranks the
chunks, the ranking is collapsed to distinct documents in order, and the question counts as
found when any doc_id of its `answers` is among the first 10. Methods:

* `bm25`: the pipeline's BM25 (groundwork.retrieve.bm25 chunk_index + question_hits);
* each `--dense NAME=FOLDER`: an int8 ONNX encoder (groundwork.models.inference.Encoder), the
  chunk read with its context in front (relevance_text(header(row), text), as the pipeline
  reads it), ranked by cosine; and `bm25+NAME`, the two fused by reciprocal rank (RRF_K, the
  pipeline's groundwork.retrieve.hybrid.fused) over their top 100 chunks each;
* each `--static NAME=FOLDER`: the same with a static-embedding model (StaticEncoder); and,
  for each dense encoder, `bm25+DENSE/STATIC`: the dense encoder reads only the chunks among
  BM25's and the (first) static model's first 100 (at most 200 a question, not the corpus),
  fused with BM25: the corpus side cheap, the transformer for questions and candidates.

Questions: `--split` (dev, test, train, or several joined by commas); `--half tune|report`
keeps one half of dev (training.plain.tuning_half: choices are made on the tuning half, figures
reported on the other); `--family F` keeps the questions of F's family fold. Chunk vectors are
cached by model version and chunk texts under --cache. `--speed N` times each encoder on the
first N chunks (chunks per second, no cache).

    .venv/bin/python benchmarks/plain_questions.py --split dev --half report \\
        --dense zero-shot=/tmp/dense-ckpt/zero-shot --static static=models/static
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from groundwork.models.inference import Encoder, StaticEncoder  # noqa: E402
from training.plain import answerable, chunk_texts, corpus_chunks, found, rankings  # noqa: E402


def encoders(args) -> dict:
    """Name -> loaded model, for every --static, then every --dense."""
    named = [(s, StaticEncoder) for s in args.static] + [(s, Encoder) for s in args.dense]
    out = {}
    for spec, kind in named:
        name, folder = spec.split("=", 1)
        out[name] = kind(Path(folder)) if kind is StaticEncoder else kind(Path(folder), threads=2)
    return out


def speeds(models: dict, rows: list[dict], n: int) -> dict[str, float]:
    """Chunks per second of each encoder on the first n chunks."""
    texts = chunk_texts(rows[:n])
    out = {}
    for name, model in models.items():
        model.embeddings(texts[:10])  # warm
        started = time.perf_counter()
        model.embeddings(texts)
        out[name] = round(len(texts) / (time.perf_counter() - started), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-plain"))
    parser.add_argument("--split", default="dev")
    parser.add_argument("--half", choices=("tune", "report"))
    parser.add_argument("--family")
    parser.add_argument("--dense", action="append", default=[], metavar="NAME=FOLDER")
    parser.add_argument("--static", action="append", default=[], metavar="NAME=FOLDER")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/plain-vectors"))
    parser.add_argument("--speed", type=int, default=0, metavar="N")
    parser.add_argument("--out", type=Path, default=REPO / "bench-out/plain_questions.json")
    args = parser.parse_args()

    rows = corpus_chunks(args.shared, args.warehouse).to_pylist()
    doc_ids = [r["doc_id"] for r in rows]
    asked = answerable(args.split, args.half, args.family)
    models = encoders(args)
    result: dict = {
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "load": os.getloadavg()[0]},
        "date": time.strftime("%Y-%m-%d"),
        "questions": {"split": args.split, "half": args.half, "family": args.family},
        "chunks": len(rows),
        "answerable": len(asked),
    }
    families: dict[str, dict[str, list[bool]]] = defaultdict(dict)
    cheap = args.static[0].split("=", 1)[0] if args.static else None
    for method, ranked in rankings(asked, rows, models, args.cache, cheap).items():
        hits = found(asked, ranked, doc_ids)
        result[method] = {"found": sum(hits), "share": round(sum(hits) / max(len(hits), 1), 4)}
        for q, hit in zip(asked, hits, strict=True):
            families[q["family"]].setdefault(method, []).append(hit)
        print(f"{method:28s} {sum(hits):4d} / {len(hits)}  {result[method]['share']:.3f}")
    result["by_family"] = {
        family: {method: f"{sum(h)}/{len(h)}" for method, h in methods.items()}
        for family, methods in sorted(families.items())
    }
    if args.speed:
        result["chunks_per_second"] = speeds(models, rows, args.speed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("by_family",)}, indent=1))
    for family, methods in result["by_family"].items():
        print(f"  {family:18s} " + "  ".join(f"{m} {v}" for m, v in methods.items()))


if __name__ == "__main__":
    main()
