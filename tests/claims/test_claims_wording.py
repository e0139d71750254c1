"""groundwork/claims: rules said in wordings the verdict rules were not written against.

Every sentence here is made up for the test (none is taken from the corpus pairs of
data/labels), so that the rules are checked on the general ways English and legal drafting say
a duty, a permission, a prohibition, a negation or a party, and on true paraphrases they must
not flag."""

from __future__ import annotations

import pytest

from groundwork.claims.modality import (
    EXEMPTION,
    OBLIGATION,
    PERMISSION,
    PROHIBITION,
    plain_modals,
    readings,
)
from groundwork.claims.verdict import checked_claim

# --- modality and absence of duty in other words ---------------------------------------------

REPORT_DUTY = "A contractor shall report each security incident to the contracting officer."
ARCHIVE_PERMISSION = "The registrar may archive the minutes of each closed session."
SHARE_BAN = "The clinic may not disclose a member's chart to an insurer."


NO_DUTY = [  # absence of a duty
    "A contractor does not have to report security incidents to the contracting officer.",
    "A contractor does not need to report security incidents to the contracting officer.",
    "A contractor doesn't need to report security incidents to the contracting officer.",
    "A contractor is excused from reporting security incidents to the contracting officer.",
    "A contractor is relieved from reporting security incidents to the contracting officer.",
    "There is no requirement for a contractor to report security incidents to the "
    "contracting officer.",
    "It is optional for a contractor to report security incidents to the contracting officer.",
]
A_CHOICE = [  # a choice where the quote sets a duty
    "It is up to the contractor whether to report security incidents to the contracting officer.",
    "A contractor has the option of reporting security incidents to the contracting officer.",
    "A contractor may choose whether to report security incidents to the contracting officer.",
    "A contractor is permitted, but not required, to report security incidents to the "
    "contracting officer.",
    "A contractor may, but need not, report security incidents to the contracting officer.",
]
A_DUTY = [  # a duty where the quote permits
    "The registrar is to archive the minutes of each closed session.",
    "It is mandatory for the registrar to archive the minutes of each closed session.",
    "The registrar's duty is to archive the minutes of each closed session.",
]
BAN_LIFTED = [  # a ban lifted
    "The clinic is not prohibited from disclosing a member's chart to an insurer.",
    "Nothing prevents the clinic from disclosing a member's chart to an insurer.",
    "It is permissible for the clinic to disclose a member's chart to an insurer.",
]


