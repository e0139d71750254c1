"""Named points where the fault suite makes a run fail the way a machine does: killed outright,
or out of disk.

A crash between two writes is the case a pipeline most often gets wrong and a test can least
often reach by timing: on the sample corpus a stage lasts milliseconds. So the places where a
crash would leave the most behind (a stage's output written but not yet in place, a publication
committed but its snapshot not yet renamed, a collection half done) call `failpoint(name)`,
which does nothing unless `GROUNDWORK_FAILPOINT` is `<action>:<name>`:

- `kill:<name>`: SIGKILL to the process group, as the OOM killer or `kill -9` of a shell job
  would (nothing runs after it: no `finally`, no handler);
- `enospc:<name>`: `OSError(ENOSPC)`, as a write to a full disk raises;
- `fail:<name>`: a plain `RuntimeError`, a stage that fails for any other reason (a retry of the
  flow run, with the variable unset, then goes on from that stage).

The points: `ingest` (parsed documents merged, not committed), `commit:<table>` (a stage's
Parquet staged, not yet renamed into place), `review` (checks computed, not recorded), `publish`
(the publication committed, its reports and snapshot not yet written) and `gc` (one old run's
files moved aside, the rest not).
"""

from __future__ import annotations

import errno
import os
import signal

VARIABLE = "GROUNDWORK_FAILPOINT"


def failpoint(name: str) -> None:
    """Fail here if the environment names this point (see the module docstring)."""
    action, _, point = os.environ.get(VARIABLE, "").partition(":")
    if point != name:
        return
    if action == "kill":
        os.killpg(os.getpgid(0), signal.SIGKILL)
    if action == "enospc":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), f"failpoint {name}")
    if action == "fail":
        raise RuntimeError(f"failpoint {name}: a fault injected through {VARIABLE}")
