"""Rendering the reading edition: the Jinja2 templates (``templates/``) over the view data, and the local
assets (``assets/``): ``render_site(results, links, rules)`` -> {path under outputs/site/: bytes}."""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping, Sequence

import jinja2

from ...model import Law, Link, WitnessResult
from ..tei.config import EditionInfo
from ..tables import TABLES
from .rows import SiteConfig, data_href, rules_by_law, witness_href
from .teiview import tei_pages, tei_view_href
from .views import (
    data_what,
    diplomatic_view,
    download_links,
    game_display,
    lang_display,
    reading_view,
    synoptic_view,
    table_links,
    witness_files,
)

ASSETS_DIR = Path(__file__).resolve().parent / "assets"
ASSET_FILES = ("site.css", "site.js")
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


# ----------------------------------------------------------------------------------------------
# pages


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    """The template environment: templates from ``pipeline/export/site/templates/``, autoescaping on for all of them."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _render(template: str, **view: Any) -> str:
    return _env().get_template(template).render(**view)


def _index_html(
    results: Sequence[WitnessResult],
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    config: SiteConfig,
    glossary: Sequence = (),
    data_files: Sequence[str] = (),
    edition: EditionInfo = EditionInfo(),
) -> str:
    games = list(dict.fromkeys(r.witness.game for r in results))
    witnesses = []
    for r in results:
        w = r.witness
        meta = " · ".join(
            x
            for x in (
                game_display(w.game, config),
                lang_display(w.lang, config),
                w.kind,
                w.author,
                str(w.year or ""),
                f"p. {w.page}" if w.page else "",
            )
            if x
        )
        witnesses.append(
            {
                "id": w.id,
                "game": w.game,
                "href": witness_href(w.id),
                "title": w.title,
                "meta": meta,
                "laws": len(r.segmented.laws),
                "corrections": len(r.cleaned.corrections),
                "flags": len(r.cleaned.flags),
                "downloads": download_links(w.id, "", config),
            }
        )
    sections = []
    for g in games:
        rs = [r for r in results if r.witness.game == g]
        sections.append(
            synoptic_view(g, rs, links, {k: v for k, v in law_by_id.items() if v.game == g}, config, glossary)
        )
    data = [{"href": data_href(f, "", config), "name": f, "what": data_what(f)} for f in data_files]
    data += [
        {
            "href": data_href(f"tei/collation-{g}.xml", "", config),
            "name": f"tei/collation-{g}.xml",
            "what": f"word-level collation of the aligned laws of {game_display(g, config)} (TEI)",
        }
        for g in games
    ]
    return _render(
        "index.html",
        title=config.title,
        site_title=config.title,
        prefix="",
        page_class="index",
        witnesses=witnesses,
        games=[{"id": g, "title": game_display(g, config)} for g in games],
        sections=sections,
        data=data,
        tables=table_links("", config),
        edition=edition,
    )


def _witness_html(
    r: WitnessResult,
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    rules_of: Mapping[str, list],
    config: SiteConfig,
    edition: EditionInfo = EditionInfo(),
    tei_view: str = "",
) -> str:
    w = r.witness
    meta_rows = [
        ("Game", game_display(w.game, config)),
        ("Language", lang_display(w.lang, config)),
        ("Kind", w.kind),
        ("Title", w.title),
        ("Author", w.author),
        ("Year", w.year or ""),
        ("Source", w.source),
        ("First page", w.page),
        ("File", w.file),
        ("Note", w.note),
        ("Laws", len(r.segmented.laws)),
        ("Corrections", len(r.cleaned.corrections)),
        ("Flagged for review", len(r.cleaned.flags)),
        ("Page breaks", len(r.cleaned.page_breaks)),
    ]
    kinds: dict[str, int] = defaultdict(int)
    for c in r.cleaned.corrections:
        kinds[c.kind] += 1
    view: dict[str, Any] = {
        "id": w.id,
        "title": w.title,
        "game": w.game,
        "game_title": game_display(w.game, config),
        "lang": w.lang,
        "meta": [(k, v) for k, v in meta_rows if v not in ("", None)],
        "kinds": ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
    }
    view["tei_view"] = tei_view  # the page of its TEI file through CETEIcean, when the site has one
    view["downloads"] = download_links(w.id, "../", config)
    view["tables"] = table_links("../", config)
    return _render(
        "witness.html",
        title=f"{w.id}: {w.title}",
        site_title=config.title,
        prefix="../",
        page_class="witness",
        edition=edition,
        w=view,
        reading=reading_view(r, links, law_by_id, rules_of, config, edition),
        diplomatic=diplomatic_view(r, config),
    )


def site_copies(
    results: Sequence[WitnessResult], data_files: Sequence[str] = (), config: SiteConfig = SiteConfig()
) -> list[tuple[str, str]]:
    """The outputs the pages link to, as (path under outputs/, path under site/): the build copies each into the
    site's data folder, so site/ is published on its own. With the data package come all the tables it names."""
    games = dict.fromkeys(r.witness.game for r in results)
    rels = [*config.tables, *data_files, *(f"tei/collation-{g}.xml" for g in games)]
    rels += [rel for r in results for rel in witness_files(r.witness.id)]
    if "datapackage.json" in data_files:
        rels += [t.path for t in TABLES.values()]
    return [(rel, config.data_dir + rel) for rel in dict.fromkeys(rels)]


def render_site(
    results: Sequence[WitnessResult],
    links: Sequence[Link],
    rules: Mapping | Sequence | None = None,
    config: SiteConfig = SiteConfig(),
    *,
    glossary: Sequence = (),
    edition: EditionInfo = EditionInfo(),
    data_files: Sequence[str] = (),
    teis: Mapping[str, bytes] | None = None,
) -> dict[str, bytes]:
    """The static site: {relative path under outputs/site/: bytes} (pure and deterministic).

    ``teis`` (witness id -> its TEI file) adds a CETEIcean page of each (:mod:`.teiview`), linked from the
    witness's page.

    ``glossary`` (``load_glossary``) lets the search find a law through the other language's terms;
    ``edition`` names the edition in the "cite this law" boxes and every page's footer; ``data_files`` (paths
    relative to outputs/, e.g. ``figures/x.svg``, ``datapackage.json``) are linked from the index's data section.
    The pages link to outputs by their copies in the site's data folder (``site_copies``: the build copies them)."""
    law_by_id = {law.id: law for r in results for law in r.segmented.laws}
    links = sorted(links, key=lambda k: (k.game, k.a, k.b))
    rules_of = rules_by_law(rules, law_by_id)
    out: dict[str, bytes] = {}
    out["index.html"] = _index_html(results, links, law_by_id, config, glossary, data_files, edition).encode("utf-8")
    teis = teis or {}
    for r in results:
        view = tei_view_href(r.witness.id) if r.witness.id in teis else ""
        page = _witness_html(r, links, law_by_id, rules_of, config, edition, view)
        out[f"witness/{r.witness.id}.html"] = page.encode("utf-8")
    out.update(tei_pages(teis, _render, config))
    for name in ASSET_FILES:
        out[f"assets/{name}"] = (ASSETS_DIR / name).read_bytes()
    return out
