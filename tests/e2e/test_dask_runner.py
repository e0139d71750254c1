"""`--task-runner dask`: the stages' shards run as Prefect task runs on Dask (prefect-dask), on a
LocalCluster or on a cluster of `dask scheduler` and `dask worker` processes, and every table
comes out the same as with the default local runner."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import psutil
import pytest
from prefect import flow
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

import groundwork.runtime.shards as shards
from flows.corpus import corpus_run
from groundwork.runtime.shards import dask_runner, shard_results
from schemas.config import RunConfig
from tests.output_checksums import CHECKSUMMED
from tests.support.dask_cluster import dask_cluster
from tests.support.paths import FIXTURES, SAMPLE_CORPUS, SAMPLE_QUESTIONS
from tests.support.runs import flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
# 5 chunk shards of 10 documents; the checksummed run's settings otherwise
CONFIG = RunConfig(**{**CHECKSUMMED, "batch_docs": 10})
TABLES = {
    "chunks": "SELECT * EXCLUDE (run_id) FROM current_chunks",
    "requirements": "SELECT * EXCLUDE (run_id, first_run) FROM current_requirements",
    "verifications": "SELECT * EXCLUDE (run_id) FROM current_verifications",
    "answers": "SELECT * EXCLUDE (run_id) FROM current_answers",
    "statements": "SELECT * EXCLUDE (run_id) FROM current_statements",
    "citations": "SELECT * EXCLUDE (run_id) FROM current_citations",
}


def shard_runs(flow_run_id: str) -> int:
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
        )
    return sum(1 for r in runs if r.name.startswith("shard") and r.state.is_completed())


def test_the_dask_runner_gives_the_same_tables_as_the_local_one(tmp_path: Path):
    local = flow_run(SAMPLE_CORPUS, tmp_path / "local", SAMPLE_QUESTIONS, CONFIG)
    on_dask = corpus_run.with_options(task_runner=dask_runner(None))
    dask = on_dask(str(SAMPLE_CORPUS), str(tmp_path / "dask"), str(SAMPLE_QUESTIONS), CONFIG)
    assert local.status == dask.status == "published"
    for table, sql in TABLES.items():
        assert sorted(rows(tmp_path / "local", sql)) == sorted(rows(tmp_path / "dask", sql)), table
    (flow_run_id,) = rows(tmp_path / "dask", "SELECT flow_run_id FROM runs")[0]
    # ingest: 1 shard of files; chunk: 5 shards of documents; extract: 5 parts of chunks
    assert shard_runs(flow_run_id) == 11
    (local_flow_run,) = rows(tmp_path / "local", "SELECT flow_run_id FROM runs")[0]
    assert shard_runs(local_flow_run) == 0  # the local runner uses worker processes instead


def test_the_shards_run_on_a_cluster_of_dask_scheduler_and_dask_worker_processes(tmp_path: Path):
    """On a cluster started as a user starts one (`dask scheduler`, two `dask worker` processes,
    as on two machines), both workers take shards, and every table is that of the checksummed
    local run (tests/output_checksums.py)."""
    from distributed import Client, get_task_stream

    from tests.output_checksums import run_checksums

    with (
        dask_cluster(2, tmp_path / "logs") as cluster,
        Client(cluster.address) as client,
    ):
        on_dask = corpus_run.with_options(task_runner=dask_runner(cluster.address))
        with get_task_stream(client) as stream:
            summary = on_dask(
                str(SAMPLE_CORPUS), str(tmp_path / "wh"), str(SAMPLE_QUESTIONS), CONFIG
            )
        workers = {task["worker"] for task in stream.data}
        parents = {psutil.Process(pid).ppid() for pid in client.run(os.getpid).values()}
        preloaded = set(client.run(lambda: "groundwork.runtime.preload" in sys.modules).values())
    assert summary.status == "published"
    assert len(workers) == 2 and parents == set(cluster.nannies) and preloaded == {True}
    # the shards' task runs are on the test's Prefect server, which the workers were not given
    (flow_run_id,) = rows(tmp_path / "wh", "SELECT flow_run_id FROM runs")[0]
    assert shard_runs(flow_run_id) == 11
    expected = json.loads((FIXTURES / "output_checksums.json").read_text())
    found = run_checksums(tmp_path / "wh")
    for database, tables in expected.items():
        differ = sorted(t for t, s in tables.items() if found[database].get(t) != s)
        # published_run holds the config's hash, which names the shards of 10 documents
        assert differ == (["published_run"] if database == "published.duckdb" else []), database


def test_shards_are_submitted_as_the_cluster_frees_room_and_come_back_in_order(
    monkeypatch: pytest.MonkeyPatch,
):
    """A stage's inputs are drawn as their shards are submitted, a few ahead of the one awaited,
    not all before the first runs: a cold run's batches of files never sit whole in the flow."""
    monkeypatch.setattr(shards, "IN_FLIGHT", 2)
    drawn: list[int] = []

    def inputs():
        for i in range(-6, 0):
            drawn.append(i)
            yield i

    @flow(task_runner=dask_runner(None, workers=1))
    def absolute() -> list[tuple[int, int]]:
        return [(result, len(drawn)) for result in shard_results(abs, inputs())]

    results = absolute()
    assert [result for result, _ in results] == [6, 5, 4, 3, 2, 1]
    assert [seen for _, seen in results] == [2, 3, 4, 5, 6, 6]
