"""The per-witness step: clean, segment, TEI, suggested rulings and table rows of one witness, computed as
one unit (``WitnessBuild``) and cached under the witness's key."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..corpus import witness_text
from ..errors import PipelineError
from ..export.tables import LAWS, json_ready
from ..model import Witness, WitnessResult, WitnessText
from .cache import cached, witness_key
from .frames import corrections_frame, csv_rows, flags_frame, json_items, laws_frame, pages_frame


class WitnessError(PipelineError):
    """One witness cannot be built (its id and file named); the rest can, with ``--keep-going``."""


@dataclass(frozen=True)
class Failed:
    """A witness left out of a ``keep_going`` build: the one-line reason, naming its id and file."""

    witness_id: str
    message: str


def witness_failure(w: Witness, exc: BaseException) -> str:
    """The one line that says witness ``w`` cannot be built, and why."""
    why = str(exc) if isinstance(exc, PipelineError) else f"{type(exc).__name__}: {exc}"
    return f"witness {w.id} ({w.file}) cannot be built: {' '.join(why.split())}"


@dataclass(frozen=True)
class WitnessBuild:
    """Everything built for one witness by the per-witness stage (cached as one unit).

    ``tables`` holds the witness's rows of each table, already formatted (CSV rows without the
    header, JSON records without the brackets) and ``laws_frame`` its rows of laws.parquet, so the
    build writes a library's tables by concatenation, never holding them whole."""

    result: WitnessResult
    tei: bytes  # outputs/tei/<witness>.xml
    text: bytes  # outputs/text/<witness>.txt
    suggestions: tuple = ()  # rulings the spaCy patterns suggest for its laws (rules.Suggestion)
    tables: dict = field(default_factory=dict)  # table file name -> this witness's rows (bytes)
    laws_frame: pd.DataFrame | None = None


def witness_tables(result: WitnessResult) -> tuple[dict[str, bytes], pd.DataFrame]:
    """One witness's rows of every per-witness table, formatted as in the whole table."""
    laws = laws_frame([result])
    tables = {
        "laws.csv": csv_rows(laws),
        "laws.json": json_items(json_ready(laws, LAWS)),
        "corrections.csv": csv_rows(corrections_frame([result])),
        "flags.csv": csv_rows(flags_frame([result])),
        "pages.csv": csv_rows(pages_frame([result])),
    }
    return tables, laws


def process_witness(wt: WitnessText, corpus_dir: Path, build_info) -> WitnessBuild:
    """Clean, segment and export one witness (pure apart from reading the data files under corpus/)."""
    from ..clean import clean, load_resources
    from ..align.provisions import event_suggestions
    from ..rules import load_patterns, suggest_rulings
    from ..segment import segment
    from ..export.tei.witness import witness_tei

    from ..clean.memo import fewer_collections, freeze_loaded
    from ..progress import MIN_CHARS, bar

    # (a book shows which stage it is in, on a terminal; the stages show their own bars inside; the cyclic
    # collector runs less often meanwhile: a book's TEI tokens made it walk the heap again and again, a
    # fifth of the TEI stage of a 2 MB witness)
    with (
        fewer_collections(),
        bar(5, f"{wt.witness.id}: clean", unit="stage", min_total=0, disable_if_empty=len(wt.raw) < MIN_CHARS) as shown,
    ):
        t0 = time.perf_counter()
        res = load_resources(corpus_dir, wt.witness.lang)
        freeze_loaded(("clean", wt.witness.lang))  # (speed only: once per language and process)
        cleaned = clean(wt, res)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: segment")
        t1 = time.perf_counter()
        segmented = segment(cleaned, wt.witness)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: TEI")
        t2 = time.perf_counter()
        result = WitnessResult(wt.witness, cleaned, segmented)
        tei = witness_tei(wt.witness, cleaned, segmented, build_info)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: rule terms")
        t3 = time.perf_counter()
        suggestions = suggest_rulings(segmented.laws, load_patterns(corpus_dir))
        suggestions += event_suggestions(segmented.laws, corpus_dir)  # the events the aligner reads, for the rule table
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: tables")
        t4 = time.perf_counter()
        tables, laws = witness_tables(result)
        t5 = time.perf_counter()
    result.stats.update({"clean": t1 - t0, "segment": t2 - t1, "tei": t3 - t2, "suggest": t4 - t3, "tables": t5 - t4})
    return WitnessBuild(result, tei, reading_text(result).encode("utf-8"), suggestions, tables, laws)


def reading_text(result: WitnessResult) -> str:
    """The reading text of a witness: headings on their own line, one law (clause, rule) per paragraph."""
    text = result.cleaned.text
    laws = {law.id: law for law in result.segmented.laws}
    parents = {law.parent for law in result.segmented.laws if law.parent}
    paras: list[str] = []
    for seg in result.segmented.segments:
        if seg.law_id and seg.law_id in laws:
            law = laws[seg.law_id]
            if law.kind == "law" and law.printed and law.number is not None:
                body = law.text
                if law.id in parents:
                    # (its clauses follow as paragraphs of their own: the law's paragraph is the text before
                    # the first of them, its segment, not the whole law's text with the clauses in it again)
                    lead = " ".join(text[seg.start : seg.end].split())
                    lead = lead[len(law.printed) :].strip() if lead.startswith(law.printed) else lead
                    if law.text.startswith(lead):  # (empty: the law opens with its first clause)
                        body = lead
                number = law.label if law.label[:1].isdigit() else law.number  # "12a" for a lettered law
                paras.append(f"{number}. {body}".strip())
            elif law.kind == "clause" and law.printed:
                paras.append(f"({law.label.split('(')[-1].rstrip(')')}) {law.text}".strip())
            elif law.text:
                paras.append(law.text)
        else:
            chunk = " ".join(text[seg.start : seg.end].split())
            if chunk:
                paras.append(chunk)
    return "\n\n".join(paras) + "\n"


def witness_job(w: Witness, corpus_dir: str, cache: str | None, key: str, build_info, code: str, res: str) -> tuple:
    """The stage-1 job of ``w``: its raw text is read again when the job is submitted, and must be
    the text the build's cache key was computed from."""
    wt = witness_text(Path(corpus_dir), w)
    if witness_key(wt, code, res) != key:
        raise PipelineError(f"{w.file} changed while the build was running; run the build again")
    return (wt, corpus_dir, cache, key, build_info)


def run_witness(args: tuple) -> tuple[WitnessBuild | Failed, bool]:
    """A witness's stages (from the cache, or run and cached); a failure is returned as a :class:`Failed`
    naming the witness and its file (never cached), for the build to stop on or leave out: a worker of a
    cluster then logs no traceback of its own."""
    wt, corpus_dir, cache_dir, key, build_info = args
    try:
        return cached(
            cache_dir, f"{wt.witness.id}.{key}.pkl", lambda: process_witness(wt, Path(corpus_dir), build_info)
        )
    except Exception as exc:  # (any failure of one witness's stages: the others may still build)
        return Failed(wt.witness.id, witness_failure(wt.witness, exc)), True
