"""One text-normalisation module: folding, NFC and the clean stage's word tokens."""

from __future__ import annotations

from pathlib import Path

from pipeline.textnorm import fold, nfc, tokens_lower

ROOT = Path(__file__).resolve().parent.parent


def test_fold_drops_accents_and_optionally_case_and_ligatures():
    assert fold("DE L'ÉCARTÉ.") == "de l'ecarte."
    assert fold("Écarté", lower=False) == "Ecarte"
    assert fold("ﬁnesse") == "ﬁnesse" and fold("ﬁnesse", compat=True) == "finesse"
    assert fold(nfc("e\u0301te\u0301")) == "ete"
    assert tokens_lower("L’as d'atout, ÉCARTÉ") == ["l'as", "d'atout", "écarté"]


def test_folding_is_written_once():
    # every other module folds through pipeline.textnorm: no decomposition of its own
    for path in list((ROOT / "pipeline").rglob("*.py")) + list((ROOT / "measure").rglob("*.py")):
        if path.name == "textnorm.py":
            continue
        src = path.read_text(encoding="utf-8")
        assert '"NFD"' not in src and '"NFKD"' not in src and "unicodedata.combining" not in src, path
