"""The clean stage: raw OCR / transcription text -> reading text + every change as a Correction.

Passes, in order (each proposes edits on the current text; :class:`~pipeline.edits.EditBuffer`
composes them into non-overlapping Corrections on the raw text, so ``replay(raw, corrections) == text``):

1. normalisation: control/format characters, mojibake and ligatures (ftfy); the long s and other old
   letter forms (``lexicon/glyphs.tsv``); quotes, guillemets and the spacing before punctuation are kept
   as printed;
2. web-debris lines (another script than the witness language; patterns of ``lexicon/debris.tsv``);
3. running heads and page numbers (lines and inline ``HEAD NN HEAD``) -> PageBreak + Correction;
4. hyphenation joins (end of line, end of page, hyphen left inside a line) unless ``join_hyphens=False``;
5. OCR debris characters (stray ``^ | *``, an unpaired French ``»`` read for a comma, or for an s after a
   word of one or two letters; witness text: specks for spaces, misplaced commas, line-edge apostrophes),
   glued guillemets, debris and punctuation inside words, capitals inside words, digits' look-alikes;
6. merged/split words, then word repair (non-words, elisions, elisions whose apostrophe became another
   glyph); a repair below ``apply_confidence`` is a Flag, not a change;
7. witness-internal phrase repair (witness text): a damaged token read as a word n-gram the witness itself
   prints at least ``phrase_min_count`` times (``soa choix`` -> ``son choix``), method ``witness-phrase``;
8. real words by context (witness bigrams), then real-word confusions by grammar
   (``lexicon/realword.tsv``: ``on`` -> ``ou``, ``eu`` -> ``en``, ``be`` -> ``he`` ...; spaCy tags only for
   sentences holding a candidate), method ``realword-rule``, then by a general corpus's word pairs
   (English: symspellpy's bigram counts), method ``bigram-context``.

General mode (``general_resources``: no domain lexicon) is measured on ICDAR 2017: French repairs there are
conservative (no guessed splits/elisions; non-word repairs only with a clearly unique candidate), and the
passes that need a book's own evidence or were measured harmful on press text are off (the ``general_*``
fields and comments of :class:`CleanConfig`).

Public API: :func:`clean`, :func:`clean_text`, :func:`clean_lines`, :func:`load_resources`,
:func:`general_resources`, :class:`CleanConfig`, :class:`CleanResources`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import regex

from .edits import Edit, EditBuffer, non_overlapping
from .lexicon import CorpusCounts, GeneralLexicon, LexiconData, general_lexicon, load_lexicon_data
from .model import Cleaned, Flag, PageBreak, Regularisation, Witness, WitnessText, offset_maps
from .normalise import (
    pass_control,
    pass_debris_chars,
    pass_number_lookalikes,
    pass_debris_lines,
    pass_glued_guillemet,
    pass_ftfy,
    pass_glyphs,
    pass_hyphenation,
    pass_inner_capital,
    pass_inword_debris,
    pass_punct_in_word,
    pass_running_heads,
)
from .repair import APOS, JUNK, TOKEN_SPLIT, Context, Repairer, bigram_edits, case_like, merge_edits, stripped_spans, stripped_tokens

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = PROJECT_ROOT / "corpus"


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
    word_min_zipf: float = 3.0  # wordfreq zipf at which a word counts as known (hyphen joins, merges)
    nonword_zipf: float = 3.0  # printed words less frequent are judged by the noisy channel alone (margin)
    real_word_zipf: float = 2.3  # printed words at least this frequent may also be changed with corpus evidence
    compound_part_zipf: float = 3.0  # both parts this frequent + joined form unknown: a real compound
    domain_boost: float = 1.0  # prior bonus (zipf units) of domain terms
    domain_floor: float = 3.5  # domain terms absent from wordfreq count as this frequent
    corpus_boost: float = 0.5  # prior bonus per decade of occurrences in the corpus / the witness
    corpus_min_count: int = 2  # occurrences before the corpus counts as evidence
    # decisions
    margin: float = 2.6  # score gain (zipf units) a repair must show over the printed word (2.2: FR ICDAR right->wrong 0.22 %)
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
    merge_min_zipf: float = 3.0  # a merge of two tokens must give a word this frequent
    lost_hyphen_min_part: int = 2  # hyphens kept: a split word with parts this long gets back its lost line-end hyphen
    # ... in these languages; elsewhere such a split is left as printed.  ICDAR 2017 dev: English 270 of the
    # 294 splits have the hyphen in the gold (5.1 -> 7.0 % CER reduction); French 3 helpful / 8 harmful as
    # scored (that gold keeps the OCR's split as often as it prints the hyphen, and then without a space)
    lost_hyphen_langs: tuple[str, ...] = ("en",)
    lost_hyphen_min_zipf: float = 3.0  # ... when a part is a fragment and the join is this frequent
    lost_hyphen_margin: float = 2.5  # ... or two known words whose join general print has 10^2.5 x as often as the pair
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
    determiner_participle: bool = True  # French witness text: "la donné" -> "la donne" (see _determiner_participle_pass)
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


@dataclass
class CleanResources:
    """Everything the clean stage reads: data files and wordfreq lists (``corpus`` stays empty: kept for
    compatibility; a witness is cleaned from its own text, the data files and the config only)."""

    lang: str
    lexdata: LexiconData
    general: GeneralLexicon
    corpus: CorpusCounts = field(default_factory=CorpusCounts)
    _repairers: dict = field(default_factory=dict, repr=False)

    def repairer(self, cfg: CleanConfig) -> Repairer:
        r = self._repairers.get(cfg)
        if r is None:
            r = self._repairers[cfg] = Repairer(self, cfg)
        return r


@lru_cache(maxsize=8)
def _load(corpus_dir: str, lang: str, domain: bool) -> CleanResources:
    cdir = Path(corpus_dir)
    lex = load_lexicon_data(cdir / "lexicon", lang, domain=domain)
    # only data files and general word lists: never the other raw texts of the corpus (the build caches
    # each witness's cleaning by its own raw text + code + data files)
    return CleanResources(lang, lex, general_lexicon(lang, CleanConfig.cand_min_zipf))


def load_resources(corpus_dir: Path, lang: str, domain: bool = True) -> CleanResources:
    """Load (once, cached) the resources for ``lang``: ``corpus_dir/lexicon`` data files, wordfreq
    frequencies and, with ``domain=True``, game terms, known heads and the corpus's own word counts."""
    return _load(str(Path(corpus_dir).resolve()), lang, domain)


