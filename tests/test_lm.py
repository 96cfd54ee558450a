"""The language-model voice of word repair (pipeline.clean.lm) and fold-based tuning (measure.folds)."""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.clean import lm
from pipeline.clean import CleanConfig, general_resources
from measure.folds import cross_validate, doc_folds, pooled


@pytest.fixture(scope="module")
def rep():
    return general_resources("en").repairer(CleanConfig())


def sentence_logp(v: lm.Voice, text: str) -> float:
    words = text.split()
    s, p1, p2 = 0.0, lm.BOUNDARY, ""
    for w in words:
        s += v.logp(w, p1, p2)
        p1, p2 = w, p1
    return s


@pytest.mark.parametrize(
    "right,wrong",
    [
        ("the king takes the trick", "tire king takes the trick"),
        ("he is obliged to play", "be is obliged to play"),
        ("the card must be played", "the card must he played"),
        ("and the king wins", "ami the king wins"),
        ("the dealer deals the cards", "tho dealer deals the cards"),
        ("the players cut the pack", "tile players cut the pack"),
    ],
)
def test_trigram_voice_prefers_the_right_sentence(right, wrong):
    v = lm.Voice("en")
    assert sentence_logp(v, right) > sentence_logp(v, wrong) + 1.0


def test_period_word_unknown_to_the_modern_model_is_backed_off_not_floored():
    cfg = lm.LMConfig()
    plain = lm.Voice("en", cfg)
    period = lm.Voice("en", cfg, period=frozenset({"shew"}))
    assert plain.logp("shew", "must", "he") == cfg.unk_logp
    assert period.logp("shew", "must", "he") >= cfg.period_logp


def test_witness_pairs_are_a_voice_and_the_printed_pair_is_no_evidence_for_itself():
    cfg = lm.LMConfig(w_trigram=0.0, w_pairs=0.0, w_doc=1.0)
    uni = Counter({"the": 10, "trump": 4})
    bi = Counter({("the", "trump"): 4, ("the", "tramp"): 1})
    v = lm.Voice("fr", cfg, doc_uni=uni, doc_bi=bi, trigram=None)
    assert v.logp("trump", "the", "") > v.logp("tramp", "the", "")
    assert v.logp("tramp", "the", "") == cfg.unk_logp  # seen once: only the printed occurrence


def test_a_non_word_is_repaired_by_its_context(rep):
    text = "He held the ordinaty cards of the game in his hand."
    v = lm.voice_for(text, rep)
    vs = [lm.decide(p, lm.LMConfig(margin=1.0)) for p in lm.proposals(text, rep, v)]
    assert lm.apply_verdicts(text, vs) == "He held the ordinary cards of the game in his hand."


def test_a_word_joined_to_a_number_by_a_dash_is_judged(rep):
    """A hyphen before a digit (OFrIces-44) makes no line-end fragment: the word is judged as any other; a
    fragment with its hyphen kept (atten- tion) still is not."""
    for text, want in (
        ("He was told of it. OFrIces-44, Pall Mall, London.", "OFFICES-44"),
        ("He paid the rent of the houfe-44 in the Strand.", "house-44"),
        ("He paid the atten- tion due to the matter.", "atten- tion"),
    ):
        v = lm.voice_for(text, rep)
        out = lm.apply_verdicts(text, [lm.decide(p, lm.LMConfig()) for p in lm.proposals(text, rep, v)])
        assert want in out


def test_a_repair_keeps_the_case_of_the_printed_word():
    from pipeline.clean.tokens import case_like

    # a capitals word with some letters read in lower case is written in capitals; Title case and a name with one
    # inner capital (McLeod) or a misread capital H (IIe) keep their pattern
    assert case_like("OFrIces", "offices") == "OFFICES"
    assert (
        case_like("Tbe", "the") == "The"
        and case_like("IIe", "he") == "He"
        and case_like("McLeod", "mcleod") == "Mcleod"
    )
    assert case_like("tbe", "the") == "the"


