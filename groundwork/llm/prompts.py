"""Prompts are versioned files in prompts/, not strings in code.

A prompt file is YAML with `name`, `version`, `system` and `user`; `$fields` in `user` are filled
with `string.Template`, so document text full of braces or dollar signs goes in untouched. The
version goes into every cache key; the rendered text goes into the input hash as well, so an
edited prompt never replays answers to its old wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

import yaml
from pydantic import BaseModel

PROMPT_DIR = Path(__file__).resolve().parents[2] / "prompts"


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str

    @property
    def version_tag(self) -> str:
        """e.g. `verify-v1`: what the cache and the output tables record."""
        return f"{self.name}-v{self.version}"

    def messages(self, request: BaseModel) -> list[dict]:
        """The chat messages: fixed instructions as system, the request's data in the user turn."""
        user = Template(self.user).substitute(request.model_dump())
        return [
            {"role": "system", "content": self.system.strip()},
            {"role": "user", "content": user.strip()},
        ]


@cache
def prompt(name: str) -> Prompt:
    """The prompt prompts/<name>.yaml."""
    data = yaml.safe_load((PROMPT_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    return Prompt(data["name"], int(data["version"]), data["system"], data["user"])
