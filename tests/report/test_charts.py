"""The report's summary charts (groundwork/report/charts.py): inline SVG bars for tiny inputs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from groundwork.report.charts import (
    TOP_SOURCES,
    answers_by_result,
    bar_chart_svg,
    evidence_by_source,
    summary_charts_html,
)


def _bars(html: str) -> list[tuple[str, int, int]]:
    """(label, number, bar width) of each bar, read back from the SVG."""
    svg = ET.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))
    return [
        (g.get("data-label"), int(g.get("data-value")), int(g.find("rect").get("width")))
        for g in svg.iter("g")
    ]


def test_bars_are_proportional_and_carry_their_numbers() -> None:
    html = bar_chart_svg("Answers", [("ANSWERED · high", 4), ("ANSWERED · low", 2), ("none", 0)])
    assert html.startswith('<figure class="gw-chart">') and "Answers</figcaption>" in html
    bars = _bars(html)
    assert [(label, n) for label, n, _ in bars] == [
        ("ANSWERED · high", 4),
        ("ANSWERED · low", 2),
        ("none", 0),
    ]
    assert [w for *_, w in bars] == [260, 130, 0]
    assert 'aria-label="Answers: ANSWERED · high: 4; ANSWERED · low: 2; none: 0"' in html
    assert ">4</text>" in html and ">2</text>" in html


def test_labels_are_escaped_and_long_ones_cut() -> None:
    html = bar_chart_svg("<b>", [("A & B <script>" + "x" * 60, 1)])
    assert "<script>" not in html and "&lt;b&gt;" in html
    assert "…</text>" in html  # cut on the chart, whole in its tooltip and label
    assert _bars(html)[0][0].startswith("A & B <script>xxx")


def test_an_empty_chart_says_so() -> None:
    assert "None." in bar_chart_svg("Evidence", []) and "<svg" not in bar_chart_svg("E", [])


def test_answers_are_counted_by_result_and_confidence() -> None:
    answers = [
        {"result": "ANSWERED", "grounding_confidence": "high"},
        {"result": "ANSWERED", "grounding_confidence": "high"},
        {"result": "NO_AUTHORITATIVE_EVIDENCE", "grounding_confidence": None},
    ]
    assert answers_by_result(answers) == [
        ("Answered · high", 2),
        ("No authoritative evidence · no confidence", 1),
    ]


def test_evidence_beyond_the_top_sources_is_summed() -> None:
    rows = [{"citation": f"S{i:02d}"} for i in range(12) for _ in range(12 - i)]
    bars = evidence_by_source(rows)
    assert len(bars) == TOP_SOURCES
    assert bars[0] == ("S00", 12)
    assert bars[-1] == ("5 other sources", 5 + 4 + 3 + 2 + 1)
    assert sum(n for _, n in bars) == len(rows)
    assert evidence_by_source([{"citation": "A"}]) == [("A", 1)]


def test_summary_charts_make_no_request() -> None:
    html = summary_charts_html([{"result": "ANSWERED", "grounding_confidence": "low"}], [])
    assert html.count("<figure") == 2
    assert not re.search(r"(src|href)=|url\(|https?:", html.replace('xmlns="http', ""))