@pytest.mark.parametrize(
    ("claim", "quote", "issue"),
    [(claim, REPORT_DUTY, "modality changed: need not vs must") for claim in NO_DUTY]
    + [(claim, REPORT_DUTY, "modality changed: may vs must") for claim in A_CHOICE]
    + [(claim, ARCHIVE_PERMISSION, "modality changed: must vs may") for claim in A_DUTY]
    + [(claim, SHARE_BAN, "modality changed: may vs must not") for claim in BAN_LIFTED],
)
def test_modality_in_other_words_contradicts_the_quotes(claim, quote, issue):
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert issue in result.issues


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The contractor is to report each security incident to the contracting officer.",
         REPORT_DUTY),
        ("It is mandatory for a contractor to report each security incident to the contracting "
         "officer.", REPORT_DUTY),
        ("The clinic is not to disclose a member's chart to an insurer.", SHARE_BAN),
        ("It is forbidden for the clinic to disclose a member's chart to an insurer.", SHARE_BAN),
        ("The registrar has the option of archiving the minutes of each closed session.",
         ARCHIVE_PERMISSION),
        ("The registrar may, but need not, archive the minutes of each closed session.",
         ARCHIVE_PERMISSION),
        ("Archiving the minutes of each closed session is up to the registrar, who may archive "
         "them.", ARCHIVE_PERMISSION),
    ],
)  # fmt: skip
def test_the_same_modality_in_other_words_is_supported(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_an_aim_is_no_duty():
    assert readings("The purpose of this subpart is to protect member data.") == ()
    (reading,) = readings("The registrar is to archive the minutes.")
    assert (reading.modality, reading.subject, reading.verb) == (
        OBLIGATION,
        "The registrar",
        "archiv",
    )


@pytest.mark.parametrize(
    ("text", "modality", "subject"),
    [
        ("Nothing in this part shall be construed to authorize a lender to charge a fee.",
         PROHIBITION, "a lender"),
        ("Nothing in this subpart may be construed as giving the board authority to set rates.",
         PROHIBITION, "the board"),
        ("This section does not require a lender to keep the file.", EXEMPTION, "a lender"),
        ("Nothing in this chapter shall prevent a tenant from withholding rent.", PERMISSION,
         "a tenant"),
        ("There is no need to wait for the audit.", EXEMPTION, None),
    ],
)  # fmt: skip
def test_a_disclaimer_of_authority_reads_as_the_plain_modal(text, modality, subject):
    (reading,) = readings(plain_modals(text))
    assert (reading.modality, reading.subject) == (modality, subject)


def test_a_claim_of_the_authority_a_quote_disclaims_contradicts():
    quote = "Nothing in this part shall be construed to authorize a lender to charge a fee."
    result = checked_claim("A lender may charge a fee under this part.", quote)
    assert result.verdict == "CONTRADICTED"
    assert "modality changed: may vs must not" in result.issues


# --- validity and effect ---------------------------------------------------------------------

LEASE_VOID = "A lease term that waives the tenant's right to a jury trial is void."
LEASE_NOT_VALID = "A lease signed by a minor is not valid."


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("A lease term that waives the tenant's right to a jury trial is enforceable.", LEASE_VOID),
        ("A lease term that waives the tenant's right to a jury trial is binding.", LEASE_VOID),
        ("A lease term waiving the tenant's right to a jury trial takes effect.", LEASE_VOID),
        ("A lease signed by a minor is valid.", LEASE_NOT_VALID),
        ("A lease signed by a minor is legally binding.", LEASE_NOT_VALID),
    ],
)  # fmt: skip
def test_a_claim_of_effect_for_what_the_quote_voids_contradicts(claim, quote):
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert "negation differs: valid vs void" in result.issues


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("A lease term that waives the tenant's right to a jury trial is null and void.",
         LEASE_VOID),
        ("A lease term that waives the tenant's right to a jury trial has no legal effect.",
         LEASE_VOID),
        ("A lease term that waives the tenant's right to a jury trial is unenforceable.",
         LEASE_VOID),
        ("A lease signed by a minor is invalid.", LEASE_NOT_VALID),
        ("A lease signed by a minor is of no effect.", LEASE_NOT_VALID),
    ],
)  # fmt: skip
def test_no_effect_in_other_words_is_supported(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


# --- plain negation: "does not", and verbs that undo each other ------------------------------

EXCLUSION = "This chapter does not apply to a credit union that only offers savings accounts."
RULING = "The panel shall grant the appeal unless it was filed late."


def test_a_plain_statement_of_what_the_quote_denies_contradicts():
    claim = "This chapter applies to a credit union that only offers savings accounts."
    result = checked_claim(claim, EXCLUSION)
    assert result.verdict == "CONTRADICTED"
    assert "negation differs: does vs does not" in result.issues


@pytest.mark.parametrize(
    "claim",
    [
        "This chapter does not apply to credit unions that only offer savings accounts.",
        "This chapter does not cover a credit union that only offers savings accounts, since it "
        "does not apply to one.",
    ],
)
def test_a_denial_restated_is_supported(claim):
    assert checked_claim(claim, EXCLUSION).verdict == "SUPPORTED"


def test_a_denial_of_another_object_is_no_negation():
    claim = "This chapter applies to a credit union that offers loans to its members."
    assert "negation differs: does vs does not" not in checked_claim(claim, EXCLUSION).issues


def test_a_plain_denial_of_a_duty_contradicts():
    claim = "The contractor does not report security incidents to the contracting officer."
    assert "negation differs: does not vs must" in checked_claim(claim, REPORT_DUTY).issues


def test_a_denied_passive_is_read_as_a_denial():
    (reading,) = readings("Local ordinances are not superseded by this chapter.")
    assert (reading.modality, reading.verb, reading.passive) == ("denial", "supersed", True)


@pytest.mark.parametrize(
    "text",
    [
        "A tenant who does not pay rent must vacate the unit.",
        "If the tenant does not pay rent, the landlord may end the lease.",
    ],
)
def test_a_does_not_of_a_relative_clause_or_condition_is_no_reading(text):
    assert "denial" not in [r.modality for r in readings(text)]


def test_a_verb_ending_in_ly_is_no_adverb():
    (reading,) = readings("This chapter does not apply to savings accounts.")
    assert reading.verb == "appli"


@pytest.mark.parametrize(
    ("claim", "issue"),
    [
        ("The panel shall deny the appeal unless it was filed late.", "deny vs grant"),
        ("The panel must reject the appeal unless it was filed late.", "reject vs grant"),
    ],
)
def test_the_opposite_verb_under_the_same_duty_contradicts(claim, issue):
    result = checked_claim(claim, RULING)
    assert result.verdict == "CONTRADICTED"
    assert f"negation differs: {issue}" in result.issues


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The clinic must withhold a member's chart from an insurer.", SHARE_BAN),
        ("The board must not retain the ballots after the count is certified.",
         "The board shall destroy the ballots after the count is certified."),
    ],
)  # fmt: skip
def test_the_opposite_verb_under_the_opposite_modality_is_a_paraphrase(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_the_opposite_act_under_the_same_permission_is_unsupported():
    quote = "The board may extend the filing period by 15 days."
    result = checked_claim("The board may shorten the filing period by 15 days.", quote)
    assert result.verdict == "UNSUPPORTED"
    assert "other act: shorten vs extend" in result.issues


@pytest.mark.parametrize(
    ("claim", "issue"),
    [
        ("This part requires a lender to keep the file.", "modality changed: must vs need not"),
        ("This part authorizes a lender to charge a fee.", "modality changed: may vs must not"),
    ],
)
def test_what_a_text_is_said_to_grant_is_read_as_a_modal(claim, issue):
    quotes = {
        "modality changed: must vs need not": "This part does not require a lender to keep the "
        "file.",
        "modality changed: may vs must not": "Nothing in this part shall be construed to "
        "authorize a lender to charge a fee.",
    }
    result = checked_claim(claim, quotes[issue])
    assert result.verdict == "CONTRADICTED"
    assert issue in result.issues


# --- parties ----------------------------------------------------------------------------------

FORWARD = "The Secretary shall forward a summary of the findings to the State."
DEPOSIT = "The landlord must return the security deposit to the tenant within 30 days."
APPOINT = "The court shall appoint a guardian for the minor."


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The Secretary must receive a summary of the findings from the State.", FORWARD),
        ("The landlord must get the security deposit back from the tenant within 30 days.",
         DEPOSIT),
    ],
)  # fmt: skip
def test_the_giver_said_to_receive_contradicts(claim, quote):
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert any(issue.startswith("recipient changed") for issue in result.issues)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The State must receive a summary of the findings from the Secretary.", FORWARD),
        ("HHS must forward the State a summary of the findings.", FORWARD),
        ("The tenant must get the security deposit back from the landlord within 30 days.",
         DEPOSIT),
        ("The agency shall send the applicant a copy of the decision.",
         "The Department shall send a copy of the decision to the applicant."),
    ],
)  # fmt: skip
def test_a_party_by_another_name_or_from_the_other_side_is_supported(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


@pytest.mark.parametrize(
    ("claim", "issue"),
    [
        ("The prosecutor shall appoint a guardian for the minor.", "actor changed"),
        ("A guardian shall be appointed for the minor by the prosecutor.", "actor changed"),
    ],
)
def test_a_legal_actor_named_by_its_office_is_a_party(claim, issue):
    result = checked_claim(claim, APPOINT)
    assert result.verdict == "CONTRADICTED"
    assert any(i.startswith(issue) for i in result.issues)


def test_what_a_possessive_owns_is_the_party():
    claim = "The Secretary shall forward the State's auditor a summary of the findings."
    result = checked_claim(claim, FORWARD)
    assert result.verdict == "CONTRADICTED"
    assert "recipient changed: auditor vs State" in result.issues


def test_a_possessive_owning_no_party_keeps_its_owner():
    quote = "The commissioner shall issue guidelines on visiting hours."
    claim = "The commissioner's guidelines must set visiting hours."
    assert not any(i.startswith("actor") for i in checked_claim(claim, quote).issues)


# --- timing words -----------------------------------------------------------------------------

HEARING_NOTICE = "The board shall notify each member prior to the hearing."


def test_after_for_prior_to_contradicts():
    result = checked_claim("The board shall notify each member after the hearing.", HEARING_NOTICE)
    assert "deadline differs: after vs before" in result.issues


@pytest.mark.parametrize(
    "claim",
    [
        "The board shall notify each member before the hearing.",
        "The board shall notify each member in advance of the hearing.",
    ],
)
def test_before_in_other_words_is_supported(claim):
    assert checked_claim(claim, HEARING_NOTICE).verdict == "SUPPORTED"


def test_a_frequency_said_as_so_many_a_week_is_no_invention():
    quote = "An employee may telework up to three days a week with approval."
    claim = "With approval, an employee may telework up to three days per week."
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


@pytest.mark.parametrize(
    "claim",
    [
        "This chapter supersedes county ordinances on noise.",
        "This chapter preempts any county ordinance on noise.",
    ],
)
def test_a_claim_of_the_effect_a_quote_disclaims_contradicts(claim):
    quote = "This chapter shall not be construed as superseding any county ordinance on noise."
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert "negation differs: does vs does not" in result.issues


# --- hedges that open a claim, and subjects that are not parties -------------------------------

FILING_DUTY = "The plan must file the report within 30 days."


@pytest.mark.parametrize(
    "claim",
    [
        "As far as I can tell, the plan must file the report within 30 days.",
        "As I read it, the plan must file the report within 30 days.",
        "It appears that the plan must file the report within 30 days.",
    ],
)
def test_an_opening_hedge_is_not_read_as_the_actor(claim):
    assert checked_claim(claim, FILING_DUTY).verdict == "SUPPORTED"


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        (
            "Subpoenas issued for the Secretary need not come with a check for witness fees.",
            "A check for witness fees must accompany the subpoena, except that, when a subpoena "
            "is issued on behalf of the Secretary, a check for witness fees need not accompany "
            "the subpoena.",
        ),
        (
            "A HIPAA standard cannot force a person who must comply to disclose trade secrets.",
            "A standard adopted under this part shall not require disclosure of trade secrets by "
            "a person required to comply with this part.",
        ),
    ],
)
def test_a_subject_that_is_no_party_is_not_a_changed_actor(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_a_party_swapped_for_a_party_still_contradicts():
    claim = "The business associate must notify the covered entity of a breach."
    quote = "The covered entity must notify the business associate of a breach."
    assert checked_claim(claim, quote).verdict == "CONTRADICTED"


# --- asides in parentheses ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "modality", "subject"),
    [
        (
            "No visitor (other than staff of the archive) may photograph the exhibits.",
            PROHIBITION,
            "No visitor",
        ),
        ("(b) The lessee must return the keys on the last day.", OBLIGATION, "The lessee"),
    ],
)
def test_an_aside_in_parentheses_is_no_clause_boundary(text, modality, subject):
    """The subject before an aside is kept (a "No X" subject still forbids); an enumerator
    such as "(b)" still opens the clause."""
    [reading] = readings(text)
    assert (reading.modality, reading.subject) == (modality, subject)


