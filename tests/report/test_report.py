"""The HTML report as a pure function of tables: keys, summaries, warnings, chips, escaping."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from groundwork.report.data import ReportTables
from groundwork.report.keys import citation_label, marker_keys
from groundwork.report.render import report_html
from groundwork.report.verdicts import verdict_counts

QUOTE = "A covered entity shall notify each individual within sixty (60) days of discovery."
PASSAGE = f"(a) Standard. {QUOTE} (b) Exceptions apply."


def evidence(rid: str, **fields) -> dict:
    row = {
        "requirement_id": rid,
        "exact_quote": QUOTE,
        "lead_in_quote": None,
        "label_path": "164.404(a)",
        "modality": "obligation",
        "quote_start": PASSAGE.index(QUOTE),
        "quote_end": PASSAGE.index(QUOTE) + len(QUOTE),
        "sentence_start": PASSAGE.index(QUOTE),
        "sentence_end": PASSAGE.index(QUOTE) + len(QUOTE),
        "long_quote": False,
        "passage": PASSAGE,
        "heading": "§ 164.404 Notification to individuals.",
        "chunk_label_path": "164.404",
        "doc_id": "us-cfr-45-164.404",
        "title": "Notification to individuals",
        "citation": "45 CFR § 164.404",
        "source_type": "regulation",
        "jurisdiction": "US-Federal",
        "publisher": None,
        "url": "https://www.ecfr.gov/current/title-45/section-164.404",
        "effective_date": "2013",
        "retrieved": "2019-05-10",
        "hierarchy": ["45 CFR Part 164"],
    }
    return {**row, **fields}


def answered(qid: str, verdicts: list[str], rid: str = "REQ-S0001") -> tuple[dict, list, list]:
    """An answer of len(verdicts) quoted statements, each citing `rid`."""
    text, statements, citations = "1 verified requirement(s) answer this question.\n", [], []
    for n, verdict in enumerate(verdicts, start=1):
        body = f'45 CFR § 164.404(a) (obligation): "{QUOTE}" [{rid}]'
        start = len(text) + 2
        text += f"- {body}\n"
        sid = f"{qid}#S{n:02d}"
        statements.append(
            {
                "statement_id": sid,
                "question_id": qid,
                "ordinal": n,
                "text": body,
                "char_start": start,
                "char_end": start + len(body),
                "form": "quote",
                "support": 1.0,
                "verdict": verdict,
            }
        )
        citations.append(
            {
                "statement_id": sid,
                "question_id": qid,
                "requirement_id": rid,
                "marker": f"[{rid}]",
                "role": "primary",
                "rationale": "the quote covers 80% of the question's weighted terms",
            }
        )
    answer = {
        "question_id": qid,
        "question": f"What must be done ({qid})?",
        "result": "ANSWERED",
        "final_answer": text.rstrip("\n"),
        "grounding_confidence": "low",
        "verified_count": 1,
        "missing_evidence": None,
        "composer": "extractive 1.1",
    }
    return answer, statements, citations


def tables(*answers: tuple[dict, list, list], rows: list[dict] | None = None) -> ReportTables:
    return ReportTables(
        run={"run_id": "r1"},
        answers=[a for a, _, _ in answers],
        statements=[s for _, ss, _ in answers for s in ss],
        citations=[c for _, _, cs in answers for c in cs],
        evidence=rows or [evidence("REQ-S0001")],
    )


def section(page: str, qid: str) -> str:
    """The HTML of one question's <article>."""
    start = page.index(f'data-question="{qid}"')
    return page[start : page.index("</article>", start)]


def test_marker_keys_are_citation_labels_with_suffixes_where_two_collide():
    rows = [
        evidence("REQ-S0002"),
        evidence("REQ-S0001"),
        evidence("REQ-S0003", label_path="164.404(b)"),
    ]
    assert citation_label(rows[2]) == "45 CFR 164.404(b)"
    assert marker_keys(rows) == {
        "REQ-S0001": "45 CFR 164.404(a) a",
        "REQ-S0002": "45 CFR 164.404(a) b",
        "REQ-S0003": "45 CFR 164.404(b)",
    }


def test_thirty_colliding_labels_stay_distinct():
    keys = marker_keys([evidence(f"REQ-S{n:04d}") for n in range(30)])
    assert len(set(keys.values())) == 30 and keys["REQ-S0026"].endswith(" aa")


def test_markers_show_the_key_and_carry_the_requirement_id():
    page = report_html(tables(answered("Q1", ["SUPPORTED"])))
    assert re.search(r'data-req="REQ-S0001"[^>]*>\[45 CFR 164\.404\(a\)\]</button>', page)
    assert '<template id="ev-REQ-S0001">' in page and "[REQ-S0001]" not in page


