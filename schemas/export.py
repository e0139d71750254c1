"""The provenance export of one run (`groundwork export`): one pydantic model per entity.

The same records go out in every format: as the lists of one JSON document (`Provenance`), one
per line in JSONL (told apart by `record_type`), or one Parquet file per entity. The published
JSON Schema, schemas/export.schema.json, is generated from these models (`python -m
schemas.export`), and a test checks that the committed file equals the generated one, so the
schema and the code cannot drift apart.

IDs: `source_id` (S1, S2, ...), `doc_id`, `requirement_id` (REQ-S0001), `question_id`,
`statement_id` (`<question_id>#S01`: a claim), `citation_id` (`<statement_id>:<requirement_id>`:
a claim-source link), `verification_id` (`<question_id>:<requirement_id>`), `claim_id`
(`<statement_id>#C01`), `claim_number_id` and `correction_id` (`<claim_id>:<n>`) and
`check_name` are each unique within an export, and stable: the same inputs give the same IDs in
every run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from schemas.answers import Answers
from schemas.citation_corrections import CitationCorrections
from schemas.citations import Citations
from schemas.claim_numbers import ClaimNumbers
from schemas.claims import Claims
from schemas.documents import Documents
from schemas.ids import REQUIREMENT_ID
from schemas.questions import SOURCE_TYPES
from schemas.requirements import CONFIDENCES, MODALITIES
from schemas.statements import Statements
from schemas.values import allowed_values
from schemas.verifications import REJECTION_REASONS

EXPORT_VERSION = "1"
SCHEMA_PATH = Path(__file__).resolve().parent / "export.schema.json"
SCHEMA_ID = "https://groundwork.invalid/schemas/export.schema.json"
RESULTS = allowed_values(Answers, "result")
GROUNDING = allowed_values(Answers, "grounding_confidence")
SECTIONS = allowed_values(Statements, "section")
CLAIM_TYPES = allowed_values(Statements, "claim_type")
FORMS = allowed_values(Statements, "form")
VERDICTS = allowed_values(Statements, "verdict")
ROLES = allowed_values(Citations, "role")
FORMATS = allowed_values(Documents, "format")
CLAIM_VERDICTS = allowed_values(Claims, "verdict")
CLAIM_ACTIONS = allowed_values(Claims, "action")
DEPTHS = allowed_values(Claims, "depth")
NUMBER_KINDS = allowed_values(ClaimNumbers, "kind")
NUMBER_STATUSES = allowed_values(ClaimNumbers, "status")
CORRECTIONS = allowed_values(CitationCorrections, "action")


class Record(BaseModel):
    """An exported row: unknown fields are errors, and every field is always written."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, json_schema_serialization_defaults_required=True
    )


class RunRecord(Record):
    """The run the export is of; first in JSONL."""

    record_type: Literal["run"] = "run"
    export_version: Literal["1"] = EXPORT_VERSION
    run_id: str
    status: str = Field(description="published | failed | partial")
    published: bool = Field(description="whether the current_* views show this run")
    started_at: str
    finished_at: str | None
    corpus_hash: str | None
    config_hash: str | None
    code_version: str | None
    input_fingerprint: str | None


class SourceRecord(Record):
    """A registered source: the stable identity of a document across edits."""

    record_type: Literal["source"] = "source"
    source_id: str = Field(pattern=r"^S\d+$")
    source_type: Literal[SOURCE_TYPES] | None
    title: str | None
    citation: str | None
    jurisdiction: str | None
    url: str | None
    effective_date: str | None
    first_run: str | None
    last_run: str | None


class DocumentRecord(Record):
    """A document the run read, with the text every offset indexes into."""

    record_type: Literal["document"] = "document"
    doc_id: str = Field(min_length=1)
    source_id: str = Field(pattern=r"^S\d+$")
    source_type: Literal[SOURCE_TYPES]
    title: str
    citation: str | None
    jurisdiction: str | None
    url: str | None
    effective_date: str | None
    path: str
    format: Literal[FORMATS]
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    text: str = Field(min_length=1)


