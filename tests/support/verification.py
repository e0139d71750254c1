"""A candidate pair as sql/answers/candidate_pairs.sql gives the grounding gate: one breach
notification paragraph, a quote of it and a question, for the gate's tests."""

from __future__ import annotations

CHUNK = (
    "(b) Timeliness of notification. Except as provided in § 164.412, a covered entity shall "
    "provide the notification without unreasonable delay and in no case later than 60 "
    "calendar days after discovery of a breach."
)
QUOTE = CHUNK[CHUNK.index("Except") :]


def pair(question: str, quote: str = QUOTE, chunk: str = CHUNK, lead_in: str | None = None) -> dict:
    """The candidate (question, requirement, chunk) row the gate judges."""
    return {
        "question_id": "Q",
        "question": question,
        "chunk_rank": 1,
        "chunk_id": "c",
        "chunk_start": 100,
        "chunk_text": chunk,
        "requirement_id": "REQ-S0001",
        "exact_quote": quote,
        "char_start": 100 + chunk.index(quote[:30]),
        "char_end": 100 + chunk.index(quote[:30]) + len(quote),
        "lead_in_quote": lead_in,
        "modality": "obligation",
    }
