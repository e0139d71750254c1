"""Shared fixtures: the sample corpus, fresh warehouses, and a Prefect test harness."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# FIXTURES and SAMPLE_QUESTIONS too: tests/output_checksums.py imports them from here
from tests.support.paths import FIXTURES, SAMPLE_CORPUS, SAMPLE_QUESTIONS  # noqa: F401
from tests.support.warehouses import wait_for_data_docs

# The suite kills runs and holds warehouses on purpose, against the harness's Prefect server:
# there, runs fail fast at the run lock rather than queue behind a killed run's lease. The queue
# itself is tested against a real server (tests/test_prefect_server.py turns it on).
os.environ["GROUNDWORK_QUEUE"] = "off"


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


@pytest.fixture(scope="session")
def answered_warehouse(tmp_path_factory: pytest.TempPathFactory, prefect_harness):
    """One published run of the flow on data/corpus and data/questions.yaml, shared by every test
    that only reads a real warehouse: (warehouse folder, run summary). Do not write to it."""
    from flows.corpus import corpus_run
    from schemas.config import RunConfig

    warehouse = tmp_path_factory.mktemp("answered")
    summary = corpus_run(
        corpus=str(SAMPLE_CORPUS),
        warehouse=str(warehouse),
        questions=str(SAMPLE_QUESTIONS),
        config=RunConfig(workers=1),
    )
    wait_for_data_docs(warehouse, summary.run_id)  # then nothing writes to it any more
    return warehouse, summary