def test_a_misread_name_gets_the_rare_word_one_cheap_confusion_away(rep):
    """Names are rare words, below the candidate index: a capitalised non-word one cheap OCR confusion from
    a word some lexicon knows (Fountainbridge, c read for e) is read as it, when the settings allow."""
    text = "He lived near Fountainbridgc for many years."
    on = lm.LMConfig(name_variant_cost=0.4, name_lexicon_gain=2.0)
    for cfg, want in ((on, "Fountainbridge"), (lm.LMConfig(name_variant_cost=0.0), "Fountainbridgc")):
        v = lm.voice_for(text, rep, cfg)
        assert want in lm.apply_verdicts(text, [lm.decide(p, cfg) for p in lm.proposals(text, rep, v, cfg)])
    # a name two confusions from any word stays as printed, and so does a short one (near some word by chance:
    # Jtli is one confusion from "jth"), even with a large gain
    loose = lm.LMConfig(name_variant_cost=0.6, name_lexicon_gain=4.0)
    for text, kept in (
        ("He lived near Fountalnbrldgc for many years.", "Fountalnbrldgc"),
        ("Mr Jtli was there.", "Jtli"),
    ):
        v = lm.voice_for(text, rep, loose)
        assert kept in lm.apply_verdicts(text, [lm.decide(p, loose) for p in lm.proposals(text, rep, v, loose)])


def test_historical_spellings_are_never_proposed(rep):
    text = "He must shew his cards in connexion with the game."
    v = lm.voice_for(text, rep)
    assert {p.printed.lower() for p in lm.proposals(text, rep, v)}.isdisjoint({"shew", "connexion"})


def test_junk_without_a_repair_is_flagged_and_never_changed(rep):
    text = "The dealer xq^zvb the cards."
    v = lm.voice_for(text, rep)
    vs = [lm.decide(p, lm.LMConfig()) for p in lm.proposals(text, rep, v)]
    junk = [x for x in vs if x.printed == "xq^zvb"]
    assert junk and junk[0].flag and junk[0].after is None
    assert all(not (x.flag and x.after) for x in vs)  # a flagged word is never a changed one


def test_the_second_half_of_a_word_split_at_a_kept_hyphen_is_not_judged(rep):
    # (the gold of a page that keeps its line-end hyphens prints "ex- pected": read alone, "pected" became "acted")
    text = "Mr Wood, from London, is ex- pected to advocate the cause, and the petition was or-\ndered to lie."
    v = lm.voice_for(text, rep)
    judged = {p.printed for p in lm.proposals(text, rep, v)}
    assert judged.isdisjoint({"pected", "dered", "ex", "or"})


def test_debris_alone_between_words_is_junk_and_flagged():
    text = "Si c'est de son jeu )% coup est bon, et 5 % de plus."
    found = [(t, why) for _, _, t, why in junk.junk_tokens(text, lambda w: True)]
    assert found == [(")%", "debris between words")]  # (a per-cent sign after a number is no debris)
    res = load_resources(DEFAULT_CORPUS, "fr")
    w = next(w for w in load_witnesses(DEFAULT_CORPUS) if w.lang == "fr")
    cl = clean(WitnessText(w, text), res, CleanConfig())
    assert [(f.text, f.reason) for f in cl.flags if f.text == ")%"] == [(")%", "junk: debris between words")]


def test_a_rare_real_word_one_slip_from_a_word_the_witness_prints_often_is_flagged_in_french():
    text = (
        "Le coup est bon. Si la carte est vue, le coup est bon. Le coup est bon quand il donne. "
        "Si c'est de son jeu, le jeu est Ion, puisque cette connaissance est la sienne."
    )  # ("le coup est Ion" is the outcome phrase "le coup est bon": repaired, see the next test)
    res = load_resources(DEFAULT_CORPUS, "fr")
    w = next(w for w in load_witnesses(DEFAULT_CORPUS) if w.lang == "fr")
    cl = clean(WitnessText(w, text), res, CleanConfig())
    assert "est Ion" in cl.text  # (flagged, not changed: the witness's counts are no proof)
    flags = {f.text: f for f in cl.flags}
    assert "Ion" in flags and flags["Ion"].candidates[:1] == ("bon",)
    assert set(flags) == {"Ion"}  # (frequent words and words printed more than once are not slips)