@pytest.mark.parametrize(
    ("verdicts", "warns"),
    [
        (["SUPPORTED"] * 4 + ["UNSUPPORTED"], False),  # 20 %: not more than 20 %
        (["SUPPORTED"] * 3 + ["UNSUPPORTED", "CONTRADICTED"], True),  # 40 %
        (["PARTIAL"] * 5, False),
    ],
)
def test_warning_only_above_a_fifth_not_supported(verdicts, warns):
    page = report_html(tables(answered("Q1", verdicts)))
    assert ('class="gw-warning"' in section(page, "Q1")) is warns


def test_summaries_count_and_share_each_category():
    page = report_html(
        tables(
            answered("Q1", ["SUPPORTED", "SUPPORTED", "PARTIAL", "UNSUPPORTED"]),
            answered("Q2", ["SUPPORTED", "CONTRADICTED"]),
        )
    )
    q1 = section(page, "Q1")
    assert 'data-verdict="supported" data-count="2"' in q1 and "(50%)" in q1
    assert 'data-verdict="unsupported" data-count="1"' in q1 and "(25%)" in q1
    start = page.index('id="run-summary"')
    run = page[start : page.index("</section>", start)]
    assert 'data-verdict="supported" data-count="3"' in run and "(50.0%)" in run
    assert 'data-verdict="partial" data-count="1"' in run
    assert 'data-verdict="unsupported" data-count="2"' in run and "(33.3%)" in run
    assert page.count('class="gw-stmt"') == 6
    assert page.count('data-verdict="unsupported" data-verdict-label="Not supported"') == 2


def test_a_run_without_the_verdict_column_gets_the_derived_verdicts():
    rows = [{k: v for k, v in s.items() if k != "verdict"} for s in answered("Q1", ["X"] * 2)[1]]
    rows[1] |= {"form": "claim", "support": 0.7}
    counts = verdict_counts(rows)
    assert (counts.supported, counts.partial, counts.unsupported) == (1, 1, 0)


def test_no_authoritative_evidence_says_what_is_missing():
    missing = "No regulation of US-Federal in the corpus states a requirement on breach."
    answer = {
        **answered("Q9", [])[0],
        "result": "NO_AUTHORITATIVE_EVIDENCE",
        "final_answer": f"NO_AUTHORITATIVE_EVIDENCE: {missing}",
        "missing_evidence": missing,
    }
    html = section(report_html(tables((answer, [], []), answered("Q1", ["SUPPORTED"]))), "Q9")
    assert "What is missing:" in html and missing in html
    assert "gw-verdicts" not in html


def test_a_number_chip_points_to_the_same_number_in_the_cited_quote():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    claim = "Individuals must be told within 60 days [REQ-S0001]"
    answer["final_answer"] = f"Intro.\n- {claim}"
    statements[0] |= {"text": claim, "char_start": 9, "char_end": 9 + len(claim)}
    page = report_html(tables((answer, statements, citations)))
    chip = page[page.index('class="gw-num') : page.index('class="gw-cite"')]
    assert ">60 days</button>" in chip
    assert "<mark>sixty (60) days</mark> of discovery." in chip and "[45 CFR 164.404(a)]" in chip
    assert "sixty (60) days → 60 days → P60D" in chip and ">P60D<" in chip


def test_a_number_no_cited_quote_holds_is_flagged():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    claim = "Individuals must be told within 90 days [REQ-S0001]"
    answer["final_answer"] = f"Intro.\n- {claim}"
    statements[0] |= {"text": claim, "char_start": 9, "char_end": 9 + len(claim)}
    page = report_html(tables((answer, statements, citations)))
    assert "gw-chip-unmatched" in page and "not found in the quotes this statement cites" in page


def test_citation_labels_are_not_chips():
    page = report_html(tables(answered("Q1", ["SUPPORTED"])))
    chips = re.findall(r'class="gw-chip"[^>]*>([^<]*)</button>', page)
    assert chips == ["sixty (60) days"]


def test_long_passages_open_on_the_quotes_sentence_with_show_more():
    long = "Lorem ipsum dolor sit amet. " * 40
    opening = "Unless paragraph (b) applies, "
    passage = long + opening + QUOTE + " " + long
    start = len(long) + len(opening)
    row = evidence(
        "REQ-S0001",
        passage=passage,
        quote_start=start,
        quote_end=start + len(QUOTE),
        sentence_start=len(long),
        sentence_end=start + len(QUOTE),
    )
    page = report_html(tables(answered("Q1", ["SUPPORTED"]), rows=[row]))
    short = re.search(r'<span class="gw-passage-short">(.*?)</span>', page).group(1)
    assert short == f'…{opening}<mark class="gw-quote">{QUOTE}</mark>…'
    assert ">Show more</button>" in page
    assert '<span class="gw-passage-full" hidden>' in page


