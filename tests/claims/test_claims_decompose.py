"""groundwork/claims/decompose.py: statements cut into self-contained atomic claims, on real
sentences of data/corpus."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwork.claims.decompose import SHORT_WORDS, atomic_claims
from groundwork.text.sentences import sentence_spans
from tests.support.paths import SAMPLE_CORPUS
from tests.support.texts import corpus_text


def texts(text: str) -> list[str]:
    return [c.text for c in atomic_claims(text)]


def test_two_duties_with_a_shared_subject_and_modal_are_two_self_contained_claims():
    statement = (
        "Covered entities must notify individuals within 60 days and notify the Secretary annually."
    )
    claims = atomic_claims(statement)
    assert [c.text for c in claims] == [
        "Covered entities must notify individuals within 60 days",
        "Covered entities must notify the Secretary annually.",
    ]
    assert [c.rewritten for c in claims] == [False, True]
    assert claims[1].source == "notify the Secretary annually."


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (  # 42 U.S.C. 17932(e)(3): the opening condition travels with the second duty
            "If the breach was with respect to less than 500 individuals, the covered entity may "
            "maintain a log of any such breach occurring and annually submit such a log to the "
            "Secretary documenting such breaches occurring during the year involved.",
            [
                "If the breach was with respect to less than 500 individuals, the covered entity "
                "may maintain a log of any such breach occurring",
                "If the breach was with respect to less than 500 individuals, the covered entity "
                "may annually submit such a log to the Secretary documenting such breaches "
                "occurring during the year involved.",
            ],
        ),
        (  # 45 CFR § 164.408(c): the aside with the deadline stays with its duty
            "For breaches of unsecured protected health information involving less than 500 "
            "individuals, a covered entity shall maintain a log or other documentation of such "
            "breaches and, not later than 60 days after the end of each calendar year, provide "
            "the notification required by paragraph (a) of this section for breaches discovered "
            "during the preceding calendar year, in the manner specified on the HHS web site.",
            [
                "For breaches of unsecured protected health information involving less than 500 "
                "individuals, a covered entity shall maintain a log or other documentation of "
                "such breaches",
                "For breaches of unsecured protected health information involving less than 500 "
                "individuals, a covered entity shall, not later than 60 days after the end of "
                "each calendar year, provide the notification required by paragraph (a) of this "
                "section for breaches discovered during the preceding calendar year, in the manner "
                "specified on the HHS web site.",
            ],
        ),
        (  # N.Y. Mental Hygiene Law § 33.13(c): modal conjuncts share the subject
            "(c) Such application shall contain a statement of the facts upon which the "
            "allegation of mental illness and need for care and treatment are based and shall be "
            "executed under penalty of perjury but shall not require the signature of a notary "
            "public thereon.",
            [
                "(c) Such application shall contain a statement of the facts upon which the "
                "allegation of mental illness and need for care and treatment are based",
                "(c) Such application shall be executed under penalty of perjury",
                "(c) Such application shall not require the signature of a notary public thereon.",
            ],
        ),
    ],
)
def test_corpus_sentences_with_coordinated_duties(sentence, expected):
    assert sentence in corpus_text()
    assert texts(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        # lists of objects and recipients, "or" alternatives, shared objects
        "The notification required by paragraph (a) of this section shall be written in plain "
        "language.",
        "A covered entity may not require individuals to waive their rights under § 160.306 of "
        "this subchapter, this subpart, or subpart D of this part, as a condition of the "
        "provision of treatment, payment, enrollment in a health plan, or eligibility for "
        "benefits.",
    ],
)
def test_lists_and_alternatives_are_not_cut(sentence):
    assert sentence in corpus_text()
    assert texts(sentence) == [sentence]


def test_a_list_of_objects_is_one_claim():
    statement = "The notice must list the names, addresses and phone numbers of the individuals."
    assert texts(statement) == [statement]


def test_a_list_of_recipients_is_one_claim():
    statement = (
        "A covered entity shall notify each affected individual and the Secretary of the breach."
    )
    assert texts(statement) == [statement]


@pytest.mark.parametrize(
    ("statement", "second"),
    [
        (
            "A business associate must notify the covered entity of a breach. It must do so "
            "without unreasonable delay.",
            "A business associate must do so without unreasonable delay.",
        ),
        (
            "Covered entities must keep a log of small breaches. They shall submit the log to "
            "the Secretary each year.",
            "Covered entities shall submit the log to the Secretary each year.",
        ),
        (
            "A health plan must accommodate reasonable requests for confidential communications. "
            "Such entity may require the request to be in writing.",
            "A health plan may require the request to be in writing.",
        ),
    ],
)
def test_a_pronoun_subject_becomes_the_previous_actor(statement, second):
    assert texts(statement)[1] == second


def test_a_pronoun_after_but_becomes_the_sentence_subject():
    statement = (
        "The Commission may not grant a continuance for counsel to prepare his case for more "
        "than 5 days, but it may grant continuances for good cause shown for periods of up to "
        "14 days."
    )
    assert texts(statement)[1] == (
        "The Commission may grant continuances for good cause shown for periods of up to 14 days."
    )


def test_a_short_statement_stays_whole():
    statement = "Covered entities must notify and document."
    assert len(statement.split()) <= SHORT_WORDS
    assert texts(statement) == [statement]


def test_sentences_are_claims_of_their_own():
    statement = (
        "The covered entity may prepare a written rebuttal to the individual's statement of "
        "disagreement. Whenever such a rebuttal is prepared, the covered entity must provide a "
        "copy to the individual who submitted the statement of disagreement."
    )
    claims = atomic_claims(statement)
    assert len(claims) == 2
    assert all(not c.rewritten for c in claims)


def test_empty_text_has_no_claims():
    assert atomic_claims("   ") == []


@cache
def _corpus_sentences() -> list[str]:
    sentences = []
    for path in sorted((SAMPLE_CORPUS / "statutes").rglob("*.md"))[:30]:
        for paragraph in path.read_text(encoding="utf-8").split("\n"):
            sentences += [paragraph[s:e] for s, e in sentence_spans(paragraph)]
    return [s for s in sentences if len(s.split()) > 3][::2]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_offsets_lie_inside_the_text_in_order_and_source_is_the_slice(data):
    sentences = data.draw(st.lists(st.sampled_from(_corpus_sentences()), min_size=1, max_size=3))
    text = " ".join(sentences)
    claims = atomic_claims(text)
    assert claims
    previous_end = 0
    for claim in claims:
        assert 0 <= claim.start < claim.end <= len(text)
        assert claim.start >= previous_end
        assert text[claim.start : claim.end] == claim.source
        assert claim.text.strip()
        previous_end = claim.end


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_claim_keeps_the_words_it_was_cut_from(data):
    """Rewriting only adds a subject and modal in front or replaces a pronoun subject (at most
    three words): the rest of the source ends the claim's text."""
    text = data.draw(st.sampled_from(_corpus_sentences()))
    for claim in atomic_claims(text):
        tail = claim.source.split()[3:]
        assert claim.text.split()[len(claim.text.split()) - len(tail) :] == tail
