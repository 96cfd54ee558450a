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
# # 1. The corpus and its witnesses
#
# Which witnesses the edition holds (one printed text of one game in one language: an OCR scan, a
# transcription, or a modernized reading), how many laws the pipeline found in each, which law
# numbers each covers, and how long the laws are. Everything here is read from the build's tables
# (`outputs/witnesses.csv`, `outputs/laws.csv`); set `PIPELINE_OUTPUTS` to read another build.

# %%
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import pandas as pd


from pipeline.export import figures  # noqa: E402
from pipeline.notebook import ROOT, outputs_dir, show  # noqa: E402
from pipeline.export.tables import read_table  # noqa: E402

OUT = outputs_dir()
# the tables with their declared types (pipeline/export/tables.py): integers as Int64, missing values as <NA>
witnesses = read_table(OUT / "witnesses.csv")
laws = read_table(OUT / "laws.csv")
print(f"{len(witnesses)} witnesses, {len(laws)} laws (clauses and rules included), read from {OUT}")

# %% [markdown]
# ## The witnesses

# %%
witnesses[["id", "game", "lang", "kind", "title", "source", "page", "laws", "corrections", "flags"]]

# %% [markdown]
# Witnesses that share a `source` are readings of one printed text (an OCR page and its modernized
# reading): the aligner links them as `same_text`.

# %%
witnesses.groupby(["game", "lang"]).agg(witnesses=("id", "count"), laws=("laws", "sum")).reset_index()

# %% [markdown]
# ## Which laws each witness covers
# A law whose number is not printed (a fragment at the start of an excerpt) has an inferred number;
# clauses and unnumbered rules have no number of their own.

# %%
numbered = laws[laws["kind"] == "law"].copy()
numbered["number"] = pd.to_numeric(numbered["number"], errors="coerce")
coverage = (
    numbered.groupby("witness")
    .agg(first=("number", "min"), last=("number", "max"), laws=("law_id", "count"),
         inferred=("printed", lambda s: int(s.isna().sum())), fragments=("complete", lambda s: int((~s.astype(bool)).sum())))
    .reindex(witnesses["id"]).fillna(0)
)
coverage["kinds"] = laws.groupby("witness")["kind"].agg(lambda s: ", ".join(f"{k} {n}" for k, n in s.value_counts().sort_index().items()))
coverage

# %% [markdown]
# ## Law lengths
# Long laws in one witness against short ones in another usually mean one code splits a provision
# that another states at once (an n:m alignment). The build saves this figure as
# `outputs/figures/law-lengths.svg` (`pipeline.export.figures`, the same function).

# %%
show(figures.law_lengths(laws))

# %% [markdown]
# ## Checks

# %%
assert set(laws["witness"]) <= set(witnesses["id"]), "a law names an unknown witness"
assert all(witnesses.set_index("id")["laws"] == laws["witness"].value_counts().reindex(witnesses["id"]).fillna(0).astype(int))
assert laws["law_id"].is_unique
assert all(lid.startswith(f"{g}.{w}.") for lid, g, w in zip(laws["law_id"], laws["game"], laws["witness"]))
print("corpus checks passed:", len(witnesses), "witnesses,", len(laws), "laws")
