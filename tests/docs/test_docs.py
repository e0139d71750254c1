"""The documentation stays true to the code.

- Every `groundwork ...` command line in a fenced code block of README.md or docs/*.md parses
  against the real CLI: its subcommands exist, its options exist, and click accepts its values
  (nothing is run: each command only builds its context, as click does before invoking it).
- Every relative link in those files reaches an existing file (and heading, for `#anchors`).
- docs/data-dictionary.md is what `make docs` generates from the pandera contracts today.
- README.md stays a front door: the title and the two make commands first, under 150 lines.
"""

from __future__ import annotations

import inspect
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import pytest
import typer

from groundwork.cli import app
from schemas.dictionary import DICTIONARY_PATH, dictionary_text
from tests.support.paths import REPO

README = REPO / "README.md"
DOCS = [README, *sorted((REPO / "docs").glob("*.md"))]

# A documented command: `groundwork ...`, also after a `$ ` prompt or as `.venv/bin/groundwork`.
COMMAND = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?groundwork(?:\s|$)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# Where a shell line stops being the command's own arguments.
# A word like `<path>` is a placeholder, not a redirection.
SHELL_BREAKS = re.compile(r"^(\||\|\||&&|;|&|\d?>.*|<(?!.*>$).*)$")

# click's exception classes as the CLI raises them (typer may carry its own copy of click).
USAGE_ERROR = next(c for c in inspect.getmro(typer.BadParameter) if c.__name__ == "UsageError")
BAD_PARAMETER = typer.BadParameter
MISSING_PARAMETER = sys.modules[BAD_PARAMETER.__module__].MissingParameter


@dataclass(frozen=True)
class DocCommand:
    path: Path
    line: int
    text: str  # as written, continuation lines included

    def where(self) -> str:
        return f"{shown(self.path)}:{self.line}"


def shown(path: Path) -> str:
    """A path as a reader finds it: relative to the repository when it is in it."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else path.name


def _complete(text: str) -> bool:
    """Whether `text` is a whole shell line: no open quote, no trailing backslash."""
    if text.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(text, comments=True)
    except ValueError:  # "No closing quotation": a quoted argument goes on on the next line
        return False
    return True


def doc_commands(path: Path) -> list[DocCommand]:
    """The `groundwork` command lines inside the fenced code blocks of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, fence, i = [], None, 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened and fence is None:
            fence = opened.group(1)
        elif opened and opened.group(1).startswith(fence) and not lines[i].strip(fence[0]).strip():
            fence = None
        elif fence is not None and COMMAND.match(lines[i].strip()):
            start, text = i, lines[i].strip()
            while not _complete(text) and i + 1 < len(lines) and not FENCE.match(lines[i + 1]):
                i += 1
                text += "\n" + lines[i]
            found.append(DocCommand(path, start + 1, text))
        i += 1
    return found


def command_args(text: str) -> list[str]:
    """The arguments after `groundwork`, as the shell would pass them: continuations joined,
    quotes removed, a trailing `# comment` dropped, and nothing after a pipe or redirection."""
    words = shlex.split(re.sub(r"\\\n", " ", text), comments=True)
    if words[0] == "$":
        words = words[1:]
    args = []
    for word in words[1:]:
        if SHELL_BREAKS.match(word):
            break
        args.append(word)
    return args


def _takes_value(param) -> bool:
    return not (getattr(param, "is_flag", False) or getattr(param, "count", False))


def _scan(command, ctx, args: list[str], group: bool) -> tuple[list[str], int | None]:
    """(options in `args` that `command` does not have, index of the first positional word).
    For a group the scan stops at the first positional word: the subcommand."""
    options = {}
    for param in command.get_params(ctx):
        if getattr(param, "param_type_name", None) == "option":
            options.update(dict.fromkeys((*param.opts, *param.secondary_opts), param))
    unknown, first_positional, i = [], None, 0
    while i < len(args):
        word = args[i]
        if word == "--":  # everything after it is positional
            if first_positional is None and i + 1 < len(args):
                first_positional = i + 1
            break
        if word.startswith("--"):
            name, has_value, _ = word.partition("=")
            param = options.get(name)
            if param is None:
                unknown.append(name)
            elif _takes_value(param) and not has_value:
                i += 1
        elif word.startswith("-") and len(word) > 1 and not re.fullmatch(r"-[\d.]+", word):
            for j, letter in enumerate(word[1:], start=1):  # short options, maybe grouped
                param = options.get(f"-{letter}")
                if param is None:
                    unknown.append(f"-{letter}")
                    break
                if _takes_value(param):
                    if j == len(word) - 1:  # `-f json`; in `-fjson` the value is attached
                        i += 1
                    break
        else:
            if first_positional is None:
                first_positional = i
            if group:
                break
        i += 1
    return unknown, first_positional


