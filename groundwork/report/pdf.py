"""The report as a PDF, printed by headless Chromium: the file an auditor keeps.

The page's print stylesheet does the layout (every answer, and every question's evidence
appendix with its quotes, citations, URLs, locations and verdicts); Chromium only prints it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PRINT_TIMEOUT = 1800  # seconds: thousands of answers print in minutes (BENCHMARKS.md, "Report")


class PdfError(RuntimeError):
    """The PDF could not be printed: no browser, or the browser failed (its last words)."""


def browser() -> str | None:
    """The Chromium to print with: $GROUNDWORK_CHROMIUM, else the first one on PATH."""
    return os.environ.get("GROUNDWORK_CHROMIUM") or next(
        (found for name in BROWSERS if (found := shutil.which(name))), None
    )


def printed_pdf(page: Path, pdf: Path) -> Path:
    """Print an HTML file to `pdf` (written beside, then renamed: never half a file)."""
    executable = browser()
    if executable is None:
        raise PdfError(
            "printing a PDF needs Chromium and none was found: install chromium "
            "(`make browser`) or set GROUNDWORK_CHROMIUM to its path"
        )
    partial = pdf.with_name(f".{pdf.name}.tmp")
    with tempfile.TemporaryDirectory(prefix="groundwork-chromium-") as profile:
        try:
            done = subprocess.run(
                [
                    executable,
                    "--headless",
                    "--no-sandbox",  # root in a container has no user namespace to sandbox in
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                    f"--user-data-dir={profile}",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={partial}",
                    page.resolve().as_uri(),
                ],
                capture_output=True,
                text=True,
                timeout=PRINT_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            partial.unlink(missing_ok=True)
            raise PdfError(f"{executable} did not finish printing in {PRINT_TIMEOUT} s") from exc
        except OSError as exc:  # not there, or not a program
            raise PdfError(f"{executable} could not print {page}: {exc.strerror}") from exc
    if done.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PdfError(f"{executable} could not print {page} (exit {done.returncode}): {last}")
    os.replace(partial, pdf)
    return pdf
