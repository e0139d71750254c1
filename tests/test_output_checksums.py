"""Every output table of a run on the sample corpus and questions is what it was at commit 4ee3ba4,
before the performance work of issue 24: a faster pipeline computes the same tables.

The expected file was written by `python -m tests.output_checksums` at that commit; a change
that means to change an output writes it again and says why in its commit. Issue 23 did: its
answers are grouped by who bears each requirement under an overview, and verifier reasons and
missing-evidence notes use words, not stems (answers, statements, citations, claims,
claim_numbers, verifications and their views; the same row counts, every other table equal)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import FIXTURES
from .output_checksums import sample_run_checksums

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]


def test_every_output_table_is_as_before(tmp_path: Path):
    expected = json.loads((FIXTURES / "output_checksums.json").read_text())
    found = sample_run_checksums(tmp_path / "warehouse")
    for database, tables in expected.items():
        differ = {
            t: (s, found[database].get(t)) for t, s in tables.items() if found[database].get(t) != s
        }
        assert not differ, f"{database}: tables differ (expected, found): {differ}"
    assert found == expected  # and no table was added
