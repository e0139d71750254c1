"""Fine-tuning the base model as a bi-encoder: a question and a passage each become one unit
vector, and a passage that answers a question lies near it. Retrieval uses it to find the
candidates BM25 misses (a question worded far from its answer), before the cross-encoder reads
each candidate.

The graph it exports (training.crossencoder.exported, output "embedding") ends in the mean of
the token vectors over the attention mask, L2-normalised, as sentence-transformers pools
all-MiniLM-L6-v2. The loss is the in-batch softmax ("multiple negatives ranking"): each
question's own passage against every other passage of the batch and the batch's hard negatives.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from training.crossencoder import (
    TrainConfig,
    _encoded,
    apply_step,
    base_model_dir,
    mean_pooled,
    optimiser,
    seeded,
)

SCALE = 20.0  # cosine similarities times this are the softmax's logits


def pooled(model):
    """`model` (a transformers encoder) with mean pooling and L2 normalisation on top."""
    import torch

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            return torch.nn.functional.normalize(mean_pooled(hidden, attention_mask), dim=-1)

    return Pooled()


def fine_tuned_encoder(
    queries: Sequence[str],
    positives: Sequence[str],
    negatives: Sequence[str],
    config: TrainConfig,
    after_epoch: Callable[[int, object], None] | None = None,
    stop_after: int | None = None,
    resumed: tuple[int, Path] | None = None,
):
    """The base model, pooled, fine-tuned so each query's vector is nearest its positive among
    the batch's positives and hard negatives; returns (pooled model, tokenizer). Epochs 0: the
    base model as it ships, pooled. `after_epoch(epoch, model)` sees the model (in eval mode)
    after each epoch: the checkpoint an epoch is chosen from. `stop_after` epochs end the run
    early on the schedule of `config.epochs` (the learning rate decays over all of them), so
    a chosen epoch is trained again exactly. `resumed` (epochs done, the transformers weights
    they left) continues a run from its checkpoint: a fresh optimiser at that point of the
    schedule, the batches in the order the whole run takes, dropout seeded anew. Training resumes
    so after every epoch, whether or not the process stopped, so a run is the same either way."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    seeded(config.seed)
    base = base_model_dir()
    done, weights = resumed or (0, base)
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = pooled(AutoModel.from_pretrained(weights))
    if not config.epochs:
        return model.eval(), tokenizer
    model.train()
    per_epoch = -(-len(queries) // config.batch_size)
    steps = config.epochs * per_epoch
    optimizer, schedule = optimiser(
        model, config.learning_rate, steps, config.warmup_share, config.weight_decay
    )
    names = ("input_ids", "attention_mask", "token_type_ids")
    order = random.Random(config.seed)
    for _ in range(done):  # the epochs done: their batch order drawn, their schedule passed
        order.shuffle(list(range(len(queries))))
        with warnings.catch_warnings():  # a schedule step before any optimiser step: intended
            warnings.simplefilter("ignore", UserWarning)
            for _ in range(per_epoch):
                schedule.step()
    if done:
        seeded(config.seed + done)
    step, started = done * per_epoch, time.perf_counter()
    for epoch in range(done + 1, (stop_after or config.epochs) + 1):
        rows = list(range(len(queries)))
        order.shuffle(rows)
        for start in range(0, len(rows), config.batch_size):
            batch = rows[start : start + config.batch_size]
            q = _encoded(tokenizer, [queries[i] for i in batch], config.max_length)
            texts = [positives[i] for i in batch] + [negatives[i] for i in batch]
            p = _encoded(tokenizer, texts, config.max_length)
            similarity = model(*(q[n] for n in names)) @ model(*(p[n] for n in names)).T
            loss = torch.nn.functional.cross_entropy(SCALE * similarity, torch.arange(len(batch)))
            apply_step(loss, model, optimizer, schedule)
            step += 1
            if step % 20 == 0 or step == steps:
                rate = (step - done * per_epoch) * len(batch) / (time.perf_counter() - started)
                print(
                    f"step {step}/{steps} loss {loss.item():.4f} ({rate:.1f} queries/s)", flush=True
                )
        if after_epoch is not None:
            after_epoch(epoch, model.eval())
            model.train()
    return model.eval(), tokenizer


def encoded_vectors(model, tokenizer, texts: Sequence[str], max_length: int, batch: int = 64):
    """The pooled model's unit vectors of `texts` (float32 rows), batched, in torch: the
    vectors training draws its dense hard negatives from."""
    import numpy as np
    import torch

    names = ("input_ids", "attention_mask", "token_type_ids")
    out = []
    with torch.no_grad():
        for start in range(0, len(texts), batch):
            encoded = _encoded(tokenizer, list(texts[start : start + batch]), max_length)
            out.append(model(*(encoded[n] for n in names)).numpy())
    return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)
