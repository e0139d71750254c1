"""Mechanical checks for the plain-language question set (no label is computed here).

Every answerable question names the documents that answer it and, for each, a quote that occurs
verbatim in that document's text (after its front matter); every near-miss question names terms
that occur in no document of the corpus, so the corpus cannot hold what it asks. IDs are unique,
fields and values are from the allowed sets. It reads the full corpus (../shared/corpus by
default), which is not in this repository.

When train.jsonl, dev.jsonl and test.jsonl exist beside it (written by split.py), it also checks
the split: every part record is in exactly one split file, unchanged but for its "split" field;
ids are unique; no document is in two splits (a document's split is that of every answerable
question citing it and of every near-miss naming it as its first near_doc_id; a near-miss's later
near_doc_ids may lie in another split, see split.py, and are only counted).

Run from the repository root:
    python data/plain-questions/check.py [--corpus ../shared/corpus] [FILE ...]
With no FILE it checks every part under data/plain-questions/parts/, and the split files.
Exit 0 when all pass, 1 with
one line per failing record otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ASKS = {"duty", "prohibition", "permission", "deadline", "amount", "who", "definition", "condition"}
FAMILIES = {
    "hipaa-privacy", "hipaa-security", "hipaa-breach", "hipaa-enforcement", "hipaa-general",
    "usc-42", "reg-p", "dc-code", "ny-mhl", "nist-800-53", "gsa-tts",
}  # fmt: skip
ANSWERABLE_FIELDS = {"id", "question", "persona", "family", "answerable", "asks", "answers"}
NEAR_MISS_FIELDS = {"id", "question", "persona", "family", "answerable", "why_unanswerable",
                    "near_doc_ids", "absent_terms"}  # fmt: skip


def body(path: Path) -> str:
    """A document's text after its YAML front matter: the text the pipeline quotes from."""
    text = path.read_text(encoding="utf-8")
    front = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return text[front.end() :] if front else text


def corpus_texts(corpus: Path) -> dict[str, str]:
    """doc_id -> body, for every Markdown document under `corpus`."""
    texts = {}
    for path in sorted(corpus.rglob("*.md")):
        match = re.search(r'^doc_id:\s*"?([^"\n]+)"?\s*$', path.read_text(encoding="utf-8"), re.M)
        if match:
            texts[match.group(1).strip()] = body(path)
    return texts


def problems(record: dict, texts: dict[str, str], lowered: list[str]) -> list[str]:
    """What is wrong with one record, in words; empty when it passes."""
    out = []
    answerable = record.get("answerable")
    expected = ANSWERABLE_FIELDS if answerable is True else NEAR_MISS_FIELDS
    if answerable not in (True, False):
        return ["answerable must be true or false"]
    if set(record) != expected:
        out.append(f"fields {sorted(set(record) ^ expected)} missing or unexpected")
    if not str(record.get("question", "")).strip():
        out.append("empty question")
    if record.get("family") not in FAMILIES:
        out.append(f"family {record.get('family')!r} not one of {sorted(FAMILIES)}")
    if answerable:
        if record.get("asks") not in ASKS:
            out.append(f"asks {record.get('asks')!r} not one of {sorted(ASKS)}")
        answers = record.get("answers") or []
        if not answers:
            out.append("no answers")
        for answer in answers:
            doc_id, quote = answer.get("doc_id"), answer.get("quote", "")
            if doc_id not in texts:
                out.append(f"doc_id {doc_id!r} is not in the corpus")
            elif len(quote.split()) < 4 or quote not in texts[doc_id]:
                out.append(f"quote not verbatim in {doc_id}: {quote[:60]!r}")
    else:
        for doc_id in record.get("near_doc_ids") or []:
            if doc_id not in texts:
                out.append(f"near doc_id {doc_id!r} is not in the corpus")
        terms = record.get("absent_terms") or []
        if not terms:
            out.append("no absent_terms")
        for term in terms:
            if any(term.lower() in text for text in lowered):
                out.append(f"absent term {term!r} occurs in the corpus")
    return out


