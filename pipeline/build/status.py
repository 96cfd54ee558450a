"""``pipeline status``: which witnesses are up to date, stale or missing from the outputs."""

from __future__ import annotations

from pathlib import Path

from ..corpus import load_witnesses, witness_text
from ..files import real_path
from .cache import cache_path, code_version, resources_version, witness_key
from .run import BuildOptions


def status(opts: BuildOptions) -> list[str]:
    """One line per witness (id, game, language, kind, state), then what the outputs lack.

    A witness is "up to date" when its cached stages are current and its outputs are those of the last
    build (``publish.read_manifest``); otherwise "stale", "outputs missing" or "outputs edited". The
    last lines name the outputs missing from or edited in ``out_dir`` since the last build."""
    from ..publish import check_outputs, read_manifest

    corpus_dir = Path(opts.corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    code, res = code_version(), resources_version(corpus_dir)
    out_dir = real_path(opts.out_dir, "--out")  # (a symlinked outputs folder: its manifest is beside its target)
    manifest = read_manifest(out_dir)
    missing, edited = check_outputs(out_dir, manifest) if manifest is not None else ([], [])
    bad = set(missing) | set(edited)
    lines = [f"{'witness':<12} {'game':<7} {'lang':<4} {'kind':<13} state"]
    for w in witnesses:
        wt = witness_text(corpus_dir, w)
        key = witness_key(wt, code, res)
        fresh = cache_path(Path(opts.cache_dir), w.id, key).is_file() if opts.cache_dir else False
        own = (f"text/{w.id}.txt", f"tei/{w.id}.xml")
        if not fresh:
            state = "stale"
        elif manifest is None or any(rel not in manifest for rel in own):
            state = "stale (not in the last build's outputs)"
        elif any(rel in missing for rel in own):
            state = "outputs missing"
        elif any(rel in bad for rel in own):
            state = "outputs edited"
        else:
            state = "up to date"
        lines.append(f"{w.id:<12} {w.game:<7} {w.lang:<4} {w.kind:<13} {state}")
    if manifest is None:
        lines.append(f"outputs: no record of a build into {opts.out_dir}; run `make`")
    else:
        gone = sorted(
            {rel.split("/")[1].rsplit(".", 1)[0] for rel in manifest if rel.startswith("text/")}
            - {w.id for w in witnesses}
        )
        if gone:
            lines.append(f"outputs: still hold removed witnesses {', '.join(gone)}; run `make`")
        if missing:
            lines.append(
                f"outputs: {len(missing)} missing since the last build: {', '.join(missing[:5])}"
                + (" ..." if len(missing) > 5 else "")
                + "; run `make`"
            )
        if edited:
            lines.append(
                f"outputs: {len(edited)} edited since the last build: {', '.join(edited[:5])}"
                + (" ..." if len(edited) > 5 else "")
                + "; run `make` to restore them"
            )
        if not (gone or missing or edited):
            lines.append(f"outputs: all {len(manifest)} files as the last build wrote them")
    return lines
