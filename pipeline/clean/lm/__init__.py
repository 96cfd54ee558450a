"""The language-model voice of word repair: how likely a word is between the two words on each side.

Two modules: :mod:`.voice` (the models and the mixture, :class:`Voice`) and :mod:`.propose` (the doubtful
tokens and their candidates, the decision); :class:`LMConfig` lives with the stage's settings (:mod:`..config`).

A candidate reading ``c`` of the printed token ``t_i`` is scored by the change of log10 probability of
the window ``t_{i-2} .. t_{i+2}``: the sum of ``log P(t_j | t_{j-1}, t_{j-2})`` for ``j = i .. i+2`` with
``c`` in place of the printed word, minus the same sum as printed (:meth:`Voice.delta`).  The probability
of one word is a mixture (:meth:`Voice.logp`) of

* the general English trigram model that PyPI ``pocketsphinx`` ships in its wheel (``en-us.lm.bin``,
  72 k words, 2.1 M bigrams, 1.7 M trigrams; modern American vocabulary): ``w_trigram``;
* the general word pairs the cleaner already loads (:func:`pipeline.clean.lexicon.bigram_model`, Google Books
  counts from symspellpy): ``w_pairs``;
* the witness's own word pairs (a book repeats its phrases): ``w_doc``.

Period words (the historical and domain lexicons, the extra word lists passed as ``period``: GCIDE's
Webster 1913 headwords when installed) that the modern model does not know are backed off to
``period_logp`` instead of the unknown-word floor: the model never argues them into modern words, and
:func:`proposals` never proposes a change of one.  French has no n-gram model offline: its voice is the
witness's own pairs and the word's frequency.

:func:`proposals` lists the doubtful tokens of a text (non-words, words with debris or digits inside, and
real words one cheap OCR confusion away from another word) with their candidates as
(word, channel cost, LM change); :func:`decide` turns one proposal into an edit, a flag or nothing for a
given :class:`LMConfig`.  The split lets :mod:`measure.folds` tune the weights on folds without
recomputing the language model.
"""

from ..config import LMConfig
from .propose import (
    JUNK_CHARS,
    LM_TOKEN,
    LM_TOKEN_SPLIT,
    Proposal,
    SPLIT_TAIL,
    VOICES,
    Verdict,
    WORD,
    apply_verdicts,
    bad_elision,
    decide,
    frequent_neighbours,
    has_junk,
    hyphen_proposal,
    lm_tokens,
    margin_of,
    may_reach,
    name_variants,
    near_words,
    proposals,
    rank,
    voice_for,
    witness_slips,
)
from .voice import (
    BOUNDARY,
    LOG_BASE,
    PS_UNKNOWN,
    Voice,
    gcide_words,
    trigram_model,
    trigram_path,
)

__all__ = [
    "BOUNDARY",
    "JUNK_CHARS",
    "LMConfig",
    "LM_TOKEN",
    "LM_TOKEN_SPLIT",
    "LOG_BASE",
    "PS_UNKNOWN",
    "Proposal",
    "SPLIT_TAIL",
    "VOICES",
    "Verdict",
    "Voice",
    "WORD",
    "apply_verdicts",
    "bad_elision",
    "decide",
    "frequent_neighbours",
    "gcide_words",
    "has_junk",
    "hyphen_proposal",
    "lm_tokens",
    "margin_of",
    "may_reach",
    "name_variants",
    "near_words",
    "proposals",
    "rank",
    "trigram_model",
    "trigram_path",
    "voice_for",
    "witness_slips",
]
