"""Phrases: witness-internal phrase repair.  A book repeats its phrases (``celui qui donne``, ``à son
choix``): a damaged token is read as a word n-gram the witness itself prints at least
``phrase_min_count`` times (``soa choix`` -> ``son choix``), method ``witness-phrase``.  Witness text
only, unless ``general_phrase_repair``; ``phrase_rounds`` rounds (a token repaired in one round is an
anchor in the next)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, NamedTuple

import regex
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .edits import Edit, non_overlapping
from .passes import Pass, PassContext, edits_only
from .tokens import case_like, stripped_tokens

if TYPE_CHECKING:
    from .config import CleanConfig
    from .repairer import Repairer

PRINTED_TOKEN = regex.compile(r"\S+")
PRINTED_SPLIT = regex.compile(r"(\S+)")
EDGE_PUNCT = '.,;:!?"«»“”()[]—–*†‡'  # (a dash after a word, "Exposed card.—", and a footnote's mark are punctuation)
PHRASE_WORD = regex.compile(r"[\p{L}][\p{L}'’]*")


CLAUSE_BREAK = r".,;:!?»«()\[\]—\n"  # (a character class body) characters no phrase n-gram spans
# a clean word (letters and apostrophes, from a letter) as group 1; any other token or clause break matches as ""
PHRASE_TOKENS = regex.compile(rf"(\p{{L}}[\p{{L}}']*+)(?![^\s{CLAUSE_BREAK}])|[^\s{CLAUSE_BREAK}]+|[{CLAUSE_BREAK}]+")
APOS_SPLIT = regex.compile(r"['’]")


def phrase_ngrams(text: str, cfg: CleanConfig) -> dict[tuple[str, ...], int]:
    """Word n-grams (n = 2..4, inside a clause: never across punctuation) seen ``phrase_min_count`` times.

    Counted level by level: an n-gram is printed at least as often as each of its (n-1)-grams, so only the
    positions where both (n-1)-grams are frequent are counted at the next level (the counts are exact)."""
    from collections import Counter

    # the words of the text in order, "" for a clause break or a token that is no clean word (no n-gram
    # spans either): one findall, the counting over zips in C
    flat = PHRASE_TOKENS.findall(text.lower().replace("’", "'"))
    k = cfg.phrase_min_count
    out: dict[tuple[str, ...], int] = {
        g: c for g, c in Counter(zip(flat, flat[1:])).items() if c >= k and g[0] and g[1]
    }
    frequent = out
    shorter: list[tuple[str, ...]] = list(zip(flat, flat[1:]))
    for n in (3, 4):
        if not frequent:
            break
        ok = [g in frequent for g in shorter]  # (frequent (n-1)-grams hold no "")
        grams = [shorter[i] + shorter[i + 1][-1:] for i in range(len(ok) - 1) if ok[i] and ok[i + 1]]
        frequent = {g: c for g, c in Counter(grams).items() if c >= k}
        out.update(frequent)
        shorter = list(zip(*(flat[j:] for j in range(n))))
    return out


def _debris_mapped(s: str) -> str:
    """Non-letters inside printed tokens become the channel's debris character (cheap to drop or read)."""
    return "".join(ch if ch.isalpha() or ch in " '’-" else "^" for ch in s)


def _phrase_damage(t: str, rep: Repairer) -> bool | str:
    """Whether the printed token ``t`` (edge punctuation stripped) is damaged for phrase repair: False,
    True, or "rare" (a rare word of the lexicon: only a cheap reading may replace it)."""
    lt = t.lower().replace("’", "'")
    damaged: bool | str
    if rep.protected(lt) or t[:1].isdigit() or (t.isupper() and len(t) > 1) or "-" in t or t[:1] in "'’" or "[" in t:
        # numbers, ordinals (7th, 2e), capitals (names, heads), hyphenated words (the hyphenation
        # pass's business), a footnote marker glued to its word ("deal;[57]"): never phrase-repaired
        damaged = False
    elif not PHRASE_WORD.fullmatch(t):
        damaged = sum(ch.isalpha() for ch in t) >= 1
    else:
        named = t[:1].isupper() and not t.isupper()
        damaged = not named and not rep.is_word(lt) and not all(rep.is_word(p) for p in APOS_SPLIT.split(lt) if p)
    if damaged and PHRASE_WORD.fullmatch(t) and rep.zipf_of(lt) > 0:
        damaged = "rare"
    return damaged