def general_resources(lang: str, corpus_dir: Path = DEFAULT_CORPUS) -> CleanResources:
    """General resources only (no domain lexicon, no corpus counts): for text from outside the corpus."""
    return load_resources(corpus_dir, lang, domain=False)


def card_game_share(text: str, domain_terms: frozenset[str]) -> float:
    """Share of the words of ``text`` that are card-game terms (0.0 for a text without words)."""
    words = [w.lower() for w in regex.findall(r"\p{L}+", text)]
    return sum(w in domain_terms for w in words) / len(words) if words else 0.0


def resources_for(text: str, lang: str, mode: str = "auto", corpus_dir: Path = DEFAULT_CORPUS,
                  config: CleanConfig = CleanConfig()) -> CleanResources:
    """The resources to clean ``text`` with: ``domain`` (card-game lexicon, known running heads, witness
    rules), ``general`` (word lists and OCR data only), or ``auto``: domain when at least
    ``config.domain_min_share`` of its words are card-game terms.  The domain resources tuned for rule
    books damage other text (ICDAR 2017 French press: CER 7.14 -> 7.32 % with them, 7.13 % without)."""
    if mode not in ("auto", "domain", "general"):
        raise ValueError(f"resources mode {mode!r}: want auto, domain or general")
    if mode == "auto":
        terms = load_resources(corpus_dir, lang).lexdata.domain
        mode = "domain" if card_game_share(text, frozenset(w.lower() for w in terms)) >= config.domain_min_share else "general"
    return load_resources(corpus_dir, lang, domain=mode == "domain")


