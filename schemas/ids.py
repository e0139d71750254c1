"""The forms of the IDs every table shares: requirement IDs, and the grammar of the IDs a user
gives (`doc_id`, `question_id`).

A requirement ID is minted by the register, so its form is exact. A doc_id or question_id comes
from the user's corpus or questions file and is kept as written (real ones look like
`us-cfr-45-160.101`, `Q001`, a number or a UUID), so its grammar only rules out what would make
it dangerous or ambiguous wherever it is used later, as a path, a URL fragment, an HTML attribute
or one line of a log: a path separator, a control or line-break character, a leading dot (`.`,
`..`, hidden files), outer white space, emptiness, and more than ID_MAX_CHARS characters.
Everything else (quotes, `<`, `&`, `#`, `%`, spaces inside, any script) is allowed, so every
output that shows an ID still escapes it for its own syntax.
"""

from __future__ import annotations

import unicodedata

REQUIREMENT_ID = r"^REQ-[SP]\d{4,}$"

ID_MAX_CHARS = 200
SHOWN_CHARS = 60  # of an ID quoted in a rejection's one-line detail
PATH_SEPARATORS = ("/", "\\")
# Unicode control, format, surrogate, private-use and unassigned characters (C*), and the line
# and paragraph separators (Zl, Zp), which break a line as a newline does.
FORBIDDEN_CATEGORIES = ("C", "Zl", "Zp")


def invalid_id_reason(value: str) -> str | None:
    """Why `value` is not a valid doc_id or question_id (words that follow the ID in a message,
    such as "starts with a dot"), or None when it is valid."""
    if not value:
        return "is empty"
    if len(value) > ID_MAX_CHARS:
        return f"is {len(value):,} characters long (at most {ID_MAX_CHARS})"
    if not value.isprintable():  # rare: only then is each character's category looked up
        for char in value:
            if unicodedata.category(char).startswith(FORBIDDEN_CATEGORIES):
                return f"contains a control character (U+{ord(char):04X})"
    for separator in PATH_SEPARATORS:
        if separator in value:
            return f"contains a path separator ({separator!r})"
    if value.startswith("."):
        return "starts with a dot"
    if value != value.strip():
        return "starts or ends with white space"
    return None


def shown_id(value: str) -> str:
    """An ID as one line of a message: escaped as a Python literal (a newline shows as `\\n`)
    and cut after SHOWN_CHARS characters, so a hostile ID can neither break the line nor fill
    the screen."""
    if len(value) <= SHOWN_CHARS:
        return repr(value)
    return f"{value[:SHOWN_CHARS]!r}..."
