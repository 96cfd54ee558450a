"""Atomic file writing and reading raw text safely.

Outputs are written atomically (a temporary file in the same folder, then ``os.replace``), so an
interrupted or failed build never leaves a half-written file. Raw inputs are decoded strictly: an
encoding is never guessed.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from typing import BinaryIO
from pathlib import Path

from .errors import InputFileError
from .textnorm import nfc


def write_atomic(path: Path, data: bytes | str) -> bool:
    """Write ``data`` to ``path`` atomically; return False (and write nothing) if it is unchanged."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = Path(path)
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


# byte-order marks of the encodings other than UTF-8 a text file may declare (UTF-32 first: its LE mark
# begins with UTF-16's)
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


_TEXT_CONTROLS = "\n\r\t\f\x0b\x1c\x1d\x1e\x85"  # control characters of text (line ends, page and field separators)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in blocks of 1 MiB (hex)."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def decode_text(data: bytes, name: str) -> str:
    """Decode raw bytes as UTF-8 text (NFC), refusing binary, non-UTF-8 and empty input; a file that
    declares UTF-16 or UTF-32 by its byte-order mark is read as such."""
    if not data.strip():
        raise InputFileError(f"{name}: the file is empty; give a UTF-8 text file with the scan's OCR text")
    bom = next((enc for b, enc in _BOMS if data.startswith(b)), None)
    if bom:  # (declared by the file itself, as Windows Notepad's "Unicode" writes it: no guess)
        try:
            return decode_text(data.decode(bom).encode("utf-8"), name)
        except UnicodeDecodeError as exc:
            raise InputFileError(
                f"{name}: starts with a {bom.upper()} byte-order mark but is not {bom.upper()} ({exc.reason})"
            ) from None
    if b"\x00" in data:
        raise InputFileError(f"{name}: the file is binary (NUL bytes), not text; export the OCR as UTF-8 plain text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            f"{name}: not valid UTF-8 (byte {exc.start}: {data[exc.start : exc.start + 1]!r}); "
            "convert it first, e.g. iconv -f latin1 -t utf-8"
        ) from None
    bad = [ch for ch in text if unicodedata.category(ch) == "Cc" and ch not in _TEXT_CONTROLS]
    if len(bad) > max(3, len(text) // 100):
        raise InputFileError(f"{name}: {len(bad)} control characters: this looks like a binary file, not OCR text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return nfc(text)


# a scan saved as a web page or as an OCR engine's XML (ALTO, hOCR, PAGE, TEI) rather than as its text: its
# markup would be read as the page's words (the tags as debris, "<p>a)" as "pa)")
_MARKUP_START = re.compile(
    r"\s*(?:<!--.*?-->\s*)*(<\?xml\b|<!doctype\s+html\b|<html\b|<alto\b|<pcgts\b|<tei\b)", re.I | re.S
)


def decode_scan(data: bytes, name: str) -> str:
    """:func:`decode_text` for a scan's OCR text, refusing also a web page or an XML document: the
    pipeline reads plain text only, and says how to get it."""
    text = decode_text(data, name)
    m = _MARKUP_START.match(text[:4096])
    if m:
        if m.group(1).lower().startswith(("<!doctype", "<html")):
            raise InputFileError(
                f"{name}: this is an HTML page, not the scan's plain text; save the page as text "
                "(UTF-8) and add that file"
            )
        raise InputFileError(
            f"{name}: this is an XML document ({m.group(1)}…: ALTO, hOCR, PAGE or TEI), not plain text; "
            "export the OCR's plain text (UTF-8) and add that file"
        )
    return text


def read_text(path: Path, decode: Callable[[bytes, str], str] = decode_text) -> str:
    """Read a raw text file strictly (see ``decode_text``; ``decode``: another such reader)."""
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"{path}: no such file; check the 'file' entry in corpus/witnesses.toml")
    return decode(path.read_bytes(), str(path))


def read_scan(path: Path) -> str:
    """Read a scan's raw text file strictly (see :func:`decode_scan`)."""
    return read_text(path, decode_scan)


class FolderError(InputFileError):
    """A folder given to the pipeline (``--out``, ``--cache``) that it may not write into or delete from."""


def real_path(path: Path, what: str) -> Path:
    """``path`` with every symlink and ``..`` resolved; a symlink loop is a one-line :class:`FolderError`."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError) as exc:  # (Python 3.11 raises RuntimeError on a symlink loop)
        raise FolderError(f"{what} {path}: cannot be resolved ({exc}); fix the path or the symlink") from None


def claim_folder(
    path: Path, marker: str, what: str, legacy: Callable[[Path], bool] = lambda p: False, create: bool = True
) -> Path:
    """The folder ``path`` (symlinks resolved), made the pipeline's own: created with the file ``marker``
    when it is missing or empty; accepted when it holds ``marker`` (the pipeline wrote it) or when
    ``legacy(folder)`` recognises a folder the pipeline wrote before it kept markers (the marker is then
    added). Anything else is refused (:class:`FolderError`, nothing touched): the pipeline removes and
    replaces files only in a folder it made, never in one of the user's. With ``create`` False the folder
    is only checked."""
    real = real_path(path, what)
    if real.exists() and not real.is_dir():
        raise FolderError(f"{what} {path} is a file, not a folder; give a folder (a new or empty one)")
    if real.is_dir():
        try:
            entries = [p.name for p in real.iterdir()]
        except OSError as exc:
            raise FolderError(f"{what} {path}: cannot list it ({exc.strerror or exc})") from None
        if entries and marker not in entries and not legacy(real):
            raise FolderError(
                f"{what} {path} is not empty and was not made by the pipeline (no {marker} in it); "
                "give a new or empty folder"
            )
        if marker in entries and not (real / marker).is_file():
            raise FolderError(f"{what} {path}: {marker} is not a file; give a new or empty folder")
    if not create:
        return real
    real.mkdir(parents=True, exist_ok=True)
    if not (real / marker).is_file():
        write_atomic(real / marker, marker_text(what))
    return real


def marker_text(what: str) -> str:
    return (
        f"This folder is the card-game laws pipeline's {what}: the pipeline writes, replaces and removes files\n"
        "here. It refuses any non-empty folder without this file.\n"
    )


def text_pieces(stream: BinaryIO, name: str, piece_chars: int, block: int = 1 << 20) -> Iterator[str]:
    """The text of a byte stream, decoded as :func:`decode_scan` decodes a whole file, in pieces of about
    ``piece_chars`` characters cut after a line break (after a blank line when the piece's second half
    has one), so that a text of any size is read in bounded memory. A stream that fits in one piece is
    one piece, exactly ``decode_scan(data)``. A piece that holds only white space is yielded as it is."""
    data = stream.read(piece_chars + 1)
    if len(data) <= piece_chars:
        yield decode_scan(data, name)
        return
    bom = next((enc for b, enc in _BOMS if data.startswith(b)), None)
    if bom is None and b"\x00" in data:
        raise InputFileError(f"{name}: the file is binary (NUL bytes), not text; export the OCR as UTF-8 plain text")
    decoder = codecs.getincrementaldecoder(bom or "utf-8-sig")("strict")
    consumed, buf, first = 0, "", True
    while True:
        try:
            buf += decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            what = bom.upper() if bom else "UTF-8"
            raise InputFileError(
                f"{name}: not valid {what} (byte {consumed + max(exc.start, 0)}); convert it first, "
                "e.g. iconv -f latin1 -t utf-8"
            ) from None
        consumed += len(data)
        if first:
            decode_scan(buf[:4096].encode("utf-8") or b"-", name)  # (a web page or an XML document: refused)
            first = False
        while len(buf) > piece_chars or (not data and buf):
            cut = len(buf) if len(buf) <= piece_chars else _piece_end(buf, piece_chars, final=not data)
            if cut is None:  # (a line longer than a piece: read on to its end)
                break
            yield _piece_text(buf[:cut], name)
            buf = buf[cut:]
        if not data:
            return
        data = stream.read(block)
        if bom is None and b"\x00" in data:
            raise InputFileError(f"{name}: the file is binary (NUL bytes at byte {consumed + data.index(0)}), not text")


LONG_LINE_PIECES = 4  # a line up to this many pieces long is kept whole in one piece


def _piece_end(buf: str, n: int, final: bool) -> int | None:
    """Where to cut the first piece of ``buf`` (about ``n`` characters): after a blank line in its second
    half, else after its last line break; a longer line is kept whole up to ``LONG_LINE_PIECES`` pieces
    (None: read more of it first), and only a line longer than that is cut after a space, or at ``n``."""
    for sep in ("\n\n", "\n"):
        i = buf.rfind(sep, n // 2 if sep == "\n\n" else 1, n)
        if i != -1:
            return i + len(sep)
    i = buf.find("\n", n, LONG_LINE_PIECES * n)
    if i != -1:
        return i + 1
    if not final and len(buf) < LONG_LINE_PIECES * n:
        return None
    i = buf.rfind(" ", 1, n)
    return i + 1 if i != -1 else n


def _piece_text(piece: str, name: str) -> str:
    if not piece.strip():
        return piece
    bad = sum(1 for ch in piece if unicodedata.category(ch) == "Cc" and ch not in _TEXT_CONTROLS)
    if bad > max(3, len(piece) // 100):
        raise InputFileError(f"{name}: {bad} control characters: this looks like a binary file, not OCR text")
    return nfc(piece.replace("\r\n", "\n").replace("\r", "\n"))
