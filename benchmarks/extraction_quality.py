"""Extraction-quality benchmark for the offline rules engine (groundwork.extract.deontic).

Measures the sentence-level decision `is_requirement` against two labelled sets, the share of
ObliQA gold passages in which a requirement is found, and the throughput of `deontic_clauses` over
the development corpus. Prints the figures and writes them to bench-out/extraction_quality.json.

    .venv/bin/python benchmarks/extraction_quality.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Iterable
from pathlib import Path

from machine import cpu_model

from groundwork.runtime.compiled import activate

# ruff: noqa: E402
# The compiled rules engine where a run would use it (groundwork/runtime/compiled.py), switched on
# before its modules are imported: the throughput below is the engine's as a run gets it.
COMPILED = activate()

from groundwork.extract.deontic import (
    EXTRACTOR_NAME,
    EXTRACTOR_VERSION,
    REQUIREMENT_MODALITIES,
    deontic_clauses,
    is_requirement,
)

REPO = Path(__file__).resolve().parent.parent
THROUGHPUT_ROUNDS = 3


def scores(pairs: Iterable[tuple[bool, bool]]) -> dict[str, float | int]:
    """Precision, recall, F1 and the confusion counts of (gold, predicted) pairs."""
    tp = fp = fn = tn = 0
    for gold, predicted in pairs:
        tp += gold and predicted
        fp += predicted and not gold
        fn += gold and not predicted
        tn += not gold and not predicted
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "n": tp + fp + fn + tn,
    }


def eu_labels(shared: Path) -> dict[str, str]:
    """EU regulatory-statement dev split: sentence -> `regulatory` | `constitutive`."""
    path = shared / "benchmarks/obligation-sentences/eu_regulatory_statements_dev.json"
    return json.loads(path.read_text(encoding="utf-8"))


def eu_scores(labels: dict[str, str]) -> dict[str, float | int]:
    """is_requirement on the EU dev split; the positive class is `regulatory`."""
    return scores((label == "regulatory", is_requirement(s)) for s, label in labels.items())


def eu_alternatives(labels: dict[str, str]) -> dict[str, dict[str, float | int]]:
    """The sentence-level decisions not taken, scored the same way, to show what each costs."""
    decisions = {
        "high_including_permissions": lambda cs: any(c.confidence == "high" for c in cs),
        "high_or_medium_duties": lambda cs: any(
            c.modality in REQUIREMENT_MODALITIES and c.confidence != "low" for c in cs
        ),
        "any_duty": lambda cs: any(c.modality in REQUIREMENT_MODALITIES for c in cs),
    }
    clauses = {s: deontic_clauses(s) for s in labels}
    return {
        name: scores((label == "regulatory", decide(clauses[s])) for s, label in labels.items())
        for name, decide in decisions.items()
    }


def regnlp_scores(shared: Path) -> dict[str, float | int]:
    """RegNLP obligation sentences (ADGM style, model-generated): a secondary check."""
    path = shared / "benchmarks/obligation-sentences/regnlp_obligation_sentences.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    return scores((bool(row["Obligation"]), is_requirement(row["Text"])) for row in rows)


def obliqa_coverage(shared: Path) -> dict[str, float | int]:
    """Share of distinct ObliQA gold passages with at least one requirement (and any clause)."""
    questions = json.loads(
        (shared / "benchmarks/obliqa-dev/ObliQA_dev.json").read_text(encoding="utf-8")
    )
    passages = {
        (p["DocumentID"], p["PassageID"]): p["Passage"] for q in questions for p in q["Passages"]
    }
    with_requirement = with_clause = 0
    for passage in passages.values():
        clauses = [c for line in passage.splitlines() for c in deontic_clauses(line)]
        with_clause += bool(clauses)
        with_requirement += any(c.modality in REQUIREMENT_MODALITIES for c in clauses)
    return {
        "passages": len(passages),
        "with_requirement": with_requirement,
        "requirement_coverage": round(with_requirement / len(passages), 4),
        "with_any_clause": with_clause,
        "any_clause_coverage": round(with_clause / len(passages), 4),
    }


def corpus_paragraphs(corpus: Path) -> list[str]:
    """Every body line of the development corpus (front matter dropped), one paragraph each."""
    paragraphs = []
    for path in sorted(corpus.rglob("*.md")):
        if path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
        paragraphs.extend(line for line in body.splitlines() if line.strip())
    return paragraphs


def throughput(shared: Path) -> dict[str, float | int]:
    """Characters per second of deontic_clauses over the whole corpus (best of a few rounds)."""
    paragraphs = corpus_paragraphs(shared / "corpus")
    chars = sum(len(p) for p in paragraphs)
    best = float("inf")
    clauses = 0
    for _ in range(THROUGHPUT_ROUNDS):
        began = time.perf_counter()
        clauses = sum(len(deontic_clauses(p)) for p in paragraphs)
        best = min(best, time.perf_counter() - began)
    return {
        "paragraphs": len(paragraphs),
        "chars": chars,
        "clauses": clauses,
        "seconds": round(best, 3),
        "chars_per_second": round(chars / best),
        "compiled": COMPILED,
    }


def main() -> None:
    """Run every measurement, print it and write bench-out/extraction_quality.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    shared = parser.parse_args().shared.resolve()
    labels = eu_labels(shared)
    result = {
        "extractor": f"{EXTRACTOR_NAME} {EXTRACTOR_VERSION}",
        "eu_dev": eu_scores(labels),
        "eu_dev_alternative_decisions": eu_alternatives(labels),
        "regnlp": regnlp_scores(shared),
        "obliqa_dev_gold_passages": obliqa_coverage(shared),
        "throughput": throughput(shared),
        "machine": {"cpu": cpu_model(), "python": platform.python_version()},
    }
    out = REPO / "bench-out"
    out.mkdir(exist_ok=True)
    (out / "extraction_quality.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
