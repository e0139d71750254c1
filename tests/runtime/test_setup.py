"""What `make setup` leaves behind, beyond the packages themselves."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


@pytest.mark.parametrize("module", ["prefect", "pandas", "pandera", "duckdb", "groundwork"])
def test_modules_are_compiled_to_bytecode(module: str) -> None:
    """Every run imports these: without their .pyc files (uv does not write them by default,
    and PYTHONDONTWRITEBYTECODE stops Python from caching them) each run compiles them again."""
    source = importlib.util.find_spec(module).origin
    assert Path(importlib.util.cache_from_source(source)).is_file(), f"{module} has no bytecode"
