"""The register's precision, read by hand: a seeded sample of requirements drawn from a run's
warehouse, and the share of a labelled sample that are requirements.

The draw orders the register by sha256(seed, doc_id, char_start, char_end) and keeps the first n:
the same span is drawn from any register that holds it, so the registers of two extractor
versions give samples that share most rows, and the figures compare like with like. A reader then
labels each row `requirement` (a duty, prohibition, permission or condition that binds someone)
or `not` (history note, definition, lead-in alone, heading, cross-reference only, purpose ...),
with a reason (data/labels/register_sample.md).

    .venv/bin/groundwork run --corpus ../shared/corpus --questions data/questions.yaml \\
        -w /tmp/wr-full
    .venv/bin/python benchmarks/register_sample.py draw --warehouse /tmp/wr-full > sample.jsonl
    .venv/bin/python benchmarks/register_sample.py precision data/labels/register_sample.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import duckdb

SEED = "register-sample-1"
DRAW = """
SELECT doc_id, char_start, char_end, requirement_id, exact_quote AS quote, lead_in_quote
FROM current_requirements
ORDER BY sha256(? || chr(31) || doc_id || chr(31) || char_start::VARCHAR || chr(31)
                || char_end::VARCHAR)
LIMIT ?
"""


def drawn(warehouse: Path, n: int) -> list[dict]:
    """The first n requirements of the register in the seeded hash order."""
    con = duckdb.connect(
        str(warehouse / "groundwork.duckdb"),
        read_only=True,
        config={"file_search_path": str(warehouse.resolve())},
    )
    try:
        cursor = con.execute(DRAW, [SEED, n])
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        con.close()


def precision(labelled: Path) -> dict:
    """Rows labelled `requirement` over all rows of a labelled sample."""
    rows = [json.loads(line) for line in labelled.read_text().splitlines() if line.strip()]
    kept = sum(row["label"] == "requirement" for row in rows)
    return {"sample": len(rows), "requirements": kept, "precision": round(kept / len(rows), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    draw = commands.add_parser("draw", help="write the sample as JSON lines to stdout")
    draw.add_argument("--warehouse", type=Path, required=True)
    draw.add_argument("-n", type=int, default=200)
    score = commands.add_parser("precision", help="precision of a labelled sample")
    score.add_argument("labelled", type=Path)
    args = parser.parse_args()
    if args.command == "draw":
        for row in drawn(args.warehouse, args.n):
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        print(json.dumps(precision(args.labelled), indent=1))


if __name__ == "__main__":
    main()
