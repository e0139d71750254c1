"""Local servers the tests start as processes of their own: a free port to give one, and the wait
until it answers."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_answering(
    what: str, url: str, server: subprocess.Popen, log: Path, timeout: float = 120
) -> None:
    """Until a GET of `url` succeeds; fails the test, naming `what` and quoting the end of the
    server's log, when the server exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{what} did not start: {log.read_text()[-3000:]}")
            time.sleep(0.5)
