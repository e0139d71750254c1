"""Models trained here (training/), run offline: int8 ONNX graphs read by onnxruntime, their
inputs cut into tokens by `tokenizers`. No torch at run time.

A model folder (models/<name>/) holds `model.onnx`, `tokenizer.json` and `model.json` (its name,
version, labels, maximum length and decision threshold, written by the training run with the
model card). Two kinds: a cross-encoder reads a text pair and gives a score; an encoder reads one
text and gives a unit vector. A static encoder (models/static/) has no graph: a matrix of token
vectors (`vectors.npy`, int8, with one scale per row in `scales.npy`) read with numpy.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"


def model_version(name: str) -> str:
    """A committed model's version (its name and the sha256 of its graph), read from its
    model.json alone: stage versions key on it without loading onnxruntime."""
    return _version(json.loads((MODELS_DIR / name / "model.json").read_text(encoding="utf-8")))


def _version(meta: dict) -> str:
    """model.json's version, with its calibration when it has one: a calibrated score is another
    output of the same graph, so the cache (keyed on the version) must not serve the old one."""
    calibration = meta.get("calibration")
    if calibration is None:
        return meta["version"]
    return f"{meta['version']}-platt{calibration['a']:g},{calibration['b']:g}"


@dataclass(frozen=True)
class ModelInfo:
    """What `model.json` says of a model: the training run's decisions that inference must
    repeat (maximum length, labels, the calibration of its score) and the decision chosen on
    dev data (the threshold; for the grounding gate, the margin below the question's best
    candidate within which a candidate is still accepted, and the lower threshold at which a
    quote that holds the question's words is accepted)."""

    name: str
    version: str  # name, sha256 of model.onnx (and calibration): what the score cache keys on
    labels: list[str]
    max_length: int
    threshold: float | None
    calibration: tuple[float, float] | None = None  # Platt: sigmoid(a * logit + b)
    margin: float | None = None
    lexical: float | None = None

    @classmethod
    def read(cls, folder: Path) -> ModelInfo:
        meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        return cls(
            name=meta["name"],
            version=_version(meta),
            labels=list(meta["labels"]),
            max_length=int(meta["max_length"]),
            threshold=meta.get("threshold"),
            calibration=_platt(meta.get("calibration")),
            margin=meta.get("margin"),
            lexical=meta.get("lexical"),
        )


def _platt(calibration: dict | None) -> tuple[float, float] | None:
    """The Platt scaling (a, b) of model.json's `calibration` ({"a": .., "b": ..})."""
    if calibration is None:
        return None
    return float(calibration["a"]), float(calibration["b"])


class OnnxModel:
    """A model folder's ONNX graph over text pairs or single texts."""

    def __init__(self, folder: Path, threads: int = 0) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.info = ModelInfo.read(folder)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.info.max_length, strategy="longest_first")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads  # 0: one per core
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}

    @property
    def version(self) -> str:
        return self.info.version

    def outputs(self, texts: Sequence[tuple[str, str] | str]) -> np.ndarray:
        """The graph's output row for each input, in input order. Each input runs alone: int8
        dynamic quantisation scales activations over the whole batch, padding included, so in
        a batch an input's output would depend on its batchmates (slightly), and the gate must
        give a pair the same score in a run and in `groundwork judge`. Batching gains nothing on
        the CPUs measured (BENCHMARKS.md, "Trained relevance models")."""
        encodings = self.tokenizer.encode_batch(list(texts))
        width = self.session.get_outputs()[0].shape[-1]
        out = np.zeros((len(encodings), width), dtype=np.float32)
        for i, e in enumerate(encodings):
            feeds = {
                "input_ids": np.array([e.ids], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids], dtype=np.int64),
            }
            (result,) = self.session.run(None, {k: v for k, v in feeds.items() if k in self.inputs})
            out[i] = result.reshape(width)
        return out


class CrossEncoder(OnnxModel):
    """A one-logit classifier of text pairs."""

    def scores(self, texts: Sequence[tuple[str, str] | str]) -> np.ndarray:
        """The probability of the positive label for each input: the logit through the
        model's calibration (Platt scaling fitted on dev data) when it has one, so that a score
        reads as the share of such pairs that answer their question."""
        if not texts:
            return np.zeros(0, dtype=np.float64)
        logits = self.outputs(texts)[:, 0].astype(np.float64)
        if self.info.calibration is not None:
            a, b = self.info.calibration
            logits = a * logits + b
        return (1.0 / (1.0 + np.exp(-logits))).round(6)


class Encoder(OnnxModel):
    """A text encoder whose graph ends in a mean-pooled, L2-normalised vector."""

    def embeddings(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text (float32 rows); their dot product is the cosine."""
        if not texts:
            return np.zeros((0, self.session.get_outputs()[0].shape[-1]), dtype=np.float32)
        return self.outputs(texts)


class StaticEncoder:
    """A static-embedding model (distilled from an encoder with model2vec: training/static.py):
    a text's vector is the mean of its tokens' rows of one matrix, L2-normalised, as model2vec's
    StaticModel.encode computes it (no special tokens, the unknown token left out). numpy and
    tokenizers only, and no network: cheap enough to encode a whole corpus where the
    transformer would take minutes."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        self.info = ModelInfo.read(folder)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.info.max_length)
        scales = np.load(folder / "scales.npy", allow_pickle=False)
        self.vectors = np.load(folder / "vectors.npy", allow_pickle=False) * scales[:, None]
        unknown = getattr(self.tokenizer.model, "unk_token", None)
        self.unknown = self.tokenizer.token_to_id(unknown) if unknown else None

    @property
    def version(self) -> str:
        return self.info.version

    def embeddings(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text (float32 rows; all zeros for a text with no known token)."""
        out = np.zeros((len(texts), self.vectors.shape[1]), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        for i, encoding in enumerate(encodings):
            ids = [t for t in encoding.ids if t != self.unknown]
            if ids:
                mean = self.vectors[ids].mean(axis=0)
                out[i] = mean / (np.linalg.norm(mean) + 1e-32)
        return out


def _threads() -> int:
    """onnxruntime's intra-op threads for this process: one per core (0) in the flow's process,
    one in a worker process, where the stage runs as many workers as cores already (two
    workers of two threads each fought over two cores)."""
    return 0 if multiprocessing.parent_process() is None else 1


@cache
def loaded(name: str) -> CrossEncoder:
    """The committed cross-encoder models/<name>/, loaded once per process."""
    return CrossEncoder(MODELS_DIR / name, _threads())


@cache
def loaded_encoder(name: str) -> Encoder:
    """The committed encoder models/<name>/, loaded once per process."""
    return Encoder(MODELS_DIR / name, _threads())
