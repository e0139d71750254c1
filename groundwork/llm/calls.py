"""A model stage's requests, answered from the cache first and then by the model.

One `ModelStage` per stage and run: it looks every request up in the cache, sends the misses
with bounded concurrency, stores each reply as it arrives (so a killed run keeps what it paid
for), records every failure and every item a validator drops in `model_rejections`, and
adds the stage's calls, cache hits, tokens, retries, failures and latency to `runs.model_usage`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, TypeVar

import pyarrow as pa

from groundwork.llm.cache import CacheKey, cached_responses, input_hash, store_responses
from groundwork.llm.client import (
    BudgetExhausted,
    InvalidOutput,
    ModelClient,
    ModelFailure,
    TokenBudget,
    Usage,
    response_format,
)
from groundwork.llm.prompts import Prompt, prompt
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.sqlfiles import query, run_script
from groundwork.warehouse.store import Warehouse
from schemas.config import ModelBackend, RunConfig

T = TypeVar("T")
log = logging.getLogger("groundwork")
STORE_EVERY = 32  # replies kept in memory before they are written to the cache


@dataclass(frozen=True)
class Request(Generic[T]):
    """One question to the model about one item (a chunk, a question-requirement pair, ...)."""

    item: str
    messages: list[dict]
    parse: Callable[[str], T]
    schema: dict | None = None  # JSON schema of the reply; None for tagged text


@dataclass
class StageUsage:
    """One stage's line in `runs.model_usage`."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    latency_s: float = 0.0

    def add(self, usage: Usage) -> None:
        self.calls += usage.requests
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.retries += usage.retries
        self.latency_s = round(self.latency_s + usage.latency_s, 3)

    def merged(self, earlier: dict[str, Any] | None) -> dict[str, Any]:
        """This stage's usage added to what the same stage used earlier in the run."""
        mine = asdict(self)
        return {k: round(v + (earlier or {}).get(k, 0), 3) for k, v in mine.items()}