class RequirementRecord(Record):
    """A verbatim requirement: `exact_quote == document.text[char_start:char_end]`."""

    record_type: Literal["requirement"] = "requirement"
    requirement_id: str = Field(pattern=REQUIREMENT_ID)
    source_id: str = Field(pattern=r"^S\d+$")
    doc_id: str
    chunk_id: str
    label_path: str | None
    char_start: int = Field(ge=0)
    char_end: int = Field(ge=1)
    exact_quote: str = Field(min_length=1)
    lead_in_quote: str | None
    lead_in_start: int | None
    lead_in_end: int | None
    # `document.text[sentence_start:sentence_end]` is the whole sentence the quote sits in, to
    # show with the quote marked; null for runs extracted before groundwork recorded it
    sentence_start: int | None = Field(ge=0)
    sentence_end: int | None = Field(ge=1)
    long_quote: bool | None  # a complete clause past 40 words, kept whole rather than cut
    modality: Literal[tuple(MODALITIES)]
    trigger: str
    subject: str | None
    extraction_confidence: Literal[tuple(CONFIDENCES)]
    extractor: str
    extractor_version: str
    canonical_key: str = Field(pattern=r"^[0-9a-f]{64}$")
    first_run: str


class QuestionRecord(Record):
    record_type: Literal["question"] = "question"
    question_id: str = Field(min_length=1)
    question: str
    topic: str | None
    category: str | None
    source_types: list[Literal[SOURCE_TYPES]]
    jurisdiction: str | None


class AnswerRecord(Record):
    record_type: Literal["answer"] = "answer"
    question_id: str
    result: Literal[RESULTS]
    final_answer: str
    grounding_confidence: Literal[GROUNDING]
    verified_count: int = Field(ge=0)
    statute_summary: str | None
    policy_summary: str | None
    missing_evidence: str | None
    unused_requirement_ids: list[Annotated[str, Field(pattern=REQUIREMENT_ID)]]
    composer: str


class StatementRecord(Record):
    """A claim of an answer: `text == answer.final_answer[char_start:char_end]`."""

    record_type: Literal["statement"] = "statement"
    statement_id: str
    question_id: str
    ordinal: int = Field(ge=1)
    text: str = Field(min_length=1)
    char_start: int = Field(ge=0)
    char_end: int = Field(ge=1)
    section: Literal[SECTIONS]
    claim_type: Literal[CLAIM_TYPES]
    form: Literal[FORMS]
    support: float = Field(ge=0, le=1)
    verdict: Literal[VERDICTS] | None = Field(
        description="null for runs composed before statements had verdicts"
    )


class CitationRecord(Record):
    """A claim-source link: a statement cites a requirement verified for its question."""

    record_type: Literal["citation"] = "citation"
    citation_id: str = Field(description="<statement_id>:<requirement_id>")
    statement_id: str
    question_id: str
    requirement_id: str = Field(pattern=REQUIREMENT_ID)
    marker: str
    role: Literal[ROLES]


class VerificationRecord(Record):
    """The grounding gate's verdict on one (question, requirement) pair."""

    record_type: Literal["verification"] = "verification"
    verification_id: str = Field(description="<question_id>:<requirement_id>")
    question_id: str
    requirement_id: str = Field(pattern=REQUIREMENT_ID)
    chunk_id: str
    chunk_rank: int = Field(ge=1)
    verified: bool
    rejection_reason: Literal[tuple(REJECTION_REASONS)] | None
    rationale: str
    quote_coverage: float = Field(ge=0, le=1)
    chunk_coverage: float = Field(ge=0, le=1)
    matched_terms: list[str]
    verifier: str


class ClaimRecord(Record):
    """An atomic claim of a statement, checked against its cited quotes on its own."""

    record_type: Literal["claim"] = "claim"
    claim_id: str
    statement_id: str
    question_id: str
    ordinal: int = Field(ge=1)
    text: str = Field(min_length=1)
    published_text: str | None = Field(description="what the answer says; null when removed")
    requirement_ids: list[Annotated[str, Field(pattern=REQUIREMENT_ID)]]
    depth: Literal[DEPTHS]
    verdict_before: Literal[CLAIM_VERDICTS] = Field(description="against the original citation")
    verdict: Literal[CLAIM_VERDICTS] = Field(description="after citation correction")
    reason: str
    issues: list[str]
    support: float = Field(ge=0, le=1)
    action: Literal[CLAIM_ACTIONS]


