"""Claim-level verification: statements cut into atomic claims, each checked against
the verbatim quote it cites the way an auditor would.

`atomic_claims` (decompose.py) cuts a statement into self-contained claims; `checked_claim`
(verdict.py) judges one claim against one quote: SUPPORTED, PARTIAL, UNSUPPORTED or
CONTRADICTED, with its issues, lexical support and the match of each number; `claim_depth`
routes hedged claims to a lighter check. The other modules are their parts: lexicon (terms and
support), modality (who must, may or must not do what), roles (actors and recipients), numeric
(numbers matched, derived or not), qualifiers (exceptions and conditions), hedges.
"""

from groundwork.claims.decompose import AtomicClaim, atomic_claims
from groundwork.claims.numeric import NumberMatch
from groundwork.claims.verdict import ClaimCheck, checked_claim, claim_depth

__all__ = [
    "AtomicClaim",
    "ClaimCheck",
    "NumberMatch",
    "atomic_claims",
    "checked_claim",
    "claim_depth",
]
