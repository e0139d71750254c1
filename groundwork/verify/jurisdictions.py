"""Quotes from another state's law.

A question that names a state ("a D.C. therapist", "our New York clinic") asks what that state's
law and federal law require; a quote from a third state's law does not answer it, however close
its words come ("How much can a D.C. therapist charge per page?" is not answered by New York's
"seventy-five cents per page"). Documents carry their jurisdiction as a code (front matter
`jurisdiction`: "US-NY", "US-DC", "US-Federal"); a state's is "US-" and its postal code, and a
code of any other shape (federal, a city, another country) is never a third state's.
"""

from __future__ import annotations

import re

STATES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "District of Columbia": "DC",
    "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL",
    "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA",
    "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN",
    "Mississippi": "MS", "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV",
    "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY",
    "North Carolina": "NC", "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR",
    "Pennsylvania": "PA", "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD",
    "Tennessee": "TN", "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA",
    "Washington": "WA", "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY",
}  # fmt: skip
# Postal codes a question uses for other things: "an ID card", "OR", "IN", "ME", "OK", "HI", "AS";
# "PA" and "MD" for a physician assistant and a doctor, "VA" for Veterans Affairs, "CO", "LA",
# "MS", "DE". Those states are named in full; "D.C." and "N.Y." with their periods too.
_AMBIGUOUS_CODES = frozenset(
    "ID OR IN ME OK HI AS PA MD VA CO LA MS DE".split()  # noqa: SIM905 - a word list reads best so
)
_NAME = re.compile(
    r"\b(?:"
    + "|".join(sorted(map(re.escape, STATES), key=len, reverse=True))
    + r"|D\.\s?C\.|N\.\s?Y\.|NYS|"
    + "|".join(sorted(set(STATES.values()) - _AMBIGUOUS_CODES))
    + r")(?![\w.]\w)"
)
_SPELLED = {"D.C.": "DC", "D. C.": "DC", "N.Y.": "NY", "N. Y.": "NY", "NYS": "NY"}
# "Washington" alone is the city as often as the state: "Washington, D.C." names D.C. only.
_WASHINGTON_DC = re.compile(r"\bWashington,?\s+D\.?\s?C\b")


# A state's law a question asks about by name: "Under Texas medical records privacy law", "per
# Florida law", "California's medical privacy law", "the New York Human Rights Law": the state and
# up to four words before what a law is called, after "under", "per" ... or the state's "'s", or
# else only a title's capitalised words between them. "Our Texas clinic must follow the rules"
# names a place, not its law.
_LAW = r"\s+(?i:laws?|statutes?|code|act|regulations?|rules)\b"
_STATE_LAW = re.compile(
    rf"(?i:\b(?:under|per|by|of|with|according\s+to)\s+(?:the\s+)?)(?P<after>{_NAME.pattern})"
    rf"(?:['’]s)?(?:\s+[\w-]+){{0,4}}?{_LAW}"
    rf"|(?P<owner>{_NAME.pattern})['’]s(?:\s+[\w-]+){{0,4}}?{_LAW}"
    rf"|(?P<titled>{_NAME.pattern})(?:\s+[A-Z][\w-]*){{0,4}}{_LAW}"
)


def named_state_laws(question: str) -> list[str]:
    """The laws of a state a question names, as written from the state on ("Texas law"), each
    once, in order."""
    text = _WASHINGTON_DC.sub("D.C.", question)
    return list(
        dict.fromkeys(text[m.start(m.lastgroup or 0) : m.end()] for m in _STATE_LAW.finditer(text))
    )


def named_states(question: str) -> set[str]:
    """The postal codes of the states (D.C. among them) a question names."""
    text = _WASHINGTON_DC.sub("D.C.", question)
    return {STATES.get(m, _SPELLED.get(m, m)) for m in _NAME.findall(text)}


def state_of(jurisdiction: str | None) -> str | None:
    """The postal code of a document's jurisdiction when it is a state's ("US-NY"), else None."""
    if jurisdiction and re.fullmatch(r"US-[A-Z]{2}", jurisdiction):
        return jurisdiction[3:]
    return None


def other_state(states: set[str], jurisdiction: str | None) -> str | None:
    """Why a quote of `jurisdiction` does not answer a question naming `states`, or None when
    the question names none, or the quote is federal or of a state it names."""
    state = state_of(jurisdiction)
    if not states or state is None or state in states:
        return None
    asked = ", ".join(sorted(states))
    return f"the question asks about {asked}; the quote is the law of {state}"
