"""French elision: elided articles and pronouns whose apostrophe or letter the OCR misread.

``J'on`` -> ``l'on``, ``quMl`` -> ``qu'il``, ``Tautre`` -> ``l'autre`` (l' read as T), `` 'ordre`` ->
``l'ordre`` (the l lost): :data:`ELISION`, a pass of its own.  An elision whose apostrophe became another
glyph before a short word (``dHin`` -> ``d'un``: :func:`damaged_elision`) and the split of a token at
its elision apostrophe (:func:`split_apostrophe`) are steps of the word pass
(:mod:`pipeline.clean.words`).  The elision prefixes are ``corpus/lexicon/elision.tsv``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import regex

from .edits import Edit, non_overlapping
from .passes import FlagSpec, Pass, PassContext, edits_only
from .tokens import APOS, sentence_start

if TYPE_CHECKING:
    from .repairer import Repairer


ELISION_FIXES = (
    # (pattern, replacement builder, what): an elided article/pronoun whose apostrophe or letter OCR misread
    (regex.compile(r"(?<![\p{L}'’])[TJI1]['’](on)\b"), lambda m: "l'" + m.group(1), "l'on with l read as a capital"),
    (
        regex.compile(r"(?<![\p{L}'’])([Qq]u)\p{Lu}(ls?)\b"),
        lambda m: m.group(1) + "'i" + m.group(2),
        "qu'il with 'i read as a capital",
    ),
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
        if rep.is_word(w) and not rep.is_word("t" + w) and not sentence_start(text, m.start()):
            edits.append(
                Edit(
                    m.start(),
                    m.start(1),
                    "l'",
                    "elision",
                    "lexicon:elision",
                    0.8,
                    ("l'" + w,),
                    f"l' read as T before {w!r}",
                )
            )
    for m in LEADING_APOS.finditer(text):
        w = m.group(1)
        if rep.is_word(w) and text[m.end() : m.end() + 1] not in ("'", "’"):
            edits.append(
                Edit(
                    m.start(),
                    m.start(),
                    "l",
                    "elision",
                    "lexicon:elision",
                    0.75,
                    ("l'" + w,),
                    f"l of l' lost before {w!r}",
                )
            )
    return non_overlapping(edits)


ELISION_INITIALS = "aeiouyhâàéèêîôûœæ"  # what a French elided word begins with (l'as, l'homme)
ELISION_JUNK = regex.compile(r"^([\p{L}]{1,7})([*^|%$])([\p{Ll}\p{M}].*)$")


def split_apostrophe(part: str, rep: Repairer) -> tuple[int, str | None, tuple[int] | None]:
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


def damaged_elision(part: str, rep: Repairer, start: int) -> Edit | FlagSpec | None:
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
            w
            for w, z in rep.zipf.items()
            if z >= cfg.elision_short_min_zipf and w[:1] in ELISION_INITIALS and w.isalpha()
        )
    damaged = "^" + m.group(3)
    scored = sorted(
        (
            (rep.zipf_of(w) - cfg.channel_scale * c, w, c)
            for w, c in ((w, rep.channel.cost(damaged, w, cfg.elision_short_max_cost)) for w in pool)
            if c <= cfg.elision_short_max_cost
        ),
        reverse=True,
    )
    if not scored:
        return None
    readings = tuple(m.group(1) + "'" + x for _, x, _ in scored[: cfg.report_candidates])
    best, w, c = scored[0]
    second = scored[1][0] if len(scored) > 1 else -99.0
    plain = [z - cfg.channel_scale * pc for x, pc in rep.search.candidates(part) if (z := rep.zipf_of(x)) > 0]
    rival = max([second] + plain)
    after = m.group(1) + "'" + w
    conf = round(1.0 / (1.0 + 10 ** (-(best - rival - cfg.elision_short_sep + cfg.conf_offset))), 3)
    why = (
        f"{part!r}: elision {m.group(1)}' + {w!r} (apostrophe read as {m.group(2)!r}; cost {c:.2f}, score {best:.2f}) "
        f"vs next {rival:.2f}"
    )
    if best - rival < cfg.elision_short_sep or best < cfg.unknown_margin:
        return (start, start + len(part), part, readings, conf, why + ": no clear reading")
    return Edit(start, start + len(part), after, "elision", "lexicon:elision-glyph", conf, (after,), why)


def _french_elision(ctx: PassContext) -> bool:
    return ctx.lang == "fr" and "l" in ctx.rep.elision


ELISION = Pass(
    "elision",
    edits_only(lambda text, ctx: _elision_pass(text, ctx.rep)),
    ("repair_words",),
    _french_elision,
    doc="French elisions whose apostrophe or letter OCR misread (J'on, quMl, Tautre)",
)
