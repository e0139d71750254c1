"""`groundwork judge`: the pipeline's judgements on rows of a file, outside any run.

`judge pairs` (`id, question, text`): does this passage answer this question? Each row is judged
by exactly the grounding gate a run uses (the trained gate: the same model, threshold
and validators), with the row's text as one quote: verbatim by construction, so the gate asks
whether it stands on its own and whether it answers the question.

`judge claims` (`id, claim, evidence`): does this evidence support this claim? Each row gets
exactly the claim check a run gives a claim against one cited quote (groundwork/claims/), with
the run config's claim settings (depth, numeric tolerance).

Rows come as JSONL or CSV. A malformed row is rejected with its line number and the others are
judged.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from groundwork.claims.model import claim_check
from groundwork.models.scores import PairCosines
from groundwork.verify.trained import TrainedVerifier, model_gate
from schemas.config import ClaimChecks

PAIR_FIELDS = ("id", "question", "text")
CLAIM_FIELDS = ("id", "claim", "evidence")


class UnreadableRows(Exception):
    """The file cannot be read as rows at all (missing, not JSONL or CSV, columns lacking)."""


@dataclass
class Rows:
    """The rows of a file that can be judged, and the line of every one that cannot."""

    fields: tuple[str, ...]
    rows: list[dict] = field(default_factory=list)
    rejections: list[dict] = field(default_factory=list)  # {"line", "reason"}
    ids: set[str] = field(default_factory=set)

    def take(self, line: int, record: object) -> None:
        """Keep a record with every field non-empty (ids unique), or reject it."""
        if not isinstance(record, dict):
            named = ", ".join(self.fields)
            self.rejections.append({"line": line, "reason": f"not an object with {named}"})
            return
        missing = [f for f in self.fields if not str(record.get(f) or "").strip()]
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
        self.rows.append({"id": ident, **{f: str(record[f]) for f in self.fields[1:]}})


def read_rows(path: Path, fields: tuple[str, ...]) -> Rows:
    """The rows of a .jsonl (or .json lines) or .csv file; `fields` begin with the id."""
    if not path.is_file():
        raise UnreadableRows(f"{path}: no such file")
    try:
        content = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableRows(f"{path}: not UTF-8 text ({exc.reason})") from exc
    found = Rows(fields)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        for number, line in enumerate(content.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                found.take(number, json.loads(line))
            except json.JSONDecodeError as exc:
                found.rejections.append({"line": number, "reason": f"invalid JSON: {exc.msg}"})
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(content, newline=""))
        absent = [f for f in fields if f not in (reader.fieldnames or [])]
        if absent:
            raise UnreadableRows(f"{path}: the header lacks {', '.join(absent)}")
        for record in reader:
            found.take(reader.line_num, record)
    else:
        raise UnreadableRows(f"{path}: expected a .jsonl or .csv file")
    return found


def judged_pairs(rows: list[dict], scorer: PairCosines) -> list[dict]:
    """`id, score, verified, reason, rationale` of every row, by the trained gate."""
    if not rows:
        return []
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
    gate = TrainedVerifier({}, scorer, model_gate(scorer))
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


def judged_claims(rows: list[dict], settings: ClaimChecks) -> list[dict]:
    """`id, verdict, score, reasons` of every row, by the claim check a run gives a claim
    against one cited quote: `score` is the share of the claim's terms the evidence states,
    `reasons` the findings ("modality changed: may vs must"), or the verdict's reason."""
    judged = []
    for row in rows:
        check = claim_check(row["claim"], row["evidence"], settings)
        judged.append(
            {
                "id": row["id"],
                "verdict": check.verdict,
                "score": check.support,
                "reasons": "; ".join(check.issues) or check.reason,
            }
        )
    return judged
