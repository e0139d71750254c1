"""A corpus N times the bench corpus, for runs past its size (issue 24).

Writes N copies of the unpacked bench corpus's Markdown files into one folder, `copy-<k>/...`.
Copy 0 is the corpus as it is; in copy k > 0 every document gets its own doc_id (`<doc_id>-k<k>`)
and one word of its body changed (the first " the " becomes " this ", or a sentence is
appended when it has none), so no two copies share a doc_id or a text: the warehouse stores
texts by content hash, and identical copies would make the large corpus unrealistically cheap.

    .venv/bin/python benchmarks/perturbed_corpus.py --copies 10     # /tmp/groundwork-bench/x10

Prints the folder, files and bytes written. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

CACHE = Path("/tmp/groundwork-bench")
DOC_ID = re.compile(r'^doc_id: "([^"]+)"$', re.MULTILINE)


def perturbed(text: str, copy: int) -> str:
    """The file's text as copy `copy` has it: its own doc_id, one word of its body changed."""
    if copy == 0:
        return text
    text = DOC_ID.sub(lambda m: f'doc_id: "{m.group(1)}-k{copy}"', text, count=1)
    head, sep, body = text.partition("\n---\n")
    if not sep:
        head, body = "", text
    changed = body.replace(" the ", " this ", 1)
    if changed == body:
        changed = body + f"\n\nThis is copy {copy}.\n"
    return head + sep + changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CACHE / "bench-corpus")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None, help="[/tmp/groundwork-bench/x<N>]")
    args = parser.parse_args()
    target = args.out or CACHE / f"x{args.copies}"
    files = sorted(p for p in args.corpus.rglob("*.md") if not p.name.startswith("."))
    written = 0
    for copy in range(args.copies):
        for path in files:
            out = target / f"copy-{copy}" / path.relative_to(args.corpus)
            out.parent.mkdir(parents=True, exist_ok=True)
            text = perturbed(path.read_text(encoding="utf-8"), copy)
            written += out.write_text(text, encoding="utf-8")
    summary = {"corpus": str(target), "files": len(files) * args.copies, "chars": written}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
