"""Figures the training runs and benchmarks report: AUROC, the best-F1 threshold, and ranking
measures (Recall@k, MAP@k as trec_eval's map_cut)."""

from __future__ import annotations

import hashlib

import numpy as np


def held_back(key: str) -> bool:
    """Whether a record is in the held-back 20 % of its set, by a hash of its key (a question
    ID, a sentence, a pair or document ID): never trained on, and what every card measures."""
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % 5 == 0


def auroc(scores: np.ndarray, gold: np.ndarray) -> float:
    """Area under the ROC curve: the chance a random positive outscores a random negative
    (ties count half)."""
    scores, gold = np.asarray(scores, dtype=float), np.asarray(gold, dtype=bool)
    order = np.argsort(scores, kind="stable")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):  # average ranks over ties
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    positives, negatives = gold.sum(), (~gold).sum()
    if not positives or not negatives:
        return float("nan")
    return float((ranks[gold].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def best_threshold(scores: np.ndarray, gold: np.ndarray) -> tuple[float, float, float, float]:
    """(threshold, precision, recall, F1) at the threshold with the highest F1: verified when
    score >= threshold."""
    scores, gold = np.asarray(scores, dtype=float), np.asarray(gold, dtype=bool)
    best = (1.0, 0.0, 0.0, 0.0)
    for t in np.unique(scores):
        chosen = scores >= t
        tp = int((chosen & gold).sum())
        if not tp:
            continue
        precision, recall = tp / int(chosen.sum()), tp / int(gold.sum())
        f1 = 2 * precision * recall / (precision + recall)
        if f1 > best[3]:
            best = (float(t), precision, recall, f1)
    return best


def recall_at(ranked: dict[str, list[str]], gold: dict[str, set[str]], k: int) -> float:
    """Mean share of each question's gold items in its top k."""
    return float(np.mean([len(set(ranked.get(q, [])[:k]) & g) / len(g) for q, g in gold.items()]))


def map_at(ranked: dict[str, list[str]], gold: dict[str, set[str]], k: int) -> float:
    """Mean average precision cut at k (trec_eval map_cut_k): precision at each gold hit in the
    top k, summed, over the number of gold items."""
    values = []
    for q, g in gold.items():
        hits, total = 0, 0.0
        for rank, item in enumerate(ranked.get(q, [])[:k], start=1):
            if item in g:
                hits += 1
                total += hits / rank
        values.append(total / len(g))
    return float(np.mean(values))
