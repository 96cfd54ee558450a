"""The reading edition: a static web site rendered from the stage results.

``render_site(results, links, rules)`` returns ``{relative path under outputs/site/: bytes}``:

* ``index.html``: the witnesses, and one *synoptic table* per game: one row per provision, one
  column per witness, aligned laws side by side, laws without a counterpart on their own row, the
  score, kind and evidence of every alignment link in a details toggle; filters by game, witness
  and text (a small local script).
* ``witness/<id>.html``: one page per witness with a *reading view* (the cleaned text, one law per
  paragraph, repaired words highlighted, words flagged for review marked, page breaks in the margin,
  and under each law its rulings from the rule table and its aligned laws) and a *diplomatic view*
  (the text as printed: line breaks, line-break hyphens, running heads and page numbers, OCR
  debris), switched by a toggle button.
* ``assets/site.css``, ``assets/site.js``: local assets (``pipeline/export/site/assets/``); no CDN, no
  server: the site opens from disk (``file://``).

The markup lives in Jinja2 templates (``pipeline/export/site/templates/``: ``base.html`` the page layout,
``index.html`` and ``synoptic.html`` the index and its tables, ``witness.html`` a witness page,
``macros.html`` the shared pieces); the modules only build plain view data (dicts of strings) for
them.  Autoescaping is on for every template, so everything that comes from the corpus is escaped
(text and attributes); no corpus text is ever put inside a ``<script>``.  The output is deterministic (no timestamps, every
collection sorted or in corpus order), so a rebuild gives the same bytes.

How rows of the synoptic table are formed (``rows.synoptic_rows``): the witnesses of a game are
taken in corpus order; the first witness that has laws anchors the rows (one row per law, in its
order).  Each law of a following witness joins the row of its best-scoring link to a law already
placed (any earlier witness, so a modernized reading follows the OCR it modernizes); a law with no
link to a placed law gets a row of its own, inserted after the row of the previous law of its
witness (before the first placed one when it has no predecessor), so every column keeps its printed
order as far as the links allow.  A law linked to laws of more than one row (an n:m link) sits in
its best row and is *referred to* (``data-ref-law-id``, "see also") in the others.

The modules (import from them; this package's ``__init__`` imports nothing): ``rows`` (settings, names and
addresses, rulings per law, synoptic rows), ``search`` (glossary and search keys), ``units`` (a witness's
text as highlighted units), ``views`` (the view data of each page), ``render`` (templates and assets:
``render_site``).
"""
