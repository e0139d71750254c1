"""Who does what to whom: the parties of a deontic reading, compared by their head nouns.

An answer that gets the duty right but the party wrong ("the business associate must notify
each individual" for "... notify the covered entity") misleads as much as a wrong number. A
reading names up to two parties:

* the **actor**: the subject of an active clause, or the "by" phrase of a passive or
  predicative one ("counsel shall be appointed by the court");
* the **recipient** of a verb of telling or handing over: the object of "notify", "tell",
  "inform" ("notify the covered entity"), or the "to" phrase of "provide", "send", "submit",
  "disclose", "report", "pay" ("provide a copy to the individual"), or "provide the individual
  with a copy".

Parties are compared by the head of their noun phrase, the words before an "of", a participle
or a relative clause, and after an opening possessive that owns a party ("the patient's
family" is the family): "the covered entity or business associate disclosing such information"
is "covered entity or business associate", and "the recipient of a disclosure" is "recipient".
Heads compare by exact term, because the stems of a party and its counterpart are often
one letter apart (employer / employee, grantor / grantee); a few parties have two names
(the Secretary and HHS, an agency and "the Department").

A party can also be put in another's place in any "to", "with", "from" or "by" phrase ("file
a complaint with the State attorney general" for "with the Secretary"); `party_slots` finds
those phrases whose head is a party noun or a name, so that a party the claim names where the
quote names another, neither text naming the other's, is caught whatever the verb.

A claim often restates a rule without any modal ("The Secretary decides what constitutes the
minimum necessary"). `assertions` reads such a sentence against the quote's own verbs, so its
actor can be compared too.
"""

from __future__ import annotations

import re

from groundwork.claims.lexicon import content_terms, is_adverb, term
from groundwork.wording.grammar import PARTY_PRONOUNS

# Verbs whose object is the party told: "notify the covered entity".
TELLING = frozenset(map(term, "notify tell inform advise warn alert contact".split()))  # noqa: SIM905
# Verbs whose "to" phrase is the party handed something: "provide a copy to the individual".
HANDING = frozenset(
    map(
        term,
        """provide give send submit disclose report deliver mail forward transmit pay return
        furnish offer grant issue present refer""".split(),  # noqa: SIM905
    )
)
# Nouns that name a party by its role in a transaction: a claim that makes one of them the actor
# where the quote names another party has swapped the actor, even if the quote never names it.
ROLE_NOUNS = frozenset(
    map(
        term,
        """recipient requester sender discloser holder applicant employer employee landlord
        tenant buyer seller lender borrower licensee licensor grantee grantor contractor
        subcontractor vendor""".split(),  # noqa: SIM905
    )
)
# Nouns that title one office-holder: two titles that share no word name two people ("the
# chief information security officer" is not "the senior agency official for privacy").
TITLES = frozenset(
    map(
        term,
        """officer official director administrator supervisor manager commissioner comptroller
        inspector examiner auditor counsel secretary chief chair chairman chairperson
        coordinator clerk judge marshal registrar treasurer controller superintendent warden
        ombudsman president""".split(),  # noqa: SIM905
    )
)
# Verbs of the recipient's side: "each individual must receive a notice" for "shall notify".
RECEIVING = frozenset(map(term, "receive obtain get".split()))  # noqa: SIM905
# Verbs by which a duty holder lets a beneficiary act: "shall allow clients to inspect" is
# restated as "clients can inspect".
ENABLING = frozenset(map(term, "permit allow let enable provide grant offer afford".split()))  # noqa: SIM905
# Heads of "to" phrases that name no party: "to the extent practicable", "to the date".
_NOT_PARTIES = frozenset(
    map(
        term,
        """extent degree maximum minimum contrary end date time section paragraph subsection
        provision requirement standard rule law regulation purpose manner form format
        address location""".split(),  # noqa: SIM905
    )
)
_DETERMINERS = r"(?:the|a|an|any|each|every|all|its|his|her|their|such|that|this|those|these)"
# A party's name runs to a clause break; the periods of "D.C." and "U.S." break none.
_NAME = r"(?:[^,;:.]|(?<=\b[A-Z])\.(?=[A-Z]\.|\s+[A-Z]))"
_TO_PARTY = re.compile(rf"\bto\s+(?P<party>{_DETERMINERS}\s+{_NAME}+|[A-Z]{_NAME}*)")
_WITH_PARTY = re.compile(rf"^(?P<party>{_DETERMINERS}\s+[^,;:.]+?)\s+with\b", re.IGNORECASE)
_OBJECT = re.compile(rf"^(?P<party>{_DETERMINERS}\s+[^,;:.]+|(?-i:[A-Z])[^,;:.]*)", re.IGNORECASE)
# Where a party's head ends: a preposition, a relative word, a clause word (or a participle
# after the head noun: "the entity disclosing the record").
_HEAD_END = re.compile(
    r"\s(?:of|to|for|in|on|at|with|within|under|upon|after|before|from|by|about|that|which"
    r"|who|whose|when|where|if|unless|without|as|and\s+(?:to|shall|must|may)"
    r"|may|shall|must|will|can|is|are|was|were|has|have|any|each|every|all|such)\b",
    re.IGNORECASE,
)
_VERB_WORD = re.compile(r"[A-Za-z]+")
# "give the patient a statement": a party, then a second object opening with its determiner.
_DOUBLE_OBJECT = re.compile(
    rf"^(?P<party>{_DETERMINERS}\s+(?:[\w'’-]+\s+){{0,4}}?[\w'’-]+)\s+"
    r"(?:a|an|the|its|their|his|her|any|such|this|that|written|copies|notice)\s",
    re.IGNORECASE,
)
_SKIPPED = frozenset({"be", "been", "being", "not", "never", "also", "only", "promptly"})


