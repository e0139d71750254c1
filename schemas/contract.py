"""Running a pandera contract on an Arrow table, with one clear error when it fails."""

from __future__ import annotations

import pandera.errors
import pandera.pandas as pa
import pyarrow as arrow


class ContractViolation(Exception):
    """A table broke its contract: the stage stops and the run is not published."""


def checked(table: arrow.Table, model: type[pa.DataFrameModel], name: str) -> arrow.Table:
    """The table itself once it satisfies `model` (all failures reported together)."""
    if table.num_rows == 0:
        return table
    try:
        model.validate(table.to_pandas(), lazy=True)
    except pandera.errors.SchemaErrors as exc:
        cases = exc.failure_cases
        summary = "; ".join(
            f"{row.check} on {row.column} (e.g. {row.failure_case!r})"
            for row in cases.drop_duplicates(["check", "column"]).head(5).itertuples()
        )
        raise ContractViolation(f"{name}: {len(cases)} contract failures: {summary}") from exc
    return table
