"""The extract stage: offsets into the document, enumerated items carrying their lead-in."""

from __future__ import annotations

from groundwork.extract import worker_extractor
from groundwork.extract.rules import RulesExtractor, normalised_quote
from groundwork.extract.trained import TrainedExtractor
from schemas.config import ModelBackend, RunConfig
from tests.support.extraction import extracted
from tests.support.texts import BREACH, CFR

REVOCATION = """(5) An individual may revoke an authorization provided under this section at any time, provided that the revocation is in writing, except to the extent that:

(i) The covered entity has taken action in reliance thereon; or

(ii) If the authorization was obtained as a condition of obtaining insurance coverage."""


def test_quotes_are_verbatim_at_document_offsets():
    rows = extracted(BREACH, "45 CFR § 164.404", max_chars=300)
    assert rows
    for r in rows:
        assert BREACH[r["char_start"] : r["char_end"]] == r["exact_quote"]
        assert len(r["exact_quote"].split()) <= 40


def test_enumerated_items_carry_the_lead_in():
    rows = extracted(BREACH, "45 CFR § 164.404")
    items = [r for r in rows if r["lead_in_quote"]]
    assert [r["label_path"] for r in items] == ["164.404(c)(1)(A)", "164.404(c)(1)(B)"]
    lead = items[0]
    assert "shall include" in lead["lead_in_quote"]
    assert BREACH[lead["lead_in_start"] : lead["lead_in_end"]] == lead["lead_in_quote"]
    assert lead["exact_quote"].startswith("A brief description of what happened")
    assert (lead["modality"], lead["trigger"]) == ("obligation", "shall")


def test_items_survive_a_chunk_boundary():
    rows = extracted(CFR, "45 CFR § 164.308", max_chars=200)
    items = {r["label_path"]: r for r in rows if r["lead_in_quote"]}
    assert "164.308(a)(1)(ii)(A)" in items
    assert items["164.308(a)(1)(ii)(A)"]["exact_quote"].startswith("Risk analysis (Required).")
    assert "164.308(a)(1)(ii)" not in items  # "Implementation specifications:" is a sub-heading


def test_conditions_after_that_are_not_requirements():
    rows = extracted(REVOCATION)
    assert [r["modality"] for r in rows] == ["permission"]
    assert rows[0]["lead_in_quote"] is None


def test_normalised_quote_ignores_case_punctuation_and_spacing():
    assert normalised_quote("A covered  entity SHALL notify;") == "a covered entity shall notify"


CONTROL = """# IR-06 Incident Reporting

a. Require personnel to report suspected incidents to the organizational incident response capability within [Assignment: organization-defined time period] ; and

b. Report incident information to [Assignment: organization-defined authorities].

c. Report of the review board.

- Use passwords that are hard to guess even for people who know you."""


def test_imperative_list_items_are_obligations():
    rows = extracted(CONTROL)
    assert [(r["trigger"], r["modality"], r["extraction_confidence"]) for r in rows] == [
        ("Require", "obligation", "medium"),
        ("Report", "obligation", "medium"),
        ("Use", "obligation", "medium"),
    ]
    assert rows[0]["label_path"] == "(a)"


STATEMENT = """# IR-08 Incident Response Plan

Develop, monitor, and report on the results of information security and privacy measures of performance.

Include the following in the Incident Response Plan for breaches involving personally identifiable information:

a. A process to determine if notice to individuals or other organizations is needed; and

b. An assessment process to determine the extent of the harm for affected individuals.

Use means, with respect to individually identifiable health information, the sharing of such information.

Follow TTS Incident Response Plan

Back from your trip? Head on over to get reimbursed!"""


def test_an_imperative_paragraph_is_an_obligation_and_the_lead_in_of_its_items():
    rows = extracted(STATEMENT)
    assert [(r["trigger"], r["lead_in_quote"] is not None) for r in rows] == [
        ("Develop", False),
        ("Include", True),
        ("Include", True),
    ]
    assert rows[1]["lead_in_quote"].endswith("involving personally identifiable information:")
    assert STATEMENT[rows[1]["lead_in_start"] : rows[1]["lead_in_end"]] == rows[1]["lead_in_quote"]
    assert [r["exact_quote"][:8] for r in rows[1:]] == ["A proces", "An asses"]


