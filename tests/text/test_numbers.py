"""groundwork/text/numbers.py: the numbers of legal text found and normalised, references left alone."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundwork.text.numbers import mentions, word_value


def found(text: str) -> list[tuple]:
    return [(m.surface, m.kind, m.value, m.unit, m.normalised) for m in mentions(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # amounts, with multipliers and currency before or after
        ("a fine of $3.2B", [("$3.2B", "amount", Decimal(3_200_000_000), "USD", "3200000000 USD")]),
        ("up to $50,000 per year", [("$50,000", "amount", Decimal(50_000), "USD", "50000 USD")]),
        ("USD 1,000", [("USD 1,000", "amount", Decimal(1000), "USD", "1000 USD")]),
        (
            "receipts of $5 million",
            [("$5 million", "amount", Decimal(5_000_000), "USD", "5000000 USD")],
        ),
        ("a fee of US$40,000", [("US$40,000", "amount", Decimal(40_000), "USD", "40000 USD")]),
        (
            "in excess of USD 50 000",
            [("USD 50 000", "amount", Decimal(50_000), "USD", "50000 USD")],
        ),
        (
            "10 million dollars",
            [("10 million dollars", "amount", Decimal(10**7), "USD", "10000000 USD")],
        ),
        ("€2.5K", [("€2.5K", "amount", Decimal(2500), "EUR", "2500 EUR")]),
        ("AED 500,000", [("AED 500,000", "amount", Decimal(500_000), "AED", "500000 AED")]),
        # percentages
        ("25 percent of the shares", [("25 percent", "percentage", Decimal(25), "percent", "25%")]),
        ("more than 25%", [("25%", "percentage", Decimal(25), "percent", "25%")]),
        ("a ratio of 6.0%", [("6.0%", "percentage", Decimal("6.0"), "percent", "6%")]),
        ("twenty per cent", [("twenty per cent", "percentage", Decimal(20), "percent", "20%")]),
        (
            "200 basis points",
            [("200 basis points", "percentage", Decimal(200), "basis point", "200 bp")],
        ),
        # counts
        ("1,487,230 users", [("1,487,230 users", "count", Decimal(1_487_230), "users", "1487230")]),
        ("more than 500 residents", [("500 residents", "count", Decimal(500), "residents", "500")]),
        (
            "500 or more individuals",
            [("500 or more individuals", "count", Decimal(500), "individuals", "500")],
        ),
        (
            "1.5 million accounts",
            [("1.5 million accounts", "count", Decimal(1_500_000), "accounts", "1500000")],
        ),
        ("no more than 200 Persons", [("200", "count", Decimal(200), "", "200")]),
        # durations
        ("within 60 days", [("60 days", "duration", Decimal(60), "day", "P60D")]),
        ("within sixty (60) days", [("sixty (60) days", "duration", Decimal(60), "day", "P60D")]),
        ("5 business days", [("5 business days", "duration", Decimal(5), "business day", "P5D")]),
        (
            "ten Business Days",
            [("ten Business Days", "duration", Decimal(10), "business day", "P10D")],
        ),
        ("for one year", [("one year", "duration", Decimal(1), "year", "P1Y")]),
        ("within 24 hours", [("24 hours", "duration", Decimal(24), "hour", "PT24H")]),
        ("60 calendar days", [("60 calendar days", "duration", Decimal(60), "day", "P60D")]),
        ("a 30-day period", [("30-day", "duration", Decimal(30), "day", "P30D")]),
        ("the twelve-month period", [("twelve-month", "duration", Decimal(12), "month", "P12M")]),
        ("two quarters", [("two quarters", "duration", Decimal(6), "month", "P6M")]),
        ("within four weeks", [("four weeks", "duration", Decimal(4), "week", "P4W")]),
        (
            "one hundred and twenty (120) days",
            [("one hundred and twenty (120) days", "duration", Decimal(120), "day", "P120D")],
        ),
        ("thirty minutes", [("thirty minutes", "duration", Decimal(30), "minute", "PT30M")]),
        # dates
        ("January 1, 2024", [("January 1, 2024", "date", None, "date", "2024-01-01")]),
        ("by March 31", [("March 31", "date", None, "date", "--03-31")]),
        ("on or before 30th June", [("30th June", "date", None, "date", "--06-30")]),
        ("as of 31 December 2016", [("31 December 2016", "date", None, "date", "2016-12-31")]),
        ("Jan. 25, 2013", [("Jan. 25, 2013", "date", None, "date", "2013-01-25")]),
        ("Sept. 9, 2021", [("Sept. 9, 2021", "date", None, "date", "2021-09-09")]),
        ("in May 2019", [("May 2019", "date", None, "date", "2019-05")]),
        ("by 2024-06-30", [("2024-06-30", "date", None, "date", "2024-06-30")]),
        ("by 12/31/2024", [("12/31/2024", "date", None, "date", "2024-12-31")]),
        ("by 31/12/2024", [("31/12/2024", "date", None, "date", "2024-12-31")]),
    ],
)
def test_numbers_are_found_and_normalised(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "as required by § 164.404(b)",
        "under §§ 164.400 through 164.414",
        "45 CFR 164.512(f)(1)",
        "42 U.S.C. 290dd-2",
        "described in paragraph (b)(2) of this section",
        "in accordance with section 33.13 of this chapter",
        "Section 3.1.1 of the GSA IT Security Policy",
        "sections 5 and 6",
        "NIST SP 800-53 Rev. 5",
        "control AC-2(3)",
        "Public Law 104-191",
        "Pub. L. 104-191, Aug. 21, 1996",
        "the Health Insurance Portability and Accountability Act of 1996",
        "the Data Protection Act 2018",
        "[78 FR 5695, Jan. 25, 2013]",
        "110 Stat. 1936",
        "Regulation (EU) 2016/679",
        "Directive 95/46/EC of 24 October 1995",
        "Rule 17a-4",
        "Chapter 2A of this title",
        "1. Use a password manager",
        "(2) Protected health information",
        "(c) Limitations on access. 1. Upon receipt of a request",
        "Rule \u200e9.7.5 applies",
        "s 135 procedure",
        "the Pillar 2 review process",
        "Tier 1 capital",
        "from day 1 onwards",
        "a Category 3B firm",
        "Form 10-K",
        "see https://www.ecfr.gov/current/title-45/section-164.302",
        "[AU-12](#au-12)",
        "in 2019 the Commission",
        "1.1.1 Jurisdiction",
        "a ratio of 164.404",
        "penalty 4 would be excessive",
    ],
)
def test_references_are_not_numbers(text):
    assert found(text) == []


def test_a_citation_prefix_and_a_deadline_in_one_statement():
    text = (
        '45 CFR § 164.404(b) (obligation): "notification shall be provided without '
        'unreasonable delay and in no case later than 60 calendar days after discovery"'
    )
    (m,) = mentions(text)
    assert (m.surface, m.normalised) == ("60 calendar days", "P60D")
    assert text[m.start : m.end] == m.surface


@pytest.mark.parametrize(
    ("text", "qualifier"),
    [
        ("within 60 days", "within"),
        ("no later than 30 days", "no later than"),
        ("at least six years", "at least"),
        ("by March 31", "by"),
        ("shall not exceed $25,000", "not exceed"),
        ("for a period of 50 years", "for"),
        ("500 or more individuals", "or more"),
        ("60 days", None),
    ],
)
def test_the_comparing_word_before_a_number_is_kept(text, qualifier):
    (m,) = mentions(text)
    assert m.qualifier == qualifier


@pytest.mark.parametrize(
    ("text", "transformation"),
    [
        ("sixty (60) days", "sixty (60) days → 60 days → P60D"),
        ("60 days", "60 days → P60D"),
        ("one year", "one year → 1 year → P1Y"),
        ("two quarters", "two quarters → 2 quarters → 6 months → P6M"),
        ("$3.2B", "$3.2B → 3,200,000,000 USD → 3200000000 USD"),
        ("$50,000", "$50,000 → 50000 USD"),
        ("25 percent", "25 percent → 25%"),
        ("25%", "none"),
        ("2024-01-01", "none"),
        ("January 1, 2024", "January 1, 2024 → 2024-01-01"),
    ],
)
def test_transformation_lists_each_step_or_none(text, transformation):
    (m,) = mentions(text)
    assert m.transformation == transformation


def test_different_wordings_of_one_number_share_a_key():
    keys = {mentions(t)[0].key for t in ("sixty (60) days", "60 days", "60 calendar days")}
    assert keys == {("duration", "day", "P60D")}
    assert mentions("5 business days")[0].key != mentions("5 days")[0].key
    assert mentions("500 individuals")[0].key == mentions("more than 500 persons")[0].key


def test_invalid_dates_are_not_dates():
    assert found("February 30, 2024") == []
    assert found("by 2024-13-01") == []


def test_several_numbers_in_order_without_overlap():
    text = (
        "Within 30 days of January 1, 2024, pay $1,000 (25% of the fee) "
        "to 1,200 members under section 5."
    )
    assert [(m.surface, m.kind) for m in mentions(text)] == [
        ("30 days", "duration"),
        ("January 1, 2024", "date"),
        ("$1,000", "amount"),
        ("25%", "percentage"),
        ("1,200 members", "count"),
    ]


def test_number_words():
    assert [word_value(w) for w in ("seven", "twenty-four", "one hundred and five")] == [7, 24, 105]
    assert word_value("two thousand five hundred") == 2500


_WORDS = st.sampled_from(
    [
        *("within", "by", "at least", "60", "days", "sixty", "(60)", "§", "164.404", "(b)(2)"),
        *("$3.2B", "25%", "1,000", "users", "January", "1,", "2024", "section", "5", "the"),
        *("shall", "CFR", "45", "U.S.C.", "Act", "of", "1996", "one", "year", "-", ".", "(", "\n"),
    ]
)


@given(st.lists(_WORDS, max_size=40).map(" ".join))
def test_mentions_are_exact_slices_in_order_and_never_overlap(text):
    found_ = mentions(text)
    for m in found_:
        assert text[m.start : m.end] == m.surface
    for a, b in itertools.pairwise(found_):
        assert a.end <= b.start


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # spelled figures of N.Y. and D.C. statutes, real corpus sentences
        (
            "the reasonable charge for paper copies shall not exceed seventy-five cents per page.",
            [("seventy-five cents", "amount", Decimal("0.75"), "USD", "0.75 USD")],
        ),
        (
            "A patient or client over the age of twelve may be notified of any request",
            [("age of twelve", "duration", Decimal(12), "year", "P12Y")],
        ),
        (
            "must notify any patient over age twelve whenever a qualified person asks",
            [("age twelve", "duration", Decimal(12), "year", "P12Y")],
        ),
        (
            "If two or more consumers jointly obtain a financial product",
            [("two or more consumers", "count", Decimal(2), "consumers", "2")],
        ),
        (
            "The covered entity may have only one such extension of time for action",
            [("one such extension", "count", Decimal(1), "such extension", "1")],
        ),
        (
            "you must permit one of the joint consumers to opt out",
            [("one", "count", Decimal(1), "", "1")],
        ),
        (
            "shall consist of no less than three nor more than five persons.",
            [
                ("three", "count", Decimal(3), "", "3"),
                ("five persons", "count", Decimal(5), "persons", "5"),
            ],
        ),
        (
            "Annually means at least once in any period of 12 consecutive months",
            [
                ("once", "count", Decimal(1), "time", "1"),
                ("12 consecutive months", "duration", Decimal(12), "month", "P12M"),
            ],
        ),
        ('This isn\'t "within an hour of happening"', [("an hour", "duration", 1, "hour", "PT1H")]),
        ("cannot run for more than a year", [("a year", "duration", 1, "year", "P1Y")]),
        (
            "for up to eight person-hours of work per incident",
            [("eight person-hours", "duration", Decimal(8), "person_hour", "PT8H")],
        ),
        (
            "you must provide an annual notice to that customer by December 31 of year 2.",
            [("December 31 of year 2", "date", None, "date", "Y2-12-31")],
        ),
        ("opens an account on any day of year 1,", [("year 1", "date", None, "date", "Y1")]),
        (
            "More than half of the members of the Council",
            [("half", "percentage", Decimal(50), "percent", "50%")],
        ),
    ],
)
def test_spelled_and_relative_figures_are_found(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "licensed pursuant to article twenty-eight of the public health law",
        "pursuant to section three hundred eighty-four-a of the social services law",
        "articles twenty-three, thirty-one and forty-five of the civil practice law",
        "access to electronic protected health information is the one claimed.",
        "It may be executed by any one of the following:",
        "a government-funded program (other than one listed in paragraph (1)(i)-(xvi))",
        "Once judicial proceedings have begun, the order continues.",
        "the detention continues, once the petition is filed",
        "a fine of $100 a year",
        "acting on behalf of the individual",
    ],
)
def test_spelled_references_pronouns_and_conjunctions_are_not_numbers(text):
    assert [m for m in found(text) if m[1] != "amount"] == []


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("the agency may take 10 more days to decide", Decimal(10), "day"),
        ("the tenant gets two extra weeks to move out", Decimal(2), "week"),
        ("up to five additional business days", Decimal(5), "business day"),
    ],
)
def test_a_period_added_to_another_is_a_duration(text, value, unit):
    (number,) = mentions(text)
    assert (number.kind, number.value, number.unit) == ("duration", value, unit)