_POSSESSIVE = ("'s", "s'", "’s", "s’")
# Names of one party: the Secretary (of HHS) and HHS, an agency and "the Department".
_SAME_PARTIES = {
    term(a): frozenset(term(b) for b in names.split() if b != a)
    for names in ("secretary hhs", "agency department")
    for a in names.split()
}


def head(party: str | None) -> str:
    """A party's head noun phrase: "the covered entity" of "the covered entity disclosing such
    information", "each individual" of "each individual of the breach"."""
    words = _HEAD_END.split(party or "", maxsplit=1)[0].split()
    words = _owned(words)
    participle = next(
        (i for i, w in enumerate(words) if i > 1 and w.lower().endswith("ing")), len(words)
    )
    return " ".join(words[:participle])


def _owned(words: list[str]) -> list[str]:
    """The words of a party a possessive names ("the patient's family" is the family, not the
    patient), when the owner opens the phrase and what it owns is a party ("the commissioner's
    guidelines" stay the commissioner's)."""
    owner = next((i for i, w in enumerate(words[:-1]) if w.endswith(_POSSESSIVE)), None)
    if owner is None or {"or", "and"} & {w.lower() for w in words[:owner]}:
        return words
    owned = words[owner + 1 :]
    return owned if term(owned[-1]) in PARTY_NOUNS else words


def head_terms(party: str | None) -> frozenset[str]:
    """The content terms of a party's head noun phrase (empty for none)."""
    return frozenset(content_terms(head(party))) if party else frozenset()


