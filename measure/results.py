"""docs/RESULTS.md, rendered from the figures ``make eval`` and ``make bench`` wrote (``make results``).

Reads ``outputs/eval/{cleaning,lm,settings,alignment}.json`` and ``outputs/bench/{cleaning,build}.json`` (and
``linearity-*.json``), and renders each as Markdown tables with the plain alternative beside every figure: the raw
OCR and the off-the-shelf correctors beside the cleaner, the setting switched off beside the one the folds chose,
symspellpy's tokens/s beside the cleaner's, one worker beside two.  Nothing in the page is typed by hand, so it
cannot drift from the outputs: ``tests/test_results.py`` checks that the committed page equals what
:func:`render` makes of the committed outputs.  A file that is missing is said to be missing, not invented.

Usage: ``python -m measure.results [--check]`` (``--check``: exit 1 if docs/RESULTS.md is not up to date).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure.evaluate_probes import probe_lines

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "RESULTS.md"

Json = dict[str, Any]

# the LM pass's settings shown per fold (the rest are the defaults of LMConfig, listed in outputs/eval/cleaning.json)
OFF = 99.0  # a margin or threshold this high switches its rule off (the grids' "off" value)
LM_FIELDS = (
    "margin",
    "channel_scale",
    "realword_margin",
    "name_margin",
    "rare_margin",
    "letter_margin",
    "frequent_zipf",
)


@dataclass(frozen=True)
class Sources:
    """The figure files a page is rendered from (``None``: not measured in this checkout)."""

    cleaning: Json | None
    lm: Json | None
    settings: Json | None
    alignment: Json | None
    bench_cleaning: Json | None
    bench_build: Json | None
    linearity: tuple[tuple[str, Json], ...]
    clean_stream: Json | None = None
    repair: Json | None = None
    rules: Json | None = None


def read_sources(eval_dir: Path, bench_dir: Path) -> Sources:
    def load(p: Path) -> Json | None:
        return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else None

    return Sources(
        cleaning=load(eval_dir / "cleaning.json"),
        lm=load(eval_dir / "lm.json"),
        settings=load(eval_dir / "settings.json"),
        alignment=load(eval_dir / "alignment.json"),
        bench_cleaning=load(bench_dir / "cleaning.json"),
        bench_build=load(bench_dir / "build.json"),
        linearity=tuple(
            (p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(bench_dir.glob("linearity-*.json"))
        ),
        clean_stream=load(bench_dir / "clean_stream.json"),
        repair=load(eval_dir / "repair.json"),
        rules=load(eval_dir / "rules.json"),
    )


# ---- formatting ---------------------------------------------------------------------------------------------


def pct(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x * 100:.{digits}f} %"


def times(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}×"


def num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return out + [""]


def value(v: Any) -> str:
    """A setting's value as the JSON holds it, short: lists joined, strings quoted when empty."""
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, str):
        return f"`{v}`" if v.strip() else "(none)"
    if isinstance(v, float) and v >= OFF:
        return f"off ({v:g})"
    return str(v)


def missing(name: str, target: str) -> list[str]:
    return [f"`{name}` is not in this checkout: `{target}` writes it.", ""]


# ---- cleaning -------------------------------------------------------------------------------------------------

OURS = ("reading text (build)", "clean")  # the figure of a set: the build's reading text where the set has one


