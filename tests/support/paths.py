"""Where the tests find the repository, its sample corpus and questions, and their fixtures."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE_CORPUS = REPO / "data" / "corpus"
SAMPLE_QUESTIONS = REPO / "data" / "questions.yaml"
FIXTURES = REPO / "tests" / "fixtures"
ARTIFACTS = REPO / "tests" / "artifacts"  # screenshots kept for people to look at
