# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 3. Alignment: which French law states the same provision as which English law
#
# The heat map scores every French Écarté law against every English one with the pipeline's own
# scorer (`pipeline.align.AlignModel`, fitted, as the build does, on all laws of the game), and marks
# the links the build chose (`outputs/alignments.csv`) and, where a gold alignment exists
# (`$SHARED_DIR/gold/ecarte_fr000_en003.csv`), the gold links. The laws are rebuilt from
# `outputs/laws.csv`.

# %%
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


from pipeline.export import figures  # noqa: E402
from pipeline.notebook import ROOT, outputs_dir, show  # noqa: E402
from pipeline.export.tables import read_table  # noqa: E402

OUT = outputs_dir()
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
GAME, FR, EN = "ecarte", "fr-000", "en-003"

from pipeline.corpus import load_witnesses  # noqa: E402
from pipeline.model import Law  # noqa: E402

laws_df = pd.read_csv(OUT / "laws.csv", dtype={"pages": str, "printed": str, "parent": str}, keep_default_na=False)
links_df = pd.read_csv(OUT / "alignments.csv", keep_default_na=False)


def as_law(r) -> Law:
    return Law(
        id=r.law_id, witness_id=r.witness, game=r.game, lang=r.lang, kind=r.kind,
        number=int(r.number) if str(r.number).strip() not in ("", "nan", "<NA>") else None,
        printed=r.printed, label=str(r.label), order=int(r.order), start=int(r.start), end=int(r.end), text=r.text,
        pages=tuple(p for p in str(r.pages).split(";") if p), confidence=float(r.confidence),
        complete=str(r.complete) == "True", parent=r.parent or None, heading=r.heading, evidence=r.evidence,
    )


game_laws = [as_law(r) for r in laws_df[laws_df["game"] == GAME].itertuples()]
fr = sorted([l for l in game_laws if l.witness_id == FR], key=lambda l: l.order)
en = sorted([l for l in game_laws if l.witness_id == EN], key=lambda l: l.order)
print(f"{len(fr)} French laws ({FR}) x {len(en)} English laws ({EN})")

# %%
try:
    from pipeline.align import AlignModel, align, load_resources

    witnesses = {w.id: w for w in load_witnesses(ROOT / "corpus")}
    usable = [l for l in game_laws if l.text.strip()]
    model = AlignModel(usable, load_resources(ROOT / "corpus"))
    S = np.array([[model.score(a, b, witnesses, (len(fr), len(en)))[0] for b in en] for a in fr])
    SCORER = "pipeline.align.AlignModel.score (the build's scorer)"
except ImportError:  # the aligner is not there: a plain fuzzy text ratio, which cannot see across languages
    from rapidfuzz import fuzz

    S = np.array([[fuzz.token_set_ratio(a.text, b.text) / 100 for b in en] for a in fr])
    SCORER = "FALLBACK: rapidfuzz token_set_ratio on the texts (pipeline.align not available)"
print("scores from", SCORER)

# %%
chosen = links_df[(links_df["law_a"].isin([l.id for l in fr]) & links_df["law_b"].isin([l.id for l in en]))
                  | (links_df["law_b"].isin([l.id for l in fr]) & links_df["law_a"].isin([l.id for l in en]))]
fr_ix = {l.id: i for i, l in enumerate(fr)}
en_ix = {l.id: j for j, l in enumerate(en)}
cells = [(fr_ix.get(r.law_a, fr_ix.get(r.law_b)), en_ix.get(r.law_b, en_ix.get(r.law_a)), r.score) for r in chosen.itertuples()]

gold_file = SHARED / "gold" / "ecarte_fr000_en003.csv"
gold = pd.read_csv(gold_file, comment="#") if gold_file.is_file() else pd.DataFrame(columns=["fr_law", "en_law", "strength"])
fr_by_num = {l.number: i for i, l in enumerate(fr)}
en_by_num = {l.number: j for j, l in enumerate(en)}
gold_cells = [(fr_by_num.get(int(g.fr_law)), en_by_num.get(int(g.en_law)), g.strength) for g in gold.itertuples()]

fig, ax = plt.subplots(figsize=(9, 6.5))
im = ax.imshow(S, cmap="viridis", vmin=0, vmax=max(0.01, float(S.max())), aspect="auto")
ax.set_xticks(range(len(en)), [l.label for l in en])
ax.set_yticks(range(len(fr)), [l.label for l in fr])
ax.set_xlabel(f"English law ({EN})")
ax.set_ylabel(f"French law ({FR})")
for i, j, s in cells:
    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, ec="red", lw=2.2))
    ax.text(j, i, f"{s:.2f}", ha="center", va="center", color="white", fontsize=7)
for i, j, strength in gold_cells:
    if i is not None and j is not None:
        ax.plot(j, i + 0.3, marker="*" if strength == "sure" else "+", color="orange", ms=8)
ax.set_title(f"Écarté: French × English similarity\n{SCORER}\nred boxes: chosen links; orange ★ gold sure, + gold possible",
             fontsize=9)
fig.colorbar(im, ax=ax, label="score")
fig.tight_layout()
show(fig)

# %% [markdown]
# ## The scores of every link of the build, by kind
# (`outputs/figures/link-scores.svg`, drawn by the build with the same function)

# %%
show(figures.link_scores(read_table(OUT / "alignments.csv")))

# %% [markdown]
# ## The chosen links against gold
# `sure` gold links should be found; `possible` ones are partial overlaps, neither rewarded nor
# penalised (the gold folder's convention).

# %%
found = {(fr[i].number, en[j].number) for i, j, _ in cells}
sure = {(int(g.fr_law), int(g.en_law)) for g in gold.itertuples() if g.strength == "sure"}
possible = {(int(g.fr_law), int(g.en_law)) for g in gold.itertuples() if g.strength != "sure"}
tp = len(found & sure)
fp = len(found - sure - possible)
precision = tp / max(1, tp + fp)
recall = tp / max(1, len(sure))
if gold_file.is_file():
    print(f"links chosen: {len(found)}; gold sure: {len(sure)}; precision {precision:.2f}, recall {recall:.2f}")
else:
    print(f"links chosen: {len(found)}; no gold alignment at {gold_file} (set SHARED_DIR): precision and recall not measured")
pd.DataFrame(
    [{"fr": a, "en": b, "chosen": (a, b) in found, "gold": "sure" if (a, b) in sure else "possible" if (a, b) in possible else ""}
     for a, b in sorted(found | sure | possible)]
)

# %% [markdown]
# ## Checks
# The scores recomputed here are the build's: every chosen link's score matches its cell.

# %%
assert S.shape == (len(fr), len(en)) and len(fr) > 0 and len(en) > 0
if SCORER.startswith("pipeline.align"):
    for i, j, s in cells:
        assert abs(S[i, j] - s) < 2e-3, (
            f"{fr[i].id} x {en[j].id}: recomputed {S[i, j]:.4f}, the build chose it at {s:.4f}: "
            "the aligner is not reproducible (or the outputs are stale)")
        assert S[i, j] >= 0.5 * max(S[i].max(), S[:, j].max()) - 1e-9, "a chosen link is far below its laws' best"
print("alignment checks passed:", len(cells), "links,", SCORER)