def cleaning_section(d: Json | None) -> list[str]:
    out = ["## Cleaning: CER and WER against gold", ""]
    if d is None:
        return out + missing("outputs/eval/cleaning.json", "make eval")
    out += [
        "From `outputs/eval/cleaning.json` (`python -m measure.evaluate_clean`). CER and WER with the gold's own",
        "metric; *÷ raw* is the error left as a share of the raw OCR's; *right→wrong* counts OCR tokens equal to",
        "the gold that a method changed. Beside the cleaner: symspellpy and pyspellchecker, which replace every",
        "unknown word, and the word-repair ceiling (a perfect word-by-word corrector, a measure of the set).",
        "",
    ]
    by_set: dict[str, dict[str, Json]] = {}
    for r in d["sets"]:
        by_set.setdefault(r["set"], {})[r["method"]] = r
    rows = []
    for name, methods in by_set.items():
        ours = next((methods[m] for m in OURS if m in methods), None)
        if ours is None:
            continue
        sym = methods.get("symspellpy")
        pys = next((r for m, r in methods.items() if m.startswith("pyspellchecker")), None)
        ceil = next((r for m, r in methods.items() if m.startswith("ceiling")), None)
        rows.append(
            [
                name,
                f"{pct(ours['cer_before'])} / {pct(ours['wer_before'], 1)}",
                f"**{pct(ours['cer_after'])}** / {pct(ours['wer_after'], 1)}",
                pct(ours["cer_rel_reduction"], 1),
                f"{ours['right_made_wrong']} of {ours['right_tokens']:,}",
                f"{pct(sym['cer_after'])} ({sym['right_made_wrong']:,})" if sym else "–",
                f"{pct(pys['cer_after'])} ({pys['right_made_wrong']:,})" if pys else "–",
                pct(ceil["cer_after"]) if ceil else "–",
            ]
        )
    out += ["Headline per set (the seeds score the build's reading text, `outputs/text/<witness>.txt`):", ""]
    out += table(
        [
            "set",
            "raw OCR CER / WER",
            "ours CER / WER",
            "CER reduction",
            "right→wrong",
            "symspellpy CER (right→wrong)",
            "pyspellchecker CER (right→wrong)",
            "word-repair ceiling",
        ],
        rows,
    )
    out += ["Every method on every set:", ""]
    out += table(
        ["set", "method", "CER", "WER", "÷ raw", "CER reduction", "right→wrong", "corrections", "flags"],
        (
            [
                r["set"],
                r["method"],
                pct(r["cer_after"]),
                pct(r["wer_after"]),
                times(r["cer_after"] / r["cer_before"] if r["cer_before"] else None),
                pct(r["cer_rel_reduction"], 1),
                f"{r['right_made_wrong']} ({pct(r['right_made_wrong_rate'])})",
                "–" if r.get("corrections") is None else str(r["corrections"]),
                "–" if r.get("flags") is None else str(r["flags"]),
            ]
            for r in d["sets"]
        ),
    )
    if d.get("unmatched_ocr_share"):
        out += ["Share of the raw OCR's edits that are runs of four characters or more with nothing in the gold", ""]
        out += ["(text the gold leaves out, which no cleaning reaches):", ""]
        out += table(["set", "unmatched OCR share"], ([k, pct(v, 1)] for k, v in d["unmatched_ocr_share"].items()))
    if d.get("junk"):
        out += ["Junk left in each witness's reading text, and how much of it no flag covers (target 0):", ""]
        out += table(
            ["witness", "junk tokens", "flagged", "unflagged", "flags"],
            (
                [j["witness"], str(j["junk_tokens"]), str(j["flagged"]), str(j["unflagged"]), str(j["flags"])]
                for j in d["junk"]
            ),
        )
    if d.get("notes"):
        out += ["Notes recorded with the figures:", ""] + [f"- {n}" for n in d["notes"]] + [""]
    return out


# ---- the language-model pass, held out --------------------------------------------------------------------------


