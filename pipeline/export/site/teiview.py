"""The TEI as its community's tools show it: each witness's TEI file rendered in the browser by CETEIcean
(``site/tei/<id>.html``), with a stylesheet of its own.

The page holds its TEI document (as a JSON string, so it opens from disk without a server) and CETEIcean
(version 1.9.5 of the npm package, vendored under ``assets/`` with its licence: nothing is fetched at run
time) turns it into custom HTML elements (``tei-p``, ``tei-choice`` ...) that ``assets/tei.css`` styles: the
reading view by default (corrections, the page's readings, regularised forms), the printed or OCR form on
demand (``sic``, ``rdg``, ``orig``), page breaks and running heads visible, footnotes at their markers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from .rows import SiteConfig

ASSETS_DIR = Path(__file__).resolve().parent / "assets"
VIEW_ASSETS = ("CETEI.js", "CETEI-LICENSE.md", "tei.css", "tei.js")  # CETEIcean and its licence, the view's own


def tei_view_href(witness_id: str, prefix: str = "../") -> str:
    """Where the TEI view of a witness is, relative to a page of the site one folder down (``witness/``)."""
    return f"{prefix}tei/{witness_id}.html"


def tei_pages(
    teis: Mapping[str, bytes], render: Callable[..., str], config: SiteConfig = SiteConfig()
) -> dict[str, bytes]:
    """{path under outputs/site/: bytes}: a CETEIcean page per witness TEI (``teis``: witness id -> its TEI
    file's bytes; ``render(template, **view)``: the site's templates) and the view's assets.  Pure and
    deterministic."""
    out: dict[str, bytes] = {}
    for wid, data in sorted(teis.items()):
        page = render(
            "tei.html",
            title=f"{wid}: the TEI file",
            site_title=config.title,
            prefix="../",
            page_class="tei-view",
            witness_id=wid,
            witness_href=f"../witness/{wid}.html",
            source=data.decode("utf-8"),
        )
        out[tei_view_href(wid, "")] = page.encode("utf-8")
    if out:
        for name in VIEW_ASSETS:
            out[f"assets/{name}"] = (ASSETS_DIR / name).read_bytes()
    return out
