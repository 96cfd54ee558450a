"""The language-model voice's proposals and decisions: the doubtful tokens of a text with their candidates
(:func:`proposals`), their ranking and the verdict for a setting (:func:`decide`), the voice for a text
(:func:`voice_for`) and the witness's own slips (:func:`witness_slips`); see :mod:`pipeline.clean.lm`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate

import regex

from ..config import LMConfig
from .voice import BOUNDARY, Voice, gcide_words

# words, debris-laden tokens and sentence ends (a comma does not break the context: the model has none)
LM_TOKEN = regex.compile(r"(?:[\p{L}\p{M}\p{N}^*|$%»'’{}<>\\]|(?<=\p{L})[()](?=\p{L}))+|[.!?;:]")
LM_TOKEN_SPLIT = regex.compile("(" + LM_TOKEN.pattern + ")")  # (the same tokens as one group, for a split)
JUNK_CHARS = "^|*{}<>%$\\;"
_JUNK_OR_BRACKET = frozenset(JUNK_CHARS + "()")  # (has_junk's first test, one set look-up per character)
# a number of two digits or more after (before) a hyphen: the hyphen is a dash, not a word's (OFrIces-44)
NUMBER_AFTER = regex.compile(r"\d\d")
NUMBER_BEFORE = regex.compile(r"\d\d$")
SPLIT_TAIL = regex.compile(r"\p{L}[-¬][ \t]*\n?[ \t]*$")  # before the second half of a word split at a kept hyphen


@dataclass(frozen=True)
class Proposal:
    """A doubtful token of the text and its candidates as (word, channel cost, LM change)."""

    start: int
    end: int
    printed: str
    known: bool  # a word of the lexicon (real-word judgement) rather than a non-word
    rare: bool  # a word some lexicon or voice knows, rarer than the cleaner's nonword_zipf
    junk: bool  # debris characters or digits inside
    cands: tuple[tuple[str, float, float], ...]
    name: bool = False  # capitalised inside a sentence (a name, unless misread)
    letter: bool = False  # a lone lower-case letter that is no word (never flagged: initials, sections)
    split: bool = False  # two printed tokens judged as one word a space was read into (split_proposal)


@dataclass(frozen=True)
class Verdict:
    start: int
    end: int
    printed: str
    after: str | None  # the repair, or None: flagged or kept
    flag: bool
    gain: float
    candidates: tuple[str, ...]
    evidence: str


def has_junk(tok: str) -> bool:
    """Debris characters (or a bracket between letters) mixed with letters, or digits inside a word."""
    if not _JUNK_OR_BRACKET.isdisjoint(tok) and any(map(str.isalpha, tok)):
        return True
    if not any(map(str.isdigit, tok)):
        return False  # (DIGIT_INSIDE needs a decimal digit, which isdigit is true of)
    from ...junk import DIGIT_INSIDE, ORDINAL

    core = tok.strip("'’»")
    return bool(DIGIT_INSIDE.search(core)) and not ORDINAL.fullmatch(core)


def _token_facts(t: str, lw: str, rep) -> tuple:
    """What :func:`proposals` asks of a printed token ``t`` (``lw``: its lower-case word) that depends on it
    and the repairer alone, asked once per token: (any letter, :func:`has_junk`, letters, core without
    edge quotes, an apostrophe where no word has one, core all letters, a number in digit look-alikes
    (mixed case, every letter one), protected, zipf)."""
    look = rep.res.lexdata.lookalikes
    if t.isalpha():  # (most tokens: no quote to strip, no debris nor digit, every character a letter)
        mixed = any(map(str.islower, t)) and any(map(str.isupper, t[1:]))
        lookalike = mixed and all(map(look.__contains__, t))
        return (True, False, len(t), t, False, True, lookalike, rep.protected(lw), rep.zipf_of(lw))
    core = t.strip("'’»")
    core_alpha = core.isalpha()
    odd_apostrophe = (
        not core_alpha
        and core.replace("'", "").replace("’", "").isalpha()
        and (rep.zipf_of(lw) == 0.0 or bad_elision(lw, rep))
    )
    mixed = any(map(str.islower, core)) and any(map(str.isupper, core[1:]))
    return (
        any(map(str.isalpha, t)),
        has_junk(t),
        sum(map(str.isalpha, t)),
        core,
        odd_apostrophe,
        core_alpha,
        mixed and all(map(look.__contains__, core)),
        rep.protected(lw),
        rep.zipf_of(lw),
    )


def bad_elision(lw: str, rep) -> bool:
    """French: an apostrophe after something no elision ends with (six'et), a word of no lexicon.  Where
    ``contractions.tsv`` lists the language (English): an apostrophe between letters with neither a
    contraction's or possessive's ending after it nor a listed head before it (``fo'lowing``, ``s'eam``; not
    ``don't``, ``day's``, ``o'clock``, ``m'kymon``), a word of no lexicon."""
    if "'" not in lw:
        return False
    lex = rep.res.lexdata
    if rep.lang != "fr" and lex.apostrophe_ends:
        head, _, tail = lw.partition("'")
        return (
            head.isalpha()
            and tail.isalpha()
            and tail not in lex.apostrophe_ends
            and head not in lex.apostrophe_heads
            and lw not in rep.zipf
            and not rep.protected(lw)
        )
    if rep.lang != "fr":
        return False
    head = lw.split("'", 1)[0]
    return head not in rep.elision and lw not in rep.zipf and not rep.protected(lw)


def frequent_neighbours(lw: str, rep, cfg: LMConfig) -> list[tuple[str, float]]:
    """The words at least ``cfg.frequent_zipf`` frequent one plain edit (or one confusion) from the known word
    ``lw``, with their channel cost: the short function words an OCR slip turns into another word."""
    memo = rep.memo("lm_frequent_neighbours")
    key = (lw, cfg.frequent_zipf)
    hit = memo.get(key)
    if hit is None:
        pools = rep.res.derived("lm_frequent_pools")  # (with the resources: the same for every repairer)
        pool = pools.get(("pool", cfg.frequent_zipf))
        if pool is None:
            pool = pools["pool", cfg.frequent_zipf] = sorted(
                w for w, z in rep.zipf.items() if z >= cfg.frequent_zipf and w.isalpha()
            )
        near = [w for w in near_words(lw, pool, pools, cfg.frequent_zipf) if w != lw and len(w) > 1]
        hit = memo[key] = [(w, c) for w, c in zip(near, rep.channel.costs(lw, near, 1.0)) if c <= 1.0]
    return hit


def _deletes1(w: str) -> set[str]:
    return {w} | {w[:k] + w[k + 1 :] for k in range(len(w))}


def near_words(lw: str, pool: list[str], memo: dict, key) -> list[str]:
    """The words of ``pool`` (sorted) at most one Levenshtein edit from ``lw``, nearest first, then in pool
    order: what ``rapidfuzz.process.extract(lw, pool, scorer=Levenshtein.distance, score_cutoff=1,
    limit=None)`` returns, found through an index of each word and its one-letter deletions (built once
    in ``memo``; two strings one edit apart share one of these) instead of a scan of the pool."""
    from rapidfuzz.distance import Levenshtein

    index = memo.get(("index", key))
    if index is None:
        index = {}
        for k, w in enumerate(pool):
            for d in _deletes1(w):
                index.setdefault(d, []).append(k)
        memo["index", key] = index
    found: set[int] = set()
    for d in _deletes1(lw):
        found.update(index.get(d, ()))
    dist = Levenshtein.distance
    return [pool[k] for n, k in sorted((dist(lw, pool[k]), k) for k in found) if n <= 1]


def hyphen_proposal(text: str, toks, words, i: int, rep, voice: Voice, cfg: LMConfig) -> Proposal | None:
    """The word ``toks[i]-toks[i+1]`` as one doubtful token, where a letter was read as a hyphen (mea-ure,
    Maj-sty, count-y): the two halves joined by one hyphen inside a line, no lexicon word as printed, and
    one half no frequent word (``hyphen_half_zipf``) nor a protected one.  Its candidates are the whole token's; the window's change is
    that of the two printed words read as one."""
    s, e, t = toks[i]
    if text[e : e + 1] != "-" or i + 1 >= len(toks) or toks[i + 1][0] != e + 1 or (s and text[s - 1] in "-¬"):
        return None
    s2, e2, t2 = toks[i + 1]
    if text[e2 : e2 + 1] in ("-", "¬") or not (t.isalpha() and t2.isalpha()):
        return None
    whole = text[s:e2]
    lw = whole.lower()
    if rep.zipf.get(lw, 0.0) > 0.0 or rep.protected(lw):  # (zipf_of would score it by its halves)
        return None
    halves = (words[i], words[i + 1])
    if all(len(h) > 1 and rep.zipf_of(h) >= cfg.hyphen_half_zipf or rep.protected(h) for h in halves):
        return None  # (two words: a compound, or a real-word slip in one of them)
    cands = [(w, c) for w, c in rep.search.candidates(whole) if w != lw and " " not in w][: cfg.max_candidates]
    if not cands:
        return None
    return _joined(s, e2, whole, words, i, cands, voice)


def _joined(s: int, e2: int, whole: str, words, i: int, cands, voice: Voice, split: bool = False) -> Proposal:
    """The proposal of the printed tokens ``words[i]`` and ``words[i + 1]`` read as one word: each candidate's
    window change is that of the two printed words read as it."""
    lw = "".join(words[i : i + 2])
    merged = words[:i] + [lw] + words[i + 2 :]
    base = voice.window(words, i, words[i]) + voice.logp(
        words[i + 3] if i + 3 < len(words) else BOUNDARY, words[i + 2] if i + 2 < len(words) else BOUNDARY, words[i + 1]
    ) * (i + 3 < len(words) and words[i + 2] != BOUNDARY and words[i + 3] != BOUNDARY)
    scored = tuple((w, c, voice.window(merged, i, w) - base) for w, c in cands)
    return Proposal(s, e2, whole, False, False, False, scored, False, split=split)


def split_proposal(text: str, toks, words, i: int, rep, voice: Voice, cfg: LMConfig) -> Proposal | None:
    """The tokens ``toks[i] toks[i+1]`` as one doubtful word, where OCR read a space into a damaged word
    (``stre rgth``, ``servi e``): one space apart on a line, letters only, their join no word, the second in lower
    case, neither piece a word (:func:`_piece`: at most one of them a lone letter, with ``split_letters``).  Its
    candidates are the join's at most ``split_max_cost`` away; judged at ``split_margin``."""
    if i + 1 >= len(toks):
        return None
    s, e, t = toks[i]
    s2, e2, t2 = toks[i + 1]
    if s2 != e + 1 or text[e] != " " or not (t.isalpha() and t2.isalpha() and t2.islower()):
        return None
    kinds = [_piece(h, rep, cfg) for h in words[i : i + 2]]
    if "word" in kinds or kinds.count("letter") > 1:
        return None  # (a word beside a non-word: beror and is no bertrand, hed be no hedge, to lus no tolls)
    lw = words[i] + words[i + 1]  # (asked after the halves: most pairs are two words, their join a new string)
    if rep.zipf.get(lw, 0.0) > 0.0 or rep.protected(lw):
        return None
    cands = [(w, c) for w, c in rep.search.candidates(t + t2) if w != lw and " " not in w and c <= cfg.split_max_cost][
        : cfg.max_candidates
    ]
    if not cands:
        return None
    return _joined(s, e2, text[s:e2], words, i, cands, voice, split=True)


def _piece(w: str, rep, cfg: LMConfig) -> str:
    """What a printed piece of a possibly split word is: ``"letter"``, a lone letter the language does not print
    alone as a word (``capital_letters.tsv``: English a i o), a piece when ``cfg.split_letters`` (``servi e``,
    ``d livcrcd``); ``"non"``, no word of the lexicon (rarer than ``nonword_zipf``) nor protected, of two
    letters or more; else ``"word"``."""
    if len(w) == 1:
        return "letter" if cfg.split_letters and w not in rep.res.lexdata.capital_letters else "word"
    if rep.zipf_of(w) >= rep.cfg.nonword_zipf or rep.protected(w):
        return "word"
    return "non"


def compound_half(text: str, toks, i: int, rep) -> bool:
    """Whether ``toks[i]`` is a half of a compound printed with an inline hyphen (``Quejn-street``,
    ``ex-Empcror``): a letter on each side of the hyphen, no space nor line break around it, no other hyphen
    or ``¬`` beside the two halves, and the other half a word of the lexicon (two halves no lexicon knows,
    ``Sanctifica-tiou``, are more likely a line-end fragment kept with its hyphen)."""
    s, e, _t = toks[i]
    if text[e : e + 1] == "-" and i + 1 < len(toks) and toks[i + 1][0] == e + 1:
        other = toks[i + 1]
        inline = not (s and text[s - 1] in "-¬") and text[other[1] : other[1] + 1] not in ("-", "¬")
    elif i and text[s - 1 : s] == "-" and toks[i - 1][1] == s - 1:
        other = toks[i - 1]
        inline = text[e : e + 1] not in ("-", "¬") and not (other[0] and text[other[0] - 1] in "-¬")
    else:
        return False
    w = other[2].lower()
    return inline and other[2].isalpha() and (rep.zipf_of(w) >= rep.cfg.nonword_zipf or rep.protected(w))


def name_variants(lw: str, cands, rep, voice: Voice, cfg: LMConfig) -> tuple[list[tuple[str, float]], set[str]]:
    """``cands`` of a name no lexicon knows (``Chestertoo``, ``Fountainbridgc``) with the words of any
    frequency it becomes when cheap OCR confusions are undone (at most ``name_variant_cost`` in their listed
    costs): names are rare words, below the candidate index's frequency.  Cheapest first; and those of them
    that only a lexicon knows (no voice: their window gains ``name_lexicon_gain``)."""
    have = {w for w, _ in cands}
    extra = [
        v
        for v in rep.search.variants(lw, cfg.name_variant_cost)
        if v != lw and v not in have and (rep.zipf.get(v, 0.0) > 0.0 or voice.known(v))
    ]
    if not extra:
        return list(cands), set()
    more = [(w, c) for w, c in zip(extra, rep.channel.costs(lw, extra)) if c <= cfg.name_variant_cost]
    return sorted([*cands, *more], key=lambda x: (x[1], x[0])), {w for w, _ in more if not voice.known(w)}


def may_reach(voice: Voice, words: list[str], i: int, cands, margin: float, cfg: LMConfig) -> bool:
    """Whether some candidate ``(word, cost)`` of ``words[i]`` could score at least ``margin`` (speed only:
    False is exact, True may not be).  Every ``Voice.logp`` is <= 0 (the log of a mixture of
    probabilities, its floors below 0), so the window's terms summed so far bound it from above: a
    candidate is dropped as soon as they fall below what its channel cost and the margin require.
    ``cands=None``: any candidates, none costing less than 0."""
    if cfg.lam <= 0.0 or max(cfg.unk_logp, cfg.period_logp, cfg.unigram_floor) > 0.0:
        return True
    left1 = words[i - 1] if i >= 1 else BOUNDARY
    left2 = (words[i - 2] if i >= 2 else BOUNDARY) if left1 != BOUNDARY else ""
    r1 = words[i + 1] if i + 1 < len(words) else BOUNDARY
    r2 = words[i + 2] if i + 2 < len(words) and r1 != BOUNDARY else BOUNDARY
    base = voice.window(words, i, words[i]) - 1e-6  # (slack: the window sums its terms in another order)
    if voice.vec is not None:
        base -= voice.vec.max_gain  # (the vectors add at most this to a candidate's change)
    if cands is None:
        return base + margin / cfg.lam <= 0.0
    logp = voice.logp
    for w, c in cands:
        need = base + (margin + cfg.channel_scale * c) / cfg.lam
        if need > 0.0:
            continue
        # (the terms that change with the word after it first: they fall the most for a wrong reading)
        if r1 != BOUNDARY:
            s = logp(r1, w, left1)
            if s < need:
                continue
            if r2 != BOUNDARY:
                s += logp(r2, r1, w)
                if s < need:
                    continue
        else:
            s = 0.0
        if s + logp(w, left1, left2) >= need:
            return True
    return False


def lm_tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, token) of each :data:`LM_TOKEN` of ``text``: those of ``finditer``, found in one C call
    (the split alternates gaps and tokens, so the offsets are running sums of their lengths)."""
    parts = LM_TOKEN_SPLIT.split(text)
    ends = list(accumulate(map(len, parts)))
    return list(zip(ends[0::2], ends[1::2], parts[1::2]))


def proposals(text: str, rep, voice: Voice, cfg: LMConfig = LMConfig(), prune: bool = False) -> list[Proposal]:
    """The doubtful tokens of ``text`` with their scored candidates.

    ``rep`` is the cleaner's :class:`pipeline.clean.repairer.Repairer` (lexicon, protected words, channel and
    candidate retrieval).  Names (capitalised inside a sentence, no debris), capitals, protected words
    (historical, domain, ``voice.period``), numbers and one-letter tokens are not judged.  ``prune``: leave
    out the known, rare and letter tokens that :func:`decide` with ``cfg`` would keep as printed without a
    flag (no candidate can reach their margin, :func:`may_reach`): what the cleaning pass needs, not what a
    search over the margins needs."""
    toks = lm_tokens(text)
    words = [BOUNDARY if t in ".!?;:" else t.lower().replace("’", "'").strip("'") for _, _, t in toks]
    out = []
    facts = rep.memo("lm_token_facts")  # (token -> _token_facts: what depends on the printed token alone)
    rw_memo = None  # (the known words' candidates, realword_candidates: taken when first needed)
    joined_at = -1  # (the end of the last hyphen_proposal: its second half is not judged alone)
    # (a language outside strong_langs, no grammar hints and no real-word judgement: a known word of letters
    # ends at a `continue` below whatever its place, no split, hyphen or letter proposal being made there;
    # it leaves at once, most French tokens)
    known_leave = (
        rep.lang not in cfg.strong_langs
        and not voice.grammar
        and (not cfg.realword or voice.tri is None and voice.bg is None)
    )
    nonword_zipf = rep.cfg.nonword_zipf
    for i, (s, e, t) in enumerate(toks):
        lw = words[i]
        if lw == BOUNDARY:
            continue
        f = facts.get(t)
        if f is None:
            f = facts[t] = _token_facts(t, lw, rep)
        alpha, junk, n_alpha, core, odd_apostrophe, core_alpha, lookalike_number, protected, z_printed = f
        if not alpha:
            continue
        if known_leave and core_alpha and not junk and z_printed >= nonword_zipf and z_printed > 0.0:
            continue
        hinted = voice.grammar.get((s, e)) if voice.grammar else None
        letter = False
        split_here = cfg.split_margin < 99.0 and not junk and rep.lang in cfg.strong_langs
        if split_here and n_alpha == 1 and cfg.split_letters:
            p = split_proposal(text, toks, words, i, rep, voice, cfg)  # (a lone letter as a split word's head)
            if p is not None:
                out.append(p)
            split_here = False
        if not junk and not hinted and n_alpha < cfg.min_letters:
            # a lone lower-case letter inside a sentence (i 1 the best, sources o intelligence) is judged
            # against the frequent words one edit from it; not an initial or an abbreviation (s. d., b.)
            if not (
                rep.lang in cfg.strong_langs
                and len(t) == 1
                and t.islower()
                and text[e : e + 1] not in (".", "'", "’", "-")
                and i
                and words[i - 1] != BOUNDARY
                and not text[max(0, s - 2) : s].strip()[-1:].isdigit()
            ):
                continue
            letter = True
        # (split_proposal's test of the first half, known from the token's facts: most tokens leave here)
        if split_here and not letter and not (z_printed >= rep.cfg.nonword_zipf or protected):
            p = split_proposal(text, toks, words, i, rep, voice, cfg)
            if p is not None:
                out.append(p)  # (and the token's own proposal below: the pass keeps the better repair)
        if cfg.hyphen_words and not junk and not letter and text[e : e + 1] == "-" and rep.lang in cfg.strong_langs:
            p = hyphen_proposal(text, toks, words, i, rep, voice, cfg)
            if p is not None:
                out.append(p)
                joined_at = p.end
                continue
        tail = text[max(0, s - 8) : s]  # (SPLIT_TAIL needs a hyphen there: looked for first)
        if (
            (text[e : e + 1] in ("-", "¬") and not NUMBER_AFTER.match(text, e + 1))
            or (s and text[s - 1] in "-¬" and not NUMBER_BEFORE.search(text, max(0, s - 3), s - 1))
            or (("-" in tail or "¬" in tail) and SPLIT_TAIL.search(text, max(0, s - 8), s))
        ) and not (
            cfg.compound_halves
            and rep.lang in cfg.strong_langs
            and z_printed < rep.cfg.nonword_zipf
            and joined_at != e
            and compound_half(text, toks, i, rep)
        ):
            continue  # half of a hyphenated word (a line-end fragment: atten- tion, with the hyphen kept; a dash
            # joining it to a number of two digits or more, OFrIces-44, makes none: fee-1 may be one, 1 for d)
        junk = junk or odd_apostrophe  # (an apostrophe where no word has one)
        if not junk and not core_alpha:
            continue
        if rep.lang in cfg.strong_langs and lookalike_number:
            continue  # a number in digit look-alikes (page lOO): read as digits or not at all, never as a word
        if protected:
            continue  # (a GCIDE word is only backed off, not protected: Webster lists "tho", "tbe" is not)
        start = i == 0 or words[i - 1] == BOUNDARY
        z = z_printed if not junk else 0.0
        name = False
        if not junk and not letter and ((core[:1].isupper() and not start) or (core.isupper() and len(core) > 1)):
            # a capitalised word inside a sentence is a name unless no lexicon or voice knows it (short ones
            # too, Tbe, Vn, where names are judged: a name of two or three letters is in some lexicon)
            short = len(core) < (2 if rep.lang in cfg.strong_langs else 4)
            if z > 0.0 or voice.known(lw) or short:
                continue
            name = True
        if letter:
            cands = frequent_neighbours(lw, rep, _letter_cfg(cfg))
            cands = [(w, c) for w, c in cands if w != lw and w.isalpha()][: cfg.max_candidates]
            if cands and (not prune or may_reach(voice, words, i, cands, _margin(True, False, False, False, cfg), cfg)):
                scored = tuple((w, c, voice.delta(words, i, w)) for w, c in cands)
                out.append(Proposal(s, e, t, False, False, False, scored, False, True))
            continue
        known = z >= rep.cfg.nonword_zipf
        rare = not known and not junk and (z > 0.0 or voice.known(lw))
        if prune and rare and not hinted and cfg.channel_scale >= 0.0 and rep.channel.monotone:
            # (no candidate costs less than 0 and no window has a log10 probability above 0: a rare word whose
            # printed window is more probable than 10 ** -margin cannot be repaired, whatever its candidates)
            if not may_reach(voice, words, i, None, _margin(False, False, True, False, cfg), cfg):
                continue
        if known and hinted:
            # French: a grammar rule fired on this word; its suggestions are the candidates
            gc: list[tuple[str, float]] = []
            for sug, _rule in hinted:
                sw = sug.lower()
                if sw != lw and sw not in (x for x, _ in gc):
                    c = rep.channel.cost(lw, sw, cfg.grammar_max_cost)
                    if c <= cfg.grammar_max_cost:
                        gc.append((sw, c))
            if not gc:
                continue
            scored = tuple((w, c, voice.delta(words, i, w) + cfg.w_grammar) for w, c in gc)
            out.append(Proposal(s, e, t, known, rare, junk, scored, name))
            continue
        lexical: set[str] = set()  # (a name's variants that only a lexicon knows: name_variants)
        if known:
            if not cfg.realword or voice.tri is None and voice.bg is None:
                continue
            # a known word is judged only where the model finds it improbable (itself or the word after it),
            # and only when it has candidates: they depend on the word alone, found the first time it is
            # judged; a word found to have none leaves at its next occurrence after one look-up
            if rw_memo is None:
                rw_memo = rep.memo("lm_realword_candidates" if voice.bg is not None else "lm_realword_candidates_zipf")
            cands = rw_memo.get(realword_key(lw, cfg))
            if cands is not None and not cands:
                continue
            l1 = words[i - 1] if i else BOUNDARY
            l2 = words[i - 2] if i >= 2 and l1 != BOUNDARY else ""
            r1 = words[i + 1] if i + 1 < len(words) else BOUNDARY
            here = voice.logp(lw, l1, l2)
            if here >= cfg.realword_max_logp and (r1 == BOUNDARY or voice.logp(r1, lw, l1) >= cfg.realword_max_logp):
                continue
            if cands is None:
                cands = realword_candidates(lw, rep, voice, cfg)
                if not cands:
                    continue
        else:
            cands = rep.search.candidates(core)
            if (
                name
                and cfg.name_variant_cost > 0.0
                and rep.lang in cfg.strong_langs
                and len(core) >= cfg.name_variant_min_len
                and not core.isupper()
            ):
                cands, lexical = name_variants(lw, cands, rep, voice, cfg)
            cands = [(w, c) for w, c in cands if w != lw and " " not in w][: cfg.max_candidates]
        if prune and (known or rare):  # (never flagged: a repair or nothing)
            if not may_reach(voice, words, i, cands, _margin(False, known, rare, name, cfg), cfg):
                continue
        if lexical:  # (a name's variants no voice knows: a lexicon word against a non-word)
            scored = tuple(
                (w, c, voice.delta(words, i, w) + (cfg.name_lexicon_gain if w in lexical else 0.0)) for w, c in cands
            )
        else:
            scored = tuple((w, c, voice.delta(words, i, w)) for w, c in cands)
        out.append(Proposal(s, e, t, known, rare, junk, scored, name))
    return out


def realword_key(lw: str, cfg: LMConfig) -> tuple:
    """The memo key of :func:`realword_candidates`: the word and the settings its answer depends on."""
    short = len(lw) <= cfg.frequent_max_len and cfg.frequent_zipf < 99.0
    return (lw, cfg.realword_max_cost, cfg.frequent_zipf if short else None, cfg.max_candidates)


def realword_candidates(lw: str, rep, voice: Voice, cfg: LMConfig) -> list[tuple[str, float]]:
    """The candidates (word, channel cost) of the known word ``lw``, cheapest first, at most
    ``max_candidates``: the words of the general pairs' vocabulary (else of the lexicon) one or two cheap
    confusions away (at most ``realword_max_cost``) and, for a short word, the frequent words one edit
    away (:func:`frequent_neighbours`).  Memoised per word and settings."""
    memo = rep.memo("lm_realword_candidates" if voice.bg is not None else "lm_realword_candidates_zipf")
    short = len(lw) <= cfg.frequent_max_len and cfg.frequent_zipf < 99.0
    top = realword_key(lw, cfg)
    hit = memo.get(top)
    if hit is not None:
        return hit
    cands = memo.get((lw, cfg.realword_max_cost))
    if cands is None:
        vocab = voice.bg.words if voice.bg is not None else rep.zipf
        cands = memo[lw, cfg.realword_max_cost] = [
            (w, c) for w, c, _ in rep.search.context_candidates(lw, True, vocab) if c <= cfg.realword_max_cost
        ]
    if short:
        # (both parts are kept per word: so is their union)
        key = (lw, cfg.realword_max_cost, cfg.frequent_zipf)
        both = memo.get(key)
        if both is None:
            both = memo[key] = sorted(set(cands) | set(frequent_neighbours(lw, rep, cfg)), key=lambda x: (x[1], x[0]))
        cands = both
    out = memo[top] = [(w, c) for w, c in cands if w != lw and " " not in w][: cfg.max_candidates]
    return out


def rank(p: Proposal, cfg: LMConfig) -> list[tuple[float, str, float, float]]:
    """The candidates of ``p`` as (score, word, cost, LM change), best first:
    score = lam x LM change - channel_scale x cost."""
    return sorted(((cfg.lam * d - cfg.channel_scale * c, w, c, d) for w, c, d in p.cands), reverse=True)


def margin_of(p: Proposal, cfg: LMConfig) -> float:
    """The score gain a repair of ``p`` needs: that of its kind (split, letter, real, rare word, name, non-word)."""
    return cfg.split_margin if p.split else _margin(p.letter, p.known, p.rare, p.name, cfg)


def _margin(letter: bool, known: bool, rare: bool, name: bool, cfg: LMConfig) -> float:
    """:func:`margin_of` from the proposal's kind alone (the pruning asks it before any proposal is made)."""
    if letter:
        return cfg.letter_margin
    if known:
        return cfg.realword_margin
    if rare:
        return cfg.rare_margin
    return cfg.name_margin if name else cfg.margin


