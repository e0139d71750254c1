"""The compiled rules engine (groundwork/runtime/compiled.py): used only while it matches its sources, and
then with the same output as the Python it was compiled from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from groundwork.runtime import compiled
from tests.support.paths import REPO

# Chunks and candidates of the sample corpus's files (their raw text, front matter and all), and
# which files the engine's modules were loaded from.
ENGINE_OUTPUT = """
import hashlib, json, sys
from pathlib import Path
import pyarrow as pa
from groundwork.runtime.compiled import activate
activate()
import groundwork.text.chunks, groundwork.extract.deontic, groundwork.extract.rules
from groundwork.text.chunks import chunks
from groundwork.extract.rules import candidates
paths = sorted(Path("data/corpus").rglob("*.md"))
documents = pa.table({
    "doc_id": [p.stem for p in paths],
    "citation": [None] * len(paths),
    "text": [p.read_text(encoding="utf-8") for p in paths],
})
made = chunks(documents, 1500)
found = candidates(made)
print(json.dumps({
    "files": [m.__file__ for m in (groundwork.text.chunks, groundwork.extract.deontic,
                                   groundwork.extract.rules)],
    "chunks": made.num_rows,
    "candidates": found.num_rows,
    "digest": hashlib.sha256(repr((made.to_pylist(), found.to_pylist())).encode()).hexdigest(),
}))
"""


def engine_output(switch: str) -> dict:
    """What ENGINE_OUTPUT prints in a fresh process with GROUNDWORK_COMPILED=switch."""
    env = {**os.environ, compiled.SWITCH: switch}
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_OUTPUT],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.skipif(
    compiled.compiled_files() is None, reason="no current compiled build (make bytecode builds it)"
)
def test_compiled_engine_gives_the_python_engines_output() -> None:
    native, python = engine_output("1"), engine_output("0")
    assert all(path.endswith(".so") for path in native["files"])
    assert all(path.endswith(".py") for path in python["files"])
    assert python["candidates"] > 100  # the sample corpus exercises the engine
    assert native == {**python, "files": native["files"]}


def fake_build(folder: Path) -> None:
    """A build folder whose manifest matches the sources as they are (its files are empty)."""
    files = {name: name.replace(".", "/") + ".so" for name in compiled.MODULES}
    for relative in files.values():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).touch()
    manifest = {"abi": compiled.ABI, "sources": compiled.source_digests(), "files": files}
    (folder / compiled.MANIFEST).write_text(json.dumps(manifest))


def edit_manifest(folder: Path, **changes: object) -> None:
    manifest = json.loads((folder / compiled.MANIFEST).read_text())
    (folder / compiled.MANIFEST).write_text(json.dumps({**manifest, **changes}))


def test_a_build_matching_the_sources_is_used(tmp_path: Path) -> None:
    fake_build(tmp_path)
    found = compiled.compiled_files(tmp_path)
    assert found is not None
    assert set(found) == set(compiled.MODULES)


def test_no_build_means_plain_python(tmp_path: Path) -> None:
    assert compiled.compiled_files(tmp_path) is None


def test_an_edited_source_leaves_the_build_unused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    sources = compiled.source_digests()
    edit_manifest(tmp_path, sources={**sources, "groundwork.extract.deontic": "0" * 64})
    assert compiled.compiled_files(tmp_path) is None


def test_a_build_for_another_interpreter_is_unused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    edit_manifest(tmp_path, abi="cpython-312.cpython-312-x86_64-linux-gnu.so")
    assert compiled.compiled_files(tmp_path) is None


def test_a_damaged_manifest_means_plain_python(tmp_path: Path) -> None:
    fake_build(tmp_path)
    manifest = tmp_path / compiled.MANIFEST
    manifest.write_text(manifest.read_text()[:40])
    assert compiled.compiled_files(tmp_path) is None
    fake_build(tmp_path)
    edit_manifest(tmp_path, files={})
    assert compiled.compiled_files(tmp_path) is None


def test_a_build_missing_a_file_is_unused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    (tmp_path / "groundwork" / "text" / "chunks.so").unlink()
    assert compiled.compiled_files(tmp_path) is None


def test_switched_off_or_after_the_python_modules_loaded_nothing_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_build(tmp_path)
    before = list(sys.meta_path)
    monkeypatch.setenv(compiled.SWITCH, "0")
    assert not compiled.activate(tmp_path)
    monkeypatch.setenv(compiled.SWITCH, "1")
    import groundwork.extract.deontic  # noqa: F401  (loaded: compiled ones must not mix in)

    assert not compiled.activate(tmp_path)
    assert sys.meta_path == before
