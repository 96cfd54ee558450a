"""docs/ARCHITECTURE.md stays true: it names every module, and names no module that is gone."""

from __future__ import annotations

import ast
import functools
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


# ---- the house rules on the code's shape: no import cycle, no private name across a module line, no module
# over MAX_LINES. Each finding that predates a rule is listed below, exactly: the test fails on a new finding
# and also on a listed one that is gone, so the lists only shrink.

MAX_LINES = 800
PACKAGES = ("pipeline", "measure")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_files() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import that runs, at module level or inside a function; the body of `if TYPE_CHECKING:` aside."""
    found: list[ast.Import | ast.ImportFrom] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                for sub in child.orelse:
                    walk_stmt(sub)
                continue
            walk_stmt(child)

    def walk_stmt(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        walk(node)

    walk(tree)
    return found


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom names (relative imports resolved against the importing module)."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _imports(module: str, path: Path, known: set[str]) -> tuple[set[str], set[tuple[str, str]], dict[str, str]]:
    """The project modules `module` imports at run time, the (module, name) pairs it imports by name, and the
    local aliases bound to project modules (for `alias._private` look-ups)."""
    edges: set[str] = set()
    names: set[tuple[str, str]] = set()
    aliases: dict[str, str] = {}
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in known:
                    edges.add(a.name)
                    if a.asname:
                        aliases[a.asname] = a.name
            continue
        base = _base(module, path, node)
        for a in node.names:
            sub = f"{base}.{a.name}"
            if sub in known:  # `from pipeline import tei`: the submodule
                edges.add(sub)
                aliases[a.asname or a.name] = sub
            elif base in known:
                edges.add(base)
                names.add((base, a.name))
    return _with_packages(module, edges, known) - {module}, names, aliases


def _with_packages(module: str, edges: set[str], known: set[str]) -> set[str]:
    """Importing `a.b.c` first runs the package `a.b`'s `__init__`: an edge to it too, unless the importer
    lives inside that package (whose `__init__` is already running)."""
    out = set(edges)
    for target in edges:
        parts = target.split(".")
        for i in range(1, len(parts)):
            package = ".".join(parts[:i])
            if package in known and not module.startswith(package + ".") and module != package:
                out.add(package)
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@functools.lru_cache(maxsize=1)  # (read once for the two tests that ask: every module parsed)
def _graph() -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
    files = _module_files()
    known = set(files)
    graph: dict[str, set[str]] = {}
    crossings: set[tuple[str, str, str]] = set()
    for module, path in files.items():
        edges, names, aliases = _imports(module, path, known)
        graph[module] = edges
        crossings |= {(module, source, name) for source, name in names if source != module and _private(name)}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _private(node.attr)
            ):
                crossings.add((module, aliases[node.value.id], node.attr))
    return graph, crossings


def _cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each as a sorted tuple."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _compare(found: set, known: set, what: str) -> None:
    new, gone = sorted(found - known), sorted(known - found)
    assert not new, f"new {what}: {new}"
    assert not gone, f"{what} listed as known but gone (remove them from the list): {gone}"


# import cycles that predate the rule (each a strongly connected component of the import graph)
KNOWN_CYCLES: set[tuple[str, ...]] = set()

# private names imported across a module line that predate the rule: (importer, source, name)
KNOWN_PRIVATE_CROSSINGS: set[tuple[str, str, str]] = set()

# modules over MAX_LINES lines that predate the rule
KNOWN_OVERSIZED: set[str] = set()


def test_no_import_cycle_counting_imports_inside_functions():
    _compare(_cycles(_graph()[0]), KNOWN_CYCLES, "import cycles")


def test_no_private_name_crosses_a_module_line():
    _compare(_graph()[1], KNOWN_PRIVATE_CROSSINGS, "private names imported across modules")


def test_no_module_over_the_line_limit():
    found = {
        p.relative_to(ROOT).as_posix()
        for p in _module_files().values()
        if len(p.read_text(encoding="utf-8").splitlines()) > MAX_LINES
    }
    _compare(found, KNOWN_OVERSIZED, f"modules over {MAX_LINES} lines")


def test_the_finder_sees_imports_inside_functions_and_skips_type_only_ones(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import _helper\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n    return a._secret\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import X\nelse:\n    import pkg.b\n"
    )
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    graph, private = {}, set()
    for name in ("a", "b", "c"):
        edges, names, aliases = _imports(f"pkg.{name}", pkg / f"{name}.py", known)
        graph[f"pkg.{name}"] = edges
        private |= {(f"pkg.{name}", s, n) for s, n in names if _private(n)}
    assert graph["pkg.c"] == {"pkg.b"}  # the TYPE_CHECKING import is no edge, its `else:` is
    assert _cycles(graph) == {("pkg.a", "pkg.b")}  # through the import inside f()
    assert private == {("pkg.a", "pkg.b", "_helper")}
