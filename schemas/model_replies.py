"""What a model is asked and what it may reply, per stage.

Requests are the fields a stage's prompt file fills in. Replies are pydantic models whose JSON
schema is sent to the server and which parse strictly (unknown fields are errors). A reply only
proposes: every quote, ID and verdict still goes through the same validators as the rules
backend before it is kept.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Modality = Literal["obligation", "prohibition", "permission"]
Verdict = Literal[
    "supported", "does_not_address_question", "requires_inference", "incomplete_quote"
]


class ExtractionRequest(BaseModel):
    """prompts/extract.yaml: one chunk, and the citation of its document."""

    passage: str
    citation: str


class VerificationRequest(BaseModel):
    """prompts/verify.yaml: the question and one requirement's quote (with its lead-in), only."""

    question: str
    requirement: str


class CompositionRequest(BaseModel):
    """prompts/compose.yaml: the question and its verified evidence, one item a line."""

    question: str
    evidence: str


class ExtractedRequirement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    quote: str = Field(min_length=1, max_length=2_000, description="verbatim from the passage")
    modality: Modality
    subject: str | None = Field(None, max_length=300, description="who the duty binds")


class ExtractionReply(BaseModel):
    """The extract stage's reply for one passage."""

    model_config = ConfigDict(extra="forbid")

    requirements: list[ExtractedRequirement] = Field(max_length=40)


class VerificationReply(BaseModel):
    """The verify stage's reply for one (question, requirement) pair."""

    model_config = ConfigDict(extra="forbid")

    verdict: Verdict
    rationale: str = Field(max_length=1_000)


class ComposedBlock(BaseModel):
    """One tagged block of a composed answer: `cite` (a claim and its keys), `free` or
    `unverified`."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["cite", "free", "unverified"]
    keys: list[str] = Field(default_factory=list)
    text: str


class ComposedAnswer(BaseModel):
    """The compose stage's reply for one question, parsed from tagged text."""

    model_config = ConfigDict(extra="forbid")

    blocks: list[ComposedBlock] = Field(min_length=1)
