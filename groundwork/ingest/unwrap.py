"""Join the lines of a paragraph that a PDF's text layer broke where the page's line ended.

A PDF has no paragraphs, only lines placed on a page, so its extracted text breaks a sentence
wherever the printed line ended: `must notify the privacy officer within one hour\\nof
discovering`, or mid-word, `regu-\\nlation`. A requirement quoted from that text would carry the
break. Ingest stores the joined text, and every offset indexes what is stored, so quotes read as
sentences and stay verbatim.

Only a break that cannot end anything is joined: the line before does not end a sentence or a
clause (`.`, `!`, `?`, `:`, `;`, with any closing quote or bracket), and the line after starts
with a lower-case letter. A heading, a list item and a new sentence start otherwise, and keep
their own line; a blank line (a paragraph or page break) is never joined.
"""

from __future__ import annotations

import re

ENDS_CLAUSE = re.compile(r"[.!?:;][\"'”’)\]]*$")
WORD_BREAKS = ("-", "\u00ad")  # a hyphen, a soft hyphen


def unwrapped_lines(text: str) -> str:
    """`text` with each line break inside a paragraph joined: a word broken by a hyphen is made
    whole (`regu-\\nlation` -> `regulation`), any other break becomes one space."""
    lines = text.split("\n")
    joined = [lines[0]]
    for line in lines[1:]:
        before = joined[-1].rstrip()
        after = line.lstrip()
        if not (before and after[:1].islower() and not ENDS_CLAUSE.search(before)):
            joined.append(line)
        elif before.endswith(WORD_BREAKS) and before[-2:-1].isalpha():
            joined[-1] = before[:-1] + after
        else:
            joined[-1] = before + " " + after
    return "\n".join(joined)
