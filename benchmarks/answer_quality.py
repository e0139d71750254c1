"""Answer quality on the shipped question set (data/questions.yaml), from a run's warehouse.

Each question says whether the sample corpus can answer it and which documents hold the answer.
This reports: answerable questions answered, unanswerable ones correctly NO_AUTHORITATIVE_EVIDENCE,
the share of citations that point into an expected document (citation precision), and the share
of answered questions citing at least one expected document.

    .venv/bin/groundwork run --corpus data/corpus --questions data/questions.yaml -w /tmp/gw-qa
    .venv/bin/python benchmarks/answer_quality.py --warehouse /tmp/gw-qa
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import duckdb
import yaml

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=REPO / "data" / "questions.yaml")
    args = parser.parse_args()
    expected = {
        q["question_id"]: q for q in yaml.safe_load(args.questions.read_text())["questions"]
    }
    con = duckdb.connect(str(args.warehouse / "groundwork.duckdb"), read_only=True)
    results = dict(con.execute("SELECT question_id, result FROM current_answers").fetchall())
    cited = con.execute(
        "SELECT c.question_id, r.doc_id FROM current_citations c "
        "JOIN current_requirements r USING (requirement_id)"
    ).fetchall()
    answerable = [q for q, e in expected.items() if e["expected"] == "answerable"]
    unanswerable = [q for q, e in expected.items() if e["expected"] == "unanswerable"]
    answered = [q for q in answerable if results.get(q) == "ANSWERED"]
    refused = [q for q in unanswerable if results.get(q) == "NO_AUTHORITATIVE_EVIDENCE"]
    scored = [(q, d in expected[q]["expected_sources"]) for q, d in cited if q in answerable]
    hit_questions = {q for q, ok in scored if ok}
    report = {
        "questions": len(expected),
        "answerable_answered": f"{len(answered)}/{len(answerable)}",
        "answerable_answered_rate": round(len(answered) / len(answerable), 3),
        "unanswerable_refused": f"{len(refused)}/{len(unanswerable)}",
        "citation_precision": round(sum(ok for _, ok in scored) / len(scored), 3)
        if scored
        else None,
        "answered_citing_an_expected_source": round(len(hit_questions) / len(answered), 3)
        if answered
        else None,
        "false_answers": sorted(set(unanswerable) - set(refused)),
        "missed": sorted(set(answerable) - set(answered)),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
