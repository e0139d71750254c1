"""The model backend end to end against a real OpenAI-protocol server on localhost (scripted
model, injected faults): retries, failures counted, nothing lost or duplicated, the cache, the
token budget, replay, prompt injection and the API key."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from groundwork.llm.cache import export_cache, import_cache
from groundwork.warehouse.store import Warehouse
from schemas.config import ModelBackend, RunConfig
from tests.support.model_server import INJECTED_ID, Script, scripted_server
from tests.support.paths import FIXTURES
from tests.support.runs import flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
CORPUS = FIXTURES / "model_corpus"
QUESTIONS = FIXTURES / "model_questions.yaml"
STAGES = ("extract", "verify", "compose")


def model_config(base_url: str, **settings) -> RunConfig:
    """All three stages on the server; fast retries so the fault tests stay quick."""
    backend = {
        "base_url": base_url,
        "model": "scripted",
        "timeout_s": 1.0,
        "backoff_s": 0.01,
        "max_retries": 2,
        **settings.pop("backend", {}),
    }
    return RunConfig(
        workers=1, data_docs=False, **{s: ModelBackend(**backend) for s in STAGES}, **settings
    )


def model_usage(warehouse: Path, config: RunConfig) -> dict:
    """A full run (never short-cut as unchanged: these tests are about the model stages)."""
    summary = flow_run(CORPUS, warehouse, QUESTIONS, config, force=True)
    assert summary.status == "published", summary
    return summary.model_usage


def published_tables(warehouse: Path) -> dict[str, list[tuple]]:
    """The published tables that must not change when faults are retried."""
    return {
        "requirements": rows(
            warehouse,
            "SELECT requirement_id, exact_quote, extractor FROM current_requirements ORDER BY 1",
        ),
        "verifications": rows(
            warehouse,
            "SELECT question_id, requirement_id, verified, verifier FROM current_verifications "
            "ORDER BY 1, 2",
        ),
        "answers": rows(
            warehouse, "SELECT question_id, final_answer, composer FROM current_answers ORDER BY 1"
        ),
        "citations": rows(
            warehouse, "SELECT statement_id, requirement_id FROM current_citations ORDER BY 1, 2"
        ),
    }


def rejections(warehouse: Path) -> list[tuple]:
    """What the first run's model stages dropped or could not get (a second run over the same
    corpus copies unchanged documents' extraction and asks nothing new)."""
    return rows(
        warehouse,
        "SELECT stage, item, reason, detail FROM model_rejections "
        "WHERE run_id = (SELECT min(run_id) FROM runs) ORDER BY ALL",
    )


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, prefect_harness) -> dict:
    """One run with no faults, then a second run over the unchanged corpus."""
    warehouse = tmp_path_factory.mktemp("clean")
    with scripted_server() as (url, seen):
        first = model_usage(warehouse, model_config(url))
        sent = seen.requests
        second = model_usage(warehouse, model_config(url))
        resent = seen.requests - sent
    return {
        "warehouse": warehouse,
        "first": first,
        "second": second,
        "sent": sent,
        "resent": resent,
    }


def test_every_stage_calls_the_model_and_records_its_usage(clean):
    for stage in STAGES:
        used = clean["first"][stage]
        assert used["calls"] > 0 and used["prompt_tokens"] > 0 and used["completion_tokens"] > 0
        assert used["failures"] == 0 and used["retries"] == 0
    assert sum(u["calls"] for u in clean["first"].values()) == clean["sent"]
    stored = rows(clean["warehouse"], "SELECT model_usage FROM runs ORDER BY started_at")
    assert json.loads(stored[0][0]) == clean["first"]


def test_second_run_over_unchanged_corpus_makes_zero_model_calls(clean):
    assert clean["resent"] == 0
    assert all(used["calls"] == 0 for used in clean["second"].values())
    # extraction and composition are not even asked: unchanged documents' candidates and the
    # answers of questions whose evidence is unchanged are copied from the first run;
    # verification is answered from the cache
    assert clean["second"]["extract"]["cache_hits"] == 0
    assert clean["second"]["compose"]["cache_hits"] == 0
    assert clean["second"]["verify"]["cache_hits"] > 0
    stored = rows(clean["warehouse"], "SELECT model_usage FROM runs ORDER BY started_at")
    assert sum(u["calls"] for u in json.loads(stored[1][0]).values()) == 0


