"""Table `requirements`: verbatim requirement quotes with stable IDs and exact offsets.

`candidates` (the extract stage's output) has no ID yet; `requirements` adds the registry's ID,
source and first-seen run.
"""

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract
from schemas.ids import REQUIREMENT_ID

CANDIDATE_FIELDS = [
    ("doc_id", arrow.string()),
    ("chunk_id", arrow.string()),
    ("label_path", arrow.string()),
    ("char_start", arrow.int64()),
    ("char_end", arrow.int64()),
    ("exact_quote", arrow.string()),
    ("normalised_quote", arrow.string()),
    ("modality", arrow.string()),
    ("trigger", arrow.string()),
    ("subject", arrow.string()),
    ("lead_in_quote", arrow.string()),
    ("lead_in_start", arrow.int64()),
    ("lead_in_end", arrow.int64()),
    ("sentence_start", arrow.int64()),
    ("sentence_end", arrow.int64()),
    ("long_quote", arrow.bool_()),
    ("extraction_confidence", arrow.string()),
    ("extractor", arrow.string()),
    ("extractor_version", arrow.string()),
    ("requirement_score", arrow.float64()),
    ("requirement_model", arrow.string()),
    ("is_requirement", arrow.bool_()),
]
CANDIDATES_SCHEMA = arrow.schema(CANDIDATE_FIELDS)

MODALITIES = ["obligation", "prohibition", "permission"]
CONFIDENCES = ["high", "medium", "low"]


def quote_length_matches_offsets(df: pd.DataFrame) -> pd.Series:
    """Rows whose quote is exactly as long as its offsets say."""
    return df["exact_quote"].str.len() == df["char_end"] - df["char_start"]


def sentence_encloses_quote(df: pd.DataFrame) -> pd.Series:
    """Rows whose enclosing sentence holds the whole quote."""
    return (df["sentence_start"] <= df["char_start"]) & (df["char_end"] <= df["sentence_end"])


Candidates = table_contract(
    {
        "doc_id": pa.Column(str),
        "chunk_id": pa.Column(str),
        "label_path": pa.Column(str, nullable=True),
        "char_start": pa.Column(int, pa.Check.ge(0)),
        "char_end": pa.Column(int, pa.Check.ge(1)),
        "exact_quote": pa.Column(str, pa.Check.str_length(min_value=1)),
        "normalised_quote": pa.Column(str, pa.Check.str_length(min_value=1)),
        "modality": pa.Column(str, pa.Check.isin(MODALITIES)),
        "trigger": pa.Column(str),
        "subject": pa.Column(str, nullable=True),
        "lead_in_quote": pa.Column(str, nullable=True),
        "lead_in_start": pa.Column(pd.Int64Dtype(), pa.Check.ge(0), nullable=True),
        "lead_in_end": pa.Column(pd.Int64Dtype(), pa.Check.ge(1), nullable=True),
        # the document offsets of the whole sentence(s) the quote sits in, for readers that show
        # the sentence with the quote marked
        "sentence_start": pa.Column(int, pa.Check.ge(0)),
        "sentence_end": pa.Column(int, pa.Check.ge(1)),
        # a complete clause longer than 40 words, kept whole rather than cut to a word budget
        "long_quote": pa.Column(bool),
        "extraction_confidence": pa.Column(str, pa.Check.isin(CONFIDENCES)),
        "extractor": pa.Column(str),
        "extractor_version": pa.Column(str),
        # the requirement classifier's probability and version (extract: trained); null when
        # the rules decided alone
        "requirement_score": pa.Column(float, pa.Check.in_range(0, 1), nullable=True),
        "requirement_model": pa.Column(str, nullable=True),
        # the decision: only these candidates are registered as requirements
        "is_requirement": pa.Column(bool),
    },
    checks=[pa.Check(quote_length_matches_offsets), pa.Check(sentence_encloses_quote)],
    name="Candidates",
    description="Extracted requirement quotes before registration.",
)


Requirements = table_contract(
    {
        **{name: column for name, column in Candidates.columns.items() if name != "is_requirement"},
        "requirement_id": pa.Column(str, pa.Check.str_matches(REQUIREMENT_ID), unique=True),
        "canonical_key": pa.Column(str, pa.Check.str_matches(r"^[0-9a-f]{64}$"), unique=True),
        "source_id": pa.Column(str, pa.Check.str_matches(r"^S\d+$")),
        "first_run": pa.Column(str),
    },
    checks=Candidates.checks,
    name="Requirements",
    description="Registered requirements: every row has a well-formed, unique stable ID.",
)

# The columns register adds to a candidate. Register checks these on the rows it writes, and that
# the table has exactly the Requirements columns; the candidate columns it copies unchanged were
# checked by `Candidates` in the stage that made them (on the bench corpus, checking them again
# was a large share of the stage).
REGISTERED_FIELDS = ["requirement_id", "canonical_key", "source_id", "first_run"]