def same_party(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two heads name the same party when they share a term exactly, or a term and its other
    name ("HHS" for "the Secretary")."""
    return bool(a & b) or bool(_other_names(a) & b)


def _other_names(terms: frozenset[str]) -> frozenset[str]:
    return frozenset(name for t in terms for name in _SAME_PARTIES.get(t, ()))


def named_terms(party: str | None) -> frozenset[str]:
    """The terms of a party's head with the party's other names: "HHS" is also "secretari"."""
    terms = head_terms(party)
    return terms | _other_names(terms)


def recipient(governed: str, verb: str) -> str | None:
    """The party a verb of telling or handing over addresses in the clause it governs
    (`governed`: the text after the trigger), or None."""
    if verb in TELLING:
        rest = _after_verb(governed)
        found = _OBJECT.match(rest) if rest is not None else None
    elif verb in HANDING:
        rest = _after_verb(governed) or ""
        found = _WITH_PARTY.match(rest) or _TO_PARTY.search(governed) or _first_object(rest)
    else:
        return None
    party = found.group("party").strip(" ,;:") if found else None
    return None if party is None or head_terms(party) & _NOT_PARTIES else party


def _first_object(rest: str) -> re.Match[str] | None:
    """The first of two objects, if it is a party: "give the patient a statement"."""
    found = _DOUBLE_OBJECT.match(rest)
    return found if found and is_party(found.group("party")) else None


def _after_verb(governed: str) -> str | None:
    """The text after the governed verb (past `be`, `not` and adverbs), or None."""
    for word in _VERB_WORD.finditer(governed):
        lowered = word.group(0).lower()
        if lowered not in _SKIPPED and not is_adverb(lowered):
            return governed[word.end() :].strip()
    return None


# Nouns that name a party: a phrase headed by one (or by a capitalised name) is a party slot.
PARTY_NOUNS = frozenset(
    map(
        term,
        """secretary general attorney court judge board commission department agency official
        officer director administrator service entity associate provider plan person
        individual patient client resident employee staff supervisor manager specialist
        committee council government state district organization company contractor
        physician nurse psychiatrist psychologist family guardian parent representative
        respondent petitioner applicant complainant consumer customer member user recipient
        sender owner operator landlord tenant employer lender borrower institution facility
        hospital clinic prosecutor auditor inspector examiner investigator commissioner
        comptroller governor mayor legislature sheriff police insurer issuer processor
        clearinghouse sponsor researcher trustee custodian fiduciary counsel lawyer counselor
        therapist pharmacist dentist technician licensee registrant beneficiary enrollee
        participant subscriber spouse child victim witness defendant plaintiff claimant
        appellant appellee broker dealer carrier bank vendor supplier manufacturer contractor
        subcontractor designee delegate agent bureau office division library school university
        college firm corporation partnership association authority regulator""".split(),  # noqa: SIM905
    )
)
_PRONOUNS = PARTY_PRONOUNS
_PEOPLE = frozenset(
    map(
        term,
        """individual person member user consumer customer client patient resident employee
        staff family public""".split(),  # noqa: SIM905
    )
)
_SLOT = re.compile(  # a lookahead, so that the next phrase is searched for inside this one
    rf"\b(?P<slot>to|with|from|by)\s+(?=(?P<party>{_DETERMINERS}\s+[^,;:.()]+"
    r"|(?-i:[A-Z])[^,;:.()]*))",
    re.IGNORECASE,
)
ACTOR_SLOT = "by"  # the subject of an active clause and a "by" phrase name who acts


def party_slots(text: str) -> list[tuple[str, str]]:
    """(preposition, party) for each "to", "with", "from" or "by" phrase of a text that names
    a party: "with the Secretary", "by the residents of the housing", "from its senior agency
    official". The preposition is the party's role: recipient, counterpart, source, actor."""
    slots = []
    for found in _SLOT.finditer(text):
        party = head(found.group("party"))
        if is_party(party):
            slots.append((found.group("slot").lower(), party))
    return slots


def is_party(phrase: str | None) -> bool:
    """A noun phrase that names a party: a capitalised name after its first word ("the
    Secretary", "GSA SecOps") or one headed by a party noun ("the covered entity", "its senior
    agency official"; not "the administrative provisions")."""
    words = (phrase or "").split()
    if not head_terms(phrase) or (len(words) == 1 and words[0].lower() in _PRONOUNS):
        return False
    named = any(w[:1].isupper() for w in words[1:]) or (len(words) == 1 and _name(words[0]))
    return named or term(words[-1]) in PARTY_NOUNS | TITLES


def _name(word: str) -> bool:
    """A lone word that names a party ("Congress", "HHS"): capitalised, and not a plural
    common noun that opens a sentence ("Matters that were raised may not be")."""
    plural = word[1:].islower() and word.endswith("s") and not word.endswith("ss")
    return word[:1].isupper() and not plural


def generic(phrase: str) -> bool:
    """A party named only as a kind of person ("users", "each member"): answers swap these
    for one another when they paraphrase or widen a rule, not only when they get it wrong."""
    terms = head_terms(phrase)
    return bool(terms) and terms <= _PEOPLE
