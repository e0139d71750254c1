"""Clause parts that both readers of legal modal wording share.

groundwork.extract.deontic reads statutes for the requirement register; groundwork.claims.modality
reads a claim (plain English: "has to", "can", "don't need to") and the quote it cites. Both find
a modal trigger, the subject before it, the verb after it, and skip asides. What they agree on
lives here once; where they differ, each reader extends a base named here, and the difference is
said where the extension is defined:

* the statute reader is case-sensitive and built for speed over hundreds of megabytes (its
  patterns are compiled at import in deontic, which mypyc compiles), and grades confidence, so
  it knows more statute-only forms (`shall be deemed`, `may differ`);
* the claim reader is case-insensitive and knows the plain-English forms, so its lists are wider
  where answers paraphrase (`is free to`, `is barred from`).

Regex fragments are strings, compiled by each reader with its own flags.
"""

from __future__ import annotations

from collections.abc import Iterable

from groundwork.wording.lists import words


def either(alternatives: Iterable[str]) -> str:
    """A regex alternation of whole words or fragments, longest first (then alphabetical): with
    a boundary after it, any order matches the same text, and a fixed order keeps the pattern
    the same in every process (a set's order is not)."""
    return "|".join(sorted(alternatives, key=lambda word: (-len(word), word)))


# --- pronouns ----------------------------------------------------------------------------------

# A subject that is a pronoun names no party: "it shall", "they must".
PERSONAL_PRONOUNS = words("pronouns")
# The pronouns a party in a claim can be (groundwork.claims.roles): "I", "one" too.
PARTY_PRONOUNS = PERSONAL_PRONOUNS | {"i", "one"}
# ... and the words that point back at an actor named before (the verdict's actors): "this".
POINTING_PRONOUNS = PARTY_PRONOUNS | {"this", "these"}
# The claim reader's subject is a clause segment, which can be a bare relative word too ("who").
SEGMENT_PRONOUNS = POINTING_PRONOUNS | {"which", "that", "who"}
# The statute reader compares the subject's exact text, so it lists the capitalised forms. "We"
# is left out, as it has always been: a statute's "We" is rare, and adding it would move the
# register's confidences.
STATUTE_PRONOUNS = (PERSONAL_PRONOUNS | {w.capitalize() for w in PERSONAL_PRONOUNS}) - {"We"}

# --- clause parts ------------------------------------------------------------------------------

# Prepositions that open a subject's tail or an adverbial that is no subject. The claim reader
# adds "into" ("in consultation with", "into the record": no subject).
PREPOSITIONS = words("prepositions")
# Words that open a relative clause after a noun: "information that must be kept".
RELATIVE_WORDS = ("that", "which", "who", "whom", "whose", "where", "when")
# "as defined in ...": a definitional aside, no clause of its own. The statute reader's subject
# tails add the statute forms (`as referred to`, `as set out`, `as laid down`, `as listed`),
# the claim reader's asides add "as used in".
DEFINING_PARTICIPLES = ("defined", "described", "provided", "specified")
# The determiners that open a named party ("by the court", "for any person").
PARTY_DETERMINERS = ("the", "a", "an", "any", "each", "its", "such")

# --- modal words -------------------------------------------------------------------------------

# "is required to": a duty. The claim reader adds the plain-English ones (`expected`,
# `supposed`, `compelled`, `bound`, `directed`, `instructed`).
DUTY_PARTICIPLES = ("required", "obliged", "obligated", "mandated")
# "is permitted to": leave. Both readers add `entitled`, `empowered`; the claim reader adds
# `free`, `able`, `eligible`, `at liberty`.
LEAVE_PARTICIPLES = ("permitted", r"authori[sz]ed", "allowed")
# "is prohibited from": a ban. The claim reader adds `banned`, `barred`, `precluded`,
# `disallowed`.
BAN_PARTICIPLES = ("prohibited", "forbidden")
# A negation that holds whatever the case: "shall in no event", "may under no circumstances".
ABSOLUTE_NEGATION = r"in\s+no\s+(?:case|event)|under\s+no\s+circumstances?"
# "shall not only", "may not later than", "not less than": the "not" negates no modal.
NOT_A_NEGATION = ("only", "later", "less", "more")
# Verbs after "may" that speak of what is possible, not of leave ("may include"). The claim
# reader adds "be" (it asks for a "whether"/"that" before); the statute reader adds its own list.
EPISTEMIC_VERBS = words("epistemic_verbs")

# --- asides ------------------------------------------------------------------------------------

# Between a modal and its verb (statute reader): "shall, within 30 days, notify", or up to a
# colon or dash, "must, in accordance with § 164.306:".
COMMA_ASIDE = r"\s*,[^,;:—–]{1,150}?(?:,|(?=[:—–]))"
# Inside a subject (claim reader): a parenthesis with a space, "(except employees of the
# office)", not an enumerator "(a)"; or ", as defined in section 1.03 of this chapter,".
PARENTHETICAL_ASIDE = (
    r"\((?=[^()]*\s)[^()]*\)|,\s*as\s+(?:"
    + either((*DEFINING_PARTICIPLES, "used"))
    + r")\s+(?:in|by|under)\s[^,;:()]*,"
)