def french_clean(text: str):
    res = load_resources(DEFAULT_CORPUS, "fr")
    w = next(w for w in load_witnesses(DEFAULT_CORPUS) if w.lang == "fr")
    return clean(WitnessText(w, text), res, CleanConfig())


def test_a_word_of_an_outcome_phrase_printed_as_another_word_is_repaired_by_the_phrase():
    # (corpus/lexicon/outcome_phrases.csv: "le coup est bon", "le coup est bien donné"; sentences not in the seeds)
    cl = french_clean("Si la retourne est vue après coup, le coup est bien dominé, et la partie continue.")
    assert "le coup est bien donné, et" in cl.text
    k = [c for c in cl.corrections if c.before == "dominé"][0]
    assert k.method == "phrase:outcome" and "le coup est bien donné" in k.evidence
    assert "le coup est bon, puisque" in french_clean("Quand il renonce, le coup est Ion, puisque rien n'est vu.").text
    # the other words of a phrase, the phrase's other forms, and words far in the channel stay as printed
    for s in (
        "Si la carte est vue, le coup est nul, et l'on redonne.",
        "Si la carte est vue, le coup est bon, et l'on continue.",
        "Le joueur perd la donne, et la main passe à son voisin.",
        "Si le joueur renonce, on recommence le coup.",
        "Il dépend des joueurs de tenir le coup pour bon.",
    ):
        assert french_clean(s).text == s


def test_french_ou_opening_a_main_clause_before_its_verb_is_on():
    cl = french_clean(
        "Lorsqu'un joueur donne à la place de l'autre, et que l'on s'en aperçoit avant d'avoir retourné, ou recommence le coup."
    )
    assert "avant d'avoir retourné, on recommence le coup." in cl.text
    # a coordination after a finite verb, and the infinitive of an alternative, stay
    for s in (
        "S'il renonce, ou joue une autre carte, il perd la partie.",
        "Il peut prendre la première carte du talon, ou recommencer le coup en prenant la main.",
    ):
        assert french_clean(s).text == s


def test_french_debris_after_an_apostrophe_that_follows_no_elision_is_left_and_flagged():
    cl = french_clean("Le joueur a une carte de trop. Six'e&t le premier à jouer qui ait une carte de moins, il perd.")
    assert "Six'e&t le premier" in cl.text  # (not made a tidy "Six'et": a flag never sits on a changed word)
    assert [f.text for f in cl.flags if f.text.startswith("Six")] == ["Six'e"]
    assert (
        "l'adversaire" in french_clean("Le joueur donne à l'adver&saire une carte.").text
    )  # (after an elision: repaired)


def test_grammalecte_rules_put_a_french_homophone_up_for_judgement():
    from pipeline.clean import grammar

    text = "Il va a la maison, et ils son partis."
    hints = grammar.hints(text)
    assert ("à" in [x for x, _ in hints[(6, 7)]]) and ("sont" in [x for x, _ in hints[(26, 29)]])
    rep = general_resources("fr").repairer(CleanConfig())
    cfg = lm.LMConfig(extra_voices=("grammar",)).for_lang("fr")
    v = lm.voice_for(text, rep, cfg)
    props = {p.printed: p for p in lm.proposals(text, rep, v, cfg)}
    assert props["a"].known and props["a"].cands[0][0] == "à"
    # off by default (on ICDAR 2017 French press it made the held-out figure worse: docs/decisions.md)
    v0 = lm.voice_for(text, rep, lm.LMConfig().for_lang("fr"))
    assert "a" not in {p.printed for p in lm.proposals(text, rep, v0, lm.LMConfig().for_lang("fr"))}


