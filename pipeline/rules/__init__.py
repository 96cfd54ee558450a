"""The rule table: structured rulings of the laws, grouped across witnesses, with a named canonical choice.

Inputs: the laws of the build (``Law``), the curated rulings under ``corpus/annotations/`` (keyed by law id,
reviewed against a hash of the law text), the vocabulary (``corpus/annotations/vocabulary.toml``), the
named canonical rulesets (``corpus/annotations/canonical.toml``) and the spaCy patterns of
``corpus/lexicon/ruling_patterns.toml``. The curation decides; the patterns only suggest, and a suggestion
that disagrees with the curation is reported, as is a curated entry whose law text changed (stale hash).

One module per job: ``vocabulary`` (the terms and a ruling), ``curation`` (the reviewed entries and the canonical
rulesets), ``suggest`` (the spaCy patterns), ``table`` (the rows, the report and the files), ``compile`` (the
table from the annotations), ``report`` (what a curator is told); ``python -m pipeline.rules`` is ``__main__``.

Public API::

    resources = load_rule_resources(corpus_dir)              # vocabulary, annotations, rulesets, patterns
    suggestions = suggest_rulings(laws, resources.patterns)  # spaCy rule-based hints
    table = build_rule_table(laws, resources.annotations, suggestions, links, resources=resources)
    files = rules_outputs(table)                             # {"rules.csv", "rules.json", "rules_report.txt"}

or all in one: ``make_rule_table(laws, links, corpus_dir)``.
Command line: ``python -m pipeline.rules hashes|check [--laws outputs/laws.csv] [--corpus corpus]``.
"""

from __future__ import annotations

from .compile import (
    DEFAULT_CANONICAL,
    assignments,
    build_rule_table,
    make_rule_table,
    rows_overlap,
    static_check_failures,
)
from .curation import Annotation, RulesetSpec, hash_lines, load_annotations, load_rulesets, parse_law_id
from .report import law_key_of
from .suggest import SPACY_BATCH, PatternSpec, Suggestion, first_suggestions, load_patterns, suggest_rulings
from .table import (
    CSV_COLUMNS,
    TABLE_FORMAT,
    Citation,
    RuleReport,
    RuleResources,
    Row,
    RuleTable,
    laws_from_csv,
    load_rule_resources,
    rules_outputs,
)
from .vocabulary import (
    CURATED,
    EXTRACTED,
    IRREGULARITY,
    PROCEDURE,
    AnnotationError,
    EventSpec,
    FactSpec,
    Pattern,
    RuleTableError,
    Ruling,
    Vocabulary,
    load_vocabulary,
)

__all__ = [
    "CSV_COLUMNS",
    "CURATED",
    "DEFAULT_CANONICAL",
    "EXTRACTED",
    "IRREGULARITY",
    "PROCEDURE",
    "SPACY_BATCH",
    "TABLE_FORMAT",
    "Annotation",
    "AnnotationError",
    "Citation",
    "EventSpec",
    "FactSpec",
    "Pattern",
    "PatternSpec",
    "Row",
    "RuleReport",
    "RuleResources",
    "RuleTable",
    "RuleTableError",
    "RulesetSpec",
    "Ruling",
    "Suggestion",
    "Vocabulary",
    "assignments",
    "build_rule_table",
    "first_suggestions",
    "hash_lines",
    "laws_from_csv",
    "law_key_of",
    "load_annotations",
    "load_patterns",
    "load_rule_resources",
    "load_rulesets",
    "load_vocabulary",
    "make_rule_table",
    "parse_law_id",
    "rows_overlap",
    "rules_outputs",
    "static_check_failures",
    "suggest_rulings",
]
