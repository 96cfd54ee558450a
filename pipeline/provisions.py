"""The reading of provisions lives in :mod:`pipeline.align.provisions` (the aligner and the rule table share it); this
module keeps its names importable as ``pipeline.provisions`` for the stages that import them from here."""

from .align.provisions import (
    DEFAULT_CORPUS,
    EN_KINDS,
    FR_HINT,
    KEY_ATTR,
    Comparison,
    Extraction,
    ExtractionConfig,
    ExtractionError,
    PatternRule,
    Provision,
    Thesaurus,
    compare,
    en_inflections,
    event_suggestions,
    load_extraction,
    read_provision,
    read_provisions,
)

__all__ = [
    "DEFAULT_CORPUS",
    "EN_KINDS",
    "FR_HINT",
    "KEY_ATTR",
    "Comparison",
    "Extraction",
    "ExtractionConfig",
    "ExtractionError",
    "PatternRule",
    "Provision",
    "Thesaurus",
    "compare",
    "en_inflections",
    "event_suggestions",
    "load_extraction",
    "read_provision",
    "read_provisions",
]
