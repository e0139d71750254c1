"""Every question's answer, by a composer: the six answer tables of a run (ANSWER_TABLES)."""

from __future__ import annotations

from collections import Counter

import pyarrow as pa

from groundwork.compose.draft import Composer
from groundwork.compose.extractive import composed
from schemas.answers import ANSWERS_SCHEMA, Answers
from schemas.citation_corrections import CITATION_CORRECTIONS_SCHEMA, CitationCorrections
from schemas.citations import CITATIONS_SCHEMA, Citations
from schemas.claim_numbers import CLAIM_NUMBERS_SCHEMA, ClaimNumbers
from schemas.claims import CLAIMS_SCHEMA, Claims
from schemas.config import ClaimChecks
from schemas.statements import STATEMENTS_SCHEMA, Statements

ANSWER_TABLES = (
    ("answers", ANSWERS_SCHEMA, Answers),
    ("statements", STATEMENTS_SCHEMA, Statements),
    ("citations", CITATIONS_SCHEMA, Citations),
    ("claims", CLAIMS_SCHEMA, Claims),
    ("claim_numbers", CLAIM_NUMBERS_SCHEMA, ClaimNumbers),
    ("citation_corrections", CITATION_CORRECTIONS_SCHEMA, CitationCorrections),
)


def evidence_by_question(evidence: pa.Table) -> dict[str, list[dict]]:
    """Verified evidence rows grouped by question, in rank order."""
    grouped: dict[str, list[dict]] = {}
    for row in evidence.to_pylist():
        grouped.setdefault(row["question_id"], []).append(row)
    return grouped


def answers(
    questions: pa.Table,
    evidence: pa.Table,
    rejections: pa.Table,
    settings: ClaimChecks,
    compose: Composer = composed,
) -> dict[str, pa.Table]:
    """Every question's answer and its statements, citations, claims, claim numbers and
    citation corrections (ANSWER_TABLES), each answer written by `compose`."""
    by_question = evidence_by_question(evidence)
    rejected: dict[str, Counter] = {}
    absent: dict[str, str] = {}  # what a question names that the corpus never mentions
    for row in rejections.to_pylist():
        rejected.setdefault(row["question_id"], Counter())[row["rejection_reason"]] += row["n"]
        if row["named"]:
            absent[row["question_id"]] = row["named"]
    rows: dict[str, list[dict]] = {name: [] for name, _, _ in ANSWER_TABLES}
    for question in questions.to_pylist():
        qid = question["question_id"]
        asked = {**question, "absent_names": absent.get(qid)}
        answer, draft = compose(
            asked, by_question.get(qid, []), rejected.get(qid, Counter()), settings
        )
        rows["answers"].append(answer)
        rows["statements"].extend(draft.statements)
        rows["citations"].extend(draft.citations)
        rows["claims"].extend(draft.claims)
        rows["claim_numbers"].extend(draft.claim_numbers)
        rows["citation_corrections"].extend(draft.corrections)
    return {
        name: pa.Table.from_pylist(rows[name], schema=schema) for name, schema, _ in ANSWER_TABLES
    }
