"""The floor under a cold run (issue 24): what reading the corpus costs before any of our work.

Reads every file of the corpus, splits its text into sentences at `. `, `! `, `? ` and blank
lines, and tests each sentence for a modal word (shall, must, may, required to, ...), in plain
Python on every core (multiprocessing). Nothing is parsed, chunked, quoted, checked or written:
a cold `groundwork run` does all of that too, so its time over this one is what our work costs.

    .venv/bin/python benchmarks/floor.py                        # the unpacked bench corpus
    .venv/bin/python benchmarks/floor.py --corpus DIR --workers 2

Prints one JSON object: seconds, files, characters, sentences, modal sentences, load average.
Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from multiprocessing import Pool
from pathlib import Path

DEFAULT_CORPUS = Path("/tmp/groundwork-bench/bench-corpus")  # where benchmarks/scale.py unpacks
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
MODAL = re.compile(r"\b(?:shall|must|may|required to|prohibited|responsible for)\b", re.IGNORECASE)
FILES_PER_TASK = 500


def counted(paths: list[str]) -> tuple[int, int, int]:
    """(characters, sentences, sentences with a modal word) of some files."""
    chars = sentences = modal = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        chars += len(text)
        for sentence in SENTENCE_END.split(text):
            sentences += 1
            modal += MODAL.search(sentence) is not None
    return chars, sentences, modal


def corpus_paths(corpus: Path) -> list[str]:
    """Every visible file under the corpus folder, sorted."""
    found = []
    for folder, dirs, names in os.walk(corpus):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found.extend(os.path.join(folder, n) for n in names if not n.startswith("."))
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    load = os.getloadavg()[0]
    started = time.perf_counter()
    paths = corpus_paths(args.corpus)
    tasks = [paths[i : i + FILES_PER_TASK] for i in range(0, len(paths), FILES_PER_TASK)]
    with Pool(args.workers) as pool:
        results = pool.map(counted, tasks)
    seconds = time.perf_counter() - started
    chars, sentences, modal = (sum(r[i] for r in results) for i in range(3))
    summary = {
        "benchmark": "floor",
        "corpus": str(args.corpus),
        "workers": args.workers,
        "seconds": round(seconds, 2),
        "files": len(paths),
        "chars": chars,
        "sentences": sentences,
        "modal_sentences": modal,
        "load_1min_before": load,
        "load_1min_after": os.getloadavg()[0],
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