@lru_cache(maxsize=16)
def _letter_cfg(cfg: LMConfig) -> LMConfig:
    """``cfg`` with the lone letters' frequency for its frequent words (made once per settings)."""
    return replace(cfg, frequent_zipf=cfg.letter_zipf)


def decide(p: Proposal, cfg: LMConfig, ranked: list | None = None) -> Verdict:
    """Repair, flag or keep one doubtful token (``ranked``: :func:`rank` of it, when already computed)."""
    if ranked is None:
        ranked = rank(p, cfg)
    margin = margin_of(p, cfg)
    names = tuple(w for _, w, _, _ in ranked[:5])
    if not ranked:
        return Verdict(p.start, p.end, p.printed, None, not (p.known or p.rare), -99.0, (), "no candidate")
    best, w, c, d = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else -99.0
    ev = f"{p.printed!r}: {w!r} LM {d:+.2f} (log10, window of 2+2 words), cost {c:.2f}, score {best:.2f} vs next {second:.2f}"
    if best >= margin and best - second >= cfg.separation:
        core = p.printed.strip("'’»")
        lead = p.printed[: len(p.printed) - len(p.printed.lstrip("'’»"))]
        trail = p.printed[len(lead) + len(core) :]
        from ..tokens import case_like

        return Verdict(p.start, p.end, p.printed, lead + case_like(core, w) + trail, False, best, names, ev)
    flag = not (p.known or p.rare or p.letter) and (best >= margin - cfg.flag_band or p.junk or len(p.printed) >= 3)
    return Verdict(p.start, p.end, p.printed, None, flag, best, names, ev + ("; below the margin" if flag else ""))


