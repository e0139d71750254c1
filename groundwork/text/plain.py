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
# Why one candidate was not used, said of it alone beside its quote (REJECTIONS counts many).
REJECTED_BECAUSE = {
    "does_not_address_question": "does not answer the question",
    "requires_inference": "only the surrounding text answers it",
    "incomplete_quote": "refers to text it does not quote",
    "not_verbatim": "is not verbatim in its source",
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


def model_reading(score: float, best: float | None) -> str:
    """The gate model's score of a quote in words, beside the question's best candidate's:
    a score means little alone, and next to the best a reader sees how near the quote came."""
    beside = f", the best candidate {best:.2f}" if best is not None else ""
    return f"the model reads {score:.2f}{beside}"


def verified_because(verdict: dict, question: str, best: float | None) -> str:
    """Why a requirement was verified for a question, from its verification row: the relevance
    model's reading beside the question's best (`best`: the highest score of its candidates),
    with the question's words the quote holds where the reading is under the threshold (the
    gate accepts those at a lower one), or those words alone (the lexical rules)."""
    verifier = verdict.get("verifier") or ""
    score, threshold = verdict.get("score"), verdict.get("threshold")
    matched = verdict.get("matched_terms")
    holds = ""
    if matched:
        words = ", ".join(surface_words(question, list(matched)))
        share = verdict.get("quote_coverage") or 0.0
        holds = f"the quote holds the question's words {words} ({share:.0%} of their weight)"
    if score is not None:
        said = f"answers the question: {model_reading(score, best)}"
        if threshold is not None and score < threshold and holds:  # the gate's lower threshold
            said += f", under its threshold {setting(threshold)}, and {holds}"
        return said
    if verifier.startswith("rules") and holds:
        return holds
    return verdict.get("rationale") or "verified for this question"


def rejected_because(verdict: dict, best: float | None) -> str:
    """Why a candidate requirement was not used, from its verification row: the reason in plain
    words, then the gate model's reading against what it accepts where the model turned
    it down, else the verifier's own rationale (the words it found, the reference it lacks).

    A quote the model reads at or above its threshold was turned down for standing too far
    below the question's best candidate (the gate's margin), and says so: "it accepts from
    0.505" beside a reading of 0.61 would not explain it."""
    reason = verdict["rejection_reason"]
    plain = REJECTED_BECAUSE.get(reason, reason.replace("_", " "))
    score, threshold = verdict.get("score"), verdict.get("threshold")
    if reason == "does_not_address_question" and score is not None and threshold is not None:
        if score >= threshold:
            return f"another candidate answers the question better: {model_reading(score, best)}"
        return f"{plain}: {model_reading(score, best)}; it accepts from {setting(threshold)}"
    return f"{plain}: {verdict['rationale']}"


def setting(value: float) -> str:
    """A threshold or margin as it was set, to three places where it has them (0.505, not
    0.51; 0.40): rounded to two, a threshold could read as the reading it turned down."""
    shown = f"{value:.3f}"
    return shown[:-1] if shown.endswith("0") else shown


def quote_opening(quote: str, words: int = 16) -> str:
    """The first `words` words of a quote, with "…" where it is cut: enough to know it again
    where the whole quote would crowd out what is said about it."""
    parts = quote.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + " …"
