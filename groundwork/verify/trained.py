"""The trained backend of verification: the relevance model as the grounding gate.

A requirement is verified for a question only when every hard validator passes (the quote is
verbatim at its offsets in its chunk, and it stands on its own: no "the following", "such X"
without an X, "see §") and the relevance model, reading the question beside the quote (with its
lead-in and its context: title, citation, heading), scores it at or above the threshold chosen
on held-back dev data (models/relevance/model.json). The row records the score, the threshold
and the model's version, and the lexical coverage figures the rules compute, for the reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyarrow as pa

from groundwork.models.relevance import header, relevance_text
from groundwork.verify.rules import TermWeights, dangling_reference, verdict
from schemas.verifications import VERIFICATIONS_SCHEMA

Scores = Callable[[Sequence[tuple[str, str]]], np.ndarray]


def gate_text(pair: dict) -> str:
    """What the model reads beside the question: the requirement's context, then its quote
    (after its lead-in, for a list item)."""
    quote = pair["exact_quote"]
    if pair["lead_in_quote"]:
        quote = f"{pair['lead_in_quote']} … {quote}"
    return relevance_text(header(pair), quote)


def judged(row: dict, pair: dict, score: float, threshold: float, version: str) -> dict:
    """The verdict on a verbatim pair: the model's score against the threshold, then the
    validators a relevant quote must still pass."""
    passes = score >= threshold
    dangling = dangling_reference(pair["exact_quote"], pair["lead_in_quote"])
    shown = f"score {score:.2f} {'≥' if passes else '<'} {threshold:.2f}"
    if not passes:
        reason, rationale = "does_not_address_question", f"does not answer the question: {shown}"
    elif dangling:
        reason, rationale = "incomplete_quote", f"answers the question ({shown}), but {dangling}"
    else:
        reason = None
        rationale = f"answers the question: {shown}; the quote is self-contained"
    return {
        **row,
        "verified": reason is None,
        "rejection_reason": reason,
        "rationale": rationale,
        "verifier": f"trained:{version}",
        "score": round(score, 4),
        "threshold": threshold,
        "model_version": version,
    }


class TrainedVerifier:
    """The relevance model as a `Verifier`."""

    def __init__(
        self, idf: dict[str, float], score: Scores, threshold: float, version: str
    ) -> None:
        self.weight = TermWeights.of(idf)
        self.score = score
        self.threshold = threshold
        self.version = version

    def verifications(self, pairs: pa.Table) -> pa.Table:
        """A verdict for every candidate pair (columns of sql/answers/candidate_pairs.sql);
        a quote that is not verbatim is rejected without asking the model."""
        records = pairs.to_pylist()
        rows = [verdict(pair, self.weight) for pair in records]
        asked = [i for i, row in enumerate(rows) if row["rejection_reason"] != "not_verbatim"]
        scores = self.score([(records[i]["question"], gate_text(records[i])) for i in asked])
        for i, score in zip(asked, scores.tolist(), strict=True):
            rows[i] = judged(rows[i], records[i], score, self.threshold, self.version)
        for i in set(range(len(rows))) - set(asked):
            rows[i] = {**rows[i], "verifier": f"trained:{self.version}"}
        return pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)
