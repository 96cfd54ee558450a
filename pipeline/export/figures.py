"""The edition's figures, drawn from the build's tables: saved by the build as SVG under outputs/figures/
(for the site) and shown by the notebooks, which import the same functions.

Each figure is a pure function of typed table frames (pipeline/export/tables.py) returning a matplotlib
``Figure`` (no pyplot, no GUI). ``svg_bytes`` writes one deterministically: a fixed ``svg.hashsalt``
(the ids of clip paths), no date in the metadata; the same tables give the same bytes. Labels are SVG text
(``svg_fonttype="none"``: a reader can select and search them; as glyph outlines the figures took 40 % longer
to draw, measured on a one-witness build, and were a third larger).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .tables import ALIGNMENTS, CORRECTIONS, FLAGS, LAWS, RULES, read_table


@dataclass(frozen=True)
class FigureConfig:
    """max_series: beyond this many witnesses, a figure groups them (laws by language and kind) instead
    of drawing one series (bar, line) per witness; max_law_ticks: beyond this many laws, the coverage
    figure drops the per-law tick labels; svg_hashsalt: the fixed salt of the SVG ids; svg_fonttype:
    matplotlib's ``svg.fonttype``, "none" (labels as text, in the reader's sans-serif font) or "path" (labels
    as glyph outlines, the same in every viewer, larger and slower to draw)."""

    max_series: int = 12
    max_law_ticks: int = 120
    svg_hashsalt: str = "cardlaws"
    svg_fonttype: str = "none"


CONFIDENCE_BINS = [i / 20 for i in range(21)]


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _series(df: pd.DataFrame, config: FigureConfig) -> pd.Series:
    """The series each row is drawn in: its witness, or for a large corpus its language and kind of
    witness (laws), or one series for all (the other tables do not say the witness's language)."""
    if df["witness"].nunique() <= config.max_series:
        return df["witness"]
    if "lang" in df and "text" in df:  # the laws table: lang, and kind (law, clause, rule)
        return (df["lang"].astype(str) + " " + df["kind"].astype(str)).astype("string")
    return pd.Series("all witnesses", index=df.index, dtype="string")


def law_lengths(laws: pd.DataFrame, config: FigureConfig = FigureConfig()):
    """Words per law against the law's order in its witness, one line per witness."""
    fig = _figure(8, 3.5)
    ax = fig.add_subplot()
    words = laws["text"].fillna("").str.split().str.len()
    series = _series(laws, config)
    for name in dict.fromkeys(series):
        mask = series == name
        ax.plot(laws.loc[mask, "order"], words[mask], marker="o", ms=3, lw=1, label=name)
    ax.set_xlabel("law order in the witness")
    ax.set_ylabel("words")
    ax.set_title("Length of each law, by witness")
    if len(laws):
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def corrections_by_kind(corrections: pd.DataFrame, config: FigureConfig = FigureConfig()):
    """How many corrections of each kind, stacked by witness."""
    fig = _figure(8, 3.8)
    ax = fig.add_subplot()
    kinds = corrections.assign(series=_series(corrections, config)).pivot_table(
        index="kind", columns="series", values="start", aggfunc="count", fill_value=0
    )
    left = pd.Series(0, index=kinds.index, dtype="int64")
    for name in kinds.columns:
        ax.barh(list(kinds.index), kinds[name], left=left, label=name)
        left = left + kinds[name]
    ax.set_xlabel("corrections")
    ax.set_title("Corrections by kind and witness")
    if len(kinds.columns):
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def repair_confidence(corrections: pd.DataFrame, flags: pd.DataFrame, config: FigureConfig = FigureConfig()):
    """Confidence of the word repairs by kind (layout fixes, always certain, left out), and of the flagged words."""
    fig = _figure(7, 3.5)
    ax = fig.add_subplot()
    for kind, g in corrections.groupby("kind", sort=True):
        conf = g["confidence"].astype(float)
        if conf.nunique() > 1 or conf.iloc[0] < 1:
            ax.hist(conf, bins=CONFIDENCE_BINS, alpha=0.6, label=kind)
    if len(flags):
        ax.hist(
            flags["confidence"].astype(float),
            bins=CONFIDENCE_BINS,
            histtype="step",
            color="k",
            label="flagged (not applied)",
        )
    ax.set_xlabel("confidence")
    ax.set_ylabel("count")
    ax.set_title("Confidence of word repairs")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def link_scores(alignments: pd.DataFrame, config: FigureConfig = FigureConfig()):
    """Scores of the alignment links, by kind of link (same text, edition, same code, translation)."""
    fig = _figure(7, 3.5)
    ax = fig.add_subplot()
    for kind, g in alignments.groupby("kind", sort=True):
        ax.hist(g["score"].astype(float), bins=CONFIDENCE_BINS, alpha=0.6, label=f"{kind} ({len(g)})")
    ax.set_xlabel("score")
    ax.set_ylabel("links")
    ax.set_title("Alignment links by score and kind")
    if len(alignments):
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def citations_per_law(laws: pd.DataFrame, rules: pd.DataFrame) -> pd.Series:
    """For each law (in table order), how many rows of the rule table cite it."""
    cited = rules["citations"].dropna().str.split(";").explode().str.strip()
    counts = cited[cited != ""].value_counts()
    return counts.reindex(laws["law_id"], fill_value=0).astype(int).set_axis(laws.index)


def rule_coverage(laws: pd.DataFrame, rules: pd.DataFrame, config: FigureConfig = FigureConfig()):
    """Rule-table rows citing each law (grey: a law no ruling cites)."""
    n = citations_per_law(laws, rules)
    fig = _figure(9, 3.5)
    ax = fig.add_subplot()
    if len(laws) <= config.max_law_ticks:
        ax.bar(range(len(laws)), n, color=["C0" if k else "lightgray" for k in n])
    else:  # one bar per law is slow to draw and unreadable: the counts as one outline
        ax.stairs(n.to_numpy(), color="C0", fill=True)
    if len(laws) <= config.max_law_ticks:
        ax.set_xticks(
            range(len(laws)), [f"{w}:{lab}" for w, lab in zip(laws["witness"], laws["label"])], rotation=90, fontsize=6
        )
    ax.set_xlabel("law" if len(laws) <= config.max_law_ticks else "law (table order)")
    ax.set_ylabel("rule rows citing the law")
    ax.set_title("Rule-table coverage per law (grey: not cited)")
    fig.tight_layout()
    return fig


def svg_bytes(fig, config: FigureConfig = FigureConfig()) -> bytes:
    """``fig`` as SVG, byte for byte the same for the same figure."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": config.svg_hashsalt, "svg.fonttype": config.svg_fonttype}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


# the figures of the last few sets of tables this process drew, by the tables' bytes: a build whose tables did
# not change (a rebuild, an edit of the metadata) takes them instead of drawing them again (about 2 s)
DRAWN: dict[str, dict[str, bytes]] = {}
DRAWN_KEEP = 4


def render_figures(folder: Path, config: FigureConfig = FigureConfig()) -> dict[str, bytes]:
    """``figures/<name>.svg`` for each figure whose tables are in ``folder`` (a build's outputs)."""
    import hashlib

    import matplotlib

    folder = Path(folder)
    digest = hashlib.sha256(f"{config!r} {matplotlib.__version__}".encode())
    for t in (LAWS, CORRECTIONS, FLAGS, ALIGNMENTS, RULES):
        p = folder / t.path
        digest.update(f"\0{t.path}\0".encode() + (p.read_bytes() if p.is_file() else b"-"))
    key = digest.hexdigest()
    if key not in DRAWN:
        if len(DRAWN) >= DRAWN_KEEP:
            del DRAWN[next(iter(DRAWN))]
        DRAWN[key] = draw_figures(folder, config)
    return dict(DRAWN[key])


def draw_figures(folder: Path, config: FigureConfig = FigureConfig()) -> dict[str, bytes]:
    """The figures of :func:`render_figures`, drawn."""

    def table(t):
        p = folder / t.path
        return read_table(p, t) if p.is_file() else None

    laws, corrections, flags, links, rules = (table(t) for t in (LAWS, CORRECTIONS, FLAGS, ALIGNMENTS, RULES))
    figures = {}
    if laws is not None:
        figures["law-lengths"] = law_lengths(laws, config)
    if corrections is not None:
        figures["corrections-by-kind"] = corrections_by_kind(corrections, config)
        figures["repair-confidence"] = repair_confidence(
            corrections, flags if flags is not None else corrections.iloc[:0], config
        )
    if links is not None:
        figures["link-scores"] = link_scores(links, config)
    if laws is not None and rules is not None:
        figures["rule-coverage"] = rule_coverage(laws, rules, config)
    return {f"figures/{name}.svg": svg_bytes(fig, config) for name, fig in figures.items()}
