"""Mechanical checks for claims_blind.jsonl (no label is computed here): verbatim quotes and
alternates, sequential ids, no document shared with the other two files, allowed label/fault
pairs. It reads the full corpus, which is not in this repository.

Run from the repository root: python data/labels/check_claims_blind.py [/path/to/shared/corpus]
"""

import json
import re
import sys
from pathlib import Path

HERE = Path("data/labels")
FAULT_LABELS = {
    "none": {"SUPPORTED"},
    "paraphrase": {"SUPPORTED"},
    "number_changed": {"CONTRADICTED"},
    "deadline_differs": {"CONTRADICTED", "UNSUPPORTED"},
    "modality_changed": {"CONTRADICTED"},
    "actor_swapped": {"CONTRADICTED"},
    "negation": {"CONTRADICTED"},
    "wrong_requirement": {"UNSUPPORTED"},
    "missing_qualifier": {"PARTIAL"},
    "scope_broadened": {"PARTIAL", "UNSUPPORTED"},
    "scope_narrowed": {"CONTRADICTED", "UNSUPPORTED"},
    "unrelated": {"UNSUPPORTED"},
}
FIELDS = [
    "pair_id", "split", "doc_id", "citation", "in_sample_corpus", "quote", "claim", "label",
    "fault", "issues", "hedged", "alternate_quote_doc_id", "alternate_citation",
    "alternate_quote", "note",
]  # fmt: skip


def body(path: Path) -> str:
    """A document's text after its YAML front matter."""
    text = path.read_text(encoding="utf-8")
    front = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return text[front.end() :] if front else text


def pair_errors(row: dict, n: int, paths: dict[str, Path], sample: set[str], other: set[str]):
    """What is wrong with the n-th pair (1-based), as messages."""
    quote, alt = row["quote"], (row["alternate_quote_doc_id"], row["alternate_quote"])
    yield from (
        message
        for bad, message in [
            (list(row) != FIELDS, f"fields {list(row)}"),
            (row["pair_id"] != f"B{n:03d}", "pair_id not sequential"),
            (row["split"] != "dev", "split"),
            (row["doc_id"] in other, "doc_id used in claims.jsonl / claims_extra.jsonl"),
            (row["doc_id"] not in paths, "no such document"),
            (row["in_sample_corpus"] != (row["doc_id"] in sample), "in_sample_corpus"),
            (not 12 <= len(quote.split()) <= 60, "quote length"),
            (row["label"] not in FAULT_LABELS.get(row["fault"], ()), "label/fault"),
            ((row["label"] == "SUPPORTED") != (row["issues"] == []), "issues iff not SUPPORTED"),
            (not isinstance(row["hedged"], bool), "hedged"),
            ((row["fault"] == "wrong_requirement") == (None in alt), "alternate_* vs fault"),
        ]
        if bad
    )
    if row["doc_id"] in paths and ("\n" in quote or quote not in body(paths[row["doc_id"]])):
        yield "quote not verbatim on one line"
    if alt[0] is not None and (alt[0] not in paths or alt[1] not in body(paths[alt[0]])):
        yield "alternate_quote not verbatim"


def main(corpus: Path) -> int:
    paths = {p.stem: p for p in corpus.rglob("*.md") if p.name != "README.md"}
    sample = {p.stem for p in Path("data/corpus").rglob("*.md")}
    other = {
        json.loads(line)["doc_id"]
        for name in ("claims.jsonl", "claims_extra.jsonl")
        for line in (HERE / name).read_text(encoding="utf-8").splitlines()
    }
    lines = (HERE / "claims_blind.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    errors = [
        f"{row['pair_id']}: {message}"
        for n, row in enumerate(rows, 1)
        for message in pair_errors(row, n, paths, sample, other)
    ]
    print(f"{len(rows)} pairs, {len({r['doc_id'] for r in rows})} documents, {len(errors)} errors")
    print("\n".join(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus")))
