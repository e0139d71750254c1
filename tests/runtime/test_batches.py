"""The worker pool: used only for work big enough to pay for starting it, same results either way."""

from groundwork.runtime.batches import INLINE_BYTES, mapped, worker_count


def test_small_work_runs_inline_whatever_was_asked() -> None:
    assert worker_count(4, batches=10, size=INLINE_BYTES - 1) == 1


def test_big_work_gets_the_requested_workers_but_never_more_than_batches() -> None:
    assert worker_count(4, batches=10, size=INLINE_BYTES) == 4
    assert worker_count(4, batches=3, size=10 * INLINE_BYTES) == 3


def test_worker_processes_return_results_in_input_order() -> None:
    items = list(range(40))
    assert list(mapped(str, items, workers=2)) == [str(i) for i in items]
