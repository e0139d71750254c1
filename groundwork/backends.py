"""The choice of a stage's backend, written once: one that runs here (rules, or a model trained
here) or a served model.

Each stage with more than one way of working has a package in the library
(groundwork/extract/, groundwork/verify/, groundwork/compose/) whose `__init__` declares the
stage's protocol and picks its backend through `chosen`, by the stage's setting in the run
config (`extract`, `verify`, `compose`). A served model needs the run's ModelStage (response
cache, usage, rejections), opened for the stage and closed after it; an offline backend needs
nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, TypeVar

from schemas.config import ModelBackend, RunConfig

if TYPE_CHECKING:
    from groundwork.llm.calls import ModelStage
    from groundwork.warehouse.store import Warehouse

B = TypeVar("B")
StageName = Literal["extract", "verify", "compose"]


@contextmanager
def chosen(
    stage: StageName,
    config: RunConfig,
    warehouse: Warehouse,
    run_id: str,
    offline: Callable[[], B],
    served: Callable[[ModelStage], B],
) -> Iterator[B]:
    """The stage's configured backend, open for the duration of the stage: `offline` builds
    the one that runs here (rules, or a model trained here), `served` the served model's."""
    setting = getattr(config, stage)
    if not isinstance(setting, ModelBackend):
        yield offline()
        return
    from groundwork.llm.calls import model_stage  # an offline backend never loads the client

    with model_stage(warehouse, run_id, stage, config) as opened:
        yield served(opened)
