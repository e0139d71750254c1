"""Before a run on a Dask scheduler: an address where nothing answers is one line, not a
traceback after Dask's retries, and a run that names no Prefect server is warned that its
shards' task runs would go to a temporary server on each worker."""

from __future__ import annotations

import socket

from prefect.settings import PREFECT_API_URL, temporary_settings

from groundwork.runtime.shards import server_warning, unreachable_scheduler
from tests.support.servers import free_port


def test_a_scheduler_that_does_not_answer_is_said_in_one_line():
    address = f"tcp://127.0.0.1:{free_port()}"
    problem = unreachable_scheduler(address, timeout=2)
    assert problem is not None and address in problem and "\n" not in problem


def test_an_address_that_is_not_host_and_port_is_said_so():
    for address in ("tcp://scheduler", "tcp://10.0.0.5:port", "tcp://:8786"):
        assert "expected tcp://HOST:PORT" in (unreachable_scheduler(address) or ""), address


def test_a_listening_scheduler_port_passes():
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert unreachable_scheduler(f"tcp://127.0.0.1:{port}") is None
        assert unreachable_scheduler(f"127.0.0.1:{port}") is None  # Dask's own default scheme


def test_a_cluster_run_without_a_prefect_server_is_warned():
    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        warning = server_warning("tcp://10.0.0.5:8786")
    assert warning is not None
    assert "tcp://10.0.0.5:8786" in warning and "PREFECT_API_URL" in warning


def test_a_cluster_run_with_a_prefect_server_or_a_local_cluster_is_not_warned():
    with temporary_settings(updates={PREFECT_API_URL: "http://10.0.0.4:4200/api"}):
        assert server_warning("tcp://10.0.0.5:8786") is None
    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        assert server_warning(None) is None  # a local cluster shares this process's server
