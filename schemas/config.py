"""Run configuration: one pydantic model, so every knob is typed, validated and recorded."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field


class ColumnMapping(BaseModel):
    """How passage collections (JSON / JSONL / Parquet) map onto document fields.

    Each value is a column name or a template with `{column}` placeholders (a template without
    placeholders is a constant). Unset fields fall back to common column names, so most
    collections, ObliQA included, ingest with no mapping at all.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str | None = None
    text: str | None = None
    title: str | None = None
    citation: str | None = None
    source_type: str | None = None
    jurisdiction: str | None = None
    url: str | None = None
    effective_date: str | None = None


class ModelBackend(BaseModel):
    """A language model served over the OpenAI protocol (hosted API, vLLM, llama.cpp, Ollama).

    The API key is never part of the config: only the name of the environment variable or of the
    Prefect Secret block that holds it, so the config can be logged and stored in `runs`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1")
    model: str
    api_key_env: str | None = Field(None, description="environment variable holding the key")
    api_key_secret: str | None = Field(None, description="Prefect Secret block holding the key")
    timeout_s: float = Field(60.0, gt=0, description="per request")
    max_retries: int = Field(4, ge=0, description="retries on 429, 5xx, timeouts, lost connections")
    backoff_s: float = Field(1.0, ge=0, description="first backoff; doubles, with full jitter")
    max_backoff_s: float = Field(30.0, ge=0, description="cap on one wait, Retry-After included")
    concurrency: int = Field(4, ge=1, description="requests in flight at once")
    structured_output: Literal["json_schema", "json_object", "none"] = Field(
        "json_schema", description="how the response JSON schema is sent to the server"
    )
    max_tokens: int = Field(1024, gt=0, description="completion tokens per request")
    temperature: float = Field(0.0, ge=0)
    fallback: Literal["rules", "none"] = Field(
        "rules", description="what judges an item the model failed on: the rules, or nothing"
    )


Backend = Literal["rules"] | ModelBackend
# extraction also has the requirement classifier trained here (models/requirement/)
ExtractBackend = Literal["rules", "trained"] | ModelBackend
# verification also has the relevance model trained here (models/relevance/)
VerifyBackend = Literal["rules", "trained"] | ModelBackend
RetrieveBackend = Literal["bm25", "hybrid", "trained"]
Depth = Literal["routed", "full", "light"]
Softening = Literal["hedge", "qualify", "mark_unverified", "remove"]


class ClaimChecks(BaseModel):
    """How each statement is checked claim by claim against the quotes it cites.

    `depth`: `full` runs every check (lexical, modality, actor, numbers, qualifiers); `light`
    skips the qualifier check; `routed` gives assertive claims the full depth and hedged ones
    ("generally", "may need to") the light one, since a hedge already says the claim is not the
    whole rule. `model: trained` joins the claim-support model trained here (models/support) to
    the rules: their named conflicts stand, and it decides where they named none
    (groundwork/claims/model.py). `softening` is what happens to a claim still unsupported after
    citation correction; a contradicted claim is always removed, since its own evidence says
    otherwise.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    decompose: bool = Field(True, description="split statements into atomic claims")
    depth: Depth = Field("routed", description="which checks a claim gets")
    model: Literal["none", "trained"] = Field(
        "none", description="join the trained claim-support model to the rule checks"
    )
    correct_citations: bool = Field(True, description="look for a better verified requirement")
    softening: Softening = Field("mark_unverified", description="for unsupported claims")
    numeric_tolerance: float = Field(0.005, ge=0, lt=1, description="relative rounding allowed")
    max_unsupported_rate: float = Field(
        0.2, ge=0, le=1, description="review gate: share of claims unsupported or contradicted"
    )


class RunConfig(BaseModel):
    """Everything that changes a run's output. Its hash goes into `runs` and into cache keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_file_bytes: int = Field(20_000_000, gt=0, description="larger files are rejected")
    chunk_max_chars: int = Field(1_500, ge=200, description="size cap of a chunk")
    batch_docs: int = Field(500, gt=0, description="documents per parallel batch")
    workers: int = Field(0, ge=0, description="worker processes; 0 = one per core")
    top_k: int = Field(
        10, ge=1, le=200, description="per question: chunks (bm25), distinct passages (hybrid)"
    )
    retrieve: RetrieveBackend = Field(
        "hybrid",
        description="BM25; BM25 and dense candidates fused (hybrid); those reranked (trained)",
    )
    retrieve_candidates: int = Field(
        100,
        ge=1,
        le=1000,
        description="candidate chunks per question of BM25 and of the encoder, fused",
    )
    dense_chunks: int = Field(
        20_000,
        ge=0,
        description="the encoder reads every chunk of a run with at most this many chunks; "
        "above, only the head of BM25's candidates (retrieve/hybrid.py DENSE_READS)",
    )
    mapping: ColumnMapping = ColumnMapping()
    default_source_type: str = Field("regulation", pattern="^(statute|regulation|policy)$")
    extract: ExtractBackend = Field(
        "rules",
        description="extraction: the rules, the rules and the requirement classifier, a model",
    )
    verify: VerifyBackend = Field(
        "trained", description="grounding gate: the lexical rules, the dense encoder, a model"
    )
    compose: Backend = Field("rules", description="answer composition backend")
    token_budget: int | None = Field(None, gt=0, description="model tokens per run, all stages")
    replay: bool = Field(False, description="model answers from the cache only, never a call")
    claims: ClaimChecks = ClaimChecks()
    data_docs: bool = Field(True, description="Great Expectations Data Docs after each run")

    @classmethod
    def from_file(cls, path: Path, **overrides: Any) -> RunConfig:
        """A config from a YAML or JSON file, with explicit command-line values on top."""
        return cls.model_validate({**settings_file(path), **overrides})

    def overlaid(self, settings: dict[str, Any]) -> RunConfig:
        """This config with `settings` on top: every field they name wins, even one set to its
        default value, and every field they leave out is kept (nested ones too, such as a
        single `claims.softening`)."""
        return type(self).model_validate(_merged(self.model_dump(), settings))

    def digest(self) -> str:
        """A short stable hash of the config, for the runs table and cache keys."""
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def settings_file(path: Path) -> dict[str, Any]:
    """The mapping of settings in a YAML or JSON config file, exactly as written."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a config file must be a mapping of settings")
    return data


def _merged(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """`top` over `base`, key by key; mappings on both sides are merged the same way."""
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        merged[key] = (
            _merged(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
        )
    return merged


def warehouse_dir(explicit: Path | None) -> Path:
    """The warehouse folder: the explicit one, else $GROUNDWORK_WAREHOUSE, else ./warehouse."""
    if explicit is not None:
        return explicit
    return Path(os.environ.get("GROUNDWORK_WAREHOUSE", "warehouse"))


PROFILE_DIR = Path(__file__).resolve().parent.parent / "profiles"


def profile_config(profile: str | None, base: RunConfig | None = None) -> RunConfig:
    """The global config (`base`, else the defaults) with a profile on top: profiles/<name>.yaml
    or a config file path. A profile overrides only the settings it names; the rest are the
    global config's. What deployments pass, since a RunConfig is not a parameter a schedule can
    hold."""
    base = base or RunConfig()
    if profile is None:
        return base
    path = (
        Path(profile)
        if profile.endswith((".yaml", ".yml", ".json"))
        else PROFILE_DIR / f"{profile}.yaml"
    )
    if not path.is_file():
        raise FileNotFoundError(f"profile {profile!r}: no config file at {path}")
    return base.overlaid(settings_file(path))
