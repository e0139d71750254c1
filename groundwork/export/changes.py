"""`groundwork diff` for people: what changed between two runs, with the words that changed
inside a quote marked, as Markdown or as terminal text that wraps at any width.

A changed requirement is the same place in a document with new text; the reader's question is
"what did the law change?", so each one shows its quote once, with the words the old text had
struck and the words the new text has marked, rather than two near-identical paragraphs side by
side in a table (which at 80 columns wrapped one word to a line).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass

from rich.console import Group
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

# A word and the space after it: a quote's tokens keep their own spacing when joined again
_WORD = re.compile(r"\S+\s*")


@dataclass(frozen=True)
class Piece:
    """A run of words of a changed quote: in both texts (`same`), only the old (`gone`), or only
    the new (`new`)."""

    kind: str
    text: str


def word_changes(old: str, new: str) -> list[Piece]:
    """The new quote as pieces, with what the old quote had in their place: words in order,
    compared whole (so a changed number is one gone word and one new word, not digits)."""
    before, after = _WORD.findall(old), _WORD.findall(new)
    matcher = difflib.SequenceMatcher(a=[w.strip() for w in before], b=[w.strip() for w in after])
    pieces: list[Piece] = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("same", "".join(after[b1:b2])))
            continue
        if a2 > a1:
            pieces.append(Piece("gone", "".join(before[a1:a2])))
        if b2 > b1:
            pieces.append(Piece("new", "".join(after[b1:b2])))
    # a quote's last word has no space after it: one that a piece now follows gets one
    return [
        Piece(p.kind, p.text if p.text[-1:].isspace() or p is pieces[-1] else p.text + " ")
        for p in pieces
    ]


def _heading(row: dict) -> str:
    """Which requirement, where: IDs, the document and its label path."""
    ids = " → ".join(i for i in (row["old_id"], row["new_id"]) if i)
    place = f"{row['doc_id']} {row['label_path']}" if row["label_path"] else row["doc_id"]
    return f"{row['change']} {ids} ({place})"


def _counts(rows: list[dict], key: str) -> str:
    counted = Counter(row[key] for row in rows)
    return ", ".join(f"{n} {what}" for what, n in sorted(counted.items())) or "none"


def _answer_line(row: dict) -> str:
    """One answer's change in words: its result and confidence before and after, and the
    citations it gained and lost."""
    parts = [f"{row['change']}"]
    if row["old_result"] != row["new_result"]:
        parts.append(f"result {row['old_result'] or '-'} → {row['new_result'] or '-'}")
    if row["old_confidence"] != row["new_confidence"]:
        parts.append(f"confidence {row['old_confidence'] or '-'} → {row['new_confidence'] or '-'}")
    if row["now_cited"]:
        parts.append(f"now cites {', '.join(row['now_cited'])}")
    if row["no_longer_cited"]:
        parts.append(f"no longer cites {', '.join(row['no_longer_cited'])}")
    return "; ".join(parts)


def changes_markdown(run_a: str, run_b: str, requirements: list[dict], answers: list[dict]) -> str:
    """The changes as Markdown: struck words `~~old~~`, new words `**new**`."""
    lines = [
        f"# Changes from {run_a} to {run_b}",
        "",
        f"## Requirements: {_counts(requirements, 'change')}",
        "",
    ]
    for row in requirements:
        lines += [f"- **{_escape_md(_heading(row))}**", "", f"  > {_quote_markdown(row)}", ""]
    lines += [f"## Answers: {_counts(answers, 'change')}", ""]
    lines += [f"- `{row['question_id']}`: {_escape_md(_answer_line(row))}" for row in answers]
    return "\n".join(lines).rstrip() + "\n"


def _quote_markdown(row: dict) -> str:
    if row["change"] != "changed":
        return _escape_md(row["new_quote"] or row["old_quote"])
    marks = {"same": "{}", "gone": "~~{}~~", "new": "**{}**"}
    pieces = word_changes(row["old_quote"], row["new_quote"])
    return "".join(_wrapped(marks[p.kind], _escape_md(p.text)) for p in pieces).strip()


def _wrapped(mark: str, text: str) -> str:
    """Markdown emphasis around a piece, the space after it outside the marks (else it would
    not render)."""
    core = text.rstrip()
    return mark.format(core) + text[len(core) :] if core else text


def _escape_md(text: str) -> str:
    """Text as literal Markdown on one line: its marks escaped, each run of white space one."""
    return re.sub(r"([\\`*_~\[\]<>|])", r"\\\1", re.sub(r"\s+", " ", text))


def changes_text(run_a: str, run_b: str, requirements: list[dict], answers: list[dict]) -> Group:
    """The changes for a terminal: struck red words for the old text, green for the new, each
    quote one paragraph that wraps at the terminal's width."""
    shown: list[Text | Padding] = [
        Text.from_markup(f"[bold]Changes from {escape(run_a)} to {escape(run_b)}[/]\n"),
        Text.from_markup(f"[bold]Requirements:[/] {escape(_counts(requirements, 'change'))}"),
    ]
    for row in requirements:
        shown.append(Text(f"\n{_heading(row)}", style="bold"))
        quote = Text()
        if row["change"] == "changed":
            styles = {"same": "", "gone": "red strike", "new": "green"}
            for piece in word_changes(row["old_quote"], row["new_quote"]):
                quote.append(piece.text, style=styles[piece.kind])
        else:
            style = "green" if row["change"] == "added" else "red strike"
            quote.append(row["new_quote"] or row["old_quote"], style=style)
        shown.append(Padding(quote, (0, 0, 0, 2)))  # the quote's every line indented
    shown.append(Text.from_markup(f"\n[bold]Answers:[/] {escape(_counts(answers, 'change'))}"))
    shown += [Text(f"  {row['question_id']}: {_answer_line(row)}") for row in answers]
    return Group(*shown)
