"""Report generation for the 2,788 ObliQA dev questions: how long `groundwork report` takes,
and how long Chromium takes to open the page and to search it.

Reuses the warehouse benchmarks/throughput.py builds (all 2,788 questions answered over the
ObliQA passages), building it first when it is missing or `--rebuild` is given, then times the
whole `groundwork report` command (process start, reading the tables, rendering, writing) over
a few rounds, then opens the page in headless Chromium (Playwright, as the tests do) and times
its load and a first and second search. `--pdf` also times `groundwork report --pdf`. Writes
bench-out/report.json. Target: under 30 s.

    .venv/bin/python benchmarks/report.py [--shared ../shared] [--warehouse /tmp/gw-throughput]
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

from machine import cpu_model

from groundwork.warehouse.store import Warehouse

REPO = Path(__file__).resolve().parent.parent
COUNTS = """
SELECT (SELECT count(*) FROM current_answers),
       (SELECT count(*) FROM current_answers WHERE result = 'ANSWERED'),
       (SELECT count(*) FROM current_statements),
       (SELECT count(*) FROM current_citations),
       (SELECT count(DISTINCT requirement_id) FROM current_citations)
"""


def built(warehouse: Path, shared: Path, rebuild: bool) -> None:
    """The throughput benchmark's warehouse, built unless it is there already."""
    if rebuild or not (warehouse / "groundwork.duckdb").exists():
        script = REPO / "benchmarks" / "throughput.py"
        command = [sys.executable, str(script), "--shared", str(shared)]
        subprocess.run([*command, "--warehouse", str(warehouse)], check=True)


def browser_timings(page: Path) -> dict:
    """Seconds for Chromium to load the page (its load event) and to run two searches (the
    first reads every answer's text once), and the number of answers the second one shows."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        started = time.perf_counter()
        tab.goto(page.as_uri(), wait_until="load", timeout=300_000)
        loaded = time.perf_counter() - started
        searches = []
        for words in ("notify", "financial services regulatory authority"):
            started = time.perf_counter()
            shown = tab.evaluate(
                """words => {
                    const field = document.getElementById('gw-q');
                    field.value = words;
                    field.dispatchEvent(new Event('input'));
                    return new Promise(done => setTimeout(() =>
                        done(document.getElementById('gw-shown-n').textContent), 150));
                }""",
                words,
            )
            searches.append(round(time.perf_counter() - started - 0.15, 2))  # less the debounce
        browser.close()
    return {"load_s": round(loaded, 2), "search_s": searches, "last_search_shown": int(shown)}


def load_average() -> float:
    return round(float(Path("/proc/loadavg").read_text().split()[0]), 2)


def commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/gw-throughput"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rebuild", action="store_true", help="rebuild the warehouse first")
    parser.add_argument("--pdf", action="store_true", help="also time `groundwork report --pdf`")
    args = parser.parse_args()
    built(args.warehouse, args.shared, args.rebuild)
    out = args.warehouse / "bench-report.html"
    command = [
        str(REPO / ".venv" / "bin" / "groundwork"),
        "report",
        "--warehouse",
        str(args.warehouse),
        "--out",
        str(out),
    ]
    seconds = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds.append(round(time.perf_counter() - started, 2))
    load_before = load_average()
    in_browser = browser_timings(out)
    print(json.dumps({"groundwork report": seconds, **in_browser}), flush=True)
    pdf_s = None
    if args.pdf:
        started = time.perf_counter()
        subprocess.run([*command, "--pdf"], check=True, capture_output=True)
        pdf_s = round(time.perf_counter() - started, 1)
    with Warehouse(args.warehouse).connect(read_only=True) as con:  # its views are relative
        questions, answered, statements, citations, cited = con.execute(COUNTS).fetchone()
    report = {
        "questions": questions,
        "answered": answered,
        "statements": statements,
        "citations": citations,
        "cited_requirements": cited,
        "report_mb": round(out.stat().st_size / 1e6, 1),
        "seconds": seconds,
        "best_s": min(seconds),
        **in_browser,
        "pdf_command_s": pdf_s,
        "pdf_mb": round(out.with_suffix(".pdf").stat().st_size / 1e6, 1) if pdf_s else None,
        "load_average_1min": [load_before, load_average()],
        "machine": f"{cpu_model()}, {platform.python_version()}, {platform.machine()}",
        "commit": commit(),
        "command": " ".join(command),
    }
    target = REPO / "bench-out" / "report.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
