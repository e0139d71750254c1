"""Is a candidate a requirement? The requirement classifier trained here
(training/requirement.py, models/requirement/) reads the candidate's sentence, with its list
lead-in first where it is a list item, exactly as built here, in training and at run time.

Routing, by what the model was trained on and what it costs: its label is "imposes a duty or a
prohibition", so a permission is the rules' to decide; and a duty the rules read with high
confidence (a modal verb with its subject, no hedge) is kept without asking, since the rules are
precise there (precision 0.98 on the held-back EU slice) and a model call is the cost of
extraction. The model decides the rest: duties the rules read with medium or low confidence.
"""

from __future__ import annotations

MODEL = "requirement"
DUTIES = ("obligation", "prohibition")


def classifier_text(sentence: str, lead_in: str | None = None) -> str:
    """What the model reads: the lead-in, then the sentence."""
    return f"{lead_in} {sentence}" if lead_in else sentence


def asks_model(modality: str, confidence: str) -> bool:
    """Whether the model decides a candidate of this modality and rules confidence."""
    return modality in DUTIES and confidence != "high"
