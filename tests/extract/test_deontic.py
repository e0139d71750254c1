"""Unit and property tests for the offline rules engine (groundwork.extract.deontic).

The sentences are real statutory and regulatory text (45 CFR 164, 12 CFR 1016, NY Mental
Hygiene Law, EU acts) copied inline so the tests do not depend on the shared corpus.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwork.extract.deontic import (
    DeonticClause,
    deontic_clauses,
    is_requirement,
)
from groundwork.extract.phrases import ends_inside, starts_inside


def only_clause(text: str) -> DeonticClause:
    """The single clause found in text (fails the test if there is not exactly one)."""
    clauses = deontic_clauses(text)
    assert len(clauses) == 1, clauses
    return clauses[0]


def quote(text: str, clause: DeonticClause) -> str:
    """The verbatim quote a clause points at."""
    return text[clause.start : clause.end]


def test_short_quote_extends_to_a_sentence_start_never_mid_sentence() -> None:
    text = (
        "Each office shall keep written protocols for the handling of behavioral health crises. "
        "The protocols shall be designed to:"
    )
    clauses = deontic_clauses(text)
    assert len(clauses) == 2
    assert all(c.start == 0 or text[c.start - 2 : c.start] == ". " for c in clauses)
    long_lead = "word " * 45 + "ends here. The protocols shall be designed to:"
    short = deontic_clauses(long_lead)[-1]
    assert long_lead[short.start : short.end] == "The protocols shall be designed to:"
    assert short.confidence == "low"


def test_a_quote_never_opens_after_a_reference_to_a_paragraph() -> None:
    """ "paragraph (e)(1)" is a reference, not a list label: the quote keeps its condition."""
    text = (
        "(2) Delivery of annual privacy notice. If you have been excepted from delivering an "
        "annual privacy notice pursuant to paragraph (e)(1) of this section and change your "
        "policies or practices in such a way that you no longer meet the requirements for that "
        "exception, you must comply with paragraph (e)(2)(i) or (e)(2)(ii) of this section, as "
        "applicable."
    )
    assert quote(text, only_clause(text)).startswith("If you have been excepted")


# --- modalities -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "modality", "trigger", "subject"),
    [
        (
            "(a) A covered entity must retain the documentation required by paragraph (b)(1) "
            "of this section for six years from the date of its creation.",
            "obligation",
            "must",
            "A covered entity",
        ),
        (
            "The Secretary shall promulgate regulations establishing the procedures for the "
            "imposition of civil money penalties under this section.",
            "obligation",
            "shall",
            "The Secretary",
        ),
        (
            "A covered entity may not use or disclose protected health information, except as "
            "permitted or required by this subpart.",
            "prohibition",
            "may not",
            "A covered entity",
        ),
        (
            "The director shall not release any record of a patient to a person other than the "
            "patient without the written consent of the patient.",
            "prohibition",
            "shall not",
            "The director",
        ),
        (
            "No person shall disclose the identity of a patient except as provided in this "
            "section.",
            "prohibition",
            "shall",
            "No person",
        ),
        (
            "It is unlawful for any person to knowingly disclose individually identifiable "
            "health information in violation of this part.",
            "prohibition",
            "It is unlawful",
            "any person",
        ),
        (
            "A covered entity may disclose protected health information for treatment "
            "activities of a health care provider.",
            "permission",
            "may",
            "A covered entity",
        ),
        (
            "Each financial institution is required to provide an annual privacy notice to "
            "each customer during the continuation of the customer relationship.",
            "obligation",
            "is required to",
            "Each financial institution",
        ),
        (
            "The commissioner is authorized to enter into agreements with other states for the "
            "care and treatment of nonresidents.",
            "permission",
            "is authorized to",
            "The commissioner",
        ),
    ],
)
def test_modality_trigger_and_subject(text: str, modality: str, trigger: str, subject: str) -> None:
    clause = only_clause(text)
    assert (clause.modality, clause.trigger, clause.subject) == (modality, trigger, subject)
    assert clause.confidence == "high"


@pytest.mark.parametrize(
    ("text", "modality"),
    [
        ("You should submit leave requests at least three business days in advance.", "obligation"),
        ("If you're taking time off, you'll need to make sure you're accounted for.", "obligation"),
        ("We have to make sure the outside speaker is not here for a sales pitch.", "obligation"),
        ("For all acquisitions, it is critical to obtain FITARA approval first.", "obligation"),
        ("You should not share your password with anyone on the team.", "prohibition"),
    ],
)
def test_a_duty_addressed_to_the_reader_is_a_medium_requirement(text: str, modality: str) -> None:
    clause = only_clause(text)
    assert clause.modality == modality
    assert clause.confidence in {"medium", "low"}


@pytest.mark.parametrize(
    "text",
    [
        "Once you open this link, you should see all of the parts of your itinerary below.",
        "If you need to travel by both air and rail, call AdTrav before you book anything.",
        "Should you need to rebook your travel at any point, read the instructions here.",
        "The type of violation will inform what steps you need to take next on the trip.",
        "Do you need to book a hotel through Concur for a trip of one night or more?",
    ],
)
def test_what_happens_conditions_and_questions_address_no_duty(text: str) -> None:
    assert deontic_clauses(text) == []


def test_a_quote_opens_after_a_bullet() -> None:
    text = "* You need to be approved for PPL before being able to use it."
    assert quote(text, only_clause(text)) == text[2:]


def test_is_responsible_for_is_a_medium_obligation() -> None:
    clause = only_clause(
        "Your supervisor is responsible for approving or denying your Weather and Safety Leave "
        "request within two working days."
    )
    assert (clause.modality, clause.confidence) == ("obligation", "medium")


def test_agentless_passive_is_medium_and_named_agent_is_high() -> None:
    agentless = only_clause(
        "Records must be retained for six years from the date of creation or the date when "
        "last in effect."
    )
    with_agent = only_clause(
        "An authorisation for transit shall be granted by the competent authority of the "
        "Member State where the exporter is established."
    )
    assert (agentless.confidence, with_agent.confidence) == ("medium", "high")


def test_stative_wording_is_low() -> None:
    clause = only_clause(
        "The notification required by paragraph (a) of this section shall include a brief "
        "description of what happened."
    )
    assert (clause.modality, clause.confidence) == ("obligation", "low")


def test_trigger_in_a_condition_is_low_and_the_main_rule_wins() -> None:
    condition = "If you are required to provide an opt out notice under this section, you"
    assert only_clause(condition + " may also provide it electronically.").confidence == "high"
    clause = only_clause(condition + " must provide it to each consumer.")
    assert (clause.trigger, clause.subject, clause.confidence) == ("must", "you", "high")
    lone = only_clause("Notices are sent only if you are required to provide them to consumers.")
    assert (lone.trigger, lone.confidence) == ("are required to", "low")


# --- false-positive families ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # definitions
        '(3) "Breach" means the acquisition, access, use, or disclosure of protected health '
        "information in a manner not permitted under subpart E which compromises its security.",
        '(5) "Temporary operator" shall mean any provider of services that has been '
        "established and issued an operating certificate pursuant to this article.",
        "The term health care clearinghouse shall include any public or private entity that "
        "processes health information.",
        "As used in this article, the following terms shall have the meanings set forth below:",
        # entry into force and application dates
        "Entry into force This Regulation shall enter into force on the twentieth day following "
        "that of its publication in the Official Journal of the European Union.",
        "It shall apply from 1 January 2021.",
        "This Decision shall take effect on the day of its notification.",
        # scope statements
        "This part shall apply to covered entities and business associates in the manner "
        "provided in this subpart.",
        "Paragraph (1) shall not apply in the following cases:",
        # deeming
        "The substantial modification shall be deemed to be authorised in that Member State.",
        # amendments and repeal
        "Implementing Regulation (EU) No 1030/2014 is amended as follows: Article 1 shall be "
        "replaced by the following text.",
        "Regulation (EC) No 1234/2007 shall be repealed with effect from 1 January 2014.",
        # rules of construction
        "Nothing in this section shall be construed to limit the authority of the Secretary.",
        "Paragraph 1 shall not affect commitments established prior to 1 December 2011.",
        "This Article shall be without prejudice to applicable national rules concerning "
        "confidentiality.",
        # reserved stubs and headings
        "§ 164.105 [Reserved]",
        "## What you must do",
        "# § 164.530 Administrative requirements that must be met",
        # citation and epistemic may
        "This chapter may be cited as the Mental Health Consumers' Rights Protection Act of 2001.",
        "An investigation under this section may include a review of the pertinent policies, "
        "procedures, or practices of the covered entity.",
        "The risk of harm may be higher where the information was disclosed to a third party.",
        "the nature of the voluntary or informal status, as the case may be.",
    ],
)
def test_non_operative_modal_wording_yields_no_clause(text: str) -> None:
    assert deontic_clauses(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "A person may apply to a public or private hospital, the Department, or any mental health "
        "provider in the District of Columbia to become a voluntary patient.",
        "The court evaluator may apply to the court for permission to inspect records.",
        "Any operator that is unable to submit such cost report may apply for a waiver of such "
        "required submission from the commissioner.",
    ],
)
def test_may_apply_for_something_is_a_permission(text: str) -> None:
    clause = only_clause(text)
    assert (clause.modality, clause.confidence) == ("permission", "high")


def test_may_apply_to_someone_only_says_what_is_possible() -> None:
    text = (
        "Sanctions imposed by other jurisdictions may apply to a Relevant Person depending on it."
    )
    assert deontic_clauses(text) == []


def test_relative_clause_may_is_not_a_permission() -> None:
    assert (
        deontic_clauses("(d) Information that may be disclosed to a personal representative.") == []
    )


# --- quotes -----------------------------------------------------------------------------------

LONG = (
    "(b) Standard: Notification to individuals. A covered entity shall, following the "
    "discovery of a breach of unsecured protected health information, notify each individual "
    "whose unsecured protected health information has been, or is reasonably believed by the "
    "covered entity to have been, accessed, acquired, used, or disclosed as a result of such "
    "breach, and the notice shall be written in plain language."
)


def test_a_long_sentence_is_quoted_whole_rather_than_cut_at_40_words() -> None:
    """Issue 19: the quote used to stop at the 40th word ("... acquired, used"); a sentence
    with no boundary inside the budget is now kept whole, both of its duties in one quote."""
    clauses = deontic_clauses(LONG)
    first = clauses[0]
    text = quote(LONG, first)
    assert text.startswith("A covered entity shall, following the discovery")
    assert text.endswith("shall be written in plain language.")
    assert len(text.split()) > 40
    assert first.subject == "A covered entity"
    assert len(clauses) == 1


def test_quote_is_cut_at_a_clause_boundary_without_dangling_punctuation() -> None:
    text = quote(LONG, deontic_clauses(LONG)[0])
    assert not text.endswith((",", ";", " and", " or"))
    assert LONG.find(text) >= 0


def test_short_sentence_extends_back_over_label_and_heading() -> None:
    text = "(c) Implementation specification: Retention. A covered entity must keep records."
    clause = only_clause(text)
    assert quote(text, clause) == text
    assert clause.confidence == "high"


def test_fragment_under_ten_words_is_low() -> None:
    clause = only_clause("The plan shall be renewable.")
    assert clause.confidence == "low"
    assert quote("The plan shall be renewable.", clause) == "The plan shall be renewable."


def test_abbreviations_do_not_split_sentences() -> None:
    text = (
        "Pursuant to 42 U.S.C. 1320d-2, e.g. for standard transactions, the Secretary shall "
        "adopt standards under Sec. 1173 of the Act."
    )
    assert quote(text, only_clause(text)) == text


def test_several_sentences_give_ordered_clauses() -> None:
    text = (
        "(e) The covered entity must provide the individual with a timely, written denial. "
        "The denial must be written in plain language. A covered entity may charge a "
        "reasonable, cost-based fee for the copy."
    )
    clauses = deontic_clauses(text)
    assert [c.modality for c in clauses] == ["obligation", "obligation", "permission"]
    assert [c.confidence for c in clauses] == ["high", "low", "high"]
    assert all(a.end <= b.start for a, b in itertools.pairwise(clauses))


# --- list lead-ins ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "(a) A covered entity or business associate must, in accordance with § 164.306:",
        "The notification required by paragraph (a) of this section shall be written in plain "
        "language and shall include, to the extent possible, the following:",
        "(d) The administrative law judge must dismiss a hearing request where—",
    ],
)
def test_lead_in_opens_a_list(text: str) -> None:
    assert deontic_clauses(text)[-1].opens_list


def test_complete_sentence_does_not_open_a_list() -> None:
    assert not only_clause(LONG.split(", and")[0] + ".").opens_list


# --- sentence-level decision ------------------------------------------------------------------


def test_is_requirement_counts_bound_duties_only() -> None:
    assert is_requirement("The Commission shall notify the sponsor of its decision within 10 days.")
    assert is_requirement("Providers of online platforms shall not design their interfaces so.")
    assert not is_requirement("A covered entity may disclose protected health information.")
    assert not is_requirement("The amended product specification shall be drawn up in writing.")
    assert not is_requirement("It shall apply from 1 July 2017.")


# --- properties -------------------------------------------------------------------------------

FRAGMENTS = [
    "shall",
    "shall not",
    "must",
    "may",
    "may not",
    "is required to",
    "It is unlawful for",
    "No person",
    "The Secretary",
    "a covered entity",
    "be deemed",
    "be",
    "by the",
    "notify",
    "include",
    "apply",
    "that",
    "if",
    "and",
    "(a)",
    "(1)(i)",
    "1.",
    "U.S.C.",
    "e.g.",
    "§ 164.404(a).",
    ",",
    ";",
    ":",
    ".",
    "—",
    "--",
    '"term" means',
    "[Reserved]",
]
legal_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)),
    max_size=60,
).flatmap(
    lambda parts: st.lists(
        st.sampled_from([" ", "  ", "", "\t", " \u00a0"]), min_size=len(parts), max_size=len(parts)
    ).map(lambda gaps: "".join(g + p for g, p in zip(gaps, parts, strict=True)))
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(legal_text, st.text(max_size=300)))
def test_clauses_are_trimmed_ordered_and_in_range(text: str) -> None:
    clauses = deontic_clauses(text)
    previous_end = 0
    for clause in clauses:
        assert 0 <= previous_end <= clause.start < clause.end <= len(text)
        span = text[clause.start : clause.end]
        assert span == span.strip()
        assert clause.trigger in span
        assert not ends_inside(text, clause.end) and not starts_inside(text, clause.start)
        assert clause.modality in {"obligation", "prohibition", "permission"}
        assert clause.confidence in {"high", "medium", "low"}
        assert clause.subject is None or clause.subject in text
        assert len(span.split()) >= 10 or clause.confidence == "low"
        previous_end = clause.end
    assert is_requirement(text) == any(
        c.modality != "permission" and c.confidence == "high" for c in clauses
    )


def test_padded_markdown_table_cells_do_not_stall_the_rules() -> None:
    """A GSA table row padded with hundreds of spaces once sent a regex into exponential time."""
    row = "| Staff must report incidents" + " " * 466 + "| within 1 hour" + " " * 466 + "|"
    clauses = deontic_clauses(row)
    assert [c.trigger for c in clauses] == ["must"]


@pytest.mark.parametrize(
    ("text", "modality", "trigger"),
    [
        ("You can request up to 240 hours of advanced sick leave.", "permission", "You can"),
        (
            "If you make the maximum salary, you cannot receive overtime or comp time.",
            "prohibition",
            "you cannot",
        ),
        (
            "Unfortunately, we can not compensate guests for their time.",
            "prohibition",
            "we can not",
        ),
        (
            "If you are relocating for 120 days or less, you do not need to notify PeopleOps.",
            "permission",
            "you do not need to",
        ),
        (
            "Teleworking from locations outside the U.S. while on personal travel is not allowed.",
            "prohibition",
            "is not allowed",
        ),
        ("Use of the GSA travel card is mandatory for all expenses.", "obligation", "is mandatory"),
        (
            "An individual has the right to have a covered entity amend protected health "
            "information about the individual.",
            "permission",
            "has the right to",
        ),
    ],
)
def test_leave_and_its_absence_addressed_to_the_reader(
    text: str, modality: str, trigger: str
) -> None:
    """A policy grants or withholds leave in the second person ("You can request ...", "you
    cannot receive ...", "you do not need to ..."), and states a ban or a duty of a thing done
    ("... is not allowed", "... is mandatory"); a statute grants a right ("has the right to")."""
    clause = only_clause(text)
    assert (clause.modality, clause.trigger) == (modality, trigger)


@pytest.mark.parametrize(
    "text",
    [
        "You can find the form on the intranet.",
        "You can simply go to the Travel tab of Concur.",
        "If you can't attend, tell your supervisor.",
        "(4) Disclosure table (“Reasons we can share your personal information”).",
        "Whether providing the information is mandatory or voluntary is stated on the form.",
        "An inmate does not have a right to notice under this section.",
        "That the consumer has the right to opt out of that disclosure; and",
    ],
)
def test_where_how_a_title_a_right_denied_or_stated_as_content_grant_no_leave(text: str) -> None:
    assert deontic_clauses(text) == []
