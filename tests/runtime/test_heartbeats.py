"""Prefect's flow run heartbeats are sent only to a server that outlives the run
(groundwork/runtime/warmup.py, `no_heartbeats_to_a_passing_server`)."""

from __future__ import annotations

from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

from groundwork.runtime.warmup import no_heartbeats_to_a_passing_server


def test_no_heartbeats_go_to_the_runs_own_ephemeral_server():
    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        default = get_current_settings().flows.heartbeat_frequency
        with no_heartbeats_to_a_passing_server():
            assert get_current_settings().flows.heartbeat_frequency is None
        assert get_current_settings().flows.heartbeat_frequency == default


def test_a_running_server_keeps_its_heartbeats():
    with temporary_settings(updates={PREFECT_API_URL: "http://127.0.0.1:4200/api"}):
        default = get_current_settings().flows.heartbeat_frequency
        assert default is not None
        with no_heartbeats_to_a_passing_server():
            assert get_current_settings().flows.heartbeat_frequency == default
