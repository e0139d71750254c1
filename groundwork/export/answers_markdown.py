"""answers.md: every answer of a run as Markdown, each [REQ-...] marker a `[^n]` footnote.

Footnotes are numbered once per requirement across the file, so a requirement cited by several
answers keeps one note, and a Sources section lists every cited document once. A heading's
question_id and question come from the user's questions file, which may hold `<script>` or
`[text](link)`: they are escaped, so a Markdown viewer shows them as written.
"""

from __future__ import annotations

import re

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


def answers_markdown(run_id: str, answers: list[dict], sources: list[dict]) -> str:
    """The Markdown report of a run's answers."""
    by_id = {s["requirement_id"]: s for s in sources}
    numbers: dict[str, int] = {}

    def footnote(match: re.Match[str]) -> str:
        number = numbers.setdefault(match.group(1), len(numbers) + 1)
        return f"[^{number}]"

    lines = [f"# Answers (run {run_id})", ""]
    for answer in answers:
        lines += [
            f"## {markdown_text(answer['question_id'])}: {markdown_text(answer['question'])}",
            "",
            f"*{answer['result']}*, grounding confidence **{answer['grounding_confidence']}** "
            f"({answer['verified_count']} verified requirements)",
            "",
            _MARKER.sub(footnote, answer["final_answer"]),
            "",
        ]
    for requirement_id, number in numbers.items():
        src = by_id[requirement_id]
        url = f" <{src['url']}>" if src["url"] else ""
        lines.append(f'[^{number}]: {requirement_id}, {location(src)}, "{src["title"]}".{url}')
    documents = {(s["citation"] or s["title"], s["title"], s["url"]) for s in sources}
    lines += ["", "## Sources", ""]
    for citation, title, url in sorted(documents, key=lambda d: d[0]):
        lines.append(f"- {citation}: {title}" + (f" <{url}>" if url else ""))
    return "\n".join(lines) + "\n"
