"""Shared fixtures: the sample corpus, its one published run, a Prefect test harness and a
browser; and the `slow` mark on every test that needs one of the last three (`make test-fast`
leaves those out)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemas.config import RunConfig
from tests.support.browser import chromium

# FIXTURES only for tests/test_output_checksums.py, which imports it from here
from tests.support.paths import FIXTURES, SAMPLE_CORPUS, SAMPLE_QUESTIONS  # noqa: F401
from tests.support.warehouses import wait_for_data_docs

# The suite kills runs and holds warehouses on purpose, against the harness's Prefect server:
# there, runs fail fast at the run lock rather than queue behind a killed run's lease. The queue
# itself is tested against a real server (tests/e2e/test_prefect_server.py turns it on).
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
def published_sample(tmp_path_factory: pytest.TempPathFactory, prefect_harness):
    """The one published run of the flow on data/corpus and data/questions.yaml in a session
    (one worker, Data Docs written), shared by every test that reads a real warehouse:
    (warehouse folder, run summary). Do not write to it: take `sample_copy`."""
    from tests.support.runs import flow_run

    warehouse = tmp_path_factory.mktemp("sample")
    summary = flow_run(SAMPLE_CORPUS, warehouse, SAMPLE_QUESTIONS, RunConfig(workers=1))
    wait_for_data_docs(warehouse, summary.run_id)  # then nothing writes to it any more
    return warehouse, summary


@pytest.fixture
def sample_copy(published_sample, tmp_path: Path) -> Path:
    """A writable copy of the published sample's warehouse, for a test that changes it (a copy
    is a whole warehouse: its views name their Parquet files relative to its folder)."""
    target = tmp_path / "sample"
    shutil.copytree(published_sample[0], target)
    return target


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium under Playwright, with a fresh profile; skips when it is missing."""
    with chromium() as context:
        yield context


# What makes a test slow: a Prefect backend, the sample's run, a browser.
SLOW_FIXTURES = frozenset({"prefect_harness", "published_sample", "browser"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` every test that uses a slow fixture, however indirectly, and every test in
    tests/e2e/, so that `-m "not slow"` (make test-fast) cannot start one by accident."""
    e2e = Path(__file__).parent / "e2e"
    for item in items:
        uses = SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if uses or e2e in item.path.parents:
            item.add_marker(pytest.mark.slow)
