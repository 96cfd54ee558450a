"""How the aligner reads a law: a weighted bag of glossary concepts, numbers and outcome phrases, and the content
words of the law (spaCy for French, a blank English tokenizer and the English word forms for English; OCR noise looked
up fuzzily)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from rapidfuzz import fuzz, process
from rapidfuzz.process import cdist

from ..model import Law
from ..textnorm import fold
from .config import AlignConfig, AlignResources, Term
from .lemmas import WORD_RE, en_concept, en_stem, fr_er_infinitives, fr_keys

# ----------------------------------------------------------------------------------------------
# language processing

_DEBRIS_RE = re.compile(r"[\^|<>{}%$«»*\\#@~]")  # OCR debris characters: a word boundary for the aligner


def _fr_nlp(resources: AlignResources):
    nlp = resources._cache.get("fr_nlp")
    if nlp is None:
        from .. import nlp as shared

        nlp = resources._cache["fr_nlp"] = shared.load(resources.fr_model)  # one copy per process
    return nlp


def _en_tokenizer(resources: AlignResources):
    tok = resources._cache.get("en_tok")
    if tok is None:
        from .. import nlp as shared

        tok = resources._cache["en_tok"] = shared.blank("en").tokenizer
    return tok


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
        from ..nlp import pipe

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
                keys = set(fr_keys(lower, t.lemma_))
                if t.pos_ in ("VERB", "AUX") and t.lemma_.lower() == lower:
                    keys.update(fr_er_infinitives(lower))  # the small model leaves "retourne" unlemmatised
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
        from ..nlp import pieces

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
                for w in WORD_RE.findall(lower) or [lower]:
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


def lang_tables(resources: AlignResources) -> _LangTables:
    t = resources._cache.get("tables")
    if t is None:
        t = _LangTables(resources)
        resources._cache["tables"] = t
    return t


def analyse(
    laws: Sequence[Law], resources: AlignResources, config: AlignConfig = AlignConfig()
) -> dict[str, LawAnalysis]:
    """Read each law into concept counts (batched per language)."""
    tabs = lang_tables(resources)
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