def test_french_unigram_voice_prefers_the_frequent_word_where_no_ngram_model_exists():
    rep = general_resources("fr").repairer(CleanConfig())
    v = lm.Voice("fr", lm.LMConfig(), trigram=None, unigram=rep.zipf)
    words = ["il", "dit", "noua", "avons", "joué"]
    assert v.delta(words, 2, "nous") > max(0.0, v.delta(words, 2, "noue"), v.delta(words, 2, "nova"))
    assert lm.Voice("en", lm.LMConfig(), unigram=rep.zipf).uni is None  # (never where a trigram model speaks)


def test_a_capitalised_known_name_inside_a_sentence_is_left_alone(rep):
    text = "The game was played at London by the club."
    v = lm.voice_for(text, rep)
    assert "London" not in {p.printed for p in lm.proposals(text, rep, v)}


def test_a_lone_letter_inside_a_sentence_is_read_as_the_word_its_context_wants(rep):
    text = "He came to the house and sat down i the hall of the inn."
    v = lm.voice_for(text, rep)
    vs = [lm.decide(p, lm.LMConfig()) for p in lm.proposals(text, rep, v)]
    assert lm.apply_verdicts(text, vs) == "He came to the house and sat down in the hall of the inn."
    assert not any(x.flag for x in vs if x.printed == "i")  # (a letter left as printed is never flagged)


def test_initials_abbreviations_and_money_letters_are_not_judged(rep):
    text = "Mr J. Smith paid 3 s. 6 d. for it, and so did W. Brown. a new sentence."
    v = lm.voice_for(text, rep)
    assert not [p.printed for p in lm.proposals(text, rep, v) if p.letter]


def test_a_short_capitalised_non_word_inside_a_sentence_is_judged_repaired_or_flagged(rep):
    text = "It was deemed dangerous, and Tqe damage is partly covered by insurance."
    v = lm.voice_for(text, rep)
    props = [p for p in lm.proposals(text, rep, v) if p.printed == "Tqe"]
    assert props and props[0].name
    verdict = lm.decide(props[0], lm.LMConfig())
    assert verdict.after == "The" or verdict.flag


def test_a_letter_read_as_a_hyphen_is_repaired_as_one_word_and_compounds_are_left(rep):
    text = "The whole mea-ure was sent to the card-table of the club."
    v = lm.voice_for(text, rep)
    props = lm.proposals(text, rep, v)
    assert "card-table" not in {p.printed for p in props}  # (two words: a compound)
    vs = [lm.decide(p, lm.LMConfig()) for p in props]
    assert lm.apply_verdicts(text, vs) == "The whole measure was sent to the card-table of the club."


def test_french_is_judged_as_before_no_letters_short_names_or_hyphen_words():
    rep = general_resources("fr").repairer(CleanConfig())
    text = "Le joueur a pris i la main de Tbe et la mea-ure du jeu."
    cfg = CleanConfig().lm.for_lang("fr")
    v = lm.voice_for(text, rep, cfg)
    assert {p.printed for p in lm.proposals(text, rep, v, cfg)}.isdisjoint({"i", "Tbe", "mea-ure"})


def test_doc_folds_partition_the_documents_in_contiguous_blocks():
    folds = doc_folds(11, 5)
    tests = [t for _, t in folds]
    assert sorted(i for t in tests for i in t) == list(range(11))
    for train, test in folds:
        assert set(train).isdisjoint(test) and len(train) + len(test) == 11
        assert list(test) == list(range(test[0], test[-1] + 1))
    with pytest.raises(ValueError):
        doc_folds(1, 5)


