"""What `groundwork run` does while Prefect's ephemeral server starts, before it runs the flow.

Without a Prefect server (PREFECT_API_URL unset) the flow's first API call starts one, and the
call waits for it: seconds on the bench corpus, with one core idle.
The CLI starts it in a thread instead, and meanwhile takes the corpus's digests (handed over to
the flow, which takes them as they are: ingest.listing.recent_listing) and imports the stages.
The thread is joined before the flow runs: Prefect's `start()` returns at once to a second
caller while the first still waits for the server to answer, so nothing may call the API
before the join.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
from prefect.settings import PREFECT_API_URL, PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

from groundwork.ingest.listing import CorpusMissing, corpus_listing, hand_over, listing_taken
from groundwork.warehouse.errors import WarehouseUnusable
from groundwork.warehouse.store import Warehouse


@contextmanager
def server_starting() -> Iterator[None]:
    """Prefect's ephemeral server (when the run needs one) starts while the body runs; it
    answers by the end of the block."""
    if PREFECT_API_URL.value():
        yield
        return
    starting = threading.Thread(target=_server_started, name="prefect-server", daemon=True)
    starting.start()
    try:
        yield
    finally:
        starting.join()


@contextmanager
def no_heartbeats_to_a_passing_server() -> Iterator[None]:
    """Prefect's flow run heartbeats off while the body runs when the run's server is the
    ephemeral one it starts itself (PREFECT_API_URL unset). They tell a server that a run is
    still alive, and that server stops with the process, so none is ever read; and the thread
    that sends them sleeps in one-second steps, which the end of every flow run waits out
    (docs/benchmarks-history.md). Against a running server they stay on."""
    if PREFECT_API_URL.value():
        yield
        return
    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield


def digests_taken(corpus: Path, warehouse: Warehouse) -> None:
    """Take the corpus's digests now and hand them over to the flow, unless the CLI has just
    taken them (its check for an unchanged run, which hands them over itself)."""
    if listing_taken(corpus, warehouse):
        return
    # a missing corpus or an unusable warehouse: the flow says so in its own words, and
    # records the failed run
    with suppress(CorpusMissing, WarehouseUnusable):
        hand_over(corpus_listing(corpus, warehouse), corpus, warehouse)


def _server_started() -> None:
    """Start Prefect's ephemeral server, the one its client would start (a singleton per
    process). A failure here is not the run's to report: the client's own `start()` tries
    again when the flow begins, and raises what it meets.

    Imported here, not at the top: the server's modules are slow to import, which a run
    against a running server (PREFECT_API_URL set) never needs."""
    from prefect.server.api.server import SubprocessASGIServer

    try:
        SubprocessASGIServer().start()
    except (RuntimeError, OSError, httpx.HTTPError):
        return
