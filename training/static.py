"""The static-embedding model: a vector per token, distilled from the dense encoder with
model2vec, so that the corpus side of dense retrieval costs a table look-up per token instead of
a transformer pass per chunk. At run time (groundwork.models.inference.StaticEncoder) a text's
vector is the mean of its tokens' rows, L2-normalised: numpy and tokenizers, no torch.

model2vec (`distill`) runs each token of the encoder's vocabulary through the encoder alone,
keeps its mean-pooled output, reduces the vectors to PCA_DIMS dimensions and weighs each by its
token's rank (SIF). The matrix is stored as int8 with one float32 scale per row (vectors.npy,
scales.npy), the tokenizer as model2vec gives it (tokenizer.json).

    .venv-train/bin/python -m training.static --dense models/dense --dense-run /tmp/dense-ckpt/run

reads the weights of the candidate training.dense shipped (figures.json's `shipped`) from its run.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundwork.models.inference import StaticEncoder
from training.crossencoder import THREADS, sha256, write_card
from training.plain import answerable, chunk_texts, corpus_chunks, found, rankings

MODEL = "static"


@dataclass(frozen=True)
class StaticConfig:
    """The settings a card records."""

    pca_dims: int = 256
    sif_coefficient: float = 1e-4
    max_tokens: int = 512  # model2vec's default truncation
    seed: int = 13


CONFIG = StaticConfig()
CHECK_TEXTS = [
    "Within how many days must a covered entity notify individuals of a breach?",
    "45 CFR 164.404 Notification to individuals\nA covered entity shall notify each individual.",
    "",
    "zzqx",
]


def distilled(encoder: Path, config: StaticConfig):
    """model2vec's static model of the encoder in `encoder` (a transformers folder)."""
    import torch
    from model2vec.distill import distill

    torch.manual_seed(config.seed)
    torch.set_num_threads(THREADS)
    return distill(
        model_name=str(encoder),
        pca_dims=config.pca_dims,
        sif_coefficient=config.sif_coefficient,
        device="cpu",
    )


def quantised(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and one float32 scale per row (the row's largest magnitude over 127): a
    quarter of float32's bytes, a row's error under half a percent of its largest entry."""
    matrix = matrix.astype(np.float32)
    scales = np.abs(matrix).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    rows = np.clip(np.rint(matrix / scales[:, None]), -127, 127).astype(np.int8)
    return rows, scales.astype(np.float32)


def saved(static, folder: Path, source: str) -> StaticEncoder:
    """The static model in the run-time form, checked against model2vec's own encoding."""
    folder.mkdir(parents=True, exist_ok=True)
    rows, scales = quantised(np.asarray(static.embedding))
    np.save(folder / "vectors.npy", rows, allow_pickle=False)
    np.save(folder / "scales.npy", scales, allow_pickle=False)
    static.tokenizer.save(str(folder / "tokenizer.json"))
    meta = {
        "name": MODEL,
        "labels": [],
        "max_length": CONFIG.max_tokens,
        "threshold": None,
        "distilled_from": source,
        "version": f"{MODEL}-{sha256(folder / 'vectors.npy')[:12]}",
    }
    (folder / "model.json").write_text(json.dumps(meta, indent=1) + "\n")
    model = StaticEncoder(folder)
    ours = model.embeddings(CHECK_TEXTS)
    theirs = np.asarray(static.encode(CHECK_TEXTS), dtype=np.float32)
    if not np.allclose(ours, theirs, atol=2e-2):
        raise RuntimeError(
            f"StaticEncoder differs from model2vec: {ours[:, :4]} vs {theirs[:, :4]}"
        )
    return model


def measured(model: StaticEncoder, shared: Path, warehouse: Path) -> dict:
    """On the reported half of the plain-language dev questions: the expected document among
    the first 10 distinct ones, static alone and fused with BM25; and chunks per second."""
    rows = corpus_chunks(shared, warehouse).to_pylist()
    doc_ids = [r["doc_id"] for r in rows]
    asked = answerable("dev", "report")
    ranked = rankings(asked, rows, {MODEL: model}, None)
    figures: dict = {"questions": len(asked), "chunks": len(rows)}
    for method, ranking in ranked.items():
        figures[f"{method}_doc@10"] = sum(found(asked, ranking, doc_ids))
    started = time.perf_counter()
    model.embeddings(chunk_texts(rows))
    figures["chunks_per_second"] = round(len(rows) / (time.perf_counter() - started), 1)
    return figures


def card_sections(source: str, figures: dict, minutes: float) -> dict[str, str]:
    n = figures["questions"]
    return {
        "What it does": f"""
A text -> a {CONFIG.pca_dims}-dimension unit vector: the mean of its tokens' rows of one matrix,
L2-normalised (groundwork.models.inference.StaticEncoder, numpy and tokenizers only). It
proposes dense candidates over a whole corpus at the cost of a look-up per token; the
transformer encoder need only read the questions and their candidate lists.""",
        "How it was made": f"""
Distilled with model2vec 0.10.0 (`model2vec.distill.distill`, MIT) from
{source}: each vocabulary token's mean-pooled output of the encoder, PCA to
{CONFIG.pca_dims} dimensions, SIF weights ({CONFIG.sif_coefficient}); stored as int8 rows with a
float32 scale per row. No training data: the encoder's vocabulary only. {minutes:.0f} minutes
on 2 CPU cores.""",
        "Figures (reported half of the plain-language dev questions)": f"""
The expected document among the first 10 distinct documents, of {n} answerable questions over
the {figures["chunks"]} chunks of ../shared/corpus (benchmarks/plain_questions.py measures the
same, beside the transformer encoders):

| method | found |
|---|---|
| BM25 (the pipeline's) | {figures["bm25_doc@10"]} / {n} |
| static alone | {figures[f"{MODEL}_doc@10"]} / {n} |
| BM25 + static, reciprocal rank fusion (k 60) | {figures[f"bm25+{MODEL}_doc@10"]} / {n} |
| encoding speed (2 shared cores) | {figures["chunks_per_second"]} chunks/s |""",
        "Reproduce": """
`make models` runs `python -m training.static` after the dense encoder; deterministic.""",
        "Limits": """
A bag of token vectors: word order and negation are lost. A candidate generator only, and a
weak one here: alone it finds fewer expected documents than BM25, fused with BM25 it finds
fewer than BM25 alone, and as the corpus side of hybrid retrieval (the transformer reading only
BM25's and its first 100 chunks) it keeps less than the transformer over every chunk
(BENCHMARKS.md, "Plain-language questions").""",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-plain"))
    parser.add_argument("--dense", type=Path, default=Path("models") / "dense")
    parser.add_argument("--dense-run", type=Path, default=Path("/tmp/dense-ckpt/run"))
    parser.add_argument("--out", type=Path, default=Path("models") / MODEL)
    args = parser.parse_args()
    shipped = json.loads((args.dense / "figures.json").read_text())["shipped"]
    version = json.loads((args.dense / "model.json").read_text())["version"]
    source = f"the shipped dense encoder {version} ({shipped})"
    started = time.perf_counter()
    static = distilled(args.dense_run / shipped / "weights", CONFIG)
    minutes = (time.perf_counter() - started) / 60
    model = saved(static, args.out, source)
    figures = measured(model, args.shared, args.warehouse)
    (args.out / "figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    write_card(
        args.out,
        "Static embedding model (groundwork)",
        card_sections(source, figures, minutes),
        CONFIG,
    )
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
