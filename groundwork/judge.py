"""`groundwork judge pairs FILE`: does this passage answer this question? Outside any run.

Each row (`id, question, text`, JSONL or CSV) is judged by exactly the grounding gate a run uses
(the trained gate: the same relevance model, threshold and validators), with the row's text as
one quote: verbatim by construction, so the gate asks whether it stands on its own and whether
it answers the question. A malformed row is rejected with its line number and the others are
judged.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from groundwork.scores import Scorer
from groundwork.verify.trained import TrainedVerifier

FIELDS = ("id", "question", "text")


class UnreadablePairs(Exception):
    """The file cannot be read as pairs at all (missing, not JSONL or CSV)."""


@dataclass
class Pairs:
    """The rows of a pairs file that can be judged, and the line of every one that cannot."""

    rows: list[dict] = field(default_factory=list)
    rejections: list[dict] = field(default_factory=list)  # {"line", "reason"}
    ids: set[str] = field(default_factory=set)

    def take(self, line: int, record: object) -> None:
        """Keep a record with a non-empty id, question and text (ids unique), or reject it."""
        if not isinstance(record, dict):
            self.rejections.append(
                {"line": line, "reason": "not an object with id, question, text"}
            )
            return
        missing = [f for f in FIELDS if not str(record.get(f) or "").strip()]
        if missing:
            self.rejections.append(
                {"line": line, "reason": f"empty or missing: {', '.join(missing)}"}
            )
            return
        ident = str(record["id"]).strip()
        if ident in self.ids:
            self.rejections.append({"line": line, "reason": f"duplicate id {ident!r}"})
            return
        self.ids.add(ident)
        self.rows.append(
            {"id": ident, "question": str(record["question"]), "text": str(record["text"])}
        )


def read_pairs(path: Path) -> Pairs:
    """The pairs of a .jsonl (or .json lines) or .csv file."""
    if not path.is_file():
        raise UnreadablePairs(f"{path}: no such file")
    try:
        content = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadablePairs(f"{path}: not UTF-8 text ({exc.reason})") from exc
    pairs = Pairs()
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        for number, line in enumerate(content.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                pairs.take(number, json.loads(line))
            except json.JSONDecodeError as exc:
                pairs.rejections.append({"line": number, "reason": f"invalid JSON: {exc.msg}"})
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(content, newline=""))
        absent = [f for f in FIELDS if f not in (reader.fieldnames or [])]
        if absent:
            raise UnreadablePairs(f"{path}: the header lacks {', '.join(absent)}")
        for record in reader:
            pairs.take(reader.line_num, record)
    else:
        raise UnreadablePairs(f"{path}: expected a .jsonl or .csv file")
    return pairs


def judged_pairs(rows: list[dict], scorer: Scorer) -> list[dict]:
    """`id, score, verified, reason, rationale` of every row, by the trained gate."""
    if not rows:
        return []
    threshold = scorer.model.info.threshold
    if threshold is None:
        raise ValueError("the relevance model has no threshold")
    pairs = pa.Table.from_pylist(
        [
            {
                "question_id": r["id"],
                "question": r["question"],
                "chunk_rank": 1,
                "chunk_id": r["id"],
                "chunk_start": 0,
                "chunk_text": r["text"],
                "requirement_id": r["id"],
                "exact_quote": r["text"],
                "char_start": 0,
                "char_end": len(r["text"]),
                "lead_in_quote": None,
                "doc_id": r["id"],
                "heading": None,
                "title": None,
                "citation": None,
            }
            for r in rows
        ]
    )
    gate = TrainedVerifier({}, scorer, threshold, scorer.version)
    return [
        {
            "id": v["question_id"],
            "score": v["score"],
            "verified": v["verified"],
            "reason": v["rejection_reason"] or "",
            "rationale": v["rationale"],
        }
        for v in gate.verifications(pairs).to_pylist()
    ]
