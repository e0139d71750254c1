"""Numeric-claim detection benchmark: groundwork.text.numbers.mentions
against data/labels/numbers.jsonl.

Scoring follows data/labels/README.md: spans match by overlap. A gold number with an
overlapping prediction is a true positive (one per gold span); a prediction that overlaps no
gold number is a false positive, unless it overlaps only `ambiguous` spans, which are ignored.
Precision and recall are given overall and per kind (recall by the gold kind, precision by the
predicted kind), with how many true positives also agree on kind and value. Prints the figures
and writes them to bench-out/numeric_detection.json.

    .venv/bin/python benchmarks/numeric_detection.py
"""

from __future__ import annotations

import json
import platform
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

from machine import cpu_model

from groundwork.text.numbers import KINDS, Mention, mentions

REPO = Path(__file__).resolve().parent.parent
LABELS = REPO / "data/labels/numbers.jsonl"
TIMING_ROUNDS = 20


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _span(record: dict) -> tuple[int, int]:
    return record["start"], record["end"]


def _same_value(gold: dict, found: Mention) -> bool:
    """Kind and value agree: the normalised date, or the number in the unit's terms."""
    if gold["kind"] != found.kind:
        return False
    if found.kind == "date":
        return str(gold["normalised"]) == found.normalised
    return found.value is not None and Decimal(str(gold["value"])) == found.value


def outcomes(texts: list[dict]) -> dict[str, object]:
    """Counts of true/false positives and false negatives, overall and per kind, and the
    misses themselves for reading."""
    tp, fp, fn = Counter(), Counter(), Counter()
    agree = 0
    misses: list[str] = []
    for text in texts:
        found = mentions(text["text"])
        for gold in text["numbers"]:
            hits = [m for m in found if _overlaps((m.start, m.end), _span(gold))]
            if hits:
                tp[gold["kind"]] += 1
                agree += _same_value(gold, hits[0])
            else:
                fn[gold["kind"]] += 1
                misses.append(f"FN {text['text_id']}: {gold['surface']!r} ({gold['kind']})")
        for m in found:
            span = (m.start, m.end)
            if any(_overlaps(span, _span(g)) for g in text["numbers"]):
                continue
            only_ambiguous = any(_overlaps(span, _span(a)) for a in text["ambiguous"]) and not any(
                _overlaps(span, _span(n)) for n in text["non_numbers"]
            )
            if not only_ambiguous:
                fp[m.kind] += 1
                misses.append(f"FP {text['text_id']}: {m.surface!r} ({m.kind})")
    return {"tp": tp, "fp": fp, "fn": fn, "agree": agree, "misses": misses}


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def main() -> None:
    texts = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    result = outcomes(texts)
    tp, fp, fn = result["tp"], result["fp"], result["fn"]
    total_tp, total_fp, total_fn = sum(tp.values()), sum(fp.values()), sum(fn.values())
    per_kind = {
        kind: {
            "gold": tp[kind] + fn[kind],
            "recall": _ratio(tp[kind], tp[kind] + fn[kind]),
            "false_positives": fp[kind],
        }
        for kind in KINDS
    }
    started = time.perf_counter()
    for _ in range(TIMING_ROUNDS):
        for text in texts:
            mentions(text["text"])
    elapsed = (time.perf_counter() - started) / (TIMING_ROUNDS * len(texts))
    report = {
        "texts": len(texts),
        "gold_numbers": total_tp + total_fn,
        "tp": total_tp,
        "fp": total_fp,
        "fn": total_fn,
        "precision": _ratio(total_tp, total_tp + total_fp),
        "recall": _ratio(total_tp, total_tp + total_fn),
        "kind_and_value_agree": _ratio(result["agree"], total_tp),
        "per_kind": per_kind,
        "ms_per_text": round(elapsed * 1000, 4),
        "misses": result["misses"],
        "machine": {"cpu": cpu_model(), "python": platform.python_version()},
    }
    out = REPO / "bench-out"
    out.mkdir(exist_ok=True)
    (out / "numeric_detection.json").write_text(json.dumps(report, indent=2))
    print(json.dumps({k: v for k, v in report.items() if k != "misses"}, indent=2))
    for line in result["misses"]:
        print(line)


if __name__ == "__main__":
    main()
