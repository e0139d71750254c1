"""Wording inventory: the verdict rules on sentences written from no labelled pair.

data/labels/wordings.jsonl holds two made-up lists: the ways English and legal drafting say a
duty, a ban, a choice and an exemption (one act, "The agency ... keep a log"), each with the
modality the reader should give its first reading ("kind": "wording"); and claim/quote pairs of
modal swaps, negations, party swaps and true paraphrases, each CONTRADICTED or SUPPORTED ("kind":
"pair"). It measures how much of the language the rules cover, apart from any labelled split
(BENCHMARKS.md, "Wording inventory"). Prints both counts and every miss.

    .venv/bin/python benchmarks/wording_inventory.py
"""

from __future__ import annotations

import json
from pathlib import Path

from groundwork.claims import checked_claim
from groundwork.claims.modality import plain_modals, readings

INVENTORY = Path(__file__).resolve().parent.parent / "data/labels/wordings.jsonl"


def misses(rows: list[dict]) -> list[str]:
    """One line for each wording read with another modality and each pair given another verdict."""
    found = []
    for row in rows:
        if row["kind"] == "wording":
            read = [r.modality for r in readings(plain_modals(row["text"]))]
            if read[:1] != [row["modality"]]:
                found.append(f"wording: expected {row['modality']}, read {read}: {row['text']}")
        else:
            verdict = checked_claim(row["claim"], row["quote"]).verdict
            if verdict != row["verdict"]:
                found.append(f"pair: expected {row['verdict']}, got {verdict}: {row['claim']}")
    return found


def main() -> None:
    rows = [json.loads(line) for line in INVENTORY.read_text().splitlines()]
    missed = misses(rows)
    print("\n".join(missed))
    for kind in ("wording", "pair"):
        total = sum(row["kind"] == kind for row in rows)
        wrong = sum(line.startswith(f"{kind}:") for line in missed)
        print(f"{kind}s as expected: {total - wrong}/{total}")


if __name__ == "__main__":
    main()
