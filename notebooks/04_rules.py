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
# # 4. The rule table: which laws it covers, and where witnesses disagree
#
# The rule table (`outputs/rules.json`) turns laws into structured rulings that the referee reads.
# This notebook counts, for every law, the rows of the table that cite it (in any field), and, for
# every provision (the laws of different witnesses that the alignment puts in one row of the
# synoptic table, see `pipeline.export.site.rows.synoptic_rows`), compares the rulings the witnesses give.
# It reads whatever columns the table has.

# %%
import json
import re
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import pandas as pd


from pipeline.export import figures  # noqa: E402
from pipeline.notebook import ROOT, outputs_dir, show  # noqa: E402
from pipeline.export.tables import read_table  # noqa: E402

OUT = outputs_dir()

from pipeline.model import Law, Link  # noqa: E402
from pipeline.export.site.rows import rule_rows, rules_by_law, synoptic_rows  # noqa: E402

laws = pd.read_csv(OUT / "laws.csv", dtype={"pages": str, "printed": str}, keep_default_na=False)
links = pd.read_csv(OUT / "alignments.csv", keep_default_na=False)
rules_path = OUT / "rules.json"
rules = json.loads(rules_path.read_text(encoding="utf-8")) if rules_path.is_file() else None
rows = rule_rows(rules)
print(f"{len(rows)} rows in the rule table" if rules is not None else "outputs/rules.json is missing: the rule table is not built yet")
pd.DataFrame(rows).head(10)

# %% [markdown]
# ## Coverage per law

# %%
cited = rules_by_law(rules, laws["law_id"])
laws["rule_rows"] = [len(cited.get(l, [])) for l in laws["law_id"]]
coverage = laws.groupby("witness").agg(laws=("law_id", "count"), covered=("rule_rows", lambda s: int((s > 0).sum())))
coverage["share"] = coverage["covered"] / coverage["laws"]
coverage

# %% [markdown]
# The rows of `outputs/rules.csv` whose `citations` name each law (`outputs/figures/rule-coverage.svg`,
# drawn by the build with the same function; the count above also counts a law cited in any other field).

# %%
if (OUT / "rules.csv").is_file():
    show(figures.rule_coverage(laws, read_table(OUT / "rules.csv")))

# %% [markdown]
# ## Where witnesses disagree
# When the rows carry a `ruleset` (the canonical one and one per witness) and an `event` with its
# `facts`, rows are compared per (game, event, facts): a ruling field (outcome, options, chooser,
# penalties...) with more than one value across rulesets is a disagreement. Otherwise the laws are
# grouped into provisions by the alignment (the rows of the synoptic table) and every field of the
# rows citing them is compared across witnesses.

# %%
KEYS = {"ruleset", "game", "event", "facts", "citations"}
IGNORE = {"law_id", "law", "laws", "citations", "cites", "sources", "witness", "witness_id", "source", "text",
          "evidence", "text_hash", "id", "rule_id", "note", "notes", "quote"}


def dumps(v) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def cites(row) -> str:
    return " ".join(sorted(t for t in set(re.findall(r"[\w.\-]+", dumps(row.get("citations", "")))) if t in cited))


disagreements = []
if rows and all("ruleset" in r and "event" in r for r in rows):
    groups = defaultdict(list)
    for r in rows:
        groups[(r.get("game", ""), r["event"], dumps(r.get("facts", {})))].append(r)
    for (game, event, facts), rs in groups.items():
        for field in [k for k in rs[0] if k not in KEYS]:
            by_set = {r["ruleset"]: dumps(r.get(field)) for r in rs}
            if len(set(by_set.values())) > 1:
                disagreements.append({"game": game, "event": event, "facts": facts, "field": field,
                                      "readings": "; ".join(f"{k}: {v}" for k, v in sorted(by_set.items())),
                                      "laws": " ".join(sorted({c for r in rs for c in cites(r).split()}))})
    mode = "rows compared per (game, event, facts) across rulesets"
else:
    def as_law(r) -> Law:
        return Law(r.law_id, r.witness, r.game, r.lang, r.kind, None, r.printed, str(r.label), int(r.order), 0, 0, r.text)

    for game, g in laws.groupby("game", sort=False):
        wids = list(dict.fromkeys(g["witness"]))
        laws_of = {w: [as_law(r) for r in g[g["witness"] == w].itertuples()] for w in wids}
        lk = [Link(r.game, r.law_a, r.law_b, float(r.score), r.kind) for r in links[links["game"] == game].itertuples()]
        for n, prov in enumerate(synoptic_rows(wids, laws_of, lk), 1):
            values: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
            for w, ls in prov.laws.items():
                for law in ls:
                    for row in cited.get(law.id, []):
                        for k, v in row.items():
                            if k not in IGNORE and v not in (None, "", [], {}):
                                values[k][w].add(dumps(v))
            for field, by_w in values.items():
                if len(by_w) > 1 and len(set().union(*by_w.values())) > 1:
                    disagreements.append({"game": game, "event": f"provision {n}", "facts": "", "field": field,
                                          "readings": "; ".join(f"{w}: {' | '.join(sorted(v))}" for w, v in sorted(by_w.items())),
                                          "laws": " ".join(prov.law_ids())})
    mode = "rows of the laws of one provision (alignment) compared across witnesses"
disagreements = pd.DataFrame(disagreements, columns=["game", "event", "facts", "field", "readings", "laws"])
print(f"{len(disagreements)} disagreements ({mode})")
disagreements

# %% [markdown]
# ## Checks

# %%
assert len(laws) > 0 and laws["rule_rows"].ge(0).all()
assert set(coverage.index) == set(laws["witness"])
if rules is not None:
    assert len(rows) > 0, "the rule table is empty"
    assert coverage["covered"].sum() > 0, "no law is cited by the rule table"
print("rule-table checks passed:", int(coverage["covered"].sum()), "of", len(laws), "laws covered")