@lru_cache(maxsize=4)
def _with_plurals(words: frozenset[str]) -> dict[str, None]:
    """``words`` and the plural of each (built once per word list: GCIDE has some 100 k headwords), as the
    keys of a dict (which the cyclic collector does not walk)."""
    return dict.fromkeys(words | {w + "s" for w in words if len(w) >= 4 and not w.endswith("s")})


VOICES = ("trigram", "pairs", "doc", "period")  # what :func:`voice_for` can leave out (ablation)


def voice_for(
    text: str,
    rep,
    cfg: LMConfig = LMConfig(),
    period_extra: frozenset[str] | None = None,
    off: frozenset[str] = frozenset(),
) -> Voice:
    """The voice of one text: the trigram model (English), the cleaner's general pairs, the text's own pairs,
    and the period words (historical + domain lexicons + GCIDE headwords); the parts named in ``off``
    (of :data:`VOICES`) left out."""
    from ..lexicon import bigram_model

    uni, bi = rep.text_counts(text) if "doc" not in off else (Counter(), Counter())  # (shared: read only)
    period: frozenset[str] | dict[str, None] = frozenset()
    if "period" not in off:
        memo = rep.res.derived("lm_period")  # (built once per resources: GCIDE has some 100 k headwords)
        key = period_extra  # (the set itself, not its id: the table outlives a repairer)
        period = memo.get(key)
        if period is None:
            words = set(rep.hist) | set(rep.domain)
            if rep.lang == "en":
                gc = gcide_words() if period_extra is None else period_extra
                # (Webster lists lemmas: a plural of one is a period word too, "the outgoers")
                words.update(_with_plurals(gc))
            # (a dict of strings, not a frozenset: the cyclic collector leaves such a dict alone, while it
            # walks a set's 200 k words at every full collection, 0.1-0.2 s each; only membership is asked)
            period = memo[key] = dict.fromkeys(words)
    tri = None if "trigram" in off else "auto"
    bg = None if "pairs" in off else bigram_model(rep.lang)
    # (the unigram voice speaks only where no n-gram model exists: French)
    unigram = rep.zipf if "unigram" in cfg.extra_voices and "unigram" not in off and rep.lang != "en" else None
    vec = None
    if rep.lang == "fr" and "vectors" in cfg.extra_voices and "vectors" not in off:
        from .. import vectors

        tab = vectors.table(cfg.vectors_model)
        if tab is not None:
            vec = vectors.VectorVoice(
                tab,
                rep.zipf,
                cfg.w_vectors,
                cfg.vectors_floor,
                cfg.vectors_window,
                cfg.vectors_min_context,
                vectors.stop_words(),
            )
    hints = None
    if rep.lang == "fr" and "grammar" in cfg.extra_voices and "grammar" not in off:
        from ..grammar import hints as grammar_hints

        hints = grammar_hints(text)
    return Voice(rep.lang, cfg, bg, period, uni, bi, trigram=tri, unigram=unigram, grammar=hints, vectors=vec)


