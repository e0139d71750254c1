"""Tagged composition: the model writes `<cite key="REQ-...">claim</cite>`, `<free>...</free>`
and `<unverified>...</unverified>`; text outside the tags is scratchpad and is dropped.

Parsing is strict so that a half-written reply is repaired or rejected rather than half-used:
an opened tag must close, tags do not nest, and a reply needs at least one block.
"""

from __future__ import annotations

import re

from groundwork.llm.client import InvalidOutput
from schemas.model_replies import ComposedAnswer, ComposedBlock

_BLOCK = re.compile(r"<(cite|free|unverified)\b([^>]*)>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
_OPENING = re.compile(r"<(?:cite|free|unverified)\b", re.IGNORECASE)
_KEY = re.compile(r"""\bkeys?\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_ID = re.compile(r"[^\s,;]+")


def tagged_answer(text: str) -> ComposedAnswer:
    """The blocks of a tagged reply, or InvalidOutput saying what is wrong with it."""
    blocks = []
    for match in _BLOCK.finditer(text):
        kind, attributes, body = match.group(1).lower(), match.group(2), match.group(3)
        if _OPENING.search(body):
            raise InvalidOutput(f"tags must not nest: <{kind}> contains another tag")
        key = _KEY.search(attributes)
        keys = _ID.findall(key.group(1)) if key else []
        blocks.append(ComposedBlock(kind=kind, keys=keys, text=" ".join(body.split())))
    if len(_OPENING.findall(text)) != len(blocks):
        raise InvalidOutput("a <cite>, <free> or <unverified> tag is not closed")
    if not blocks:
        raise InvalidOutput("no <cite>, <free> or <unverified> block")
    return ComposedAnswer(blocks=blocks)
