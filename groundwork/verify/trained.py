"""The trained backend of verification: a model trained here as the grounding gate.

A requirement is verified for a question only when every hard validator passes (the quote is
verbatim at its offsets in its chunk, and it stands on its own: no "the following", "such X"
without an X, "see §") and the model, reading the question and the quote (with its lead-in and
its context: title, citation, heading), scores it at or above the threshold (or, where the model
sets one, at or above a lower threshold for a quote that also holds the question's words, as the
lexical rules judge them) and, when the model sets a margin, within it of the question's best
candidate, all chosen on dev data (its model.json). Two readers agreeing is evidence either
alone is not: just under the threshold, far fewer of the candidates the rules also verify belong
to questions the corpus cannot answer. The model is the dense encoder (models/dense/, the cosine
of the two vectors: groundwork/models/scores.py gate_scorer): on plain-language questions it
tells an answer from the other candidates better than the relevance cross-encoder and the
lexical rules. The row records the score, the threshold and the model's version, and the lexical
coverage figures the rules compute, for the reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from groundwork.models.relevance import header, relevance_text
from groundwork.text.plain import setting
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


def judged(row: dict, dangling: str | None, score: float, gate: Gate, best: float) -> dict:
    """The verdict on a verbatim pair (`row`: the lexical rules' verdict on it): the model's
    score against the threshold (or the lower one, for a quote the rules verify) and the
    question's best candidate that the validators pass (`best`), then those validators
    (`dangling`: why the quote does not stand on its own, if it does not)."""
    near = gate.margin is None or score >= best - gate.margin
    worded = gate.lexical is not None and row["verified"] and gate.lexical <= score
    shown = f"the model reads {score:.2f}"
    if score < best:
        shown += f", the question's best candidate {best:.2f}"
    lexical = "" if gate.lexical is None else f", {setting(gate.lexical)} with the question's words"
    margin = "" if gate.margin is None else f", margin {setting(gate.margin)}"
    shown += f" (threshold {setting(gate.threshold)}{lexical}{margin})"
    if score < gate.threshold and worded:
        shown += ", and the quote holds the question's words"
    if score < gate.threshold and not worded:
        reason, rationale = "does_not_address_question", f"does not answer the question: {shown}"
    elif not near:
        reason = "does_not_address_question"
        rationale = f"another candidate answers the question better: {shown}"
    elif dangling:
        reason, rationale = "incomplete_quote", f"answers the question ({shown}), but {dangling}"
    else:
        reason = None
        rationale = f"answers the question: {shown}; the quote is self-contained"
    if row["rationale"]:  # the lexical rules' plain reason stays beside the model's score
        rationale += f"; by the rules, {row['rationale']}"
    return {
        **row,
        "verified": reason is None,
        "rejection_reason": reason,
        "rationale": rationale,
        "verifier": f"trained:{gate.version}",
        "score": round(score, 4),
        "threshold": gate.threshold,
        "model_version": gate.version,
    }


@dataclass(frozen=True)
class Gate:
    """The decision on a score: at or above `threshold` (or `lexical`, when set, for a quote the
    lexical rules verify), and (when `margin` is set) no more than `margin` below the question's
    best candidate; `version` is the model's."""

    threshold: float
    version: str
    margin: float | None = None
    lexical: float | None = None


def model_gate(scorer) -> Gate:
    """The gate model.json sets for the model `scorer` runs (models.scores.PairCosines)."""
    info = scorer.model.info
    if info.threshold is None:
        raise ValueError(f"the trained gate needs a threshold in {info.name}'s model.json")
    return Gate(info.threshold, scorer.version, info.margin, info.lexical)


class TrainedVerifier:
    """A model trained here as a `Verifier`."""

    def __init__(self, idf: dict[str, float], score: Scores, gate: Gate) -> None:
        self.weight = TermWeights.of(idf)
        self.score = score
        self.gate = gate

    def verifications(self, pairs: pa.Table) -> pa.Table:
        """A verdict for every candidate pair (columns of sql/answers/candidate_pairs.sql);
        a quote that is not verbatim is rejected without asking the model."""
        records = pairs.to_pylist()
        rows = [verdict(pair, self.weight) for pair in records]
        asked = [i for i, row in enumerate(rows) if row["rejection_reason"] != "not_verbatim"]
        scores = self.score([(records[i]["question"], gate_text(records[i])) for i in asked])
        dangling = {
            i: dangling_reference(records[i]["exact_quote"], records[i]["lead_in_quote"])
            for i in asked
        }
        best: dict[str, float] = {}  # per question, its best candidate the validators pass
        for i, score in zip(asked, scores.tolist(), strict=True):
            question = records[i]["question_id"]
            if not dangling[i]:
                best[question] = max(score, best.get(question, score))
        for i, score in zip(asked, scores.tolist(), strict=True):
            top = best.get(records[i]["question_id"], score)
            rows[i] = judged(rows[i], dangling[i], score, self.gate, top)
        for i in set(range(len(rows))) - set(asked):
            rows[i] = {**rows[i], "verifier": f"trained:{self.gate.version}"}
        return pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)
