"""The repair decision: a noisy-channel choice between the printed word and its candidates.

score(word) = prior(word) + context(word) - channel_scale * cost(printed -> word)

* prior: wordfreq zipf frequency, plus a boost for domain terms and for words the witness itself uses;
* context: bigram evidence from the witness itself (:class:`Context`; never wordfreq);
* cost: the channel cost of :class:`~pipeline.clean.channel.Channel`.

The printed word is kept unless a candidate beats it by a margin (``CleanConfig.margin``, larger for
short words); a repair whose confidence falls below ``CleanConfig.apply_confidence`` is not applied
but returned as a Flag.  Historical spellings and domain terms are never changed.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .tokens import JUNK, case_like

if TYPE_CHECKING:
    from .repairer import Repairer


def inflection_of(a: str, b: str, endings: tuple[str, ...]) -> bool:
    """Whether the words ``a`` and ``b`` are forms of one stem: each is the stem or the stem with one of
    ``endings`` (three / threes, exposes / exposed)."""

    def stems(w: str) -> set[str]:
        return {w} | {w[: -len(e)] for e in endings if len(w) > len(e) + 1 and w.endswith(e)}

    return a != b and bool(stems(a) & stems(b))


@dataclass(frozen=True)
class Decision:
    after: str
    kind: str
    method: str
    confidence: float
    candidates: tuple[str, ...]
    evidence: str
    apply: bool


class Context:
    """Bigram evidence for one text: the witness's own word and bigram counts."""

    def __init__(self, repairer: Repairer, text: str, enabled: bool):
        self.enabled = enabled
        self.doc: Counter[str] | None
        self.bi: Counter[tuple[str, str]]
        self.other: Counter[tuple[str, str]]
        self.other_uni: Counter[str]
        self.pool: list[str]
        self.cache: dict = {}
        self.sentence_start = False
        cfg = repairer.cfg
        self.weight = cfg.context_weight
        if enabled:
            # evidence comes from this text alone (plus the data files): cleaning one witness never
            # depends on the other scans of the corpus, so its cached result stays valid when one is added
            self.doc, self.bi = repairer.text_counts(text)  # (shared with the other passes: read only)
            self.other, self.other_uni = Counter(), Counter()
            n = cfg.corpus_min_count + 1
            if not repairer.local or sum(self.doc.values()) < cfg.context_min_tokens:
                self.pool = []  # too little text to be evidence
            else:
                pool = set(repairer.local)
                pool.update(w for w, k in self.doc.items() if k >= n and w.isalpha())
                self.pool = sorted(pool)
        else:
            self.pool = []
            self.doc, self.bi, self.other, self.other_uni = None, Counter(), Counter(), Counter()

    def score(self, prev: str, w: str, nxt: str, observed: bool = False) -> float:
        """Bigram evidence for ``w`` between ``prev`` and ``nxt`` (the printed word's own occurrence
        does not count as evidence for itself)."""
        if not self.enabled:
            return 0.0
        n = 0
        for pair in ((prev, w), (w, nxt)):
            n += self.other.get(pair, 0) + max(0, self.bi.get(pair, 0) - (1 if observed else 0))
        return self.weight * math.log10(1 + n)

    def attested(self, w: str, observed: bool = False) -> int:
        """How often the witness and the corpus use ``w`` (minus the printed occurrence itself)."""
        if not self.enabled or self.doc is None:
            return 0
        return self.doc.get(w, 0) + self.other_uni.get(w, 0) - (1 if observed else 0)