SPLITS = ("train", "dev", "test")


def split_problems(records: dict[str, dict]) -> tuple[dict[str, list[str]], list[str], int]:
    """Split-file problems: per part record id, lines that match no record, near-misses apart."""
    per_id: dict[str, list[str]] = {key: [] for key in records}
    stray: list[str] = []
    placed: dict[str, list[str]] = {key: [] for key in records}
    split_of: dict[str, str] = {}
    for split in SPLITS:
        path = HERE / f"{split}.jsonl"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            key = row.get("id")
            if key not in records:
                stray.append(f"{path}:{number}: {key} is not in any part")
                continue
            placed[key].append(split)
            split_of[key] = split
            if row.get("split") != split:
                per_id[key].append(f"split field {row.get('split')!r} in {split}.jsonl")
            if {k: v for k, v in row.items() if k != "split"} != records[key]:
                per_id[key].append(f"{split}.jsonl copy differs from the part record")
    doc_splits: dict[str, set[str]] = {}
    for key, record in records.items():
        if len(placed[key]) != 1:
            per_id[key].append(
                f"in {len(placed[key])} split files {placed[key]} (must be exactly 1)"
            )
            continue
        if record.get("answerable"):
            ids = [answer.get("doc_id") for answer in record.get("answers") or []]
        else:
            ids = (record.get("near_doc_ids") or [])[:1]
        for doc_id in ids:
            doc_splits.setdefault(doc_id, set()).add(split_of[key])
    for key, record in records.items():
        if key not in split_of:
            continue
        ids = (
            [a.get("doc_id") for a in record.get("answers") or []]
            if record.get("answerable")
            else (record.get("near_doc_ids") or [])[:1]
        )
        for doc_id in ids:
            if len(doc_splits[doc_id]) > 1:
                per_id[key].append(f"doc_id {doc_id} is in splits {sorted(doc_splits[doc_id])}")
    apart = 0
    for key, record in records.items():
        if record.get("answerable") or key not in split_of:
            continue
        later = (record.get("near_doc_ids") or [])[1:]
        apart += any(doc_splits.get(d, {split_of[key]}) != {split_of[key]} for d in later)
    return per_id, stray, apart


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    texts = corpus_texts(args.corpus)
    lowered = [text.lower() for text in texts.values()]
    files = args.files or sorted((HERE / "parts").glob("*.jsonl"))
    seen: set[str] = set()
    records: dict[str, dict] = {}
    located: dict[str, tuple[Path, int]] = {}
    failed_ids: set[str] = set()
    failures = count = 0
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            count += 1
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                print(f"{path}:{number}: not JSON: {error}")
                failures += 1
                continue
            found = problems(record, texts, lowered)
            if record.get("id") in seen:
                found.append(f"id {record.get('id')!r} used twice")
            seen.add(record.get("id"))
            records[record.get("id")] = record
            located[record.get("id")] = (path, number)
            for problem in found:
                print(f"{path}:{number}: {record.get('id')}: {problem}")
            failures += bool(found)
            if found:
                failed_ids.add(record.get("id"))
    if not args.files and all((HERE / f"{split}.jsonl").exists() for split in SPLITS):
        per_id, stray, apart = split_problems(records)
        for line in stray:
            print(line)
        for key, found in per_id.items():
            path, number = located[key]
            for problem in found:
                print(f"{path}:{number}: {key}: {problem}")
        bad = {key for key, found in per_id.items() if found} - failed_ids  # count each record once
        failures += len(stray)
        count += len(stray)
        split_failed = len(bad)
        print(
            f"split: {len(records) - split_failed} of {len(records)} records placed correctly; "
            f"{apart} near-misses have a later near_doc_id in another split (allowed)"
        )
        failures += split_failed
    print(f"{count - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
