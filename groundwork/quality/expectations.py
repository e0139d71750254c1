"""The Great Expectations suites over a run's tables: one suite per table (sql/quality/<table>.sql).

Each expectation restates a review gate of sql/checks/ that a column expectation can express,
with that gate's severity and threshold read from its header, so the two cannot disagree: a hard
gate allows no failing row and is `critical`; a soft gate with threshold t (the share of rows
allowed to fail) becomes `mostly = 1 - t` and is a `warning`. Cross-table gates (a citation
verified for its question, a quote at its offsets) are expressed on columns the quality queries
derive for them. A few expectations restate a pandera contract instead (schemas/), and say so.
The SQL gates stay the authority; see groundwork/quality/data_docs.py.
"""

from __future__ import annotations

from typing import Any

import great_expectations.expectations as gxe
from great_expectations.expectations.row_conditions import Column

from groundwork.quality.gates import Check
from schemas.export import GROUNDING, RESULTS, VERDICTS
from schemas.ids import REQUIREMENT_ID
from schemas.requirements import MODALITIES
from schemas.verifications import REJECTION_REASONS


def gate(kind: type[gxe.Expectation], check: Check, what: str, **kwargs: Any) -> gxe.Expectation:
    """An expectation restating the review gate `check`: its threshold becomes `mostly`."""
    soft = check.severity == "soft"
    allowed = f"; at most {check.threshold:.0%} of rows may fail" if soft else ""
    if soft:
        kwargs["mostly"] = round(1 - check.threshold, 6)
    return kind(
        **kwargs,
        description=f"{what} ({check.severity} gate `{check.name}`{allowed})",
        severity="warning" if soft else "critical",
        meta={"check": check.name, "severity": check.severity, "threshold": check.threshold},
    )


def contract(kind: type[gxe.Expectation], source: str, what: str, **kwargs: Any) -> gxe.Expectation:
    """An expectation restating a rule kept elsewhere than sql/checks/: `source` names it."""
    return kind(**kwargs, description=f"{what} ({source})", severity="critical", meta={})


Suites = dict[str, list[gxe.Expectation]]


def expectation_suites(gates: dict[str, Check]) -> Suites:
    """Table -> its expectations, thresholds taken from the review gates `gates` (by name)."""
    g = gates
    return {
        "requirements": [
            gate(
                gxe.ExpectColumnValuesToBeUnique,
                g["requirement_ids_unique"],
                "every requirement ID is unique",
                column="requirement_id",
            ),
            gate(
                gxe.ExpectColumnValuesToMatchRegex,
                g["requirement_ids_unique"],
                f"every requirement ID matches {REQUIREMENT_ID}",
                column="requirement_id",
                regex=REQUIREMENT_ID,
            ),
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["requirements_verbatim"],
                "every requirement has a quote",
                column="has_quote",
                value_set=[True],
            ),
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["requirements_verbatim"],
                "every quote is its document's text at its offsets",
                column="quote_at_offsets",
                value_set=[True],
            ),
            gate(
                gxe.ExpectColumnValuesToBeBetween,
                g["quote_length"],
                "quotes have at least 10 words",
                column="quote_words",
                min_value=10,
            ),
            contract(
                gxe.ExpectColumnPairValuesAToBeGreaterThanB,
                "pandera contract, schemas/requirements.py",
                "every quote ends after it starts",
                column_A="char_end",
                column_B="char_start",
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/requirements.py",
                "modality is known",
                column="modality",
                value_set=MODALITIES,
            ),
        ],
        "documents": [
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["documents_without_requirements"],
                "active documents hold at least one requirement",
                column="has_requirements",
                value_set=[True],
            ),
        ],
        "answers": [
            contract(
                gxe.ExpectColumnValuesToBeUnique,
                "pandera contract, schemas/answers.py",
                "one answer per question",
                column="question_id",
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/answers.py",
                "the result is ANSWERED or NO_AUTHORITATIVE_EVIDENCE",
                column="result",
                value_set=list(RESULTS),
            ),
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["answer_coverage"],
                "questions are answered",
                column="result",
                value_set=["ANSWERED"],
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/answers.py",
                "grounding confidence is known",
                column="grounding_confidence",
                value_set=list(GROUNDING),
            ),
            gate(
                gxe.ExpectColumnValuesToBeBetween,
                g["answers_consistent"],
                "an ANSWERED answer has statements",
                column="statements",
                min_value=1,
                row_condition=Column("result") == "ANSWERED",
            ),
            gate(
                gxe.ExpectColumnValuesToBeBetween,
                g["answers_consistent"],
                "a NO_AUTHORITATIVE_EVIDENCE answer has none",
                column="statements",
                max_value=0,
                row_condition=Column("result") == "NO_AUTHORITATIVE_EVIDENCE",
            ),
        ],
        "statements": [
            contract(
                gxe.ExpectColumnValuesToBeUnique,
                "pandera contract, schemas/statements.py",
                "statement IDs are unique",
                column="statement_id",
            ),
            gate(
                gxe.ExpectColumnValuesToBeBetween,
                g["statements_cited"],
                "every statement has a citation",
                column="citations",
                min_value=1,
            ),
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["statement_quotes_verbatim"],
                "a quoting statement holds every quote it cites",
                column="quotes_cited",
                value_set=[True],
                row_condition=Column("form") == "quote",
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/statements.py",
                "verdicts are SUPPORTED, PARTIAL, UNSUPPORTED or CONTRADICTED",
                column="verdict",
                value_set=list(VERDICTS),
            ),
        ],
        "citations": [
            contract(
                gxe.ExpectCompoundColumnsToBeUnique,
                "the key of `groundwork export`'s citation_id",
                "a statement cites a requirement once",
                column_list=["statement_id", "requirement_id"],
            ),
            gate(
                gxe.ExpectColumnValuesToMatchRegex,
                g["answer_markers_cited"],
                "every cited ID is well formed",
                column="requirement_id",
                regex=REQUIREMENT_ID,
            ),
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["citations_verified"],
                "every cited requirement was verified for that question",
                column="verified_for_question",
                value_set=[True],
            ),
        ],
        "claims": [
            gate(
                gxe.ExpectColumnValuesToBeInSet,
                g["claims_supported"],
                "an unsupported claim is softened or removed, a contradicted one removed",
                column="published_as_fact_unsupported",
                value_set=[False],
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/claims.py",
                "claim verdicts are SUPPORTED, PARTIAL, UNSUPPORTED or CONTRADICTED",
                column="verdict",
                value_set=list(VERDICTS),
            ),
        ],
        "verifications": [
            contract(
                gxe.ExpectCompoundColumnsToBeUnique,
                "the key of `groundwork export`'s verification_id",
                "one verdict per question and requirement",
                column_list=["question_id", "requirement_id"],
            ),
            contract(
                gxe.ExpectColumnValuesToBeInSet,
                "pandera contract, schemas/verifications.py",
                "rejection reasons are known",
                column="rejection_reason",
                value_set=REJECTION_REASONS,
            ),
            contract(
                gxe.ExpectColumnValuesToBeBetween,
                "pandera contract, schemas/verifications.py",
                "quote coverage is a share",
                column="quote_coverage",
                min_value=0,
                max_value=1,
            ),
        ],
    }
