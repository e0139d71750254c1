"""The rules engine compiled to C with mypyc, used only while it matches its Python sources.

Why: the rules engine is a large share of a cold run's CPU time, spread flat over its functions
(BENCHMARKS.md, "Bench corpus: cold run"). mypyc compiles the same Python source, guided by its
type hints, into C extension modules that run it in less CPU time, with the same output.
There is one implementation: the compiled modules are these sources. `make` builds them into
.venv/compiled/ (`main`); a process uses them only when every source still hashes as it did when
they were built, so an edited source runs as plain Python until the next build, and a machine
without a C compiler runs plain Python throughout.

Nothing happens at import: a process that runs the engine says so by calling `activate` before
it imports any of the modules (the CLI, the flow before its stages, and the worker processes
through groundwork/runtime/preload.py). The modules are listed once, in compiled-modules.txt
beside this file, which the Makefile reads too.

GROUNDWORK_COMPILED=0 turns them off (A/B benchmarks, and the test that holds both to one output).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]  # the repository: the list names paths from it
MODULE_LIST = Path(__file__).with_name("compiled-modules.txt")


def listed_modules(listing: Path = MODULE_LIST) -> tuple[str, ...]:
    """The compiled modules' dotted names, from their source paths in `listing`."""
    lines = listing.read_text(encoding="utf-8").splitlines()
    paths = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return tuple(path.removesuffix(".py").replace("/", ".") for path in paths)


MODULES = listed_modules()
BUILD_DIR = Path(sys.prefix) / "compiled"  # inside the virtualenv, built for its interpreter
MANIFEST = "manifest.json"
SWITCH = "GROUNDWORK_COMPILED"
# The interpreter and platform the extensions were built for.
ABI = f"{sys.implementation.cache_tag}{sysconfig.get_config_var('EXT_SUFFIX')}"


def source_path(module: str) -> Path:
    """The Python source of one of MODULES."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digests() -> dict[str, str]:
    """The sha256 of each compiled module's source, by module name."""
    return {m: hashlib.sha256(source_path(m).read_bytes()).hexdigest() for m in MODULES}


def compiled_files(build: Path = BUILD_DIR) -> dict[str, Path] | None:
    """The build's extension files by module name (mypyc's shared runtime module included), or
    None when there is no build, it is for another interpreter, or a source changed since."""
    try:
        recorded = json.loads((build / MANIFEST).read_text())
    except (FileNotFoundError, ValueError):  # none, or cut short: plain Python, and `make` mends it
        return None
    if recorded.get("abi") != ABI or recorded.get("sources") != source_digests():
        return None
    files = {name: build / relative for name, relative in recorded.get("files", {}).items()}
    whole = set(MODULES) <= set(files) and all(path.is_file() for path in files.values())
    return files if whole else None


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules, by name, before Python's own finders find their sources."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.files.get(fullname)
        return None if found is None else importlib.util.spec_from_file_location(fullname, found)


def activate(build: Path = BUILD_DIR) -> bool:
    """Import the compiled modules from now on, if they match their sources and are switched on;
    whether they will be used. Called by an entry point before any of them is imported; a second
    call changes nothing."""
    if os.environ.get(SWITCH, "1") == "0" or any(m in sys.modules for m in MODULES):
        return False
    files = compiled_files(build)
    if files is None:
        return False
    if not any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def build(target: Path = BUILD_DIR) -> dict[str, Path]:
    """Compile MODULES with mypyc into `target`, replacing any earlier build; the files made.

    The sources' digests are taken before compiling, so a source edited meanwhile leaves the new
    build unused rather than wrong. mypyc and setuptools are needed here only."""
    from mypyc.build import mypycify
    from setuptools import setup

    digests = source_digests()
    relative = [str(source_path(m).relative_to(ROOT)) for m in MODULES]
    with tempfile.TemporaryDirectory(prefix="groundwork-compiled-") as scratch:
        work = Path(scratch)
        here = Path.cwd()
        os.chdir(ROOT)  # mypyc names each module by its path from the current folder
        try:
            # the modules' imports of pyarrow, pandera and the rest stay Python objects to mypyc
            options = ["--ignore-missing-imports", "--follow-imports=skip"]
            options.append(f"--cache-dir={work / 'mypy-cache'}")  # not in the source tree
            extensions = mypycify([*options, *relative], opt_level="3", target_dir=str(work / "c"))
            setup(
                name="groundwork-compiled",
                packages=[],  # the extensions only: no discovery of the project's packages
                py_modules=[],
                ext_modules=extensions,
                script_args=[
                    *("--quiet", "build_ext"),
                    *("--build-lib", str(work / "lib"), "--build-temp", str(work / "tmp")),
                ],
            )
        finally:
            os.chdir(here)
        made = [path.relative_to(work / "lib") for path in (work / "lib").rglob("*.so")]
        fresh = target.with_name(f"{target.name}.new")
        shutil.rmtree(fresh, ignore_errors=True)
        for path in made:
            (fresh / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(work / "lib" / path, fresh / path)
    relative_files = {_module_name(path): str(path) for path in made}
    manifest = {"abi": ABI, "sources": digests, "files": relative_files}
    (fresh / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    fresh.rename(target)
    return {name: target / path for name, path in relative_files.items()}


def _module_name(extension: Path) -> str:
    """`groundwork/extract/deontic.cpython-311-x86_64-linux-gnu.so` -> groundwork.extract.deontic"""
    return ".".join([*extension.parent.parts, extension.name.split(".")[0]])


def main() -> None:
    """`make`'s step: build, and say what was made."""
    made = build()
    print(f"compiled {len(MODULES)} modules with mypyc into {BUILD_DIR} ({len(made)} files)")
