"""The data dictionary, docs/data-dictionary.md, generated from the pandera contracts and
sql/comments.yaml.

Every table contract (a `DataFrameSchema` assigned at the top level of a module in schemas/,
built by `schemas.contract.table_contract`) becomes one section: where it is defined, the
module's description of the table, the contract's own description, a table of its columns
(type, nullable, unique, checks in words, description) and its table-wide checks. A last part
lists every table and view of groundwork.duckdb with what each column means, as
sql/comments.yaml says (schemas/descriptions.py), which is also what the database's own comments
say. `make docs` rewrites the file (`python -m schemas.dictionary docs/data-dictionary.md`), and
a test checks that the committed file equals the generated one, so the dictionary cannot drift
from the contracts or the descriptions.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pandera.pandas as pa

import schemas
from schemas.descriptions import ALL_RUNS, PUBLISHED, Relation, descriptions

DICTIONARY_PATH = Path(__file__).resolve().parent.parent / "docs" / "data-dictionary.md"
SKIPPED_MODULES = {"dictionary"}


@dataclass(frozen=True)
class Contract:
    table: str  # the table's name in the warehouse: Answers -> answers
    variable: str  # the module attribute that holds the contract
    module: ModuleType
    schema: pa.DataFrameSchema


def table_name(contract_name: str) -> str:
    """`CitationCorrections` -> `citation_corrections`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", contract_name).lower()


def assigned_names(module: ModuleType) -> list[str]:
    """The names a module assigns at its top level, in order (not the ones it imports)."""
    tree = ast.parse(inspect.getsource(module))
    names = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def contracts() -> list[Contract]:
    """Every table contract defined in schemas/, ordered by table name."""
    found = []
    for info in sorted(pkgutil.iter_modules(schemas.__path__), key=lambda m: m.name):
        if info.name in SKIPPED_MODULES:
            continue
        module = importlib.import_module(f"schemas.{info.name}")
        for name in assigned_names(module):
            value = getattr(module, name, None)
            if isinstance(value, pa.DataFrameSchema):
                table = table_name(value.name or name)
                found.append(Contract(table, name, module, value))
    return sorted(found, key=lambda c: c.table)


def dtype_words(dtype: object) -> str:
    """The pandas dtype a column is coerced to, as a reader would name it."""
    text = str(dtype)
    return "string" if text.startswith(("string", "str")) else text


def check_words(check: pa.Check) -> str:
    """One column check in words: `isin` -> one of `a`, `b`; `ge(0)` -> at least 0."""
    stats = check.statistics or {}
    name = check.name
    if name == "isin":
        return "one of " + ", ".join(f"`{v}`" for v in stats["allowed_values"])
    if name == "notin":
        return "none of " + ", ".join(f"`{v}`" for v in stats["forbidden_values"])
    if name == "str_matches":
        return f"matches `{stats['pattern']}`"
    if name == "str_length":
        exact, low, high = stats.get("exact_value"), stats.get("min_value"), stats.get("max_value")
        if exact is not None:
            return f"exactly {exact} characters"
        if low is not None and high is not None:
            return f"{low} to {high} characters"
        if low is not None:
            return f"at least {low} character{'s' if low != 1 else ''}"
        return f"at most {high} characters"
    bounds = {
        "greater_than_or_equal_to": ("at least", "min_value"),
        "greater_than": ("greater than", "min_value"),
        "less_than_or_equal_to": ("at most", "max_value"),
        "less_than": ("less than", "max_value"),
        "equal_to": ("equal to", "value"),
        "not_equal_to": ("not equal to", "value"),
    }
    if name in bounds and bounds[name][1] in stats:
        words, key = bounds[name]
        return f"{words} {stats[key]}"
    if name == "in_range":
        return f"from {stats['min_value']} to {stats['max_value']}"
    return f"`{check.error or name}`"


def table_check_words(check: pa.Check, module: ModuleType) -> str:
    """A table-wide check: its function's name and the first line of its docstring."""
    function = getattr(module, check.name, None)
    doc = inspect.getdoc(function) if callable(function) else None
    about = check.description or (doc.splitlines()[0] if doc else None)
    return f"`{check.name}`: {about}" if about else f"`{check.name}`"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def contract_section(contract: Contract) -> list[str]:
    schema, module = contract.schema, contract.module
    source = f"schemas/{module.__name__.split('.')[-1]}.py"
    traits = []
    if schema.strict:
        traits.append("strict (exactly these columns)")
    if schema.coerce:
        traits.append("each column coerced to its type before the checks")
    lines = [
        f"## {contract.table}",
        "",
        f"Contract `{contract.variable}` in [{source}](../{source})"
        + (f": {', '.join(traits)}." if traits else "."),
        "",
    ]
    if schema.description:
        lines += [schema.description, ""]
    module_doc = inspect.getdoc(module)
    if module_doc:
        quoted = [f"> {line}".rstrip() for line in module_doc.splitlines()]
        lines += [f"From {source}:", "", *quoted]
        lines.append("")
    lines += [
        "| column | type | nullable | unique | checks | description |",
        "|---|---|---|---|---|---|",
    ]
    for name, column in schema.columns.items():
        checks = "; ".join(check_words(c) for c in column.checks)
        about = descriptions().column(contract.table, name) or ""
        lines.append(
            f"| `{name}` | {cell(dtype_words(column.dtype))} | {'yes' if column.nullable else 'no'}"
            f" | {'yes' if column.unique else 'no'} | {cell(checks)} | {cell(about)} |"
        )
    lines.append("")
    if schema.checks:
        lines += ["Table checks (each row must pass):", ""]
        lines += [f"- {table_check_words(c, module)}" for c in schema.checks]
        lines.append("")
    if schema.unique:
        lines += [f"Unique together: {', '.join(f'`{c}`' for c in schema.unique)}.", ""]
    return lines


