"""answers.md says, under each answer, why each quote was verified and why the closest
candidates were not used, in words and escaped; without the gate's verdicts, the answers alone."""

from __future__ import annotations

from markdown_it import MarkdownIt

from groundwork.export.answers_markdown import GateVerdicts, answers_markdown

QUOTE = "A covered entity shall notify each individual within sixty (60) days of discovery."
SOURCE = {
    "question_id": "Q1",
    "requirement_id": "REQ-S0001",
    "label_path": "164.404(b)",
    "exact_quote": QUOTE,
    "citation": "45 CFR § 164.404",
    "title": "Notification to individuals",
    "url": None,
    "source_type": "regulation",
}
ANSWERS = [
    {
        "question_id": "Q1",
        "question": "How fast must a covered entity notify after discovering a breach?",
        "result": "ANSWERED",
        "final_answer": f'1 verified requirement.\n- 45 CFR § 164.404(b): "{QUOTE}" [REQ-S0001]',
        "grounding_confidence": "medium",
        "verified_count": 1,
    },
    {
        "question_id": "Q2",
        "question": "Who must a business associate tell?",
        "result": "NO_AUTHORITATIVE_EVIDENCE",
        "final_answer": "NO_AUTHORITATIVE_EVIDENCE: 2 candidate requirements were checked.",
        "grounding_confidence": "insufficient",
        "verified_count": 0,
    },
]


def rejected(qid: str, rid: str, quote: str, **fields) -> dict:
    """A row of sql/report/closest_rejected.sql."""
    row = {
        "question_id": qid,
        "requirement_id": rid,
        "exact_quote": quote,
        "label_path": "164.410(a)(1)",
        "citation": "45 CFR § 164.410",
        "title": "Notification by a business associate",
        "rejection_reason": "does_not_address_question",
        "rationale": "does not answer the question: score 0.31 < 0.40",
        "score": 0.31,
        "threshold": 0.4,
        "quote_coverage": 0.2,
        "verifier": "trained:relevance-abc",
    }
    return {**row, **fields}


VERDICTS = GateVerdicts(
    cited=[
        {
            "question_id": "Q1",
            "requirement_id": "REQ-S0001",
            "verifier": "trained:relevance-abc",
            "score": 0.912,
            "threshold": 0.4,
            "rationale": "answers the question: score 0.91 ≥ 0.40; the quote is self-contained",
        }
    ],
    rejected=[
        rejected("Q2", "REQ-S0208", "A business associate shall provide " + "the notice " * 20),
        rejected(
            "Q2",
            "REQ-S0209",
            "See [paragraph](javascript:alert(1)) <script>x</script> *now*",
            rejection_reason="incomplete_quote",
            rationale="addresses the question, but it refers the reader elsewhere ('see ...')",
            score=None,
            threshold=None,
            verifier="rules-verifier 1.1",
        ),
        rejected("Q1", "REQ-S0187", "Except as provided in § 164.412, notice is due."),
    ],
    best={"Q1": 0.93, "Q2": 0.35},
)


def test_each_answer_says_why_it_quotes_and_what_it_did_not_use():
    text = answers_markdown("r1", ANSWERS, [SOURCE], VERDICTS)
    q1 = text[text.index("## Q1") : text.index("## Q2")]
    q2 = text[text.index("## Q2") : text.index("## Sources")]
    assert f'"{QUOTE}" [^1]' in q1 and "Why quoted:\n\n- REQ-S0001[^1]: " in q1
    assert (
        "- REQ-S0001[^1]: answers the question: the model reads 0.91, the best "
        "candidate 0.93\n" in q1
    )
    assert "Not used:\n\n- REQ-S0187 (45 CFR § 164.410(a)(1)) " in q1
    assert (
        '"Except as provided in § 164.412, notice is due." — does not answer the question: '
        "the model reads 0.31, the best candidate 0.93; it accepts from 0.40" in q1
    )
    assert "Why quoted" not in q2 and "Not used:" in q2  # a refusal: what was checked
    assert '"A business associate shall provide the notice the notice ' in q2
    assert 'notice the …" — does not answer the question: the model reads 0.31, ' in q2
    assert "the best candidate 0.35" in q2
    assert "refers to text it does not quote: addresses the question, but it refers" in q2
    html = MarkdownIt("commonmark").render(text)
    assert "<script>" not in html and "<a " not in html and "[paragraph](javascript:" in html
    assert "<em>now</em>" not in html and "*now*" in html
    assert "does_not_address_question" not in text and "incomplete_quote" not in text


def test_without_the_gates_verdicts_answers_md_holds_the_answers_alone():
    text = answers_markdown("ask", ANSWERS, [SOURCE])
    assert "Why quoted" not in text and "Not used" not in text
    assert "[^1]: REQ-S0001, 45 CFR § 164.404(b), " in text