def test_a_ban_with_an_aside_restated_is_supported():
    quote = "No visitor (other than staff of the archive) may photograph the exhibits."
    claim = "Apart from archive staff, no visitor may photograph the exhibits."
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


# --- concessions, nouns of acts, clefts, titles, frequencies -----------------------------------


def test_a_rule_in_a_concessive_clause_is_read():
    """ "..., although X is not required" states a rule as much as the main clause does; "Use
    of the form" names an act, it is no command to use it."""
    quote = (
        "Use of the standard lease in appendix B satisfies the disclosure rule, although use "
        "of the standard lease is not required."
    )
    claim = "Landlords are obliged to use the standard lease."
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert "modality changed: must vs need not" in result.issues


def test_a_cleft_names_the_actor():
    quote = "The records officer approves each request for an archived file."
    swapped = "It is the budget director who approves each request for an archived file."
    restated = "It is the records officer who approves each request for an archived file."
    assert checked_claim(swapped, quote).verdict == "CONTRADICTED"
    assert checked_claim(restated, quote).verdict == "SUPPORTED"


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The chief finance officer approves each grant over the program limit.", "CONTRADICTED"),
        ("The senior program official approves each grant over the program limit.", "SUPPORTED"),
        ("The program's senior official approves each grant over the program limit.", "SUPPORTED"),
    ],
)  # fmt: skip
def test_two_titles_that_share_no_word_are_two_people(claim, verdict):
    """ "Officer" and "official" are one family of words, not one person."""
    quote = "The senior program official approves each grant over the program limit."
    assert checked_claim(claim, quote).verdict == verdict


