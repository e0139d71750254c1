"""The served-model composer: answers written by a model in tagged output, every block validated
before it is published.

The model gets the question and the question's verified evidence, each item under its REQ ID,
as data. Only `<cite key="...">` blocks become statements, and only if every kept key is one of
that question's verified requirements; each claim is then checked against its cited quotes
(groundwork/claims/), re-cited, softened or removed. `<free>`
blocks are kept as short connective lines only if they carry no duty and no number;
`<unverified>` blocks and text outside tags are never published. Everything dropped is a row in
model_rejections. A question the model gives no valid statement for is composed extractively,
which is grounded by construction: evidence that was verified is never thrown away.
"""

from __future__ import annotations

import re
from collections import Counter

from groundwork.compose.draft import (
    Composer,
    Draft,
    answer_record,
    location,
    quoted,
    verified_unique,
)
from groundwork.compose.extractive import composed
from groundwork.compose.groups import overview
from groundwork.extract.deontic import trigger_phrase
from groundwork.llm.calls import ModelStage, Request
from groundwork.llm.tagged import tagged_answer
from schemas.config import ClaimChecks
from schemas.model_replies import ComposedAnswer, ComposedBlock, CompositionRequest

MAX_FREE_WORDS = 15
_DIGIT = re.compile(r"\d")


def evidence_block(unique: list[dict]) -> str:
    """The evidence as the prompt shows it: one item per line, under its requirement ID."""
    return "\n".join(
        f"[{r['requirement_id']}] {location(r)} ({r['modality']}): {quoted(r)}" for r in unique
    )


def composition_request(stage: ModelStage, question: dict, unique: list[dict]) -> Request:
    return Request(
        item=question["question_id"],
        messages=stage.prompt.messages(
            CompositionRequest(question=question["question"], evidence=evidence_block(unique))
        ),
        parse=tagged_answer,
    )


def _free_line(stage: ModelStage, qid: str, block: ComposedBlock) -> str | None:
    """A heading or transition, or None (recorded) when it carries a duty or a number."""
    if (
        len(block.text.split()) <= MAX_FREE_WORDS
        and not trigger_phrase(block.text)
        and not _DIGIT.search(block.text)
    ):
        return block.text
    stage.reject(qid, "free_text_claim", block.text[:300])
    return None


def _cited(
    stage: ModelStage, qid: str, block: ComposedBlock, allowed: dict[str, dict]
) -> list[dict]:
    """The block's keys that name this question's verified evidence; the rest are recorded."""
    cited: dict[str, dict] = {}
    for key in block.keys:
        if key in allowed:
            cited[key] = allowed[key]
        else:
            stage.reject(qid, "unknown_citation", f"{key} is not verified evidence for {qid}")
    return list(cited.values())


def model_draft(
    stage: ModelStage,
    question: dict,
    unique: list[dict],
    reply: ComposedAnswer,
    settings: ClaimChecks,
) -> Draft:
    """The draft of validated blocks (it may hold no statement at all). Each claim is reviewed
    against its cited quotes (groundwork/claims/) and its citations corrected, softened or
    removed by `settings`; a removed claim is recorded as a rejection."""
    qid = question["question_id"]
    allowed = {r["requirement_id"]: r for r in unique}
    draft = Draft(qid, settings, allowed)
    draft.line(overview(unique, unique))
    for block in reply.blocks:
        if block.kind == "unverified":
            stage.reject(qid, "unverified_by_model", block.text[:300])
            continue
        if block.kind == "free":
            line = _free_line(stage, qid, block)
            if line:
                draft.line(f"\n{line}")
            continue
        cited = _cited(stage, qid, block, allowed)
        if not cited or not block.text:
            stage.reject(qid, "uncited_claim", block.text[:300] or "(empty claim)")
            continue
        section = "policies" if all(r["source_type"] == "policy" for r in cited) else "statutes"
        if not draft.statement(section, block.text, cited, "claim"):
            reasons = "; ".join(
                c["reason"]
                for c in draft.claims
                if c["statement_id"].endswith(f"R{draft.removed:02d}")
            )
            stage.reject(qid, "claim_removed", f"{block.text[:200]}: {reasons}"[:300])
    return draft


def model_composer(stage: ModelStage, questions: list[dict], by_question: dict) -> Composer:
    """A composer that asks the model about every question with evidence (in parallel, cached),
    and writes each answer from the model's validated blocks or, failing that, extractively."""
    asked = {
        q["question_id"]: verified_unique(by_question[q["question_id"]])
        for q in questions
        if by_question.get(q["question_id"])
    }
    requests = [
        composition_request(stage, q, asked[q["question_id"]])
        for q in questions
        if q["question_id"] in asked
    ]
    replies = stage.answers(requests)

    def compose(
        question: dict, evidence: list[dict], rejected: Counter, settings: ClaimChecks
    ) -> tuple[dict, Draft]:
        reply = replies.get(question["question_id"])
        if reply is not None:
            unique = asked[question["question_id"]]
            draft = model_draft(stage, question, unique, reply, settings)
            if draft.statements:
                return answer_record(question, draft, unique, rejected, stage.label), draft
            stage.reject(
                question["question_id"], "no_valid_statement", "composed extractively instead"
            )
        answer, draft = composed(question, evidence, rejected, settings)
        if evidence:
            answer["composer"] = f"{answer['composer']} (model fallback)"
        return answer, draft

    return compose