def lm_section(d: Json | None) -> list[str]:
    out = ["## The language-model pass, held out", ""]
    if d is None:
        return out + missing("outputs/eval/lm.json", "make eval")
    out += [
        f"From `outputs/eval/lm.json` (`python -m measure.evaluate_lm`): ICDAR 2017 dev cleaned as {d['doc_lines']}-line",
        f"documents, {d['k']} folds by document; each fold is scored with the settings (and the channel:"
        f" `{d['channel']}`) the other folds chose. The raw OCR and the cleaner without the pass stand beside it.",
        "",
    ]
    for s in d["sets"]:
        out += [f"### {s['set']}", ""]
        out += table(
            ["method", "CER", "WER", "CER reduction", "right→wrong"],
            (
                [
                    r["method"],
                    pct(r["cer_after"]),
                    pct(r["wer_after"]),
                    f"**{pct(r['cer_rel_reduction'])}**" if "lm" in r["method"] else pct(r["cer_rel_reduction"]),
                    f"{r['right_made_wrong']} ({pct(r['right_made_wrong_rate'], 3)})",
                ]
                for r in s["rows"]
            ),
        )
        folds = s.get("settings_per_fold") or []
        if folds:
            header = ["fold", "channel", *LM_FIELDS]
            chans = s.get("channel_per_fold") or [""] * len(folds)
            out += ["What each fold chose:", ""]
            out += table(
                header,
                (
                    [str(i + 1), str(c), *(value(f.get(k)) for k in LM_FIELDS)]
                    for i, (c, f) in enumerate(zip(chans, folds))
                ),
            )
        if "flags_at_fold_settings" in s:
            out += [f"Words flagged for review at the folds' settings: {s['flags_at_fold_settings']:,}.", ""]
    return out


# ---- settings chosen on folds -----------------------------------------------------------------------------------


def settings_section(d: Json | None) -> list[str]:
    out = ["## Cleaning settings chosen on folds", ""]
    if d is None:
        return out + missing("outputs/eval/settings.json", "make eval")
    out += [
        f"From `outputs/eval/settings.json` (`python -m measure.evaluate_settings`, {d['k']} folds by document of",
        "ICDAR 2017 dev as 20-line documents). *Held out*: each fold cleaned with the value the other folds chose.",
        "*Per value*: the whole set at each value offered (in-sample), the rule switched off (an empty value, or",
        "none of the languages) or the plain alternative among them; right→wrong in brackets.",
        "",
    ]
    rows = []
    for s in d["settings"]:
        h = s["held_out"]
        per = s.get("per_value") or {}
        values = "; ".join(
            f"{value(k)}: {pct(st['cer_rel_reduction'])} ({st['right_made_wrong']})" for k, st in per.items()
        )
        chosen = Counter(json.dumps(c, ensure_ascii=False) for c in s["chosen_per_fold"])
        top, n = chosen.most_common(1)[0]
        rows.append(
            [
                s["lang"],
                f"`{s['field']}`",
                value(s["default"]),
                f"{value(json.loads(top))} ({n} of {len(s['chosen_per_fold'])})",
                f"{pct(h['cer_rel_reduction'])} ({h['right_made_wrong']})",
                values,
            ]
        )
    out += table(
        [
            "lang",
            "setting",
            "default",
            "folds' choice",
            "held-out CER reduction (right→wrong)",
            "per value (in-sample)",
        ],
        rows,
    )
    return out


# ---- alignment --------------------------------------------------------------------------------------------------


