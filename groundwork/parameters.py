"""A run's parameters, checked before its first stage: a run that names a corpus folder, a
questions file or a profile that is not there fails at once, in one line, rather than
after ingest, chunk, extract and register have run (a questions file was read only by the
questions stage, fifth of ten). The CLI and a deployment's flow run take the same check."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from schemas.config import RunConfig, profile_config


class InvalidParameters(ValueError):
    """A run's parameters name something absent or unknown: the run fails before its first
    stage (exit 2 from the CLI, as for any usage error)."""


def checked_config(
    corpus: Path,
    questions: Path | None,
    config: RunConfig | None,
    profile: str | None,
) -> RunConfig:
    """The run config (the profile laid over `config`), if every parameter names something
    there: the corpus folder, the questions file and the profile. Otherwise
    `InvalidParameters`, saying every problem in one line. (Stage names need no check here:
    the flow's parameters are typed with them, so Prefect refuses any other before the run.)"""
    problems = [*_path_problems(corpus, questions)]
    try:
        config = profile_config(profile, config)
    except (OSError, ValueError, yaml.YAMLError) as exc:  # ValidationError is a ValueError
        problems.append(f"profile {profile}: {' '.join(str(exc).split())}")
    if problems:
        raise InvalidParameters("; ".join(problems))
    return config


def _path_problems(corpus: Path, questions: Path | None) -> list[str]:
    """What is wrong with the corpus folder and the questions file, in words."""
    problems = []
    if not corpus.is_dir():
        problems.append(f"corpus folder {corpus} does not exist or is not a folder")
    if questions is not None:
        if not questions.is_file():
            problems.append(f"questions file {questions} does not exist or is not a file")
        elif not os.access(questions, os.R_OK):
            problems.append(f"questions file {questions} cannot be read (permission denied)")
    return problems
