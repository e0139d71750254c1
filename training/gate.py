"""The trained grounding gate's threshold and margin, from plain dev's tuning half and train's
near-misses.

The gate (`verify: trained`) accepts a candidate requirement when the dense encoder's cosine of
the question and the quote (groundwork/models/scores.py gate_scorer, the text as
groundwork/verify/trained.py gate_text builds it) reaches a threshold and the hard validators
pass. This script takes a published run over ../shared/corpus with data/plain-questions/dev.jsonl
and `verify: rules` (the candidates do not depend on the gate; the rules' verdicts are the bar),
scores every candidate pair of the run once,
through the gate itself, and for each threshold counts, per half of dev (training.plain
tuning_half), the answerable questions answered citing an expected document, those answered
citing none, and the near-miss questions refused; beside them, what the run's own gate did.

The gate has two thresholds: one for the model alone, and a lower one (`lexical`) for a quote
the lexical rules verify too (the rules' verdicts are the run's own, so the run must be
`verify: rules`). The choice, on the tuning half and the train split's near-miss questions (the
tuning half has only 8 near-misses, too few to hold a refusal rate; no model trains on
near-misses): among the pairs of thresholds that refuse at least as many near-miss questions as
the lexical rules, the one answering most questions citing an expected document, then the one
answering fewest citing none, then the higher threshold, then the higher lower one (equal to the
threshold: no lower one). Then the margin below the question's best candidate: the narrowest
that answers as many questions citing an expected document (what it drops are citations beside
the best, not answers). All three are written into models/dense/model.json; the reported half
is printed beside the rules, never chosen on. The run answers `--questions-out`'s file: dev and
those near-misses.

    .venv/bin/python -m training.gate --questions-out /tmp/gate-questions.jsonl
    printf 'verify: rules\\n' > /tmp/rules.yaml
    .venv/bin/groundwork run --corpus ../shared/corpus --questions /tmp/gate-questions.jsonl \\
        --config /tmp/rules.yaml -w /tmp/gw-dev
    .venv/bin/python -m training.gate --warehouse /tmp/gw-dev
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundwork.models.inference import MODELS_DIR
from groundwork.models.relevance import DENSE
from groundwork.models.scores import gate_scorer
from groundwork.verify.scope import out_of_scope
from groundwork.verify.trained import Gate, TrainedVerifier
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import literal_sql, query
from groundwork.warehouse.store import Warehouse
from training.crossencoder import card_with_section
from training.plain import split_questions, tuning_half

THRESHOLDS = np.round(np.arange(0.30, 0.8001, 0.005), 3)
LEXICAL_BELOW = np.round(np.arange(0.0, 0.1001, 0.01), 3)  # how far under the threshold, at most
MARGINS = [float(m) for m in np.round(np.arange(0.025, 0.201, 0.025), 3)]


@dataclass(frozen=True)
class Outcome:
    """One half of dev under one gate: answerable questions answered citing an expected
    document (`right`) or citing none (`wrong`), near-miss questions refused, and their totals."""

    right: int
    wrong: int
    refused: int
    answerable: int
    near_misses: int

    def row(self) -> str:
        return (
            f"{self.right}/{self.answerable} citing an expected document, {self.wrong} citing "
            f"none, {self.refused}/{self.near_misses} near-misses refused"
        )


def outcome(accepted: dict[str, set[str]], questions: list[dict]) -> Outcome:
    """The outcome of a gate that accepted, per question, candidates in these documents."""
    right = wrong = refused = 0
    for q in questions:
        docs = accepted.get(q["id"], set())
        if not q["answerable"]:
            refused += not docs
        elif docs & {a["doc_id"] for a in q["answers"]}:
            right += 1
        elif docs:
            wrong += 1
    near = sum(not q["answerable"] for q in questions)
    return Outcome(right, wrong, refused, len(questions) - near, near)


def judged_candidates(warehouse: Warehouse) -> list[dict]:
    """Every candidate pair of the published run, judged by the trained gate with no threshold
    (so a row is rejected only by a validator, or out of its question's scope, as the verify
    stage rejects it: groundwork/verify/scope.py) beside the run's own verdict (the lexical
    rules', in a `verify: rules` run) and its question's best score (`best`: of the candidates
    the validators pass; its own where none does), which no choice of threshold changes."""
    with warehouse.connect(read_only=True) as con:
        run = query(con, "runs/published").fetchone()[0]
        parts = run_parts(
            warehouse, run, "retrievals", "questions", "chunks", "requirements", "verifications"
        )
        pairs = con.execute(literal_sql("answers/candidate_pairs", **parts)).to_arrow_table()
        verified = con.execute(
            f"SELECT question_id, requirement_id FROM {parts['verifications']} WHERE verified"
        ).fetchall()
        outside = out_of_scope(con, pairs, ())
    scorer = gate_scorer()
    rows = TrainedVerifier({}, scorer, Gate(0.0, scorer.version)).verifications(pairs).to_pylist()
    by_run = set(verified)
    doc = dict(zip(pairs["requirement_id"].to_pylist(), pairs["doc_id"].to_pylist(), strict=True))
    judged = [
        {
            "question_id": r["question_id"],
            "doc_id": doc[r["requirement_id"]],
            "score": r["score"] or 0.0,
            "valid": r["rejection_reason"] is None
            and (r["question_id"], r["requirement_id"]) not in outside,
            "run_verified": (r["question_id"], r["requirement_id"]) in by_run,
        }
        for r in rows
    ]
    best: dict[str, float] = {}  # per question, its best candidate the validators pass
    for r in (r for r in judged if r["valid"]):
        best[r["question_id"]] = max(r["score"], best.get(r["question_id"], r["score"]))
    return [{**r, "best": best.get(r["question_id"], r["score"])} for r in judged]


def accepted_at(
    rows: list[dict],
    threshold: float | None,
    margin: float | None = None,
    lexical: float | None = None,
) -> dict[str, set[str]]:
    """Question -> documents of its accepted candidates: at `threshold` (or `lexical`, for a
    quote the rules verified) and within `margin` of the question's best candidate (as
    groundwork/verify/trained.py judges), or the run's own (`threshold` None)."""
    accepted: dict[str, set[str]] = {}
    for r in rows:
        near = margin is None or r["score"] >= r["best"] - margin
        if threshold is None:
            ok = r["run_verified"]
        else:
            worded = lexical is not None and r["run_verified"] and r["score"] >= lexical
            ok = r["valid"] and (r["score"] >= threshold or worded)
        if ok and near:
            accepted.setdefault(r["question_id"], set()).add(r["doc_id"])
    return accepted


