"""The corpus: witness metadata (corpus/witnesses.toml) and the raw text of each witness.

``load_witnesses`` validates the metadata strictly (unknown or missing fields, bad values and
duplicate ids are one-line errors naming the file and the fix); ``witness_text`` cuts a witness's
slice out of its raw file; ``add_witness`` registers a new scan (the thin wrapper behind
``python -m pipeline add``).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tomllib
import unicodedata
from pathlib import Path

import tomli_w

from .errors import CorpusError, InputFileError, UnknownWitnessError
from .files import decode_scan, decode_text, read_scan, read_text, write_atomic
from .model import GAMES, KINDS, LANGS, Witness, WitnessText

METADATA = "witnesses.toml"
REQUIRED = ("id", "file", "game", "lang", "kind", "title")
FIELDS = tuple(f.name for f in dataclasses.fields(Witness))
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _check_entry(entry: dict, where: str) -> Witness:
    unknown = sorted(set(entry) - set(FIELDS))
    if unknown:
        raise CorpusError(f"{where}: unknown field {unknown[0]!r}; allowed fields: {', '.join(FIELDS)}")
    missing = [f for f in REQUIRED if f not in entry or entry[f] in ("", None)]
    if missing:
        raise CorpusError(f"{where}: missing required field {missing[0]!r}; required: {', '.join(REQUIRED)}")
    for name, allowed in (("game", GAMES), ("lang", LANGS), ("kind", KINDS)):
        if entry[name] not in allowed:
            raise CorpusError(f"{where}: {name} = {entry[name]!r} is not one of {', '.join(allowed)}")
    if not isinstance(entry["id"], str) or not ID_RE.match(entry["id"]):
        raise CorpusError(f"{where}: id {entry['id']!r} must be lower-case letters, digits and hyphens, like 'fr-004'")
    year = entry.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool) or not 1400 <= year <= 2100):
        raise CorpusError(f"{where}: year = {year!r} must be a whole number like 1855")
    for name in FIELDS:
        if name != "year" and name in entry and not isinstance(entry[name], str):
            raise CorpusError(f"{where}: {name} must be a string, got {entry[name]!r}")
    return Witness(**entry)


def load_witnesses(corpus_dir: Path) -> tuple[Witness, ...]:
    """Read and validate corpus/witnesses.toml; raise CorpusError with a one-line message on any problem."""
    path = Path(corpus_dir) / METADATA
    if not path.is_file():
        raise CorpusError(f"{path}: no such file; create it with one [[witness]] table per witness")
    try:
        data = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(f"{path}: malformed TOML ({exc}); fix the syntax") from None
    extra = sorted(set(data) - {"witness"})
    if extra:
        raise CorpusError(f"{path}: unexpected top-level key {extra[0]!r}; use [[witness]] tables only")
    entries = data.get("witness", [])
    if not isinstance(entries, list) or not entries:
        raise CorpusError(f"{path}: no [[witness]] entries; add one per witness")
    witnesses: list[Witness] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries, 1):
        w = _check_entry(entry, f"{path}: witness #{i}")
        corpus_file(corpus_dir, w.file, f"{path}: witness #{i} ({w.id})")
        if w.id in seen:
            raise CorpusError(f"{path}: two witnesses have the id {w.id!r}; give each witness its own id")
        seen.add(w.id)
        witnesses.append(w)
    return tuple(witnesses)


def corpus_file(corpus_dir: Path, rel: str, where: str) -> Path:
    """The file ``rel`` of a witness, resolved (symlinks and ``..`` followed) and required to lie inside
    ``corpus_dir``: a path that leads out of the corpus is a CorpusError."""
    root = Path(corpus_dir).resolve()
    if not rel or Path(rel).is_absolute():
        raise CorpusError(f"{where}: file = {rel!r} must be a path relative to the corpus folder, like 'raw/scan.txt'")
    target = (root / rel).resolve()
    if not target.is_relative_to(root) or target == root:
        raise CorpusError(
            f"{where}: file = {rel!r} leads outside the corpus folder {root}; "
            "copy the scan into corpus/raw/ (python -m pipeline add FILE)"
        )
    return target


def get_witness(witnesses: tuple[Witness, ...], witness_id: str) -> Witness:
    for w in witnesses:
        if w.id == witness_id:
            return w
    raise UnknownWitnessError(f"unknown witness {witness_id!r}; known witnesses: {', '.join(w.id for w in witnesses)}")


def slice_witness(witness: Witness, text: str) -> WitnessText:
    """Cut a witness's slice out of the decoded text of its raw file (see Witness.begin_after/end_before)."""
    start, end = 0, len(text)
    if witness.begin_after:
        m = re.search(rf"(?m)^[ \t]*{re.escape(witness.begin_after)}[ \t]*$\n?", text)
        if not m:
            raise CorpusError(
                f"{witness.file}: marker line {witness.begin_after!r} (begin_after of {witness.id}) not found; "
                "fix the marker in corpus/witnesses.toml"
            )
        start = m.end()
    if witness.end_before:
        m = re.compile(rf"(?m)^[ \t]*{re.escape(witness.end_before)}[ \t]*$").search(text, start)
        if not m:
            raise CorpusError(
                f"{witness.file}: marker line {witness.end_before!r} (end_before of {witness.id}) not found; "
                "fix the marker in corpus/witnesses.toml"
            )
        end = m.start()
    raw = text[start:end]
    if not raw.strip():
        raise InputFileError(f"{witness.file}: witness {witness.id} has no text; check the file and its markers")
    return WitnessText(witness=witness, raw=raw, offset=start)