@dataclass
class ModelStage:
    warehouse: Warehouse
    run_id: str
    stage: str
    backend: ModelBackend
    config: RunConfig
    prompt: Prompt
    usage: StageUsage = field(default_factory=StageUsage)
    rejections: list[dict] = field(default_factory=list)

    @property
    def label(self) -> str:
        """What the output tables record as the producer: model and prompt version."""
        return f"model:{self.backend.model} {self.prompt.version_tag}"

    def reject(self, item: str, reason: str, detail: str) -> None:
        """Record an item the stage dropped or could not get, with one line on the console."""
        self.rejections.append(
            {
                "run_id": self.run_id,
                "stage": self.stage,
                "item": item,
                "reason": reason,
                "detail": detail,
            }
        )
        if reason != "token_budget":
            log.warning("%s: %s: %s: %s", self.stage, item, reason, detail)

    def answers(self, requests: list[Request[T]]) -> dict[str, T]:
        """The parsed reply of every request that got one, by item."""
        keys = {r.item: self._key(r) for r in requests}
        with self.warehouse.connect(read_only=True) as con:
            stored = cached_responses(con, list(keys.values()))
        results: dict[str, T] = {}
        misses: list[Request[T]] = []
        for request in requests:
            text = stored.get(keys[request.item])
            if text is None:
                misses.append(request)
                continue
            self.usage.cache_hits += 1
            try:
                results[request.item] = request.parse(text)
            except InvalidOutput as exc:
                self.usage.failures += 1
                self.reject(request.item, "invalid_output", f"cached reply: {exc}")
        if misses:
            self._send(misses, keys, results)
        return results

    def _key(self, request: Request) -> CacheKey:
        shape = {
            "messages": request.messages,
            "schema": request.schema,
            "structured_output": self.backend.structured_output,
            "temperature": self.backend.temperature,
            "max_tokens": self.backend.max_tokens,
        }
        return CacheKey(self.stage, self.prompt.version_tag, self.backend.model, input_hash(shape))

    def _send(
        self, misses: list[Request[T]], keys: dict[str, CacheKey], results: dict[str, T]
    ) -> None:
        if self.config.replay:
            for request in misses:
                self.reject(request.item, "not_in_cache", "replay mode sends no request")
            return
        try:
            client = ModelClient(self.backend, TokenBudget(self._budget_left()))
        except ModelFailure as exc:
            for request in misses:
                self.reject(request.item, exc.reason, exc.detail)
            return
        bar = stage_progress(f"{self.stage}·llm", len(misses), "requests")
        pending: list[tuple[CacheKey, str, int, int]] = []
        exhausted = 0
        with ThreadPoolExecutor(self.backend.concurrency) as pool:
            futures = {
                pool.submit(
                    client.complete,
                    r.messages,
                    r.parse,
                    response_format(self.backend, self.stage, r.schema),
                ): r
                for r in misses
            }
            for future in as_completed(futures):
                request = futures[future]
                bar.advance()
                try:
                    done = future.result()
                except BudgetExhausted as exc:
                    exhausted += 1
                    self.reject(request.item, exc.reason, exc.detail)
                    continue
                except ModelFailure as exc:
                    self.usage.add(exc.usage)
                    self.usage.failures += 1
                    self.reject(request.item, exc.reason, exc.detail)
                    if exc.reply is not None:  # deterministic garbage: do not pay for it twice
                        u = exc.usage
                        key = keys[request.item]
                        pending.append((key, exc.reply, u.prompt_tokens, u.completion_tokens))
                    continue
                self.usage.add(done.usage)
                results[request.item] = done.value
                u = done.usage
                pending.append(
                    (keys[request.item], done.text, u.prompt_tokens, u.completion_tokens)
                )
                if len(pending) >= STORE_EVERY:
                    self._store(pending)
                    pending = []
        self._store(pending)
        bar.finish()
        if exhausted:
            self.usage.failures += exhausted
            log.warning(
                "%s: the run's token budget of %s is spent; %d request(s) not sent, recorded in "
                "model_rejections as token_budget",
                self.stage,
                self.config.token_budget,
                exhausted,
            )

    def _store(self, entries: list[tuple[CacheKey, str, int, int]]) -> None:
        if entries:
            with self.warehouse.connect() as con:
                store_responses(con, self.run_id, entries)

    def _budget_left(self) -> int | None:
        if self.config.token_budget is None:
            return None
        spent = sum(
            stage["prompt_tokens"] + stage["completion_tokens"]
            for stage in self._recorded_usage().values()
        )
        return self.config.token_budget - spent

    def _recorded_usage(self) -> dict[str, dict]:
        with self.warehouse.connect(read_only=True) as con:
            row = query(con, "runs/model_usage_of", {"run_id": self.run_id}).fetchone()
        return json.loads(row[0]) if row and row[0] else {}

    def __enter__(self) -> ModelStage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.finish()

    def finish(self) -> dict[str, Any]:
        """Write this stage's usage and rejections to the warehouse; returns the usage line."""
        recorded = self._recorded_usage()
        recorded[self.stage] = self.usage.merged(recorded.get(self.stage))
        with self.warehouse.connect() as con:
            run_script(
                con,
                "runs/model_usage",
                {"run_id": self.run_id, "model_usage": json.dumps(recorded)},
            )
            schema = pa.schema(
                [(c, pa.string()) for c in ("run_id", "stage", "item", "reason", "detail")]
            )
            con.register("new_rejections", pa.Table.from_pylist(self.rejections, schema=schema))
            run_script(con, "runs/model_rejections", {"run_id": self.run_id, "stage": self.stage})
            con.unregister("new_rejections")
        return recorded[self.stage]


def model_stage(warehouse: Warehouse, run_id: str, stage: str, config: RunConfig) -> ModelStage:
    """The model stage `stage` (extract, verify or compose) as configured; use it in a `with`
    block so its usage and rejections are recorded even when the stage fails."""
    backend = getattr(config, stage)
    if not isinstance(backend, ModelBackend):
        raise ValueError(f"stage {stage} is configured for the rules backend, not a model")
    return ModelStage(warehouse, run_id, stage, backend, config, prompt(stage))
