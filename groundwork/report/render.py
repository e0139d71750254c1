"""The report page: tables in, one self-contained HTML document out.

Styles and script are inlined and a Content-Security-Policy forbids the page any request, so
the report opens offline and cannot leak. The page has a panel that stays in view (search,
filters, the question index: nav.py), then the run's provenance and verification summary, then
one section per question with its own summary, warning or missing evidence, its statements and
its evidence appendix (appendix.py).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from groundwork.compose.draft import NO_EVIDENCE
from groundwork.report.appendix import Entry, appendix_html, entry_id
from groundwork.report.cards import card_template
from groundwork.report.charts import summary_charts_html
from groundwork.report.chips import quote_sources
from groundwork.report.data import ReportTables
from groundwork.report.keys import marker_keys
from groundwork.report.markup import anchor, esc, requirement_link
from groundwork.report.nav import Listed, facet_attributes, facets, nav_html, result_label
from groundwork.report.provenance import Files, provenance_html
from groundwork.report.rejected import not_used_html
from groundwork.report.statements import answer_body_html, statement_html
from groundwork.report.verdicts import LABELS, WARNING_SHARE, VerdictCounts, verdict_counts
from groundwork.text.plain import topic_words, verified_because

ASSETS = Path(__file__).resolve().parent / "assets"
REQUIREMENT = re.compile(r"\bREQ-[SP]\d{4,}\b")
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def _grouped(rows: Iterable[dict], key: str) -> dict[str, list[dict]]:
    """Rows by the value of one column, in their order."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[row[key]].append(row)
    return grouped


def summary_html(counts: VerdictCounts, label: str, digits: int) -> str:
    """Counts and shares per category, each a toggle that highlights those statements."""
    buttons = "".join(
        f'<button type="button" class="gw-filter" data-verdict="{cat}" '
        f'data-count="{getattr(counts, cat)}" aria-pressed="false">{name} '
        f'<b class="gw-count">{getattr(counts, cat)}</b> '
        f'<span class="gw-share">({counts.share(cat):.{digits}%})</span></button>'
        for cat, name in LABELS.items()
    )
    return (
        f'<div class="gw-verdicts" role="group" aria-label="{esc(label)}" '
        f'data-total="{counts.total}">{buttons}</div>'
    )


def warning_html(counts: VerdictCounts) -> str:
    """The warning an answer carries when too many of its statements are not supported."""
    return (
        f'<p class="gw-warning"><strong>Warning:</strong> {counts.unsupported} of '
        f"{counts.total} statements ({counts.share('unsupported'):.0%}) are not supported by "
        f"their citations (more than {WARNING_SHARE:.0%}).</p>"
    )


def answer_html(
    item: Listed,
    statements: list[dict],
    render_statement: Callable[[dict], str],
    text_html: Callable[[str], str],
    not_used: str,
    appendix: str,
) -> str:
    """One question's section: the question (its permalink), result and confidence, summary,
    warning or missing evidence, the answer, the closest candidates not used, its evidence
    appendix and a way back up."""
    answer, anchor = item.answer, item.anchor
    counts = verdict_counts(statements)
    topic = topic_words(answer.get("topic"))
    meta = (
        f'<p class="gw-meta"><span class="gw-result">{esc(result_label(answer["result"]))}'
        f"</span> · grounding confidence <b>{esc(answer['grounding_confidence'])}</b> "
        f"({esc(answer['verified_count'])} verified requirements)"
        f"{' · topic ' + esc(topic) if topic else ''}</p>"
    )
    if answer["result"] == NO_EVIDENCE:
        body = (
            '<div class="gw-missing"><h3>No authoritative evidence</h3>'
            f"<p><b>What is missing:</b> {text_html(answer['missing_evidence'] or '—')}</p></div>"
        )
        summary = ""
    else:
        body = answer_body_html(answer, statements, render_statement, text_html)
        summary = summary_html(counts, f"Highlight statements of {answer['question_id']}", 0)
        summary += warning_html(counts) if counts.warns else ""
    warn = " gw-warns" if counts.warns else ""
    return (
        f'<article class="gw-answer{warn}" id="{esc(anchor)}" data-scope '
        f'data-question="{esc(answer["question_id"])}"{facet_attributes(item.facets)} '
        f'aria-labelledby="{esc(anchor)}-h"><h2 id="{esc(anchor)}-h" tabindex="-1">'
        f'<a class="gw-permalink" href="#{esc(anchor)}" title="Permalink to this question">'
        f'<span class="gw-qid">{esc(answer["question_id"])}</span></a> '
        f"{esc(answer['question'])}</h2>{meta}{summary}{body}{not_used}{appendix}"
        '<p class="gw-totop"><a href="#top">Back to top</a></p></article>'
    )