class ClaimNumberRecord(Record):
    """A number a claim states, normalised, and how its cited quote backs it."""

    record_type: Literal["claim_number"] = "claim_number"
    claim_number_id: str = Field(description="<claim_id>:<n>, in order of position")
    claim_id: str
    question_id: str
    surface: str = Field(min_length=1)
    kind: Literal[NUMBER_KINDS]
    value: float | None
    unit: str | None
    status: Literal[NUMBER_STATUSES]
    quote_surface: str | None
    inputs: list[str]
    calculation: str | None


class CitationCorrectionRecord(Record):
    """A change to a claim's citations (REPLACE, ADD_ALTERNATE or REMOVE), with its reason."""

    record_type: Literal["citation_correction"] = "citation_correction"
    correction_id: str = Field(description="<claim_id>:<n>, in the order they were made")
    claim_id: str
    statement_id: str
    question_id: str
    action: Literal[CORRECTIONS]
    from_requirement_id: str | None = Field(pattern=REQUIREMENT_ID)
    to_requirement_id: str | None = Field(pattern=REQUIREMENT_ID)
    verdict_before: Literal[CLAIM_VERDICTS]
    verdict_after: Literal[CLAIM_VERDICTS]
    score: float | None
    reason: str


class CheckRecord(Record):
    """One review check's outcome (`check_results`)."""

    record_type: Literal["check"] = "check"
    check_name: str
    table_name: str
    severity: Literal["hard", "soft"]
    metric: str
    threshold: float | None
    value: float | None
    passed: bool
    offending_rows: int = Field(ge=0)
    sample: str | None = Field(description="up to 5 offending rows, as a JSON text")


class Provenance(Record):
    """The whole export as one JSON document (`--format json`)."""

    run: RunRecord
    sources: list[SourceRecord]
    documents: list[DocumentRecord]
    requirements: list[RequirementRecord]
    questions: list[QuestionRecord]
    answers: list[AnswerRecord]
    statements: list[StatementRecord]
    citations: list[CitationRecord]
    verifications: list[VerificationRecord]
    claims: list[ClaimRecord]
    claim_numbers: list[ClaimNumberRecord]
    citation_corrections: list[CitationCorrectionRecord]
    checks: list[CheckRecord]


# Entity name (a Provenance field, a Parquet file name) -> its record model, in export order.
ENTITIES: dict[str, type[Record]] = {
    "run": RunRecord,
    "sources": SourceRecord,
    "documents": DocumentRecord,
    "requirements": RequirementRecord,
    "questions": QuestionRecord,
    "answers": AnswerRecord,
    "statements": StatementRecord,
    "citations": CitationRecord,
    "verifications": VerificationRecord,
    "claims": ClaimRecord,
    "claim_numbers": ClaimNumberRecord,
    "citation_corrections": CitationCorrectionRecord,
    "checks": CheckRecord,
}
ExportRecord = Annotated[Union[tuple(ENTITIES.values())], Field(discriminator="record_type")]  # noqa: UP007


def export_json_schema() -> dict[str, Any]:
    """The JSON Schema every exported JSON value meets: the whole document (`json`), or any one
    record (a JSONL line, a Parquet row)."""
    schema = TypeAdapter(Provenance | ExportRecord).json_schema(mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "groundwork provenance export",
        "description": (
            f"Export version {EXPORT_VERSION}. A `groundwork export --format json` document, or "
            "one record of `--format jsonl` (a line) or `--format parquet` (a row), told apart "
            "by record_type."
        ),
        **schema,
    }


def schema_text() -> str:
    """export_json_schema() as the committed file holds it."""
    return json.dumps(export_json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m schemas.export [PATH]: (re)write the published schema
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_PATH
    target.write_text(schema_text(), encoding="utf-8")
