"""Words for people: the pipeline's codes and index terms as a reader says them.

The tables keep their codes (`does_not_address_question`, stems like "discov"), which SQL and
dashboards group by; what an answer, the report or an auditor reads is said in words, with the
question's own words for its terms.
"""

from __future__ import annotations

from collections import Counter

from groundwork.text.terms import surface_words

# Why a candidate requirement was not verified (schemas/verifications.REJECTION_REASONS).
REJECTIONS = {
    "does_not_address_question": "did not address the question",
    "requires_inference": "addressed it only together with the text around the quote",
    "incomplete_quote": "addressed it but do not stand on their own (they lean on text outside)",
    "not_verbatim": "were not verbatim in their source",
    "verifier_unavailable": "could not be checked (the verifying model was unavailable)",
}


def topic_words(topic: str | None) -> str:
    """A topic slug as words: "breach-notification" -> "breach notification"."""
    return (topic or "").replace("-", " ").replace("_", " ").strip()


def rejections_text(rejected: Counter) -> str:
    """How many candidates were checked and why none was verified, in words."""
    total = sum(rejected.values())
    if not total:
        return "No candidate requirement was retrieved for it."
    why = "; ".join(
        f"{n} {REJECTIONS.get(reason, reason.replace('_', ' '))}"
        for reason, n in rejected.most_common()
    )
    return f"{total} candidate requirement{'s were' if total != 1 else ' was'} checked: {why}."


def verified_because(citation: dict, question: str) -> str:
    """Why a requirement was verified for a question, from its verification row: the relevance
    model's score against its threshold, or the question's words the quote holds."""
    verifier = citation.get("verifier") or ""
    score, threshold = citation.get("score"), citation.get("threshold")
    if verifier.startswith("trained") and score is not None and threshold is not None:
        return (
            f"the relevance model scores the quote {score:.2f} for this question "
            f"(verified from {threshold:.2f})"
        )
    matched = citation.get("matched_terms")
    if verifier.startswith("rules") and matched:
        words = ", ".join(surface_words(question, list(matched)))
        share = citation.get("quote_coverage") or 0.0
        return f"the quote holds the question's words {words} ({share:.0%} of their weight)"
    return citation.get("rationale") or "verified for this question"
