"""Small bar charts for the report's summary, drawn as inline SVG in Python.

The report is one self-contained page that opens offline under a Content-Security-Policy that
forbids every request, so a chart library cannot be loaded: each chart is a few rectangles and
labels, with its numbers written beside the bars (and in an accessible label) so a reader never
has to estimate a length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from groundwork.report.markup import esc
from groundwork.report.nav import result_label

ROW = 22  # pixels per bar
LABEL_W = 280  # the labels' column
BAR_W = 260  # the longest bar
WIDTH = LABEL_W + BAR_W + 50  # room for the number after the longest bar
MAX_LABEL = 40  # characters of a label before it is cut (the full label is the bar's tooltip)
TOP_SOURCES = 8  # bars of the evidence chart; the rest are summed into one


def _cut(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def bar_chart_svg(title: str, bars: list[tuple[str, int]]) -> str:
    """A horizontal bar chart of labelled counts, its title in a figure caption; an empty
    list draws a caption that says there is nothing to count."""
    caption = f'<figcaption class="gw-chart-title">{esc(title)}</figcaption>'
    if not bars:
        return f'<figure class="gw-chart">{caption}<p class="gw-chart-empty">None.</p></figure>'
    top = max(n for _, n in bars) or 1
    height = ROW * len(bars) + 4
    described = "; ".join(f"{label}: {n}" for label, n in bars)
    rows = []
    for i, (label, n) in enumerate(bars):
        y = i * ROW + 2
        width = round(BAR_W * n / top)
        rows.append(
            f'<g class="gw-bar" data-label="{esc(label)}" data-value="{n}"><title>{esc(label)}: '
            f'{n}</title><text x="{LABEL_W - 6}" y="{y + 15}" text-anchor="end">'
            f"{esc(_cut(label))}</text>"
            f'<rect x="{LABEL_W}" y="{y + 3}" width="{width}" height="{ROW - 6}" rx="2"></rect>'
            f'<text class="gw-bar-n" x="{LABEL_W + width + 5}" y="{y + 15}">{n}</text></g>'
        )
    svg = (
        f'<svg viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-label="{esc(title)}: {esc(described)}">{"".join(rows)}</svg>'
    )
    return f'<figure class="gw-chart">{caption}{svg}</figure>'


def answers_by_result(answers: Iterable[dict]) -> list[tuple[str, int]]:
    """Answers counted by result and grounding confidence, the most frequent first."""
    counts = Counter(
        f"{result_label(a['result'])} · {a['grounding_confidence'] or 'no confidence'}"
        for a in answers
    )
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def evidence_by_source(evidence: Iterable[dict]) -> list[tuple[str, int]]:
    """Requirements in the report's evidence counted by source, the most cited first; past
    TOP_SOURCES, the rest summed as one bar."""
    ranked = sorted(
        Counter(row["citation"] for row in evidence).items(), key=lambda kv: (-kv[1], kv[0])
    )
    if len(ranked) <= TOP_SOURCES:
        return ranked
    rest = ranked[TOP_SOURCES - 1 :]
    return [*ranked[: TOP_SOURCES - 1], (f"{len(rest)} other sources", sum(n for _, n in rest))]


def summary_charts_html(answers: list[dict], evidence: list[dict]) -> str:
    """The summary's two charts: answers by result and confidence, evidence by source."""
    return (
        '<div class="gw-charts">'
        + bar_chart_svg("Answers by result and grounding confidence", answers_by_result(answers))
        + bar_chart_svg("Evidence quoted, by source", evidence_by_source(evidence))
        + "</div>"
    )