def test_a_duty_said_with_will_be_responsible_for_has_an_actor():
    quote = "If a tenant moves out early, the landlord will be responsible for re-letting the unit."
    claim = "A tenant who moves out early has to re-let the unit."
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert any(i.startswith("actor changed") for i in result.issues)


@pytest.mark.parametrize(
    "claim",
    [
        "The board apparently has the option, but not the obligation, to suspend the licence.",
        "The board is probably still free to suspend the licence.",
        "The board remains free to suspend the licence.",
    ],
)
def test_a_choice_in_other_words_contradicts_a_duty(claim):
    quote = "The board shall suspend the licence of a member convicted of fraud."
    assert "modality changed: may vs must" in checked_claim(claim, quote).issues


@pytest.mark.parametrize(
    ("claim", "verdict", "issue"),
    [
        ("The operator must test the backup generator every two years.", "CONTRADICTED",
         "frequency differs: every two years vs annually"),
        ("The operator must test the backup generator once a month.", "CONTRADICTED",
         "frequency differs: once a month vs annually"),
        ("The operator must test the backup generator every 12 months.", "SUPPORTED", None),
        ("The operator must test the backup generator once a year.", "SUPPORTED", None),
    ],
)  # fmt: skip
def test_a_frequency_is_compared_as_a_period(claim, verdict, issue):
    result = checked_claim(claim, "The operator shall test the backup generator annually.")
    assert result.verdict == verdict
    assert issue is None or issue in result.issues


