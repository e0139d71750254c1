"""Running a pandera contract on an Arrow table, with one clear error when it fails."""

from __future__ import annotations

import pandas as pd
import pandera.errors
import pandera.pandas as pa
import pyarrow as arrow

from schemas.ids import ID_MAX_CHARS, invalid_id_reason

ID_CHECK = pa.Check(
    lambda value: invalid_id_reason(value) is None,
    element_wise=True,
    name="id_grammar",
    error=f"a valid ID: 1 to {ID_MAX_CHARS} characters; no / or \\, control character, "
    "leading dot or outer white space (schemas/ids.py)",
)
"""The grammar of a user's IDs (schemas/ids.py) as a check, for the contracts of the tables a
doc_id or question_id enters by. The parsers and the questions loader reject a bad ID first, one
row at a time; this keeps one out that came by any other way."""


def table_contract(
    columns: dict[str, pa.Column],
    *,
    name: str,
    checks: list[pa.Check] | None = None,
    description: str | None = None,
) -> pa.DataFrameSchema:
    """A table's contract: exactly these columns (strict), each coerced to its type first, since
    a stage's Arrow table arrives through pandas with its own idea of dtypes."""
    return pa.DataFrameSchema(
        columns, checks=checks, strict=True, coerce=True, name=name, description=description
    )


class ContractViolation(Exception):
    """A table broke its contract: the stage stops and the run is not published."""


def checked(table: arrow.Table, contract: pa.DataFrameSchema, name: str) -> arrow.Table:
    """The table itself once it satisfies `contract` (all failures reported together)."""
    if table.num_rows == 0:
        return table
    try:
        contract.validate(table.to_pandas(), lazy=True)
    except pandera.errors.SchemaErrors as exc:
        cases = exc.failure_cases
        column = cases["column"].where(cases["schema_context"] == "Column", "")
        summary = "; ".join(
            described_failure(check, where, rows)
            for (check, where), rows in cases.groupby(["check", column], sort=False)
        )
        raise ContractViolation(f"{name}: contract failures: {summary}") from exc
    return table


def described_failure(check: str, column: str, cases: pd.DataFrame) -> str:
    """One failed check in words: where, how many rows, one example. A table-wide check (no
    `column`) reports every column of each failing row, so rows are counted by index."""
    rows = cases["index"].nunique() or len(cases)
    first = cases.iloc[0]
    if column:
        return f"{check} on {column} ({rows} rows, e.g. {first['failure_case']!r})"
    return f"{check} ({rows} rows, e.g. row {first['index']})"
