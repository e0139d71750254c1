"""The layering rule, read from the source: no import loop, no upward import, no task importing
another task.

Layers, lowest first: schemas/ (contracts, config) -> groundwork/ (the library: every decision)
-> tasks/ (thin Prefect tasks) -> flows/ (orchestration) -> groundwork.cli (the application, the
one library package that may import flows), and training/ on its own above them all (it trains
the library's models; nothing imports it). Every import counts, also those inside functions and
under TYPE_CHECKING: a lazy import is still a dependency, and a loop through one is still a loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("schemas", "groundwork", "tasks", "flows", "training")
# training/ (torch, `make models`) stands apart on top: it may use the library, nothing uses it
LAYERS = {"schemas": 0, "groundwork": 1, "tasks": 2, "flows": 3, "groundwork.cli": 4, "training": 5}

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path) -> str:
    """The dotted module name of a source file under `root`."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement reaches: `import x.y` as x.y, and `from x import y`
    as x.y (a submodule, when it is one) or else x."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:  # relative: from the module's package, one level up per extra dot
        anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
        base = ".".join([*anchor, base] if base else anchor)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph(root: Path = ROOT) -> Graph:
    """Module -> the project modules it imports, for every module of PACKAGES under `root`."""
    files = {
        module_name(p, root): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))
    }
    graph: Graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            names = imported(node, module, path.name == "__init__.py")
            if isinstance(node, ast.Import):
                targets.update(n for n in names if n in files)
                continue
            base, members = names[0], names[1:]
            submodules = {n for n in members if n in files}
            targets.update(submodules)
            if len(submodules) < len(members) and base in files:
                targets.add(base)  # a name defined in the module `base` itself
        graph[module] = targets - {module}
    return graph


def layer(module: str) -> int:
    """The layer of a module: the longest prefix of it that LAYERS names."""
    prefixes = [p for p in LAYERS if module == p or module.startswith(f"{p}.")]
    return LAYERS[max(prefixes, key=len)]


def upward_imports(graph: Graph) -> list[tuple[str, str]]:
    """Imports of a higher layer, and of one task by another."""
    return sorted(
        (a, b)
        for a, targets in graph.items()
        for b in targets
        if layer(b) > layer(a) or (layer(a) == layer(b) == LAYERS["tasks"])
    )


def import_loops(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(loops)


def test_the_project_has_no_import_loop() -> None:
    assert import_loops(import_graph()) == []


def test_no_module_imports_a_higher_layer_and_no_task_another_task() -> None:
    assert upward_imports(import_graph()) == []


def test_the_graph_sees_lazy_imports() -> None:
    """The flow imports its tasks inside a function: the graph must still hold those edges."""
    graph = import_graph()
    assert "tasks.extract" in graph["flows.corpus"]
    assert "flows.corpus" in graph["groundwork.cli"] or any(
        "flows.corpus" in graph[m] for m in graph if m.startswith("groundwork.cli.")
    )


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A miniature project with the four packages, each an empty package."""
    write_tree(tmp_path, {f"{pkg}/__init__.py": "" for pkg in PACKAGES})
    return tmp_path


def test_a_loop_through_a_lazy_import_is_found(tree: Path) -> None:
    write_tree(
        tree,
        {
            "tasks/extract.py": "def stage():\n    from tasks.model_extract import run\n",
            "tasks/model_extract.py": "from tasks.extract import helper\n",
        },
    )
    graph = import_graph(tree)
    assert import_loops(graph) == [["tasks.extract", "tasks.model_extract"]]
    assert ("tasks.extract", "tasks.model_extract") in upward_imports(graph)


def test_an_upward_import_is_found(tree: Path) -> None:
    write_tree(
        tree,
        {
            "groundwork/rules.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from tasks.verify import stage\n",
            "tasks/verify.py": "from groundwork import rules\n",
            "flows/corpus.py": "import tasks.verify\n",
            "groundwork/cli/__init__.py": "from flows.corpus import run\n",
        },
    )
    graph = import_graph(tree)
    assert graph["tasks.verify"] == {"groundwork.rules"}
    assert upward_imports(graph) == [("groundwork.rules", "tasks.verify")]
    assert import_loops(graph) == [["groundwork.rules", "tasks.verify"]]


# The floor plan: the library's top level stays small, and a file name says one thing. The
# backends each stage package names alike are the one kind of repetition that helps a reader.
MAX_TOP_LEVEL_MODULES = 12
BACKEND_NAMES = {"rules.py", "served.py", "trained.py"}


def shared_file_names(root: Path) -> dict[str, list[str]]:
    """File names used by more than one module of the library (package `__init__` aside), with
    the modules that use them, except the stage packages' backend names."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / "groundwork").rglob("*.py")):
        if path.name != "__init__.py" and path.name not in BACKEND_NAMES:
            found.setdefault(path.name, []).append(str(path.relative_to(root)))
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def test_the_library_top_level_is_small() -> None:
    top = sorted(p.name for p in (ROOT / "groundwork").glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, top


def test_no_two_library_modules_share_a_file_name_but_the_backends() -> None:
    assert shared_file_names(ROOT) == {}


def test_a_shared_file_name_is_found(tree: Path) -> None:
    write_tree(
        tree,
        {
            "groundwork/review.py": "",
            "groundwork/claims/review.py": "",
            "groundwork/verify/rules.py": "",
            "groundwork/extract/rules.py": "",
        },
    )
    assert shared_file_names(tree) == {
        "review.py": ["groundwork/claims/review.py", "groundwork/review.py"]
    }