def witness_text(corpus_dir: Path, witness: Witness) -> WitnessText:
    """Read a witness's raw file strictly and return its slice."""
    return slice_witness(witness, read_scan(corpus_file(corpus_dir, witness.file, f"witness {witness.id}")))


def _witness_block(fields: dict) -> str:
    """One ``[[witness]]`` table in TOML (a header line, then one ``key = value`` line per field)."""
    return "[[witness]]\n" + tomli_w.dumps(fields)


def _entries(text: str, where: str) -> list[dict]:
    """The [[witness]] entries of ``text`` as ``load_witnesses`` reads them (decoded as a raw file is: NFC)."""
    try:
        return list(tomllib.loads(decode_text(text.encode("utf-8"), where)).get("witness", []))
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(f"{where}: the new metadata would not load ({exc}); nothing was written") from None


def _write_metadata(path: Path, new_text: str, expected: list[dict], what: str) -> None:
    """Replace witnesses.toml with ``new_text`` only if it reads back as exactly ``expected``."""
    if _entries(new_text, what) != expected:
        raise CorpusError(
            f"{what}: the new {path.name} would not read back as written; nothing was written "
            f"(check {path} for an unusual layout)"
        )
    write_atomic(path, new_text)


def add_witness(corpus_dir: Path, source_file: Path, **meta) -> Witness:
    """Register a new scan: copy it into corpus/raw/ and append its metadata to witnesses.toml.

    Refuses (CorpusError, nothing written) a file that is not UTF-8 text or holds only white space,
    a witness id that exists, a raw file already in the corpus (same bytes), and metadata that does
    not validate. The new witnesses.toml is parsed back and compared, entry by entry, with what was
    meant before it replaces the old one.
    """
    corpus_dir = Path(corpus_dir)
    source_file = Path(source_file)
    if not source_file.is_file():
        raise InputFileError(f"{source_file}: no such file; give the path of the scan's OCR text")
    data = source_file.read_bytes()
    text_of_scan = decode_scan(data, str(source_file))
    witnesses = load_witnesses(corpus_dir)
    # (metadata is read back NFC-normalised, as every text file: the values and the raw file's name are
    # written in that form, else a name like U+F900 would not find its file again)
    name = unicodedata.normalize("NFC", source_file.name)
    dest = corpus_dir / "raw" / name
    meta = {
        k: unicodedata.normalize("NFC", v) if isinstance(v, str) else v for k, v in meta.items() if v not in (None, "")
    }
    meta.setdefault("file", f"raw/{name}")
    for key, value in meta.items():
        if isinstance(value, str) and any(unicodedata.category(ch) == "Cc" for ch in value):
            raise CorpusError(
                f"add {source_file.name!r}: the {key} holds control characters; "
                "give it in plain text (rename the file if it is the file name)"
            )
    entry = _check_entry(meta, f"add {source_file.name}")
    corpus_file(corpus_dir, entry.file, f"add {source_file.name}")
    slice_witness(entry, text_of_scan)  # refuses a scan with no text (white space only) as the build would
    if any(w.id == entry.id for w in witnesses):
        raise CorpusError(f"witness id {entry.id!r} already exists; choose another --id")
    for other in sorted((corpus_dir / "raw").glob("*")):
        if other.is_file() and other.read_bytes() == data:
            raise CorpusError(f"{source_file}: this file is already in the corpus as {other.relative_to(corpus_dir)}")
    if dest.exists():
        raise CorpusError(f"{dest}: a different file with this name exists; rename the scan first")
    path = corpus_dir / METADATA
    text = read_text(path)
    fields = {k: getattr(entry, k) for k in FIELDS if getattr(entry, k) not in ("", None)}
    new_text = text.rstrip("\n") + "\n\n" + _witness_block(fields)
    _write_metadata(path, new_text, _entries(text, str(path)) + [fields], f"add {source_file.name}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".tmp-{dest.name}")
    shutil.copyfile(source_file, tmp)
    tmp.replace(dest)
    return entry


_HEADER_RE = re.compile(r"(?m)^[ \t]*\[\[[ \t]*witness[ \t]*\]\][ \t]*(?:#.*)?$")


def remove_witness(corpus_dir: Path, witness_id: str, delete_raw: bool = False) -> tuple[Witness, Path | None]:
    """Take witness ``witness_id`` out of witnesses.toml (its comments and the other entries kept as
    they are; the result parsed back and compared before it is written). With ``delete_raw`` its raw
    file goes too, unless another witness is cut from the same file. Returns (the witness, the raw
    file deleted or None). Its outputs go at the next build."""
    corpus_dir = Path(corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    w = get_witness(witnesses, witness_id)
    path = corpus_dir / METADATA
    text = read_text(path)
    entries = _entries(text, str(path))
    index = next(i for i, e in enumerate(entries) if e.get("id") == witness_id)
    headers = [m.start() for m in _HEADER_RE.finditer(text)]
    if len(headers) != len(entries):
        raise CorpusError(
            f"{path}: cannot find the [[witness]] table of {witness_id} (the file is not laid out "
            "one [[witness]] header per entry); remove it by hand"
        )
    start = headers[index]
    end = headers[index + 1] if index + 1 < len(headers) else len(text)
    # the comment lines right above the next header belong to the next entry
    body = text[start:end]
    lines = body.split("\n")
    keep = len(lines)
    while keep > 1 and (not lines[keep - 1].strip() or lines[keep - 1].lstrip().startswith("#")):
        keep -= 1
    cut = start + len("\n".join(lines[:keep]))
    if len(entries) == 1:
        raise CorpusError(f"{witness_id} is the corpus's only witness; a corpus needs at least one")
    prefix, suffix = text[:start], text[cut:].lstrip("\n")
    new_text = prefix + suffix if suffix else prefix.rstrip("\n") + "\n"
    _write_metadata(path, new_text, entries[:index] + entries[index + 1 :], f"remove {witness_id}")
    deleted = None
    if delete_raw:
        raw = corpus_file(corpus_dir, w.file, f"witness {w.id}")
        if not any(o.file == w.file for o in witnesses if o.id != w.id) and raw.is_file():
            raw.unlink()
            deleted = raw
    return w, deleted
