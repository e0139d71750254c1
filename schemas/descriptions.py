"""What the warehouse's tables, views and columns mean, as sql/comments.yaml describes them.

One source for two readers: groundwork/warehouse/comments.py writes the descriptions into the
database as comments (where a BI tool shows them) and schemas/dictionary.py into
docs/data-dictionary.md.
It lives in schemas/ because the data dictionary may import nothing above schemas/.

The YAML describes each Parquet stage table once; it becomes two views, `<table>` (every run's
rows) and `current_<table>` (the published run's), told apart by the sentence each adds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

COMMENTS_PATH = Path(__file__).resolve().parent.parent / "sql" / "comments.yaml"
ALL_RUNS = "Rows of every run, with their run_id; a failed run's rows stay (runs.status: failed)."
PUBLISHED = "Rows of the published run only."


@dataclass(frozen=True)
class Relation:
    """A table or view as the YAML describes it."""

    name: str
    kind: str  # table | view
    description: str
    columns: tuple[str, ...]  # in the relation's order
    own: dict[str, str]  # columns that mean something else here than in the glossary


@dataclass(frozen=True)
class Descriptions:
    """sql/comments.yaml, read: the glossary, and each relation with its columns."""

    glossary: dict[str, str]  # column name -> what it means wherever it appears
    stage_tables: dict[str, Relation]  # each described once for its two views
    views: dict[str, Relation]  # the other views
    tables: dict[str, Relation]
    relations: dict[str, Relation]  # every table and view of groundwork.duckdb, by name
    snapshot: dict[str, Relation]  # published.duckdb's tables that differ from those

    def relation(self, name: str, snapshot: bool = False) -> Relation | None:
        """A relation of groundwork.duckdb, or of published.duckdb when `snapshot`."""
        return (self.snapshot.get(name) if snapshot else None) or self.relations.get(name)

    def column(self, relation: str, column: str, snapshot: bool = False) -> str | None:
        """What `column` of `relation` means; None when the YAML does not say (the relation is
        not in it, or the column is neither its own nor in the glossary)."""
        found = self.relation(relation, snapshot)
        if found is None:
            return None
        return found.own.get(column) or self.glossary.get(column)


def _relation(name: str, kind: str, entry: dict) -> Relation:
    """A relation from its YAML entry: a column is a name, or {name: its own description}."""
    columns, own = [], {}
    for item in entry["columns"]:
        if isinstance(item, dict):
            own.update(item)
            columns += list(item)
        else:
            columns.append(item)
    return Relation(name, kind, entry["description"], tuple(columns), own)


def _views_of(stage: Relation) -> list[Relation]:
    """A stage table's two views: `<table>` (all runs) and `current_<table>` (published run)."""
    return [
        Relation(name, "view", f"{stage.description} {note}", stage.columns, stage.own)
        for name, note in ((stage.name, ALL_RUNS), (f"current_{stage.name}", PUBLISHED))
    ]


@cache
def descriptions() -> Descriptions:
    """sql/comments.yaml, read once per process."""
    data = yaml.safe_load(COMMENTS_PATH.read_text(encoding="utf-8"))
    stages, views, tables = (
        {name: _relation(name, kind, entry) for name, entry in data[part].items()}
        for part, kind in (("stage_tables", "view"), ("views", "view"), ("tables", "table"))
    )
    relations = [r for stage in stages.values() for r in _views_of(stage)]
    relations += [*views.values(), *tables.values()]
    by_name = {r.name: r for r in relations}
    snapshot = {
        name: _widened(_relation(name, "table", entry), by_name.get(entry.get("adds_to", "")))
        for name, entry in data["snapshot"].items()
    }
    return Descriptions(data["columns"], stages, views, tables, by_name, snapshot)


def _widened(relation: Relation, base: Relation | None) -> Relation:
    """A snapshot table that joins columns into a relation of the warehouse: that relation's
    columns, then its own."""
    if base is None:
        return relation
    columns = base.columns + relation.columns
    return Relation(relation.name, "table", relation.description, columns, base.own | relation.own)
