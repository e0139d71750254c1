"""The grounding gate's decision on plain-language questions, chosen and measured.

The relevance model's score is calibrated by Platt scaling (sigmoid(a * logit + b), fitted by
weighted log loss on the plain dev tuning half and ObliQA questions kept from training, each
source weighing half), so that it reads as a probability. The gate then accepts, for each
question, the candidates scoring at or above a threshold and no more than a margin below the
question's best candidate. Both are chosen on the plain dev tuning half only: the pair that
maximises the answerable questions answered with a positive minus the questions answered without
one (near-misses included), among those that keep at least NEAR_MISSES_REFUSED of the
near-misses refused. The reported half is only measured.

Only the run's candidates (the pairs the gate sees at run time) count in a decision; the
positives the retrieval missed count in the AUROC (positives against the run's other candidates).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

from training.metrics import auroc
from training.relevance_pairs import Pair

THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.05, 0.96, 0.01))
MARGINS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, None)  # None: no margin
NEAR_MISSES_REFUSED = 0.9


def logits_of(probabilities: np.ndarray) -> np.ndarray:
    """The logits of probabilities (as CrossEncoder.scores rounds them, clipped off 0 and 1)."""
    p = np.clip(np.asarray(probabilities, dtype=float), 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def platt(logits: np.ndarray, gold: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """(a, b) minimising the weighted log loss of sigmoid(a * logit + b) against `gold`, by
    Newton's method (two parameters: it converges in a few steps)."""
    x, y, w = np.asarray(logits, float), np.asarray(gold, float), np.asarray(weights, float)
    params = np.array([1.0, 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(params[0] * x + params[1])))
        gradient = np.array([np.sum(w * (p - y) * x), np.sum(w * (p - y))])
        s = w * p * (1 - p)
        hessian = np.array([[np.sum(s * x * x), np.sum(s * x)], [np.sum(s * x), np.sum(s)]])
        step = np.linalg.solve(hessian + 1e-9 * np.eye(2), gradient)
        params -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(params[0]), float(params[1])


def calibrated(logits: np.ndarray, a: float, b: float) -> np.ndarray:
    """Probabilities by the Platt scaling (a, b), rounded as CrossEncoder.scores rounds them."""
    return (1 / (1 + np.exp(-(a * np.asarray(logits, float) + b)))).round(6)


def source_weights(sizes: Iterable[int]) -> np.ndarray:
    """Per-pair weights giving each source (a run of consecutive pairs of the given sizes) the
    same total weight."""
    sizes = list(sizes)
    return np.concatenate([np.full(n, 1 / (n * len(sizes))) for n in sizes])


@dataclass(frozen=True)
class Outcome:
    """What a gate decided on a set of questions."""

    answerable: int
    answered_right: int  # an accepted candidate is a positive
    answered_wrong: int  # answered, no accepted candidate a positive
    answered_expected_document: int  # answered citing an expected document (groundwork eval's)
    refused: int
    near_misses: int
    near_misses_refused: int
    wrong_pairs: int  # accepted candidates that are not positives

    @property
    def gain(self) -> int:
        """Answered with a positive, minus answered without one (near-misses included)."""
        answered_near_misses = self.near_misses - self.near_misses_refused
        return self.answered_right - self.answered_wrong - answered_near_misses

    def figures(self) -> dict:
        return {**asdict(self), "gain": self.gain}


def outcome(questions: list[dict], pairs: list[Pair], accepted: Iterable[bool]) -> Outcome:
    """The outcome on `questions` of accepting the pairs marked in `accepted` (one flag per
    pair; only retrieved pairs may be accepted)."""
    chosen: dict[str, list[bool]] = {}
    cited: dict[str, set[str]] = {}
    for pair, take in zip(pairs, accepted, strict=True):
        if take and pair.retrieved:
            chosen.setdefault(pair.question_id, []).append(pair.positive)
            cited.setdefault(pair.question_id, set()).add(pair.doc_id)
    answerable = [q for q in questions if q["answerable"]]
    expected = {q["id"]: {a["doc_id"] for a in q["answers"]} for q in answerable}
    near = [q for q in questions if not q["answerable"]]
    right = sum(any(chosen.get(q["id"], [])) for q in answerable)
    answered = sum(q["id"] in chosen for q in answerable)
    return Outcome(
        answerable=len(answerable),
        answered_right=right,
        answered_wrong=answered - right,
        answered_expected_document=sum(
            bool(cited.get(q["id"], set()) & expected[q["id"]]) for q in answerable
        ),
        refused=len(answerable) - answered,
        near_misses=len(near),
        near_misses_refused=sum(q["id"] not in chosen for q in near),
        wrong_pairs=sum(not p for flags in chosen.values() for p in flags),
    )


def accepted_by(
    pairs: list[Pair], scores: np.ndarray, threshold: float, margin: float | None
) -> list[bool]:
    """Per pair: at or above the threshold and within the margin of its question's best
    retrieved candidate (the gate of groundwork/verify/trained.py)."""
    best: dict[str, float] = {}
    for pair, score in zip(pairs, scores, strict=True):
        if pair.retrieved:
            best[pair.question_id] = max(score, best.get(pair.question_id, score))
    return [
        bool(
            p.retrieved and s >= threshold and (margin is None or s >= best[p.question_id] - margin)
        )
        for p, s in zip(pairs, scores, strict=True)
    ]


def chosen_gate(
    questions: list[dict], pairs: list[Pair], scores: np.ndarray
) -> tuple[float, float | None, Outcome]:
    """(threshold, margin, outcome) chosen on these questions (the module docstring's rule;
    ties go to fewer wrongly accepted pairs, then the higher threshold)."""
    tried = []
    for margin in MARGINS:
        for threshold in THRESHOLDS:
            done = outcome(questions, pairs, accepted_by(pairs, scores, threshold, margin))
            refused = done.near_misses_refused / max(done.near_misses, 1)
            tried.append(
                (
                    (refused >= NEAR_MISSES_REFUSED, done.gain, -done.wrong_pairs, threshold),
                    threshold,
                    margin,
                    done,
                )
            )
    _, threshold, margin, done = max(tried, key=lambda t: t[0])
    return threshold, margin, done


def top_positive(questions: list[dict], pairs: list[Pair], scores: np.ndarray) -> dict:
    """Answerable questions whose best-scored retrieved candidate is a positive, and how many
    have a retrieved positive at all (the most any gate can answer rightly)."""
    best: dict[str, tuple[float, bool]] = {}
    for pair, score in zip(pairs, scores, strict=True):
        if pair.retrieved and (pair.question_id not in best or score > best[pair.question_id][0]):
            best[pair.question_id] = (score, pair.positive)
    answerable = {q["id"] for q in questions if q["answerable"]}
    reachable = {p.question_id for p in pairs if p.retrieved and p.positive}
    return {
        "answerable": len(answerable),
        "with_retrieved_positive": len(reachable & answerable),
        "top_positive": sum(best[q][1] for q in answerable if q in best),
    }


def plain_auroc(pairs: list[Pair], scores: np.ndarray) -> float:
    """AUROC of the positives (retrieved or missed) against the run's other candidates."""
    return auroc(scores, np.array([p.positive for p in pairs]))
