"""The cases of a law: the clauses of one law that each state a remedy of their own.

A law often rules on two situations of one irregularity: "If the dealer expose one of his own cards, the deal stands
good; if he expose one of his adversary's, the adversary may claim a fresh deal".  Read as a whole, its conditions
(owner = dealer and non-dealer) and its outcomes (the deal stands, a new deal) are pooled and the first outcome is
given to both situations.  Read by case, each clause keeps its own.

A law is cut at the breaks of its sentences and clauses (";", ": ", ". ", ", but if", "otherwise"); a piece that states
no outcome joins the next piece (the last joins the one before).  A condition read after "unless" ("the deal is void,
unless the faced card be the trump card") states the case the remedy does *not* cover: it is read as the other values
of its fact, unless its own words already say the exception ("unless the adversary has played to it", whose pattern
reads ``played_to = no`` itself).  A case that states none of the facts another case states is told apart only where
it names itself by contrast ("if after", "otherwise", "if not"): it gets the values the others leave; any other such
case means the clauses differ on something the vocabulary has no fact for, and the law is read whole.  A piece
that states an exception ("excepting only the case where ...") leaves the other cases the other values of its facts;
a later case silent on a fact the first case states keeps the first case's values (the scene it sets: "when the
cards are given for the discard ..., but if they come to his adversary ...").  The cases are used only when at least
two of them state a remedy and no two of them can meet the same situation; otherwise the law is read as a whole.  The
cue words are data: ``corpus/annotations/clauses.toml`` (:func:`load_cues`).

Public API::

    cases = law_cases(law, spec_facts, read)    # ((facts, terms), ...) or () where the law is one case
    facts = stated_facts(text, conditions, domains)  # the facts a text states, "unless" read
    cues = load_cues()                               # the cue words of corpus/annotations/clauses.toml
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .model import Law

ROOT = Path(__file__).resolve().parent.parent


def _words(words: Sequence[str]) -> str:
    """An alternation of whole words or phrases (longest first; spaces match any run of white space)."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class ClauseCues:
    """The cues of the case reading, compiled from ``corpus/annotations/clauses.toml`` (:func:`load_cues`)."""

    breaks: re.Pattern[str]  # where a law is cut into pieces
    unless: re.Pattern[str]  # the exception that follows a remedy
    denied: re.Pattern[str]  # a denial before "unless" ("not ... unless": only if)
    negated: re.Pattern[str]  # words of a condition that already state its exception
    elliptic: re.Pattern[str]  # a piece that names its case by contrast ("if after", "otherwise")
    exception: re.Pattern[str]  # a piece that states the exception to the case before
    excepting: re.Pattern[str]  # the same words anywhere ("except as provided by Law 24": no reference adopted)
    contrast: tuple[tuple[str, str], ...]  # "after" -> "before" ...
    denial: str  # the alternation of the words that deny a remedy's words after them


@lru_cache(maxsize=4)
def load_cues(corpus_dir: str = str(ROOT / "corpus")) -> ClauseCues:
    with open(Path(corpus_dir) / "annotations" / "clauses.toml", "rb") as fh:
        d = tomllib.load(fh)
    w = {k: _words(v) for k, v in d.items() if isinstance(v, list)}
    opener = rf"^(?:(?:{w['connective']})\s+)?"
    return ClauseCues(
        breaks=re.compile(
            rf";\s*|:\s+|\.\s+(?-i:(?=[A-ZÀ-Ý]))|,\s+(?=(?:{w['but']})\s+(?:{w['conditional']})\b)"
            rf"|[;,]\s*(?=(?:{w['otherwise']})\b)",
            re.I,
        ),
        unless=re.compile(rf"\b(?:{w['unless']})\b", re.I),
        denied=re.compile(rf"\b(?:{w['denied_before_unless']})\b", re.I),
        negated=re.compile(rf"\b(?:{w['negated_condition']})\b", re.I),
        elliptic=re.compile(
            opener + rf"(?:(?:{w['contrast_if']})\s+(?:any\s+|an\s+)?(?P<marker>{w['contrast_word']})\b"
            rf"|(?:{w['otherwise']}|{w['contrast_phrase']})\b)",
            re.I,
        ),
        exception=re.compile(opener + rf"(?:{w['exception']})\b", re.I),
        excepting=re.compile(rf"\b(?:{w['exception']})\b", re.I),
        contrast=tuple(d.get("contrast", {}).items()),
        denial=w["denial"],
    )


Facts = tuple[tuple[str, tuple[str, ...]], ...]
# (piece text) -> its conditions (fact, value, words) and outcome terms, read as the law's own reading reads them
Reader = Callable[[Sequence[str]], Sequence[tuple[Sequence[tuple[str, str, str]], Sequence[str]]]]


def pieces(text: str) -> list[str]:
    """The law cut at its clause breaks (empty pieces dropped)."""
    return [p.strip() for p in load_cues().breaks.split(text) if p and p.strip()]


def stated_facts(
    piece: str,
    conditions: Sequence[tuple[str, str, str]],
    domains: Mapping[str, tuple[str, ...]],
    remedies: Sequence[str] = (),
) -> dict[str, set[str]]:
    """The values of the event's facts a text states (``conditions``: (fact, value, words) of its reading): a
    condition after "unless" reads as the other values of its fact, except after a denied remedy ("is not treated
    as played unless it lies partly over ...": the remedy holds only in the case named).  ``remedies``: the words
    the law's remedies were read in; a denial inside one of them is that remedy's own ("shall not be deemed played",
    read as the card taken back), so "unless" then names the case it does not cover, as after any remedy."""
    return _piece_facts(piece, conditions, domains, remedies)[0]


