"""The fast paths of spell repair give exactly what the plain computations give.

The channel's edit-distance programme (per-printed-string tables, early exit at a cut-off) is checked
against the textbook programme it replaced; the level-by-level n-gram count of phrase repair against
counting every n-gram."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.clean import CleanConfig
from pipeline.clean.phrases import phrase_ngrams
from pipeline.clean.channel import Channel
from pipeline.clean.lexicon import load_lexicon_data
from pipeline.clean.tokens import JUNK

LEXICON = Path(__file__).resolve().parent.parent / "corpus" / "lexicon"
CFG = CleanConfig()
CHANNEL = Channel(
    load_lexicon_data(LEXICON, "fr", domain=False).confusions, CFG.accent_cost, CFG.junk_sub_cost, CFG.junk_del_cost
)
CHANNEL.extra_letter = CFG.extra_letter_cost
# letters the OCR confusions, accents and debris are about, so that the cheap operations do occur
PRINTED = st.text(alphabet="aeinrsmhlucdtoévwIJTOSl1i0'’ſ" + JUNK, max_size=9)
INTENDED = st.text(alphabet="aeinrsmhlucdtoéèêvw'’", max_size=9)


def reference_cost(ch: Channel, o: str, t: str) -> float:
    """The weighted edit distance cell by cell, as first written (no tables, no early exit)."""
    n, m = len(o), len(t)
    ol = o.lower()
    inf = 1e9
    d = [[inf] * (m + 1) for _ in range(n + 1)]
    d[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            best = inf
            if i > 0:
                best = d[i - 1][j] + (ch.junk_del if o[i - 1] in JUNK else ch.extra_letter)
            if j > 0:
                best = min(best, d[i][j - 1] + 1.0)
            if i > 0 and j > 0:
                sc = ch.sub(o[i - 1], t[j - 1])
                if sc > ch.junk_sub and i > 1 and o[i - 1].isupper() and o[i - 2].islower():
                    sc = ch.junk_sub + 0.1
                best = min(best, d[i - 1][j - 1] + sc)
                if o[i - 1] in JUNK and j > 1:
                    best = min(best, d[i - 1][j - 2] + ch.junk_sub + ch.junk_extra)
                conf = list(ch.by_last.get(o[i - 1], ()))
                if o[i - 1] != ol[i - 1]:
                    conf += ch.by_last.get(ol[i - 1], ())
                for p, q, c in conf:
                    lp, lq = len(p), len(q)
                    if (
                        lp <= i
                        and lq <= j
                        and (o[i - lp : i] == p or (p.islower() and ol[i - lp : i] == p))
                        and t[j - lq : j] == q
                    ):
                        best = min(best, d[i - lp][j - lq] + c)
            d[i][j] = best
    return d[n][m]


@settings(max_examples=400, deadline=None)
@given(PRINTED, INTENDED)
def test_channel_cost_equals_the_plain_programme(o, t):
    assert CHANNEL.cost(o, t) == reference_cost(CHANNEL, o, t)


@settings(max_examples=300, deadline=None)
@given(PRINTED, INTENDED, st.sampled_from([0.7, 1.2, 1.6, 3.5]))
def test_channel_cutoff_is_exact_below_and_above_it(o, t, cut):
    full = reference_cost(CHANNEL, o, t)
    got = CHANNEL.cost(o, t, cut)
    if full <= cut:
        assert got == full
    else:
        assert got > cut


def test_channel_reads_the_ocr_confusions_cheaply():
    assert CHANNEL.cost("rnaison", "maison") == 0.35  # rn printed for m
    assert CHANNEL.cost("Iiomme", "homme") < 1.0  # li (any case) printed for h
    assert CHANNEL.cost("maison", "maison") == 0.0
    assert CHANNEL.cost("talon", "salon", cutoff=0.5) > 0.5


def all_ngrams(text: str, k: int) -> dict:
    """Every n-gram (n = 2..4) counted, then the frequent ones kept (what phrase_ngrams must equal)."""
    import regex

    counts: Counter = Counter()
    for clause in regex.split(r"[.,;:!?»«()\[\]—\n]+", text.lower().replace("’", "'")):
        run: list[str] = []
        for tok in clause.split() + ["1"]:
            if regex.fullmatch(r"[\p{L}][\p{L}'’]*", tok):
                run.append(tok)
                continue
            for n in (2, 3, 4):
                for i in range(len(run) - n + 1):
                    counts[tuple(run[i : i + n])] += 1
            run = []
    return {g: c for g, c in counts.items() if c >= k}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["le", "roi", "la", "donne", "de", "à", "son", "choix", ",", ".", "l'atout", "x1"]), max_size=80
    ),
    st.integers(min_value=1, max_value=4),
)
def test_phrase_ngrams_count_exactly_what_counting_every_ngram_counts(words, k):
    text = " ".join(words)
    assert phrase_ngrams(text, CleanConfig(phrase_min_count=k)) == all_ngrams(text, k)


def reference_foreign_script(line: str, ratio: float, frame_words: int) -> bool:
    """The web-debris script test letter by letter, as first written."""
    import regex

    latin = regex.compile(r"\p{Script=Latin}")
    letters = regex.findall(r"\p{L}", line)
    if len(letters) < 3:
        return False
    if sum(1 for ch in letters if not latin.match(ch)) / len(letters) >= ratio:
        return True
    words = regex.findall(r"\p{L}+", line)
    foreign = [w for w in words if not any(latin.match(ch) for ch in w)]
    return bool(words) and frame_words > 0 and len(foreign) >= frame_words and words[0] in foreign


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="abcXYZéèœ ЧитаькнгуΑβγ-'.,1", max_size=40), st.sampled_from([0.0, 0.3, 0.5]), st.integers(0, 3)
)
def test_foreign_script_counts_like_the_letter_by_letter_test(line, ratio, frame):
    from pipeline.clean.layout import foreign_script

    assert foreign_script(line, "fr", ratio, frame) == reference_foreign_script(line, ratio, frame)


def test_the_per_token_memos_start_afresh_when_full():
    from pipeline.clean import general_resources

    rep = general_resources("en").repairer(CleanConfig())
    m = rep.memo("inert_tokens")
    m.update((str(k), True) for k in range(rep.memos.MEMO_MAX))
    assert rep.memo("inert_tokens") == {}
    assert rep.memo("inert_tokens") is rep.memo("inert_tokens")
