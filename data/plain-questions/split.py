"""Split the plain-language question set into train / dev / test by document, never by question.

Why by document: the set trains and evaluates retrieval and the grounding gate. If a document's
questions sat in both train and test, a model could learn that document's wording in training and
look good on test without ever generalising to a text it has not seen. So every document lives in
exactly one split, and so does every question about it.

How:
1. Documents cited together by one answerable question are joined (union-find over each question's
   answer doc_ids): a question that quotes 45 CFR 164.404 and 42 U.S.C. 17932 ties those two
   sections together, so they land in the same split.
2. A near-miss question names its nearest documents (near_doc_ids). Those are joined too, so a
   near-miss and the answerable questions about its nearest documents stay together, but only while
   the joined group stays small (MAX_GROUP answerable questions): joining every near-miss link
   would
   put almost all HIPAA privacy, security and breach questions into one group and so into one split.
   A near-miss is always in the same split as its FIRST near_doc_id; the few whose later nearest
   documents are answered in another split are counted and printed (check.py allows only that).
   Joining them all instead would put ~96% of hipaa-breach, ~98% of hipaa-security and ~87% of
   hipaa-privacy answerable questions into one group, and so into train.
3. Whole groups are assigned to splits. Groups are taken largest first; groups of equal size are
   ordered by a seeded hash of their smallest doc_id (SEED below), so the result is deterministic
   and does not depend on file order. Each group goes to the split that keeps every family's
   share of answerable and near-miss questions closest to 70 / 15 / 15 (and, secondarily, away
   from splitting a near-miss from its nearest documents).
4. A near-miss goes to the split of its first near_doc_id's group.

It writes train.jsonl, dev.jsonl and test.jsonl beside this file (each record gains "split"), and
family-folds.json: for each family, the ids of the questions whose documents all belong to that
family, so an evaluator can also hold out a whole family. A document's family comes from its
collection; 45 CFR is divided by part and section (160.1xx-2xx, 162, 164.1xx: hipaa-general;
160.3xx-5xx: hipaa-enforcement; 164.3xx: hipaa-security; 164.4xx: hipaa-breach; 164.5xx:
hipaa-privacy). The test split is for final evaluation only: never tune on it.

Run from the repository root (standard library only; same output on every run):
    python3 data/plain-questions/split.py [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = "groundwork-plain-questions-2024-split-v1"
SPLITS: dict[str, float] = {"train": 0.70, "dev": 0.15, "test": 0.15}
MAX_GROUP = 10  # answerable questions a near-miss link may grow a group to
NEAR_WEIGHT = 1.0  # near-miss counts weigh as much as answerable counts for balance
CUT_PENALTY = 0.5  # cost of separating a near-miss from one of its nearest documents
COLLECTION_FAMILY = {
    "us-cfr-12-1016-privacy": "reg-p",
    "us-usc-42-health-privacy": "usc-42",
    "us-dc-code-mental-health": "dc-code",
    "us-ny-mental-hygiene-law": "ny-mhl",
    "nist-sp800-53r5-privacy-baseline": "nist-800-53",
    "gsa-tts-handbook": "gsa-tts",
}


def document_family(doc_id: str, collection: str) -> str:
    """The family a document belongs to: its collection, with 45 CFR divided by part and section."""
    if collection != "us-cfr-45-hipaa":
        return COLLECTION_FAMILY[collection]
    part, section = doc_id.removeprefix("us-cfr-45-").split(".")
    number = int(section)
    if part == "162" or (part == "160" and number < 300) or (part == "164" and number < 300):
        return "hipaa-general"
    if part == "160":
        return "hipaa-enforcement"
    if number < 400:
        return "hipaa-security"
    if number < 500:
        return "hipaa-breach"
    return "hipaa-privacy"


def doc_ids(record: dict) -> list[str]:
    """The documents a record is about: its answers' doc_ids, or a near-miss's near_doc_ids."""
    if record["answerable"]:
        return list(dict.fromkeys(answer["doc_id"] for answer in record["answers"]))
    return list(record["near_doc_ids"])


def seeded_hash(text: str) -> str:
    return hashlib.sha256(f"{SEED}:{text}".encode()).hexdigest()


class Groups:
    """Union-find over doc_ids; the root of a group is its smallest doc_id."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.size: Counter[str] = Counter()  # answerable questions per root

    def find(self, doc_id: str) -> str:
        self.parent.setdefault(doc_id, doc_id)
        while self.parent[doc_id] != doc_id:
            self.parent[doc_id] = self.parent[self.parent[doc_id]]
            doc_id = self.parent[doc_id]
        return doc_id

    def union(self, ids: list[str]) -> None:
        roots = sorted({self.find(doc_id) for doc_id in ids})
        for root in roots[1:]:
            self.parent[root] = roots[0]
            self.size[roots[0]] += self.size.pop(root, 0)


