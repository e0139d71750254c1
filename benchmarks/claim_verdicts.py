"""Claim-verdict benchmark: groundwork.claims.checked_claim against data/labels/claims.jsonl.

For split=dev and split=test separately: agreement with the hand label, precision, recall and
F1 per label, the confusion matrix, agreement by planted fault and by hedging. The rules were
tuned on dev only; test is reported as it comes. Speed is the mean time of one checked_claim
call (claim_depth included): the first pass over all pairs in a fresh process (cold caches) and
the mean of later passes (the quote's analysis cached, as when several statements cite it).
Prints the figures and writes them, with every disagreement, to bench-out/claim_verdicts.json.

    .venv/bin/python benchmarks/claim_verdicts.py
"""

from __future__ import annotations

import json
import platform
import time
from collections import Counter
from pathlib import Path

from machine import cpu_model

from groundwork.claims import checked_claim, claim_depth

REPO = Path(__file__).resolve().parent.parent
LABELS = REPO / "data/labels/claims.jsonl"
VERDICTS = ("SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED")
WARM_ROUNDS = 5


def _verdict(pair: dict) -> dict:
    check = checked_claim(pair["claim"], pair["quote"], claim_depth(pair["claim"]))
    return {"verdict": check.verdict, "issues": list(check.issues), "support": check.support}


def scores(pairs: list[dict], predictions: list[dict]) -> dict[str, object]:
    """Agreement, per-label precision/recall/F1, confusion matrix, by fault and by hedge."""
    gold = [p["label"] for p in pairs]
    predicted = [p["verdict"] for p in predictions]
    confusion = Counter(zip(gold, predicted, strict=True))
    per_label = {}
    for label in VERDICTS:
        tp = confusion[label, label]
        fp = sum(confusion[g, label] for g in VERDICTS if g != label)
        fn = sum(confusion[label, p] for p in VERDICTS if p != label)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = {
            "n": tp + fn,
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "f1": round(f1, 3),
        }
    by_fault: dict[str, list[int]] = {}
    by_hedge: dict[str, list[int]] = {}
    for pair, verdict in zip(pairs, predicted, strict=True):
        right = int(verdict == pair["label"])
        by_fault.setdefault(f"{pair['fault']} ({pair['label']})", []).append(right)
        by_hedge.setdefault("hedged" if pair["hedged"] else "assertive", []).append(right)
    agree = sum(confusion[label, label] for label in VERDICTS)
    return {
        "n": len(pairs),
        "agreement": round(agree / len(pairs), 4),
        "per_label": per_label,
        "confusion": {g: {p: confusion[g, p] for p in VERDICTS} for g in VERDICTS},
        "by_fault": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_fault.items())},
        "by_hedge": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_hedge.items())},
        "disagreements": [
            {
                "pair_id": pair["pair_id"],
                "gold": pair["label"],
                "fault": pair["fault"],
                "predicted": prediction["verdict"],
                "issues": prediction["issues"],
            }
            for pair, prediction in zip(pairs, predictions, strict=True)
            if prediction["verdict"] != pair["label"]
        ],
    }


def _printed(split: str, result: dict) -> None:
    print(f"\n== split={split}: {result['agreement']:.1%} agreement on {result['n']} pairs")
    print(f"{'label':<14}{'n':>4}{'P':>8}{'R':>8}{'F1':>8}")
    for label, s in result["per_label"].items():
        print(f"{label:<14}{s['n']:>4}{s['precision']:>8.3f}{s['recall']:>8.3f}{s['f1']:>8.3f}")
    print("confusion (rows gold, columns predicted):", " ".join(v[:5] for v in VERDICTS))
    for gold, row in result["confusion"].items():
        print(f"  {gold:<14}" + "".join(f"{row[p]:>6}" for p in VERDICTS))
    print("by fault:", json.dumps(result["by_fault"]))
    print("by hedge:", json.dumps(result["by_hedge"]))


def main() -> None:
    pairs = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    started = time.perf_counter()
    predictions = [_verdict(p) for p in pairs]
    cold = (time.perf_counter() - started) / len(pairs)
    started = time.perf_counter()
    for _ in range(WARM_ROUNDS):
        for p in pairs:
            checked_claim(p["claim"], p["quote"], claim_depth(p["claim"]))
    warm = (time.perf_counter() - started) / (WARM_ROUNDS * len(pairs))
    report: dict[str, object] = {
        split: scores(
            [p for p in pairs if p["split"] == split],
            [v for p, v in zip(pairs, predictions, strict=True) if p["split"] == split],
        )
        for split in ("dev", "test")
    }
    report["ms_per_pair"] = {"first_pass": round(cold * 1000, 3), "cached": round(warm * 1000, 3)}
    report["machine"] = {"cpu": cpu_model(), "python": platform.python_version()}
    out = REPO / "bench-out"
    out.mkdir(exist_ok=True)
    (out / "claim_verdicts.json").write_text(json.dumps(report, indent=2))
    for split in ("dev", "test"):
        _printed(split, report[split])
    print(f"\nms per pair: {report['ms_per_pair']}  ({report['machine']})")


if __name__ == "__main__":
    main()
