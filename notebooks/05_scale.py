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
# # 5. Scale: whole builds of generated libraries
#
# `make bench` (`python -m measure.bench_build`) builds generated corpora of 10, 100 and 1,000
# book-length witnesses (about 100 KB each, made from the real witnesses' laws, shuffled, renumbered,
# repeated and re-noised at the OCR error rate measured on the gold) on a Dask `LocalCluster` with one
# and with two workers, then adds one witness and rebuilds. It writes `outputs/bench/build.json`
# (each size keeps the date and machine it was measured on); this notebook plots it.
#
# * **wall time** against the number of witnesses (1 and 2 workers): linear growth is a line of slope 1
#   on the log–log plot;
# * **peak memory** of the build and its workers;
# * **adding one witness**: its cost as a share of a full build.

# %%
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from pipeline.notebook import ROOT, show  # noqa: E402

bench = Path(os.environ.get("PIPELINE_BENCH", ROOT / "outputs" / "bench" / "build.json"))
data = json.loads(bench.read_text(encoding="utf-8"))
rows = []
for s in data["sizes"]:
    rows.append({
        "witnesses": s["witnesses"], "OCR MB": s["ocr_mb"],
        "1 worker s": s["one_worker"]["wall_s"] if s.get("one_worker") else None,
        "2 workers s": s["two_workers"]["wall_s"],
        "speed-up": s.get("speedup_2_over_1"),
        "peak GiB": round(max(x["peak_mem_mib"] for x in (s.get("one_worker"), s["two_workers"], s["add_one"]) if x) / 1024, 2),
        "add one s": s["add_one"]["wall_s"], "add one / full": s["add_one_fraction_of_full"],
        "measured": s.get("date", data.get("date")), "commit": s.get("commit", ""),
        "machine": s.get("machine", data.get("machine")),
    })
table = pd.DataFrame(rows).sort_values("witnesses").reset_index(drop=True)
table

# %%
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
ax = axes[0]
for col, style in (("1 worker s", "o-"), ("2 workers s", "s-")):
    t = table.dropna(subset=[col])
    ax.loglog(t["witnesses"], t[col], style, label=col.replace(" s", ""))
w = table["witnesses"]
ref = table["2 workers s"].iloc[0] * w / w.iloc[0]
ax.loglog(w, ref, ":", color="grey", label="linear from the smallest")
ax.set_xlabel("witnesses")
ax.set_ylabel("wall time (s)")
ax.set_title("Full build")
ax.legend(fontsize=8)
ax = axes[1]
ax.plot(table["witnesses"], table["peak GiB"], "o-")
ax.axhline(4, color="red", ls="--", lw=1, label="4 GiB")
ax.set_xscale("log")
ax.set_xlabel("witnesses")
ax.set_ylabel("peak memory (GiB)")
ax.set_title("Peak memory (build + workers)")
ax.legend(fontsize=8)
ax = axes[2]
ax.bar([str(n) for n in table["witnesses"]], 100 * table["add one / full"])
ax.axhline(5, color="red", ls="--", lw=1, label="5 %")
ax.set_xlabel("witnesses")
ax.set_ylabel("% of a full build")
ax.set_title("Adding one witness")
ax.legend(fontsize=8)
fig.tight_layout()
show(fig)

# %% [markdown]
# Time per stage of the 2-worker build (seconds; per-witness stages are CPU seconds summed over the
# witnesses that were processed, the others are wall time in the build process):

# %%
pd.DataFrame({s["witnesses"]: s["two_workers"]["stages_s"] for s in data["sizes"]}).round(1)

# %% [markdown]
# ## Checks

# %%
assert len(table) >= 1, "no benchmark size in outputs/bench/build.json: run make bench"
for s in data["sizes"]:
    assert s["add_one"]["processed"] == 1, f"adding one witness to {s['witnesses']} reprocessed {s['add_one']['processed']}"
    assert s["two_workers"]["processed"] == s["witnesses"]
print(f"scale checks passed: {', '.join(str(n) for n in table['witnesses'])} witnesses measured")
