"""French outcome phrases as context: a word of a law's outcome phrase that OCR turned into another word.

The laws of a card game end on a few fixed phrases (``corpus/lexicon/outcome_phrases.csv``: *le coup est bon*,
*le coup est bien donné*, *recommencer le coup*); alignment reads them to link laws across editions.  Where the
text prints all of such a phrase but one word, the words around it are evidence that no general model has for
French: the odd word is read as the phrase's word (``coup est Ion`` -> *bon*, ``le coup est bien dominé`` ->
*donné*) when the channel cost of that misreading is within what the anchors allow
(:class:`OutcomeConfig`: the more words of the phrase are printed right, the further the odd one may be).
A word inside a phrase needs the phrase's words on both sides of it; a printed word that makes a pair of some
phrase with its neighbour (*est bon*, against *le coup est bien donné*), another form of the phrase's word
(*on recommence le coup*) or one far in the channel (*le coup est nul*) stays.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from .edits import Edit

WORD = regex.compile(r"\p{L}+(?:['’]\p{L}+)*")


@dataclass(frozen=True)
class OutcomeConfig:
    """When a phrase's odd word is repaired."""

    min_anchors: int = 2  # words of the phrase printed right next to the odd one (contiguous, either side)
    min_anchor_letters: int = 6  # ... with at least this many letters between them (à son: too little)
    base_cost: float = 0.5  # channel cost allowed with min_anchors ... (coup est Ion -> bon: 1.0)
    per_anchor: float = 0.5  # ... plus this per anchor word (le coup est bien dominé -> donné: 2.2 of 2.5)
    max_cost: float = 2.5


def outcome_repairs(text: str, phrases, channel, protected, cfg: OutcomeConfig = OutcomeConfig()) -> list[Edit]:
    """Edits of the odd word of an outcome phrase printed with all its other words around it.

    ``phrases``: the phrases as tuples of lower-case words; ``channel``: the cleaner's
    :class:`~pipeline.clean.channel.Channel`; ``protected(word)``: words never changed (historical, domain)."""
    if not phrases:
        return []
    toks = [(m.start(), m.end(), m.group().lower().replace("’", "'")) for m in WORD.finditer(text)]
    best: dict[int, tuple[float, str, tuple[str, ...], int]] = {}
    pairs = {(p[k], p[k + 1]) for p in phrases for k in range(len(p) - 1)}
    for x, (_, _, t) in enumerate(toks):
        if protected(t) or (x and (toks[x - 1][2], t) in pairs) or (x + 1 < len(toks) and (t, toks[x + 1][2]) in pairs):
            continue  # the word is in a phrase here already (le coup est bon, not "bien" of "est bien donné")
        for p in phrases:
            for j, want in enumerate(p):
                if t == want or want.startswith(t) or t.startswith(want):
                    continue  # (another form of the phrase's word: "on recommence le coup", "il dépend des")
                left = 0
                while j - left - 1 >= 0 and x - left - 1 >= 0 and toks[x - left - 1][2] == p[j - left - 1]:
                    left += 1
                right = 0
                while (
                    j + right + 1 < len(p) and x + right + 1 < len(toks) and toks[x + right + 1][2] == p[j + right + 1]
                ):
                    right += 1
                if (left == 0 and j > 0) or (right == 0 and j < len(p) - 1):
                    continue  # a word inside the phrase needs its words on both sides
                anchors = left + right
                letters = sum(len(w) for w in p[j - left : j] + p[j + 1 : j + 1 + right])
                if anchors < cfg.min_anchors or letters < cfg.min_anchor_letters:
                    continue
                bound = min(cfg.max_cost, cfg.base_cost + cfg.per_anchor * anchors)
                c = channel.cost(t, want, bound)
                if c <= bound and (x not in best or c < best[x][0]):
                    best[x] = (c, want, p, anchors)
    out = []
    for x, (c, want, p, anchors) in sorted(best.items()):
        s, e, t = toks[x]
        printed = text[s:e]
        after = want.upper() if printed.isupper() and len(printed) > 1 else want
        out.append(
            Edit(
                s,
                e,
                after,
                "real_word",
                "phrase:outcome",
                round(1.0 - c / (2 * cfg.max_cost), 3),
                (want,),
                f"{printed!r} inside the outcome phrase {' '.join(p)!r} ({anchors} of its words printed around it), channel cost {c:.2f}",
            )
        )
    return out
