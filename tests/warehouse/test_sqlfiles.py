"""Parameters filled in as literals: the same values as binding gives, and no pandas import."""

import itertools
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwork.warehouse.sqlfiles import _PARAM, SQL_DIR, Sql, _execute, _substituted

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    # lone surrogates cannot be sent to DuckDB at all, literal or bound
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
    st.datetimes(),
)


@settings(deadline=None)  # the first binding imports pandas
@given(value=SCALARS)
def test_a_scalar_filled_in_reads_back_as_binding_it_would(value):
    con = duckdb.connect()
    filled = _execute(con, "SELECT $v, $v IS NULL", {"v": value}).fetchone()
    bound = con.execute("SELECT $v, $v IS NULL", {"v": value}).fetchone()
    assert filled == bound


def test_a_value_that_is_not_a_scalar_is_bound():
    con = duckdb.connect()
    assert _execute(con, "SELECT len($v)", {"v": ["a", "b"]}).fetchone() == (2,)


def test_scalar_parameters_do_not_import_pandas():
    code = (
        "import sys, duckdb\n"
        "from datetime import datetime\n"
        "from groundwork.warehouse.sqlfiles import _execute\n"
        "_execute(duckdb.connect(), 'SELECT $a, $b, $c', {'a': 'x', 'b': 1, 'c': datetime.now()}).fetchall()\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_comment_line_is_never_filled_in():
    con = duckdb.connect()
    script = "-- $v and $relation, named in a header\nSELECT len($v) FROM $relation"
    sql = _substituted(script, {"relation": Sql("(SELECT 1\n)")})
    assert sql.startswith("-- $v and $relation, named in a header\n")
    assert _execute(con, sql, {"v": ["a", "b"]}).fetchall() == [(2,)]


def _placeholders(lines: list[str]) -> list[str]:
    code = "".join(re.sub(r"--.*", "", ln) for ln in lines if not ln.lstrip().startswith("--"))
    return list(dict.fromkeys(_PARAM.findall(code)))


@pytest.mark.parametrize(
    "path", sorted(SQL_DIR.rglob("*.sql")), ids=lambda p: str(p.relative_to(SQL_DIR))
)
def test_every_sql_file_has_a_header_listing_its_placeholders(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = "".join(itertools.takewhile(lambda ln: ln.startswith("--"), lines))
    assert header, "no header: say what the file returns or does"
    names = _placeholders(lines)
    if names:
        listed = re.search(r"^-- Parameters: (.*?)\.$", header.replace("\n--  ", ""), re.M | re.S)
        assert listed and listed.group(1).split(", ") == [f"${n}" for n in names]