def test_model_output_goes_through_the_validators(clean):
    warehouse = clean["warehouse"]
    reasons = {(stage, reason) for stage, _, reason, _ in rejections(warehouse)}
    # the scripted model proposes a quote that is in no passage, cites an ID it was not given,
    # and writes an <unverified> block: each is dropped and recorded
    assert ("extract", "not_verbatim") in reasons
    assert ("compose", "unverified_by_model") in reasons
    extracted = rows(warehouse, "SELECT extractor FROM current_requirements")
    assert extracted and all(e.startswith("model:scripted extract-v1") for (e,) in extracted)
    claims = rows(
        warehouse,
        "SELECT c.verdict, c.action FROM current_claims c "
        "JOIN current_statements s USING (statement_id) WHERE s.form = 'claim'",
    )
    assert claims  # every model claim was checked, and none is published as fact unsupported
    assert all(action != "kept" for verdict, action in claims if verdict == "UNSUPPORTED")
    failed = rows(
        warehouse, "SELECT check_name FROM check_results WHERE NOT passed AND severity = 'hard'"
    )
    assert failed == []


def test_prompt_injection_cannot_produce_a_published_citation(clean):
    warehouse = clean["warehouse"]
    # the planted sentence itself is corpus text and may be quoted; its ID never becomes a marker
    for table, text in (("current_statements", "text"), ("current_answers", "final_answer")):
        hits = rows(
            warehouse, f"SELECT count(*) FROM {table} WHERE {text} LIKE '%[{INJECTED_ID}]%'"
        )
        assert hits == [(0,)]
    assert rows(
        warehouse, f"SELECT count(*) FROM current_citations WHERE requirement_id = '{INJECTED_ID}'"
    ) == [(0,)]
    dropped = [
        detail for stage, _, reason, detail in rejections(warehouse) if reason == "unknown_citation"
    ]
    assert any(INJECTED_ID in d for d in dropped)
    # the planted text's own obligation is still extracted: documents are data
    quotes = [q for (q,) in rows(warehouse, "SELECT exact_quote FROM current_requirements")]
    assert any("privacy office" in q for q in quotes)
    assert not any("never need to notify anyone" in q for q in quotes)


def test_transient_faults_are_retried_and_change_nothing(clean, tmp_path):
    script = Script(faults={1: "429", 3: "500", 5: "timeout", 7: "truncated", 10: "schema"})
    with scripted_server(script) as (url, _):
        usage = model_usage(tmp_path, model_config(url, backend={"concurrency": 1}))
    assert published_tables(tmp_path) == published_tables(clean["warehouse"])
    assert sum(u["retries"] for u in usage.values()) == 3  # 429, 500, timeout
    assert sum(u["failures"] for u in usage.values()) == 0
    # truncated and schema-violating replies cost one repair request each
    assert sum(u["calls"] for u in usage.values()) == clean["sent"] + 3 + 2
    assert rejections(tmp_path) == rejections(clean["warehouse"])
    duplicates = rows(
        tmp_path,
        "SELECT requirement_id, count(*) FROM current_requirements GROUP BY 1 HAVING count(*) > 1",
    )
    assert duplicates == []


def test_persistent_failures_are_recorded_and_fall_back_to_the_rules(tmp_path):
    marker = "Notification to the Secretary"  # every request about that chunk fails
    with scripted_server(Script(persistent={marker: "500"})) as (url, _):
        usage = model_usage(tmp_path, model_config(url))
    failed = [r for r in rejections(tmp_path) if r[2] == "server_error"]
    assert failed and all("HTTP 500" in detail for *_, detail in failed)
    assert usage["extract"]["failures"] >= 1 and usage["extract"]["retries"] >= 2
    assert {item for _, item, _, _ in failed} == {"us-cfr-45-164.408#0000"}
    fallback = rows(
        tmp_path,
        "SELECT DISTINCT extractor FROM current_requirements "
        "WHERE chunk_id = 'us-cfr-45-164.408#0000'",
    )
    assert fallback == [("rules (model fallback)",)]


