"""A run's deliverables written to files: the HTML `report` and the provenance `export`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from groundwork.cli.common import (
    EXIT_FAILED,
    EXIT_USAGE,
    WarehouseOption,
    answered_run,
    err,
    existing_warehouse,
    out,
)


def report(
    run_id: Annotated[
        str | None,
        typer.Option("--run", help="the run to report (default: the published run)"),
    ] = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="HTML file to write (default: <warehouse>/reports/<run>/report.html)",
            show_default=False,
        ),
    ] = None,
    pdf: Annotated[
        bool,
        typer.Option("--pdf", help="also print it to a PDF beside it, with headless Chromium"),
    ] = False,
    warehouse: WarehouseOption = None,
) -> None:
    """Write a run's answers as one self-contained HTML page (no network needed to open it).

    A question index, search and filters stay in view; each question and requirement has a
    permalink. Each citation marker opens an evidence card (source, date, URL, the quote marked
    in its passage, its location, the verdict); each answer has an evidence appendix, which is
    printed; numbers expand to their source quote and value. --pdf prints the page to a PDF."""
    from groundwork.report.pdf import PdfError, printed_pdf
    from groundwork.report.write import default_path, write_report

    wh = existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        run_id = answered_run(con, wh, run_id)
        path = write_report(con, wh, run_id, out_path or default_path(wh, run_id))
    out.print(f"wrote {path} (run {run_id}, {path.stat().st_size / 1e6:.1f} MB)")
    if pdf:
        try:
            printed = printed_pdf(path, path.with_suffix(".pdf"))
        except PdfError as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(EXIT_FAILED) from None
        out.print(f"wrote {printed} ({printed.stat().st_size / 1e6:.1f} MB)")


class ExportFormat(StrEnum):  # the keys of groundwork.export.formats.DEFAULT_NAMES
    json = "json"
    jsonl = "jsonl"
    parquet = "parquet"
    csv = "csv"
    xlsx = "xlsx"
    oscal = "oscal"
    ciso_assistant = "ciso-assistant"


def export(
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: one document; jsonl: one record a line (record_type); "
            "parquet: a folder with one file per entity; csv: a folder with one file per table "
            "(requirements, answers, citations, checks); xlsx: one workbook, a sheet per table; "
            "oscal: the register as an OSCAL catalog (JSON); ciso-assistant: the register as a "
            "CISO Assistant library (YAML)",
        ),
    ] = ExportFormat.json,
    run: Annotated[
        str | None, typer.Option("--run", help="the run to export (default: the published run)")
    ] = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="file (folder for parquet and csv) to write (default: in "
            "<warehouse>/reports/<run>/: provenance.json, .jsonl, .xlsx, provenance/, "
            "provenance-csv/, oscal-catalog.json or ciso-assistant-library.yaml)",
            show_default=False,
        ),
    ] = None,
    warehouse: WarehouseOption = None,
) -> None:
    """Export a run's full provenance: sources, documents (with text), requirements, questions,
    answers, statements, citations, verifications and checks, with stable IDs. The records meet
    the JSON Schema in schemas/export.schema.json. csv and xlsx hold the register, answers,
    citations and checks as tables; oscal and ciso-assistant the register, for compliance
    tools to import."""
    from groundwork.export import formats
    from groundwork.export.records import (
        NotExportable,
        StaleDocuments,
        exportable_run,
        provenance,
    )

    wh = existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        try:
            run_id = exportable_run(con, wh, run)
        except NotExportable as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        try:
            records = provenance(con, wh, run_id)
        except StaleDocuments as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(EXIT_FAILED) from exc
    try:
        target = formats.export_target(fmt.value, out_path, wh.root / "reports" / run_id)
    except formats.UnsafeTarget as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    formats.written_export(records, fmt.value, target)
    out.print(
        f"exported run {run_id} to {target}: {len(records.documents):,} documents, "
        f"{len(records.requirements):,} requirements, {len(records.statements):,} statements, "
        f"{len(records.citations):,} citations"
    )
