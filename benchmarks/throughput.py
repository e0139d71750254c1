"""End-to-end question throughput on ObliQA dev: 2,788 questions over the 40 ADGM documents.

Converts ObliQA_dev.json into a groundwork question file, runs one `groundwork run` over the
ObliQA passages with those questions, and reads the per-stage timings from the `runs` table.
The question half (retrieve, verify, compose, review, publish) is what the 2-minute target is on.

    .venv/bin/python benchmarks/throughput.py [--shared ../shared] [--warehouse /tmp/gw-throughput]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parent.parent
QA_STAGES = ("retrieve", "verify", "compose", "review", "publish")


def question_file(obliqa: Path, target: Path) -> int:
    """Write the dev questions as JSONL (question_id, question); returns how many."""
    questions = json.loads((obliqa / "ObliQA_dev.json").read_text())
    with target.open("w") as out:
        for q in questions:
            row = {"question_id": q["QuestionID"], "question": q["Question"]}
            out.write(json.dumps(row) + "\n")
    return len(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-throughput"))
    args = parser.parse_args()
    obliqa = args.shared / "benchmarks" / "obliqa-dev"
    shutil.rmtree(args.warehouse, ignore_errors=True)
    args.warehouse.mkdir(parents=True)
    questions = args.warehouse / "obliqa-dev-questions.jsonl"
    n = question_file(obliqa, questions)
    command = [
        str(REPO / ".venv" / "bin" / "groundwork"),
        "run",
        "--corpus",
        str(obliqa / "StructuredRegulatoryDocuments"),
        "--map",
        "citation=ADGM {DocumentID} {PassageID}",
        "--questions",
        str(questions),
        "--warehouse",
        str(args.warehouse),
    ]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    con = duckdb.connect(str(args.warehouse / "groundwork.duckdb"), read_only=True)
    timings, counts, status = con.execute("SELECT timings, counts, status FROM runs").fetchone()
    timings, counts = json.loads(timings), json.loads(counts)
    qa = sum(timings.get(s, 0.0) for s in QA_STAGES)
    report = {
        "questions": n,
        "status": status,
        "wall_s_whole_run": round(wall, 1),
        "question_stages_s": round(qa, 1),
        "questions_per_s": round(n / qa, 1),
        "timings": timings,
        "answered": counts.get("answered"),
        "no_evidence": counts.get("no_evidence"),
        "command": " ".join(command),
    }
    out = REPO / "bench-out" / "throughput.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
