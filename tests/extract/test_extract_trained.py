"""The trained extraction backend: the rules find candidates, the requirement classifier
(models/requirement/, onnxruntime, no torch) decides the duties the rules read with medium or
low confidence; a candidate it sets aside stays in `candidates` and is not registered."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pytest

from flows.corpus import corpus_run
from groundwork.extract.classifier import MODEL, asks_model
from groundwork.extract.rules import candidates as rule_candidates
from groundwork.extract.trained import TrainedExtractor
from groundwork.models.inference import MODELS_DIR, CrossEncoder
from groundwork.text.chunks import chunks
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.requirements import Candidates
from tests.support.paths import SAMPLE_CORPUS
from tests.support.texts import BREACH

FOLDER = MODELS_DIR / MODEL
# Beside BREACH's duties, which the rules read with medium confidence: one they read with high
# confidence, and a permission
MORE = (
    "A covered entity shall notify each affected individual of the breach.\n\n"
    "A covered entity may provide the notice by email."
)


def test_reference_sentences_score_as_recorded():
    """Scores recorded with the shipped model when it was trained (int8 arithmetic may differ in
    the last digits between CPUs, hence the tolerance)."""
    model = CrossEncoder(FOLDER)
    recorded = json.loads((FOLDER / "reference.json").read_text())
    assert recorded["model"] == model.version
    got = model.scores([row["text"] for row in recorded["texts"]])
    for row, score in zip(recorded["texts"], got, strict=True):
        assert score == pytest.approx(row["score"], abs=0.01), row["text"][:60]


def test_the_model_is_asked_only_about_duties_the_rules_are_unsure_of():
    assert asks_model("obligation", "medium") and asks_model("prohibition", "low")
    assert not asks_model("obligation", "high")
    assert not asks_model("permission", "medium")


def test_the_classifier_decides_what_it_is_asked_and_nothing_else():
    docs = pa.table(
        {
            "doc_id": ["d"],
            "citation": ["45 CFR § 164.404"],
            "text": [BREACH + "\n\n" + MORE],
        }
    )
    table = TrainedExtractor().candidates(chunks(docs, 1500))
    checked(table, Candidates, "candidates")
    rows = table.to_pylist()
    # what the rules set aside (a lead-in, a citation note) stays aside, unasked
    aside = {
        r["char_start"]
        for r in rule_candidates(chunks(docs, 1500)).to_pylist()
        if not r["is_requirement"]
    }
    asked = [
        r
        for r in rows
        if r["char_start"] not in aside and asks_model(r["modality"], r["extraction_confidence"])
    ]
    assert aside and 0 < len(asked) < len(rows)
    threshold = CrossEncoder(FOLDER).info.threshold
    for row in rows:
        if row["char_start"] in aside:
            assert row["requirement_score"] is None and not row["is_requirement"]
        elif asks_model(row["modality"], row["extraction_confidence"]):
            assert 0 <= row["requirement_score"] <= 1
            assert row["requirement_model"] == CrossEncoder(FOLDER).version
            assert row["is_requirement"] == (row["requirement_score"] >= threshold)
        else:
            assert row["requirement_score"] is None and row["is_requirement"]


def test_a_candidate_set_aside_is_kept_in_candidates_but_never_registered(
    tmp_path: Path, prefect_harness
):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for path in sorted(SAMPLE_CORPUS.rglob("*.md"))[:6]:
        shutil.copy(path, corpus / path.name)
    summary = corpus_run(
        corpus=str(corpus),
        warehouse=str(tmp_path / "wh"),
        config=RunConfig(workers=1, extract="trained", data_docs=False),
    )
    with Warehouse(tmp_path / "wh").connect(read_only=True) as con:
        aside = con.sql(
            "SELECT count(*) FROM current_candidates WHERE NOT is_requirement"
        ).fetchone()[0]
        kept = con.sql("SELECT count(*) FROM current_candidates WHERE is_requirement").fetchone()[0]
        registered = con.sql(
            "SELECT count(*), count(requirement_score), count(*) FILTER (WHERE requirement_score < 0.5) "
            "FROM current_requirements"
        ).fetchone()
    assert summary.status == "published"
    assert aside > 0
    assert registered[0] == kept
    assert registered[1] > 0 and registered[2] == 0
