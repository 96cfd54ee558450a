"""The corpus: witness metadata (corpus/witnesses.toml) and the raw text of each witness.

``load_witnesses`` validates the metadata strictly (unknown or missing fields, bad values and
duplicate ids are one-line errors naming the file and the fix); ``witness_text`` cuts a witness's
slice out of its raw file; ``add_witness`` registers a new scan (the thin wrapper behind
``python -m pipeline add``).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import tempfile
import tomllib
import unicodedata
from pathlib import Path

import tomli_w

from .errors import CorpusError, InputFileError, UnknownWitnessError
from .files import decode_scan, decode_text, read_scan, read_text, real_path, write_atomic
from .model import GAMES, KINDS, LANGS, Witness, WitnessText
from .publish import pid_alive

METADATA = "witnesses.toml"
REQUIRED = ("id", "file", "game", "lang", "kind", "title")
FIELDS = tuple(f.name for f in dataclasses.fields(Witness) if f.name != "footnotes")  # (footnotes: read from notes)
# a footnote of a notes file: its marker in brackets at the start of a line, then its text up to the next one
NOTE_RE = re.compile(r"(?m)^\[(\d{1,3})\][ \t]+(.*?)\s*(?=^\[\d{1,3}\][ \t]|\Z)", re.S)
# a witness id: lower-case ASCII letters and digits in groups joined by single hyphens, at most ID_MAX
# characters (it names the witness's files: text/<id>.txt, tei/<id>.xml, site/witness/<id>.html, its cache
# entries), and not the name of an output that shares those folders (RESERVED_IDS, RESERVED_ID_PREFIXES)
ID_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
ID_MAX = 64
RESERVED_IDS = frozenset({"alignments"})  # tei/alignments.xml
RESERVED_ID_PREFIXES = ("collation-",)  # tei/collation-<game>.xml
NAME_MAX_BYTES = 200  # a scan's file name (the file system's limit is 255 bytes; a margin for its temporary copy)


def check_id(witness_id: object, where: str) -> str:
    """``witness_id`` if it is a valid witness id (see ``ID_RE``), else a one-line CorpusError."""
    if not isinstance(witness_id, str) or not ID_RE.match(witness_id) or len(witness_id) > ID_MAX:
        raise CorpusError(
            f"{where}: id {witness_id!r} must be lower-case letters and digits in groups joined by single "
            f"hyphens, at most {ID_MAX} characters, like 'fr-004'"
        )
    if witness_id in RESERVED_IDS or witness_id.startswith(RESERVED_ID_PREFIXES):
        raise CorpusError(
            f"{where}: id {witness_id!r} is the name of an output of the edition "
            f"({', '.join(sorted(RESERVED_IDS))}, {', '.join(p + '...' for p in RESERVED_ID_PREFIXES)}); choose another"
        )
    return witness_id


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
    check_id(entry["id"], where)
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
        if w.notes:
            where = f"{path}: witness #{i} ({w.id}): notes"
            w = dataclasses.replace(w, footnotes=read_notes(read_scan(corpus_file(corpus_dir, w.notes, where)), where))
        witnesses.append(w)
    return tuple(witnesses)


def read_notes(text: str, where: str) -> tuple[tuple[str, str], ...]:
    """The footnotes of a notes file: (marker number, text), paragraphs of a note kept apart by a blank line."""
    notes = []
    for m in NOTE_RE.finditer(text):
        paras = [" ".join(p.split()) for p in re.split(r"\n[ \t]*\n", m.group(2))]
        notes.append((m.group(1), "\n\n".join(p for p in paras if p)))
    if not notes:
        raise CorpusError(f"{where}: no footnote found; each note starts a line with its marker, like '[12] Text'")
    numbers = [n for n, _ in notes]
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        raise CorpusError(f"{where}: footnote [{twice}] is given twice; keep one")
    return tuple(notes)


def corpus_file(corpus_dir: Path, rel: str, where: str) -> Path:
    """The file ``rel`` of a witness, resolved (symlinks and ``..`` followed) and required to lie inside
    ``corpus_dir``: a path that leads out of the corpus is a CorpusError."""
    root = real_path(corpus_dir, "corpus folder")
    if not rel or Path(rel).is_absolute():
        raise CorpusError(f"{where}: file = {rel!r} must be a path relative to the corpus folder, like 'raw/scan.txt'")
    target = real_path(root / rel, f"{where}: file")
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
    not validate. All or nothing: the scan is copied once, to a temporary file beside its destination,
    and it is those bytes that are checked, then renamed into place; witnesses.toml is written last
    (atomically, parsed back and compared entry by entry with what was meant). A failure or an
    interruption at any point (the CLI turns SIGTERM into one) leaves the corpus as it was.
    """
    corpus_dir = Path(corpus_dir)
    source_file = Path(source_file)
    shown = _printable(source_file.name)
    if not source_file.is_file():
        raise InputFileError(f"{_printable(str(source_file))}: no such file; give the path of the scan's OCR text")
    # (metadata is read back NFC-normalised, as every text file: the values and the raw file's name are
    # written in that form, else a name like U+F900 would not find its file again)
    name = unicodedata.normalize("NFC", _text_arg(source_file.name, "file name", shown))
    if len(os.fsencode(name)) > NAME_MAX_BYTES:
        raise CorpusError(f"add {shown[:40]}...: the file name is longer than {NAME_MAX_BYTES} bytes; rename the scan")
    meta = {
        k: unicodedata.normalize("NFC", _text_arg(v, k, shown)) if isinstance(v, str) else v
        for k, v in meta.items()
        if v not in (None, "")
    }
    meta.setdefault("file", f"raw/{name}")
    for key, value in meta.items():
        if isinstance(value, str) and any(unicodedata.category(ch) == "Cc" for ch in value):
            raise CorpusError(
                f"add {shown!r}: the {key} holds control characters; "
                "give it in plain text (rename the file if it is the file name)"
            )
    entry = _check_entry(meta, f"add {shown}")
    dest = corpus_file(corpus_dir, entry.file, f"add {shown}")
    witnesses = load_witnesses(corpus_dir)
    if any(w.id == entry.id for w in witnesses):
        raise CorpusError(f"witness id {entry.id!r} already exists; choose another --id")
    if dest.exists() or dest.is_symlink():
        raise CorpusError(f"{dest}: a different file with this name exists; rename the scan first")
    path = corpus_dir / METADATA
    text = read_text(path)
    fields = {k: getattr(entry, k) for k in FIELDS if getattr(entry, k) not in ("", None)}
    new_text = text.rstrip("\n") + "\n\n" + _witness_block(fields)
    expected = _entries(text, str(path)) + [fields]
    dest.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_copies(dest.parent)
    fd, tmp_name = tempfile.mkstemp(prefix=f"{ADD_TEMP_PREFIX}{os.getpid()}-", suffix=".tmp", dir=dest.parent)
    tmp, placed = Path(tmp_name), False
    try:
        with os.fdopen(fd, "wb") as out, source_file.open("rb") as src:
            shutil.copyfileobj(src, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        data = tmp.read_bytes()  # the bytes that will be in the corpus, checked (not the source read again)
        slice_witness(entry, decode_scan(data, str(source_file)))  # refuses a scan with no text, as the build
        for other in sorted(dest.parent.iterdir()):
            if (
                other != tmp
                and not other.name.startswith(ADD_TEMP_PREFIX)
                and other.is_file()
                and other.stat().st_size == len(data)
                and other.read_bytes() == data
            ):
                raise CorpusError(f"{shown}: this file is already in the corpus as {other.relative_to(corpus_dir)}")
        os.chmod(tmp, 0o644)
        os.link(tmp, dest)  # (fails rather than replace a file that appeared meanwhile)
        placed = True
        _write_metadata(path, new_text, expected, f"add {shown}")
    except BaseException:
        if placed:
            dest.unlink(missing_ok=True)
        raise
    finally:
        tmp.unlink(missing_ok=True)
    return entry


ADD_TEMP_PREFIX = ".add-"  # the temporary copy of a scan being added (.add-<pid>-*.tmp), beside its destination


def _remove_dead_copies(folder: Path) -> None:
    """Remove the temporary copies that an ``add`` killed outright (SIGKILL, a power cut) left in ``folder``:
    those of processes that no longer run (the caller holds the checkout's lock)."""
    for p in folder.glob(f"{ADD_TEMP_PREFIX}*-*.tmp"):
        pid = p.name[len(ADD_TEMP_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not pid_alive(int(pid)) and p.is_file() and not p.is_symlink():
            p.unlink(missing_ok=True)


def _printable(s: str) -> str:
    """``s`` with any byte that was not UTF-8 (a surrogate escape of the file system) shown as ``\\xNN``."""
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _text_arg(value: str, key: str, shown: str) -> str:
    """``value`` if it is text (no byte that was not UTF-8 in the command line or the file name)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        what = "the file name" if key == "file name" else f"the {key}"
        raise CorpusError(
            f"add {shown}: {what} holds bytes that are not UTF-8 ({_printable(value)!r}); "
            "give it in UTF-8 (rename the file if it is the file name)"
        ) from None
    return value


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
