"""docs/ARCHITECTURE.md stays true: it names every module, and names no module that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


def modules() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for pkg in ("pipeline", "measure") for p in (ROOT / pkg).rglob("*.py"))


def test_architecture_names_every_module():
    missing = [m for m in modules() if f"`{m}`" not in DOC]
    assert not missing, f"docs/ARCHITECTURE.md does not describe {missing}"


def test_architecture_names_no_module_that_is_gone():
    named = set(re.findall(r"`((?:pipeline|measure)/[\w/]+\.py)`", DOC))
    assert named and not named - set(modules()), sorted(named - set(modules()))


def test_the_product_never_imports_the_measuring_tools():
    for p in (ROOT / "pipeline").rglob("*.py"):
        src = p.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) measure\b", src, re.M), p
