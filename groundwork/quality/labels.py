"""Labelled question files, read for `groundwork eval`: which questions the corpus answers, from
which documents and (where labelled) which passages, and which it cannot answer.

Two formats, told apart record by record, so that both read with one model:

* the shipped demo, data/questions.yaml: `question_id`, `expected: answerable | unanswerable`,
  `expected_sources: [doc_id, ...]`, `topic`;
* the labelled set, data/plain-questions/*.jsonl (its README.md is the data card): `id`,
  `answerable: true | false`, `answers: [{doc_id, quote}, ...]` (the quote verbatim in the
  document: a labelled passage), `family`.

The file is read as a questions file is (groundwork/questions.py: YAML, CSV or JSONL, with line
numbers), so `groundwork run --questions` and `groundwork eval` take the same file. Unlike the
run, which answers every good row, scoring a file with a bad label would mislead: the first
bad record stops it, named by its line.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from groundwork.questions import READERS

_EXPECTED = {"answerable": True, "unanswerable": False}


class BadLabels(ValueError):
    """A labelled question file that cannot be scored; its message is one line for the user."""


class Passage(BaseModel):
    """A labelled passage: a quote that answers the question, verbatim in one document."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    doc_id: str
    quote: str | None = None


class Label(BaseModel):
    """What one question is expected to get: answered from `doc_ids`, or refused."""

    model_config = ConfigDict(extra="ignore", frozen=True, str_strip_whitespace=True)

    question_id: str = Field(validation_alias=AliasChoices("question_id", "id"))
    answerable: bool = Field(validation_alias=AliasChoices("answerable", "expected"))
    expected_sources: tuple[str, ...] = ()
    answers: tuple[Passage, ...] = ()
    group: str | None = Field(None, validation_alias=AliasChoices("family", "topic"))

    @field_validator("question_id", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    @field_validator("answerable", mode="before")
    @classmethod
    def _expected_in_words(cls, value: object) -> object:
        """The demo's `expected: answerable | unanswerable`, as the labelled set's truth value."""
        if not isinstance(value, str):
            return value
        if value.strip().lower() not in {*_EXPECTED, "true", "false"}:
            raise ValueError("should be answerable or unanswerable (or answerable: true or false)")
        return _EXPECTED.get(value.strip().lower(), value)

    @model_validator(mode="after")
    def _answerable_from_somewhere(self) -> Label:
        if self.answerable and not self.doc_ids:
            raise ValueError(
                "an answerable question names no expected document (expected_sources or answers)"
            )
        return self

    @property
    def doc_ids(self) -> frozenset[str]:
        """The documents that answer the question."""
        return frozenset(self.expected_sources) | {a.doc_id for a in self.answers}

    @property
    def passages(self) -> tuple[Passage, ...]:
        """The labelled passages (answers with a quote); none in the demo format."""
        return tuple(a for a in self.answers if a.quote)


def _reason(error: ValidationError) -> str:
    """The first error of a record in words (pydantic's "Value error, " prefix dropped)."""
    first = error.errors()[0]
    where = ".".join(map(str, first["loc"]))
    said = first["msg"].removeprefix("Value error, ")
    return f"{where}: {said}" if where else said


def _label(row: Any) -> Label:
    if isinstance(row, Exception):
        raise ValueError(str(row))
    if not isinstance(row, dict):
        raise ValueError("a labelled question must be a mapping with question_id (or id)")
    try:
        return Label.model_validate(row)
    except ValidationError as exc:
        raise ValueError(_reason(exc)) from None


def labels(path: Path) -> list[Label]:
    """The labelled questions of a file, in its order; `BadLabels` names the first bad record."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise BadLabels(f"{path}: unsupported file type {path.suffix!r}; use yaml, csv or jsonl")
    try:
        rows = reader(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, csv.Error) as exc:
        raise BadLabels(f"{path}: cannot read it: {str(exc).splitlines()[0]}") from exc
    found: list[Label] = []
    seen: set[str] = set()
    for line, row in rows:
        try:
            label = _label(row)
        except ValueError as exc:
            raise BadLabels(f"{path}, line {line}: {exc}") from None
        if label.question_id in seen:
            raise BadLabels(f"{path}, line {line}: duplicate question ID {label.question_id!r}")
        seen.add(label.question_id)
        found.append(label)
    if not found:
        raise BadLabels(f"{path}: no labelled questions in it")
    return found
