"""Evidence cards: one <template> per cited requirement, which the script clones by a marker.

A card holds what is the same wherever the requirement is cited: the source, its date and URL,
the quote marked inside its passage and where that is. The verdict differs per citation, so
the script writes it in from the marker and its statement.
"""

from __future__ import annotations

from groundwork.report.markup import esc, link

PASSAGE_SHORT = 600  # characters of passage shown whole; a longer one opens on the sentence


def passage_html(row: dict) -> tuple[str, str | None]:
    """The passage with the quote marked, and, when the passage is long, the quote's whole
    sentence with the quote marked (else None): a reader sees the rule the quote belongs to
    before "Show more" opens the passage."""
    passage, start, end = row["passage"] or "", row["quote_start"], row["quote_end"]
    if not (0 <= start < end <= len(passage)) or passage[start:end] != row["exact_quote"]:
        passage, start, end = row["exact_quote"], 0, len(row["exact_quote"])
    mark = f'<mark class="gw-quote">{esc(passage[start:end])}</mark>'
    full = f"{esc(passage[:start])}{mark}{esc(passage[end:])}"
    if len(passage) <= PASSAGE_SHORT:
        return full, None
    first, last = row["sentence_start"], row["sentence_end"]
    if first is None or last is None or not (0 <= first <= start and end <= last <= len(passage)):
        first, last = start, end
    before = ("…" if first > 0 else "") + esc(passage[first:start])
    after = esc(passage[end:last]) + ("…" if last < len(passage) else "")
    return full, f"{before}{mark}{after}"


def place(row: dict) -> str:
    """Where the quote is: the document's hierarchy, the section heading and label path."""
    parts = [
        *(row["hierarchy"] or []),
        row["heading"],
        row["label_path"] or row["chunk_label_path"],
    ]
    return " › ".join(dict.fromkeys(p for p in parts if p)) or "—"


def _date(row: dict) -> str:
    effective, retrieved = row["effective_date"], row["retrieved"]
    if effective and retrieved and retrieved not in effective:
        return f"{effective} (retrieved {retrieved})"
    return effective or (f"retrieved {retrieved}" if retrieved else "—")


def card_template(row: dict, key: str) -> str:
    """The evidence card of one requirement, as a template the script fills per citation."""
    full, short = passage_html(row)
    long_note = (
        ' <span class="gw-long" title="A complete clause past 40 words, quoted whole">'
        "long quote</span>"
        if row["long_quote"]
        else ""
    )
    who = (
        f"<dt>Publisher</dt><dd>{esc(row['publisher'])}</dd>" if row["publisher"] else ""
    ) + f"<dt>Jurisdiction</dt><dd>{esc(row['jurisdiction'] or '—')}</dd>"
    if short is None:
        passage = f'<blockquote class="gw-passage">{full}</blockquote>'
    else:
        passage = (
            f'<blockquote class="gw-passage"><span class="gw-passage-short">{short}</span>'
            f'<span class="gw-passage-full" hidden>{full}</span></blockquote>'
            '<button type="button" class="gw-more" aria-expanded="false">Show more</button>'
        )
    return (
        f'<template id="ev-{esc(row["requirement_id"])}">'
        f'<div class="gw-card" role="dialog" aria-label="Evidence for {esc(key)}" hidden>'
        f'<p class="gw-card-head"><strong>{esc(key)}</strong> '
        f'<a class="gw-req gw-card-req" href="#{esc(row["requirement_id"])}">'
        f"{esc(row['requirement_id'])}</a>{long_note}</p>"
        f'<p class="gw-card-title">{esc(row["title"])}</p>'
        f'<dl class="gw-card-facts"><dt>Citation</dt><dd>{esc(row["citation"])}</dd>{who}'
        f"<dt>Date</dt><dd>{esc(_date(row))}</dd><dt>URL</dt><dd>{link(row['url'])}</dd>"
        f'<dt>Location</dt><dd class="gw-card-location">{esc(place(row))}</dd>'
        f'<dt>Verdict</dt><dd class="gw-card-verdict"></dd></dl>'
        f'{passage}<p class="gw-card-also" hidden></p></div></template>'
    )
