"""Stage `answers`: extractive composition from verified requirements only.

Every statement quotes one verified requirement verbatim (with its lead-in for a list item) and
cites it, so a statement cannot carry a fact its citation lacks. Statutes and regulations are
summarised apart from policies, and together; an obligation and a prohibition or permission on
the same action are shown both ways. With nothing verified the result is
NO_AUTHORITATIVE_EVIDENCE and `missing_evidence` says what kind of authority would answer.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.claims.correct import Evidence
from groundwork.claims.review import ReviewedStatement, reviewed_statement
from groundwork.claims.rows import claim_number_rows, claim_row, correction_row
from groundwork.numbers import mentions
from groundwork.sqlfiles import literal_sql
from groundwork.stages import COMPOSER
from groundwork.text import terms
from groundwork.warehouse import Warehouse, run_parts, write_run_table
from schemas.answers import ANSWERS_SCHEMA, Answers
from schemas.citation_corrections import CITATION_CORRECTIONS_SCHEMA, CitationCorrections
from schemas.citations import CITATIONS_SCHEMA, Citations
from schemas.claim_numbers import CLAIM_NUMBERS_SCHEMA, ClaimNumbers
from schemas.claims import CLAIMS_SCHEMA, Claims
from schemas.config import ClaimChecks, ModelBackend, RunConfig
from schemas.contract import checked
from schemas.statements import STATEMENTS_SCHEMA, Statements

MAX_STATEMENTS = 8
NO_EVIDENCE = "NO_AUTHORITATIVE_EVIDENCE"
_SECTIONS = {
    "statutes": "Statutes and regulations",
    "policies": "Policies",
    "tensions": "Where the sources pull in different directions",
}


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


def _action_terms(row: dict) -> set[str]:
    """The first content terms after the trigger: what the requirement is about."""
    quote = row["exact_quote"]
    after = (
        quote[quote.find(row["trigger"]) + len(row["trigger"]) :]
        if row["trigger"] in quote
        else quote
    )
    return set(terms(after)[:6])


def tensions(rows: list[dict]) -> list[tuple[dict, dict, list[str]]]:
    """Pairs of an obligation and a prohibition or permission that act on the same thing."""
    found = []
    duties = [r for r in rows if r["modality"] == "obligation"]
    others = [r for r in rows if r["modality"] in ("prohibition", "permission")]
    for duty in duties:
        for other in others:
            shared = sorted(_action_terms(duty) & _action_terms(other))
            if len(shared) >= 2:
                found.append((duty, other, shared))
    return found[:3]


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
                # is not one (groundwork.numbers leaves references out)
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
    """What kind of authority would answer, and why the closest candidates did not."""
    kinds = " or ".join(question["source_types"] or ["statute", "regulation", "policy"])
    where = f" of {question['jurisdiction']}" if question["jurisdiction"] else ""
    topic = question["topic"] or "this question"
    about = ", ".join(dict.fromkeys(terms(question["question"]))) or "the question"
    why = (
        "; ".join(f"{n} rejected as {reason}" for reason, n in rejected.most_common())
        if rejected
        else "no requirement was retrieved"
    )
    return (
        f"No {kinds}{where} in the corpus states a requirement on {topic} ({about}). "
        f"Candidates: {why}."
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


def opening(unique: list[dict]) -> str:
    """The first line of an answer: how much verified evidence there is, and from where."""
    return f"{len(unique)} verified requirement(s) answer this question: {_summary(unique)}."


def composed(
    question: dict, evidence: list[dict], rejected: Counter, settings: ClaimChecks
) -> tuple[dict, Draft]:
    """The answer row and its statements and citations for one question."""
    unique = verified_unique(evidence)
    draft = Draft(question["question_id"], settings, {r["requirement_id"]: r for r in unique})
    used, unused = unique[:MAX_STATEMENTS], unique[MAX_STATEMENTS:]
    statutes = [r for r in used if r["source_type"] != "policy"]
    policies = [r for r in used if r["source_type"] == "policy"]
    if not used:
        draft.line(f"{NO_EVIDENCE}: {missing_evidence(question, rejected)}")
    else:
        draft.line(opening(unique))
        for section, rows in (("statutes", statutes), ("policies", policies)):
            if rows:
                draft.line(f"\n{_SECTIONS[section]}:")
                for r in rows:
                    body = f'{location(r)} ({r["modality"]}): "{quoted(r)}"'
                    draft.statement(section, body, [r], "quote")
        pairs = tensions(used)
        if pairs:
            draft.line(f"\n{_SECTIONS['tensions']}:")
            for duty, other, shared in pairs:
                body = (
                    f"{location(duty)} states an obligation and {location(other)} a "
                    f"{other['modality']} on the same action ({', '.join(shared)})"
                )
                draft.statement("tensions", body, [duty, other], "tension")
        if unused:
            ids = ", ".join(r["requirement_id"] for r in unused)
            draft.line(f"\nAlso verified, not quoted above: {ids}.")
    return answer_record(question, draft, unique, rejected, COMPOSER), draft


Composer = Callable[[dict, list[dict], Counter, ClaimChecks], tuple[dict, Draft]]
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
    for row in rejections.to_pylist():
        rejected.setdefault(row["question_id"], Counter())[row["rejection_reason"]] += row["n"]
    rows: dict[str, list[dict]] = {name: [] for name, _, _ in ANSWER_TABLES}
    for question in questions.to_pylist():
        qid = question["question_id"]
        answer, draft = compose(
            question, by_question.get(qid, []), rejected.get(qid, Counter()), settings
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


def compose_inputs(warehouse: Warehouse, run_id: str) -> tuple[pa.Table, pa.Table, pa.Table]:
    """What composition reads of a run: questions, verified evidence, rejection counts."""
    parts = run_parts(warehouse, run_id, "questions", "verifications", "requirements")
    with warehouse.connect(read_only=True) as con:
        return tuple(  # type: ignore[return-value]
            con.execute(literal_sql(f"answers/{name}", **parts)).to_arrow_table()
            for name in ("questions", "verified_evidence", "rejection_counts")
        )


def question_keys(questions: pa.Table, evidence: pa.Table, rejected: pa.Table) -> dict[str, str]:
    """A digest per question of everything its answer is composed from: the question, its
    verified evidence (IDs, quotes, ranks) and its rejection counts."""
    inputs: dict[str, list] = {q["question_id"]: [q, [], []] for q in questions.to_pylist()}
    for position, table in ((1, evidence), (2, rejected)):
        for row in table.to_pylist():
            if row["question_id"] in inputs:
                inputs[row["question_id"]][position].append(row)
    return {
        qid: hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
        for qid, parts in inputs.items()
    }


def unchanged_questions(
    warehouse: Warehouse, inputs: tuple[pa.Table, pa.Table, pa.Table], reused: str | None
) -> set[str]:
    """Questions whose answer inputs (this run's `compose_inputs`) equal those of the `reused`
    run (same config and code): their answers are copied from it rather than composed again
    (nor sent to a model)."""
    if reused is None or inputs[0].num_rows == 0 or not warehouse.parts("answers", reused):
        return set()
    now = question_keys(*inputs)
    before = question_keys(*compose_inputs(warehouse, reused))
    return {qid for qid, key in now.items() if before.get(qid) == key}


def _only(table: pa.Table, questions: set[str], keep: bool) -> pa.Table:
    """The rows of `table` whose question is (keep) or is not (not keep) in `questions`."""
    inside = pc.is_in(table.column("question_id"), pa.array(sorted(questions), pa.string()))
    return table.filter(inside if keep else pc.invert(inside))


@task(name="compose", cache_policy=NO_CACHE)
def compose_stage(
    warehouse: Warehouse, run_id: str, config: RunConfig, reused: str | None = None
) -> dict[str, int]:
    """Compose every answer from the run's verified requirements, copying those of questions
    whose inputs are as in the `reused` run; returns result counts and how many were copied."""
    inputs = compose_inputs(warehouse, run_id)
    questions, evidence, rejected = inputs
    copied = unchanged_questions(warehouse, inputs, reused)
    questions = _only(questions, copied, keep=False)
    if isinstance(config.compose, ModelBackend):
        from groundwork.llm.calls import model_stage  # the rules never load the client
        from tasks.model_compose import model_composer

        with model_stage(warehouse, run_id, "compose", config) as stage:
            compose = model_composer(stage, questions.to_pylist(), evidence_by_question(evidence))
            tables = answers(questions, evidence, rejected, config.claims, compose)
    else:
        tables = answers(questions, evidence, rejected, config.claims)
    for name, schema, contract in ANSWER_TABLES:
        table = checked(tables[name], contract, name)
        if copied:
            before = pq.read_table(warehouse.run_dir(name, reused), schema=schema)  # type: ignore[arg-type]
            table = pa.concat_tables([_only(before, copied, keep=True), table])
        write_run_table(warehouse, name, run_id, table)
        tables[name] = table
    results = Counter(tables["answers"].column("result").to_pylist())
    return {
        "answered": results["ANSWERED"],
        "no_evidence": results[NO_EVIDENCE],
        "answers_copied": len(copied),
    }
