"""The report page: tables in, one self-contained HTML document out.

Styles and script are inlined and a Content-Security-Policy forbids the page any request, so
the report opens offline and cannot leak. The page has a run summary and index, then one
section per question with its own summary, warning or missing evidence, and its statements.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from groundwork.report.cards import card_template
from groundwork.report.chips import quote_sources
from groundwork.report.data import ReportTables
from groundwork.report.keys import marker_keys
from groundwork.report.markup import esc
from groundwork.report.statements import answer_body_html, statement_html
from groundwork.report.verdicts import LABELS, WARNING_SHARE, VerdictCounts, verdict_counts

ASSETS = Path(__file__).resolve().parent / "assets"
NO_EVIDENCE = "NO_AUTHORITATIVE_EVIDENCE"
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
    n: int, answer: dict, statements: list[dict], render_statement: Callable[[dict], str]
) -> str:
    """One question's section: the question, its summary, warning or missing evidence, text."""
    counts = verdict_counts(statements)
    meta = (
        f'<p class="gw-meta"><span class="gw-result">{esc(answer["result"])}</span> · grounding '
        f"confidence <b>{esc(answer['grounding_confidence'])}</b> "
        f"({esc(answer['verified_count'])} verified requirements)</p>"
    )
    if answer["result"] == NO_EVIDENCE:
        body = (
            '<div class="gw-missing"><h3>No authoritative evidence</h3>'
            f"<p><b>What is missing:</b> {esc(answer['missing_evidence'] or '—')}</p></div>"
        )
        summary = ""
    else:
        body = answer_body_html(answer, statements, render_statement)
        summary = summary_html(counts, f"Highlight statements of {answer['question_id']}", 0)
        summary += warning_html(counts) if counts.warns else ""
    warn = " gw-warns" if counts.warns else ""
    return (
        f'<article class="gw-answer{warn}" id="a{n}" data-scope '
        f'data-question="{esc(answer["question_id"])}" aria-labelledby="a{n}-h">'
        f'<h2 id="a{n}-h"><span class="gw-qid">{esc(answer["question_id"])}</span> '
        f"{esc(answer['question'])}</h2>{meta}{summary}{body}</article>"
    )


class Entry(NamedTuple):
    """An answer's place in the report (its section is `a<n>`) and its verdict counts."""

    n: int
    answer: dict
    counts: VerdictCounts


def index_html(entries: list[Entry]) -> str:
    """A table of every question, linking to its section: the way in to 2,788 answers."""
    warns = ' class="gw-warns"'
    rows = "".join(
        f'<tr{warns if e.counts.warns else ""}><td><a href="#a{e.n}">'
        f"{esc(e.answer['question_id'])}</a></td><td>{esc(e.answer['question'])}</td>"
        f"<td>{esc(e.answer['result'])}</td><td>{e.counts.supported}</td>"
        f"<td>{e.counts.partial}</td><td>{e.counts.unsupported}</td>"
        f"<td>{'⚠' if e.counts.warns else ''}</td></tr>"
        for e in entries
    )
    return (
        '<details class="gw-index"><summary>All questions</summary><table><thead><tr>'
        "<th>Question</th><th>Text</th><th>Result</th><th>Supported</th><th>Partial</th>"
        f"<th>Not supported</th><th>Warning</th></tr></thead><tbody>{rows}</tbody></table>"
        "</details>"
    )


def run_summary_html(tables: ReportTables, entries: list[Entry]) -> str:
    """The run's verification summary: results, statement counts, the answers that warn."""
    counts = verdict_counts(tables.statements)
    answered = sum(1 for a in tables.answers if a["result"] != NO_EVIDENCE)
    warned = [e for e in entries if e.counts.warns]
    warn_list = (
        f'<p class="gw-warning">{len(warned)} answer(s) have more than {WARNING_SHARE:.0%} of '
        "their statements not supported: "
        + ", ".join(f'<a href="#a{e.n}">{esc(e.answer["question_id"])}</a>' for e in warned)
        + "</p>"
        if warned
        else ""
    )
    return (
        '<section class="gw-run" id="run-summary" aria-labelledby="run-summary-h">'
        '<h2 id="run-summary-h">Verification summary</h2>'
        f'<p><b class="gw-n-questions">{len(tables.answers)}</b> questions: '
        f'<b class="gw-n-answered">{answered}</b> answered, '
        f'<b class="gw-n-missing">{len(tables.answers) - answered}</b> {NO_EVIDENCE}; '
        f'<b class="gw-n-statements">{counts.total}</b> statements.</p>'
        f"{summary_html(counts, 'Highlight statements of the whole run', 1)}{warn_list}"
        f"{index_html(entries)}</section>"
    )


def page_html(run: dict, main: str, templates: str) -> str:
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
        '<header class="gw-header"><h1>Compliance answers</h1>'
        f'<p>Run <code class="gw-run-id">{esc(run["run_id"])}</code>'
        f"{', started ' + esc(when) if when else ''}. Every statement cites verified requirements; "
        "select a marker for its evidence, a number for its source.</p></header>"
        f'<main id="gw-report" data-scope>{main}</main>'
        f'<div class="gw-templates">{templates}</div>'
        f"<script>{js}</script></body></html>\n"
    )


def report_html(tables: ReportTables) -> str:
    """The whole report page of a run."""
    keys = marker_keys(tables.evidence)
    evidence = {row["requirement_id"]: row for row in tables.evidence}
    sources = {rid: quote_sources(row) for rid, row in evidence.items()}  # once per quote
    statements = _grouped(tables.statements, "question_id")
    citations = _grouped(tables.citations, "statement_id")
    entries, sections = [], []
    for n, answer in enumerate(tables.answers, start=1):
        rows = statements.get(answer["question_id"], [])

        def render_statement(s: dict, n: int = n) -> str:
            cites = {c["requirement_id"]: c for c in citations.get(s["statement_id"], [])}
            cited = [evidence[rid] for rid in cites if rid in evidence]
            return statement_html(s, f"a{n}-s{s['ordinal']}", cited, cites, keys, sources)

        entries.append(Entry(n, answer, verdict_counts(rows)))
        sections.append(answer_html(n, answer, rows, render_statement))
    templates = "".join(card_template(evidence[rid], key) for rid, key in sorted(keys.items()))
    return page_html(tables.run, run_summary_html(tables, entries) + "".join(sections), templates)
