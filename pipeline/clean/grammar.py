"""French grammar voice: Grammalecte's homophone and agreement rules (Debian ``python3-grammalecte``).

Grammalecte is a French grammar checker; where one of its rules fires on a word (``a`` / ``à``, ``ou`` / ``où``,
``son`` / ``sont``, ``ce`` / ``se``, agreement of a participle) and one of its suggestions is one cheap OCR
confusion from the printed word, the language-model pass (:mod:`pipeline.clean.lm`) judges that word as a real word
with the suggestion as a candidate and ``LMConfig.w_grammar`` added to its score.  A rule is never trusted
alone: the suggestion must also be cheap in the OCR channel and win the pass's margin.

Debian installs the module for the system Python (``/usr/lib/python3/dist-packages``); it is imported from
there when the virtualenv lacks it (``GRAMMALECTE_DIRS``; the Makefile installs the package).  Without it the
voice is silent.
"""

from __future__ import annotations

import importlib
import sys
from functools import lru_cache
from pathlib import Path

from ..nlp import pieces

GRAMMALECTE_DIRS = ("/usr/lib/python3/dist-packages",)  # where Debian's python3-grammalecte lives
CHUNK = 4000  # characters per call at most (Grammalecte reads paragraphs; a witness is cut as spaCy's pieces are)


@lru_cache(maxsize=1)
def checker():
    """Grammalecte's French ``GrammarChecker``, loaded once (None when not installed)."""
    try:
        mod = importlib.import_module("grammalecte")
    except ImportError:
        mod = None
        for d in GRAMMALECTE_DIRS:
            if not (Path(d) / "grammalecte" / "__init__.py").exists():
                continue
            sys.path.append(d)
            try:
                mod = importlib.import_module("grammalecte")
            except ImportError:
                mod = None
            finally:
                sys.path.remove(d)
            if mod is not None:
                break
    if mod is None:
        return None
    return mod.GrammarChecker("fr")


def hints(text: str) -> dict[tuple[int, int], tuple[tuple[str, str], ...]]:
    """Grammalecte's grammar errors in ``text`` that name one word: (start, end) -> ((suggestion, rule id), ...).
    Line ends are read as spaces (offsets are those of ``text``).  Empty when Grammalecte is not installed."""
    gc = checker()
    if gc is None:
        return {}
    out: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for off, end in pieces(text, CHUNK):
        piece = text[off:end]
        errs, _ = gc.getParagraphErrors(piece.replace("\n", " "), bSpellSugg=False)
        for e in errs:
            s, t = e["nStart"], e["nEnd"]
            span = piece[s:t]
            if not span or " " in span or "\n" in span:
                continue
            sugg = [x for x in e.get("aSuggestions", ()) if x and " " not in x]
            if sugg:
                out.setdefault((off + s, off + t), []).extend((x, e["sRuleId"]) for x in sugg)
    return {k: tuple(v) for k, v in out.items()}
