"""The report's provenance block: what produced these answers, so an auditor can tie the page
to one run of one corpus under one configuration, code and set of models, see which checks it
passed, and open the run's other files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from groundwork.models.inference import MODELS_DIR, model_version
from groundwork.report.markup import esc
from groundwork.stages import CODE_VERSION
from schemas.config import PROFILE_DIR, profile_config

RUNTIME_ONLY = ("workers", "batch_docs", "data_docs")  # how a run ran, not what it computed


@dataclass(frozen=True)
class Files:
    """Where the run's other files are, relative to the report (a prefix ending in '/' or
    empty), and which of them exist to link."""

    prefix: str
    changes: str | None  # changes.md against the previous published run, if written


def _config(run: dict) -> dict:
    raw = run.get("config")
    return json.loads(raw) if isinstance(raw, str) else dict(raw or {})


def profiles_matching(config: dict) -> list[str]:
    """The shipped profiles whose settings the run's config has (runtime settings aside)."""

    def settings(values: dict) -> dict:
        return {k: v for k, v in values.items() if k not in RUNTIME_ONLY}

    wanted = settings(config)
    return [
        path.stem
        for path in sorted(PROFILE_DIR.glob("*.yaml"))
        if settings(profile_config(path.stem).model_dump(mode="json")) == wanted
    ]


# The models trained here that a (stage, backend) runs.
TRAINED_MODELS = {
    ("retrieve", "hybrid"): ["dense"],
    ("retrieve", "trained"): ["relevance", "dense"],
    ("extract", "trained"): ["requirement"],
    ("verify", "trained"): ["dense"],
}


def models_used(config: dict) -> list[str]:
    """The models the configuration asks for: those trained here with their versions (as
    shipped with this code), and a served model by its name."""
    used: list[str] = []
    for stage in ("retrieve", "extract", "verify", "compose"):
        backend = config.get(stage)
        if isinstance(backend, dict):
            served = f"served model {backend.get('model')} at {backend.get('base_url')}"
            used.append(f"{stage}: {served}")
        else:
            for name in TRAINED_MODELS.get((stage, backend), []):
                used.append(f"{stage}: {model_version(name)}")
    if (config.get("claims") or {}).get("model") == "trained":
        used.append(f"claim checks: {model_version('support')}")
    return used


def _code() -> str:
    try:
        return f"groundwork {version('groundwork')}"
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "groundwork (not installed)"


def _checks_html(checks: list[dict]) -> str:
    if not checks:
        return "<dd>no checks recorded for this run</dd>"
    failed = [c for c in checks if not c["passed"]]
    rows = "".join(
        f'<li class="gw-check" data-passed="{str(c["passed"]).lower()}">'
        f"{'passed' if c['passed'] else '<b>failed</b>'} ({esc(c['severity'])}): "
        f"<code>{esc(c['check_name'])}</code>, {esc(c['metric'])}"
        f"{'' if c['passed'] else ' (' + str(c['offending_rows']) + ' rows)'}</li>"
        for c in checks
    )
    return (
        f'<dd><b class="gw-checks-passed">{len(checks) - len(failed)}</b> passed, '
        f'<b class="gw-checks-failed">{len(failed)}</b> failed'
        f"<details><summary>Every check</summary><ul>{rows}</ul></details></dd>"
    )


def provenance_html(run: dict, checks: list[dict], previous_run: str | None, files: Files) -> str:
    """The provenance block of a run's report."""
    config = _config(run)
    matching = profiles_matching(config) if config else []
    profile = f"profile {esc(', '.join(matching))}" if matching else "a custom configuration"
    stages = ", ".join(
        f"{s} {esc(config[s] if isinstance(config.get(s), str) else 'served model')}"
        for s in ("retrieve", "extract", "verify", "compose")
        if s in config
    )
    models = models_used(config)
    other_code = run.get("code_version") not in (None, CODE_VERSION)
    model_text = (
        "; ".join(esc(m) for m in models)
        + (" (as shipped with the code writing this report, not the run's)" if other_code else "")
        if models
        else f"none: this configuration uses no model (the trained ones are in {MODELS_DIR.name}/)"
    )
    when = " to ".join(str(run[k])[:19] for k in ("started_at", "finished_at") if run.get(k))
    prefix = esc(files.prefix)
    changes = (
        f' · <a href="{prefix}{esc(files.changes)}">changes since {esc(previous_run)}</a>'
        if files.changes and previous_run
        else " · no earlier published run to compare with"
        if previous_run is None
        else f" · changes: <code>groundwork diff {esc(previous_run)} {esc(run['run_id'])}</code>"
    )
    return (
        '<section class="gw-provenance" id="provenance" aria-labelledby="provenance-h">'
        '<h2 id="provenance-h">Provenance</h2><dl class="gw-prov">'
        f'<dt>Run</dt><dd><code class="gw-run-id">{esc(run["run_id"])}</code>'
        f"{', ' + esc(run['status']) if run.get('status') else ''}"
        f"{', ' + esc(when) + ' UTC' if when else ''}</dd>"
        f"<dt>Corpus</dt><dd>{esc(run.get('corpus') or '—')}: "
        f'<b class="gw-doc-count">{esc(run.get("documents", "—"))}</b> documents; '
        f'fingerprint <code class="gw-fingerprint">{esc(run.get("corpus_hash") or "—")}</code>'
        "</dd>"
        f"<dt>Configuration</dt><dd>{profile} (config <code>{esc(run.get('config_hash'))}"
        f"</code>): {stages}</dd>"
        f"<dt>Code</dt><dd>stage versions <code>{esc(run.get('code_version') or '—')}</code>"
        f"; this report written by {esc(_code())}</dd>"
        f'<dt>Models</dt><dd class="gw-models">{model_text}</dd>'
        f"<dt>Checks</dt>{_checks_html(checks)}"
        f'<dt>Files</dt><dd class="gw-files"><a href="{prefix}answers.md">answers.md</a> · '
        f'<a href="{prefix}audit_trail.json">audit_trail.json</a> · '
        f'<a href="{prefix}data_docs/index.html">Data Docs</a> (written after the run by a '
        f"background job){changes}</dd></dl></section>"
    )
