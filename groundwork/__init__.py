"""groundwork: an evidence-first compliance pipeline.

Prefect runs offline by default: no telemetry, no analytics, a generous ephemeral start-up time.
These are defaults only; anything set in the environment wins. Importing groundwork does
nothing else: the compiled rules engine is switched on by the entry points that run it
(groundwork/runtime/compiled.py).
"""

import os

for _key, _value in {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
    "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "60",
    "PREFECT_LOGGING_EXTRA_LOGGERS": "groundwork",
}.items():
    os.environ.setdefault(_key, _value)
