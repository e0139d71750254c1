"""Claim-verdict benchmark: the pipeline's claim check against data/labels/claims.jsonl.

For the requested split (`--split dev`, the default; `test`; or `all` for both, reported
separately): agreement with the hand label, precision, recall and F1 per label, the confusion
matrix, agreement by planted fault and by hedging. Only the requested split is scored, timed and
written, so that working on the rules never shows the held-out test pairs: tune on dev, and run
`--split test` only to measure. `--extra PATH` (repeatable) adds the pairs of another JSONL file
of the same format as more dev pairs, reported as their own block ("extra", or "extra:NAME" for
several files); by default that is data/labels/claims_extra.jsonl. Speed is the mean time of
one claim check (its depth routing included) over the scored pairs: the first pass in a fresh
process (cold caches) and the mean of later passes (the quote's analysis cached, as when several
statements cite it). `--model trained` scores the rules joined with the trained claim-support
model (claims.model: trained); the model was trained on 80 % of the dev, extra and blind pairs,
so only the test block (and the slice training/support.py holds back) measures it. Prints the
figures and writes them, with every disagreement, to bench-out/claim_verdicts.json
(claim_verdicts_model.json with the model).

    .venv/bin/python benchmarks/claim_verdicts.py [--split dev|test|all] [--extra PATH ...]
        [--model none|trained]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from pathlib import Path

from machine import cpu_model

from groundwork.claims.model import claim_check
from schemas.config import ClaimChecks

REPO = Path(__file__).resolve().parent.parent
LABELS = REPO / "data/labels/claims.jsonl"
EXTRA_LABELS = REPO / "data/labels/claims_extra.jsonl"  # dev pairs from 75 other documents
VERDICTS = ("SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED")
WARM_ROUNDS = 5


def _verdict(pair: dict, settings: ClaimChecks) -> dict:
    check = claim_check(pair["claim"], pair["quote"], settings)
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


def _printed(block: str, result: dict) -> None:
    print(f"\n== {block}: {result['agreement']:.1%} agreement on {result['n']} pairs")
    print(f"{'label':<14}{'n':>4}{'P':>8}{'R':>8}{'F1':>8}")
    for label, s in result["per_label"].items():
        print(f"{label:<14}{s['n']:>4}{s['precision']:>8.3f}{s['recall']:>8.3f}{s['f1']:>8.3f}")
    print("confusion (rows gold, columns predicted):", " ".join(v[:5] for v in VERDICTS))
    for gold, row in result["confusion"].items():
        print(f"  {gold:<14}" + "".join(f"{row[p]:>6}" for p in VERDICTS))
    print("by fault:", json.dumps(result["by_fault"]))
    print("by hedge:", json.dumps(result["by_hedge"]))


def _blocks(split: str, extras: list[Path]) -> dict[str, list[dict]]:
    """The pairs to score, by report block: the requested split(s) of claims.jsonl, then each
    extra file. Pairs of an unrequested split are dropped here, before anything reads them."""
    pairs = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    wanted = ("dev", "test") if split == "all" else (split,)
    blocks = {name: [p for p in pairs if p["split"] == name] for name in wanted}
    for path in extras:
        name = "extra" if len(extras) == 1 else f"extra:{path.stem}"
        lines = path.read_text(encoding="utf-8").splitlines()
        blocks[name] = [json.loads(line) for line in lines if line.strip()]
    return blocks


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument(
        "--extra",
        type=Path,
        action="append",
        metavar="PATH",
        help=f"more dev pairs (default: {EXTRA_LABELS.relative_to(REPO)})",
    )
    parser.add_argument(
        "--model",
        choices=("none", "trained"),
        default="none",
        help="claims.model: join the trained claim-support model to the rules",
    )
    arguments = parser.parse_args()
    arguments.extra = arguments.extra or [EXTRA_LABELS]
    return arguments


def main() -> None:
    arguments = _arguments()
    blocks = _blocks(arguments.split, arguments.extra)
    pairs = [p for block in blocks.values() for p in block]
    settings = ClaimChecks(model=arguments.model)
    started = time.perf_counter()
    predictions = [_verdict(p, settings) for p in pairs]
    cold = (time.perf_counter() - started) / len(pairs)
    started = time.perf_counter()
    for _ in range(WARM_ROUNDS):
        for p in pairs:
            claim_check(p["claim"], p["quote"], settings)
    warm = (time.perf_counter() - started) / (WARM_ROUNDS * len(pairs))
    report: dict[str, object] = {}
    offset = 0
    for name, block in blocks.items():
        report[name] = scores(block, predictions[offset : offset + len(block)])
        offset += len(block)
    report["ms_per_pair"] = {"first_pass": round(cold * 1000, 3), "cached": round(warm * 1000, 3)}
    report["machine"] = {"cpu": cpu_model(), "python": platform.python_version()}
    out = REPO / "bench-out"
    out.mkdir(exist_ok=True)
    name = "claim_verdicts.json" if arguments.model == "none" else "claim_verdicts_model.json"
    (out / name).write_text(json.dumps(report, indent=2))
    for name in blocks:
        _printed(name, report[name])
    print(f"\nms per pair: {report['ms_per_pair']}  ({report['machine']})")


if __name__ == "__main__":
    main()