def _must_exist(param) -> bool:
    """Whether a parameter checks that its path exists (click's Path, or typer's own
    parameter info where typer carries its own click)."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
    return bool(
        getattr(getattr(param, "type", None), "exists", False) or getattr(info, "exists", False)
    )


def command_problems(args: list[str], cli: typer.Typer = app) -> list[str]:
    """What the real CLI would reject in `groundwork ARGS` before running anything: unknown
    commands and options, bad or missing values. Placeholders (`RUN_A`, `<path>`) are fine as
    values of string and path parameters; a path that must exist is not looked for."""
    command, parent, path = typer.main.get_command(cli), None, "groundwork"
    while True:
        ctx = command.context_class(command, info_name=path.split()[-1], parent=parent)
        group = hasattr(command, "get_command")
        unknown, positional = _scan(command, ctx, args, group)
        if unknown:
            return [f"`{path}` has no option {name}" for name in unknown]
        if not group:
            break
        if positional is None:
            return [] if "--help" in args else [f"`{path}` needs a command"]
        name = args[positional]
        sub = command.get_command(ctx, name)
        if sub is None:
            known = ", ".join(command.list_commands(ctx))
            return [f"`{path}` has no command {name!r} (it has: {known})"]
        command, parent, path, args = sub, ctx, f"{path} {name}", args[positional + 1 :]
    if "--help" in args:  # its callback would print the help and exit; the names are checked
        return []
    try:
        command.make_context(path.split()[-1], list(args), parent=parent)
    except USAGE_ERROR as exc:
        param = getattr(exc, "param", None)
        # A placeholder for a path that must exist is not an error of the docs (the option
        # names were checked above); anything else is.
        bad_value = isinstance(exc, BAD_PARAMETER) and not isinstance(exc, MISSING_PARAMETER)
        if not (bad_value and param is not None and _must_exist(param)):
            return [f"`{path}`: {exc.format_message()}"]
    return []


ALL_COMMANDS = [command for doc in DOCS for command in doc_commands(doc)]


def test_the_docs_have_commands_to_check():
    assert len(ALL_COMMANDS) >= 10, [c.where() for c in ALL_COMMANDS]
    assert {c.path.name for c in ALL_COMMANDS} >= {"README.md", "operations.md", "sql.md"}


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=DocCommand.where)
def test_documented_command_parses(command: DocCommand):
    problems = command_problems(command_args(command.text))
    assert not problems, f"{command.where()}: {command.text!r}: " + "; ".join(problems)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('groundwork sql "SELECT 1" --bogus', "has no option --bogus"),
        ("groundwork run -c data/corpus -x", "has no option -x"),
        ("groundwork frobnicate --warehouse w", "has no command 'frobnicate'"),
        ("groundwork cache list out.parquet", "has no command 'list'"),
        ("groundwork export --format xml", "'xml' is not one of"),
        ("groundwork gc", "Missing option '--keep'"),
        ("groundwork gc --keep N", "valid integer"),
        ('groundwork ask "one question" "two"', "unexpected extra argument"),
        ("groundwork", "needs a command"),
    ],
)
def test_the_checker_rejects_what_the_cli_rejects(line: str, expected: str):
    problems = command_problems(command_args(line))
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    "line",
    [
        "groundwork diff RUN_A RUN_B --format json",
        "groundwork report --run RUN --out <path>",
        'groundwork run -c DIR -q FILE --map citation="ADGM {DocumentID}" -vw /tmp/w --force',
        "groundwork cache import --warehouse=w FILE.parquet",
        "groundwork --help",
        "groundwork export --help",
    ],
)
def test_the_checker_accepts_placeholders_and_help(line: str):
    assert command_problems(command_args(line)) == []


def test_a_path_that_must_exist_is_not_looked_for(tmp_path: Path):
    cli = typer.Typer()

    @cli.command()
    def read(source: Annotated[Path, typer.Option("--source", exists=True)]) -> None:
        """A command whose option must name an existing file."""

    @cli.command()
    def other() -> None:
        """A second command, so that `read` stays a subcommand."""

    missing = str(tmp_path / "missing.txt")
    assert command_problems(["read", "--source", missing], cli) == []
    assert command_problems(["read", "--source", missing, "--bogus"], cli) == [
        "`groundwork read` has no option --bogus"
    ]
    assert command_problems(["read"], cli) == ["`groundwork read`: Missing option '--source'."]


def test_commands_are_found_as_written(tmp_path: Path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "groundwork sql outside a fence is prose\n"
        "```\n"
        '$ groundwork sql "SELECT 1" --format csv   # a comment \'\n'
        ".venv/bin/groundwork run --corpus data/corpus \\\n"
        "    --questions data/questions.yaml\n"
        'groundwork sql "SELECT count(*)\n'
        '  FROM runs" | head -3\n'
        "make run\n"
        "```\n"
        "   ~~~sh\n"
        "   groundwork gc --keep 2\n"
        "   ~~~\n",
        encoding="utf-8",
    )
    found = doc_commands(doc)
    assert [c.line for c in found] == [3, 4, 6, 11]
    assert [command_args(c.text) for c in found] == [
        ["sql", "SELECT 1", "--format", "csv"],
        ["run", "--corpus", "data/corpus", "--questions", "data/questions.yaml"],
        ["sql", "SELECT count(*)\n  FROM runs"],
        ["gc", "--keep", "2"],
    ]


# Links: [text](target) and ![alt](target), and reference definitions `[label]: target`.
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
CODE_SPAN = re.compile(r"(`+).*?\1")


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of the lines outside fenced code blocks."""
    lines, fence = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        opened = FENCE.match(line)
        if opened and fence is None:
            fence = opened.group(1)
        elif opened and opened.group(1).startswith(fence) and not line.strip(fence[0]).strip():
            fence = None
        elif fence is None:
            lines.append((number, line))
    return lines


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings."""
    seen: dict[str, int] = {}
    for _, line in prose_lines(path):
        heading = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).replace("`", "").lower())
            slug = slug.replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            if count:
                seen[f"{slug}-{count}"] = 1
    return set(seen)


def link_problems(path: Path) -> list[str]:
    """Relative links in `path` whose file (or heading, for `#anchors` into Markdown) is
    missing."""
    problems = []
    for number, line in prose_lines(path):
        line = CODE_SPAN.sub("", line)  # `[x](y)` in code is not a link
        targets = INLINE_LINK.findall(line) + REFERENCE.findall(line)
        for target in targets:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            where = f"{shown(path)}:{number}: {target}"
            if not resolved.exists():
                problems.append(f"{where}: no such file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                problems.append(f"{where}: no heading #{anchor} in {resolved.name}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=shown)
def test_relative_links_resolve(doc: Path):
    assert link_problems(doc) == []


def test_the_link_checker_finds_broken_links(tmp_path: Path):
    (tmp_path / "there.md").write_text("# A heading `with` code\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "[ok](there.md) [ok](there.md#a-heading-with-code) [web](https://example.invalid/x)\n"
        "[gone](missing.md) `[code](not-a-link.md)`\n"
        "[bad anchor](there.md#nowhere) ![img](pic.png)\n"
        "```\n[in a fence](ignored.md)\n```\n"
        "[ref]: also-missing.md\n",
        encoding="utf-8",
    )
    found = [p.split(": ", 1)[1] for p in link_problems(doc)]
    assert found == [
        "missing.md: no such file",
        "there.md#nowhere: no heading #nowhere in there.md",
        "pic.png: no such file",
        "also-missing.md: no such file",
    ]


def test_data_dictionary_is_generated_from_the_contracts():
    committed = DICTIONARY_PATH.read_text(encoding="utf-8")
    assert committed == dictionary_text(), "run `make docs` to regenerate docs/data-dictionary.md"


def test_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines: move detail into docs/"
    assert lines[0] == "# groundwork"
    first_block = text.split("```")[1]
    assert "make run" in first_block and "make test" in first_block
