"""The build: corpus/ -> outputs/, deterministic and incremental.

Per-witness stages (clean, segment) are pure functions of (witness metadata, raw text, code,
configuration, data files); their result is cached under a hash of all of these, so a rebuild
after adding one scan reprocesses that scan only. Per-game stages (alignment) and the exports
are cheap and rerun from the cached per-witness results. Every output is produced in memory
first and then written file by file atomically; on any error nothing under outputs/ changes.
"""

from ..model import WitnessResult
from .cache import code_version, prune_cache, resources_version, witness_key
from .frames import (
    alignments_frame,
    corrections_frame,
    flags_frame,
    laws_frame,
    pages_frame,
    unaligned_frame,
    witnesses_frame,
)
from .game import AlignedPart, align_corpus, align_parts, export_rules
from .run import BuildOptions, BuildReport, StoredLaws, build, export_data
from .scheduling import Deferred, Mapper
from .status import status
from .witness import Failed, WitnessBuild, WitnessError, process_witness, reading_text, witness_failure, witness_tables

__all__ = [
    "AlignedPart",
    "BuildOptions",
    "BuildReport",
    "Deferred",
    "Failed",
    "Mapper",
    "StoredLaws",
    "WitnessBuild",
    "WitnessError",
    "WitnessResult",
    "align_corpus",
    "align_parts",
    "alignments_frame",
    "build",
    "code_version",
    "corrections_frame",
    "export_data",
    "export_rules",
    "flags_frame",
    "laws_frame",
    "pages_frame",
    "process_witness",
    "prune_cache",
    "reading_text",
    "resources_version",
    "status",
    "unaligned_frame",
    "witness_failure",
    "witness_key",
    "witness_tables",
    "witnesses_frame",
]
