"""Statements as HTML: the answer text with citation markers as buttons and numbers as chips."""

from __future__ import annotations

from collections.abc import Callable

from groundwork.numbers import Mention
from groundwork.report.chips import MARKER, Chip, Source, statement_chips
from groundwork.report.markup import esc
from groundwork.report.verdicts import LABELS, statement_category


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


def _marker_html(requirement_id: str, key: str, citation: dict | None) -> str:
    """A citation marker: shows the key, names its card's template, carries the verifier's
    reason for this question (the card is shared, the reason is not)."""
    why = (citation or {}).get("rationale") or ""
    return (
        f'<span class="gw-cite"><button type="button" class="gw-marker" '
        f'data-req="{esc(requirement_id)}" data-card="ev-{esc(requirement_id)}" '
        f'data-why="{esc(why)}" aria-expanded="false" aria-haspopup="dialog" '
        f'aria-label="Evidence: {esc(key)} ({esc(requirement_id)})">[{esc(key)}]</button></span>'
    )


def statement_html(
    statement: dict,
    element_id: str,
    cited: list[dict],
    citations: dict[str, dict],
    keys: dict[str, str],
    sources: dict[str, list[Source]],
) -> str:
    """One statement: its text with markers as buttons and numbers as chips, and its verdict."""
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
            (match.start(), match.end(), _marker_html(rid, keys.get(rid, rid), citations.get(rid)))
        )
    out, pos = [], 0
    for start, end, piece in sorted(pieces):
        out.append(esc(text[pos:start]) + piece)
        pos = end
    out.append(esc(text[pos:]))
    category = statement_category(statement)
    return (
        f'<span class="gw-stmt" id="{element_id}" data-verdict="{category}" '
        f'data-verdict-label="{LABELS[category]}" '
        f'data-statement="{esc(statement["statement_id"])}">'
        f'{"".join(out)} <span class="gw-badge">{LABELS[category]}</span></span>'
    )


def answer_body_html(
    answer: dict, statements: list[dict], render_statement: Callable[[dict], str]
) -> str:
    """The answer text line by line: headings, paragraphs, and list items holding statements."""
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
        if line.strip().endswith(":"):
            blocks.append(f"<h3>{esc(line.strip().rstrip(':'))}</h3>")
        elif line.strip():
            blocks.append(f"<p>{esc(line.strip())}</p>")
    if items:
        blocks.append(f"<ul>{''.join(items)}</ul>")
    return "".join(blocks)