def alignment_section(d: Json | None) -> list[str]:
    out = ["## Alignment: precision, recall, F1 against gold", ""]
    if d is None:
        return out + missing("outputs/eval/alignment.json", "make eval")
    out += [
        "From `outputs/eval/alignment.json` (`python -m measure.evaluate_align`, laws from",
        f"`{d.get('laws_source', 'pipeline')}`). Scored on sure links; possible links are neither rewarded nor",
        "penalised. *No counterpart right*: laws the gold says have no counterpart that the aligner left unlinked.",
        "",
    ]
    has_baseline = any("baseline" in p for p in [*d.get("pairs", []), *d.get("dev_pairs", [])])

    def rows(pairs: list[Json]) -> Iterable[list[str]]:
        for p in pairs:
            row = [
                p["gold"].removesuffix(".csv"),
                f"{p['witness_a']} ↔ {p['witness_b']}",
                num(p["precision"]),
                num(p["recall"]),
                f"**{num(p['f1'])}**" if p["tp"] + p["fn"] else "– (no link in the gold)",
                f"{p['tp']} / {p['fp']} / {p['fn']}",
                f"{p['unaligned_right']}/{p['unaligned_gold']}" if p["unaligned_gold"] else "–",
            ]
            if has_baseline:
                base = p.get("baseline") or {}
                row.append(f"{num(base.get('f1'))} ({base.get('tp', 0)} / {base.get('fp', 0)} / {base.get('fn', 0)})")
            yield row

    header = ["gold", "witnesses", "P", "R", "F1", "sure links found / false / missed", "no counterpart right"]
    if has_baseline:
        header.append("TF-IDF baseline F1 (found / false / missed)")
    out += ["### Shared gold", ""] + table(header, rows(d.get("pairs", [])))
    if d.get("dev_pairs"):
        out += ["### Development golds (written by this project, `tests/fixtures/align/`)", ""]
        out += table(header, rows(d["dev_pairs"]))
    if has_baseline:
        out += [
            "The baseline beside each gold is the plain alternative (`measure/baseline_align.py`): the mutual best",
            "matches by TF-IDF cosine of the two witnesses' law texts, at a fixed floor; across languages it has",
            "only the words the texts share.",
            "",
        ]
    else:
        out += [
            "No plain baseline (a TF-IDF cosine of the law texts) is recorded in `alignment.json`: the aligner",
            "is measured against the gold only.",
            "",
        ]
    if d.get("bands"):
        out += ["### Bands (every gold)", ""]
        out += table(
            ["band", "links", "sure", "possible", "wrong", "precision"],
            (
                [
                    b,
                    str(c["tp"] + c["possible"] + c["fp"]),
                    str(c["tp"]),
                    str(c["possible"]),
                    str(c["fp"]),
                    num(c["precision"], 3),
                ]
                for b, c in sorted(d["bands"].items(), key=lambda kv: ("high", "medium", "low").index(kv[0]))
            ),
        )
    if d.get("calibration"):
        out += ["Calibration of the high band: primary links on a shared event scoring at least *t*:", ""]
        out += table(
            ["t", "sure", "wrong", "precision", "worst single gold"],
            (
                [
                    num(c["threshold"]),
                    str(c["tp"]),
                    str(c["fp"]),
                    num(c["precision"], 3),
                    num(c["worst_gold_precision"], 3),
                ]
                for c in d["calibration"]
            ),
        )
    return out


# ---- benchmarks -------------------------------------------------------------------------------------------------


def runs_range(runs: list[Json], key: str = "ratio") -> str:
    vals = [r[key] for r in runs]
    return f"{min(vals):.2f}–{max(vals):.2f}" if vals else "–"


