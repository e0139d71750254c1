"""The outputs of the models trained here, cached in the warehouse by (model version, input
hash), like model replies: a pair scored or a text encoded once is read back, not computed
again, by any later run or stage. Without a connection (`groundwork judge`: no warehouse)
everything is computed and nothing is stored; through a read-only one (`groundwork ask`) what the
runs stored is read and nothing new is stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from groundwork.warehouse.sqlfiles import query, run_script

if TYPE_CHECKING:
    import duckdb

    from groundwork.models.inference import OnnxModel


def input_hash(text: tuple[str, str] | str) -> str:
    """sha256 of the text (or the two texts) the model reads."""
    joined = "\x1f".join(text) if isinstance(text, tuple) else text
    return hashlib.sha256(joined.encode()).hexdigest()


class Cached:
    """A model's outputs through the cache on `con` when there is one: each distinct input is
    computed once, then read back by any later run or stage. `table` names the cache (its
    lookup and store SQL in sql/<table>/)."""

    table: str

    def __init__(
        self, model: OnnxModel, con: duckdb.DuckDBPyConnection | None = None, stores: bool = True
    ) -> None:
        self.model = model
        self.con = con
        self.stores = stores
        self.cached = 0  # inputs read from the cache rather than computed
        self.scored = 0

    @property
    def version(self) -> str:
        return self.model.version

    def _computed(self, inputs: list) -> list:
        raise NotImplementedError

    def _read(self, result: duckdb.DuckDBPyConnection) -> dict:
        """input hash -> output, from a lookup's (input_hash, output) rows."""
        return dict(result.fetchall())

    def values(self, inputs: Sequence[tuple[str, str] | str]) -> list:
        """The model's output for every input, in order."""
        hashes = [input_hash(i) for i in inputs]
        known = self._stored(sorted(set(hashes)))
        missing = {h: i for h, i in zip(hashes, inputs, strict=True) if h not in known}
        if missing:
            new = dict(zip(missing, self._computed(list(missing.values())), strict=True))
            self._store(new)
            known |= new
        self.cached += sum(h not in missing for h in hashes)
        self.scored += len(missing)
        return [known[h] for h in hashes]

    def _stored(self, hashes: list[str]) -> dict:
        if self.con is None or not hashes:
            return {}
        self.con.register("wanted_inputs", pa.table({"input_hash": hashes}))
        try:
            return self._read(
                query(self.con, f"{self.table}/lookup", {"model_version": self.version})
            )
        finally:
            self.con.unregister("wanted_inputs")

    def _store(self, outputs: dict) -> None:
        if self.con is None or not self.stores:
            return
        table = pa.table({"input_hash": list(outputs), "output": list(outputs.values())})
        self.con.register("new_outputs", table)
        try:
            run_script(self.con, f"{self.table}/store", {"model_version": self.version})
        finally:
            self.con.unregister("new_outputs")


class Scorer(Cached):
    """Scores text pairs with a cross-encoder: a probability per pair."""

    table = "model_scores"

    def _computed(self, inputs: list) -> list:
        return self.model.scores(inputs).tolist()

    def __call__(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array(self.values(pairs), dtype=np.float64)


class Embedder(Cached):
    """Encodes texts with an encoder: a unit vector per text."""

    table = "model_embeddings"

    def _computed(self, inputs: list) -> list:
        return list(self.model.embeddings(inputs))

    def _read(self, result: duckdb.DuckDBPyConnection) -> dict:
        """Vectors through Arrow as one float32 block (a Python list per vector is slow)."""
        table = result.to_arrow_table()
        if not table.num_rows:
            return {}
        flat = table.column(1).combine_chunks().flatten().to_numpy()
        return dict(zip(table.column(0).to_pylist(), flat.reshape(table.num_rows, -1), strict=True))

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.array(self.values(texts), dtype=np.float32)


class PairCosines:
    """The dense encoder as a scorer of (question, text) pairs: the cosine of their vectors (a
    negative one as 0). It
    reads each text alone, so a text met in many pairs (a question beside its 70 candidates) is
    encoded once, and every vector is cached like any other."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.model = embedder.model

    @property
    def version(self) -> str:
        return self.embedder.version

    def __call__(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros(0, dtype=np.float64)
        firsts = self.embedder([first for first, _ in pairs])
        seconds = self.embedder([second for _, second in pairs])
        # a score reads from 0 to 1, like a probability: an opposed pair is as unrelated as 0
        return np.clip((firsts * seconds).sum(axis=1).astype(np.float64), 0.0, 1.0).round(6)


def relevance_scorer(con: duckdb.DuckDBPyConnection | None = None) -> Scorer:
    """The relevance model trained here (models/relevance/), cached on `con`."""
    from groundwork.models.inference import loaded
    from groundwork.models.relevance import MODEL

    return Scorer(loaded(MODEL), con)


def dense_embedder(con: duckdb.DuckDBPyConnection | None = None, stores: bool = True) -> Embedder:
    """The dense retrieval encoder trained here (models/dense/), cached on `con` (read only,
    without `stores`)."""
    from groundwork.models.inference import loaded_encoder
    from groundwork.models.relevance import DENSE

    return Embedder(loaded_encoder(DENSE), con, stores)


def gate_scorer(con: duckdb.DuckDBPyConnection | None = None, stores: bool = True) -> PairCosines:
    """What the trained grounding gate scores a (question, quote) pair with: the dense encoder's
    cosine, which tells an answer from its neighbours better than the relevance cross-encoder on
    plain-language questions (BENCHMARKS.md, "Grounding gate"); its threshold is in
    models/dense/model.json. Cached on `con` (read only, without `stores`)."""
    return PairCosines(dense_embedder(con, stores))