WAREHOUSE_PART = "Tables and views in groundwork.duckdb"


def anchor(heading: str) -> str:
    """The anchor GitHub makes of a heading: `runs (table)` -> `runs-table`."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def is_stage_table(relation: Relation) -> bool:
    """Whether the relation is a stage table's (described once for its two views)."""
    return relation.name in descriptions().stage_tables


def relation_heading(relation: Relation) -> str:
    """`chunks, current_chunks (views)` for a stage table, `runs (table)` for the others."""
    if is_stage_table(relation):
        return f"{relation.name}, current_{relation.name} (views)"
    return f"{relation.name} ({relation.kind})"


def relation_section(relation: Relation, snapshot: bool = False) -> list[str]:
    """A relation of groundwork.duckdb (of published.duckdb, when `snapshot`): what it holds and
    what each of its columns means."""
    lines = [f"### {relation_heading(relation)}", "", relation.description, ""]
    if is_stage_table(relation):
        name = relation.name
        lines += [f"`{name}`: {ALL_RUNS} `current_{name}`: {PUBLISHED}", ""]
    lines += ["| column | description |", "|---|---|"]
    for column in relation.columns:
        about = descriptions().column(relation.name, column, snapshot) or ""
        lines.append(f"| `{column}` | {cell(about)} |")
    return [*lines, ""]


def warehouse_part() -> list[str]:
    """Every table and view a user can query in groundwork.duckdb, as sql/comments.yaml
    describes them: the stage tables (one section for both views of each), then the other
    views, then the tables."""
    described = descriptions()
    groups = {
        "Stage tables": described.stage_tables,
        "Views": described.views,
        "Tables": described.tables,
    }
    lines = [
        f"## {WAREHOUSE_PART}",
        "",
        "Every table and view a user can query, with what each column means, from"
        " [sql/comments.yaml](../sql/comments.yaml). groundwork writes the same descriptions"
        " into the database as comments whenever it recreates the views, so a BI tool shows"
        " them beside each column (`duckdb_columns().comment`); `DESCRIBE <name>` gives the"
        " types. Each Parquet stage table is two views: `<table>`, the rows of every run with"
        " their `run_id`, and `current_<table>`, the rows of the published run.",
        "",
    ]
    for group, members in groups.items():
        links = ", ".join(f"[{r.name}](#{anchor(relation_heading(r))})" for r in members.values())
        lines += [f"{group}: {links}.", ""]
    for members in groups.values():
        for relation in members.values():
            lines += relation_section(relation)
    lines += [
        "### In published.duckdb",
        "",
        "The snapshot dashboards connect to ([dashboards.md](dashboards.md)) holds the published"
        " run's views and tables above as tables of the same names, described the same way,"
        " and these, which groundwork.duckdb has not or has narrower:",
        "",
    ]
    for relation in described.snapshot.values():
        lines += relation_section(relation, snapshot=True)
    return lines


def dictionary_text() -> str:
    """The data dictionary as docs/data-dictionary.md holds it."""
    found = contracts()
    lines = [
        "# Data dictionary",
        "",
        "<!-- Generated from the pandera contracts in schemas/*.py by `make docs`"
        " (python -m schemas.dictionary docs/data-dictionary.md). Do not edit by hand:"
        " tests/docs/test_docs.py fails while this file differs from a fresh generation. -->",
        "",
        "The contract of every table a stage hands on, as the code checks it: each stage's output"
        " is validated against its contract before it is written (`schemas.contract.checked`),"
        " and a table that breaks it stops the stage, so the run is not published. The type is"
        " the pandas dtype a column is coerced to (`object` columns are not type-checked);"
        " checks that need the document text, such as quotes being verbatim at their offsets,"
        " are SQL checks in sql/checks/ (see [sql.md](sql.md)).",
        "",
        "Tables: " + ", ".join(f"[{c.table}](#{c.table})" for c in found) + ".",
        "",
        f"After the contracts, [{WAREHOUSE_PART}](#{anchor(WAREHOUSE_PART)}): every table and"
        " view a user can query, and what each of its columns means.",
        "",
    ]
    for contract in found:
        lines += contract_section(contract)
    lines += warehouse_part()
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":  # python -m schemas.dictionary [PATH]: (re)write the data dictionary
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DICTIONARY_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(dictionary_text(), encoding="utf-8")