def run_summary_html(tables: ReportTables, listed: list[Listed]) -> str:
    """The run's verification summary: results, statement counts, the answers that warn, and
    charts of the answers by result and confidence and of the evidence by source."""
    counts = verdict_counts(tables.statements)
    answered = sum(1 for a in tables.answers if a["result"] != NO_EVIDENCE)
    warned = [i for i in listed if i.warns]
    warn_list = (
        f'<p class="gw-warning">{len(warned)} answer(s) have more than {WARNING_SHARE:.0%} of '
        "their statements not supported: "
        + ", ".join(
            f'<a href="#{esc(i.anchor)}">{esc(i.answer["question_id"])}</a>' for i in warned
        )
        + "</p>"
        if warned
        else ""
    )
    return (
        '<section class="gw-run" id="run-summary" aria-labelledby="run-summary-h">'
        '<h2 id="run-summary-h">Verification summary</h2>'
        f'<p><b class="gw-n-questions">{len(tables.answers)}</b> questions: '
        f'<b class="gw-n-answered">{answered}</b> answered, '
        f'<b class="gw-n-missing">{len(tables.answers) - answered}</b> with no authoritative '
        f'evidence; <b class="gw-n-statements">{counts.total}</b> statements.</p>'
        f"{summary_html(counts, 'Highlight statements of the whole run', 1)}{warn_list}"
        f"{summary_charts_html(tables.answers, tables.evidence)}</section>"
    )


def page_html(run: dict, nav: str, main: str, templates: str) -> str:
    """The document around the report's content, with its own styles and script inlined."""
    css = (ASSETS / "report.css").read_text(encoding="utf-8")
    js = (ASSETS / "report.js").read_text(encoding="utf-8")
    when = str(run.get("started_at") or "")[:19]
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>groundwork report, run {esc(run['run_id'])}</title>"
        f"<style>{css}</style></head><body>"
        '<a class="gw-skip" href="#gw-report">Skip to the answers</a>'
        '<header class="gw-header" id="top"><h1>Compliance answers</h1>'
        f'<p>Run <code class="gw-run-id">{esc(run["run_id"])}</code>'
        f"{', started ' + esc(when) if when else ''}. Every statement cites verified requirements; "
        "select a marker for its evidence, a number for its source.</p></header>"
        f'<div class="gw-layout">{nav}<main id="gw-report" data-scope>{main}</main></div>'
        '<a class="gw-top" href="#top" aria-label="Back to top">↑ Top</a>'
        f'<div class="gw-templates">{templates}</div>'
        f"<script>{js}</script></body></html>\n"
    )


def _ids_linked(text: str, targets: Callable[[str], str]) -> str:
    """Plain text as HTML with every requirement ID a link (`targets` gives its anchor)."""
    return REQUIREMENT.sub(lambda m: requirement_link(m.group(0), targets(m.group(0))), esc(text))


def report_html(tables: ReportTables, files: Files | None = None) -> str:
    """The whole report page of a run. `files` says where the run's other files are from the
    page (the provenance block links them); by default, beside it."""
    files = files or Files("", None)
    keys = marker_keys(tables.evidence)
    evidence = {row["requirement_id"]: row for row in tables.evidence}
    sources = {rid: quote_sources(row) for rid, row in evidence.items()}  # once per quote
    statements = _grouped(tables.statements, "question_id")
    citations = _grouped(tables.citations, "statement_id")
    verdicts = _grouped(tables.citations, "question_id")
    also = _grouped(tables.also_verified, "question_id")
    rejected = _grouped(tables.closest_rejected, "question_id")
    seen: set[str] = set()
    listed, sections = [], []
    for n, answer in enumerate(tables.answers, start=1):
        qid, question = answer["question_id"], answer["question"]
        place, best = anchor(qid, n), tables.best_scores.get(qid)
        why = {
            c["requirement_id"]: verified_because(c, question, best)
            for c in [*verdicts.get(qid, []), *also.get(qid, [])]
        }
        quoted = {c["requirement_id"] for c in verdicts.get(qid, [])}
        entries = [
            Entry(evidence[rid], reason, rid in quoted)
            for rid, reason in why.items()
            if rid in evidence
        ]
        rows = statements.get(qid, [])
        warns = verdict_counts(rows).warns
        item = Listed(place, answer, facets(answer, [e.row for e in entries]), warns)
        listed.append(item)

        def render_statement(s: dict, place: str = place, why: dict = why) -> str:
            cites = dict.fromkeys(c["requirement_id"] for c in citations.get(s["statement_id"], []))
            cited = [evidence[rid] for rid in cites if rid in evidence]
            return statement_html(s, f"{place}-s{s['ordinal']}", cited, keys, sources, why)

        def text_html(line: str, place: str = place, why: dict = why) -> str:
            return _ids_linked(line, lambda i: entry_id(place, i) if i in why else i)

        appendix = appendix_html(place, entries, keys, seen)
        refused = answer["result"] == NO_EVIDENCE
        not_used = not_used_html(place, rejected.get(qid, []), best, refused)
        sections.append(answer_html(item, rows, render_statement, text_html, not_used, appendix))
    templates = "".join(card_template(evidence[rid], key) for rid, key in sorted(keys.items()))
    main = (
        provenance_html(tables.run, tables.checks, tables.previous_run, files)
        + run_summary_html(tables, listed)
        + "".join(sections)
    )
    return page_html(tables.run, nav_html(listed), main, templates)