WORD = regex.compile(r"(?<![\p{L}'’-])\p{L}{3,}(?![\p{L}'’-])")


def witness_slips(
    text: str, rep, voice: Voice, cfg: LMConfig = LMConfig()
) -> list[tuple[int, int, str, tuple[str, ...], str]]:
    """Real words to flag where no n-gram model judges them (French): a word rarer than ``slip_max_zipf``,
    printed once in the text, one OCR slip (channel cost <= ``slip_max_cost``) from a word the text prints
    ``slip_min_count`` times and ``slip_min_gain`` zipf more frequent (fr-000 ``coup est Ion``: bon, printed
    4 times).  (start, end, word, candidates, reason); never a change: the witness's counts are no proof."""
    if voice.tri is not None or voice.bg is not None:
        return []
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    from ..lexicon import count_text

    uni = voice.doc_uni or count_text(text)[0]
    pool = [w for w, n in uni.items() if n >= cfg.slip_min_count and w.isalpha()]
    out = []
    for m in WORD.finditer(text):
        lw = m.group().lower()
        if uni.get(lw, 0) != 1:  # (printed more than once: asked first, the cheapest test)
            continue
        z = rep.zipf_of(lw)
        if not 0.0 < z < cfg.slip_max_zipf or rep.protected(lw) or lw in voice.period:
            continue
        near = [w for w, _, _ in process.extract(lw, pool, scorer=Levenshtein.distance, score_cutoff=1, limit=None)]
        cands = [
            (c, w)
            for w in near
            if w != lw and rep.zipf_of(w) >= z + cfg.slip_min_gain
            for c in [rep.channel.cost(lw, w, cfg.slip_max_cost)]
            if c <= cfg.slip_max_cost
        ]
        if cands:
            cands.sort()
            ws = tuple(w for _, w in cands)
            why = f"real word printed once, one slip from {ws[0]!r} (printed {uni[ws[0]]} times, zipf {rep.zipf_of(ws[0]):.1f} vs {z:.1f})"
            out.append((m.start(), m.end(), m.group(), ws, why))
    return out


def apply_verdicts(text: str, verdicts: list[Verdict]) -> str:
    """``text`` with the repairs of ``verdicts`` put in (they do not overlap)."""
    out, pos = [], 0
    for v in sorted(verdicts, key=lambda v: v.start):
        if v.after is None:
            continue
        out.append(text[pos : v.start])
        out.append(v.after)
        pos = v.end
    out.append(text[pos:])
    return "".join(out)