class Decider:
    """Decides, token by token, whether a repairer's best candidate replaces the printed word."""

    def __init__(self, rep: "Repairer"):
        self.cfg, self.lang, self.zipf, self.domain = rep.cfg, rep.lang, rep.zipf, rep.domain
        self.protected, self.zipf_of, self.prior, self.memo = rep.protected, rep.zipf_of, rep.prior, rep.memo
        s = rep.search
        self.candidates, self.local_candidates, self.split_candidates, self.accent_variants = (
            s.candidates,
            s.local_candidates,
            s.split_candidates,
            s.accent_variants,
        )

    def decide(self, tok: str, prev: str, nxt: str, ctx) -> Decision | None:
        """Repair decision for one token (None: keep as printed, nothing to report)."""
        cfg = self.cfg
        lw = tok.lower().replace("’", "'")
        z = self.zipf.get(lw, 0.0)
        if z >= max(cfg.nonword_zipf, cfg.real_word_zipf) and not ctx.pool:
            return None  # a known word, and no corpus evidence to judge it by
        if self.protected(lw):
            return None
        shapes = self.memo("token_shapes")
        shape = shapes.get(tok)
        if shape is None:
            letters = sum(c.isalpha() for c in tok)
            shape = shapes[tok] = (
                letters < 2 or letters < len(tok) - letters,
                any(c in JUNK or c.isdigit() for c in tok),
            )
        too_few_letters, has_junk = shape
        if too_few_letters:
            return None
        # capitalised words inside a sentence are likely names: leave them unless debris is in them
        if not has_junk and tok[:1].isupper() and not ctx.sentence_start and len(tok) > 1 and not tok.isupper():
            lookalike = tok[0] in cfg.cap_lookalikes and tok[1:].islower() and self.zipf_of(lw) == 0.0 and self.domain
            if self.zipf.get(lw, 0) < cfg.word_min_zipf and not lookalike:
                return None
        if tok.isupper() and len(tok) > 1 and not has_junk:
            return None
        if cfg.accent_variants and self.domain and not has_junk and self.zipf.get(lw, 0.0) == 0.0 and tok.isalpha():
            # an unknown token whose only known accent variant is a word (s'apercevrâit): OCR misread an
            # accent; the variant may be too rare for the candidate index, its uniqueness is the evidence
            # (witness text only: on ICDAR FR dev, whose gold keeps many misread accents, 11 helpful / 47 harmful)
            vs = self.accent_variants(lw)
            if len(vs) == 1:
                w = vs[0]
                return Decision(
                    case_like(tok, w),
                    "spelling",
                    "lexicon:accent-variant",
                    0.8,
                    (w,),
                    f"{tok!r}: the only known word differing by accents is {w!r} (zipf {self.zipf_of(w):.2f})",
                    True,
                )
        if (
            cfg.witness_often
            and self.domain
            and not has_junk
            and tok.isalpha()
            and ctx.doc
            and ctx.pool
            and 0.0 < self.zipf.get(lw, 0.0) < cfg.witness_rare_zipf
            and ctx.doc.get(lw, 0) <= 1
        ):
            # a rare word printed once, one cheap edit from a word the witness prints often (cartels/cartes)
            near = [
                (w, c)
                for w, c in self.local_candidates(tok, ctx)
                if c <= cfg.witness_max_cost
                and ctx.doc.get(w, 0) >= cfg.witness_often
                and len(w) >= 4
                and not inflection_of(lw, w, cfg.witness_inflections)
            ]
            if len(near) == 1:
                w, c = near[0]
                return Decision(
                    case_like(tok, w),
                    "real_word",
                    "witness-frequency",
                    0.7,
                    (w,),
                    f"{tok!r} (zipf {self.zipf_of(lw):.2f}, printed once) vs {w!r} printed {ctx.doc[w]} times (cost {c:.2f})",
                    True,
                )
        obs_z = self.zipf_of(lw) if not has_junk else 0.0
        obs = self.prior(lw, ctx.doc) + ctx.score(prev, lw, nxt, observed=True) if not has_junk else 0.0
        if has_junk:
            obs = cfg.junk_obs_score
        first = None
        modes = []
        if obs_z < cfg.nonword_zipf:
            modes.append(False)
        if obs_z >= cfg.real_word_zipf and ctx.pool:
            modes.append(True)
        for real in modes:
            d = self._decide(tok, lw, prev, nxt, ctx, obs, real)
            if d is not None and d.apply:
                return d
            first = first or d
        return first

    def _decide(self, tok, lw, prev, nxt, ctx, obs, real) -> Decision | None:
        cfg = self.cfg
        if real:
            # real word: only candidates with context evidence can beat it
            cands = [(w, c) for w, c in self.local_candidates(tok, ctx) if w != lw and c <= cfg.real_word_max_cost]
            scored = []
            seen_obs = ctx.attested(lw, observed=True)
            for w, c in cands:
                cs = ctx.score(prev, w, nxt)
                local = (w in self.domain or ctx.attested(w) >= cfg.corpus_min_count + 1) and seen_obs == 0
                if cs <= 0 and not local:
                    continue
                scored.append((self.prior(w, ctx.doc) + cs - cfg.channel_scale * c, w, c))
            margin = cfg.real_word_margin
            kind, method = "real_word", "context-bigram+confusion"
        else:
            # a token no lexicon knows (or with debris in it) has no evidence for itself: the choice is
            # among the candidates (own channel scale), against a lower margin
            unknown = (
                obs <= cfg.junk_obs_score and self.zipf_of(lw) == 0.0 or any(ch in JUNK or ch.isdigit() for ch in tok)
            )
            scale = cfg.unknown_channel_scale if unknown and self.domain else cfg.channel_scale
            scored = self._score_candidates(tok, lw, prev, nxt, ctx, scale)
            if self.domain or cfg.general_splits:
                scored += self.split_candidates(tok, ctx, scale)
            # (only with a witness's domain resources: on general text the measured precision of
            # lower margins is too low, see evaluate_clean)
            margin = (cfg.unknown_margin if unknown and self.domain else cfg.margin) + (
                cfg.short_margin if len(lw) <= 3 else 0.0
            )
            kind, method = "spelling", "lexicon+confusion-levenshtein"
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        best, w, c = scored[0]
        second = scored[1][0] if len(scored) > 1 else -99.0
        gain = best - obs
        sep = best - second
        conf = 1.0 / (1.0 + 10 ** (-(min(gain - margin, sep) + cfg.conf_offset)))
        if gain < margin - cfg.flag_band:
            return None
        if " " in w:
            kind, method = "split", "lexicon:split"
        model = tok
        if not ctx.sentence_start and tok[:1].isupper() and not tok.isupper() and tok[:1].lower() != w[:1]:
            model = tok.lower()  # an upper-case look-alike (I for j) inside a sentence
        after = (
            case_like(model, w)
            if " " not in w
            else case_like(model, w.split(" ")[0]) + " " + " ".join(w.split(" ")[1:])
        )
        cands_s = tuple(x[1] for x in scored[: cfg.report_candidates])
        ev = f"{tok!r}: best {w!r} score {best:.2f} (cost {c:.2f}) vs printed {obs:.2f}, next {second:.2f}"
        apply = gain >= margin and conf >= cfg.apply_confidence
        if not real and not self.domain and self.lang == "fr" and sep < cfg.general_fr_min_separation:
            apply = False  # general French text: only a clearly unique candidate is applied
        return Decision(after, kind, method, round(conf, 3), cands_s, ev, apply)

    def _score_candidates(
        self, tok: str, lw: str, prev: str, nxt: str, ctx, scale: float
    ) -> list[tuple[float, str, float]]:
        """``prior(w, ctx.doc) + ctx.score(prev, w, nxt) - scale * cost`` for every candidate ``w`` of ``tok``
        other than ``lw``: the same sums, with the part that does not depend on the text (the lexicon prior)
        cached per token."""
        memo = self.memo("cand_prior")
        static = memo.get(tok)
        if static is None:
            static = memo[tok] = [(w, c, self.prior(w)) for w, c in self.candidates(tok)]
        cfg = self.cfg
        doc = ctx.doc
        cmin, boost = cfg.corpus_min_count, cfg.corpus_boost
        enabled, bi, other, weight = ctx.enabled, ctx.bi, ctx.other, ctx.weight
        # most candidates are words the text does not print: no count and no bigram of the text holds
        # them, so (with no other texts' bigrams) their sum is the lexicon part and the score of no evidence
        quiet = enabled and not other
        none = weight * math.log10(1)  # (the value the loop below computes for n = 0)
        out = []
        for w, c, z in static:
            if w == lw:
                continue
            if quiet and w not in doc:
                out.append((z + none - scale * c, w, c))
                continue
            if doc:
                n = doc.get(w, 0)
                if n >= cmin:
                    z += boost * math.log10(n)
            if enabled:
                n = 0
                for pair in ((prev, w), (w, nxt)):
                    n += other.get(pair, 0) + max(0, bi.get(pair, 0))
                s = weight * math.log10(1 + n)
            else:
                s = 0.0
            out.append((z + s - scale * c, w, c))
        return out
