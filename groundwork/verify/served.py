"""The served-model backend of verification, isolated (CoVe): its prompt holds only the question
and one requirement's quote (with the lead-in of a list item), never the chunk or a draft answer.

Our own checks still come first and last: a quote that is not verbatim at its offsets is rejected
without asking, and the model's verdict can only be one of the rules verifier's outcomes. A pair
the model gave no usable verdict on is judged by the rules (fallback "rules") or left unverified
with reason `verifier_unavailable` (fallback "none"); either way it is recorded.
"""

from __future__ import annotations

import pyarrow as pa

from groundwork.llm.calls import ModelStage, Request
from groundwork.llm.client import json_parser
from groundwork.stages import VERIFIER
from groundwork.verify.rules import TermWeights, verdict
from schemas.model_replies import VerificationReply, VerificationRequest
from schemas.verifications import VERIFICATIONS_SCHEMA


def pair_item(pair: dict) -> str:
    """The rejections table's name for a pair: question and requirement."""
    return f"{pair['question_id']}/{pair['requirement_id']}"


def verification_request(stage: ModelStage, pair: dict) -> Request:
    """The isolated request for one pair."""
    requirement = pair["exact_quote"]
    if pair["lead_in_quote"]:
        requirement = f"{pair['lead_in_quote']} … {requirement}"
    return Request(
        item=pair_item(pair),
        messages=stage.prompt.messages(
            VerificationRequest(question=pair["question"], requirement=requirement)
        ),
        parse=json_parser(VerificationReply),
        schema=VerificationReply.model_json_schema(),
    )


def model_row(stage: ModelStage, rules_row: dict, reply: VerificationReply | None) -> dict:
    """The verdict row: the model's, the rules' as fallback, or unverified."""
    if reply is not None:
        verified = reply.verdict == "supported"
        return {
            **rules_row,
            "verified": verified,
            "rejection_reason": None if verified else reply.verdict,
            "rationale": reply.rationale.strip() or "(the model gave no rationale)",
            "verifier": stage.label,
        }
    if stage.backend.fallback == "rules":
        return {**rules_row, "verifier": f"{VERIFIER} (model fallback)"}
    return {
        **rules_row,
        "verified": False,
        "rejection_reason": "verifier_unavailable",
        "rationale": "the model gave no usable verdict; see model_rejections",
        "verifier": stage.label,
    }


def model_verifications(stage: ModelStage, pairs: pa.Table, idf: dict[str, float]) -> pa.Table:
    """A verdict for every candidate pair, the model judging those that are verbatim."""
    weight = TermWeights.of(idf)
    records = pairs.to_pylist()
    rules_rows = [verdict(pair, weight) for pair in records]
    asked = {
        pair_item(pair): verification_request(stage, pair)
        for pair, row in zip(records, rules_rows, strict=True)
        if row["rejection_reason"] != "not_verbatim"
    }
    replies = stage.answers(list(asked.values()))
    rows = [
        row
        if row["rejection_reason"] == "not_verbatim"
        else model_row(stage, row, replies.get(pair_item(pair)))
        for pair, row in zip(records, rules_rows, strict=True)
    ]
    return pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)


class ServedVerifier:
    """A served model as a `Verifier`: the model judges every verbatim pair, the rules' row
    standing by (fallback) where it gives no usable verdict."""

    def __init__(self, stage: ModelStage, idf: dict[str, float]) -> None:
        self.stage = stage
        self.idf = idf

    def verifications(self, pairs: pa.Table) -> pa.Table:
        """A verdict for every candidate pair (columns of sql/answers/candidate_pairs.sql)."""
        return model_verifications(self.stage, pairs, self.idf)
