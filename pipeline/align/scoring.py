"""Scoring pairs of laws: concept vectors weighted over the laws a model is fitted on, the cosine of two laws, the
text and word overlap within one language, the readings of the two laws (the event they rule on), the position
prior, and the certainty band of a link."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence, TypeVar

from rapidfuzz import fuzz
from rapidfuzz.process import cdist

from ..model import Law, Witness
from .analyse import LawAnalysis, analyse, lang_tables
from .config import AlignConfig, AlignResources
from .provisions import compare, load_extraction, read_provisions

if TYPE_CHECKING:
    import numpy as np

_F = TypeVar("_F", float, "np.ndarray")  # one score, or a matrix of them


# ----------------------------------------------------------------------------------------------
# vectors and scores


def similarity(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    """Cosine similarity of two sparse concept vectors (0..1 for non-negative weights)."""
    if not u or not v:
        return 0.0
    if len(u) > len(v):
        u, v = v, u
    dot = sum(w * v.get(c, 0.0) for c, w in u.items())
    nu = math.sqrt(sum(w * w for w in u.values()))
    nv = math.sqrt(sum(w * w for w in v.values()))
    return dot / (nu * nv) if nu and nv else 0.0


def text_similarity(a: str, b: str) -> float:
    """Fuzzy similarity (0..1) of two normalised texts, robust to OCR noise (rapidfuzz ratio)."""
    if not a or not b:
        return 0.0
    return fuzz.ratio(a, b) / 100.0


def link_kind(wa: Witness | None, wb: Witness | None, lang_a: str, lang_b: str) -> str:
    """same_text: one printed source (same ``source``); edition: same language, other source;
    translation: different languages; same_code: same language, no metadata to tell which."""
    if lang_a != lang_b:
        return "translation"
    if wa is None or wb is None:
        return "same_code"
    if wa.source and wa.source == wb.source:
        return "same_text"
    return "edition"


class AlignModel:
    """Concept space fitted on a set of laws: TF-IDF weights, vectors, pair scores.

    Fit it on the laws to align (``AlignModel(laws, resources, config)``) or on a pivot of canonical
    provisions plus the laws to score against them."""

    def __init__(
        self,
        laws: Sequence[Law],
        resources: AlignResources,
        config: AlignConfig = AlignConfig(),
        leads: Mapping[str, str] | None = None,
    ):
        self.config = config
        self.resources = resources
        self.laws = {l.id: l for l in laws}
        self.leads = dict(leads or {})  # clause id -> its law's lead-in (provisions.lead_ins), read with the clause
        self.analyses = analyse(list(laws), resources, config)
        n = len(self.analyses)
        df: Counter[str] = Counter()
        for a in self.analyses.values():
            df.update(a.concepts.keys())
        self.idf = {c: math.log((1 + n) / (1 + d)) + config.idf_floor for c, d in df.items()}
        common = (
            {c for c, d in df.items() if d >= config.ubiquitous_df * n} if n >= config.ubiquitous_min_laws else set()
        )
        self.ubiquitous = frozenset(common | {f"num:{k}" for k in config.weak_numbers})
        self._vectors: dict[str, dict[str, float]] = {}
        wdf: dict[str, Counter[str]] = defaultdict(Counter)  # per language: words are compared within one
        for a in self.analyses.values():
            wdf[a.lang].update(a.words.keys())
        self._lang_laws = Counter(a.lang for a in self.analyses.values())
        self.word_idf = {
            lang: {w: math.log((1 + self._lang_laws[lang]) / (1 + d)) + config.idf_floor for w, d in counts.items()}
            for lang, counts in wdf.items()
        }
        self._word_vectors: dict[str, dict[str, float]] = {}
        self._weights: dict[str, float] = {}  # concept -> _concept_weight (a pure function of the concept)
        self.provisions: dict = {}  # law id -> provisions.Provision (read lazily, per batch of laws scored)

    def forget(self, law_ids: Iterable[str]) -> None:
        """Drop laws scored against the model (not the ones it was fitted on) and what was derived from them."""
        for lid in law_ids:
            self.analyses.pop(lid, None)
            self.laws.pop(lid, None)
            self._vectors.pop(lid, None)
            self._word_vectors.pop(lid, None)
            self.provisions.pop(lid, None)

    def _weight(self, c: str) -> float:
        w = self._weights.get(c)
        if w is None:
            w = self._weights[c] = self._concept_weight(c)
        return w

    def _concept_weight(self, c: str) -> float:
        cfg = self.config
        if c.startswith("num:"):
            w = cfg.number_weight
            try:
                if int(c[4:]) in cfg.weak_numbers:
                    w *= cfg.weak_number_factor
            except ValueError:
                pass
            return w
        if c.startswith("out:"):
            return cfg.outcome_weight
        types = lang_tables(self.resources).concept_types.get(c)
        if types:
            tw = dict(cfg.type_weights)
            return max(tw.get(t, 1.0) for t in types)
        return 1.0

    def _is_function(self, c: str) -> bool:
        """True for a concept all of whose glossary rows are of a function-word type (``function_types``)."""
        types = lang_tables(self.resources).concept_types.get(c)
        if not types:
            return False
        return types <= set(self.config.function_types)

    def read(self, laws: Sequence[Law]) -> None:
        """Read the provisions of the laws not read yet (provisions.py, one spaCy call per law)."""
        fresh = [l for l in laws if l.id not in self.provisions]
        if fresh:
            self.provisions.update(read_provisions(fresh, self.resources._cache.get("extraction"), leads=self.leads))

    def reading(self, a: Law, b: Law, kind: str):
        """The comparison of the two laws' readings (None when readings are not used for this pair)."""
        if not self.config.use_provisions or kind == "same_text":
            return None
        self.read([a, b])
        facts = self.resources._cache.get("facts")
        if facts is None:
            ex = load_extraction()
            facts = self.resources._cache["facts"] = (ex.hard_facts, ex.agree_facts)
        return compare(self.provisions[a.id], self.provisions[b.id], *facts)

    def combine(self, sim: float, cmp, gate_only: bool = False) -> float:
        """The pair score from the similarity and the comparison of the readings (AlignConfig.event_weight ...);
        ``gate_only``: the similarity only lowered for other or unread events (the ratio basis of :meth:`matrices`)."""
        cfg = self.config
        if cmp is None:
            return sim
        if cmp.event_overlap < 0:
            return sim * (cfg.unread_factor if cmp.unread_both else cfg.no_reading_factor)
        if cmp.event_overlap == 0:
            return sim * cfg.other_event_factor
        if gate_only:
            return sim
        if cmp.hard_conflict:  # the same event in another situation (the first deal / the deal for the discard)
            return sim * cfg.condition_conflict_factor
        s = cfg.event_weight * cmp.event_overlap + (1 - cfg.event_weight) * sim
        return s * (cfg.condition_conflict_factor if cmp.conflicting_facts else 1.0)

    def band(self, score: float, cmp, primary: bool = True) -> str:
        """The certainty band of a link (AlignConfig.band_high, band_medium): "high" only for a primary (1:1) link
        on a shared event (or between two readings of one printed text); a secondary link above "low" only with a
        condition both readings state (AlignConfig.secondary_needs_condition)."""
        cfg = self.config
        structured = cmp is None or (cmp.event_overlap > 0)
        if cmp is not None and cmp.agree_conflict:  # dealer / non-dealer, before / after the trump, too many / too
            return "low"  # few: conditions that must agree for a confident link
        if cfg.secondary_needs_condition and not primary and cmp is not None and not cmp.matching_facts:
            return "low"  # a 1:n / n:1 link on the event alone: which of the laws on that event is meant is unsure
        if score >= cfg.band_high and structured and primary:
            return "high"
        return "medium" if score >= cfg.band_medium else "low"

    def law_vector(self, law: Law | str) -> dict[str, float]:
        """The weighted concept vector of a law (fitted or new: a new law is analysed on the fly)."""
        lid = law if isinstance(law, str) else law.id
        vec = self._vectors.get(lid)
        if vec is not None:
            return vec
        an = self.analyses.get(lid)
        if an is None:
            assert isinstance(law, Law)
            an = analyse([law], self.resources, self.config)[law.id]
            self.analyses[lid] = an
            self.laws[lid] = law
        vec = self._weigh(an.concepts)
        self._vectors[lid] = vec
        return vec

    def word_vector(self, law: Law | str) -> dict[str, float]:
        """The content words of a law (glossary words or not), TF-IDF weighted over the laws the model is fitted on:
        within one language, what two codes of different origin share beyond the glossary ("partner", "shuffle",
        "twelve").  A word found in most laws weighs little, so two unrelated laws score near 0 (the fuzzy ratio of
        two texts is about 0.4 for any two laws)."""
        lid = law if isinstance(law, str) else law.id
        vec = self._word_vectors.get(lid)
        if vec is None:
            self.law_vector(law)  # analyses a new law
            an = self.analyses[lid]
            idf = self.word_idf.get(an.lang, {})
            default_idf = math.log(1 + self._lang_laws[an.lang]) + self.config.idf_floor
            vec = {
                w: (1.0 + math.log(tf) if self.config.sublinear_tf and tf >= 1 else tf) * idf.get(w, default_idf)
                for w, tf in an.words.items()
                if tf > 1e-9
            }
            self._word_vectors[lid] = vec
        return vec

    def _same_language(self, cs: _F, ts: _F, ws: float | _F, kind: str) -> _F:
        """The score of two laws of one language from their concept cosine ``cs``, text similarity ``ts`` and word
        overlap ``ws`` (the formula of :meth:`matrix` and :meth:`score`)."""
        cfg = self.config
        if kind == "same_text":
            tw = cfg.same_source_text_weight
            return tw * ts + (1 - tw) * cs
        b = cfg.text_baseline
        if isinstance(ts, float):
            above = max(0.0, (ts - b) / (1 - b))
        else:
            import numpy as np

            above = np.maximum(0.0, (ts - b) / (1 - b))
        return cfg.text_weight * above + cfg.word_weight * ws + (1 - cfg.text_weight - cfg.word_weight) * cs

    def _weigh(self, counts: Mapping[str, float]) -> dict[str, float]:
        default_idf = math.log(1 + len(self.analyses)) + self.config.idf_floor
        vec = {}
        cap = self.config.function_max_tf
        for c, tf in counts.items():
            if tf <= 1e-9:
                continue
            if cap and tf > cap and self._is_function(c):
                tf = cap
            tfw = 1.0 + math.log(tf) if self.config.sublinear_tf and tf >= 1 else tf
            vec[c] = tfw * self.idf.get(c, default_idf) * self._weight(c)
        return vec

    def resolved_vector(self, law: Law, other: Law) -> dict[str, float]:
        """The vector of ``law`` read against ``other``: each occurrence of a word with several English
        equivalents counts in full for the equivalents ``other`` uses (a translation renders a word one
        way, not all its dictionary senses at once); an occurrence none of whose equivalents is in
        ``other`` stays split.  Only across languages (``sense_resolution``): within one language both laws
        are split alike.  (The result depends only on which concepts of ``law``'s ambiguous words
        ``other`` has: :meth:`_resolved_similarities` resolves once per such set.)"""
        base = self.law_vector(law)
        an = self.analyses[law.id]
        if not self.config.sense_resolution or law.lang == other.lang or not an.groups:
            return base
        self.law_vector(other)
        return self._resolve(an, self.analyses[other.id].concepts, base)

    def _resolve(
        self, an: LawAnalysis, present: "Mapping[str, float] | frozenset[str]", base: dict[str, float]
    ) -> dict[str, float]:
        """The vector of the law analysed as ``an`` (``base`` unresolved) against a law with the concepts ``present``."""
        counts: dict[str, float] = dict(an.concepts)
        subterms = lang_tables(self.resources).subterms
        changed = False

        def put(c: str, amount: float) -> None:
            counts[c] = counts.get(c, 0.0) + amount
            for sub in subterms.get(c, ()):
                counts[sub] = counts.get(sub, 0.0) + self.config.subterm_weight * amount

        for concepts, share in an.groups:
            hit = [c for c in concepts if c in present]
            if not hit or len(hit) == len(concepts):
                continue
            changed = True
            for c in concepts:
                put(c, -share)
            for c in hit:
                put(c, share * len(concepts) ** self.config.sense_resolution / len(hit))
        return self._weigh(counts) if changed else base

    def pair_vectors(self, a: Law, b: Law) -> tuple[dict[str, float], dict[str, float]]:
        """The vectors of two laws as compared with each other (see :meth:`resolved_vector`)."""
        return self.resolved_vector(a, b), self.resolved_vector(b, a)

    def thin(self, a: Law, b: Law, va: Mapping[str, float], vb: Mapping[str, float]) -> bool:
        """True when ``a`` and ``b`` (vectors ``va``, ``vb`` as compared) are in different languages and share fewer
        than ``min_shared_concepts`` concepts that are not ubiquitous (:attr:`ubiquitous`)."""
        if a.lang == b.lang or self.config.min_shared_concepts <= 1:
            return False
        if len(va) > len(vb):
            va, vb = vb, va
        return sum(1 for c in va if c in vb and c not in self.ubiquitous) < self.config.min_shared_concepts

    def shares_concepts(self, a: Law, b: Law) -> bool:
        """Whether the two laws share distinctive concepts: a concept score above 0, and not too thin
        (AlignConfig.min_shared_concepts)."""
        va, vb = self.pair_vectors(a, b)
        return similarity(va, vb) > 0 and not self.thin(a, b, va, vb)

    def _position_prior(self, a: Law, b: Law, n_a: int, n_b: int) -> float:
        if a.number is not None and b.number is not None:
            return 1.0 / (1.0 + abs(a.number - b.number) / self.config.position_scale)
        ra = a.order / max(n_a - 1, 1)
        rb = b.order / max(n_b - 1, 1)
        return 1.0 - abs(ra - rb)

    def _position_priors(self, rows: Sequence[Law], cols: Sequence[Law]) -> "np.ndarray":
        """:meth:`_position_prior` of every (row, col) pair, vectorised (the same float operations)."""
        import numpy as np

        def nums(laws: Sequence[Law]) -> tuple["np.ndarray", "np.ndarray"]:
            return (
                np.array([law.number if law.number is not None else 0 for law in laws], dtype=np.int64),
                np.array([law.number is not None for law in laws], dtype=bool),
            )

        na, ma = nums(rows)
        nb, mb = nums(cols)
        by_number = 1.0 / (1.0 + np.abs(na[:, None] - nb[None, :]) / self.config.position_scale)
        ra = np.array([law.order for law in rows], dtype=np.float64) / max(len(rows) - 1, 1)
        rb = np.array([law.order for law in cols], dtype=np.float64) / max(len(cols) - 1, 1)
        by_order = 1.0 - np.abs(ra[:, None] - rb[None, :])
        return np.where(ma[:, None] & mb[None, :], by_number, by_order)

    def _resolved_similarities(self, rows: Sequence[Law], cols: Sequence[Law]) -> "np.ndarray":
        """``similarity(*self.pair_vectors(a, b))`` of every (row, col) pair, with the same float operations
        (so the same values), but each resolved vector and each norm computed once, and 0 without looking
        for pairs that share no concept (resolution only moves weight among a law's own concepts).

        A law's vector against another law depends only on which of its ambiguous words' concepts the
        other law has: that pattern is read off a 0/1 concept matrix for all the other laws at once, and
        the law's vector is resolved once per distinct pattern."""
        import numpy as np

        vocab: dict[str, int] = {}
        base = [[self.law_vector(law) for law in laws] for laws in (rows, cols)]
        for vecs in base:
            for vec in vecs:
                for c in vec:
                    vocab.setdefault(c, len(vocab))
        for laws in (rows, cols):  # concepts the resolution looks up that no vector of these laws has
            for law in laws:
                for concepts, _ in self.analyses[law.id].groups:
                    for c in concepts:
                        vocab.setdefault(c, len(vocab))

        def binary(laws: Sequence[Law]) -> "np.ndarray":
            out = np.zeros((len(laws), len(vocab)), dtype=np.int8)
            for i, law in enumerate(laws):
                out[i, [vocab[c] for c in self.analyses[law.id].concepts]] = 1
            return out

        bin_rows, bin_cols = binary(rows), binary(cols)
        share = (bin_rows.astype(np.float32) @ bin_cols.T.astype(np.float32)) > 0  # exact counts (< 2**24)

        def norm(v: dict[str, float]) -> float:
            return math.sqrt(sum(w * w for w in v.values()))  # as in similarity()

        def variants(
            laws: Sequence[Law], vectors: list[dict[str, float]], others: Sequence[Law], bin_others: "np.ndarray"
        ) -> list:
            """Per law: None (its own vector against every other law) or (pattern index per other law,
            (vector, norm) per pattern)."""
            out: list = []
            for law, vec in zip(laws, vectors):
                an = self.analyses[law.id]
                ambiguous = sorted({c for concepts, _ in an.groups for c in concepts})
                if not ambiguous or law.lang == others[0].lang:
                    out.append(None)
                    continue
                pattern = bin_others[:, [vocab[c] for c in ambiguous]].astype(np.int64)
                if len(ambiguous) <= 62:  # one integer per pattern
                    codes, inverse = np.unique(
                        pattern @ (1 << np.arange(len(ambiguous), dtype=np.int64)), return_inverse=True
                    )
                    patterns = [[(code >> k) & 1 for k in range(len(ambiguous))] for code in codes.tolist()]
                else:
                    codes, inverse = np.unique(pattern, axis=0, return_inverse=True)
                    patterns = codes.tolist()
                vecs = []
                for bits in patterns:
                    v = self._resolve(an, frozenset(c for c, bit in zip(ambiguous, bits) if bit), vec)
                    vecs.append((v, norm(v)))
                out.append((inverse.reshape(-1).tolist(), vecs))
            return out

        var_rows, var_cols = variants(rows, base[0], cols, bin_cols), variants(cols, base[1], rows, bin_rows)
        own = [[(v, norm(v)) for v in vecs] for vecs in base]
        thin = self.config.min_shared_concepts > 1
        s = np.zeros((len(rows), len(cols)), dtype=np.float64)
        for i, j in zip(*(x.tolist() for x in np.nonzero(share))):
            vr, vc = var_rows[i], var_cols[j]
            u, nu = own[0][i] if vr is None else vr[1][vr[0][j]]
            v, nv = own[1][j] if vc is None else vc[1][vc[0][i]]
            if not u or not v or (thin and self.thin(rows[i], cols[j], u, v)):
                continue
            if len(u) > len(v):
                u, v = v, u
            dot = sum(w * v.get(c, 0.0) for c, w in u.items())
            s[i, j] = dot / (nu * nv) if nu and nv else 0.0
        return s

    def matrix(self, rows: Sequence[Law], cols: Sequence[Law], kind: str) -> "np.ndarray":
        """Scores of every (row, col) pair: the formula of :meth:`score`, vectorised (numpy for the
        concept cosines, rapidfuzz ``cdist`` for the text similarity). ``kind`` is the link kind of
        the two witnesses (it sets the weight of text similarity). Extra scorers are not vectorised:
        with ``config.scorers`` the pairs are scored one by one."""

        return self.matrices(rows, cols, kind)[0]

    def matrices(self, rows: Sequence[Law], cols: Sequence[Law], kind: str) -> tuple["np.ndarray", "np.ndarray"]:
        """(scores, ratio basis): the scores of :meth:`matrix`, and the similarity gated by the readings (times
        other_event_factor / no_reading_factor, not raised by a shared event) that the decision rule's ratio tests
        compare: a shared event lifts every law ruling on it alike, so it must not make them all look as good as the
        best (a code's revoke laws against another code's definition of a revoke)."""
        import numpy as np

        cfg = self.config
        if cfg.scorers:
            m = np.array([[self.score(a, b, None, (len(rows), len(cols)))[0] for b in cols] for a in rows])
            return m, m

        def cosines(vector) -> "np.ndarray":
            """Cosine similarity of every row law with every column law, over ``vector(law)`` (a sparse dict)."""
            vocab: dict[str, int] = {}
            for law in (*rows, *cols):
                for c in vector(law):
                    vocab.setdefault(c, len(vocab))

            def dense(laws: Sequence[Law]) -> "np.ndarray":
                m = np.zeros((len(laws), max(1, len(vocab))))
                for i, law in enumerate(laws):
                    for c, w in vector(law).items():
                        m[i, vocab[c]] = w
                norms = np.linalg.norm(m, axis=1, keepdims=True)
                return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)

            return dense(rows) @ dense(cols).T

        if cfg.sense_resolution and rows and cols and rows[0].lang != cols[0].lang:
            s = self._resolved_similarities(rows, cols)
        else:
            s = cosines(self.law_vector)
            if rows and cols and rows[0].lang != cols[0].lang and cfg.min_shared_concepts > 1:
                s = s * np.array(
                    [[not self.thin(a, b, self.law_vector(a), self.law_vector(b)) for b in cols] for a in rows]
                )
        if rows and cols and rows[0].lang == cols[0].lang:
            ts = (
                cdist(
                    [self.analyses[a.id].norm_text for a in rows],
                    [self.analyses[b.id].norm_text for b in cols],
                    scorer=fuzz.ratio,
                    dtype=np.float64,
                    workers=1,
                )
                / 100.0
            )
            ws: float | np.ndarray = 0.0
            if kind != "same_text" and cfg.word_weight:
                ws = cosines(self.word_vector)
            s = self._same_language(s, ts, ws, kind)
        return self._finish(s, rows, cols, kind)

    def _finish(self, s, rows: Sequence[Law], cols: Sequence[Law], kind: str):
        import numpy as np

        cfg = self.config
        gated = s
        if cfg.use_provisions and kind != "same_text" and rows and cols:
            self.read([*rows, *cols])
            cmps = [[self.reading(a, b, kind) for b in cols] for a in rows]
            gated = np.array(
                [[self.combine(float(s[i, j]), c, gate_only=True) for j, c in enumerate(r)] for i, r in enumerate(cmps)]
            )
            s = np.array([[self.combine(float(s[i, j]), c) for j, c in enumerate(r)] for i, r in enumerate(cmps)])
            gated = cfg.ratio_event_share * s + (1 - cfg.ratio_event_share) * gated
        if cfg.position_weight:
            prior = self._position_priors(rows, cols)
            s = s * (1 - cfg.position_weight + cfg.position_weight * prior)
            gated = gated * (1 - cfg.position_weight + cfg.position_weight * prior)
        return np.clip(s, 0.0, 1.0), np.clip(gated, 0.0, 1.0)

    def score(
        self, a: Law, b: Law, witnesses: Mapping[str, Witness] | None = None, sizes: tuple[int, int] | None = None
    ) -> tuple[float, str]:
        """Score two laws (0..1) and say why: shared concepts, numbers, outcomes, text, position."""
        cfg = self.config
        va, vb = self.pair_vectors(a, b)
        cos = similarity(va, vb)
        kind = link_kind((witnesses or {}).get(a.witness_id), (witnesses or {}).get(b.witness_id), a.lang, b.lang)
        parts = [f"concepts {cos:.2f}"]
        if cos and self.thin(a, b, va, vb):
            cos = 0.0
            parts = [f"concepts 0 (fewer than {cfg.min_shared_concepts} distinctive shared)"]
        s = cos
        if a.lang == b.lang:
            ts = text_similarity(self.analyses[a.id].norm_text, self.analyses[b.id].norm_text)
            ws = (
                similarity(self.word_vector(a), self.word_vector(b)) if kind != "same_text" and cfg.word_weight else 0.0
            )
            s = self._same_language(cos, ts, ws, kind)
            parts.append(f"text {ts:.2f}")
            if kind != "same_text" and cfg.word_weight:
                parts.append(f"words {ws:.2f}")
        if cfg.scorers:
            extra = [min(1.0, max(0.0, sc.score(a, b))) for sc in cfg.scorers]
            m = sum(extra) / len(extra)
            s = (1 - cfg.scorer_weight) * s + cfg.scorer_weight * m
            parts.append(" ".join(f"{sc.name} {x:.2f}" for sc, x in zip(cfg.scorers, extra)))
        cmp = self.reading(a, b, kind)
        if cmp is not None:
            parts.append(f"similarity {s:.2f}")
            s = self.combine(s, cmp)
        if cfg.position_weight:
            na, nb = sizes or (1, 1)
            prior = self._position_prior(a, b, na, nb)
            s *= 1 - cfg.position_weight + cfg.position_weight * prior
            parts.append(f"position {a.label or a.order}~{b.label or b.order}")
        shared = sorted((c for c in va if c in vb), key=lambda c: -(va[c] * vb[c]))
        la, lb = self.analyses[a.id].labels, self.analyses[b.id].labels
        terms = [c for c in shared if c.startswith("en:")][: cfg.evidence_terms]
        nums = [c[4:] for c in shared if c.startswith("num:")]
        outs = [c[4:] for c in shared if c.startswith("out:")]
        ev = []
        if terms:
            ev.append("terms: " + ", ".join(_term_label(c, la, lb) for c in terms))
        if nums:
            ev.append("numbers: " + ", ".join(nums))
        if outs:
            ev.append("outcomes: " + ", ".join(outs))
        ev.append("; ".join(parts))
        if cmp is not None:
            ev.insert(0, cmp.evidence())
        return max(0.0, min(1.0, s)), "; ".join(ev)


def _term_label(c: str, la: Mapping[str, str], lb: Mapping[str, str]) -> str:
    x, y = la.get(c, c[3:]), lb.get(c, c[3:])
    return x if x == y else f"{x}/{y}"
