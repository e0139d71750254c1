"""The way around a report of thousands of answers: a question index that stays in view, a
search over questions, quotes and sources, and filters by result, confidence, topic,
jurisdiction and source type. All of it works in the page (assets/report.js), offline.

Each answer's section carries its facets as data attributes (`facets`); the filters list the
values the report holds, with how many answers have each.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from groundwork.compose.draft import NO_EVIDENCE
from groundwork.report.markup import esc
from groundwork.text.plain import topic_words

RESULTS = {"ANSWERED": "Answered", NO_EVIDENCE: "No authoritative evidence"}
FACETS = {
    "result": "Result",
    "confidence": "Confidence",
    "topic": "Topic",
    "jurisdiction": "Jurisdiction",
    "source": "Source type",
}
WARN = ' <span class="gw-warn" title="more than a fifth of its statements not supported">⚠</span>'
SEPARATOR = "|"  # between the values of a facet an answer has several of


@dataclass(frozen=True)
class Listed:
    """An answer as the index and the filters see it; `warns` when too many of its statements
    are not supported (the index flags it)."""

    anchor: str
    answer: dict
    facets: dict[str, list[str]]
    warns: bool = False


def result_label(result: str) -> str:
    """ANSWERED -> "Answered", NO_AUTHORITATIVE_EVIDENCE -> "No authoritative evidence"."""
    return RESULTS.get(result, result.replace("_", " ").capitalize())


def facets(answer: dict, cited: list[dict]) -> dict[str, list[str]]:
    """An answer's values per facet: its result and confidence, the question's topic, and the
    jurisdictions and source types of its evidence (or, with none, those the question asked)."""
    jurisdictions = {r["jurisdiction"] for r in cited if r["jurisdiction"]}
    sources = {r["source_type"] for r in cited if r["source_type"]}
    if answer.get("jurisdiction"):
        jurisdictions.add(answer["jurisdiction"])
    if not sources:
        sources.update(answer.get("source_types") or [])
    return {
        "result": [answer["result"]],
        "confidence": [answer["grounding_confidence"] or "none"],
        "topic": [answer.get("topic") or "none"],
        "jurisdiction": sorted(jurisdictions) or ["none"],
        "source": sorted(sources) or ["none"],
    }


def facet_attributes(values: dict[str, list[str]]) -> str:
    """The data attributes an answer's section is filtered by."""
    return "".join(f' data-f-{name}="{esc(SEPARATOR.join(vals))}"' for name, vals in values.items())


def _option_label(facet: str, value: str) -> str:
    if facet == "result":
        return result_label(value)
    if facet == "topic":
        return topic_words(value) if value != "none" else "none"
    return value


def _select(facet: str, listed: list[Listed]) -> str:
    counts = Counter(v for item in listed for v in item.facets[facet])
    options = "".join(
        f'<option value="{esc(value)}">{esc(_option_label(facet, value))} ({n})</option>'
        for value, n in sorted(counts.items())
    )
    return (
        f'<label class="gw-facet"><span>{FACETS[facet]}</span>'
        f'<select data-facet="{facet}"><option value="">All</option>{options}</select></label>'
    )


def nav_html(listed: list[Listed]) -> str:
    """The sticky panel: search, filters, the count shown, and the question index."""
    entries = "".join(
        f'<li data-for="{esc(item.anchor)}"><a href="#{esc(item.anchor)}">'
        f'<span class="gw-qid">{esc(item.answer["question_id"])}</span> '
        f'<span class="gw-pill" data-result="{esc(item.answer["result"])}">'
        f"{esc(result_label(item.answer['result']))}</span> "
        f'<span class="gw-conf">{esc(item.answer["grounding_confidence"])}</span>'
        f"{WARN if item.warns else ''}"
        f'<span class="gw-toc-q">{esc(item.answer["question"])}</span></a></li>'
        for item in listed
    )
    selects = "".join(_select(facet, listed) for facet in FACETS)
    n = len(listed)
    return (
        '<nav class="gw-nav" id="gw-nav" aria-label="Questions">'
        '<div class="gw-find" role="search">'
        '<label class="gw-search"><span>Search</span><input type="search" id="gw-q" '
        'placeholder="Questions, quotes, sources" autocomplete="off" aria-keyshortcuts="/" '
        'aria-describedby="gw-keys"></label>'
        f'<div class="gw-facets">{selects}</div>'
        f'<p class="gw-shown" aria-live="polite"><b id="gw-shown-n">{n}</b> of {n} questions '
        '<button type="button" id="gw-reset" hidden>Clear</button></p>'
        '<p class="gw-keys" id="gw-keys"><kbd>/</kbd> search · <kbd>j</kbd> <kbd>k</kbd> next, '
        "previous question · <kbd>Esc</kbd> close or clear</p>"
        '<button type="button" class="gw-toc-toggle" aria-expanded="false" '
        f'aria-controls="gw-toc">Filters and questions</button></div>'
        f'<ol class="gw-toc" id="gw-toc">{entries}</ol></nav>'
    )
