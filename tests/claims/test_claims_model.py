"""The claim-support model (models/support/, onnxruntime, no torch) and how its reading joins
the rule checks: a named conflict or missing qualifier stands; where the rules named nothing,
the model decides when it is confident; `claims.model: trained` turns it on in the pipeline and
in `groundwork judge claims` alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.corpus import corpus_run
from groundwork.claims.model import (
    CONFIDENT,
    MODEL,
    Reading,
    SupportModel,
    claim_check,
    combined_verdict,
)
from groundwork.claims.verdict import checked_claim
from groundwork.cli import app
from groundwork.models.inference import MODELS_DIR
from groundwork.warehouse.store import Warehouse
from schemas.config import ClaimChecks, RunConfig
from tests.support.paths import SAMPLE_CORPUS

FOLDER = MODELS_DIR / MODEL
QUOTE = "A clinic may disclose the chart to the patient's guardian."
TRAINED = ClaimChecks(model="trained")


def test_reference_pairs_read_as_recorded():
    """Readings recorded with the shipped model when it was trained (int8 arithmetic differs
    between CPUs' kernels: 0.9006 recorded, 0.9126 read on an AMD EPYC; hence the tolerance,
    and the label must be the same)."""
    model = SupportModel(FOLDER)
    recorded = json.loads((FOLDER / "reference.json").read_text())
    assert recorded["model"] == model.version
    got = model.readings([(row["claim"], row["evidence"]) for row in recorded["pairs"]])
    for row, reading in zip(recorded["pairs"], got, strict=True):
        assert reading.label == row["label"], row["claim"]
        assert reading.probability == pytest.approx(row["probability"], abs=0.03)


def test_probabilities_are_a_distribution_over_the_four_verdicts():
    model = SupportModel(FOLDER)
    assert model.info.labels == ["SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED"]
    (reading,) = model.readings([("The clinic may share the chart with the guardian.", QUOTE)])
    assert 0.25 <= reading.probability <= 1.0
    assert 0.0 <= reading.supported_probability <= 1.0


def _reading(label: str, probability: float) -> Reading:
    return Reading(label, probability, probability if label == "SUPPORTED" else 0.0)


def test_a_named_conflict_stands_whatever_the_model_reads():
    check = checked_claim("A clinic must disclose the chart to the patient's guardian.", QUOTE)
    assert check.verdict == "CONTRADICTED"
    assert combined_verdict(check, _reading("SUPPORTED", 0.99)) == check


def test_a_confident_model_decides_where_the_rules_named_nothing():
    check = checked_claim(QUOTE, QUOTE)
    assert check.verdict == "SUPPORTED"
    overruled = combined_verdict(check, _reading("CONTRADICTED", 0.9))
    assert overruled.verdict == "CONTRADICTED"
    assert "claim-support model" in overruled.reason and overruled.issues == check.issues
    assert combined_verdict(check, _reading("CONTRADICTED", CONFIDENT - 0.01)) == check


def test_without_the_setting_no_model_is_asked():
    claim = "A clinic is allowed to hand the chart to the guardian."
    assert claim_check(claim, QUOTE, ClaimChecks()) == checked_claim(claim, QUOTE)


def test_with_the_setting_the_verdict_is_the_rules_joined_with_the_models_reading():
    claim = "A clinic is allowed to hand the chart to the guardian."
    (reading,) = SupportModel(FOLDER).readings([(claim, QUOTE)])
    expected = combined_verdict(checked_claim(claim, QUOTE), reading)
    assert claim_check(claim, QUOTE, TRAINED) == expected


def test_judge_claims_uses_the_model_a_run_config_names(tmp_path):
    claims = tmp_path / "claims.jsonl"
    rows = [
        {
            "id": "p",
            "claim": "A clinic is allowed to hand the chart to the guardian.",
            "evidence": QUOTE,
        },
        {
            "id": "m",
            "claim": "A clinic must disclose the chart to the patient's guardian.",
            "evidence": QUOTE,
        },
    ]
    claims.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "trained.yaml"
    config.write_text("claims:\n  model: trained\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        app, ["judge", "claims", str(claims), "--config", str(config), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    judged = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    for row in rows:
        expected = claim_check(row["claim"], row["evidence"], TRAINED)
        assert judged[row["id"]]["verdict"] == expected.verdict
    assert judged["m"]["verdict"] == "CONTRADICTED"  # the rule's named conflict stands


# A list item under a long lead-in: the model, whose window the lead-in fills, reads the claim
# "lead-in … item" as CONTRADICTED by the same text (0.93), where the rules find it SUPPORTED.
LEAD_IN_LINE = next(
    line.split("2027 ", 1)[1]
    for line in (SAMPLE_CORPUS / "statutes" / "us-ny-mhy-33.13.md").read_text().splitlines()
    if line.startswith("* NB Effective June 30, 2027 (c) Such information")
)
RECORDS = f"""---
doc_id: ny-records
title: Clinical records; confidentiality
source_type: statute
jurisdiction: US-NY
---

{LEAD_IN_LINE}

2. to the mental hygiene legal service.
"""
QUESTION = "May the offices release information about patients or clients to the mental hygiene legal service?"


@pytest.mark.parametrize(("claims", "status"), [(TRAINED, "failed"), (ClaimChecks(), "published")])
def test_a_run_with_the_model_checks_its_claims_with_it(
    tmp_path: Path, prefect_harness, claims: ClaimChecks, status: str
):
    """With the model on, its confident CONTRADICTED reaches the claim and fails the hard
    unsupported-claims check; with the rules alone the same run publishes."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "records.md").write_text(RECORDS)
    questions = tmp_path / "questions.yaml"
    questions.write_text(
        f'questions:\n  - question_id: Q1\n    question: "{QUESTION}"\n    expected: answerable\n'
    )
    summary = corpus_run(
        corpus=str(corpus),
        warehouse=str(tmp_path / "wh"),
        questions=str(questions),
        config=RunConfig(workers=1, data_docs=False, claims=claims),
    )
    assert summary.status == status
    with Warehouse(tmp_path / "wh").connect(read_only=True) as con:
        (reason,) = con.sql(
            "SELECT reason FROM claims WHERE run_id = (SELECT max(run_id) FROM runs)"
        ).fetchone()
    assert ("claim-support model reads the claim as CONTRADICTED" in reason) == (
        claims.model == "trained"
    )