def test_a_frequency_bound_the_other_way_contradicts():
    quote = "The board may revise the fee schedule, but not more often than once every 24 months."
    lower = "The board has to revise the fee schedule at least once every 24 months."
    same = "The board may revise the fee schedule no more often than once every two years."
    assert checked_claim(lower, quote).verdict == "CONTRADICTED"
    assert checked_claim(same, quote).verdict == "SUPPORTED"


def test_a_plural_noun_opening_a_sentence_is_no_named_party():
    quote = "Claims that were settled before the audit may not be reopened by the auditor."
    claim = "The auditor is barred from reopening claims settled before the audit."
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_serve_and_service_are_one_event():
    quote = "The order becomes final 45 days from the date of service of the order."
    claim = "The order becomes final 45 days after it is served."
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_not_a_prerequisite_exempts():
    quote = "Members of the review panel must be licensed engineers."
    claim = "Being a licensed engineer is not a prerequisite for sitting on the review panel."
    assert "modality changed: need not vs must" in checked_claim(claim, quote).issues


def test_an_as_defined_aside_keeps_the_subject():
    quote = (
        "The operator of a dam, as defined in section 4.02 of this chapter, shall give written "
        "notice of a spill to the county engineer."
    )
    claim = "The county engineer must give the dam operator written notice of a spill."
    [reading] = readings(quote)
    assert reading.subject == "The operator of a dam"
    assert checked_claim(claim, quote).verdict == "CONTRADICTED"


