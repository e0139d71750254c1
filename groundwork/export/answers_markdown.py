"""answers.md: every answer of a run as Markdown, each [REQ-...] marker a `[^n]` footnote.

Footnotes are numbered once per requirement across the file, so a requirement cited by several
answers keeps one note, and a Sources section lists every cited document once. Under each
answer, why each requirement it cites was verified for it, and the closest candidates the gate
turned down with why ("Not used"), in words: for a refused answer, what was checked. A heading's
question_id and question come from the user's questions file, which may hold `<script>` or
`[text](link)`: they are escaped, so a Markdown viewer shows them as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter

from groundwork.text.plain import quote_opening, rejected_because, verified_because

_MARKER = re.compile(r"\[(REQ-[SP]\d{4,})\]")
# What Markdown (or the HTML it lets through) would act on inside a line: a backslash before any
# ASCII punctuation shows it as itself (CommonMark, "Backslash escapes").
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>&~#|])")


def markdown_text(text: str) -> str:
    """`text` as literal Markdown inline text: no tag, entity, link, code or emphasis in it."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def location(row: dict) -> str:
    """Citation plus subsection labels, e.g. 45 CFR § 164.404(b)."""
    citation = row["citation"] or row["title"]
    path = row["label_path"] or ""
    return citation + (path[path.index("(") :] if "(" in path else "")


@dataclass(frozen=True)
class GateVerdicts:
    """What the grounding gate decided, as answers.md says it under each answer: its verdicts
    on the requirements the answers cite (rows of sql/report/citations.sql), the closest
    candidates it turned down (sql/report/closest_rejected.sql) and each question's best
    gate-model score (sql/report/best_scores.sql). Empty, answers.md shows the answers alone."""

    cited: list[dict] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)
    best: dict[str, float | None] = field(default_factory=dict)


def why_quoted_lines(
    question: str, rows: list[dict], best: float | None, footnote: Callable[[str], str]
) -> list[str]:
    """The "Why quoted" list of one answer: each requirement it cites, its footnote, and why
    it was verified for the question, in words (`rows`: its verdicts, one per citation)."""
    reasons = {row["requirement_id"]: verified_because(row, question, best) for row in rows}
    items = [f"- {rid}{footnote(rid)}: {markdown_text(why)}" for rid, why in reasons.items()]
    return ["Why quoted:", "", *items, ""] if items else []


def not_used_lines(rows: list[dict], best: float | None) -> list[str]:
    """The "Not used" list of one question: each closest rejected candidate's ID, source,
    quote opening and why, in words (none when the gate rejected nothing it judged)."""
    items = [
        f"- {row['requirement_id']} ({markdown_text(location(row))}) "
        f'"{markdown_text(quote_opening(row["exact_quote"]))}" — '
        f"{markdown_text(rejected_because(row, best))}"
        for row in rows
    ]
    return ["Not used:", "", *items, ""] if items else []


def answers_markdown(
    run_id: str, answers: list[dict], sources: list[dict], verdicts: GateVerdicts | None = None
) -> str:
    """The Markdown report of a run's answers, with the gate's reasons where `verdicts` has
    them."""
    verdicts = verdicts or GateVerdicts()
    by_id = {s["requirement_id"]: s for s in sources}
    question = itemgetter("question_id")
    cited, rejected = (
        {q: list(rows) for q, rows in groupby(sorted(table, key=question), question)}
        for table in (verdicts.cited, verdicts.rejected)
    )
    numbers: dict[str, int] = {}

    def footnote(requirement_id: str) -> str:
        return f"[^{numbers.setdefault(requirement_id, len(numbers) + 1)}]"

    lines = [f"# Answers (run {run_id})", ""]
    for answer in answers:
        lines += [
            f"## {markdown_text(answer['question_id'])}: {markdown_text(answer['question'])}",
            "",
            f"*{answer['result']}*, grounding confidence **{answer['grounding_confidence']}** "
            f"({answer['verified_count']} verified requirements)",
            "",
            _MARKER.sub(lambda m: footnote(m.group(1)), answer["final_answer"]),
            "",
        ]
        qid, best = answer["question_id"], verdicts.best.get(answer["question_id"])
        lines += why_quoted_lines(answer["question"], cited.get(qid, []), best, footnote)
        lines += not_used_lines(rejected.get(qid, []), best)
    for requirement_id, number in numbers.items():
        src = by_id[requirement_id]
        url = f" <{src['url']}>" if src["url"] else ""
        lines.append(f'[^{number}]: {requirement_id}, {location(src)}, "{src["title"]}".{url}')
    documents = {(s["citation"] or s["title"], s["title"], s["url"]) for s in sources}
    lines += ["", "## Sources", ""]
    for citation, title, url in sorted(documents, key=lambda d: d[0]):
        lines.append(f"- {citation}: {title}" + (f" <{url}>" if url else ""))
    return "\n".join(lines) + "\n"
