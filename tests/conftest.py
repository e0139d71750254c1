"""Shared fixtures: the sample corpus, fresh warehouses, and a Prefect test harness."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLE_CORPUS = REPO / "data" / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """A throwaway Prefect backend for the whole session (no state left in ~/.prefect)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=60):
        yield


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the sample corpus, for tests that edit or break files."""
    target = tmp_path / "corpus"
    shutil.copytree(SAMPLE_CORPUS, target)
    return target
