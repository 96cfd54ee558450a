"""The compiled channel (pipeline.clean.fastchannel) gives exactly what the Python programme gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.clean import CleanConfig
from pipeline.clean.channel import Channel
from pipeline.clean.fastchannel import FastChannel
from pipeline.clean.lexicon import load_lexicon_data
from pipeline.clean.tokens import JUNK

LEXICON = Path(__file__).resolve().parent.parent / "corpus" / "lexicon"
CFG = CleanConfig()
CHANNELS = {}
for lang in ("fr", "en"):
    args = (
        load_lexicon_data(LEXICON, lang, domain=False).confusions,
        CFG.accent_cost,
        CFG.junk_sub_cost,
        CFG.junk_del_cost,
    )
    slow, fast = Channel(*args), FastChannel(*args)
    slow.extra_letter = fast.extra_letter = CFG.extra_letter_cost
    CHANNELS[lang] = (slow, fast)
PRINTED = st.text(alphabet="aeinrsmhlucdtoévwIJTOSl1i0'’ſĲİ" + JUNK, max_size=10)
INTENDED = st.text(alphabet="aeinrsmhlucdtoéèêvw'’", max_size=10)


@settings(max_examples=400, deadline=None)
@given(PRINTED, INTENDED, st.sampled_from([None, 0.7, 1.2, 1.6, 3.5]), st.sampled_from(["fr", "en"]))
def test_compiled_cost_equals_the_python_programme(o, t, cut, lang):
    slow, fast = CHANNELS[lang]
    a, b = slow.cost(o, t, cut), fast.cost(o, t, cut)
    if cut is None or a <= cut or b <= cut:
        assert a == b
    else:
        assert a > cut and b > cut


def test_compiled_cost_reads_the_ocr_confusions_cheaply():
    _, fast = CHANNELS["fr"]
    assert fast.cost("rnaison", "maison") == 0.35
    assert fast.cost("maison", "maison") == 0.0
    assert fast.cost("talon", "salon", cutoff=0.5) > 0.5


def test_changing_the_extra_letter_cost_reaches_the_compiled_tables():
    args = (load_lexicon_data(LEXICON, "fr", domain=False).confusions, 0.35, 0.45, 0.35)
    slow, fast = Channel(*args), FastChannel(*args)
    fast.cost("maisonn", "maison")
    slow.extra_letter = fast.extra_letter = 1.7
    assert fast.cost("maisonn", "maison") == slow.cost("maisonn", "maison") == 1.7


@settings(max_examples=200, deadline=None)
@given(PRINTED, st.lists(INTENDED, max_size=6), st.sampled_from([None, 0.7, 1.6]), st.sampled_from(["fr", "en"]))
def test_the_batched_costs_equal_one_cost_at_a_time(o, ts, cut, lang):
    slow, fast = CHANNELS[lang]
    assert fast.costs(o, ts, cut) == [fast.cost(o, t, cut) for t in ts]
    assert slow.costs(o, ts, cut) == [slow.cost(o, t, cut) for t in ts]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aeinrsmhlucdtoévwIJTOSl1i0'’ſĲİΣ" + JUNK, max_size=12), st.sampled_from(["fr", "en"]))
def test_the_printed_tables_built_directly_equal_those_from_the_python_rows(o, lang):
    _, fast = CHANNELS[lang]
    direct, rows = fast._printed(o), fast._printed_rows(o)
    assert len(direct) == len(rows)
    for a, b in zip(direct, rows):
        assert a.dtype == b.dtype and a.flags.c_contiguous and a.tolist() == b.tolist()


@settings(max_examples=200, deadline=None)
@given(PRINTED, st.lists(st.text(alphabet="aeimnrséèçΣİß'", max_size=8), max_size=6), st.sampled_from([None, 1.6]))
def test_batched_costs_of_any_intended_letters_equal_one_cost_at_a_time(o, ts, cut):
    _, fast = CHANNELS["fr"]
    assert fast.costs(o, ts, cut) == [fast.cost(o, t, cut) for t in ts]


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="aeinrsmhlucdtovwIJTOSNMHLUCEl1i0'’ſĲİΣσςßẞæœéÉ\u0301\U0001d400" + JUNK, max_size=14),
    st.sampled_from(["fr", "en"]),
)
def test_the_printed_tables_built_by_compiled_code_equal_those_built_in_python(o, lang):
    _, fast = CHANNELS[lang]
    compiled, direct = fast._printed_compiled(o), fast._printed_direct(o)
    if compiled is None:  # (an empty string, or a character beyond the compiled tables)
        assert not o or max(map(ord, o + o.lower())) >= 0x10000
        return
    assert len(compiled) == len(direct)
    for a, b in zip(compiled, direct):
        assert a.dtype == b.dtype and a.flags.c_contiguous and a.tolist() == b.tolist()


def test_a_new_extra_letter_cost_reaches_the_compiled_printed_tables():
    args = (load_lexicon_data(LEXICON, "en", domain=False).confusions, 0.35, 0.45, 0.35)
    fast = FastChannel(*args)
    first = fast._printed("Rnaison")[2].tolist()
    fast.extra_letter = 1.7
    assert fast._printed("Rnaison")[2].tolist() == [1.7] * 7 != first