class _Readings(NamedTuple):
    """The readings (middles of n-grams) of one (n, first words, last words) key, by length."""

    lengths: list[int]
    targets: list[str]
    grams: list[tuple[str, ...]]


def _phrase_pass(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    """Witness-internal phrase repair: a window of 1..3 printed tokens holding a damaged token (unknown to
    the lexicon, or with debris in it) is read as a word n-gram the witness itself prints at least
    ``phrase_min_count`` times, when the known words of the window match the n-gram's words exactly
    and the damaged part is a cheap, clearly best reading (``soa choix`` -> ``son choix``,
    ``dutalop`` -> ``du talon``, ``teni^le coup`` -> ``tenir le coup``)."""
    # the printed tokens without edge punctuation (an empty core stands for a token of punctuation only)
    starts, cores = stripped_tokens(PRINTED_SPLIT, text, EDGE_PUNCT, rep.memo("phrase_tokens"))
    memo = rep.memo("phrase_damage")  # core -> damaged (None for punctuation only)
    for core in {c for _, c in cores}.difference(memo):
        memo[core] = _phrase_damage(core, rep) if core else None
    dmgs = [memo[c] for _, c in cores]
    if not any(dmgs):
        return []  # no damaged token: nothing to repair
    grams = phrase_ngrams(text, cfg)
    if not grams:
        return []

    def tok(k: int) -> tuple[int, int, str, bool | str | None]:
        """(start, end, core, damaged) of printed token ``k``."""
        o, c = cores[k]
        return starts[k] + o, starts[k] + o + len(c), c, dmgs[k]

    def low(k: int) -> str:
        return cores[k][1].lower().replace("’", "'")

    # per token: "n" punctuation only, "d" damaged, "-" a known word (a window's shape by string look-ups)
    shape = "".join("n" if d is None else "d" if d else "-" for d in dmgs)
    # n-grams by (length, first words, last words) for every split into anchors and a middle: a window's
    # known words select its n-grams directly
    lengths = sorted({len(g) for g in grams})
    # (and within each, by the length of the reading of the middle: a window tries only readings within 3
    # characters of its printed middle, so that a window with no anchor does not walk every n-gram of a book)
    # (each key's readings sorted by length, so that the readings within 3 characters are one slice, and
    # the slice is compared with the printed middle by rapidfuzz in C: a book's bare windows meet tens of
    # thousands of readings)
    grouped: dict[tuple, list[tuple[int, str, tuple[str, ...]]]] = {}
    for g in grams:
        glen = len(g)
        for lp in range(glen):
            for ls in range(glen - lp):
                target = " ".join(g[lp : glen - ls])
                grouped.setdefault((glen, g[:lp], g[glen - ls :]), []).append((len(target), target, g))
    by_anchor: dict[tuple, _Readings] = {}
    for key, rows in grouped.items():
        rows.sort(key=lambda r: r[0])
        by_anchor[key] = _Readings([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    del grouped
    cost_cache: dict = {}

    def cost(printed: str, target: str) -> float:
        key = (printed, target)
        v = cost_cache.get(key)
        if v is None:
            # (a reading is kept only at most phrase_max_cost and phrase_cost_per_char per character)
            cut = min(cfg.phrase_max_cost, cfg.phrase_cost_per_char * len(target))
            v = cost_cache[key] = rep.channel.cost(_debris_mapped(printed), target, cut)
        return v

    near_memo: dict[tuple, list] = {}
    edits: list[Edit] = []
    used_until = -1
    n = len(cores)
    mt = cfg.phrase_max_tokens
    for i in [i for i, d in enumerate(dmgs) if d]:
        if starts[i] + cores[i][0] < used_until:
            continue
        options = []  # (cost, -len, start, end, after, gram, middle words)
        for a in range(max(0, i - mt + 1), i + 1):
            for b in range(i, min(n, a + mt)):
                wd = shape[a : b + 1]
                if "n" in wd:
                    continue
                # the damaged run must be contiguous, anchors (known words) at the edges only
                lo, hi = wd.find("d"), wd.rfind("d")
                if "-" in wd[lo:hi]:
                    continue
                pre = tuple(map(low, range(a, a + lo)))
                suf = tuple(map(low, range(a + hi + 1, b + 1)))
                # the n-grams the window's known words select (a middle of 1 .. 2 x damaged tokens words)
                span = 2 * (hi - lo + 1) + len(pre) + len(suf)
                selected = [
                    (glen, by_anchor[(glen, pre, suf)])
                    for glen in lengths
                    if len(pre) + len(suf) < glen <= span and (glen, pre, suf) in by_anchor
                ]
                if not selected:
                    continue
                win = list(map(tok, range(a, b + 1)))
                if any(text[win[k][1] : win[k + 1][0]].strip() for k in range(len(win) - 1)):
                    continue  # punctuation between the tokens: not one phrase
                mid_s, mid_e = win[lo][0], win[hi][1]
                printed = text[mid_s:mid_e]
                plen = len(printed)
                mapped = _debris_mapped(printed).lower()
                printed_low = printed.lower()
                bare = not pre and not suf
                most = cfg.phrase_bare_max_edits if bare else cfg.phrase_max_edits
                for glen, rd in selected:
                    i0, i1 = bisect_left(rd.lengths, plen - 3), bisect_right(rd.lengths, plen + 3)
                    if i0 == i1:
                        continue
                    # plain edit distance first (C): the channel cost only for near readings (remembered per
                    # key and printed middle: a book prints the same damaged word again and again)
                    nkey = (glen, pre, suf, mapped, plen)
                    near = near_memo.get(nkey)
                    if near is None:
                        near = near_memo[nkey] = process.extract(
                            mapped, rd.targets[i0:i1], scorer=Levenshtein.distance, score_cutoff=most, limit=None
                        )
                    for target, dist, j in near:
                        if target == printed_low:
                            continue
                        if not bare and dist > min(cfg.phrase_max_edits, len(target) // 2 + 1):
                            continue
                        g = rd.grams[i0 + j]
                        c = cost(printed, target)
                        if any(x[3] == "rare" for x in win[lo : hi + 1]) and (
                            c > cfg.phrase_rare_max_cost or target.startswith(mapped) or mapped.startswith(target)
                        ):
                            continue  # a rare word: a cheap reading only, never its own inflection (decease/deceased)
                        if c > cfg.phrase_alpha_max_cost and mapped.replace(" ", "").isalpha():
                            continue  # no debris in the printed part: no evidence for an expensive reading
                        if bare and c > cfg.phrase_bare_max_cost:
                            continue  # no known word of the window confirms the phrase
                        if c <= cfg.phrase_max_cost and c <= cfg.phrase_cost_per_char * len(target):
                            options.append((c, -len(g), mid_s, mid_e, target, g, printed))
        if not options:
            continue
        options.sort()
        best = options[0]
        rivals = [o for o in options[1:] if o[4] != best[4] and o[2] < best[3] and best[2] < o[3]]
        if rivals and rivals[0][0] - best[0] < cfg.phrase_sep:
            continue
        c, _, ms, me, target, g, printed = best
        first = PRINTED_TOKEN.search(printed).group()
        after = case_like(first.lstrip(EDGE_PUNCT + "<{}^*|") or first, target)
        kind = (
            "spelling"
            if target.count(" ") == printed.count(" ")
            else ("split" if target.count(" ") > printed.count(" ") else "merge")
        )
        ev = f"witness phrase {' '.join(g)!r} printed {grams[g]} times; {printed!r} -> {target!r} costs {c:.2f}" + (
            f", next reading {rivals[0][4]!r} {rivals[0][0]:.2f}" if rivals else ""
        )
        conf = round(min(0.95, 0.6 + 0.1 * (grams[g] - cfg.phrase_min_count + 1)), 3)
        edits.append(Edit(ms, me, after, kind, "witness-phrase", conf, (target,), ev))
        used_until = me
    return non_overlapping(edits)


def _phrases_apply(ctx: PassContext) -> bool:
    return bool(ctx.rep.domain) or ctx.cfg.general_phrase_repair


PHRASES = Pass(
    "phrases",
    edits_only(lambda text, ctx: _phrase_pass(text, ctx.rep, ctx.cfg)),
    ("repair_words", "phrase_repair"),
    _phrases_apply,
    rounds="phrase_rounds",
    doc="a damaged token read as a word n-gram the witness prints often",
)
