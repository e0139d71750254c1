"""An answer being written, and the pieces every composer shares: how a requirement is quoted
and located, the answer row, its claim measures, and what is missing when nothing was verified.

Every statement quotes or restates verified requirements and cites them, and is reviewed claim by
claim before it is written (groundwork/claims/); a statement left with no claim is not written.
With nothing verified the result is NO_AUTHORITATIVE_EVIDENCE and `missing_evidence` says what
kind of authority would answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from groundwork.claims.correct import Evidence
from groundwork.claims.review import ReviewedStatement, reviewed_statement
from groundwork.claims.rows import claim_number_rows, claim_row, correction_row
from groundwork.text.numbers import mentions
from groundwork.text.plain import rejections_text, topic_words
from groundwork.text.terms import surface_words, terms
from groundwork.verify.absent import absent_reason
from schemas.config import ClaimChecks

NO_EVIDENCE = "NO_AUTHORITATIVE_EVIDENCE"


def grounding_confidence(verified: int) -> str:
    """high (5+ verified requirements), medium (2-4), low (1), insufficient (0)."""
    return (
        "high"
        if verified >= 5
        else "medium"
        if verified >= 2
        else "low"
        if verified
        else ("insufficient")
    )


def location(row: dict) -> str:
    """Where a requirement sits: citation and subsection labels, e.g. 45 CFR § 164.404(b)."""
    citation = row["citation"] or row["title"] or row["doc_id"]
    path = row["label_path"] or ""
    labels = path[path.index("(") :] if "(" in path else ""
    return f"{citation}{labels}"


def quoted(row: dict) -> str:
    """The verbatim text a statement shows: the quote, preceded by its lead-in for a list item."""
    if row["lead_in_quote"]:
        return f"{row['lead_in_quote']} … {row['exact_quote']}"
    return row["exact_quote"]


@dataclass
class Draft:
    """An answer being written: its text, and statements with exact offsets into it.

    Every statement is reviewed claim by claim before it is written (groundwork/claims/): its
    citations may be corrected from `evidence` (the question's verified requirements), an
    unsupported claim softened or removed, and a statement left with no claim is not written.
    """

    question_id: str
    settings: ClaimChecks = field(default_factory=ClaimChecks)
    evidence: dict[str, dict] = field(default_factory=dict)  # requirement ID -> verified row
    text: str = ""
    statements: list[dict] = field(default_factory=list)
    citations: list[dict] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)
    claim_numbers: list[dict] = field(default_factory=list)
    corrections: list[dict] = field(default_factory=list)
    removed: int = 0

    def line(self, text: str) -> None:
        self.text += text + "\n"

    def statement(self, section: str, body: str, cited: list[dict], form: str) -> bool:
        """A reviewed, cited statement: its published body and [REQ-...] markers, with offsets
        into the answer. False when review left nothing of it to publish."""
        pool = [Evidence(rid, quoted(r)) for rid, r in self.evidence.items()]
        claim = quoted(cited[0]) if form == "quote" else body  # a quote statement's claim
        review = reviewed_statement(
            form,
            claim,
            [Evidence(r["requirement_id"], quoted(r)) for r in cited],
            pool,
            self.settings,
        )
        published = review.published
        ordinal = len(self.statements) + 1
        if published:
            statement_id = f"{self.question_id}#S{ordinal:02d}"
        else:
            self.removed += 1
            statement_id = f"{self.question_id}#R{self.removed:02d}"  # claims kept, unpublished
        self._record_review(statement_id, review)
        if not published:
            return False
        if form == "claim":
            body = review.text
            rows = {r["requirement_id"]: r for r in cited} | self.evidence
            cited = [rows[rid] for rid in review.requirement_ids]
        markers = " ".join(f"[{r['requirement_id']}]" for r in cited)
        text = f"{body} {markers}"
        start = len(self.text) + 2
        self.line(f"- {text}")
        self.statements.append(
            {
                "statement_id": statement_id,
                "question_id": self.question_id,
                "ordinal": ordinal,
                "text": text,
                "char_start": start,
                "char_end": start + len(text),
                "section": section,
                # numeric when the statement states a number: a section or citation number
                # is not one (groundwork.text.numbers leaves references out)
                "claim_type": "numeric" if mentions(body) else "general",
                "form": form,
                "support": round(min(c.check.support for c in published), 4),
                "verdict": review.verdict,
            }
        )
        for r in cited:
            rid = r["requirement_id"]
            self.citations.append(
                {
                    "statement_id": statement_id,
                    "question_id": self.question_id,
                    "requirement_id": rid,
                    "marker": f"[{rid}]",
                    "role": "alternate" if rid in review.alternates else "primary",
                }
            )
        return True

    def _record_review(self, statement_id: str, review: ReviewedStatement) -> None:
        """The statement's claims, their numbers and citation corrections, as table rows."""
        qid = self.question_id
        for c in review.claims:
            claim_id = f"{statement_id}#C{c.ordinal:02d}"
            self.claims.append(claim_row(claim_id, statement_id, qid, c))
            self.claim_numbers.extend(claim_number_rows(claim_id, qid, c.check))
        for ordinal, fix in review.corrections:
            claim_id = f"{statement_id}#C{ordinal:02d}"
            self.corrections.append(correction_row(claim_id, statement_id, qid, fix))

    @property
    def cited_ids(self) -> set[str]:
        return {c["requirement_id"] for c in self.citations}


def _summary(rows: list[dict]) -> str | None:
    if not rows:
        return None
    kinds = Counter(r["modality"] for r in rows)
    sources = list(dict.fromkeys(r["citation"] or r["title"] for r in rows))
    counted = ", ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in sorted(kinds.items()))
    return f"{counted} from {', '.join(sources)}"


def missing_evidence(question: dict, rejected: Counter) -> str:
    """What no verified requirement covers, where it was looked for, and why the closest
    candidates were not verified, in words: the corpus may well hold an answer the gate did
    not verify, so the note claims nothing about the whole statute book; but a name the question
    asks about that no document of the corpus mentions (`absent_names`, from the verdicts) it
    says."""
    kinds = " or ".join(question["source_types"] or ["statute", "regulation", "policy"])
    where = f" of {question['jurisdiction']}" if question["jurisdiction"] else ""
    topic = topic_words(question["topic"]) or "this question"
    text = question["question"]
    about = ", ".join(dict.fromkeys(surface_words(text, terms(text))))
    reason = absent_reason([question["absent_names"]]) if question.get("absent_names") else ""
    absent = f" {reason[:1].upper()}{reason[1:]}." if reason else ""
    return (
        f"No requirement on {topic} was verified in the corpus ({kinds}{where}; the question's "
        f"words: {about or 'none'}). {rejections_text(rejected)}{absent}"
    )


def verified_unique(evidence: list[dict]) -> list[dict]:
    """A question's verified requirements in rank order, one per distinct quote."""
    return list({r["normalised_quote"]: r for r in reversed(evidence)}.values())[::-1]


def answer_record(
    question: dict, draft: Draft, unique: list[dict], rejected: Counter, composer: str
) -> dict:
    """The answer row for a written draft; `unique` is all the question's verified evidence."""
    cited = draft.cited_ids
    used = [r for r in unique if r["requirement_id"] in cited]
    missing = None if draft.statements else missing_evidence(question, rejected)
    return {
        "question_id": question["question_id"],
        "question": question["question"],
        "result": "ANSWERED" if draft.statements else NO_EVIDENCE,
        "final_answer": draft.text.rstrip("\n"),
        "grounding_confidence": grounding_confidence(len(unique)),
        "verified_count": len(unique),
        "statute_summary": _summary([r for r in used if r["source_type"] != "policy"]),
        "policy_summary": _summary([r for r in used if r["source_type"] == "policy"]),
        "missing_evidence": missing,
        "unused_requirement_ids": [r["requirement_id"] for r in unique if r not in used],
        "composer": composer,
        **claim_metrics(draft, len(unique)),
    }


def claim_metrics(draft: Draft, verified: int) -> dict:
    """An answer's claim-level measures: how many of its claims were unsupported or
    contradicted (published softened, or removed), how much of its verified evidence it cites,
    and how many citations were corrected."""
    claims = len(draft.claims)
    unsupported = sum(c["verdict"] in ("UNSUPPORTED", "CONTRADICTED") for c in draft.claims)
    cited = len({c["requirement_id"] for c in draft.citations})
    return {
        "claims": claims,
        "unsupported_claims": unsupported,
        "unsupported_claim_rate": round(unsupported / claims, 4) if claims else 0.0,
        "citation_coverage": round(cited / verified, 4) if verified else 0.0,
        "corrections": len(draft.corrections),
    }


class Composer(Protocol):
    """Writes one question's answer from its verified evidence (rows of
    sql/answers/verified_evidence.sql, in rank order) and its rejection counts: the answer row
    and the draft that holds its statements, citations, claims and corrections."""

    def __call__(
        self, question: dict, evidence: list[dict], rejected: Counter, settings: ClaimChecks
    ) -> tuple[dict, Draft]: ...
