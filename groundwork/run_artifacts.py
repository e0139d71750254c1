"""What a run shows of itself in the Prefect UI: the summary as Markdown, and its stage timings
and rejections as tables. Pure functions of the run's summary and rows; the flow publishes them
as Prefect artifacts (flows/corpus.py), so an operator who opens a flow run sees what it
produced, what it rejected and why, and where its reports are, without a terminal."""

from __future__ import annotations

from pathlib import Path

from schemas.run_summary import RunSummary

# A rejection's detail can be long (a traceback-free parser message, a file list): a table cell
# keeps its start.
DETAIL_CHARS = 300


def summary_markdown(summary: RunSummary, rejections: list[dict]) -> str:
    """The run's summary as Markdown: outcome, counts, failed checks, rejections, and where its
    reports are."""
    root = Path(summary.warehouse)
    lines = [f"# groundwork run {summary.run_id}: {summary.status.upper()}", ""]
    if summary.reused_run:
        lines += [
            f"Nothing to do: corpus, questions and config are those of the published run "
            f"`{summary.reused_run}`.",
            "",
        ]
    lines += [
        "| | |",
        "|---|---|",
        f"| files read | {summary.files:,} |",
        f"| documents | {summary.documents:,} ({summary.changed_documents:,} new or changed) |",
        f"| rejected | {summary.rejected:,} files or records |",
        f"| chunks | {summary.chunks:,} |",
        f"| requirements | {summary.requirements:,} ({summary.new_ids:,} new IDs, "
        f"{summary.retired_ids:,} retired) |",
        f"| questions | {summary.questions:,} ({summary.answered:,} answered, "
        f"{summary.no_evidence:,} NO_AUTHORITATIVE_EVIDENCE, {summary.rejected_questions:,} "
        "rejected) |",
        "",
    ]
    if summary.failed_checks:
        lines += ["## Failed hard checks (nothing was published)", ""]
        lines += [f"- `{name}`" for name in summary.failed_checks] + [""]
    if rejections:
        lines += [f"## Rejected ({len(rejections):,})", ""]
        lines += [
            f"- `{r['path']}`{_record(r)}: **{r['reason']}**: {_cell(r['detail'])}"
            for r in rejections[:50]
        ]
        if len(rejections) > 50:
            lines.append(f"- … and {len(rejections) - 50:,} more (the rejections table)")
        lines.append("")
    if summary.status == "published":
        folder = root / "reports" / summary.run_id
        lines += [
            "## Outputs",
            "",
            f"- report: `{folder / 'report.html'}`",
            f"- answers: `{folder / 'answers.md'}`",
            f"- audit trail: `{folder / 'audit_trail.json'}`",
            f"- Data Docs: `{folder / 'data_docs' / 'index.html'}` (written in the background)",
            f"- dashboards: `{root / 'published.duckdb'}`",
            "",
        ]
    return "\n".join(lines)


def stage_rows(summary: RunSummary) -> list[dict]:
    """One row per stage that ran: its seconds and share of the run's stage time."""
    total = sum(summary.timings.values()) or 1.0
    return [
        {"stage": stage, "seconds": round(seconds, 2), "share": f"{seconds / total:.0%}"}
        for stage, seconds in summary.timings.items()
    ]


def rejection_rows(rejections: list[dict]) -> list[dict]:
    """The run's rejected files and records, one row each, details cut to a table cell."""
    return [
        {
            "path": r["path"],
            "record": r["record"] or "",
            "reason": r["reason"],
            "detail": _cell(r["detail"]),
        }
        for r in rejections
    ]


def run_tags(corpus: Path, profile: str | None) -> list[str]:
    """The flow run's tags: the corpus folder's name and the profile, to filter runs by."""
    return [f"corpus:{corpus.resolve().name}", f"profile:{profile or 'default'}"]


def outcome_tags(summary: RunSummary) -> list[str]:
    """Tags that mark what a finished run did, beyond its state: published with rejections,
    unchanged, or failed its checks."""
    tags = [f"outcome:{summary.status}"]
    if summary.rejected or summary.rejected_questions or summary.model_rejections:
        tags.append("with-rejections")
    return tags


def _record(rejection: dict) -> str:
    return f" (record {rejection['record']})" if rejection.get("record") else ""


def _cell(text: str | None) -> str:
    """A detail on one line, cut to DETAIL_CHARS, with the Markdown table's bar escaped."""
    flat = " ".join((text or "").split()).replace("|", "\\|")
    return flat if len(flat) <= DETAIL_CHARS else flat[: DETAIL_CHARS - 1] + "…"
