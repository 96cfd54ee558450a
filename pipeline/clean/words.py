"""Word repair: non-words read as lexicon words through the noisy channel, words split or merged by OCR,
elision apostrophes read as debris; a repair below ``apply_confidence`` is a Flag, not a change.
Historical spellings (``corpus/lexicon/historical_xx.tsv``) are kept and recorded as regularisations.

The second word pass, for real words in the wrong place, is :data:`pipeline.clean.realwords.CONTEXT_WORDS`.
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

import regex

from .decide import Context
from .edits import Edit, non_overlapping
from .elision import damaged_elision, split_apostrophe
from .fragments import fragment_token
from .passes import FlagSpec, Pass, PassContext, PassResult, RegSpec
from .tokens import APOS, JUNK, TOKEN_SPLIT, case_like, sentence_case, sentence_start, stripped_spans

LETTERS = "abcdefghijklmnopqrstuvwxyz"  # the letters a split may have lost (lost_letter_merges)

if TYPE_CHECKING:
    from .config import CleanConfig
    from .repairer import Repairer


def word_pass(text: str, rep: Repairer, cfg: CleanConfig, real_words: bool) -> PassResult:
    """Word repair token by token: merged words (first pass), damaged elisions, then each token's
    :meth:`~pipeline.clean.decide.Decider.decide`; with ``real_words``, only real words the witness's own
    bigrams show to be misread (the second pass, after phrase repair).  Flags and regularisations are in
    offsets of ``text`` (the orchestrator moves them onto the text after the edits)."""
    flags: list[FlagSpec] = []
    regs: list[RegSpec] = []
    if real_words and not rep.local:
        return PassResult()  # no witness pool (general resources): no real-word candidates, nothing to decide
    ctx = Context(rep, text, cfg.use_context)
    if real_words and not ctx.pool:
        return PassResult()  # (too little text to be evidence: the same)
    # the tokens, leading/trailing apostrophes and guillemets stripped
    clean_toks = stripped_spans(TOKEN_SPLIT, text, APOS + "»", rep.memo("word_tokens"))
    edits: list[Edit] = []
    busy: set[int] = set()  # the tokens a merge joins
    if not real_words:
        for i, merge in merge_edits(text, rep, clean_toks, keep_hyphens=not cfg.join_hyphens):
            edits.append(merge)
            busy.update((i, i + 1))
        for i, merge in lost_letter_merges(text, rep, clean_toks, busy):
            edits.append(merge)
            busy.update((i, i + 1))
        for i, j, merge in spaced_merges(text, rep, clean_toks, busy):
            edits.append(merge)
            busy.update(range(i, j + 1))
    merged_at = {e.start for e in edits}
    # without a witness pool a token whose every part is a frequent or protected word is kept as printed
    # (Repairer.decide returns None at once, no elision fix): skip it before any other work
    if not ctx.pool:
        inert = rep.memo("inert_tokens")
        for t in {t for _, _, t in clean_toks}.difference(inert):
            inert[t] = _inert(t, rep)
        todo = [k for k, x in enumerate(clean_toks) if not inert[x[2]] and k not in busy]
    else:
        todo = [k for k in range(len(clean_toks)) if k not in busy]

    def low(k: int) -> str:
        return clean_toks[k][2].lower().replace("’", "'") if 0 <= k < len(clean_toks) else ""

    frag_langs = rep.lang in cfg.fragments.langs
    for k in todo:
        s, e, t = clean_toks[k]
        prev, lw, nxt = low(k - 1), low(k), low(k + 1)
        if rep.protected(lw):
            reg = rep.period_form(lw)
            if reg and lw not in rep.hist and not t[:1].islower():
                reg = None  # (a capitalised word a pattern reads as period spelling may be a name: Constans)
            if reg and reg.lower() != lw and not real_words:
                regs.append((s, e, t, case_reg(t, reg)))
            continue
        if hyphen_fragment(text, s, e):
            continue  # half of a word split by a hyphen at a line end: judged with its other half or not at all
        if frag_langs and fragment_token(t, rep, cfg.fragments):
            continue  # (both halves of one: pipeline.clean.fragments judges the joined word)
        parts = _parts(t)
        for off, part in parts:
            ps = s + off
            if len(part) > cfg.max_token_chars:
                # (no candidate search, split, accent variant or elision reading: their work grows with the
                # square of the length or more)
                if not real_words:
                    flags.append(
                        (
                            ps,
                            ps + len(part),
                            part,
                            (),
                            0.0,
                            f"token of {len(part)} characters, longer than max_token_chars ({cfg.max_token_chars}): left as printed, not searched",
                        )
                    )
                continue
            ctx.sentence_start = off == 0 and sentence_start(text, s)
            if rep.domain and not real_words:
                hit = damaged_elision(part, rep, ps)
                if isinstance(hit, Edit):
                    edits.append(hit)
                    continue
                if hit is not None:
                    flags.append(hit)  # an elision no reading stands out for: left as printed, no other word guessed
                    continue
            # elision / possessive: repair only the word part
            sub_off, word, prefix_fix = split_apostrophe(part, rep)
            if word is None:
                continue
            protected = rep.protected(word.lower())
            if protected and not prefix_fix:
                continue
            if real_words and (prefix_fix or any(c in JUNK for c in word)):
                continue
            # (a protected word keeps its spelling, not the debris read for its apostrophe: l*adversaire)
            d = None if protected else rep.decider.decide(word, prev, nxt, ctx)
            if real_words and (d is None or d.kind != "real_word"):
                continue
            ws, we = ps + sub_off, ps + sub_off + len(word)
            if prefix_fix:
                # an elision apostrophe read as debris: fix it with the word
                a_s = ps + prefix_fix[0]
                after_word = d.after if d is not None and d.apply else word
                plain = prefix_fix[0] == 1 and word.isalpha() and len(word) >= cfg.elision_min_word
                if not (rep.is_word(after_word) or rep.is_word(word) or plain):
                    if d is None:
                        continue
                    if not d.apply:
                        flags.append((a_s, we, text[a_s:we], d.candidates, d.confidence, d.evidence))
                        continue
                edits.append(
                    Edit(
                        a_s,
                        we,
                        "'" + after_word,
                        "elision",
                        "lexicon:elision",
                        d.confidence if d else 0.9,
                        (d.candidates if d else ()),
                        f"elision apostrophe read as {text[a_s]!r}" + (f"; {d.evidence}" if d else ""),
                    )
                )
                continue
            if d is None:
                continue
            if d.apply:
                after, why = sentence_case(text, ws, word, d.after, cfg.capital_stems), d.evidence
                old = rep.period_repair(word, after)
                if old is not None:
                    after, why = old, f"{why}; the period spelling {old!r} of {after!r} is nearer to the print"
                edits.append(Edit(ws, we, after, d.kind, d.method, d.confidence, d.candidates, why))
            elif d.kind != "real_word":
                # (a word of the lexicon left as printed is no doubtful token: a flag is for a word no lexicon
                # knows, as the language-model pass flags; a real-word reading short of its margin is nothing)
                flags.append((ws, we, word, d.candidates, d.confidence, d.evidence))
    edits = [e for e in edits if e.start not in merged_at or e.kind == "merge"]
    return PassResult(non_overlapping(edits), flags, regs)


def _without_possessive(w: str, endings: tuple[str, ...]) -> str:
    """``w`` without the possessive ending (possessives.tsv) a line-end split keeps on its second part."""
    for e in endings:
        if w.endswith(e):
            return w[: -len(e)]
    return w


FRAGMENT_BEFORE = regex.compile(r"\p{L}[-¬]\s*$")


def _inert(t: str, rep: Repairer) -> bool:
    """Whether the word pass leaves token ``t`` alone whatever its context, when the text gives no witness
    pool: not protected as a whole, and each part (after its elision) is skipped or a word so frequent
    that ``Repairer.decide`` keeps it (its first test), with no debris apostrophe to fix."""
    lw = t.lower().replace("’", "'")
    if rep.protected(lw):
        return False  # (a historical spelling may be recorded as a regularisation)
    known = max(rep.cfg.nonword_zipf, rep.cfg.real_word_zipf)
    if t.isalpha():  # (most tokens: one part, no apostrophe nor debris to split off, the word itself)
        return rep.zipf.get(lw, 0.0) >= known
    for _off, part in _parts(t):
        _sub, word, prefix_fix = split_apostrophe(part, rep)
        if word is None:
            continue
        if prefix_fix is not None:
            return False
        if rep.protected(word.lower()):
            continue
        if rep.zipf.get(word.lower().replace("’", "'"), 0.0) < known:
            return False
    return True


def hyphen_fragment(text: str, s: int, e: int) -> bool:
    if text[e : e + 1] in ("-", "¬"):
        return True
    before = text[max(0, s - 4) : s]
    return ("-" in before or "¬" in before) and bool(FRAGMENT_BEFORE.search(before))


def case_reg(orig: str, reg: str) -> str:
    return reg[:1].upper() + reg[1:] if orig[:1].isupper() else reg


def _parts(t: str) -> list[tuple[int, str]]:
    """Hyphen-separated parts of a token, with their offsets."""
    out, pos = [], 0
    for p in t.split("-"):
        if p:
            out.append((pos, p))
        pos += len(p) + 1
    return out


def merge_edits(
    text: str, rep: Repairer, spans: list[tuple[int, int, str]], keep_hyphens: bool = False
) -> list[tuple[int, Edit]]:
    """Words split by OCR (``ma nière`` -> ``manière``): two neighbours on one line whose join is a word
    while one of them is not.  Returns (index in ``spans`` of the first of the two, edit).

    With ``keep_hyphens`` (a text whose printed line-end hyphens are kept, its lines run together) a split
    whose two parts both have ``lost_hyphen_min_part`` letters is a line-end hyphen the OCR lost
    (``pro vide`` -> ``pro- vide``: a printer never leaves one letter alone at a line end) when
    :func:`lost_hyphen` finds evidence; a split that leaves one letter alone (``w hich``) is a stray space
    and is joined."""
    cfg = rep.cfg
    bg = rep.bigrams if keep_hyphens else None
    zipf, domain, general = rep.zipf, rep.domain, bg.words if bg is not None else {}
    out = []
    # most neighbours' join is no word: only the others are looked at
    joins = [(x[2] + y[2]).lower() for x, y in zip(spans, spans[1:])]
    busy = -1
    seen = rep.memo("lost_hyphen")  # (part, part) -> lost_hyphen's evidence or None
    possessives = rep.res.lexdata.possessives
    if keep_hyphens and cfg.lost_hyphen_possessive:  # (a possessive's join is looked up without its ending)
        joins = [_without_possessive(j, possessives) for j in joins]
    distinct = set(joins)
    words = (distinct & zipf.keys()) | (distinct & general.keys()) | (distinct & domain)  # (set operations in C)
    for i in [i for i, j in enumerate(joins) if j in words]:
        s1, e1, a = spans[i]
        s2, e2, b = spans[i + 1]
        if i == busy or not (s2 == e1 + 1 and text[e1] == " " and a.isalpha()):
            continue
        la, lb, j = a.lower(), b.lower(), joins[i]
        if not (b.isalpha() and b[:1].islower()):
            # (a line-end split of a possessive, ``black smith's``: only the lost-hyphen rule reads it, the
            # join judged without the ending)
            stem = _without_possessive(lb, possessives)
            if not (keep_hyphens and cfg.lost_hyphen_possessive and stem != lb and stem.isalpha()):
                continue
            if not b[:1].islower() or min(len(la), len(stem)) < cfg.lost_hyphen_min_part:
                continue
            lb = stem
        if keep_hyphens and min(len(la), len(lb)) >= cfg.lost_hyphen_min_part:
            if rep.lang not in cfg.lost_hyphen_langs:
                continue  # (a split of two parts is left as printed: neither joined nor given a hyphen)
            why = seen.get((la, lb), False)
            if why is False:
                why = seen[la, lb] = lost_hyphen(rep, bg, la, lb)
            if why and not (rep.protected(la) or rep.protected(lb)):
                out.append(
                    (
                        i,
                        Edit(
                            e1,
                            s2,
                            "- ",
                            "merge",
                            "lexicon:lost-hyphen",
                            0.9,
                            (f"{a}- {b}",),
                            why + "; line-end hyphen restored",
                        ),
                    )
                )
                busy = i + 1
        elif (not rep.is_word(la) or not rep.is_word(lb)) and not (rep.protected(la) or rep.protected(lb)):
            zj = rep.zipf_of(j)
            if zj >= cfg.merge_min_zipf or j in domain:
                why = f"{a!r}+{b!r} -> {j!r} (zipf {zj:.2f}); {'' if rep.is_word(la) else a + ' '}{'' if rep.is_word(lb) else b}not a word"
                out.append((i, Edit(e1, s2, "", "merge", "lexicon:merge", 0.9, (j,), why)))
                busy = i + 1
    return out


def lost_letter_merges(
    text: str, rep: Repairer, spans: list[tuple[int, int, str]], busy: set[int]
) -> list[tuple[int, Edit]]:
    """Words split by OCR that also lost a letter at the split (``di position`` -> *disposition*): a short
    first part (``split_letter_max_first`` letters) and a longer lower-case second part on one line, whose
    join is no word but one letter put back at the split makes one, far commoner in general print than the pair of parts
    (``lost_hyphen_margin``, log10; languages with a word-pair model only)."""
    cfg = rep.cfg
    bg = rep.bigrams
    if bg is None or rep.lang not in cfg.split_letter_langs:
        return []
    out: list[tuple[int, Edit]] = []
    found = rep.memo("split_letter")  # (la, lb) -> split_letter_fill(la, lb): the same for every occurrence
    # (the lengths first: most neighbours fail them, and they are the cheapest test)
    lens = [e - s for s, e, _t in spans]
    first, second = cfg.split_letter_max_first, cfg.split_letter_min_second
    for i in [i for i, (x, y) in enumerate(zip(lens, lens[1:])) if x <= first and y >= second]:
        (s1, e1, a), (s2, e2, b) = spans[i], spans[i + 1]
        if i in busy or i + 1 in busy or (out and out[-1][0] == i - 1):
            continue
        if not (s2 == e1 + 1 and text[e1] == " " and a.isalpha() and b.isalpha() and b.islower()):
            continue
        la, lb = a.lower(), b.lower()
        hit = found.get((la, lb), False)
        if hit is False:
            hit = found[la, lb] = split_letter_fill(rep, bg, la, lb)
        if hit is None:
            continue
        j = la + lb
        zj, lj, gap = hit
        after = case_like(a, lj)
        pair = f"{gap:.1f} (log10) commoner than the pair" if gap < 99 else "the pair unknown to general print"
        why = f"{a!r}+{b!r}: {j!r} is no word, {lj!r} (zipf {zj:.2f}) with the letter lost at the split; {pair}"
        out.append((i, Edit(s1, e2, after, "merge", "lexicon:split-letter", 0.85, (lj,), why)))
    return out


def split_letter_fill(rep: Repairer, bg, la: str, lb: str) -> tuple[float, str, float] | None:
    """The word the split ``la lb`` of :func:`lost_letter_merges` reads with the letter lost at the split
    put back, as (its zipf, the word, log10 of how much commoner it is than the pair), or None: the join a
    word or a part protected, no letter making a word far commoner than the next one, the word unknown to
    general print ``bg``, or the pair not ``lost_hyphen_margin`` rarer.  Depends on the two parts alone."""
    cfg = rep.cfg
    # the letter lost where the word was split: one letter put back at the split makes a word
    # (zipf_of of a string of letters is its zipf look-up, no compound parts to score it by; asked of the
    # words at least merge_min_zipf frequent only, a table a tenth of the size, whose look-ups of the 26
    # strings made here miss the processor's caches less)
    least = cfg.merge_min_zipf
    tab = rep.res.derived("frequent_zipf")
    frequent = tab.get(least)
    if frequent is None:
        frequent = tab[least] = {w: z for w, z in rep.zipf.items() if z >= least}
    zget = frequent.get
    fills = sorted(
        ((z, w) for w in (la + c + lb for c in LETTERS) for z in (zget(w, 0.0),) if z >= least), reverse=True
    )
    if not fills or (len(fills) > 1 and fills[0][0] - fills[1][0] < cfg.lost_hyphen_margin):
        return None
    zj, lj = fills[0]
    if lj not in bg.words:
        return None
    gap = (
        bg.words[lj] + bg.log_scale - bg.pair(la, lb, cfg.bigram_unseen) if la in bg.words and lb in bg.words else 99.0
    )
    if gap < cfg.lost_hyphen_margin:
        return None
    # (asked last: the join is a new string, whose protection runs the period patterns; most pairs have
    # left above)
    if rep.is_word(la + lb) or rep.protected(la) or rep.protected(lb):
        return None
    return zj, lj, gap


def spaced_merges(
    text: str, rep: Repairer, spans: list[tuple[int, int, str]], busy: set[int]
) -> list[tuple[int, int, Edit]]:
    """A word printed with spaces inside it around a lone letter (``whi c h``, ``co ur t``, ``matr o n``).

    A run of two to ``spaced_max_tokens`` tokens on one line, one space apart, letters only, all lower case or
    all capitals (``E MIGRATION``), holding a lone letter the language never prints alone (``lone_letters.tsv``;
    in capitals ``capital_letters.tsv``) and a longer token (``a b c`` is spaced on purpose), whose join is a word
    at least ``spaced_min_zipf`` frequent and no protected word (in ``spaced_langs``); the longest such run from
    the left wins.  Without it the lone-letters pass would take the letter for a speck (``whi h``).  Returns
    (first index, last index, edit)."""
    cfg = rep.cfg
    if rep.lang not in cfg.spaced_langs:
        return []
    alone, capitals_alone = rep.res.lexdata.lone_letters, rep.res.lexdata.capital_letters
    out: list[tuple[int, int, Edit]] = []
    n, i = len(spans), 0
    # (a run needs a token of one letter, the last one's compound head included: the runs from a token with
    # none among the next spaced_max_tokens are not looked at, prefix counts of them taken once)
    ones = list(accumulate((len(t) == 1 or len(t.split("-", 1)[0]) == 1 for _s, _e, t in spans), initial=0))
    while i < n - 1:
        if ones[min(n, i + cfg.spaced_max_tokens)] == ones[i]:
            i += 1
            continue
        best = None
        for j in range(i + 1, min(n, i + cfg.spaced_max_tokens)):
            s0, e0, t0 = spans[j - 1]
            s1, _e1, t1 = spans[j]
            if j in busy or j - 1 in busy or s1 != e0 + 1 or text[e0] != " ":
                break
            run = [t for _s, _e, t in spans[i : j + 1]]
            run[-1] = run[-1].split("-", 1)[0]  # (the last may be a compound's head: poli c e-station)
            if not all(t.isalpha() and t.islower() for t in run) and not all(t.isalpha() and t.isupper() for t in run):
                break
            # (a line in capitals: its lone letters other than its one-letter words stand for no abbreviation)
            capitals = not run[0].islower()
            lone = capitals_alone if capitals else alone
            if not any(len(t) == 1 and t.lower() not in lone for t in run) or all(len(t) == 1 for t in run):
                continue  # (no lone letter that is no word; or letters only, spaced on purpose: a b c)
            if capitals and len(run[0]) == 1:
                continue  # (a drop capital, T HE, S AILS: a gold keeps it as printed as often as it joins it)
            if len(run) == 2 and rep.zipf_of(max(run, key=len).lower()) >= cfg.nonword_zipf:
                continue  # (a word and a letter, of t', on t!: a speck beside a word more often than a split)
            joined = "".join(run).lower()
            if rep.zipf_of(joined) >= cfg.spaced_min_zipf and not rep.protected(joined):
                best = (j, joined, s1 + len(run[-1]))
            if "-" in t1:
                break
        if best is None:
            i += 1
            continue
        j, joined, end = best
        printed = text[spans[i][0] : end]
        why = f"{printed!r} -> {joined!r} (zipf {rep.zipf_of(joined):.2f}): a lone letter no word, spaces inside a word"
        after = joined.upper() if spans[i][2].isupper() else joined
        out.append((i, j, Edit(spans[i][0], end, after, "merge", "lexicon:spaced", 0.9, (joined,), why)))
        i = j + 1
    return out


def lost_hyphen(rep: Repairer, bg, la: str, lb: str) -> str | None:
    """Evidence that ``la lb`` is one word whose line-end hyphen the OCR lost (None: two words).

    A part that no lexicon knows, or that the general corpus ``bg`` never prints alone (``ing``, ``ment``,
    ``pre``: fragments a web word list keeps), is a fragment: the join must be a word
    (``lost_hyphen_min_zipf``).  Two real words are one only when ``bg`` prints the join
    ``lost_hyphen_margin`` (log10) more often than the pair (``govern ment``, ``dis covered``; not
    ``any one``, ``some one``, ``every day``)."""
    cfg = rep.cfg
    j = la + lb
    zj = rep.zipf.get(j, 0.0)
    if zj < cfg.lost_hyphen_min_zipf and (bg is None or j not in bg.words) and j not in rep.domain:
        return None  # (most neighbours: their join is no word)
    frag = [x for x in (la, lb) if not rep.is_word(x) or (bg is not None and x not in bg.words)]
    if frag:
        if zj >= cfg.lost_hyphen_min_zipf or j in rep.domain:
            return f"{la!r}+{lb!r} -> {j!r} (zipf {zj:.2f}); {' '.join(frag)} not a word"
        if bg is not None and j in bg.words and zj >= cfg.lost_hyphen_print_zipf:
            return f"{la!r}+{lb!r} -> {j!r} (zipf {zj:.2f}, in general print); {' '.join(frag)} not a word"
        return None
    if bg is None or j not in bg.words:
        return None
    gap = bg.words[j] + bg.log_scale - bg.pair(la, lb, cfg.bigram_unseen)
    if gap >= cfg.lost_hyphen_margin:
        return f"{j!r} {gap:.1f} (log10) commoner than {la + ' ' + lb!r} in general print"
    return None


def _words(text: str, ctx: PassContext) -> PassResult:
    return word_pass(text, ctx.rep, ctx.cfg, real_words=False)


WORDS = Pass(
    "words", _words, ("repair_words",), doc="non-words repaired, split and merged words, elisions read as debris"
)
