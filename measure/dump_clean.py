"""Dump every cleaned output a speed change must leave byte-identical (first-pass speed of the cleaner).

``python -m measure.dump_clean OUT.json`` writes, for the seed witnesses (``corpus/raw``, the build's
resources), the ICDAR 2017 FR and EN dev sets as the bench's 20-sentence documents (hyphen joining off,
general resources, language-model pass on and off) and the first ``--sentences`` sentences of each set one
by one: the reading text, every correction, flag and regularisation.  ``--compare OLD.json`` exits 1
and names the first difference when the new dump differs.  A fresh process per dump: no warm cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from pipeline.clean import DEFAULT_CORPUS, CleanConfig, clean, general_resources, load_resources
from pipeline.corpus import load_witnesses, witness_text
from pipeline.model import Witness, WitnessText

from .bench_clean import DOC_SENTENCES
from .evaluate_clean import read_icdar, shared_dir

SETS = (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv"))


def _record(cl) -> dict:
    return {
        "text": cl.text,
        "corrections": [asdict(c) for c in cl.corrections],
        "flags": [asdict(f) for f in cl.flags],
        "regs": [asdict(r) for r in cl.regularisations],
        "breaks": [asdict(p) for p in cl.page_breaks],
    }


def dump(sentences: int = 1000, only: str = "") -> dict:
    out: dict[str, dict] = {}
    if only in ("", "seeds"):
        for w in load_witnesses(DEFAULT_CORPUS):
            wt = witness_text(DEFAULT_CORPUS, w)
            out[f"seed/{w.id}"] = _record(clean(wt, load_resources(DEFAULT_CORPUS, w.lang)))
    base = replace(CleanConfig(), join_hyphens=False)
    for lm_on in (True, False):
        if only not in ("", "lm" if lm_on else "nolm"):
            continue
        cfg = replace(base, lm_words=lm_on)
        for lang, fname in SETS:
            data = read_icdar(shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / fname)
            inputs = [o for o, _ in data]
            res = general_resources(lang)
            w = Witness(id="bench", file="-", game="ecarte", lang=lang, kind="ocr", title="bench")
            docs = ["\n".join(inputs[i : i + DOC_SENTENCES]) for i in range(0, len(inputs), DOC_SENTENCES)]
            for k, d in enumerate(docs):
                out[f"doc/{lang}/lm={lm_on}/{k}"] = _record(clean(WitnessText(w, d), res, cfg))
            for k, s in enumerate(inputs[:sentences]):
                out[f"sent/{lang}/lm={lm_on}/{k}"] = _record(clean(WitnessText(w, s), res, cfg))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--sentences", type=int, default=1000)
    ap.add_argument("--only", default="", choices=("", "seeds", "lm", "nolm"))
    ap.add_argument("--compare", type=Path)
    a = ap.parse_args(argv)
    d = dump(a.sentences, a.only)
    blob = json.dumps(d, ensure_ascii=False, sort_keys=True)
    d = json.loads(blob)  # (tuples as lists, as the old dump reads back)
    a.out.write_text(blob, encoding="utf-8")
    print(f"{len(d)} outputs, sha256 {hashlib.sha256(blob.encode()).hexdigest()[:16]}")
    if a.compare:
        old = json.loads(a.compare.read_text(encoding="utf-8"))
        bad = [k for k in old if k in d and old[k] != d[k]] + [k for k in old if k not in d]
        if bad:
            print(f"error: {len(bad)} outputs differ, first {bad[0]}", file=sys.stderr)
            return 1
        print(f"identical to {a.compare} ({len(old)} compared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
