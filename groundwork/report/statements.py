"""Statements as HTML: the answer text with citation markers as buttons and numbers as chips."""

from __future__ import annotations

from collections.abc import Callable

from groundwork.compose.extractive import SECTIONS
from groundwork.report.chips import MARKER, Chip, Source, statement_chips
from groundwork.report.facts import facts_html
from groundwork.report.markup import esc
from groundwork.report.verdicts import LABELS, statement_category
from groundwork.text.numbers import Mention


def _plural(m: Mention) -> str:
    """A duration's unit as said with its value: 60 days, 1 year."""
    return f"{m.unit}s" if m.kind == "duration" and m.value != 1 else m.unit


def _chip_html(chip: Chip, surface: str, chip_id: str, keys: dict[str, str]) -> str:
    """A number as a button that expands to its source quote, value and transformation."""
    m = chip.mention
    value = m.normalised if m.kind == "date" else f"{m.value} {_plural(m)}".strip()
    rows = []
    if chip.source is None:
        rows.append("<b>Source</b> not found in the quotes this statement cites")
        transformation = m.transformation
    else:
        source: Source = chip.source
        s = source.mention
        quoted = (
            f"{esc(source.quote[: s.start])}<mark>{esc(s.surface)}</mark>"
            f"{esc(source.quote[s.end :])}"
        )
        rows.append(
            f'<b>Source</b> <q class="gw-chip-quote">{quoted}</q> '
            f"[{esc(keys.get(source.requirement_id, source.requirement_id))}]"
        )
        transformation = s.transformation
    rows.append(f'<b>Value</b> <span class="gw-chip-value">{esc(value)}</span>')
    if m.kind != "date" and value != m.normalised:
        rows.append(f'<b>Normalised</b> <span class="gw-chip-norm">{esc(m.normalised)}</span>')
    if m.qualifier:
        rows.append(f"<b>Qualifier</b> {esc(m.qualifier)}")
    rows.append(f'<b>Transformation</b> <span class="gw-chip-steps">{esc(transformation)}</span>')
    unmatched = " gw-chip-unmatched" if chip.source is None else ""
    details = "".join(f'<span class="gw-chip-row">{r}</span>' for r in rows)
    return (
        f'<span class="gw-num{unmatched}" data-kind="{m.kind}">'
        f'<button type="button" class="gw-chip" aria-expanded="false" aria-controls="{chip_id}" '
        f'title="{esc(m.kind)}: {esc(m.normalised)}">{esc(surface)}</button>'
        f'<span class="gw-chip-detail" id="{chip_id}" role="note" hidden>{details}</span></span>'
    )


def _marker_html(requirement_id: str, key: str, why: str | None) -> str:
    """A citation marker: shows the key, names its card's template, and carries why the
    requirement was verified for this question where its statement does not show it (the card
    is shared, the reason is not)."""
    reason = f' data-why="{esc(why)}"' if why else ""
    return (
        f'<span class="gw-cite"><button type="button" class="gw-marker" '
        f'data-req="{esc(requirement_id)}" data-card="ev-{esc(requirement_id)}"{reason} '
        'aria-expanded="false" aria-haspopup="dialog" '
        f'aria-label="Evidence: {esc(key)} ({esc(requirement_id)})">[{esc(key)}]</button></span>'
    )


def statement_html(
    statement: dict,
    element_id: str,
    cited: list[dict],
    keys: dict[str, str],
    sources: dict[str, list[Source]],
    reasons: dict[str, str] | None = None,
) -> str:
    """One statement: its text with markers as buttons and numbers as chips, its verdict, the
    deadlines, amounts and conditions of its quotes, and why its quote answers the question
    (`reasons`: requirement ID -> why it was verified for the question), once per statement
    that cites one requirement, else on each marker."""
    reasons = reasons or {}
    single = len(cited) == 1
    text = statement["text"]
    pieces: list[tuple[int, int, str]] = []
    for n, chip in enumerate(statement_chips(text, cited, sources), start=1):
        m = chip.mention
        pieces.append(
            (m.start, m.end, _chip_html(chip, text[m.start : m.end], f"{element_id}-n{n}", keys))
        )
    for match in MARKER.finditer(text):
        rid = match.group(1)
        pieces.append(
            (
                match.start(),
                match.end(),
                _marker_html(rid, keys.get(rid, rid), None if single else reasons.get(rid)),
            )
        )
    out, pos = [], 0
    for start, end, piece in sorted(pieces):
        out.append(esc(text[pos:start]) + piece)
        pos = end
    out.append(esc(text[pos:]))
    category = statement_category(statement)
    # A quote the gate verified is supported by construction: the badge says what it is, and
    # the line below why it answers the question.
    quoted = statement.get("form") == "quote" and category == "supported"
    badge = "Verbatim quote" if quoted else LABELS[category]
    why = reasons.get(cited[0]["requirement_id"]) if single else None
    reason = f'<span class="gw-why"><b>Why it answers:</b> {esc(why)}</span>' if why else ""
    return (
        f'<span class="gw-stmt" id="{element_id}" data-verdict="{category}" '
        f'data-verdict-label="{LABELS[category]}" '
        f'data-statement="{esc(statement["statement_id"])}">'
        f'{"".join(out)} <span class="gw-badge">{badge}</span></span>'
        f"{facts_html(cited)}{reason}"
    )


def answer_body_html(
    answer: dict,
    statements: list[dict],
    render_statement: Callable[[dict], str],
    text_html: Callable[[str], str] = esc,
) -> str:
    """The answer text line by line: the overview, section headings (h3) and the groups under
    them (h4), list items holding statements, and other lines as paragraphs (`text_html` turns
    them into HTML, linking requirement IDs)."""
    text = answer["final_answer"]
    by_start = sorted(statements, key=lambda s: s["char_start"])
    blocks: list[str] = []
    items: list[str] = []
    offset = done = 0  # done: the end of the last statement written (one may span lines)
    for raw in text.split("\n"):
        start, end = max(offset, done), offset + len(raw)
        offset = end + 1
        line = text[start:end] if start < end else ""
        inside = [s for s in by_start if start <= s["char_start"] < end]
        if inside:
            pos, parts = start, []
            for s in inside:
                lead = text[pos : s["char_start"]]
                parts.append(esc(lead[2:] if pos == start and lead.startswith("- ") else lead))
                parts.append(render_statement(s))
                pos = done = s["char_end"]
            parts.append(esc(text[pos:end]) if pos < end else "")
            items.append(f"<li>{''.join(parts)}</li>")
            continue
        if items:
            blocks.append(f"<ul>{''.join(items)}</ul>")
            items = []
        line = line.strip()
        if line.endswith(":"):
            level = "h3" if line[:-1] in SECTIONS.values() else "h4"
            blocks.append(f"<{level}>{esc(line[:-1])}</{level}>")
        elif line:
            overview = ' class="gw-overview"' if not blocks else ""
            blocks.append(f"<p{overview}>{text_html(line)}</p>")
    if items:
        blocks.append(f"<ul>{''.join(items)}</ul>")
    return "".join(blocks)
