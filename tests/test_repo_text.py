"""The repository's text speaks of the project, not of how its work was organised: no issue or pull-request
numbers, no dated or numbered rounds of work, no work sessions or helpers, no absolute path of one machine.
An algorithm's own rounds (a search's first and second round) and pytest's session scope are not history."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# tracked files that are not the project's prose or code: generated outputs, the scans as received (their
# text is the books'), lock files, and this test (which names the patterns)
SKIP_PREFIXES = ("outputs/", "corpus/raw/")
SKIP_FILES = {"package-lock.json", "tests/test_repo_text.py"}

ORDINAL = r"(?:third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(?:st|nd|rd|th))"
PATTERNS = {
    "an issue number": r"\bissues?[\s-]*#?\d+|\b(?:pull request|PR|fix(?:es|ed)?|close[sd]?|see|cf\.?)\s*#\d+|\(#\d+\)",
    "a numbered round": rf"\b{ORDINAL}\s+rounds?\b",
    "a dated round": r"\b20\d\d-\d\d-\d\d\b[^.\n|]{0,24}\brounds?\b|\brounds?\b[^.\n|]{0,6}20\d\d-\d\d-\d\d",
    "a round of work": r"\b(?:this|that|the last|the previous|the same|an earlier|the speed|the quality)\s+round\b"
    r"|\brounds? of (?:speed|quality|cleaning) work\b|\bspeed rounds?\b",
    "a work session": r"\b(?:this|that|the previous|previous|an earlier|earlier|the next|other|another)\s+sessions?\b"
    r"|\bsession's\b|\bsessions?\s+(?:ran|running)\b",
    "a helper": r"\b(?:speed|quality|data|docs|edition|the three|three|six|other|another)\s+helpers?\b"
    r"|\bhelper's\b|\bhelpers'|\b(?:tell|ask)\s+the\s+lead\b|\bthe\s+lead's\b",
    "an absolute path of one machine": r"(?<![\w.~])/(?:work|home|Users|root)/[\w.]",
}
COMPILED = {name: re.compile(p, re.I) for name, p in PATTERNS.items()}


UNTRACKED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    ".cache",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "__pycache__",
}


def file_names() -> list[str]:
    """The tracked files (``git ls-files``), or, outside a git checkout, every file but caches and environments."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return [n.decode("utf-8") for n in out.split(b"\0") if n]
    return [
        p.relative_to(ROOT).as_posix()
        for p in ROOT.rglob("*")
        if p.is_file() and not UNTRACKED_DIRS & set(p.relative_to(ROOT).parts)
    ]


def tracked_text_files() -> list[Path]:
    out = []
    for name in file_names():
        if not name or name in SKIP_FILES or name.startswith(SKIP_PREFIXES):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary
        out.append(path)
    return out


def findings(text: str) -> list[tuple[int, str, str]]:
    hits = []
    for n, line in enumerate(text.splitlines(), 1):
        for name, rx in COMPILED.items():
            m = rx.search(line)
            if m:
                hits.append((n, name, m.group(0)))
    return hits


def test_the_patterns_catch_history_and_leave_the_project_alone():
    history = [
        "as measured in issue 19",
        "see #19",
        "the issue-6 vocabulary",
        "the eighth round (2026-12-02)",
        "Seventh round, 2026-12-02: the glyph groups",
        "before this session's fixes",
        "the speed helper's branch",
        "tell the lead",
        "read /work/shared/gold/cer.py",
    ]
    for text in history:
        assert findings(text), text
    project = [
        "the first round: the confusions whose first letter lw has",  # an algorithm's rounds
        "run up to this many times, until a round changes nothing",
        '@pytest.fixture(scope="session")',
        "one full build per test session",
        "whichever of them next first obtains the lead",  # whist's lead
        "witnesses.toml: witness #1: missing required field 'file'",
        "round(score, 4)",
        "/usr/bin/chromium",
    ]
    for text in project:
        assert not findings(text), (text, findings(text))


def test_no_tracked_text_tells_the_history_of_the_work():
    files = tracked_text_files()
    assert any(p.name == "README.md" for p in files) and any(p.suffix == ".py" for p in files)
    bad = [
        f"{p.relative_to(ROOT)}:{n}: {name}: {snippet!r}"
        for p in files
        for n, name, snippet in findings(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not bad, "history in the repository's text:\n" + "\n".join(bad[:60])