def test_a_long_quote_is_flagged_on_its_card():
    plain = report_html(tables(answered("Q1", ["SUPPORTED"]), rows=[evidence("REQ-S0001")]))
    flagged = report_html(
        tables(answered("Q1", ["SUPPORTED"]), rows=[evidence("REQ-S0001", long_quote=True)])
    )
    assert 'class="gw-long"' not in plain and 'class="gw-long"' in flagged


def test_corpus_text_is_escaped_and_only_http_urls_are_links():
    evil = "<script>alert(\"x\")</script> & 'q'"
    row = evidence(
        "REQ-S0001",
        title=evil,
        jurisdiction=evil,
        heading=evil,
        url="javascript:alert(1)",
        passage=f"{evil} {QUOTE}",
        quote_start=len(evil) + 1,
        quote_end=len(evil) + 1 + len(QUOTE),
    )
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    answer["question"] = evil
    page = report_html(tables((answer, statements, citations), rows=[row]))
    assert "<script>alert" not in page and "&lt;script&gt;alert(&quot;x&quot;)" in page
    assert 'href="javascript' not in page and "javascript:alert(1)" in page
    assert page.count("<script>") == 1  # the report's own


RUN_FILES = ("answers.md", "audit_trail.json", "data_docs/index.html", "changes.md")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fetching: list[tuple[str, str]] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for name in ("src", "srcset", "data", "poster", "action"):
            if name in attrs:
                self.fetching.append((tag, attrs[name]))
        href = str(attrs.get("href", ""))
        # links go to the page's own anchors, to sources on the web, or to the run's own files
        if tag == "link" or (
            tag == "a" and not href.startswith(("#", "http")) and href not in RUN_FILES
        ):
            self.fetching.append((tag, str(attrs)))


def test_the_page_loads_nothing_and_its_ids_are_unique():
    page = report_html(
        tables(answered("Q1", ["SUPPORTED", "PARTIAL"]), answered("Q2", ["PARTIAL"]))
    )
    parser = _Collector()
    parser.feed(page)
    assert parser.fetching == []
    assert "default-src 'none'" in page and "@import" not in page and "url(" not in page
    assert len(parser.ids) == len(set(parser.ids))


def test_a_quote_shows_its_deadline_and_why_it_answers_not_a_bare_supported():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    citations[0].update(
        verifier="rules-verifier 1.1", matched_terms=["notifi", "individu"], quote_coverage=0.75
    )
    q1 = section(report_html(tables((answer, statements, citations))), "Q1")
    assert '<span class="gw-badge">Verbatim quote</span>' in q1
    assert "Why it answers:</b> the quote holds the question&#x27;s words" in q1
    assert '<span class="gw-fact" data-fact="deadline"><b>Deadline</b> within sixty (60) days' in q1


def test_every_question_has_facets_a_permalink_and_an_appendix_linked_by_id():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    answer.update(
        topic="breach-notification",
        jurisdiction=None,
        source_types=[],
        final_answer=answer["final_answer"] + "\nAlso verified, not quoted above: REQ-S0002.",
        unused_requirement_ids=["REQ-S0002"],
    )
    page = report_html(
        ReportTables(
            run={"run_id": "r1"},
            answers=[answer],
            statements=statements,
            citations=citations,
            evidence=[evidence("REQ-S0001"), evidence("REQ-S0002", jurisdiction="US-NY")],
            also_verified=[{"question_id": "Q1", "requirement_id": "REQ-S0002"}],
        )
    )
    q1 = section(page, "Q1")
    assert 'id="Q1"' in page and 'href="#Q1"' in page  # permalink and index entry
    assert 'data-f-jurisdiction="US-Federal|US-NY"' in q1 and 'data-f-source="regulation"' in q1
    assert 'data-f-topic="breach-notification"' in q1 and "topic breach notification" in q1
    # both requirements are in the appendix, each the first time is also its own permalink
    assert 'id="Q1-REQ-S0001"' in q1 and 'id="REQ-S0001"' in q1 and 'id="REQ-S0002"' in q1
    assert 'Also verified, not quoted above: <a class="gw-req" href="#Q1-REQ-S0002">' in q1
    assert "verified, not quoted in the answer" in q1