def test_reporting_to_another_body_changes_the_recipient():
    """ "Reported to" and "notify" name the party told alike; "D.C." does not end its name."""
    quote = (
        "The clinic shall promptly notify the Board of Pharmacy in writing of any theft of "
        "controlled drugs."
    )
    told = "Any theft of controlled drugs has to be reported promptly in writing by the clinic to "
    assert checked_claim(told + "the D.C. Office of the Attorney General.", quote).issues == (
        "recipient changed: D.C. Office vs Board",
    )
    assert checked_claim(told + "the Board of Pharmacy.", quote).verdict == "SUPPORTED"


def test_only_one_of_two_bound_parties_narrows_the_rule():
    quote = "The tenant and the landlord must both sign the move-out inspection report."
    narrowed = "Only the landlord has to sign the move-out inspection report."
    assert any(i.startswith("scope narrowed") for i in checked_claim(narrowed, quote).issues)
    assert checked_claim(narrowed, quote).verdict == "CONTRADICTED"


def test_a_name_after_an_opening_condition_is_no_command():
    quote = "Once approved, the Budget Office can release the funds."
    claim = "Once a request is approved, Treasury staff release the funds."
    assert any(i.startswith("actor changed") for i in checked_claim(claim, quote).issues)


def test_only_one_party_where_any_party_may_narrows_the_rule():
    quote = "Any party may request a rehearing within 10 days of the order."
    assert checked_claim("Only the tenant may request a rehearing within 10 days of the order.",
                         quote).verdict == "CONTRADICTED"  # fmt: skip
    assert checked_claim("Any party can request a rehearing within 10 days of the order.",
                         quote).verdict == "SUPPORTED"  # fmt: skip


def test_may_only_restates_shall_only():
    quote = "Seclusion shall be used only by written order of a physician."
    claim = "Seclusion may be used only on a physician's written order."
    assert checked_claim(claim, quote).verdict == "SUPPORTED"


def test_can_never_forbids():
    [reading] = readings("A minor can never be admitted without a guardian's consent.")
    assert reading.modality == PROHIBITION


# --- a fuller inventory of the ways English says a duty, a ban, a choice, an exemption -------


