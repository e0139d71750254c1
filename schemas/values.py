"""The allowed values of a categorical column, read from its table's pandera contract.

The export models (schemas/export.py) and the Great Expectations suites
(groundwork/quality/expectations.py) restate these sets; reading them from the one contract keeps
all three in step.
"""

from __future__ import annotations

import pandera.pandas as pa


def allowed_values(contract: pa.DataFrameSchema, column: str) -> tuple[str, ...]:
    """The values the contract's `isin` check on `column` admits, in its order."""
    for check in contract.columns[column].checks:
        if check.name == "isin":
            return tuple(check.statistics["allowed_values"])
    raise KeyError(f"{contract.name}.{column} has no isin check")
