"""The trained backend of extraction: the rules find the candidates, the requirement classifier
trained here decides which are requirements.

The rules (rules.py) keep what they are good at: the quote's span and offsets, its trigger,
subject and modality, list items with their lead-ins. The classifier (models/requirement/)
reads the sentence each quote sits in, after its lead-in for a list item, and gives the
probability that it imposes a duty or a prohibition; which candidates it is asked about is in
classifier.py (`asks_model`). A candidate scoring below the model's threshold stays in
`candidates` with `is_requirement` false, so a reader sees what was set aside and its score;
only the others are registered. The rows the model was not asked about keep a null score, and
those the rules set aside (a lead-in, a citation note: nonrequirements.py) stay aside.
"""

from __future__ import annotations

from typing import ClassVar

import pyarrow as pa

from groundwork.extract.classifier import MODEL, asks_model, classifier_text
from groundwork.extract.rules import candidates as rule_candidates
from groundwork.models.inference import loaded
from schemas.requirements import CANDIDATES_SCHEMA


def decided(table: pa.Table, chunks: pa.Table) -> pa.Table:
    """The rules' candidates with the classifier's score, version and decision."""
    model = loaded(MODEL)
    if model.info.threshold is None:
        raise ValueError(f"models/{MODEL}/model.json has no threshold")
    texts = {
        row["chunk_id"]: (row["char_start"], row["text"])
        for row in chunks.select(["chunk_id", "char_start", "text"]).to_pylist()
    }
    rows = table.to_pylist()
    # a candidate the rules set aside (a lead-in, a citation note) stays aside
    asked = [
        r
        for r in rows
        if r["is_requirement"] and asks_model(r["modality"], r["extraction_confidence"])
    ]
    inputs = []
    for row in asked:
        offset, text = texts[row["chunk_id"]]
        sentence = text[row["sentence_start"] - offset : row["sentence_end"] - offset]
        inputs.append(classifier_text(sentence, row["lead_in_quote"]))
    for row, score in zip(asked, model.scores(inputs).tolist(), strict=True):
        row["requirement_score"] = score
        row["requirement_model"] = model.version
        row["is_requirement"] = score >= model.info.threshold
    return pa.Table.from_pylist(rows, schema=CANDIDATES_SCHEMA)


class TrainedExtractor:
    """The rules and the requirement classifier as an `Extractor`: pure (each worker process
    loads the model once), so the stage maps it over worker processes."""

    in_processes: ClassVar[bool] = True

    def candidates(self, chunks: pa.Table) -> pa.Table:
        """Requirement candidates of chunks that hold whole documents, in order, decided."""
        return decided(rule_candidates(chunks), chunks)