def test_cross_validation_never_scores_a_setting_on_the_documents_it_was_chosen_on():
    # documents 0-4 favour setting "a", documents 5-9 favour "b": the held-out block is scored with the
    # setting the other blocks chose, which is the wrong one whenever the held-out block alone decides
    docs = list(range(10))
    prefer = {i: ("a" if i < 5 else "b") for i in docs}

    def run(ds, s):
        return [0 if prefer[d] == s else 1 for d in ds]

    def loss(ds, outs):
        return sum(outs) / len(ds)

    folds = cross_validate(docs, ["a", "b"], run, loss, k=2)
    assert [f.setting for f in folds] == ["b", "a"]  # each half is held out and the other half decides
    assert pooled(len(docs), folds) == [1] * 10
    folds5 = cross_validate(docs, ["a", "b"], run, loss, k=5)
    assert all(len(f.test) == 2 for f in folds5)


# ---- the pass in the clean stage, flags, junk ------------------------------------------------------
from pipeline import junk  # noqa: E402
from pipeline.clean import DEFAULT_CORPUS, REGISTRY, clean, load_resources  # noqa: E402
from pipeline.corpus import load_witnesses, witness_text  # noqa: E402
from pipeline.model import WitnessText, offset_maps  # noqa: E402


def test_the_lm_pass_is_registered_last_of_the_word_passes():
    names = [p.name for p in REGISTRY]
    assert "lm-words" in names and names.index("lm-words") > names.index("bigram-context")


def test_junk_tokens_are_debris_digits_inside_words_and_long_non_words(rep):
    text = "He took the fat^Jbe and n6w a cnrrtf: on the 17th, London and atten- tion, V(fn too. 12a.--Any i3 for 10l."
    found = {t for _, _, t, _ in junk.junk_tokens(text, junk.known_for(rep))}
    assert {"fat^Jbe", "n6w", "cnrrtf", "V(fn", "i3"} <= found
    # (a number with one letter after it is a law's or an amount's number: 12a, 10l)
    assert found.isdisjoint({"17th", "London", "atten", "tion", "took", "12a", "10l"})


@pytest.fixture(scope="module")
def witnesses_cleaned():
    out = []
    for w in load_witnesses(DEFAULT_CORPUS):
        res = load_resources(DEFAULT_CORPUS, w.lang)
        out.append((w, res, clean(witness_text(DEFAULT_CORPUS, w), res, CleanConfig())))
    return out


def test_flags_are_one_per_word_and_never_on_a_changed_word(witnesses_cleaned):
    for w, _res, cl in witnesses_cleaned:
        spans = [(f.start, f.end) for f in cl.flags]
        assert len(spans) == len(set(spans)), w.id
        for f in cl.flags:
            assert cl.raw[f.start : f.end] == f.text
            assert not any(c.start < f.end and c.end > f.start for c in cl.corrections), (w.id, f.text)


def test_no_unflagged_junk_in_any_witness_reading_text(witnesses_cleaned):
    for w, res, cl in witnesses_cleaned:
        rep = res.repairer(CleanConfig())
        voice = lm.voice_for(cl.text, rep)
        lex = junk.known_for(rep)
        _, r2c = offset_maps(cl.raw, cl.corrections)
        flagged = [(r2c[f.start], r2c[f.start] + len(f.text)) for f in cl.flags]
        left = junk.unflagged(junk.junk_tokens(cl.text, lambda x: lex(x) or voice.known(x)), flagged)
        assert not left, (w.id, [t for _, _, t, _ in left])


def test_french_words_with_an_apostrophe_inside_are_words_not_debris():
    # (wordfreq lists aujourd'hui, quelqu'un, jusqu'à whole; the lexicon once dropped every such word, and the
    # LM pass then took them for an apostrophe where no word has one: quelqu'un flagged as junk)
    text = "Il viendra aujourd'hui ou demain, jusqu'à ce que quelqu'un parte, lorsqu'il voudra."
    cl = french_clean(text)
    assert cl.text == text and not cl.flags
    rep = general_resources("fr").repairer(CleanConfig())
    assert rep.zipf_of("aujourd'hui") > 5.0  # (its own frequency, not its halves')
