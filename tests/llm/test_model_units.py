"""The model backend's parts on tiny inputs: tagged output, validators, retries, config."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import httpx
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.compose.served import model_draft
from groundwork.extract.rules import Chunk
from groundwork.extract.served import validated_candidates
from groundwork.llm.calls import ModelStage
from groundwork.llm.client import InvalidOutput, json_parser, retry_delay, wire_schema
from groundwork.llm.prompts import prompt
from groundwork.llm.tagged import tagged_answer
from groundwork.warehouse.store import Warehouse
from schemas.config import ClaimChecks, ModelBackend, RunConfig
from schemas.model_replies import (
    ComposedAnswer,
    ExtractedRequirement,
    ExtractionReply,
    VerificationReply,
)

BACKEND = ModelBackend(base_url="http://127.0.0.1:9/v1", model="m", backoff_s=1, max_backoff_s=5)
TEXT = (
    "(a) A covered entity shall notify each individual whose unsecured protected health "
    "information has been breached. (b) A business associate shall notify the covered entity."
)


def stage(tmp_path: Path, name: str = "extract") -> ModelStage:
    return ModelStage(Warehouse(tmp_path), "r1", name, BACKEND, RunConfig(), prompt(name))


def chunk(text: str = TEXT) -> Chunk:
    return Chunk("d#0000", "d", "164.404", "164.404", 100, text)


# --- tagged composition ---------------------------------------------------------------------


def test_tagged_answer_keeps_blocks_and_drops_scratchpad():
    reply = tagged_answer(
        'Thinking out loud. <free>In short:</free> <cite key="REQ-S0001, REQ-S0002">A claim.'
        "</cite> more scratch <unverified>A guess.</unverified>"
    )
    assert [(b.kind, b.keys, b.text) for b in reply.blocks] == [
        ("free", [], "In short:"),
        ("cite", ["REQ-S0001", "REQ-S0002"], "A claim."),
        ("unverified", [], "A guess."),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("no tags at all", "no <cite>"),
        ('<cite key="REQ-S0001">cut off', "not closed"),
        ('<cite key="REQ-S0001">a <free>b</free> c</cite>', "not closed|nest"),
        ('<free>a <cite key="REQ-S0001">b</cite></free>', "nest"),
    ],
)
def test_tagged_answer_rejects_malformed_replies(text, problem):
    with pytest.raises(InvalidOutput, match=problem):
        tagged_answer(text)


# --- structured replies ---------------------------------------------------------------------


def test_json_parser_is_strict_and_says_what_is_wrong():
    parse = json_parser(VerificationReply)
    assert parse('{"verdict": "supported", "rationale": "r"}').verdict == "supported"
    with pytest.raises(InvalidOutput, match="verdict"):
        parse('{"verdict": "maybe", "rationale": "r"}')
    with pytest.raises(InvalidOutput, match="Extra inputs"):
        parse('{"verdict": "supported", "rationale": "r", "requirement_id": "REQ-S9999"}')
    with pytest.raises(InvalidOutput):
        parse('{"verdict": "supported", "rationale": ')


def test_wire_schema_drops_length_bounds_but_parsing_keeps_them():
    schema = ExtractionReply.model_json_schema()
    sent = wire_schema(schema)
    assert "maxLength" not in str(sent) and "maxItems" not in str(sent)
    assert "maxLength" in str(schema)
    with pytest.raises(InvalidOutput):
        json_parser(ExtractionReply)('{"requirements": [{"quote": "", "modality": "obligation"}]}')


# --- retries --------------------------------------------------------------------------------


def _error(status: int, headers: dict) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://x/v1/chat/completions")
    response = httpx.Response(status, headers=headers, request=request)
    return openai.APIStatusError("e", response=response, body=None)


def test_retry_after_is_honoured_and_capped():
    assert retry_delay(BACKEND, 0, _error(429, {"retry-after": "2"})) == 2.0
    assert retry_delay(BACKEND, 0, _error(429, {"retry-after": "600"})) == 5.0


@given(st.integers(min_value=0, max_value=12))
def test_backoff_is_exponential_with_full_jitter_under_the_cap(attempt):
    delay = retry_delay(BACKEND, attempt, _error(500, {}))
    assert 0 <= delay <= min(5.0, 1.0 * 2**attempt)


# --- extraction validators ------------------------------------------------------------------


@given(st.data())
def test_kept_quotes_are_verbatim_at_their_offsets(data):
    start = data.draw(st.integers(0, len(TEXT) - 20))
    end = data.draw(st.integers(start + 15, len(TEXT)))
    quote = TEXT[start:end].strip()
    reply = ExtractionReply(
        requirements=[ExtractedRequirement(quote=quote or "x", modality="obligation")]
    )
    # the validators only record rejections in memory: the warehouse is never opened
    for row in validated_candidates(stage(Path("never-opened")), chunk(), reply):
        offset = row["char_start"] - 100
        assert TEXT[offset : offset + len(row["exact_quote"])] == row["exact_quote"]
        assert row["char_end"] - row["char_start"] == len(row["exact_quote"])


def test_extraction_drops_invented_duplicated_and_overlong_quotes(tmp_path):
    s = stage(tmp_path)
    quote = "A business associate shall notify the covered entity."
    reply = ExtractionReply(
        requirements=[
            ExtractedRequirement(
                quote=quote, modality="obligation", subject="A business associate"
            ),
            ExtractedRequirement(quote=quote, modality="obligation"),
            ExtractedRequirement(
                quote="A covered entity must notify the media.", modality="obligation"
            ),
            ExtractedRequirement(quote=" ".join(["word"] * 45), modality="obligation"),
        ]
    )
    rows = validated_candidates(s, chunk(), reply)
    assert [r["exact_quote"] for r in rows] == [quote]
    assert rows[0]["trigger"] == "shall" and rows[0]["subject"] == "A business associate"
    assert rows[0]["char_start"] == 100 + TEXT.index(quote)
    assert [r["reason"] for r in s.rejections] == ["duplicate", "not_verbatim", "not_verbatim"]


def test_a_quote_that_occurs_twice_is_kept_at_both_places(tmp_path):
    text = "Staff must report incidents to the office. Later: Staff must report incidents to the office."
    quote = "Staff must report incidents to the office."
    reply = ExtractionReply(
        requirements=[ExtractedRequirement(quote=quote, modality="obligation")] * 2
    )
    rows = validated_candidates(stage(tmp_path), chunk(text), reply)
    assert [r["char_start"] - 100 for r in rows] == [0, text.rindex(quote)]


# --- composition validators -----------------------------------------------------------------

EVIDENCE = [
    {
        "requirement_id": "REQ-S0001",
        "exact_quote": "A covered entity shall notify each individual within 60 calendar days.",
        "lead_in_quote": None,
        "source_type": "regulation",
        "modality": "obligation",
        "citation": "45 CFR § 164.404",
        "title": "Notification to individuals",
        "doc_id": "d",
        "label_path": "164.404(b)",
        "normalised_quote": "a covered entity shall notify each individual within 60 calendar days",
    }
]
QUESTION = {"question_id": "Q1", "question": "When must individuals be notified?"}


def test_only_cited_claims_become_statements_and_unsupported_ones_are_softened(tmp_path):
    s = stage(tmp_path, "compose")
    reply = ComposedAnswer.model_validate(
        {
            "blocks": [
                {"kind": "free", "text": "In short:"},
                {
                    "kind": "cite",
                    "keys": ["REQ-S0001"],
                    "text": "A covered entity shall notify each individual within 60 calendar days.",
                },
                {"kind": "cite", "keys": ["REQ-S9999"], "text": "Nobody needs to notify anyone."},
                {
                    "kind": "cite",
                    "keys": ["REQ-S0001"],
                    "text": "Fines of 2 million dollars apply to hospitals.",
                },
                {"kind": "free", "text": "Covered entities must also notify the press."},
                {"kind": "unverified", "text": "Probably a state law applies."},
            ]
        }
    )
    draft = model_draft(s, QUESTION, EVIDENCE, reply, ClaimChecks())
    assert [st["form"] for st in draft.statements] == ["claim", "claim"]
    assert draft.statements[0]["text"].endswith("[REQ-S0001]")
    # the invented fine is not in the quote: published only marked as unverified
    assert draft.statements[1]["text"] == (
        "Fines of 2 million dollars apply to hospitals (unverified). [REQ-S0001]"
    )
    assert "In short:" in draft.text and "press" not in draft.text and "Probably" not in draft.text
    assert Counter(r["reason"] for r in s.rejections) == Counter(
        {
            "unknown_citation": 1,
            "uncited_claim": 1,
            "free_text_claim": 1,
            "unverified_by_model": 1,
        }
    )
    removing = model_draft(
        stage(tmp_path, "compose"), QUESTION, EVIDENCE, reply, ClaimChecks(softening="remove")
    )
    assert len(removing.statements) == 1
    statement = draft.statements[0]
    assert draft.text[statement["char_start"] : statement["char_end"]] == statement["text"]


# --- configuration --------------------------------------------------------------------------


def test_config_file_sets_backends_per_stage_and_options_override(tmp_path):
    path = tmp_path / "groundwork.yaml"
    path.write_text(
        "verify:\n  base_url: http://127.0.0.1:8080/v1\n  model: m\n  api_key_env: null\n"
        "token_budget: 5000\nworkers: 2\n"
    )
    config = RunConfig.from_file(path, workers=1)
    assert config.extract == "rules" and config.compose == "rules"
    assert isinstance(config.verify, ModelBackend) and config.verify.model == "m"
    assert config.token_budget == 5000 and config.workers == 1


def test_a_bad_config_file_is_a_usage_error_naming_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("verify:\n  model: m\n")  # no base_url
    result = CliRunner().invoke(
        app, ["run", "--corpus", str(tmp_path), "--config", str(path)], catch_exceptions=False
    )
    assert result.exit_code == 2
    assert "bad.yaml" in result.output and "base_url" in result.output


def test_cache_moves_between_warehouses_and_a_bad_file_is_named(tmp_path):
    from groundwork.llm.cache import CacheKey, cache_size, store_responses

    source, target = Warehouse(tmp_path / "a"), Warehouse(tmp_path / "b")
    with source.connect() as con:
        store_responses(con, "r1", [(CacheKey("verify", "verify-v1", "m", "h" * 64), "{}", 3, 1)])
    exported = tmp_path / "cache.parquet"
    runner = CliRunner()
    result = runner.invoke(app, ["cache", "export", str(exported), "-w", str(source.root)])
    assert result.exit_code == 0 and "1 cached" in result.output
    for expected in ("imported 1", "imported 0"):  # a second import adds nothing
        result = runner.invoke(app, ["cache", "import", str(exported), "-w", str(target.root)])
        assert result.exit_code == 0 and expected in result.output
    with target.connect(read_only=True) as con:
        assert cache_size(con) == 1
    broken = tmp_path / "broken.parquet"
    broken.write_text("not parquet")
    result = runner.invoke(app, ["cache", "import", str(broken), "-w", str(target.root)])
    assert result.exit_code == 1 and "broken.parquet" in result.output