def test_each_quote_carries_its_whole_sentence_at_document_offsets():
    rows = extracted(BREACH, "45 CFR § 164.404", max_chars=300)
    for r in rows:
        assert r["sentence_start"] <= r["char_start"] < r["char_end"] <= r["sentence_end"]
        assert "\n" not in BREACH[r["sentence_start"] : r["sentence_end"]]
    plain = next(r for r in rows if "plain language" in r["exact_quote"])
    assert BREACH[plain["sentence_start"] : plain["sentence_end"]] == (
        "The notification required by paragraph (a) of this section shall be written in plain "
        "language."
    )


def test_a_complete_clause_past_40_words_is_kept_whole_and_flagged():
    long = (
        "A covered entity shall notify each individual whose unsecured protected health "
        "information has been, or is reasonably believed by the covered entity to have been, "
        "accessed, acquired, used, or disclosed as a result of such breach, in writing, by "
        "first-class mail, at the last known address of the individual."
    )
    (row,) = extracted(long)
    assert row["exact_quote"] == long and row["long_quote"]
    assert not any(r["long_quote"] for r in extracted(BREACH, max_chars=300))


def test_two_joined_directive_verbs_are_an_imperative_and_a_verb_and_a_noun_are_not():
    """ "Review and approval" names a task, "Use or Lose" a term: neither directs."""
    text = """# CA-01 Policy and Procedures

c. Review and update the current assessment, authorization, and monitoring policy annually.

d. Review and approval of the plan by the authorizing official.

Use or Lose is the number of annual leave hours you would forfeit at the end of the year."""
    (row,) = extracted(text)
    assert row["trigger"] == "Review" and row["exact_quote"].startswith("Review and update")


GRANT = """# § 300x–27. Treatment services for pregnant women

(a) In general

A funding agreement for a grant under section 300x–21 of this title is that the State involved

(1) will ensure that each pregnant woman in the State who seeks such services is given preference in admissions to treatment facilities; and

(2) will publicize the availability to such women of services from the facilities.

(b) Referrals regarding States

A funding agreement for a grant under section 300x–21 of this title is that, in carrying out subsection (a)(1)

(1) the State involved will require that a treatment facility with insufficient capacity refer the woman to the State.

(c) Restrictions

A funding agreement for a grant under section 300x of this title is that the State involved will not expend the grant to make cash payments to intended recipients of health services."""


def test_a_grants_funding_agreement_binds_the_state_and_leads_its_items():
    rows = [r for r in extracted(GRANT) if r["is_requirement"]]
    items = [r for r in rows if r["lead_in_quote"]]
    assert [r["exact_quote"][:9] for r in items] == ["will ensu", "will publ", "the State"]
    assert items[2]["lead_in_quote"].endswith("in carrying out subsection (a)(1)")
    (ban,) = [r for r in rows if not r["lead_in_quote"]]
    assert ban["modality"] == "prohibition" and ban["exact_quote"].endswith("health services.")


ITEMS_ON_THEIR_MODAL = """# § 164.530 Administrative requirements

(g) Standard: Refraining from intimidating or retaliatory acts. A covered entity--

(1) May not intimidate, threaten, coerce, discriminate against, or take other retaliatory action against any individual for the filing of a complaint; and

(2) Must refrain from intimidation and retaliation as provided in § 160.316 of this subchapter.

(h) Compliance dates. May 1, 2003 is the date on which the reports of small health plans are first due, and they are due in May of each year after.

(i) Former customers. You are not required to provide an annual notice to a former customer."""