def chosen(rows: list[dict], tuning: list[dict]) -> tuple[float, float]:
    """The threshold and the lower one for quotes the rules verify (equal: none), as the module
    docstring describes, from the tuning half."""
    floor = outcome(accepted_at(rows, None), tuning).refused
    pairs = [(float(t), float(round(t - below, 3))) for t in THRESHOLDS for below in LEXICAL_BELOW]
    outcomes = {pair: outcome(accepted_at(rows, pair[0], None, pair[1]), tuning) for pair in pairs}
    fits = {pair: o for pair, o in outcomes.items() if o.refused >= floor}
    if not fits:
        raise SystemExit("no threshold refuses as many near-misses as the rules")
    return max(fits, key=lambda pair: (fits[pair].right, -fits[pair].wrong, *pair))


def chosen_margin(
    rows: list[dict], tuning: list[dict], threshold: float, lexical: float
) -> float | None:
    """The narrowest margin that costs the tuning questions no answer citing an expected
    document: the candidates it drops only add citations beside the best (None: none does)."""
    kept = outcome(accepted_at(rows, threshold, None, lexical), tuning).right
    fits = [
        m
        for m in MARGINS
        if outcome(accepted_at(rows, threshold, m, lexical), tuning).right >= kept
    ]
    return min(fits, default=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-dev"))
    parser.add_argument("--model", type=Path, default=MODELS_DIR / DENSE)
    parser.add_argument("--questions-out", type=Path, help="write the run's questions; stop")
    args = parser.parse_args()
    dev = split_questions("dev")
    near_misses = [q for q in split_questions("train") if not q["answerable"]]
    if args.questions_out:
        lines = (json.dumps(q, ensure_ascii=False) + "\n" for q in dev + near_misses)
        args.questions_out.write_text("".join(lines), encoding="utf-8")
        return
    rows = judged_candidates(Warehouse(args.warehouse))
    tuning = [q for q in dev if tuning_half(q["id"])] + near_misses
    halves = {
        "dev tuning half, train near-misses": tuning,
        "dev reported half": [q for q in dev if not tuning_half(q["id"])],
    }
    threshold, lexical = chosen(rows, tuning)
    margin = chosen_margin(rows, tuning, threshold, lexical)
    lines = []
    for name, questions in halves.items():
        rules = outcome(accepted_at(rows, None), questions)
        gate = outcome(accepted_at(rows, threshold, margin, lexical), questions)
        alone = outcome(accepted_at(rows, threshold, margin), questions)
        lines += [f"| {name} | {gate.row()} | {alone.row()} | {rules.row()} |"]
    print("\n".join(lines))
    meta_path = args.model / "model.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    below = lexical if lexical < threshold else None
    chosen_gate = {"threshold": threshold, "margin": margin, "lexical": below}
    meta_path.write_text(json.dumps({**meta, **chosen_gate}, indent=1) + "\n")
    card = GATE_CARD.format(threshold, below, margin, *lines)
    card_with_section(args.model, "The grounding gate", card)


GATE_CARD = """
`verify: trained` (the default) accepts a candidate requirement when this encoder's cosine of the
question and the quote (with its lead-in and context) reaches `threshold` in model.json ({}), or
`lexical` ({}) for a quote the lexical rules verify too (it holds the question's words), stands
within `margin` ({}) of the question's best candidate, and the hard validators pass.
training/gate.py chose them on the plain-language dev split's tuning half and the train split's
near-miss questions: among the pairs of thresholds refusing as many near-miss questions as the
lexical rules, the one answering most questions citing an expected document; then the narrowest
margin that answers as many citing one (what it drops are extra citations beside the best).

| questions | this gate | the model alone (`threshold`) | the lexical rules |
|---|---|---|---|
{}
{}
"""


if __name__ == "__main__":
    main()
