"""Lexical resources of the clean stage: data files under ``corpus/lexicon/`` and wordfreq word lists.

Everything here is loaded once and cached (``functools.lru_cache``); nothing is hard-coded domain
knowledge: game terms, historical spellings, OCR confusions, debris and running-head patterns are
data files documented in ``corpus/lexicon/README.md``.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import regex

from .deletion_index import DeletionIndex, build_deletion_index
from ..textnorm import WORD_RE, nfc, tokens_lower  # noqa: F401  (WORD_RE: the words counted here)


def _lines(path: Path) -> list[str]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        out.append(line.rstrip("\n"))
    return out


@dataclass(frozen=True)
class LexiconData:
    """The contents of ``corpus/lexicon/`` for one language."""

    lang: str
    domain: frozenset[str] = frozenset()
    historical: dict[str, str] = field(default_factory=dict)  # orig -> reg (lower case)
    confusions: tuple[tuple[str, str, float], ...] = ()  # (printed, intended, cost)
    lookalikes: dict[str, str] = field(default_factory=dict)  # printed char -> digit
    debris: tuple[regex.Pattern, ...] = ()
    heads: tuple[str, ...] = ()
    dash_class: str = r"[—–\-]"
    elision: tuple[str, ...] = ()
    realword: tuple[tuple[str, str, str, str], ...] = ()  # (printed, intended, pattern, note) of realword.tsv
    tag_shapes: dict[str, tuple[str, ...]] = field(
        default_factory=dict
    )  # tag -> globs its words match (tag_shapes.tsv)
    blots: str = ""  # symbols OCR makes of specks (blots.tsv): a token of them alone is debris
    glyphs: tuple[tuple[str, str, str], ...] = ()  # historical letter forms (glyphs.tsv): (printed, letter, name)
    # the outcome phrases of the laws in this language (outcome_phrases.csv; domain only): their words, lower case
    phrases: tuple[tuple[str, ...], ...] = ()
    # heads and tails of hyphenated compounds (hyphen_compounds.tsv): ("head" | "tail", form), lower case
    hyphen_parts: frozenset[tuple[str, str]] = frozenset()
    # words printed with a leading apostrophe ('tis, 'twas: apostrophe_words.tsv), lower case, without it
    apostrophe_words: frozenset[str] = frozenset()
    # lower-case letters that may stand alone between words (lone_letters.tsv): words and abbreviations
    lone_letters: str = ""
    # period spelling patterns (historical_patterns.tsv): (regular expression over the lower-case word, replacement)
    period_patterns: tuple[tuple[str, str], ...] = ()
    # words that never end a sentence (stray_stops.tsv), space-separated, lower case: a full stop right after
    # one is a speck
    stray_stops: str = ""
    # ligatures and their spelled-out letters (ligatures.tsv: æ -> ae): a word printed with one is a word
    # when its spelled-out form is
    ligatures: tuple[tuple[str, str], ...] = ()
    # marks OCR prints for a letter (misread_marks.tsv), ``mark:letters`` space-separated (``?:se``): such a
    # mark between letters, or glued to a word's end before a comma or a lower-case word, is one of them
    misread_marks: str = ""
    # possessive endings (possessives.tsv, lower case): a line-end split keeps one on its second part
    possessives: tuple[str, ...] = ()
    # titles printed abbreviated before a name (titles.tsv, in its order), and the other abbreviations that stand
    # before a capitalised word (lower case): a misread title is read as one (pipeline.clean.titles)
    titles: tuple[str, ...] = ()
    title_kept: frozenset[str] = frozenset()
    # what may stand after and before an apostrophe inside a word (contractions.tsv, lower case): elsewhere
    # such an apostrophe is debris (English fo'lowing)
    apostrophe_ends: frozenset[str] = frozenset()
    apostrophe_heads: frozenset[str] = frozenset()
    # letters a line in capitals prints alone as words (capital_letters.tsv, lower case: English a i o)
    capital_letters: str = ""
    # the endings a number takes (ordinals, money) and the unit letters printed after its digits (number_marks.tsv)
    number_suffixes: tuple[str, ...] = ()
    number_units: str = ""


def read_confusions(path: Path) -> list[tuple[str, str, float]]:
    """The hand-made confusion rows of ``confusions.tsv``: (printed, intended, cost)."""
    conf = []
    for line in _lines(path):
        parts = line.split("\t")
        if len(parts) >= 3:
            conf.append((parts[0], parts[1], float(parts[2])))
    return conf


LEARNT_CONFUSIONS = "confusions_learnt.tsv"  # learnt from OCR/gold pairs (measure.learn_confusions)
# learnt from hand-corrected newspaper OCR (the HIPE-OCRepair impresso snippets: measure.evaluate_repair --learn)
LEARNT_PRESS = "confusions_learnt_press.tsv"


def read_learnt_confusions(lexicon_dir: Path, lang: str, name: str = LEARNT_CONFUSIONS) -> list[tuple[str, str, float]]:
    """The learnt confusion rows of ``lang`` in the file ``name`` (``confusions_learnt.tsv``: lang, printed,
    intended, cost, ...); none when the file is absent."""
    path = Path(lexicon_dir) / name
    if not path.exists():
        return []
    out = []
    for line in _lines(path):
        parts = line.split("\t")
        if len(parts) >= 4 and parts[0] == lang:
            out.append((parts[1], parts[2], float(parts[3])))
    return out


def merge_confusions(hand, learnt, prefer: str = "hand") -> list[tuple[str, str, float]]:
    """The hand rows, then the learnt rows for the pairs the hand rows do not list.  A pair in both keeps
    its hand cost (``prefer="hand"``: a hand row is domain knowledge), the cheaper one (``"min"``) or the
    learnt one (``"learnt"``)."""
    got = {(p, q): c for p, q, c in learnt}
    have = {(p, q) for p, q, _ in hand}
    if prefer == "hand":
        hand_rows = list(hand)
    elif prefer in ("min", "learnt"):
        pick = min if prefer == "min" else (lambda h, lc: lc)
        hand_rows = [(p, q, pick(c, got[p, q]) if (p, q) in got else c) for p, q, c in hand]
    else:
        raise ValueError(f"prefer={prefer!r}: want hand, min or learnt")
    return hand_rows + [(p, q, c) for p, q, c in learnt if (p, q) not in have]


def load_lexicon_data(lexicon_dir: Path, lang: str, domain: bool = True, press: bool = True) -> LexiconData:
    """Read the data files of ``lexicon_dir`` for ``lang``.

    ``domain=False`` keeps only the general files (confusions, with the learnt rows, look-alikes, debris, elision,
    historical spellings, letter forms) and drops game terms and known running heads: the setting for text from
    outside the corpus.  There the rows learnt from newspaper OCR (``confusions_learnt_press.tsv``) are added
    where cheaper, unless ``press=False`` (a measurement on the units they were learnt from learns its own).
    """
    d = Path(lexicon_dir)
    dom: set[str] = set()
    if domain:
        dom = {w.strip() for w in _lines(d / f"domain_{lang}.txt")}
    hist: dict[str, str] = {}
    for line in _lines(d / f"historical_{lang}.txt"):
        parts = line.split("\t")
        hist[parts[0].strip().lower()] = parts[1].strip() if len(parts) > 1 else ""
    # the learnt rows (modern press, confusions_learnt.tsv) serve general text only: a witness keeps the hand
    # rows, domain knowledge of the books (with them en-004's "cannot alter" was read "after" through l/f)
    conf = merge_confusions(read_confusions(d / "confusions.tsv"), [] if domain else read_learnt_confusions(d, lang))
    if not domain and press:
        conf = merge_confusions(conf, read_learnt_confusions(d, lang, LEARNT_PRESS), "min")
    look = {}
    for line in _lines(d / "lookalikes.tsv"):
        parts = line.split("\t")
        if len(parts) >= 2:
            look[parts[0]] = parts[1]
    deb = []
    for line in _lines(d / "debris.tsv"):
        lg, _, pat = line.partition("\t")
        if lg in ("*", lang):
            deb.append(regex.compile(pat, regex.IGNORECASE))
    heads: list[str] = []
    dash = r"[—–\-]"
    for line in _lines(d / "running_heads.tsv"):
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        kind, lg, val = parts[0], parts[1], parts[2]
        if lg not in ("*", lang):
            continue
        if kind == "head" and domain:
            heads.append(val)
        elif kind == "dash":
            dash = val
    eli = []
    for line in _lines(d / "elision.tsv"):
        lg, _, p = line.partition("\t")
        if lg == lang:
            eli.append(p.strip())
    eli.sort(key=len, reverse=True)
    rw = []
    for line in _lines(d / "realword.tsv"):
        parts = line.split("\t")
        if len(parts) >= 4 and parts[2].strip() == lang:
            rw.append(
                (
                    parts[0].strip().lower(),
                    parts[1].strip(),
                    parts[3].strip(),
                    parts[4].strip() if len(parts) > 4 else "",
                )
            )
    shapes: dict[str, tuple[str, ...]] = {}
    for line in _lines(d / "tag_shapes.tsv"):
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip() == lang:
            shapes[parts[1].strip()] = shapes.get(parts[1].strip(), ()) + tuple(parts[2].split())
    blots = _chars(d / "blots.tsv", lang)
    glyphs = tuple(
        (p[0], p[1], p[2] if len(p) > 2 else "")
        for p in (line.split("\t") for line in _lines(d / "glyphs.tsv"))
        if len(p) >= 2 and p[0] and p[1]
    )
    apostrophe_ends, apostrophe_heads = _kinds(d / "contractions.tsv", lang, ("end", "head"))
    return LexiconData(
        lang,
        frozenset(dom),
        hist,
        tuple(conf),
        look,
        tuple(deb),
        tuple(heads),
        dash,
        tuple(eli),
        tuple(rw),
        shapes,
        blots,
        glyphs,
        _outcome_phrases(d / "outcome_phrases.csv", lang) if domain else (),
        _hyphen_parts(d / "hyphen_compounds.tsv", lang),
        frozenset(
            p[1].strip().lower()
            for p in (line.split("\t") for line in _lines(d / "apostrophe_words.tsv"))
            if len(p) >= 2 and p[0].strip() == lang
        ),
        _chars(d / "lone_letters.tsv", lang),
        tuple(
            (p[1], p[2])
            for p in (line.split("\t") for line in _lines(d / "historical_patterns.tsv"))
            if len(p) >= 3 and p[0].strip() == lang and p[1]
        ),
        _chars(d / "stray_stops.tsv", lang, " ").lower(),
        tuple(
            (p[0], p[1].strip())
            for p in (line.split("\t") for line in _lines(d / "ligatures.tsv"))
            if len(p) >= 2 and p[0] and p[1].strip()
        ),
        " ".join(
            f"{p[1]}:{p[2].strip()}"
            for p in (line.split("\t") for line in _lines(d / "misread_marks.tsv"))
            if len(p) >= 3 and p[0].strip() == lang and len(p[1]) == 1 and p[2].strip()
        ),
        tuple(_chars(d / "possessives.tsv", lang, " ").lower().split()),
        *_titles(d / "titles.tsv", lang),
        apostrophe_ends,
        apostrophe_heads,
        _chars(d / "capital_letters.tsv", lang),
        *_number_marks(d / "number_marks.tsv", lang),
    )


def _number_marks(path: Path, lang: str) -> tuple[tuple[str, ...], str]:
    """The number endings and unit letters of ``number_marks.tsv`` for ``lang``."""
    suffixes, units = _kinds(path, lang, ("suffix", "unit"))
    return tuple(sorted(suffixes)), "".join(sorted(units))


def _lang_rows(path: Path, lang: str) -> list[tuple[str, list[str]]]:
    """(kind, strings) of each row of a ``lang<TAB>kind<TAB>strings`` file for ``lang``, in the file's order."""
    rows = [p for p in (line.split("\t") for line in _lines(path)) if len(p) >= 3 and p[0].strip() == lang]
    return [(p[1].strip(), p[2].split()) for p in rows]


