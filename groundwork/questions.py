"""Load a question file (YAML, CSV or JSONL): valid rows become questions, the rest rejections.

A malformed row is rejected with its line number and the reason, and every other question is
still answered. A file that cannot be read at all is one rejection naming the file.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from schemas.questions import BAD_QUESTION_ID, Question


@dataclass
class LoadedQuestions:
    questions: list[Question] = field(default_factory=list)
    rejections: list[dict] = field(default_factory=list)


def _rows_from_yaml(text: str) -> list[tuple[int, Any]]:
    """(line, row) pairs: line numbers come from the YAML node of each list item."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is None:
        return []
    items = root
    if isinstance(root, yaml.MappingNode):
        found = [v for k, v in root.value if k.value == "questions"]
        if not found:
            raise ValueError("expected a list of questions or a `questions:` key")
        items = found[0]
    if not isinstance(items, yaml.SequenceNode):
        raise ValueError("`questions` is not a list")
    return [(n.start_mark.line + 1, yaml.safe_load(yaml.serialize(n))) for n in items.value]


def _rows_from_csv(text: str) -> list[tuple[int, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    rows = []
    for row in reader:
        if None in row:
            row = {**row, "__extra__": row.pop(None)}
        rows.append((reader.line_num, row))
    return rows


def _rows_from_jsonl(text: str) -> list[tuple[int, Any]]:
    rows: list[tuple[int, Any]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                rows.append((lineno, json.loads(line)))
            except json.JSONDecodeError as exc:
                rows.append((lineno, ValueError(f"not JSON ({exc.msg})")))
    return rows


READERS = {
    ".yaml": _rows_from_yaml,
    ".yml": _rows_from_yaml,
    ".csv": _rows_from_csv,
    ".jsonl": _rows_from_jsonl,
    ".ndjson": _rows_from_jsonl,
}


def _reason(row: Any) -> str | None:
    if isinstance(row, Exception):
        return str(row)
    if not isinstance(row, dict):
        return "a question must be a mapping with question_id (or id) and question"
    if row.get("__extra__"):
        return "more values than columns (an unquoted comma?)"
    return None


def _given_id(row: Any) -> str | None:
    """The question ID a row gives, under either of its names (schemas/questions.py), for a
    rejection to name it."""
    given = row.get("question_id", row.get("id")) if isinstance(row, dict) else None
    return None if given is None else str(given)


def _error_text(error: ErrorDetails) -> str:
    """One validation error in words: a question_id that breaks the ID grammar leads with
    `bad_question_id`, any other names its field."""
    if error["type"] == BAD_QUESTION_ID:
        return f"{BAD_QUESTION_ID}: {error['msg']}"
    return f"{'.'.join(map(str, error['loc'])) or 'row'}: {error['msg']}"


def loaded_questions(path: Path) -> LoadedQuestions:
    """Questions of a file; rejections carry (path, line, question_id, reason)."""
    result = LoadedQuestions()
    name = str(path)

    def reject(line: int | None, question_id: str | None, reason: str) -> None:
        result.rejections.append(
            {"path": name, "line": line, "question_id": question_id, "reason": reason}
        )

    reader = READERS.get(path.suffix.lower())
    if reader is None:
        reject(None, None, f"unsupported question file type {path.suffix!r}; use yaml, csv, jsonl")
        return result
    try:
        rows = reader(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, csv.Error) as exc:
        reject(None, None, f"cannot read questions: {exc}".splitlines()[0])
        return result
    seen: set[str] = set()
    for line, row in rows:
        reason = _reason(row)
        question_id = _given_id(row)
        if reason is None:
            try:
                question = Question.model_validate(row)
            except ValidationError as exc:
                reason = "; ".join(_error_text(e) for e in exc.errors())
        if reason is None and question.question_id in seen:
            reason = f"duplicate question_id {question.question_id!r}"
        if reason is not None:
            reject(line, question_id, reason)
            continue
        seen.add(question.question_id)
        result.questions.append(question)
    return result
