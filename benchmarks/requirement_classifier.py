"""Requirement classifiers side by side (`extract: trained` against the rules): on the EU dev
slice training.requirement holds back (precision, recall, F1 of the rules, the model alone and
the pipeline's routing) and on the hand-read register sample over ../shared/corpus (rows kept,
the precision of those, requirements set aside), for each model folder given, e.g. the shipped
model beside a retrained one.

    .venv/bin/groundwork run --corpus ../shared/corpus --workers 1 \\
        --questions data/plain-questions/dev.jsonl -w /tmp/gw-dev
    .venv/bin/python benchmarks/requirement_classifier.py --warehouse /tmp/gw-dev \\
        models/requirement /tmp/requirement-new
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from groundwork.models.inference import CrossEncoder  # noqa: E402
from training.metrics import held_back  # noqa: E402
from training.requirement import decisions, eu_sentences, us_figures  # noqa: E402
from training.us_duties import us_text  # noqa: E402


def compared(models: list[Path], shared: Path, warehouse: Path, questions: Path, labels: Path):
    """Each model folder's EU held-back and US figures, by folder."""
    eu_test = [row for row in eu_sentences(shared) if held_back(row[0])]
    text = us_text(warehouse)
    figures = {}
    for folder in models:
        model = CrossEncoder(folder)
        figures[str(folder)] = {
            "version": model.version,
            "eu_held_back": decisions(eu_test, model.scores([t for t, _ in eu_test]).tolist()),
            **us_figures(model, text, labels, questions / "dev.jsonl"),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+", help="model folders")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-dev"))
    parser.add_argument("--questions", type=Path, default=REPO / "data/plain-questions")
    parser.add_argument("--labels", type=Path, default=REPO / "data/labels/register_sample.jsonl")
    args = parser.parse_args()
    figures = compared(args.models, args.shared, args.warehouse, args.questions, args.labels)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
