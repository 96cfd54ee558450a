"""The resources the clean stage reads: the data files of ``corpus/lexicon`` and the general word lists,
loaded once per corpus folder, language and mode (domain or general), and the repair engine built from
them for each configuration."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import regex

from .config import CleanConfig
from .lexicon import CorpusCounts, GeneralLexicon, LexiconData, general_lexicon, load_lexicon_data
from .repairer import Repairer

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_CORPUS = PROJECT_ROOT / "corpus"


@dataclass
class CleanResources:
    """Everything the clean stage reads: data files and wordfreq lists (``corpus`` stays empty: kept for
    compatibility; a witness is cleaned from its own text, the data files and the config only)."""

    lang: str
    lexdata: LexiconData
    general: GeneralLexicon
    corpus: CorpusCounts = field(default_factory=CorpusCounts)
    _repairers: dict = field(default_factory=dict, repr=False)
    _derived: dict = field(default_factory=dict, repr=False)

    def repairer(self, cfg: CleanConfig) -> Repairer:
        r = self._repairers.get(cfg)
        if r is None:
            r = self._repairers[cfg] = Repairer(self, cfg)
        return r

    def derived(self, name: str) -> dict:
        """A table derived from these resources alone, built on first use and kept with them (the language
        model's pools of frequent words, its period words): the same for every configuration and text."""
        return self._derived.setdefault(name, {})


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


def resources_for(
    text: str, lang: str, mode: str = "auto", corpus_dir: Path = DEFAULT_CORPUS, config: CleanConfig = CleanConfig()
) -> CleanResources:
    """The resources to clean ``text`` with: ``domain`` (card-game lexicon, known running heads, witness
    rules), ``general`` (word lists and OCR data only), or ``auto``: domain when at least
    ``config.domain_min_share`` of its words are card-game terms.  The domain resources tuned for rule
    books damage other text (ICDAR 2017 French press: CER 7.14 -> 7.32 % with them, 7.13 % without)."""
    if mode not in ("auto", "domain", "general"):
        raise ValueError(f"resources mode {mode!r}: want auto, domain or general")
    if mode == "auto":
        terms = load_resources(corpus_dir, lang).lexdata.domain
        mode = (
            "domain"
            if card_game_share(text, frozenset(w.lower() for w in terms)) >= config.domain_min_share
            else "general"
        )
    return load_resources(corpus_dir, lang, domain=mode == "domain")