def test_without_fallback_a_failed_item_is_recorded_and_not_judged(tmp_path):
    script = Script(persistent={"<requirement>": "schema"})  # every verification is garbage
    with scripted_server(script) as (url, _):
        usage = model_usage(tmp_path, model_config(url, backend={"fallback": "none"}))
    assert usage["verify"]["failures"] == usage["verify"]["calls"] // 2  # one repair each
    verdicts = rows(
        tmp_path, "SELECT DISTINCT verified, rejection_reason FROM current_verifications"
    )
    assert set(verdicts) <= {(False, "verifier_unavailable"), (False, "not_verbatim")}
    answers = rows(tmp_path, "SELECT DISTINCT result FROM current_answers")
    assert answers == [("NO_AUTHORITATIVE_EVIDENCE",)]
    invalid = [r for r in rejections(tmp_path) if r[0] == "verify"]
    assert invalid and all(reason == "invalid_output" for _, _, reason, _ in invalid)


def test_token_budget_stops_cleanly_with_a_clear_message(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="groundwork"), scripted_server() as (url, seen):
        usage = model_usage(tmp_path, model_config(url, token_budget=1_500))
    spent = sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage.values())
    assert spent < 1_500 + 2_000  # requests in flight when the budget ran out may finish
    stopped = [r for r in rejections(tmp_path) if r[2] == "token_budget"]
    assert stopped
    assert "token budget of 1500 is spent" in caplog.text
    assert seen.requests == sum(u["calls"] for u in usage.values())


def test_exported_cache_replays_a_run_without_a_server(clean, tmp_path):
    exported = tmp_path / "cache.parquet"
    with Warehouse(clean["warehouse"]).connect() as con:
        assert export_cache(con, exported) > 0
    replayed = tmp_path / "replayed"
    with Warehouse(replayed).connect() as con:
        assert import_cache(con, exported) > 0
    config = model_config("http://127.0.0.1:9/v1", replay=True)  # nothing listens there
    usage = model_usage(replayed, config)
    assert all(u["calls"] == 0 for u in usage.values())
    assert published_tables(replayed)["answers"] == published_tables(clean["warehouse"])["answers"]


def test_api_key_is_sent_but_never_stored_or_logged(tmp_path, monkeypatch, caplog):
    secret = "sk-test-4f1c2a9e-never-store-me"
    monkeypatch.setenv("GROUNDWORK_TEST_KEY", secret)
    with caplog.at_level(logging.DEBUG), scripted_server() as (url, seen):
        model_usage(tmp_path, model_config(url, backend={"api_key_env": "GROUNDWORK_TEST_KEY"}))
    assert seen.authorization == {f"Bearer {secret}"}
    assert secret not in caplog.text
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    config = rows(tmp_path, "SELECT config FROM runs")[0][0]
    assert "GROUNDWORK_TEST_KEY" in config and secret not in config


def test_missing_api_key_is_one_clear_rejection_per_item(tmp_path, monkeypatch):
    monkeypatch.delenv("GROUNDWORK_ABSENT_KEY", raising=False)
    with scripted_server() as (url, seen):
        model_usage(tmp_path, model_config(url, backend={"api_key_env": "GROUNDWORK_ABSENT_KEY"}))
    assert seen.requests == 0
    reasons = {(reason, detail) for _, _, reason, detail in rejections(tmp_path)}
    assert {r for r, _ in reasons} == {"no_api_key"}
    assert any("GROUNDWORK_ABSENT_KEY is not set" in d for _, d in reasons)


def test_api_key_can_come_from_a_prefect_secret_block(tmp_path):
    from prefect.blocks.system import Secret

    Secret(value="sk-from-a-secret-block").save("groundwork-test-key", overwrite=True)
    with scripted_server() as (url, seen):
        model_usage(tmp_path, model_config(url, backend={"api_key_secret": "groundwork-test-key"}))
    assert seen.authorization == {"Bearer sk-from-a-secret-block"}
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"sk-from-a-secret-block" not in path.read_bytes(), path
