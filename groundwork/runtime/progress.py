"""Progress bars for long stages, shown on the terminal when a person runs the CLI.

Stage tasks report through `stage_progress`; when no display is installed (a Prefect worker, a
test) the calls do nothing, so the tasks stay free of terminal concerns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@dataclass
class _Display:
    progress: Progress | None = None


_DISPLAY = _Display()


@contextmanager
def live_display() -> Iterator[None]:
    """Show stage progress bars on stderr while the block runs."""
    progress = Progress(
        TextColumn("[bold]{task.description:<9}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[unit]}"),
        TimeElapsedColumn(),
        transient=False,
    )
    _DISPLAY.progress = progress
    with progress:
        try:
            yield
        finally:
            _DISPLAY.progress = None


class StageProgress:
    """A handle on one stage's bar; `advance` by units of work done."""

    def __init__(self, stage: str, total: int | None, unit: str) -> None:
        self._progress = _DISPLAY.progress
        self._task = (
            self._progress.add_task(stage, total=total, unit=unit) if self._progress else None
        )

    def advance(self, amount: int = 1) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, amount)

    def finish(self) -> None:
        if self._progress is not None and self._task is not None:
            task = self._progress.tasks[self._task]
            self._progress.update(self._task, total=task.completed)

    def done(self, count: int) -> None:
        """Finish a stage that works in one step (a query, a batch) with the count of what it
        produced: a bar that counted nothing (`0/0`) says less than the stage did."""
        self.advance(count)
        self.finish()


def stage_progress(stage: str, total: int | None, unit: str) -> StageProgress:
    """A progress bar for a stage (a no-op when nothing is displayed)."""
    return StageProgress(stage, total, unit)
