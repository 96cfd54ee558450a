"""The field's format in and out (``python -m pipeline repair``) and its metric (cMER)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from measure.evaluate_repair import aligned_unit, cmer_normalise, match_errors, scores
from pipeline.__main__ import main
from pipeline.clean import CleanConfig


def _record(doc: str, lang: str, ocr: str, gold: str = "") -> dict:
    return {
        "document_metadata": {"document_id": doc, "language": lang},
        "ocr_hypothesis": {"transcription_unit": ocr},
        "ground_truth": {"transcription_unit": gold},
    }


def test_cmer_normalisation_is_the_benchmarks():
    assert cmer_normalise("Cham¬\nbre ITALIENNE,  l'œuvre — Straße_x") == "chambre italienne l oeuvre strasse x"
    assert match_errors("chambre", "chambre") == (0, 7)
    # one substitution and one insertion against a 7-letter reference: (S+D+I)/(H+S+D+I) = 2/8
    assert match_errors("chxambrf", "chambre") == (2, 8)


def test_scores_count_units_better_and_worse():
    s = scores(["tbe cat", "the dog"], ["the cat", "tbe dog"], ["the cat", "the dog"])
    assert (s.better, s.worse) == (1, 1)
    assert s.cmer == pytest.approx(1 / 14)


def test_a_unit_whose_gold_leaves_out_part_of_the_ocr_is_not_an_aligned_unit():
    """The ICDAR 2017 pairs' second yardstick keeps the units whose gold holds all their text: OCR errors inside
    words are kept, a run of words the gold leaves out (or adds) is not."""
    assert aligned_unit("Tbe cat sat on tbe mat.", "The cat sat on the mat.")
    assert not aligned_unit("The cat sat on the mat, said the paper.", "The cat sat on the mat.")
    assert not aligned_unit("The cat sat.", "The cat sat on the mat.")


def test_repair_fills_every_good_record_and_reports_a_malformed_one(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    good = _record("a", "en", "The Cham-\nber of Commerce met on Tuesday\nand the meeting was adjourned.")
    other = _record("b", "de", "Die Sitzung wurde vertagt.")
    src.write_text(
        json.dumps(good, ensure_ascii=False) + "\n" + '{"document_metadata": 3}\n' + json.dumps(other) + "\nnot json\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    assert main(["repair", str(src), "-o", str(out), "--quiet"]) == 1  # something was skipped: not a clean run
    err = capsys.readouterr().err
    assert "line 2: no document_metadata or ocr_hypothesis object; skipped" in err
    assert "line 4: not JSON" in err
    assert "language 'de'" in err
    recs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["document_metadata"]["document_id"] for r in recs] == ["a", "b"]
    text = recs[0]["ocr_postcorrection_output"]["transcription_unit"]
    # the joined line-break hyphen is written as the benchmark's mark: the lines stay lines
    assert text.count("\n") == 2 and "Cham¬\nber" in text
    assert recs[0]["ground_truth"] == good["ground_truth"]
    assert recs[1]["ocr_postcorrection_output"]["transcription_unit"] == "Die Sitzung wurde vertagt."


def test_the_ocrs_own_line_break_mark_is_read_as_a_hyphen_and_written_back():
    from pipeline.clean.hipe import repair_text

    # a word broken at a line end with the field's mark is judged whole, and keeps its break where it was
    assert repair_text("to corroborate evi¬\ndeuce already given", "en") == "to corroborate evi¬\ndence already given"
    # a right word, a compound's hyphen the cleaner keeps, a mark after a stop: the mark as printed
    for kept in ("the manage¬\nment of the firm", "the largest and best¬\nselected stock", "the end¬\n"):
        assert repair_text(kept, "en") == kept


def test_repair_refuses_a_file_that_is_not_utf8(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'{"a": "\xff"}\n')
    out = tmp_path / "out.jsonl"
    assert main(["repair", str(src), "-o", str(out)]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err
    assert not out.exists()


# ---- never harm: one test per kind of harm seen on real pages ------------------------------------------
def _clean(text: str, lang: str, config: CleanConfig = CleanConfig()):
    from pipeline.clean import explain_text

    return explain_text(text, lang, config=config)[0]


def test_split_words_are_joined_not_misread():
    out = _clean("We came to the con clusion that the di position of the troops let them w ield power.", "en").text
    assert "conclusion" in out and "delusion" not in out
    assert "disposition" in out and "wield" in out


def test_a_word_printed_with_spaces_around_a_lone_letter_is_joined():
    out = _clean(
        "Particulars of whi c h may be had; the co ur t was not sitting, and the matr o n took him to a poli c e-station.",
        "en",
    ).text
    assert "of which may" in out and "the court was" in out and "the matron took" in out and "a police-station" in out
    # runs of four and five tokens, the lone letter inside them (the pass looks that far ahead for one)
    out = _clean("He spoke with great inde pen den c e of mind; a matter of con se q uence.", "en").text
    assert "great independence of mind" in out and "of consequence." in out
    assert _clean("NEW ZEAL AN D. EMIGRATION from LIVERPOOL.", "en").text.startswith("NEW ZEALAND. EMIGRATION")
    # letters spaced on purpose (never read as ``abc``), letters beside a number, an initial: as printed
    kept = "The points a b c and d are marked, at 5 s 6 d each, by JOHN E SMITH and A B C. T HE END, on t! S AILS."
    assert _clean(kept, "en").text == kept


def test_a_misread_title_before_a_name_is_read_and_other_abbreviations_stay():
    out = _clean("THE LATE Mn. HERER. Nr. Blair thanked the Rey. L. Ashe and the Kev.\nMr Jones.", "en").text
    assert out.startswith("THE LATE Mr. HERER. Mr. Blair thanked the Rev. L. Ashe and the Rev.\nMr Jones")
    # abbreviations that are no title, frequent words, a title without a name after it: as printed
    kept = "Geo. Smith of Mt. Vernon wrote on Nov. Fifth. It. Was late. He met Mn. and left."
    assert _clean(kept, "en").text == kept


def test_an_apostrophe_inside_a_word_is_debris_unless_a_contraction_or_a_name_has_it():
    assert "the following extracts" in _clean("We print the fo'lowing extracts today.", "en").text
    kept = "I don't know, said O'Conor at five o'clock to M'Kymon; the day's work, ne'er done, we'll see."
    assert _clean(kept, "en").text == kept


def test_a_damaged_word_split_by_a_space_is_judged_whole_and_two_words_stay_two():
    assert "health, strength and manhood" in _clean("All who value health, stre rgth and manhood.", "en").text
    # a word beside a non-word is no part of it (hed be is no hedge, to lus no tolls)
    out = _clean("He told the men that hed be there to lus at noon.", "en").text
    assert "hedge" not in out and "tolls" not in out


def test_a_roman_numeral_in_brackets_is_kept():
    out = _clean("The rule is stated in clause (iii.) above, and in (iv) and [XII.] below.", "en").text
    assert "(iii.)" in out and "(iv)" in out and "[XII.]" in out


def test_a_cut_off_last_word_is_flagged_not_completed():
    c = _clean("The members of the club who had paid their dues were told that they sho", "en")
    assert c.text.endswith(" sho")
    assert any(f.text == "sho" and "cut off" in f.reason for f in c.flags)
    assert not any(f.text == "sho" for f in _clean("He said it was so.", "en").flags)


def test_long_s_read_as_f_is_repaired_only_where_the_text_shows_it():
    c = _clean("Il eft certain que fon pere foit venu, & qu'il étoit auffi fur la place où il fait fon devoir.", "fr")
    assert "Il est certain que son pere soit venu" in c.text and "fait son devoir" in c.text
    assert "fait venu" not in c.text
    longs = [x for x in c.corrections if x.kind == "long-s"]
    assert {x.before for x in longs} >= {"eft", "fon", "foit"} and all("long s read as f" in x.evidence for x in longs)
    # one such word alone is no pattern: nothing read as long s, and foit never becomes fait
    alone = _clean("Il dit que son pere foit venu.", "fr")
    assert "fait venu" not in alone.text and not any(x.kind == "long-s" for x in alone.corrections)


def test_old_french_spellings_are_kept_as_printed():
    text = "Les enfans avoient joüé la partie qui étoit à païer, et il avoit emploïé la somme jouée."
    c = _clean(text, "fr")
    for w in ("enfans", "avoient", "joüé", "étoit", "païer", "avoit", "emploïé"):
        assert w in c.text
    assert not any(f.text in ("joüé", "païer", "emploïé") for f in c.flags)
    regs = {r.orig: r.reg for r in c.regularisations}
    assert regs.get("païer") == "payer" and regs.get("joüé") == "joué"


def test_long_s_other_readings_count_once_the_pattern_is_shown():
    text = "The firft and fecond of thefe Bills, the Irith Militia and the Britith Muleum, were read and pafled."
    out = _clean(text, "en").text
    assert out == "The first and second of these Bills, the Irish Militia and the British Museum, were read and passed."
    # without the pattern, a word with an l or a t is never read as having a long s
    assert _clean("The lame man let the tea go to the Irith title.", "en").text.startswith("The lame man let the tea")


def test_long_s_reads_a_rarer_word_once_the_pattern_is_shown():
    """An s-reading rarer than a known word (severally, zipf 2.2) counts once the text shows the long s; a right
    word with an f is kept, and without the pattern the rare reading is never taken."""
    text = "The firft and fecond of thefe Bills were feverally read a third time, and the fame day pafled."
    out = _clean(text, "en").text
    assert "were severally read" in out and "the same day passed" in out
    assert "a third time" in out and "first and second" in out
    assert "feverally" in _clean("The Bills were feverally read a third time.", "en").text


def test_word_boundaries_lost_or_added_by_ocr():
    text = "the proprietor\nship of the paper was distribu.¬\nted in circ,umstances withthe greatest care befor the end"
    c = _clean(text, "en")
    assert "proprietorship" in c.text and "distribu¬\nted" in c.text and "circumstances" in c.text
    assert "with the greatest" in c.text and "be for" not in c.text
    # two words that general print has as a pair at a line break stay two words
    assert "any\none" in _clean("It is the end of any\none of them.", "en").text


def test_names_and_numbers_are_not_read_as_common_words():
    # general text: a capitalised word inside a sentence, or after a title, is a name
    out = _clean("Mr. HorroN contemplated the matter, and M. Guizor was blamed by Mr. Poncher.", "en").text
    assert "HorroN" in out and "Guizor" in out and "Poncher" in out
    # a number with its zeros read as letters is never a word: its letters are read as digits
    assert "£200, with" in _clean("the principal sums of £2OO, with interest", "en").text


def test_look_alike_letters_among_a_numbers_digits_are_read_as_digits():
    out = _clean("On the 2lst of May, 18O5, at 1O o'clock, 3OO acres were sold; see No. l4.", "en").text
    assert out == "On the 21st of May, 1805, at 10 o'clock, 300 acres were sold; see No. 14."
    # a unit letter after the digits (l for pounds), a formula, letters with no real digit: as printed
    kept = "He paid 10l. 10s. for the lO bottles of H2O at the Il Inn."
    assert _clean(kept, "en").text == kept
    cfg = CleanConfig()
    assert "2lst" in _clean("On the 2lst of May.", "en", replace(cfg, mixed_numbers=False)).text


def test_a_word_split_by_a_space_beside_a_lone_letter_is_judged_whole():
    out = _clean("A meeting of the d ssenters was held, and tiler e was a large attendance.", "en").text
    assert "the dissenters was held" in out and "and there was" in out
    assert "The service was read" in _clean("The servi e was read by the vicar of the parish.", "en").text
    # a lone letter beside a word, or a letter the language prints alone as a word, is no piece of it
    kept = "The letter e was printed in the margin, and a ssenters note beside it."
    assert _clean(kept, "en").text == kept
    cfg = CleanConfig()
    off = replace(cfg, lm=replace(cfg.lm, split_letters=False))
    assert "d ssenters" in _clean("A meeting of the d ssenters was held.", "en", off).text


def test_a_misread_half_of_a_hyphened_compound_is_repaired_and_line_end_fragments_stay():
    out = _clean("He lives at No. 4, Quejn-street, and the ex-Empcror died yesterday.", "en").text
    assert "Queen-street" in out and "ex-Emperor" in out
    # two halves that no lexicon knows are a line-end fragment kept with its hyphen: never read apart
    assert "Sanctifica-tiou" in _clean("The Sanctifica-tiou of the sabbath was discussed.", "en").text
    cfg = CleanConfig()
    off = replace(cfg, lm=replace(cfg.lm, compound_halves=False))
    assert "Quejn-street" in _clean("He lives at No. 4, Quejn-street, London.", "en", off).text


def test_a_capitalised_misreading_the_language_model_vouches_for_is_repaired_and_names_stay():
    # the name guard lets through only a repair the language model is sure of: a common word misread in title case
    out = _clean("It is said that the French Goverument have resolved to build a new harbour.", "en").text
    assert "French Government have" in out
    out = _clean("The Duke reviewed the troops, and the Blaok Watch marched past the Queen.", "en").text
    assert "Black Watch" in out
    # names that no word list knows stay as printed beside it
    out = _clean("We met Lord Palmerstou and M. Guizor at the Treasury; the Blaok Watch marched past.", "en").text
    assert "Palmerstou" in out and "Guizor" in out
    # a name whose nearest word is a rare one is no misreading the model can vouch for
    out = _clean("The report was drawn up by Poncher and read to the meeting on Monday.", "en").text
    assert "Poncher" in out
    # and without the language model's voucher the guard keeps the capitalised word
    cfg = CleanConfig()
    off = replace(cfg, lm=replace(cfg.lm, name_vouch_gain=99.0))
    assert "Goverument" in _clean("It is said that the French Goverument have resolved to build.", "en", off).text


def test_the_channel_learnt_from_newspaper_ocr_reads_a_lost_fi_ligature():
    from pipeline.clean import PROJECT_ROOT, CleanResources, general_resources
    from pipeline.clean.hipe import repair_text
    from pipeline.clean.lexicon import load_lexicon_data

    text = "He was the frst man to fnd the house on fre, and fve men were saved."
    out = repair_text(text, "en")
    assert "to find the house" in out and "and five men" in out
    # the rows learnt from the press are what reads it: without them the printed words stay
    lex = load_lexicon_data(PROJECT_ROOT / "corpus" / "lexicon", "en", domain=False, press=False)
    plain = CleanResources("en", lex, general_resources("en").general)
    assert "to fnd the house" in repair_text(text, "en", CleanConfig(), plain)
