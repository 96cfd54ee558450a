"""The clean stage: raw OCR / transcription text -> reading text + every change as a Correction.

A package whose layout is its design (see docs/ARCHITECTURE.md): the passes, one module per concern
(:mod:`.normalise`, :mod:`.layout`, :mod:`.hyphenation`, :mod:`.debris`, :mod:`.words`, :mod:`.elision`,
:mod:`.phrases`, :mod:`.realwords`), listed in order in :mod:`.registry` and run by :mod:`.stage`; the
noisy channel and candidate search in :mod:`.channel`, the repair decision in :mod:`.decide`, the
lexicon look-ups in :mod:`.repairer`, lexicon loading in :mod:`.lexicon`, settings in :mod:`.config`.

Public API: :func:`clean`, :func:`clean_text`, :func:`clean_lines`, :func:`clean_explained`,
:func:`explain_text`, :func:`load_resources`, :func:`general_resources`, :func:`resources_for`,
:class:`CleanConfig`, :class:`CleanResources`.
"""

from .config import CleanConfig
from .registry import REGISTRY
from .resources import (
    DEFAULT_CORPUS,
    PROJECT_ROOT,
    CleanResources,
    card_game_share,
    general_resources,
    load_resources,
    resources_for,
)
from .stage import (
    PassChange,
    PassLog,
    clean,
    clean_explained,
    clean_lines,
    clean_text,
    explain_text,
    explanation,
    removed_lines,
)

__all__ = [
    "CleanConfig",
    "CleanResources",
    "DEFAULT_CORPUS",
    "PROJECT_ROOT",
    "PassChange",
    "PassLog",
    "REGISTRY",
    "card_game_share",
    "clean",
    "clean_explained",
    "clean_lines",
    "clean_text",
    "explain_text",
    "explanation",
    "general_resources",
    "removed_lines",
    "load_resources",
    "resources_for",
]