def _absorbed(low: str, start: int, end: int, remedies: Sequence[str]) -> bool:
    """Whether the span ``start:end`` of ``low`` lies inside the words of one of ``remedies``."""
    for words in remedies:
        w = words.lower().strip()
        at = low.find(w) if w else -1
        while at >= 0:
            if at <= start and end <= at + len(w):
                return True
            at = low.find(w, at + 1)
    return False


def _piece_facts(
    piece: str,
    conditions: Sequence[tuple[str, str, str]],
    domains: Mapping[str, tuple[str, ...]],
    remedies: Sequence[str] = (),
) -> tuple[dict[str, set[str]], dict[str, str]]:
    """The values of the event's facts a piece states (:func:`stated_facts`), and the words each was read in."""
    out: dict[str, set[str]] = {}
    said: dict[str, str] = {}
    cues = load_cues()
    low = piece.lower()
    unless = cues.unless.search(piece)
    denial = cues.denied.search(piece, 0, unless.start()) if unless is not None else None
    if denial is not None and not _absorbed(low, denial.start(), denial.end(), remedies):
        unless = None  # "not ... unless": only if
    for fact, value, words in conditions:
        if fact not in domains or value not in domains[fact]:
            continue
        at = low.find(words.lower())
        said[fact] = f"{said.get(fact, '')} {words.lower()}"
        if unless is not None and at >= unless.start() and not cues.negated.search(words):
            out.setdefault(fact, set()).update(v for v in domains[fact] if v != value)
        else:
            out.setdefault(fact, set()).add(value)
    return out, said


def _meet(a: Mapping[str, set[str]], b: Mapping[str, set[str]]) -> bool:
    """Two cases can meet one situation: every fact both state shares a value."""
    return all(a[f] & b[f] for f in a.keys() & b.keys())


def law_cases(
    law: Law, domains: Mapping[str, tuple[str, ...]], outcome_terms: frozenset[str], read: Reader
) -> tuple[tuple[Facts, tuple[str, ...]], ...]:
    """The cases of ``law`` for an event whose facts have the values ``domains``: ``((facts, outcome terms), ...)``
    in the order of the text, or () where the law is one case.  ``outcome_terms``: the terms that state a remedy
    (the vocabulary's outcomes and penalties); ``read``: the structured reading of a list of texts."""
    parts = pieces(law.text)
    if len(parts) < 2 or not domains:
        return ()
    readings = read(parts)
    groups: list[tuple[list[str], list[tuple[str, str, str]], list[str]]] = []
    pending_text: list[str] = []
    pending_cond: list[tuple[str, str, str]] = []
    for part, (conds, terms) in zip(parts, readings):
        pending_text.append(part)
        pending_cond.extend(conds)
        if any(t in outcome_terms for t in terms):
            groups.append((pending_text, pending_cond, list(terms)))
            pending_text, pending_cond = [], []
    if pending_text and groups:
        groups[-1][0].extend(pending_text)
        groups[-1][1].extend(pending_cond)
    if len(groups) < 2:
        return ()
    cues = load_cues()
    contrast = dict(cues.contrast)
    read_facts = [_piece_facts(" ".join(t), c, domains) for t, c, _ in groups]
    facts = [f for f, _ in read_facts]
    stated = set().union(*(f.keys() for f in facts))
    for f, (texts, _, _) in zip(facts, groups):  # a case silent on the facts the others state
        if f.keys() & stated:
            continue
        m = cues.elliptic.match(" ".join(texts))
        if m is None:  # a case that is not told apart by them: the law is read whole
            return ()
        marker = (m.group("marker") or "").lower()
        contrasted = {
            n for _, said in read_facts for n, w in said.items() if re.search(rf"\b{contrast.get(marker, '-')}\b", w)
        }
        if marker == "other":  # "if any other": the fact that has a value "other"
            contrasted = {n for n in stated if "other" in domains[n]}
        for name in contrasted or stated:  # "if after": the fact read with "before"; "otherwise": all they state
            left = set(domains[name]) - set().union(*(g.get(name, set()) for g in facts if g is not f))
            if left:
                f[name] = left
    for f, (texts, _, _) in zip(facts, groups):  # "excepting only the case where ...": the others are the rest
        if cues.exception.match(" ".join(texts)):
            for name, vals in list(f.items()):
                for g in facts:
                    if g is not f and name not in g and set(domains[name]) - vals:
                        g[name] = set(domains[name]) - vals
    for g in facts[1:]:  # the scene the first case sets ("when the cards are given for the discard ...; but if ...")
        for name, vals in facts[0].items():
            g.setdefault(name, set(vals))
    if not stated or any(_meet(facts[i], facts[j]) for i in range(len(facts)) for j in range(i + 1, len(facts))):
        return ()
    return tuple(
        (tuple((name, tuple(v for v in domains[name] if v in f[name])) for name in domains if name in f), tuple(terms))
        for f, (_, _, terms) in zip(facts, groups)
    )


def piece_laws(law: Law, texts: Sequence[str]) -> list[Law]:
    """Pieces of a law as laws of their own for the structured reading (a witness of their own: no reference to the
    laws around the law is read into a piece)."""
    return [
        replace(
            law,
            id=f"{law.game}.{law.witness_id}~{i}.rule-1",
            witness_id=f"{law.witness_id}~{i}",
            parent=None,
            start=0,
            end=len(t),
            text=t,
        )
        for i, t in enumerate(texts)
    ]
