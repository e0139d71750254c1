"""What is published of a claim its evidence does not support: never the claim as fact.

An unsupported claim is softened by the configured strategy; a contradicted one is removed
whatever the strategy, since its own evidence says otherwise. Supported and partly supported
claims are published as written (a partial verdict is shown beside the statement instead).
"""

from __future__ import annotations

from schemas.config import Softening

UNVERIFIED = "(unverified)"
_HEDGE = "It appears that "
_QUALIFIER = "(not established by the cited text)"


def _lowered_first(text: str) -> str:
    """`text` with its first letter lowered, unless the first word is an acronym (HIPAA)."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def softened(claim: str, verdict: str, strategy: Softening) -> tuple[str | None, str]:
    """(the text to publish, or None to drop the claim; the action taken)."""
    if verdict in ("SUPPORTED", "PARTIAL"):
        return claim, "kept"
    if verdict == "CONTRADICTED" or strategy == "remove":
        return None, "removed"
    body = claim.rstrip().rstrip(".")
    if strategy == "hedge":
        return f"{_HEDGE}{_lowered_first(body)}.", "hedged"
    if strategy == "qualify":
        return f"{body} {_QUALIFIER}.", "qualified"
    return f"{body} {UNVERIFIED}.", "marked_unverified"
