"""US text for the requirement classifier, read from a run's warehouse over ../shared/corpus: its
candidates as the model would read them, the US positives of the plain-language questions, and
the rows of the hand-read register sample.

The EU and ADGM sentences the classifier first learnt from call a provision about a paragraph
constitutive, so the model set aside US duties that refer to a paragraph ("The notification
required by paragraph (a) of this section shall be written in plain language"). The
plain-language questions (data/plain-questions) name, for each answerable question, what kind
of rule answers it (`asks`) and the verbatim quotes that do; a quote answering a `duty`,
`prohibition` or `deadline` question sits in a sentence that imposes a duty. A quote is a
fragment, and the model reads whole sentences, so each quote is found in its document and every
duty candidate the rules found overlapping it gives one input: the candidate's sentence, sliced
from its chunk by its sentence offsets as groundwork/extract/trained.py slices it, after its
lead-in (`classifier_text`). Candidates the rules set aside (a lead-in alone, a citation note)
are left out: the model never reads them.

No US negatives: the questions label no sentence as imposing nothing. The `definition` answers
come closest, but the few duty candidates overlapping them are duties themselves (a list item
under "shall revise ... so it is consistent with the following:"), and a `condition`, `who` or
`amount` answer is as often a duty as not. The negatives stay the EU constitutive sentences and
the RegNLP non-obligations.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from groundwork.extract.classifier import DUTIES, asks_model, classifier_text
from groundwork.warehouse.store import Warehouse

# What a question asks for when the sentence that answers it imposes a duty.
DUTY_ASKS = ("duty", "prohibition", "deadline")

CANDIDATES = """
SELECT c.doc_id, c.char_start, c.char_end, c.modality, c.extraction_confidence,
       c.is_requirement OR c.requirement_score IS NOT NULL AS rules_kept,
       c.sentence_start, c.sentence_end, c.lead_in_quote,
       ch.char_start AS chunk_start, ch.text AS chunk_text
FROM current_candidates c JOIN current_chunks ch USING (chunk_id)
ORDER BY c.doc_id, c.char_start, c.char_end
"""
DOCUMENTS = """
SELECT d.doc_id, t.text FROM current_documents d JOIN document_texts t USING (sha256)
"""


@dataclass(frozen=True)
class Candidate:
    """A rule candidate: its span, the rules' reading, and the model's input."""

    doc_id: str
    char_start: int
    char_end: int
    modality: str
    confidence: str
    rules_kept: bool  # false: the rules set it aside (a lead-in, a citation note)
    text: str  # classifier_text of its sentence and lead-in

    def overlaps(self, start: int, end: int) -> bool:
        """Whether its quote shares a character with [start, end)."""
        return self.char_start < end and start < self.char_end

    @property
    def asked(self) -> bool:
        """Whether the pipeline's routing asks the model about this candidate."""
        return self.rules_kept and asks_model(self.modality, self.confidence)


@dataclass(frozen=True)
class UsText:
    """A run's candidates by document and its document texts."""

    candidates: dict[str, list[Candidate]]
    documents: dict[str, str]


def us_text(warehouse: Path) -> UsText:
    """The current candidates and document texts of a run's warehouse."""
    with Warehouse(warehouse).connect(read_only=True) as con:
        rows = con.execute(CANDIDATES).fetchall()
        documents = dict(con.execute(DOCUMENTS).fetchall())
    candidates: dict[str, list[Candidate]] = {}
    for doc, start, end, modality, confidence, kept, s_start, s_end, lead_in, offset, text in rows:
        sentence = text[s_start - offset : s_end - offset]
        candidates.setdefault(doc, []).append(
            Candidate(
                doc, start, end, modality, confidence, kept, classifier_text(sentence, lead_in)
            )
        )
    return UsText(candidates, documents)


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def sample_rows(labels: Path, text: UsText) -> list[tuple[Candidate, bool]]:
    """The hand-read register sample: each row's candidate (by doc_id and span) and whether the
    reader labelled it a requirement."""
    spans = {(c.doc_id, c.char_start, c.char_end): c for cs in text.candidates.values() for c in cs}
    return [
        (spans[row["doc_id"], row["char_start"], row["char_end"]], row["label"] == "requirement")
        for row in _jsonl(labels)
    ]


@dataclass(frozen=True)
class Positives:
    """US positives and what became of the quotes they come from."""

    texts: list[str]
    quotes: int  # answer quotes of duty, prohibition and deadline questions
    uncovered: int  # quotes no duty candidate the rules kept overlaps
    withheld: int  # inputs left out because a sample row reads the same text


def us_positives(questions: Path, text: UsText, withheld: set[str]) -> Positives:
    """The model inputs of the duty candidates overlapping the answer quotes of a split's
    duty, prohibition and deadline questions, without the texts in `withheld`."""
    found: set[str] = set()
    quotes = uncovered = 0
    for question in _jsonl(questions):
        if not question["answerable"] or question["asks"] not in DUTY_ASKS:
            continue
        for answer in question["answers"]:
            quotes += 1
            start = text.documents[answer["doc_id"]].find(answer["quote"])
            if start < 0:
                raise ValueError(f"{question['id']}: quote not in {answer['doc_id']}")
            end = start + len(answer["quote"])
            covering = {
                c.text
                for c in text.candidates.get(answer["doc_id"], [])
                if c.rules_kept and c.modality in DUTIES and c.overlaps(start, end)
            }
            uncovered += not covering
            found |= covering
    return Positives(sorted(found - withheld), quotes, uncovered, len(found & withheld))