def _rare_join(text: str, rep: Repairer, cfg: CleanConfig):
    """``pre- tence`` -> ``pretence``: the joined word is known at any frequency (or printed whole
    elsewhere in the witness) and the two parts are not both common words (``well- known`` stays)."""
    from .lexicon import count_text

    doc, _ = count_text(text)

    def ok(a: str, b: str) -> bool:
        j = (a + b).lower()
        if not (rep.zipf.get(j, 0.0) > 0 or doc.get(j, 0) >= 1 or rep.protected(j)):
            return False
        za, zb = rep.zipf.get(a.lower(), 0.0), rep.zipf.get(b.lower(), 0.0)
        return not (za >= cfg.join_part_zipf and zb >= cfg.join_part_zipf)

    return ok


def _sentence_start(text: str, pos: int) -> bool:
    j = pos - 1
    while j >= 0 and text[j] in " \t\n\"'«“‘(":
        j -= 1
    return j < 0 or text[j] in ".!?:—"


def _word_pass(buf: EditBuffer, rep: Repairer, cfg: CleanConfig, flags: list, regs: list, real_words: bool) -> None:
    text = buf.text
    if real_words and not rep.local:
        return  # no witness pool (general resources): no real-word candidates, nothing to decide
    ctx = Context(rep, text, cfg.use_context)
    if real_words and not ctx.pool:
        return  # (too little text to be evidence: the same)
    # the tokens, leading/trailing apostrophes and guillemets stripped
    clean_toks = stripped_spans(TOKEN_SPLIT, text, APOS + "»", rep.memo("word_tokens"))
    edits: list[Edit] = []
    busy = set()  # the tokens a merge joins
    if not real_words:
        for i, e in merge_edits(text, rep, clean_toks, keep_hyphens=not cfg.join_hyphens):
            edits.append(e)
            busy.update((i, i + 1))
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

    for k in todo:
        s, e, t = clean_toks[k]
        prev, lw, nxt = low(k - 1), low(k), low(k + 1)
        if rep.protected(lw):
            reg = rep.hist.get(lw)
            if reg and reg.lower() != lw and not real_words:
                regs.append((s, e, t, case_reg(t, reg)))
            continue
        if _hyphen_fragment(text, s, e):
            continue  # half of a word split by a hyphen at a line end: judged with its other half or not at all
        parts = _parts(t)
        for off, part in parts:
            ps, pe = s + off, s + off + len(part)
            ctx.sentence_start = off == 0 and _sentence_start(text, s)
            if rep.domain and not real_words:
                hit = _damaged_elision(part, rep, ps)
                if isinstance(hit, Edit):
                    edits.append(hit)
                    continue
                if hit is not None:
                    flags.append(hit)  # an elision no reading stands out for: left as printed, no other word guessed
                    continue
            # elision / possessive: repair only the word part
            sub_off, word, prefix_fix = _split_apostrophe(part, rep)
            if word is None:
                continue
            protected = rep.protected(word.lower())
            if protected and not prefix_fix:
                continue
            if real_words and (prefix_fix or any(c in JUNK for c in word)):
                continue
            # (a protected word keeps its spelling, not the debris read for its apostrophe: l*adversaire)
            d = None if protected else rep.decide(word, prev, nxt, ctx)
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
                edits.append(Edit(a_s, we, "'" + after_word, "elision", "lexicon:elision", d.confidence if d else 0.9, (d.candidates if d else ()), f"elision apostrophe read as {text[a_s]!r}" + (f"; {d.evidence}" if d else "")))
                continue
            if d is None:
                continue
            if d.apply:
                edits.append(Edit(ws, we, d.after, d.kind, d.method, d.confidence, d.candidates, d.evidence))
            else:
                flags.append((ws, we, word, d.candidates, d.confidence, d.evidence))
    edits = [e for e in edits if e.start not in merged_at or e.kind == "merge"]
    # map flags/regularisations to raw before applying
    buf.apply(non_overlapping(edits))