def bench_cleaning_section(d: Json | None) -> list[str]:
    out = ["## Cleaning speed beside symspellpy", ""]
    if d is None:
        return out + missing("outputs/bench/cleaning.json", "make bench")
    out += [
        "From `outputs/bench/cleaning.json` (`python -m measure.bench_clean`): ICDAR 2017 dev cleaned as",
        f"{d['doc_sentences']}-sentence documents on one core, alternately with symspellpy's lookup of every token;",
        "the ratio is the cleaner's tokens/s over symspellpy's (1.00× = as fast). Start-up is timed apart.",
        "",
    ]
    rows = []
    for name, key in (
        ("first pass, LM pass on (headline)", "first_pass"),
        ("first pass, LM pass off", "first_pass_lm_off"),
    ):
        fp = d.get(key)
        if not fp:
            continue
        runs = fp["runs"]
        med = sorted(runs, key=lambda r: r["ratio"])[len(runs) // 2]
        rows.append(
            [
                name,
                f"{med['tokens']:,}",
                num(med["clean_tokens_per_s"], 0),
                num(med["symspell_tokens_per_s"], 0),
                f"**{times(fp['median_ratio'])}**" if key == "first_pass" else times(fp["median_ratio"]),
                runs_range(runs)
                + "".join(f"; {lang} {times(x)}" for lang, x in fp.get("median_ratio_by_lang", {}).items()),
            ]
        )
    for s in d.get("sets", []):
        rows.append(
            [
                f"repeated documents, {s['lang']}",
                f"{s['tokens']:,}",
                num(s["clean_tokens_per_s"], 0),
                num(s["symspell_tokens_per_s"], 0),
                times(s["ratio"]),
                f"first pass {times(s['first_pass_ratio'])}",
            ]
        )
    t = d.get("total")
    if t:
        rows.append(
            [
                "repeated documents, both",
                f"{t['tokens']:,}",
                num(t["clean_tokens_per_s"], 0),
                num(t["symspell_tokens_per_s"], 0),
                times(t["ratio"]),
                f"first pass {times(t['first_pass_ratio'])}",
            ]
        )
    out += table(["pass", "tokens", "ours tokens/s", "symspellpy tokens/s", "ratio", "runs / note"], rows)
    fp = d.get("first_pass") or {}
    if "startup_seconds" in fp:
        out += [
            f"Start-up, not in any ratio: the cleaner's resources {num(fp['startup_seconds'], 1)} s, symspellpy's"
            f" dictionary {num(fp['symspell_startup_seconds'], 1)} s.",
            "",
        ]
    return out


def bench_build_section(d: Json | None, linearity: Sequence[tuple[str, Json]]) -> list[str]:
    out = ["## Whole builds and books", ""]
    if d is None:
        return out + missing("outputs/bench/build.json", "make bench")
    out += [
        f"From `outputs/bench/build.json` (`python -m measure.bench_build`; {d.get('machine', '')}). Generated",
        f"corpora of witnesses of about {d['witness_bytes'] // 1000} KB, re-noised at the gold's OCR error rate"
        f" ({pct(d['noise_rate'])} of characters), site off. One worker stands beside two; adding one witness beside",
        "the full build.",
        "",
    ]
    rows = []
    for s in d.get("sizes", []):
        one, two, add = s.get("one_worker"), s["two_workers"], s.get("add_one")
        commits = sorted({x["commit"] for x in (one, two, add) if x})
        if one and one["commit"] != two["commit"]:
            commits = [f"1 worker {one['commit']}", f"2 workers {two['commit']}"]
        peak = max(x["peak_mem_mib"] for x in (one, two, add) if x)
        rows.append(
            [
                f"{s['witnesses']:,}",
                f"{s['ocr_mb']} MB",
                ", ".join(commits),
                s.get("date", ""),
                f"{num(one['wall_s'], 1)} s" if one else "–",
                f"{num(two['wall_s'], 1)} s",
                f"**{times(s.get('speedup_2_over_1'))}**" if s.get("speedup_2_over_1") else "–",
                f"{peak:,} MiB",
                f"{num(add['wall_s'], 1)} s" if add else "–",
                pct(s.get("add_one_fraction_of_full"), 1),
            ]
        )
    out += table(
        [
            "witnesses",
            "OCR",
            "commit",
            "date",
            "1 worker",
            "2 workers",
            "speed-up",
            "peak memory",
            "add one",
            "add one ÷ full",
        ],
        rows,
    )
    big = {s["witnesses"]: s for s in d.get("sizes", [])}
    for name, lin in linearity:
        for s in lin.get("sizes", []):
            n = s["witnesses"]
            larger = [m for m in big if m > n and big[m]["two_workers"]["commit"] == s["two_workers"]["commit"]]
            for m in larger:
                t = big[m]["two_workers"]["wall_s"] / s["two_workers"]["wall_s"]
                out += [
                    f"Growth, same commit ({s['two_workers']['commit']}), 2 workers: {n:,} witnesses"
                    f" {num(s['two_workers']['wall_s'], 1)} s (`outputs/bench/{name}`), {m:,} witnesses"
                    f" {num(big[m]['two_workers']['wall_s'], 1)} s: {times(t, 1)} the time for {times(m / n, 0)} the witnesses.",
                    "",
                ]
    books = d.get("books")
    if books:
        out += [
            f"### One book of growing size (the laws of `{books['source']}` shuffled and re-noised, built alone)",
            "",
        ]
        out += table(
            ["book", "size", "laws", "commit", "wall", "× per doubling", "CPU", "CPU × per doubling", "worker peak"],
            (
                [
                    b.get("kind", "numbered"),
                    f"{b['ocr_mb']} MB",
                    f"{b['laws']:,}",
                    b.get("commit", ""),
                    f"{num(b['wall_s'], 1)} s",
                    times(b.get("time_ratio")),
                    f"{num(b['cpu_s'], 1)} s",
                    times(b.get("cpu_ratio")),
                    f"{b['worker_peak_mib']:,} MiB",
                ]
                for b in books["sizes"]
            ),
        )
        out += [
            f"Largest time ratio per doubling {times(books.get('max_time_ratio'))}, CPU"
            f" {times(books.get('max_cpu_ratio'))}; worker peak at most"
            f" {books.get('max_worker_peak_mib', books.get('worker_peak_mib_at_largest')) or 0:,} MiB; within the bench's bounds:"
            f" {'yes' if books.get('within_bounds') else 'no'}.",
            "",
        ]
        out += [
            f"The {f['kind']} book of {f['ocr_mb']} MB did not build: {f['error']}" for f in books.get("failed", [])
        ]
        out += [""] if books.get("failed") else []
    return out


# ---- the page ---------------------------------------------------------------------------------------------------


def repair_row(lang: str, name: str, a: Json, cut: str) -> list[str]:
    """One method's line of a repair table: cMER, its cut against the raw OCR, CER and the units it changed."""
    return [lang, name, pct(a["cmer"], 3), cut, pct(a["cer"], 3), str(a["better"]), str(a["worse"]), str(a["units"])]


def repair_section(d: Json | None) -> list[str]:
    out = ["## Repair of real OCR (the field's benchmark format)", ""]
    if d is None:
        return out + missing("outputs/eval/repair.json", "make eval")
    out += [
        "From `outputs/eval/repair.json` (`python -m measure.evaluate_repair`): `python -m pipeline repair` on the",
        "HIPE-OCRepair impresso snippets (hand-corrected newspapers, 1801–1959), scored with the benchmark's cMER",
        "(character match error rate after its normalisation, micro over units) and plain CER; anything learnt is",
        "fitted on the other folds and scored on the held-out one. Lower is better; the cut is against the raw OCR.",
        "",
    ]
    rows = []
    for lang, block in sorted(d.get("impresso", {}).items()):
        methods = block["methods"]
        raw = methods["raw OCR"]["all"]["cmer"]
        for name, m in methods.items():
            a = m["all"]
            rows.append(repair_row(lang, name, a, "–" if name == "raw OCR" else pct((raw - a["cmer"]) / raw, 1)))
    out += table(["lang", "method", "cMER", "cut", "CER", "units better", "units worse", "units"], rows)
    rows = []
    for lang, methods in sorted(d.get("icdar2017", {}).items()):
        for name, a in methods.items():
            raw = methods.get("raw OCR, aligned units" if name.endswith(", aligned units") else "raw OCR")
            cut = pct(1 - a["cmer"] / raw["cmer"], 1) if raw and raw["cmer"] and raw is not a else "–"
            rows.append(repair_row(lang, name, a, cut))
    if rows:
        out += [
            "ICDAR 2017 periodical dev pairs, a second line (not a yardstick; *aligned units*: those whose gold holds "
            "all of their OCR text, no run of four characters or more left out on either side):",
            "",
        ]
        out += table(["lang", "method", "cMER", "cut", "CER", "units better", "units worse", "units"], rows)
    out += [f"- {n}" for n in d.get("notes", [])] + [""]
    return out


def unlinked(first: Json, now: Json) -> str:
    """The gold's laws without counterpart left unlinked, at first contact (where recorded) and now."""
    if not now.get("unaligned_gold"):
        return ""
    cur = f"{now.get('unaligned_right', 0)}/{now['unaligned_gold']}"
    if first.get("unaligned_gold"):
        return f"{first.get('unaligned_right', 0)}/{first['unaligned_gold']} → {cur}"
    return cur


def first_contact_section(d: Json | None) -> list[str]:
    out = ["## Alignment on codes met for the first time", ""]
    rows_in = (d or {}).get("first_contact") or []
    if not rows_in:
        return out + missing("outputs/eval/alignment.json (first_contact)", "make eval")
    out += [
        "Codes added as development material, each gold (links, no-counterpart laws, the event and outcome of each",
        "law) written before anything ran on it. *First contact* is the figure of the first run, recorded and never",
        "overwritten; *now* is after the reading was improved (in-sample for the codes whose wording was in view).",
        "The last column counts the gold's laws without counterpart that got no link; a gold with no sure link (a",
        "code whose laws rule on nothing the other witness has) has no F1 and is left out of the means.",
        "",
    ]
    rows = []
    for r in rows_in:
        fc = r.get("first_contact") or {}
        rd = r.get("reading") or {}
        rows.append(
            [
                r["gold"],
                r["code"],
                num(fc.get("f1")),
                f"**{num(r.get('f1'))}**",
                num(r.get("tfidf_f1")),
                f"{num(fc.get('event_accuracy'))} → {num(rd.get('event_accuracy'))}",
                f"{num(fc.get('outcome_accuracy'))} → {num(rd.get('outcome_accuracy'))}",
                unlinked(fc, r),
            ]
        )
    out += table(
        [
            "gold",
            "code",
            "F1 first contact",
            "F1 now",
            "TF-IDF F1",
            "event accuracy",
            "outcome accuracy",
            "no counterpart, left unlinked",
        ],
        rows,
    )
    fcs = [r["first_contact"]["f1"] for r in rows_in if (r.get("first_contact") or {}).get("f1") is not None]
    nows = [r["f1"] for r in rows_in if r.get("f1") is not None]
    plain = [r["tfidf_f1"] for r in rows_in if r.get("tfidf_f1") is not None]
    if fcs and nows and plain:
        out += [
            f"Mean F1: first contact **{sum(fcs) / len(fcs):.2f}**, now {sum(nows) / len(nows):.2f}; a TF-IDF"
            f" cosine over the same laws {sum(plain) / len(plain):.2f}.",
            "",
        ]
    curated = (d or {}).get("reading_curated") or {}
    if curated:
        out += [
            "Reading accuracy of the codes the patterns were written on (in-sample), against the rule table's",
            "curation (`corpus/annotations/<game>.toml`): a law's reading is right when it names one of the law's",
            "curated events (outcomes: one of its curated outcomes or options).",
            "",
        ]
        out += table(
            ["code", "laws with an event", "event accuracy", "laws with an outcome", "outcome accuracy"],
            (
                [
                    code,
                    str(r["events"]),
                    num(r.get("event_accuracy")),
                    str(r["outcomes"]),
                    num(r.get("outcome_accuracy")),
                ]
                for code, r in sorted(curated.items())
            ),
        )
    return out


def rules_section(d: Json | None) -> list[str]:
    out = ["## The rule table: laws cited, and the rulings read from unreviewed laws", ""]
    if not d:
        return out + missing("outputs/eval/rules.json", "make eval")
    out += [
        "*Coverage*: the share of a code's laws (its clauses counting for their law) that a row of the rule table cites,",
        "the build's witnesses and the first-contact codes compiled together as the build does (curated entries, then",
        "the readings of every other law, remedies and norms); every uncited law is listed with its reason in",
        "`rules_report.txt` and as data in `rules.json` (`uncited`). *Extraction accuracy* on the first-contact codes",
        "(no person reviewed them): the event the rule-table reading settles on is one of the gold's, and the gold's",
        "main outcome is among the terms of the ruling read; *first contact* is the first run, recorded once",
        "(`tests/fixtures/firstcontact/record_rules.json`), *now* after the norms were added with those codes in view.",
        "",
    ]
    first = d.get("first_contact") or {}
    rows = []
    for wit, c in (d.get("coverage") or {}).items():
        fc, acc = first.get(wit) or {}, (d.get("extraction") or {}).get(wit) or {}
        new_code = wit in (d.get("codes") or [])
        rows.append(
            [
                wit + (" (first contact)" if new_code else ""),
                str(c["laws"]),
                str(c["cited"]),
                f"{pct(fc.get('coverage'), 0)} → **{pct(c.get('coverage'), 0)}**"
                if new_code
                else f"**{pct(c.get('coverage'), 0)}**",
                f"{num(fc.get('event_accuracy'))} → {num(acc.get('event_accuracy'))}" if new_code else "",
                f"{num(fc.get('outcome_accuracy'))} → {num(acc.get('outcome_accuracy'))}" if new_code else "",
            ]
        )
    out += table(["code", "laws", "cited", "coverage", "event accuracy", "outcome accuracy"], rows)
    out += probe_lines(d.get("probes") or {})
    return out


def clean_stream_section(d: Json | None) -> list[str]:
    out = ["## Cleaning large input", ""]
    if d is None:
        return out + missing("outputs/bench/clean_stream.json", "python -m measure.bench_clean_stream")
    out += [
        f"From `outputs/bench/clean_stream.json` (`python -m measure.bench_clean_stream`): `{d['what']}`"
        f" {d['limit_gb']:g} GB, on {d['input']} repeated to each size ({d['cores']} cores, load average"
        f" {d['load_average_at_end']:g} at the end: CPU time is the fair measure). Repeated lines help the per-word"
        " caches: this is a figure of linearity and memory, not of speed.",
        "",
    ]
    rows = [
        [
            f"{r['mb']:g} MB",
            "finished" if r["exit"] == 0 else f"exit {r['exit']}: {' '.join(r['stderr'])}",
            f"{num(r['wall_s'], 1)} s",
            f"{num(r['cpu_s'], 1)} s",
            f"{num(r['cpu_s'] / (r['bytes'] / 1e6), 1)} s",
            f"{r['peak_rss_gb']:.2f} GB",
        ]
        for r in d["runs"]
    ]
    return out + table(["input", "result", "wall", "CPU", "CPU per MB", "peak memory"], rows)


def render_sources(src: Sources) -> str:
    out = [
        "# Results",
        "",
        "<!-- generated by `make results` (python -m measure.results) from outputs/eval and outputs/bench: do not edit -->",
        "",
        "Every figure below is read from the JSON files that `make eval` (`outputs/eval/`) and `make bench`",
        "(`outputs/bench/`) write, and this page is rendered from them by `make results` (also run at the end of",
        "`make eval` and `make bench`); a test checks that it matches the committed outputs. Why each choice was",
        "made, and what was measured and not kept, is in [decisions.md](decisions.md).",
        "",
    ]
    out += cleaning_section(src.cleaning)
    out += lm_section(src.lm)
    out += settings_section(src.settings)
    out += alignment_section(src.alignment)
    out += first_contact_section(src.alignment)
    out += rules_section(src.rules)
    out += repair_section(src.repair)
    out += bench_cleaning_section(src.bench_cleaning)
    out += bench_build_section(src.bench_build, src.linearity)
    out += clean_stream_section(src.clean_stream)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def render(eval_dir: Path, bench_dir: Path) -> str:
    """docs/RESULTS.md as the figure files under ``eval_dir`` and ``bench_dir`` give it."""
    return render_sources(read_sources(eval_dir, bench_dir))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    text = render(ROOT / "outputs" / "eval", ROOT / "outputs" / "bench")
    if "--check" in args:
        ok = RESULTS.is_file() and RESULTS.read_text(encoding="utf-8") == text
        print("docs/RESULTS.md is up to date" if ok else "docs/RESULTS.md is stale: run `make results`")
        return 0 if ok else 1
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    tmp = RESULTS.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(RESULTS)
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
