"""The TEI export's settings and what it says about the edition: the edition as a publication
(``corpus/edition.toml``), the build, the export settings, and the error the export raises."""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...errors import PipelineError


class TeiError(PipelineError):
    """A TEI document cannot be written or read (malformed input, unsafe XML, inconsistent data)."""


@dataclass(frozen=True)
class Editor:
    name: str
    resp: str
    ref: str = ""  # a pointer ("#pipeline") when the editor is declared in the header


@dataclass(frozen=True)
class EditionInfo:
    """The edition as a publication (``corpus/edition.toml``; the defaults describe an unnamed build)."""

    title: str = "Laws of card games: a digital edition"
    version: str = ""
    date: str = ""  # ISO date of this edition version ("" : not stated)
    publisher: str = ""
    pub_place: str = ""
    base_url: str = ""  # where the edition is published, ending in "/" ("" : relative paths only)
    id_prefix: str = "cardlaws"
    licence_name: str = ""
    licence_url: str = ""
    editors: tuple[Editor, ...] = ()
    correction_kinds: tuple[tuple[str, str], ...] = ()  # kind -> what it means (the taxonomy of corr/@type)

    def idno(self, path: str) -> tuple[str, str]:
        """(idno/@type, value) of a file of the edition (``tei/fr-000.xml``)."""
        if self.base_url:
            return "URI", self.base_url + path
        return self.id_prefix, f"{self.id_prefix}:{path}"


def load_edition(corpus_dir: str | os.PathLike) -> EditionInfo:
    """``corpus/edition.toml`` read into an EditionInfo (defaults when the file is absent)."""
    path = Path(corpus_dir) / "edition.toml"
    if not path.is_file():
        return EditionInfo()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise TeiError(f"{path}: cannot read the edition's description ({e})") from None
    lic = data.get("licence") or {}
    try:
        return EditionInfo(
            title=str(data.get("title", EditionInfo.title)),
            version=str(data.get("version", "")),
            date=str(data.get("date", "")),
            publisher=str(data.get("publisher", "")),
            pub_place=str(data.get("pub_place", "")),
            base_url=str(data.get("base_url", "")),
            id_prefix=str(data.get("id_prefix", "cardlaws")),
            licence_name=str(lic.get("name", "")),
            licence_url=str(lic.get("url", "")),
            editors=tuple(
                Editor(str(e["name"]), str(e.get("resp", "")), str(e.get("ref", ""))) for e in data.get("editor", [])
            ),
            correction_kinds=tuple((str(k), str(v)) for k, v in (data.get("correction_kinds") or {}).items()),
        )
    except (KeyError, TypeError, AttributeError) as e:
        raise TeiError(f"{path}: malformed edition description ({e!r})") from None


@dataclass(frozen=True)
class BuildInfo:
    """What the TEI change log says about the build.  Deterministic: never the wall clock.

    ``build`` identifies the build by content (a hash of code and resources); ``date`` is an
    ISO date supplied by the caller (for example from a commit), "" to leave ``change/@when`` out.
    """

    version: str
    build: str
    date: str = ""
    resp: str = "#pipeline"  # what corr/reg/@resp point to; the header declares the id
    edition: EditionInfo = EditionInfo()  # who publishes the edition, under which licence

    @classmethod
    def for_inputs(
        cls, version: str, digest: str = "", *parts: str | bytes, date: str = "", edition: EditionInfo = EditionInfo()
    ) -> "BuildInfo":
        """A BuildInfo whose build id is ``digest`` or, without one, a hash of ``parts``; its date is
        ``date`` or, without one, the edition's."""
        if not digest:
            h = hashlib.sha256()
            for p in parts:
                h.update(p if isinstance(p, bytes) else p.encode("utf-8"))
                h.update(b"\0")
            digest = h.hexdigest()[:12]
        return cls(version=version, build=digest, date=date or edition.date, edition=edition)

    @property
    def resp_id(self) -> str:
        return self.resp[1:] if self.resp.startswith("#") else self.resp


@dataclass(frozen=True)
class TeiConfig:
    """Export settings (documented defaults)."""

    cert_high: float = 0.9  # confidence >= this: cert="high"
    cert_medium: float = 0.6  # confidence >= this: cert="medium"; below: "low"
    footnote_pattern: str = r"\[(\d{1,3})\]"  # footnote markers left in the text -> ref
    # italics typed as Markdown in a footnote's text ("_Vide_ Law 26.") -> hi[@rend='italic']
    italic_pattern: str = r"(?<![^\W_])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![^\W_])"
    # printed hyphen characters and the @rend word that names them on lb
    hyphens: tuple[tuple[str, str], ...] = (
        ("-", "hyphen"),
        ("\u2010", "hyphen-u2010"),
        ("\u00ac", "not-sign"),
        ("\u00ad", "soft-hyphen"),
        ("=", "double-hyphen"),
        ("\u2e17", "double-oblique-hyphen"),
    )
    omit_debris_lines: bool = True  # drop whole lines of web debris from the TEI (noted in the header)
    indent: str = "  "
    max_split: int = 200  # longest reading text of one layout correction tried at every split point
    # witnesses of these kinds were read by OCR: their repairs are OCR misreadings (app/lem/rdg[@wit='#ocr']),
    # not errors of the page (choice/sic/corr)
    ocr_kinds: tuple[str, ...] = ("ocr",)
    # link kinds of the alignment -> the TEI link type: words that claim a correspondence, not a descent
    # (that one text translates or edits the other is more than the scores show)
    link_types: tuple[tuple[str, str], ...] = (
        ("same_text", "same_source"),
        ("translation", "parallel_other_language"),
        ("edition", "parallel_same_language"),
        ("same_code", "parallel_same_language"),
    )


def cert_level(confidence: float, config: "TeiConfig" = TeiConfig()) -> str:
    if confidence >= config.cert_high:
        return "high"
    if confidence >= config.cert_medium:
        return "medium"
    return "low"