def test_the_provenance_block_names_run_corpus_config_code_models_checks_and_files():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    run = {
        "run_id": "r1",
        "status": "published",
        "corpus": "data/corpus",
        "corpus_hash": "ab" * 32,
        "documents": 50,
        "config": '{"verify": "trained", "retrieve": "bm25", "extract": "rules", "compose": "rules"}',
        "config_hash": "0123456789abcdef",
        "code_version": "fedcba9876543210",
    }
    checks = [
        {
            "check_name": "citations_valid",
            "table_name": "citations",
            "severity": "hard",
            "metric": "citations whose requirement is not verified",
            "passed": True,
            "offending_rows": 0,
        },
        {
            "check_name": "answer_coverage",
            "table_name": "answers",
            "severity": "soft",
            "metric": "share of questions answered NO_AUTHORITATIVE_EVIDENCE",
            "passed": False,
            "offending_rows": 3,
        },
    ]
    page = report_html(
        ReportTables(
            run, [answer], statements, citations, [evidence("REQ-S0001")], [], checks, "r0"
        )
    )
    block = page[page.index('id="provenance"') : page.index("</section>")]
    assert "data/corpus" in block and 'gw-doc-count">50<' in block and "ab" * 32 in block
    assert "a custom configuration" in block and "0123456789abcdef" in block  # no profile matches
    assert "verify: dense-" in block and "fedcba9876543210" in block
    assert "not the run's" in block  # other code than this: its models may have differed
    assert 'gw-checks-passed">1<' in block and 'gw-checks-failed">1<' in block
    assert "<b>failed</b> (soft): <code>answer_coverage</code>" in block
    for target in ("answers.md", "audit_trail.json", "data_docs/index.html"):
        assert f'href="{target}"' in block
    assert "changes: <code>groundwork diff r0 r1</code>" in block  # no changes.md written


def rejected_row(qid: str, rid: str, **fields) -> dict:
    """A row of sql/report/closest_rejected.sql."""
    row = {
        "question_id": qid,
        "requirement_id": rid,
        "exact_quote": "Such notice shall include " + "the identification of each individual " * 4,
        "label_path": "164.404(c)",
        "doc_id": "us-cfr-45-164.404",
        "citation": "45 CFR § 164.404",
        "title": "Notification to individuals",
        "rejection_reason": "does_not_address_question",
        "rationale": "does not answer the question: score 0.21 < 0.40",
        "score": 0.21,
        "threshold": 0.4,
        "quote_coverage": 0.1,
        "verifier": "trained:relevance-abc",
    }
    return {**row, **fields}


def test_closest_candidates_not_used_sit_under_answers_and_say_what_a_refusal_checked():
    answer, statements, citations = answered("Q1", ["SUPPORTED"])
    citations[0].update(verifier="trained:relevance-abc", score=0.912, threshold=0.4)
    refused = {
        **answered("Q9", [])[0],
        "result": "NO_AUTHORITATIVE_EVIDENCE",
        "final_answer": "NO_AUTHORITATIVE_EVIDENCE: nothing.",
        "missing_evidence": "nothing.",
    }
    evil = "<script>alert(1)</script> & such"
    rejected = [
        rejected_row("Q1", "REQ-S0007"),
        rejected_row("Q9", "REQ-S0008", exact_quote=evil, title=evil),
        rejected_row(
            "Q9",
            "REQ-S0009",
            rejection_reason="requires_inference",
            rationale="the surrounding chunk covers 40% of the question but the quote alone "
            "only 20% (breach)",
            score=None,
            threshold=None,
        ),
    ]
    page = report_html(
        ReportTables(
            run={"run_id": "r1"},
            answers=[answer, refused, answered("Q2", ["SUPPORTED"])[0]],
            statements=statements,
            citations=citations,
            evidence=[evidence("REQ-S0001")],
            closest_rejected=rejected,
            best_scores={"Q1": 0.93, "Q9": 0.35},
        )
    )
    q1, q9 = section(page, "Q1"), section(page, "Q9")
    assert "Why it answers:</b> answers the question: the model reads 0.91, " in q1
    assert "the best candidate 0.93" in q1
    assert ">Closest candidates not used</h3>" in q1 and "What was checked" not in q1
    assert q1.index("gw-notused") < q1.index("gw-appendix")  # above the appendix
    assert q1.count('class="gw-notused-item"') == 1
    assert '<a class="gw-req" href="#Q1-not-REQ-S0007">REQ-S0007</a>' in q1
    assert 'id="Q1-not-REQ-S0007"' in q1
    # the opening of a long quote, not the whole
    assert '<q class="gw-notused-quote">Such notice shall include the identification' in q1
    assert "individual the identification …</q>" in q1 and "individual </q>" not in q1
    assert "45 CFR § 164.404(c), Notification to individuals" in q1
    assert (
        "not used:</b> does not answer the question: the model reads 0.21, the best "
        "candidate 0.93; it accepts from 0.40." in q1
    )
    assert "What was checked" in q9 and q9.count('class="gw-notused-item"') == 2
    assert "only the surrounding text answers it: the surrounding chunk covers 40%" in q9
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in q9
    assert "requires_inference" not in page and "does_not_address_question" not in page
    assert "gw-notused" not in section(page, "Q2")  # nothing rejected, no block
