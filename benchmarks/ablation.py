"""Ablation of rule families (issue 19, item 5): each family of the claim verdict
(groundwork/claims/verdict.py) and of the deontic reader (groundwork/extract/deontic.py) turned
off in turn, and the dev figures it moves.

Claim families are scored on the labelled dev blocks (data/labels: claims.jsonl's dev split,
claims_extra, claims_blind) and the wording inventory (data/labels/wordings.jsonl's pairs), by
agreement; never on the test split. Deontic families are scored by `is_requirement` F1 on the EU
dev split (the held-back 20 % of training/requirement.py and the rest) and RegNLP. A claim family
is one check of the verdict's list (verdict.CHECKS), turned off by taking it out of that list; a
deontic family is turned off by replacing its function with one that finds nothing. Writes
bench-out/ablation.json.

    .venv/bin/python benchmarks/ablation.py --shared ../shared
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import groundwork.claims.verdict as verdict
import groundwork.extract.deontic as deontic
from groundwork.claims import checked_claim, claim_depth
from training.metrics import held_back

REPO = Path(__file__).resolve().parent.parent
LABELS = REPO / "data/labels"


def _finds_nothing(*args: object, **kwargs: object) -> bool:
    """A deontic family's predicate turned off."""
    return False


# family -> (module, attribute, what replaces it while the family is off): a claim family is a
# check of the verdict's own list (verdict.CHECKS, which the tests read too), and the verdict
# without it is the list without it.
CLAIM_FAMILIES: dict[str, tuple[object, str, object]] = {
    check.name: (verdict, "CHECKS", tuple(c for c in verdict.CHECKS if c is not check))
    for check in verdict.CHECKS
}
DEONTIC_FAMILIES: dict[str, tuple[object, str, object]] = {
    "definitions": (deontic, "_is_definition", _finds_nothing),
    "stative verbs": (deontic, "_is_stative", _finds_nothing),
    "commencement": (deontic, "_is_commencement", _finds_nothing),
    "non-operative verbs": (deontic, "_is_non_operative_verb", _finds_nothing),
    "headings": (deontic, "_is_heading", _finds_nothing),
    "agent named in a passive": (deontic, "_names_agent", _finds_nothing),
}


@contextmanager
def turned_off(module: object, name: str, replacement: object) -> Iterator[None]:
    """The family's attribute replaced by what turns it off; caches cleared around it."""
    _clear_caches()
    with mock.patch.object(module, name, replacement):
        yield
    _clear_caches()


def _clear_caches() -> None:
    """Every lru_cache of the two modules, so no result computed with a family off survives."""
    for module in (verdict, deontic):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def claim_blocks() -> dict[str, list[dict]]:
    """The labelled dev blocks and the wording inventory's pairs (never the test split)."""

    def read(name: str) -> list[dict]:
        text = (LABELS / name).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    wordings = [{**r, "label": r["verdict"]} for r in read("wordings.jsonl") if r["kind"] == "pair"]
    return {
        "dev": [r for r in read("claims.jsonl") if r["split"] == "dev"],
        "extra": read("claims_extra.jsonl"),
        "blind": read("claims_blind.jsonl"),
        "wordings": wordings,
    }


def claim_agreements(blocks: dict[str, list[dict]]) -> dict[str, int]:
    """Pairs whose verdict agrees with the label, by block."""
    _clear_caches()
    return {
        name: sum(
            checked_claim(p["claim"], p["quote"], claim_depth(p["claim"])).verdict == p["label"]
            for p in pairs
        )
        for name, pairs in blocks.items()
    }


def _f1(rows: list[tuple[str, bool]]) -> float:
    _clear_caches()
    tp = fp = fn = 0
    for sentence, gold in rows:
        predicted = deontic.is_requirement(sentence)
        tp += gold and predicted
        fp += predicted and not gold
        fn += gold and not predicted
    return round(2 * tp / (2 * tp + fp + fn), 4) if tp else 0.0


def sentence_sets(shared: Path) -> dict[str, list[tuple[str, bool]]]:
    """EU dev (held-back 20 % and the rest, as training/requirement.py splits it) and RegNLP."""
    folder = shared / "benchmarks/obligation-sentences"
    eu = json.loads((folder / "eu_regulatory_statements_dev.json").read_text(encoding="utf-8"))
    rows = [(s, label == "regulatory") for s, label in eu.items()]
    held = [r for r in rows if held_back(r[0])]
    regnlp = json.loads((folder / "regnlp_obligation_sentences.json").read_text(encoding="utf-8"))
    return {
        "eu_held_back": held,
        "eu_rest": [r for r in rows if r not in held],
        "regnlp": [(" ".join(r["Text"].split()), bool(r["Obligation"])) for r in regnlp],
    }


def ablated(
    families: dict[str, tuple[object, str, object]], measure: Callable[[], dict[str, float]]
) -> dict[str, dict]:
    """The baseline figures and, for each family, the figures with it turned off."""
    results = {"(all rules)": measure()}
    for family, (module, name, replacement) in families.items():
        with turned_off(module, name, replacement):
            results[family] = measure()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args()
    blocks = claim_blocks()
    sets = sentence_sets(args.shared)
    report = {
        "claims": {
            "pairs": {name: len(pairs) for name, pairs in blocks.items()},
            "agreeing": ablated(CLAIM_FAMILIES, lambda: claim_agreements(blocks)),
        },
        "deontic": {
            "sentences": {name: len(rows) for name, rows in sets.items()},
            "f1": ablated(
                DEONTIC_FAMILIES, lambda: {name: _f1(rows) for name, rows in sets.items()}
            ),
        },
    }
    out = REPO / "bench-out"
    out.mkdir(exist_ok=True)
    (out / "ablation.json").write_text(json.dumps(report, indent=1))
    base = report["claims"]["agreeing"]["(all rules)"]
    print("claim families: pairs agreeing (change vs all rules)", report["claims"]["pairs"])
    for family, counts in report["claims"]["agreeing"].items():
        changes = (f"{k} {v} ({v - base[k]:+d})" for k, v in counts.items())
        print(f"  {family:<48}", "  ".join(changes))
    base_f1 = report["deontic"]["f1"]["(all rules)"]
    print("deontic families: is_requirement F1 (change)", report["deontic"]["sentences"])
    for family, f1s in report["deontic"]["f1"].items():
        changes = (f"{k} {v} ({v - base_f1[k]:+.3f})" for k, v in f1s.items())
        print(f"  {family:<48}", "  ".join(changes))


if __name__ == "__main__":
    main()
