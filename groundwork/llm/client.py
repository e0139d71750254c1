"""One client for every model stage: the `openai` package against any OpenAI-protocol server.

Why our own retry loop rather than the SDK's: we count retries per stage for the runs table,
honour Retry-After with a cap, and turn every way a call can go wrong into one `ModelFailure`
with a reason, so a stage can record it and go on. The API key is read here, from the
environment or a Prefect Secret block, and goes nowhere but the request header.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Generic, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from schemas.config import ModelBackend

T = TypeVar("T")
_RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APIConnectionError)
NO_KEY = "not-needed"  # local servers ignore the key, but the SDK insists on one


class ModelFailure(Exception):
    """A request that produced nothing usable; `reason` is a short code for the rejections table."""

    def __init__(
        self, reason: str, detail: str, usage: Usage | None = None, reply: str | None = None
    ) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.usage = usage or Usage()
        self.reply = reply  # the unusable reply, for `invalid_output`


class BudgetExhausted(ModelFailure):
    """The run's token budget is spent: no further request is sent."""


class InvalidOutput(ValueError):
    """A completion that does not parse as the stage's response (JSON, schema or tags)."""


@dataclass
class Usage:
    """What one logical request cost, over all its attempts."""

    requests: int = 0  # HTTP requests sent: first try, retries and the repair round
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    latency_s: float = 0.0


@dataclass(frozen=True)
class Completion(Generic[T]):
    value: T
    text: str
    usage: Usage


class TokenBudget:
    """Tokens a run may still spend; shared by the threads of a stage."""

    def __init__(self, remaining: int | None) -> None:
        self._remaining = remaining
        self._lock = threading.Lock()

    def check(self) -> None:
        if self._remaining is not None and self._remaining <= 0:
            raise BudgetExhausted("token_budget", "the run's token budget is spent; not sent")

    def charge(self, tokens: int) -> None:
        if self._remaining is not None:
            with self._lock:
                self._remaining -= tokens


def api_key(backend: ModelBackend) -> str:
    """The key from the Prefect Secret block or the environment variable the config names."""
    if backend.api_key_secret:
        from prefect.blocks.system import Secret

        return str(Secret.load(backend.api_key_secret).get())
    if backend.api_key_env:
        key = os.environ.get(backend.api_key_env)
        if not key:
            raise ModelFailure(
                "no_api_key",
                f"environment variable {backend.api_key_env} is not set "
                "(set api_key_env: null for a server that needs no key)",
            )
        return key
    return NO_KEY


def json_parser(model: type[BaseModel]) -> Callable[[str], Any]:
    """Strict parsing of a completion into a pydantic response model."""

    def parse(text: str) -> BaseModel:
        try:
            return model.model_validate_json(text)
        except ValidationError as exc:
            errors = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'reply'}: {e['msg']}" for e in exc.errors()[:3]
            )
            raise InvalidOutput(errors) from exc

    return parse


_LENGTH_BOUNDS = frozenset({"maxLength", "minLength", "maxItems", "minItems"})


def wire_schema(schema: Any) -> Any:
    """The schema as sent: without length bounds, which grammar-constrained servers (llama.cpp)
    unroll into grammars too large to load. Our parser still enforces every bound."""
    if isinstance(schema, dict):
        return {k: wire_schema(v) for k, v in schema.items() if k not in _LENGTH_BOUNDS}
    if isinstance(schema, list):
        return [wire_schema(v) for v in schema]
    return schema


def response_format(backend: ModelBackend, name: str, schema: dict | None) -> dict | None:
    """How the response schema is sent: OpenAI's json_schema, JSON mode, or not at all."""
    if schema is None or backend.structured_output == "none":
        return None
    if backend.structured_output == "json_object":
        return {"type": "json_object", "schema": wire_schema(schema)}
    return {"type": "json_schema", "json_schema": {"name": name, "schema": wire_schema(schema)}}