def load_parts() -> list[dict]:
    records = []
    for path in sorted((HERE / "parts").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                records.append(json.loads(line))
    return records


def build_groups(records: list[dict]) -> Groups:
    groups = Groups()
    for record in records:
        if record["answerable"]:
            groups.union(doc_ids(record))
    for record in records:
        if record["answerable"]:
            groups.size[groups.find(doc_ids(record)[0])] += 1
    for record in sorted((r for r in records if not r["answerable"]), key=lambda r: r["id"]):
        roots = {groups.find(doc_id) for doc_id in doc_ids(record)}
        if (
            sum(groups.size[root] for root in roots) <= MAX_GROUP
            or sum(1 for root in roots if groups.size[root]) <= 1
        ):
            groups.union(doc_ids(record))
    return groups


def assign(records: list[dict], groups: Groups) -> dict[str, str]:
    """root -> split, deterministic: largest groups first, then by seeded hash of the root."""
    counts: dict[str, Counter[tuple[str, bool]]] = defaultdict(
        Counter
    )  # root -> (family, answerable)
    links: dict[str, Counter[str]] = defaultdict(
        Counter
    )  # root -> other roots near-misses tie it to
    for record in records:
        ids = doc_ids(record)
        home = groups.find(ids[0])
        counts[home][(record["family"], record["answerable"])] += 1
        if not record["answerable"]:
            for doc_id in ids[1:]:
                other = groups.find(doc_id)
                if other != home:
                    links[home][other] += 1
                    links[other][home] += 1
    totals: Counter[tuple[str, bool]] = Counter()
    for vector in counts.values():
        totals.update(vector)
    order = sorted(counts, key=lambda root: (-sum(counts[root].values()), seeded_hash(root)))
    filled: dict[str, Counter[tuple[str, bool]]] = {split: Counter() for split in SPLITS}
    placed: dict[str, str] = {}
    for root in order:

        def cost(split: str, root: str = root) -> float:
            total = 0.0
            for key, added in counts[root].items():
                weight = 1.0 if key[1] else NEAR_WEIGHT
                gap = filled[split][key] - SPLITS[split] * totals[key]
                total += weight * added * (2 * gap + added) / totals[key]
            cut = sum(n for other, n in links[root].items() if placed.get(other, split) != split)
            return total + CUT_PENALTY * cut

        best = min(SPLITS, key=cost)  # ties: train, dev, test in that order
        placed[root] = best
        filled[best].update(counts[root])
    return placed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    args = parser.parse_args()
    manifest = {}
    for line in (args.corpus / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            manifest[entry["doc_id"]] = entry["path"].split("/")[1]
    records = load_parts()
    unknown = sorted({d for r in records for d in doc_ids(r)} - set(manifest))
    if unknown:
        print(f"doc_ids not in the manifest: {unknown[:5]}", file=sys.stderr)
        return 1
    groups = build_groups(records)
    placed = assign(records, groups)

    by_split: dict[str, list[dict]] = {split: [] for split in SPLITS}
    split_of_doc: dict[str, str] = {}
    for record in records:
        split = placed[groups.find(doc_ids(record)[0])]
        by_split[split].append({**record, "split": split})
        if record["answerable"]:
            for doc_id in doc_ids(record):
                split_of_doc[doc_id] = split
    for split, rows in by_split.items():
        rows.sort(key=lambda r: r["id"])
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (HERE / f"{split}.jsonl").write_text(text, encoding="utf-8")

    folds: dict[str, list[str]] = defaultdict(list)
    for record in sorted(records, key=lambda r: r["id"]):
        families = {document_family(d, manifest[d]) for d in doc_ids(record)}
        if len(families) == 1:
            folds[families.pop()].append(record["id"])
    (HERE / "family-folds.json").write_text(
        json.dumps(dict(sorted(folds.items())), indent=1) + "\n", encoding="utf-8"
    )

    families = sorted({r["family"] for r in records})
    print(f"{'family':<18}" + "".join(f"{s:>14}" for s in SPLITS) + "   (answerable / near-miss)")
    for family in [*families, "all"]:
        cells = []
        for split in SPLITS:
            rows = [r for r in by_split[split] if family in ("all", r["family"])]
            near = sum(not r["answerable"] for r in rows)
            cells.append(f"{sum(r['answerable'] for r in rows):>9} / {near:<3}")
        print(f"{family:<18}" + "".join(f"{c:>14}" for c in cells))
    answerable = sum(r["answerable"] for r in records)
    print(
        "answerable share: "
        + ", ".join(
            f"{s} {sum(r['answerable'] for r in by_split[s]) / answerable:.1%}" for s in SPLITS
        )
    )
    apart = [
        r["id"]
        for s in SPLITS
        for r in by_split[s]
        if not r["answerable"] and any(split_of_doc.get(d, s) != s for d in doc_ids(r)[1:])
    ]
    print(f"near-misses with a later near_doc_id answered in another split: {len(apart)}")
    unfolded = len(records) - sum(map(len, folds.values()))
    print(
        "family folds: "
        + ", ".join(f"{f} {len(ids)}" for f, ids in sorted(folds.items()))
        + f"; in no fold (documents of several families): {unfolded}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
