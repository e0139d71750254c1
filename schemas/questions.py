"""Table `questions`: the compliance questions of a run, validated one record at a time."""

from __future__ import annotations

import pandera.pandas as pa
import pyarrow as arrow
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from schemas.contract import ID_CHECK, table_contract
from schemas.ids import invalid_id_reason, shown_id

SOURCE_TYPES = ("statute", "regulation", "policy")
BAD_QUESTION_ID = "bad_question_id"  # the error type, and the reason a rejected row gives

ARROW_SCHEMA = arrow.schema(
    [
        ("question_id", arrow.string()),
        ("question", arrow.string()),
        ("topic", arrow.string()),
        ("category", arrow.string()),
        ("source_types", arrow.list_(arrow.string())),
        ("jurisdiction", arrow.string()),
    ]
)


class Question(BaseModel):
    """One question; unknown keys are kept out of the table but do not reject the row. Its ID
    may be given as `id`, as in a labelled question set (data/plain-questions/), so that such a
    file runs as it is."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    # the grammar of schemas/ids.py, checked below
    question_id: str = Field(validation_alias=AliasChoices("question_id", "id"))
    question: str = Field(min_length=3, max_length=4000)
    topic: str | None = None
    category: str | None = None
    source_types: list[str] = Field(default_factory=list)
    jurisdiction: str | None = None

    @field_validator("question_id", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    @field_validator("question_id")
    @classmethod
    def _id_grammar(cls, value: str) -> str:
        """A question_id ends up in reports and logs: one breaking the grammar is an error of
        its own type, so the loader can name it `bad_question_id`."""
        reason = invalid_id_reason(value)
        if reason is not None:
            detail = f"question_id {shown_id(value)} {reason}"
            raise PydanticCustomError(BAD_QUESTION_ID, "{detail}", {"detail": detail})
        return value

    @field_validator("source_types", mode="before")
    @classmethod
    def _listed(cls, value: object) -> object:
        if value is None or value == "":
            return []
        if isinstance(value, str):
            return [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]
        return value

    @field_validator("source_types")
    @classmethod
    def _known_types(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(SOURCE_TYPES))
        if unknown:
            raise ValueError(f"unknown source_types {unknown}; use {list(SOURCE_TYPES)}")
        return value


Questions = table_contract(
    {
        "question_id": pa.Column(str, ID_CHECK, unique=True),
        "question": pa.Column(str, pa.Check.str_length(min_value=3)),
        "topic": pa.Column(str, nullable=True),
        "category": pa.Column(str, nullable=True),
        "source_types": pa.Column(object),
        "jurisdiction": pa.Column(str, nullable=True),
    },
    name="Questions",
    description="Contract of the loaded question set.",
)