@pytest.mark.parametrize(
    ("text", "modality"),
    [
        ("The warden is under an obligation to log each visit.", OBLIGATION),
        ("The warden is under a duty to log each visit.", OBLIGATION),
        ("The warden bears responsibility for logging each visit.", OBLIGATION),
        ("It is the warden's responsibility to log each visit.", OBLIGATION),
        ("The warden is bound to log each visit.", OBLIGATION),
        ("The warden is compelled to log each visit.", OBLIGATION),
        ("The warden is directed to log each visit.", OBLIGATION),
        ("The warden is charged with logging each visit.", OBLIGATION),
        ("The warden is supposed to log each visit.", OBLIGATION),
        ("The warden may in no case log a visit.", PROHIBITION),
        ("The warden shall at no time log a visit.", PROHIBITION),
        ("The warden lacks authority to log a visit.", PROHIBITION),
        ("The warden is not free to log a visit.", PROHIBITION),
        ("The warden is never allowed to log a visit.", PROHIBITION),
        ("The warden is disallowed from logging a visit.", PROHIBITION),
        ("The warden is restricted from logging a visit.", PROHIBITION),
        ("The warden is not supposed to log a visit.", PROHIBITION),
        ("The warden must avoid logging a visit.", PROHIBITION),
        ("The warden is empowered to log each visit.", PERMISSION),
        ("The warden is at liberty to log each visit.", PERMISSION),
        ("The warden retains discretion to log each visit.", PERMISSION),
        ("The warden decides whether to log each visit.", PERMISSION),
        ("Logging each visit is left to the warden's discretion.", PERMISSION),
        ("Logging each visit is up to the warden.", PERMISSION),
        ("Whether to log each visit is up to the warden.", PERMISSION),
        ("Whether to log each visit is the warden's decision.", PERMISSION),
        ("The warden is not bound to log each visit.", EXEMPTION),
        ("The warden is not expected to log each visit.", EXEMPTION),
        ("The warden is not under any obligation to log each visit.", EXEMPTION),
        ("The warden is relieved of the duty to log each visit.", EXEMPTION),
        ("There is no requirement that the warden log each visit.", EXEMPTION),
        ("No visit needs to be logged by the warden.", EXEMPTION),
    ],
)
def test_each_wording_of_a_modality_is_read(text, modality):
    assert [r.modality for r in readings(plain_modals(text))][:1] == [modality]


WARDEN_DUTY = "The warden shall log each visit in the register."
RECEIPT_DUTY = "The landlord shall give the tenant a receipt for each payment."


@pytest.mark.parametrize(
    ("claim", "quote", "issue"),
    [
        ("Logging each visit in the register is up to the warden.", WARDEN_DUTY,
         "modality changed: may vs must"),
        ("Whether to log each visit in the register is, it seems, up to the warden.",
         WARDEN_DUTY, "modality changed: may vs must"),
        ("If the clerk does not stamp the filing, the filing has no effect.",
         "A clerk's failure to stamp the filing shall not invalidate the filing.",
         "negation differs: void vs valid"),
        ("The tenant has no right to a receipt for each payment.", RECEIPT_DUTY,
         "negation differs: has no right to vs must"),
        ("The tenant is not entitled to a receipt for each payment.", RECEIPT_DUTY,
         "negation differs: is not entitled to vs must"),
        ("The levy never applies to farm vehicles.", "The levy applies to farm vehicles.",
         "negation differs: does not vs does"),
        ("The operator must disable logging on each server.",
         "The operator must enable logging on each server.",
         "negation differs: disable vs enable"),
        ("The board shall reinstate the licence of a member convicted of fraud.",
         "The board shall revoke the licence of a member convicted of fraud.",
         "negation differs: reinstate vs revoke"),
        ("The registrar must discontinue the weekly bulletin.",
         "The registrar must continue the weekly bulletin.",
         "negation differs: discontinue vs continue"),
        ("The schedule may take effect only after a prior public hearing.",
         "The schedule shall take effect on adoption, without any prior public hearing.",
         "negation differs: without any prior public hearing"),
    ],
)  # fmt: skip
def test_other_wordings_of_a_conflict_contradict(claim, quote, issue):
    result = checked_claim(claim, quote)
    assert result.verdict == "CONTRADICTED"
    assert issue in result.issues


def test_a_restrictive_directed_to_is_no_duty():
    assert readings("Inquiries are directed to the front desk.") == ()


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The schedule takes effect on adoption, with no prior public hearing.",
         "The schedule shall take effect on adoption, without any prior public hearing."),
        ("The tenant is entitled to a receipt for each payment.", RECEIPT_DUTY),
    ],
)  # fmt: skip
def test_the_same_rule_in_other_words_is_supported(claim, quote):
    assert checked_claim(claim, quote).verdict == "SUPPORTED"
