"""Table `statements`: the cited statements of each answer, with offsets into it.

`form` says how a statement was written: `quote` (the cited requirement's verbatim text),
`tension` (our template naming two cited requirements) or `claim` (a model's wording, kept only if
its terms are in the cited quotes: `support` is that share, 1.0 for the other forms).
"""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

STATEMENTS_SCHEMA = arrow.schema(
    [
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("ordinal", arrow.int32()),
        ("text", arrow.string()),
        ("char_start", arrow.int64()),
        ("char_end", arrow.int64()),
        ("section", arrow.string()),
        ("claim_type", arrow.string()),
        ("form", arrow.string()),
        ("support", arrow.float64()),
        ("verdict", arrow.string()),
    ]
)


Statements = table_contract(
    {
        "statement_id": pa.Column(str, unique=True),
        "question_id": pa.Column(str),
        "ordinal": pa.Column(int, pa.Check.ge(1)),
        "text": pa.Column(str, pa.Check.str_length(min_value=1)),
        "char_start": pa.Column(int, pa.Check.ge(0)),
        "char_end": pa.Column(int, pa.Check.ge(1)),
        "section": pa.Column(str, pa.Check.isin(["statutes", "policies", "tensions"])),
        "claim_type": pa.Column(str, pa.Check.isin(["general", "numeric"])),
        "form": pa.Column(str, pa.Check.isin(["quote", "tension", "claim"])),
        "support": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "verdict": pa.Column(
            str, pa.Check.isin(["SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED"])
        ),
    },
    name="Statements",
)


def statement_verdict(form: str, support: float) -> str:
    """How far a statement's cited quotes support it: a quote or a tension is built from the
    quotes themselves (SUPPORTED); a model's claim is SUPPORTED when at least 90 % of its terms
    are in the cited quotes, else PARTIAL (the hard gate already drops claims under 60 %)."""
    if form in ("quote", "tension"):
        return "SUPPORTED"
    return "SUPPORTED" if support >= 0.9 else "PARTIAL"