from rapidfuzz.distance import Levenshtein

PRINTED_TOKEN = regex.compile(r"\S+")
PRINTED_SPLIT = regex.compile(r"(\S+)")
EDGE_PUNCT = ".,;:!?\"«»“”()[]"
PHRASE_WORD = regex.compile(r"[\p{L}][\p{L}'’]*")


CLAUSE_BREAK = r".,;:!?»«()\[\]—\n"  # (a character class body) characters no phrase n-gram spans
# a clean word (letters and apostrophes, from a letter) as group 1; any other token or clause break matches as ""
PHRASE_TOKENS = regex.compile(rf"(\p{{L}}[\p{{L}}']*+)(?![^\s{CLAUSE_BREAK}])|[^\s{CLAUSE_BREAK}]+|[{CLAUSE_BREAK}]+")
APOS_SPLIT = regex.compile(r"['’]")


def _phrase_ngrams(text: str, cfg: CleanConfig) -> dict[tuple[str, ...], int]:
    """Word n-grams (n = 2..4, inside a clause: never across punctuation) seen ``phrase_min_count`` times.

    Counted level by level: an n-gram is printed at least as often as each of its (n-1)-grams, so only the
    positions where both (n-1)-grams are frequent are counted at the next level (the counts are exact)."""
    from collections import Counter

    # the words of the text in order, "" for a clause break or a token that is no clean word (no n-gram
    # spans either): one findall, the counting over zips in C
    flat = PHRASE_TOKENS.findall(text.lower().replace("’", "'"))
    k = cfg.phrase_min_count
    out = {g: c for g, c in Counter(zip(flat, flat[1:])).items() if c >= k and g[0] and g[1]}
    frequent = out
    shorter = list(zip(flat, flat[1:]))
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
    grams = _phrase_ngrams(text, cfg)
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
    by_anchor: dict[tuple, list[tuple[str, ...]]] = {}
    for g in grams:
        glen = len(g)
        for lp in range(glen):
            for ls in range(glen - lp):
                by_anchor.setdefault((glen, g[:lp], g[glen - ls :]), []).append(g)
    cost_cache: dict = {}

    def cost(printed: str, target: str) -> float:
        key = (printed, target)
        v = cost_cache.get(key)
        if v is None:
            # (a reading is kept only at most phrase_max_cost and phrase_cost_per_char per character)
            cut = min(cfg.phrase_max_cost, cfg.phrase_cost_per_char * len(target))
            v = cost_cache[key] = rep.channel.cost(_debris_mapped(printed), target, cut)
        return v

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
                selected = [(glen, by_anchor[(glen, pre, suf)]) for glen in lengths
                            if len(pre) + len(suf) < glen <= span and (glen, pre, suf) in by_anchor]
                if not selected:
                    continue
                win = list(map(tok, range(a, b + 1)))
                if any(text[win[k][1] : win[k + 1][0]].strip() for k in range(len(win) - 1)):
                    continue  # punctuation between the tokens: not one phrase
                mid_s, mid_e = win[lo][0], win[hi][1]
                printed = text[mid_s:mid_e]
                plen = len(printed)
                mapped = _debris_mapped(printed).lower()
                for glen, grams_sel in selected:
                    for g in grams_sel:
                        target = " ".join(g[len(pre) : glen - len(suf)])
                        if abs(len(target) - plen) > 3 or target == printed.lower():
                            continue
                        bare = not pre and not suf
                        lim = cfg.phrase_bare_max_edits if bare else min(cfg.phrase_max_edits, len(target) // 2 + 1)
                        if Levenshtein.distance(mapped, target, score_cutoff=lim) > lim:
                            continue  # plain edit distance first (C): the channel cost only for near readings
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
        kind = "spelling" if target.count(" ") == printed.count(" ") else ("split" if target.count(" ") > printed.count(" ") else "merge")
        ev = f"witness phrase {' '.join(g)!r} printed {grams[g]} times; {printed!r} -> {target!r} costs {c:.2f}" + (
            f", next reading {rivals[0][4]!r} {rivals[0][0]:.2f}" if rivals else "")
        conf = round(min(0.95, 0.6 + 0.1 * (grams[g] - cfg.phrase_min_count + 1)), 3)
        edits.append(Edit(ms, me, after, kind, "witness-phrase", conf, (target,), ev))
        used_until = me
    return non_overlapping(edits)


ELISION_FIXES = (
    # (pattern, replacement builder, what): an elided article/pronoun whose apostrophe or letter OCR misread
    (regex.compile(r"(?<![\p{L}'’])[TJI1]['’](on)\b"), lambda m: "l'" + m.group(1), "l'on with l read as a capital"),
    (regex.compile(r"(?<![\p{L}'’])([Qq]u)\p{Lu}(ls?)\b"), lambda m: m.group(1) + "'i" + m.group(2), "qu'il with 'i read as a capital"),
)
LEADING_APOS = regex.compile(r"(?<=[\s(])['’]([aeiouyéèêâîôûh]\p{Ll}+)\b")
CAP_T_ELISION = regex.compile(r"(?<![\p{L}'’])T([aeiouéèêâîô]\p{Ll}+)\b")


def _elision_pass(text: str, rep: Repairer) -> list[Edit]:
    """French elisions damaged by OCR: ``J'on`` -> ``l'on``, ``quMl`` -> ``qu'il``, ``Tautre`` ->
    ``l'autre`` (l' read as T), `` 'ordre`` -> ``l'ordre`` (the l lost) when the word is known."""
    edits = []
    for pat, fix, why in ELISION_FIXES:
        for m in pat.finditer(text):
            edits.append(Edit(m.start(), m.end(), fix(m), "elision", "regex:elision", 0.85, (fix(m),), why))
    if not rep.domain and not rep.cfg.general_elision_guesses:
        return non_overlapping(edits)
    for m in CAP_T_ELISION.finditer(text):
        w = m.group(1)
        if rep.is_word(w) and not rep.is_word("t" + w) and not _sentence_start(text, m.start()):
            edits.append(Edit(m.start(), m.start(1), "l'", "elision", "lexicon:elision", 0.8, ("l'" + w,), f"l' read as T before {w!r}"))
    for m in LEADING_APOS.finditer(text):
        w = m.group(1)
        if rep.is_word(w) and text[m.end(): m.end() + 1] not in ("'", "’"):
            edits.append(Edit(m.start(), m.start(), "l", "elision", "lexicon:elision", 0.75, ("l'" + w,), f"l of l' lost before {w!r}"))
    return non_overlapping(edits)


FRAGMENT_BEFORE = regex.compile(r"\p{L}[-¬]\s*$")


def _inert(t: str, rep: Repairer) -> bool:
    """Whether the word pass leaves token ``t`` alone whatever its context, when the text gives no witness
    pool: not protected as a whole, and each part (after its elision) is skipped or a word so frequent
    that ``Repairer.decide`` keeps it (its first test), with no debris apostrophe to fix."""
    if rep.protected(t.lower().replace("’", "'")):
        return False  # (a historical spelling may be recorded as a regularisation)
    known = max(rep.cfg.nonword_zipf, rep.cfg.real_word_zipf)
    for _off, part in _parts(t):
        _sub, word, prefix_fix = _split_apostrophe(part, rep)
        if word is None:
            continue
        if prefix_fix is not None:
            return False
        if rep.protected(word.lower()):
            continue
        if rep.zipf.get(word.lower().replace("’", "'"), 0.0) < known:
            return False
    return True


def _hyphen_fragment(text: str, s: int, e: int) -> bool:
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


ELISION_INITIALS = "aeiouyhâàéèêîôûœæ"  # what a French elided word begins with (l'as, l'homme)
ELISION_JUNK = regex.compile(r"^([\p{L}]{1,7})([*^|%$])([\p{Ll}\p{M}].*)$")


def _split_apostrophe(part: str, rep: Repairer) -> tuple[int, str | None, tuple[int] | None]:
    """(offset of the word part, word part or None to skip, (offset of a debris apostrophe,) or None)."""
    for ap in APOS:
        if ap in part:
            pre, _, rest = part.partition(ap)
            if pre.lower() in rep.elision and rest:
                return len(pre) + 1, rest, None
            if rep.lang == "en" and rest.lower() in ("s", "t", "ll", "re", "ve", "d") and pre:
                return 0, pre, None
            return 0, None, None
    m = ELISION_JUNK.match(part)
    if m and m.group(1).lower() in rep.elision and m.group(3)[:1].lower() in ELISION_INITIALS:
        return len(m.group(1)) + 1, m.group(3), (len(m.group(1)),)
    return 0, part, None


DAMAGED_ELISION = regex.compile(r"(\p{L}\p{Ll}?)([^\p{Ll}\p{M}'’\s])(\p{Ll}{1,3})")


def _damaged_elision(part: str, rep: Repairer, start: int) -> Edit | tuple | None:
    """An elision whose apostrophe the OCR read as another glyph, before a short word: ``dHin`` ->
    ``d'un``, ``cVst`` -> ``c'est``, ``qu\\m`` -> ``qu'un``, ``l*nn`` -> ``l'un``.  The token must be an
    elision prefix (``corpus/lexicon/elision.tsv``), one glyph that is no lower-case letter, and 1..3
    lower-case letters, and no word itself; the word is read among the language's words of zipf
    ``elision_short_min_zipf`` or more that begin with a vowel or h, the glyph counting as debris (the
    channel's ``^``), and must beat the next reading and the plain repair of the token by
    ``elision_short_sep``.  None: not such a token; a flag (start, end, token, candidates, confidence,
    evidence) when no reading stands out (then no other word is guessed for it either: ``dHin`` is
    no ``rhin``)."""
    m = DAMAGED_ELISION.fullmatch(part)
    if m is None or m.group(1).lower() not in rep.elision or rep.is_word(part.lower()):
        return None
    cfg = rep.cfg
    pools = rep.memo("elision_short_words")  # (one entry: the frequent words an elision may come before)
    pool = pools.get(cfg.elision_short_min_zipf)
    if pool is None:
        pool = pools[cfg.elision_short_min_zipf] = sorted(
            w for w, z in rep.zipf.items() if z >= cfg.elision_short_min_zipf and w[:1] in ELISION_INITIALS and w.isalpha())
    damaged = "^" + m.group(3)
    scored = sorted(((rep.zipf_of(w) - cfg.channel_scale * c, w, c) for w, c in
                     ((w, rep.channel.cost(damaged, w, cfg.elision_short_max_cost)) for w in pool)
                     if c <= cfg.elision_short_max_cost), reverse=True)
    if not scored:
        return None
    readings = tuple(m.group(1) + "'" + x for _, x, _ in scored[: cfg.report_candidates])
    best, w, c = scored[0]
    second = scored[1][0] if len(scored) > 1 else -99.0
    plain = [z - cfg.channel_scale * pc for x, pc in rep.candidates(part) if (z := rep.zipf_of(x)) > 0]
    rival = max([second] + plain)
    after = m.group(1) + "'" + w
    conf = round(1.0 / (1.0 + 10 ** (-(best - rival - cfg.elision_short_sep + cfg.conf_offset))), 3)
    why = (f"{part!r}: elision {m.group(1)}' + {w!r} (apostrophe read as {m.group(2)!r}; cost {c:.2f}, score {best:.2f}) "
           f"vs next {rival:.2f}")
    if best - rival < cfg.elision_short_sep or best < cfg.unknown_margin:
        return (start, start + len(part), part, readings, conf, why + ": no clear reading")
    return Edit(start, start + len(part), after, "elision", "lexicon:elision-glyph", conf, (after,), why)


def _raw_flags_regs(buf: EditBuffer, flags_cur, regs_cur, flags_out, regs_out):
    for s, e, t, cands, conf, why in flags_cur:
        rs, re_ = buf.raw_span(s, e)
        flags_out.append(Flag(rs, re_, buf.raw[rs:re_], tuple(cands), conf, why))
    for s, e, t, reg in regs_cur:
        rs, re_ = buf.raw_span(s, e)
        regs_out.append(Regularisation(rs, re_, buf.raw[rs:re_], reg))


def _run(raw: str, resources: CleanResources, config: CleanConfig):
    lex = resources.lexdata
    buf = EditBuffer(raw)
    pending = []
    flags: list[Flag] = []
    regs: list[Regularisation] = []
    buf.apply(pass_control(buf.text))
    if config.use_ftfy:
        buf.apply(pass_ftfy(buf.text))
    if config.read_glyphs:
        buf.apply(pass_glyphs(buf.text, lex.glyphs))
    if config.remove_layout:
        buf.apply(pass_debris_lines(buf.text, lex, config.foreign_script_ratio, config.foreign_frame_words))
        edits, pending = pass_running_heads(buf.text, lex, config, buf.raw_span)
        buf.apply(edits)
    rep = resources.repairer(config)
    if config.join_hyphens:
        buf.apply(pass_hyphenation(buf.text, rep.is_word, rep.is_compound, _rare_join(buf.text, rep, config)))
    buf.apply(pass_debris_chars(buf.text, resources.lang, config, rep.elision, bool(rep.domain), lex.blots, rep.is_word, rep.zipf_of))
    if config.repair_words:
        if config.guillemet_letters:
            buf.apply(pass_glued_guillemet(buf.text, config.guillemet_letters, rep.is_word, rep.zipf_of, config.guillemet_letter_gain, rep.elision))
        buf.apply(pass_inword_debris(buf.text, config.inword_debris, rep.is_word, rep.domain.__contains__))
        buf.apply(pass_punct_in_word(buf.text, rep.is_word))
        if rep.domain:  # (witness text only: the ICDAR FR dev gold keeps such capitals, nulLement, 3 helpful / 9 harmful)
            buf.apply(pass_inner_capital(buf.text, rep.is_word))
        buf.apply(pass_number_lookalikes(buf.text, lex.lookalikes))
        if rep.lang == "fr" and "l" in rep.elision:
            buf.apply(_elision_pass(buf.text, rep))
    if config.repair_words:
        fl, rg = [], []
        _word_pass(buf, rep, config, fl, rg, real_words=False)
        # flags/regs were found on the text before this pass's edits: recompute their raw spans
        # from the corrections (words kept as printed are not inside any correction)
        _flags_regs_from_prev(buf, fl, rg, flags, regs)
        if config.phrase_repair and (rep.domain or config.general_phrase_repair):
            for _ in range(config.phrase_rounds):  # a repaired token can anchor its damaged neighbour
                ed = _phrase_pass(buf.text, rep, config)
                if not ed:
                    break
                buf.apply(ed)
        if config.use_context:
            fl, rg = [], []
            _word_pass(buf, rep, config, fl, rg, real_words=True)
            _flags_regs_from_prev(buf, fl, rg, flags, regs)
        if config.realword_rules and lex.realword:
            buf.apply(non_overlapping(rep.realword_rules().edits(buf.text, config.realword_max_sentences)))
        if config.bigram_context:
            buf.apply(non_overlapping(bigram_edits(buf.text, rep, _hyphen_fragment)))
        if config.determiner_participle and rep.lang == "fr" and rep.domain:
            buf.apply(_determiner_participle_pass(buf.text, rep, config))
    return buf, pending, flags, regs


FEM_DET_E = regex.compile(r"(?<![\p{L}'’])(la|une|sa|cette|ma|ta)(\s+)(\p{L}+)é(?![\p{L}'’])", regex.IGNORECASE)


def _determiner_participle_pass(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    """French: a feminine determiner before a word in -é (``la donné``) reads a noun the witness itself
    prints at least ``determiner_min_count`` times in -e (``donne``): the accent is an OCR slip.
    (Feminine nouns in -é, ``la cité``, have no -e noun the witness keeps printing.)"""
    from .lexicon import count_text

    doc, _ = count_text(text)
    out = []
    for m in FEM_DET_E.finditer(text):
        e = (m.group(3) + "e").lower()
        if doc.get(e, 0) >= cfg.determiner_min_count and rep.is_word(e):
            s = m.end() - 1
            out.append(Edit(s, m.end(), "e", "real_word", "grammar:determiner-noun", 0.75, (m.group(3) + "e",),
                            f"{m.group(1)!r} + {m.group(3) + 'é'!r}: a participle cannot follow a determiner; the witness prints {e!r} {doc[e]} times"))
    return out


def _flags_regs_from_prev(buf, fl, rg, flags, regs):
    # The spans were taken on the text before the pass; the pass only changed other words, so we
    # locate each flagged word by searching its text near the old position in the new text.
    for s, e, t, cands, conf, why in fl:
        pos = _relocate(buf.text, t, s)
        if pos is None:
            continue
        rs, re_ = buf.raw_span(pos, pos + len(t))
        if buf.raw[rs:re_] == t:
            flags.append(Flag(rs, re_, t, tuple(cands), conf, why))
    for s, e, t, reg in rg:
        pos = _relocate(buf.text, t, s)
        if pos is None:
            continue
        rs, re_ = buf.raw_span(pos, pos + len(t))
        if buf.raw[rs:re_] == t:
            regs.append(Regularisation(rs, re_, t, reg))


def _relocate(text: str, t: str, s: int) -> int | None:
    lo = max(0, s - 200)
    best = None
    i = text.find(t, lo, s + 200 + len(t))
    while i != -1 and i <= s + 200:
        if best is None or abs(i - s) < abs(best - s):
            best = i
        i = text.find(t, i + 1, s + 200 + len(t))
    return best


def clean(text: WitnessText, resources: CleanResources, config: CleanConfig = CleanConfig()) -> Cleaned:
    """Clean one witness.  ``replay(text.raw, result.corrections) == result.text``."""
    raw = text.raw
    buf, pending, flags, regs = _run(raw, resources, config)
    corrections = tuple(buf.corrections)
    _, raw_to_clean = offset_maps(raw, corrections)
    breaks = tuple(
        PageBreak(p.raw_start, p.raw_end, raw_to_clean[p.raw_start], p.page, p.head, p.printed) for p in pending
    )
    return Cleaned(
        witness_id=text.witness.id,
        raw=raw,
        text=buf.text,
        corrections=corrections,
        page_breaks=breaks,
        flags=tuple(sorted(flags, key=lambda f: f.start)),
        regularisations=tuple(sorted(regs, key=lambda r: r.start)),
    )


def clean_text(s: str, lang: str, resources: CleanResources | None = None, config: CleanConfig = CleanConfig()) -> str:
    """Clean any text (general resources when none are given)."""
    res = resources if resources is not None else general_resources(lang)
    w = Witness(id="text", file="-", game="ecarte", lang=lang, kind="ocr", title="text")
    return clean(WitnessText(w, s), res, config).text


def clean_lines(lines: list[str], lang: str, resources: CleanResources | None = None, config: CleanConfig = CleanConfig()) -> list[str]:
    """Clean each line on its own (the ``--lines`` mode): exactly as many lines out as in.

    Layout removal and hyphen joins across lines are off; a line that cleans to nothing stays empty.
    """
    from dataclasses import replace

    cfg = replace(config, remove_layout=False) if config.remove_layout else config
    out = []
    for line in lines:
        t = clean_text(line.rstrip("\n"), lang, resources, cfg)
        out.append(t.replace("\n", " "))
    return out