def _titles(path: Path, lang: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The titles of ``titles.tsv`` for ``lang`` (in their order) and its kept abbreviations (lower case)."""
    rows = _lang_rows(path, lang)
    titles = tuple(w for kind, ws in rows if kind == "title" for w in ws)
    kept = frozenset(w.lower() for kind, ws in rows if kind == "kept" for w in ws)
    return titles, kept


def _kinds(path: Path, lang: str, kinds: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """Per kind of ``kinds``, the lower-case strings a ``lang<TAB>kind<TAB>strings`` file lists for ``lang``."""
    rows = _lang_rows(path, lang)
    return tuple(frozenset(w.lower() for kind, ws in rows if kind == k for w in ws) for k in kinds)


def _chars(path: Path, lang: str, sep: str = "") -> str:
    """The characters a ``lang<TAB>characters`` data file (blots.tsv, lone_letters.tsv) lists for ``lang``,
    its rows joined by ``sep`` (``" "``: a file of space-separated words, stray_stops.tsv)."""
    return sep.join(p.strip() for lg, _, p in (line.partition("\t") for line in _lines(path)) if lg == lang)


def _hyphen_parts(path: Path, lang: str) -> frozenset[tuple[str, str]]:
    """The heads and tails of hyphenated compounds in ``lang`` (``hyphen_compounds.tsv``: lang, head|tail,
    form): ``("head" | "tail", form)``, the form lower case."""
    rows = (line.split("\t") for line in _lines(path))
    return frozenset((p[1].strip(), p[2].strip().lower()) for p in rows if len(p) >= 3 and p[0].strip() == lang)


def _outcome_phrases(path: Path, lang: str) -> tuple[tuple[str, ...], ...]:
    """The ``lang`` column of ``outcome_phrases.csv`` (alternatives split at ``|``), each phrase as its words."""
    import csv

    if not path.exists():
        return ()
    rows = csv.DictReader(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))
    out = []
    for row in rows:
        for ph in (row.get(lang) or "").split("|"):
            words = tuple(ph.strip().lower().replace("’", "'").split())
            if words and words not in out:
                out.append(words)
    return tuple(out)


@dataclass
class GeneralLexicon:
    """wordfreq's word list for one language: zipf frequency per lower-case word, length buckets."""

    lang: str
    zipf: dict[str, float]
    buckets: dict[int, list[str]]  # candidate words (zipf >= cand_min_zipf) by length
    index: DeletionIndex  # the candidate words' SymSpell deletion index (up to 2 deletions)


@lru_cache(maxsize=4)
def general_lexicon(lang: str, cand_min_zipf: float = 2.0) -> GeneralLexicon:
    """wordfreq frequencies (offline package data) as zipf values, and length-bucketed candidates."""
    import wordfreq

    freqs = wordfreq.get_frequency_dict(lang)
    zipf: dict[str, float] = {}
    buckets: dict[int, list[str]] = {}
    for w, f in freqs.items():
        alpha = w.isalpha()
        # a word with an apostrophe inside (aujourd'hui, jusqu'à, don't) is known, not a candidate: its
        # apostrophe is what an OCR slip loses, never what a repair should add or move
        if f <= 0 or not (alpha or "'" in w[1:-1] and w.replace("'", "").isalpha()):
            continue
        z = math.log10(f) + 9.0
        zipf[w] = z
        if alpha and z >= cand_min_zipf:
            buckets.setdefault(len(w), []).append(w)
    return GeneralLexicon(lang, zipf, buckets, build_deletion_index([w for ws in buckets.values() for w in ws]))


# general word-pair counts per language, from package data: symspellpy ships Google Books n-gram counts for
# English (unigrams and the 243 k most frequent bigrams); no such list is on PyPI for French
BIGRAM_SOURCES = {
    "en": ("symspellpy", "frequency_dictionary_en_82_765.txt", "frequency_bigramdictionary_en_243_342.txt")
}


@dataclass(frozen=True)
class BigramModel:
    """Word and word-pair counts of a large general corpus (lower case, as log10), for context evidence.

    The pair list is cut at a count (``cap`` is just below it, log10), so an absent pair is rarer than
    that: its count is estimated as ``unseen`` times what independent words would give, capped at ``cap``."""

    words: dict[str, float]  # word -> log10 count
    pairs: dict[str, float]  # "w1 w2" -> log10 count (the listed pairs)
    cap: float  # log10 of 0.9 x the smallest listed count
    log_total: float  # log10 of the sum of the word counts
    log_scale: float  # log10 of pair counts per word count (the two lists come from corpora of different sizes)

    def pair(self, a: str, b: str, unseen: float) -> float:
        """log10 count of the pair ``a b`` (estimated when not listed)."""
        n = self.pairs.get(a + " " + b)
        if n is not None:
            return n
        return min(self.cap, math.log10(unseen) + self.log_scale + self.words[a] + self.words[b] - self.log_total)

    def association(self, prev: str, w: str, nxt: str, unseen: float) -> float | None:
        """log10 of how much likelier ``w`` is between ``prev`` and ``nxt`` than alone (pointwise mutual
        information of the two pairs; a neighbour the model does not know, or "", adds nothing); None when
        the model does not know ``w``."""
        lw = self.words.get(w)
        if lw is None:
            return None
        s = 0.0
        lp = self.words.get(prev)
        if lp is not None:
            s += self.pair(prev, w, unseen) - self.log_scale - lp - lw + self.log_total
        ln = self.words.get(nxt)
        if ln is not None:
            s += self.pair(w, nxt, unseen) - self.log_scale - lw - ln + self.log_total
        return s


@lru_cache(maxsize=2)
def bigram_model(lang: str) -> BigramModel | None:
    """The general pair counts of ``lang`` (None when no package ships them)."""
    src = BIGRAM_SOURCES.get(lang)
    if src is None:
        return None
    from importlib import resources

    pkg, uni_name, bi_name = src
    try:
        root = resources.files(pkg)
        uni_text = (root / uni_name).read_text(encoding="utf-8")
        bi_text = (root / bi_name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    uni: dict[str, int] = {}
    for line in uni_text.splitlines():
        w, _, n = line.rpartition(" ")
        if w:
            uni[w] = int(n)
    bi: dict[str, int] = {}
    first: Counter = Counter()
    for line in bi_text.splitlines():
        ab, _, n = line.rpartition(" ")
        a, _, b = ab.partition(" ")
        if a in uni and b in uni:
            bi[ab] = int(n)
            first[a] += int(n)
    # pair counts per word count: the median, over the 200 most frequent words, of their pairs' sum over
    # their own count (a lower bound for each word, the list being cut; the median is robust to that)
    top = sorted(uni, key=uni.__getitem__, reverse=True)[:200]
    ratios = sorted(first[w] / uni[w] for w in top if first[w])
    scale = ratios[len(ratios) // 2] if ratios else 1.0
    lg = math.log10
    return BigramModel(
        {w: lg(n) for w, n in uni.items()},
        {ab: lg(n) for ab, n in bi.items()},
        lg(0.9 * min(bi.values())),
        lg(sum(uni.values())),
        lg(scale),
    )


@dataclass(frozen=True)
class CorpusCounts:
    """Word and bigram counts of the corpus's own raw files of one language (per file)."""

    files: tuple[tuple[str, Counter, Counter], ...] = ()  # (text, unigram counts, bigram counts)


def count_text(text: str) -> tuple[Counter, Counter]:
    toks = tokens_lower(text)
    return Counter(toks), Counter(zip(toks, toks[1:]))


def load_corpus_counts(corpus_dir: Path, lang: str) -> CorpusCounts:
    """Counts of the corpus's own texts in ``lang`` (witnesses of kind ocr count too: OCR errors are
    rare, so a word or bigram seen several times is evidence)."""
    wt = Path(corpus_dir) / "witnesses.toml"
    if not wt.exists():
        return CorpusCounts()
    data = tomllib.loads(wt.read_text(encoding="utf-8"))
    seen = set()
    files = []
    for w in data.get("witness", []):
        if w.get("lang") != lang or w.get("file") in seen:
            continue
        seen.add(w["file"])
        p = Path(corpus_dir) / w["file"]
        if not p.exists():
            continue
        text = nfc(p.read_text(encoding="utf-8"))
        u, b = count_text(text)
        files.append((text, u, b))
    return CorpusCounts(tuple(files))