def test_items_opening_on_their_modal_bind_with_their_subject_and_not_required_exempts():
    rows = [r for r in extracted(ITEMS_ON_THEIR_MODAL) if r["is_requirement"]]
    assert [(r["trigger"], r["modality"]) for r in rows] == [
        ("May not", "prohibition"),
        ("Must", "obligation"),
        ("are not required", "permission"),
    ]
    subject = rows[0]["lead_in_quote"]  # the lead-in names who the items bind
    assert subject.endswith("A covered entity--") and rows[1]["lead_in_quote"] == subject
    assert rows[2]["lead_in_quote"] is None


ITEMS_COMPLETING_THE_MODAL = """# § 164.404 Notification to individuals

(ii) In the case in which there is insufficient or out-of-date contact information for 10 or more individuals, then such substitute notice shall:

(A) Be in the form of either a conspicuous posting for a period of 90 days on the home page of the Web site of the covered entity involved; and

(B) Include a toll-free phone number that remains active for at least 90 days where an individual can learn whether the individual's unsecured protected health information may be included in the breach.

(C) The Secretary may publish a list of the notices so posted."""


def test_an_item_completing_its_lead_ins_modal_is_its_duty_whatever_modal_it_holds():
    rows = [r for r in extracted(ITEMS_COMPLETING_THE_MODAL) if r["is_requirement"]]
    assert [(r["exact_quote"][:10], r["modality"]) for r in rows] == [
        ("Be in the ", "obligation"),
        # "may be included" is in a clause of the item: the item is the lead-in's "shall"
        ("Include a ", "obligation"),
        # an item with a subject of its own keeps its own modal
        ("The Secret", "permission"),
    ]
    assert rows[1]["lead_in_quote"].endswith("such substitute notice shall:")
    assert rows[2]["lead_in_quote"] is None


FRONTED = """# Launching software

For a new system or application, complete a Privacy Threshold Analysis (PTA). Before you take leave, check out of office expectations.

For example, use of a password manager is common among the engineers on the team.

For more information, check out the FISMA Implementation Project on the agency intranet.

d. Communicate incident response plan changes to the incident response personnel and organizational elements; and"""


def test_an_imperative_after_a_fronted_condition_directs_and_a_pointer_does_not():
    """ "For a new system ..., complete ..." directs; "For example, use of ..." names a thing
    and "For more information, check out ..." points to reading."""
    rows = [r for r in extracted(FRONTED) if r["is_requirement"]]
    quotes = [r["exact_quote"] for r in rows]
    assert quotes == [
        "For a new system or application, complete a Privacy Threshold Analysis (PTA).",
        "Communicate incident response plan changes to the incident response personnel and "
        "organizational elements; and",
    ]
    assert [(r["modality"], r["trigger"]) for r in rows] == [
        ("obligation", "complete"),
        ("obligation", "Communicate"),
    ]
    for row in rows:
        assert FRONTED[row["char_start"] : row["char_end"]] == row["exact_quote"]


def test_ingest_workers_extract_with_the_offline_backends_and_leave_a_served_one_to_its_stage():
    assert isinstance(worker_extractor(RunConfig()), RulesExtractor)
    assert isinstance(worker_extractor(RunConfig(extract="trained")), TrainedExtractor)
    served = ModelBackend(base_url="http://127.0.0.1:9/v1", model="any")
    assert worker_extractor(RunConfig(extract=served)) is None


POWERS = """# Powers of the commission

The interstate commission shall have the following powers:

6. To purchase and maintain insurance and bonds.

7. To borrow, accept, hire or contract for services of personnel.

8. For a new office, prepare a lease for the commission's approval."""


def test_an_item_of_infinitives_is_quoted_once_under_its_lead_in():
    """ "To borrow, accept, hire ..." is a series of infinitives, each completing the lead-in,
    not a purpose put before the imperative "accept": one candidate, under its lead-in. An
    item that is a fronted imperative indeed is still quoted once."""
    rows = extracted(POWERS)
    spans = [(r["char_start"], r["char_end"]) for r in rows]
    assert len(spans) == len(set(spans))
    borrow = [r for r in rows if r["exact_quote"].startswith("To borrow")]
    assert [(r["trigger"], r["lead_in_quote"]) for r in borrow] == [
        ("shall", "The interstate commission shall have the following powers:")
    ]
    assert any(r["exact_quote"].startswith("For a new office") for r in rows)


