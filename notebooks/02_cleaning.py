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
# # 2. Cleaning: what the pipeline changed, and whether it helped
#
# * **CER before and after**, per witness and per dataset, for the witnesses that have a gold
#   reading text (`$SHARED_DIR/gold/<raw file>.gold.txt`), measured with the gold folder's own metric
#   (`cer.py`: curly quotes, dashes, footnote markers and spacing normalised away). *Before* is the
#   witness's raw text; *after* is the build's reading text `outputs/text/<witness>.txt`.
#   If the evaluation stage wrote `outputs/eval/cleaning.json`, it is shown as well.
# * **Corrections by kind** and **the confidence distribution** (from `outputs/corrections.csv`),
#   and the words left flagged for review (`outputs/flags.csv`).

# %%
import importlib.util
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd


from pipeline.export import figures  # noqa: E402
from pipeline.notebook import ROOT, outputs_dir, show  # noqa: E402
from pipeline.export.tables import FLAGS, empty_frame, read_table  # noqa: E402

OUT = outputs_dir()
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
GOLD = SHARED / "gold"

from pipeline.corpus import load_witnesses, witness_text  # noqa: E402

# The gold reading texts and their metric live beside the project ($SHARED_DIR/gold); a checkout without them
# still runs this notebook, and says what it skips.
HAVE_GOLD = (GOLD / "cer.py").is_file()
if HAVE_GOLD:
    spec = importlib.util.spec_from_file_location("gold_cer", GOLD / "cer.py")
    gold_cer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold_cer)
else:
    print(f"no gold folder at {GOLD} (set SHARED_DIR): the CER and WER sections are skipped")

witnesses = load_witnesses(ROOT / "corpus")
corrections = read_table(OUT / "corrections.csv")
flags = read_table(OUT / "flags.csv") if (OUT / "flags.csv").is_file() else empty_frame(FLAGS)
print(len(corrections), "corrections,", len(flags), "flagged words")

# %% [markdown]
# ## CER and WER against gold

# %%
rows = []
for w in witnesses if HAVE_GOLD else ():
    gold_file = GOLD / (Path(w.file).stem + ".gold.txt")
    if not gold_file.is_file():
        continue
    gold = gold_file.read_text(encoding="utf-8")
    raw = witness_text(ROOT / "corpus", w).raw
    after = (OUT / "text" / f"{w.id}.txt").read_text(encoding="utf-8")
    n = len(gold_cer.normalise(gold))
    rows.append({
        "witness": w.id, "kind": w.kind, "lang": w.lang, "gold_chars": n,
        "cer_before": gold_cer.cer(gold, raw), "cer_after": gold_cer.cer(gold, after),
        "wer_before": gold_cer.wer(gold, raw), "wer_after": gold_cer.wer(gold, after),
    })
cer = pd.DataFrame(rows, columns=["witness", "kind", "lang", "gold_chars", "cer_before", "cer_after", "wer_before", "wer_after"])
cer.style.format({c: "{:.2%}" for c in cer.columns if c.startswith(("cer", "wer"))})

# %% [markdown]
# Per dataset (OCR scans; transcriptions and modernized readings), weighted by gold length:

# %%
def weighted(g: pd.DataFrame) -> pd.Series:
    w = g["gold_chars"]
    return pd.Series({c: (g[c] * w).sum() / w.sum() for c in ["cer_before", "cer_after", "wer_before", "wer_after"]}
                     | {"witnesses": len(g), "gold_chars": int(w.sum())})


if len(cer):
    by_dataset = pd.concat([cer.groupby("kind").apply(weighted, include_groups=False),
                            weighted(cer).to_frame("all").T])
else:
    by_dataset = pd.DataFrame()
    print("no witness with a gold reading text: nothing to compare")
by_dataset

# %%
if len(cer):
    fig, ax = plt.subplots(figsize=(7, 3.5))
    x = range(len(cer))
    ax.bar([i - 0.2 for i in x], cer["cer_before"] * 100, width=0.4, label="raw (before)")
    ax.bar([i + 0.2 for i in x], cer["cer_after"] * 100, width=0.4, label="reading text (after)")
    ax.set_xticks(list(x), cer["witness"])
    ax.set_ylabel("CER (%)")
    ax.set_title("Character error rate against gold")
    ax.legend()
    fig.tight_layout()
    show(fig)

# %%
eval_json = OUT / "eval" / "cleaning.json"
if eval_json.is_file():
    print("outputs/eval/cleaning.json (the evaluation stage's own report):")
    print(json.dumps(json.loads(eval_json.read_text(encoding="utf-8")), indent=1, ensure_ascii=False)[:4000])
else:
    print("no outputs/eval/cleaning.json: `make eval` writes it; the table above is computed here")

# %% [markdown]
# ## Corrections by kind

# %%
kinds = corrections.pivot_table(index="kind", columns="witness", values="start", aggfunc="count", fill_value=0)
kinds

# %% [markdown]
# Saved by the build as `outputs/figures/corrections-by-kind.svg` (`pipeline.export.figures`, the same function).

# %%
show(figures.corrections_by_kind(corrections))

# %% [markdown]
# ## How sure the repairs are
# Layout fixes (running heads, hyphens, whitespace) are certain; word repairs carry the confidence of
# their decision. Repairs below the threshold are not applied but flagged for review
# (`outputs/figures/repair-confidence.svg`).

# %%
show(figures.repair_confidence(corrections, flags))

# %%
corrections.groupby("kind")["confidence"].describe()[["count", "mean", "min", "max"]]

# %%
flags.head(20) if len(flags) else "no word flagged for review"

# %% [markdown]
# ## Checks

# %%
from pipeline.model import CORRECTION_KINDS  # noqa: E402

assert set(corrections["kind"]) <= set(CORRECTION_KINDS)
assert corrections["confidence"].between(0, 1).all()
if HAVE_GOLD:
    assert len(cer) > 0, "the gold folder has no reading text of any witness"
    ocr = by_dataset.loc["ocr"] if "ocr" in by_dataset.index else by_dataset.loc["all"]
    assert ocr["cer_after"] < ocr["cer_before"], f"cleaning did not lower the CER of the OCR witnesses: {ocr.to_dict()}"
    print(f"cleaning checks passed: OCR CER {ocr['cer_before']:.2%} -> {ocr['cer_after']:.2%}")
else:
    print(f"cleaning checks passed: {len(corrections)} corrections checked (no gold folder: CER not measured)")