def retry_delay(backend: ModelBackend, attempt: int, exc: Exception) -> float:
    """Retry-After when the server gives one, else exponential backoff with full jitter."""
    response = getattr(exc, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    if header:
        try:
            wait = float(header)
        except ValueError:
            wait = parsedate_to_datetime(header).timestamp() - time.time()
        return min(max(wait, 0.0), backend.max_backoff_s)
    return random.uniform(0, min(backend.max_backoff_s, backend.backoff_s * 2**attempt))


class ModelClient:
    """Chat completions with retries, one repair round for unusable output, and a token budget."""

    def __init__(self, backend: ModelBackend, budget: TokenBudget) -> None:
        self.backend = backend
        self.budget = budget
        self._sdk = openai.OpenAI(
            base_url=backend.base_url,
            api_key=api_key(backend),
            timeout=backend.timeout_s,
            max_retries=0,
        )

    def complete(
        self,
        messages: list[dict],
        parse: Callable[[str], T],
        fmt: dict | None,
    ) -> Completion[T]:
        """The parsed response; one repair request if the first reply does not parse."""
        usage = Usage()
        text, finished = self._chat(messages, fmt, usage)
        try:
            return Completion(self._parsed(text, finished, parse), text, usage)
        except InvalidOutput as exc:
            repair = [
                *messages,
                {"role": "assistant", "content": text},
                {
                    "role": "user",
                    "content": f"That reply cannot be used ({exc}). Reply again, complete and "
                    "shorter, in exactly the requested format and nothing else.",
                },
            ]
            text, finished = self._chat(repair, fmt, usage)
            try:
                return Completion(self._parsed(text, finished, parse), text, usage)
            except InvalidOutput as again:
                detail = f"after one repair: {again}"
                raise ModelFailure("invalid_output", detail, usage, text) from again

    @staticmethod
    def _parsed(text: str, finished: str | None, parse: Callable[[str], T]) -> T:
        if finished == "length":
            raise InvalidOutput("the reply was cut off at the token limit")
        return parse(text)

    def _chat(self, messages: list[dict], fmt: dict | None, usage: Usage) -> tuple[str, str | None]:
        """One request, retried on rate limits, server errors and timeouts."""
        extra: dict[str, Any] = {"response_format": fmt} if fmt else {}
        for attempt in range(self.backend.max_retries + 1):
            self.budget.check()
            usage.requests += 1
            started = time.perf_counter()
            try:
                reply = self._sdk.chat.completions.create(
                    model=self.backend.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=self.backend.temperature,
                    max_tokens=self.backend.max_tokens,
                    **extra,
                )
            except _RETRYABLE as exc:
                usage.latency_s += time.perf_counter() - started
                if attempt == self.backend.max_retries:
                    detail = f"{self.backend.base_url}: {_described(exc)}"
                    raise ModelFailure(_failure_reason(exc), detail, usage) from exc
                usage.retries += 1
                time.sleep(retry_delay(self.backend, attempt, exc))
                continue
            except openai.APIStatusError as exc:
                raise ModelFailure("rejected_request", _described(exc), usage) from exc
            usage.latency_s += time.perf_counter() - started
            tokens = reply.usage
            if tokens is not None:
                usage.prompt_tokens += tokens.prompt_tokens
                usage.completion_tokens += tokens.completion_tokens
                self.budget.charge(tokens.total_tokens)
            if not reply.choices:
                raise ModelFailure("invalid_output", "the server returned no choices", usage)
            choice = reply.choices[0]
            return choice.message.content or "", choice.finish_reason
        raise AssertionError("unreachable: the loop returns or raises")


def _failure_reason(exc: Exception) -> str:
    if isinstance(exc, openai.RateLimitError):
        return "rate_limited"
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.InternalServerError):
        return "server_error"
    return "connection_error"


def _described(exc: Exception) -> str:
    """The error without the request: status and the server's message, never headers."""
    status = getattr(exc, "status_code", None)
    body = getattr(exc, "body", None)
    message = json.dumps(body)[:300] if body is not None else f"{type(exc).__name__}: {exc}"
    return f"HTTP {status}: {message}" if status else message