PLAN = """# IR-08 Incident Response Plan

a. Develop an incident response plan that:

1. Provides the organization with a roadmap for implementing its incident response capability;

2. Defines reportable incidents;

b. Distribute copies of the incident response plan to the incident response personnel.

c. Disclose the plan to a contractor if:

1. The contractor handles incidents for the organization."""


def test_the_items_of_an_imperative_that_describes_its_object_carry_their_lead_in():
    """ "Develop an incident response plan that:" opens what the plan must be or do: each item
    is a requirement under it, though none opens with a directive verb. An imperative ending
    "if:" opens conditions, which are no requirements of their own."""
    rows = extracted(PLAN)
    led = [(r["exact_quote"], r["lead_in_quote"]) for r in rows if r["lead_in_quote"]]
    assert led == [
        (
            "Provides the organization with a roadmap for implementing its incident response "
            "capability;",
            "Develop an incident response plan that:",
        ),
        ("Defines reportable incidents;", "Develop an incident response plan that:"),
    ]
    assert any(r["exact_quote"].startswith("Distribute copies") for r in rows)
    assert not any(r["exact_quote"].startswith("The contractor handles") for r in rows)


STANDARDS = """# Administrative safeguards

(a) A covered entity or business associate must, in accordance with § 164.306:

(3)(i) Standard: Workforce security. Implement policies and procedures to ensure that all members of its workforce have appropriate access to electronic protected health information, as provided under paragraph (a)(4) of this section, and to prevent those workforce members who do not have access from obtaining access to it.

(8) Standard: Evaluation. Perform a periodic technical and nontechnical evaluation that establishes the extent to which the security policies and procedures meet the requirements of this subpart.

(9) Use passwords that probably nobody else uses. For some interesting examples of common passwords, check out this list based on a real account dump; you can see dictionary words, names of favorite people and teams, and simple patterns of numbers and letters."""


def test_an_items_caption_is_quoted_with_the_duty_it_names():
    """ "Standard: Workforce security." is the caption of the sentence after it, which states the
    duty: the quote holds both, however long the duty (and not the caption alone, nor nothing
    for a caption of two words). An item whose first sentence is a clause of its own keeps it
    alone when the next one would run past 40 words."""
    quotes = [r["exact_quote"] for r in extracted(STANDARDS)]
    assert any(q.startswith("Standard: Workforce security. Implement policies") for q in quotes)
    assert any(q.startswith("Standard: Evaluation. Perform a periodic") for q in quotes)
    assert "Standard: Workforce security." not in quotes
    assert "Use passwords that probably nobody else uses." in quotes


HANDBOOK = """# Reporting a phishing email

Do not click any links in the email.

If you detect any unusual activity on your computer, DO NOT turn off your computer.

Fill out the ASL Service Intake Form at least 72 hours before the event is scheduled.

Please reach out to the Travel and Events team at least 7 weeks in advance.

Sign language interpreters are shown in dedicated video channels.

Sign up for cloud.gov Pages Status notifications.

a. Sanitize system media prior to disposal, release out of organizational control, or reuse."""


def test_a_ban_in_the_imperative_whatever_its_verb_and_a_duty_after_please():
    """ "Do not click ...", "..., DO NOT turn off ..." ban; "Fill out ...", "Please reach out
    ...", "Sign up ...", "Sanitize ..." direct; "Sign language interpreters are shown ..." opens on
    a noun, and is no duty."""
    rows = extracted(HANDBOOK)
    found = [(r["exact_quote"].split()[0], r["modality"], r["trigger"]) for r in rows]
    assert found == [
        ("Do", "prohibition", "Do not"),
        ("If", "prohibition", "DO NOT"),
        ("Fill", "obligation", "Fill"),
        ("Please", "obligation", "reach"),
        ("Sign", "obligation", "Sign"),
        ("Sanitize", "obligation", "Sanitize"),
    ]
    for row in rows:
        assert HANDBOOK[row["char_start"] : row["char_end"]] == row["exact_quote"]
