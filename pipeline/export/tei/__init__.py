"""TEI P5 export of the edition: one file per witness, and a stand-off alignment file.

The modules, each with one job (import from them; this package's ``__init__`` imports nothing)::

    config      EditionInfo, load_edition(corpus_dir), BuildInfo, TeiConfig, TeiError
    xml         the namespaces, element builders, serialize(root), parse_safe(data)
    header      title and publication statements, witness_file(id), law_pointer(law, witness), witness_header
    text        a witness's text as tokens and each correction group's encoding
    witness     witness_tei(witness, cleaned, segmented, build, config=TeiConfig()) -> bytes
    links       link_fragments(links, witness_of), AlignmentsWriter, alignments_tei(links, laws, build) -> bytes
    collation   collation_tei / collation_files: the word-level collation as parallel segmentation
    read        read_tei(data) -> TeiWitness   # reading view, diplomatic view, laws (safe parser)
    validate    check_edition({"fr-000.xml": b"...", "alignments.xml": b"..."}) -> list[str],
                validator(schema_path) (compiled once per path), validate(data, schema_path), schema_paths()

Encoding conventions (each one is round-trippable, see ``read_tei``):

* Text is built from the raw text plus ``Cleaned.corrections``.  Characters that the cleaner
  left alone are plain text (line breaks included, verbatim).  Every correction is markup whose
  *diplomatic* content is ``Correction.before`` and whose *reading* content is ``Correction.after``:

  - a printed line break the cleaner joined or turned into a space becomes ``lb``:
    ``<lb break="no" rend="hyphen"/>`` = printed "-" + line break, read as nothing ("car-\\ntes" ->
    ``car<lb break="no" rend="hyphen"/>tes``); ``<lb break="no"/>`` = a line break read as nothing;
    ``<lb/>`` = a line break read as one space.  ``@rend`` names the printed hyphen
    (``TeiConfig.hyphens``), so the diplomatic view can print it again.
  - a running head / page-number line becomes ``<pb n="page"/>`` followed by
    ``<fw type="header">`` (with ``<fw type="pageNum">`` inside it when the page number can be
    told apart); the normalised head and page number are given as ``choice/sic/corr`` inside the fw.
    The fw is diplomatic only: the reading view skips it.
  - every other correction (spelling, real_word, merge, split, elision, casing, number, debris,
    normalisation, whitespace that is not a line break) is
    ``<choice><sic>before</sic><corr resp="#pipeline" cert="high|medium|low" type="KIND" subtype="METHOD">after</corr></choice>``
    (``choice`` has no ``@type`` in TEI, so kind and method sit on ``corr``);
    removed debris is an empty ``<corr/>``.
  - whole lines of web-page debris (``debris`` corrections that delete entire lines) are omitted
    from the TEI; the header (``editorialDecl/correction/note``) says how many and where.
* ``Cleaned.regularisations`` (historical spellings the reading text keeps) are
  ``<choice><orig>ayent</orig><reg resp="#pipeline" type="modern">aient</reg></choice>``:
  the reading view takes ``orig`` (the reading text keeps the historical spelling, as the gold
  does); ``reg`` is the modern form for search.
* ``Cleaned.flags`` (words left as printed for review) are ``<seg type="flag" cert=.. xml:id=..>``;
  the reason and candidates are listed in ``back/div[@type="flags"]`` (``ref/@target`` to the seg).
* Footnote markers that stay in the text ("[6]") are ``<ref type="footnote" n="6">[6]</ref>``; a marker the
  cleaning took out of the reading text (a ``footnote`` correction) is that ref in ``sic``, and where the
  witness names its notes file (``notes`` in ``corpus/witnesses.toml``) the note itself follows at that place,
  ``<note type="footnote" place="foot" n="49" xml:id="<witness>.note-49">`` (its paragraphs as ``p``), the
  ref pointing to it.  Notes are in neither the reading nor the diplomatic view of the text.
* Italics a transcription typed as Markdown (``markup`` corrections, ``_a_``) are ``<hi rend="italic">a</hi>``,
  the underscores left out (the diplomatic view of read.py gives them back); in a note's text too.
* Laws are ``div type="law|clause|rule" n=.. xml:id=<law id>``; clauses nest in their parent
  law's div.  The printed number (the part of the law's span before ``Law.text``) is
  ``<num type="law" value="10">...</num>`` (the printed form inside, with its correction if any) in the
  div's ``head``; a number printed otherwise than read (``io».``) is
  ``<choice><orig>io».</orig><reg resp="#pipeline" type="number">10.</reg></choice>`` inside the ``num``.
  A law or rule with no printed number (an unnumbered rule, a witness that opens inside a law) has the
  editor's head, ``<head n=..><supplied reason=..>rule 1</supplied></head>``, in neither view.
* One ``pb`` a page: the body opens with the first page's ``pb`` unless the text opens with its own page
  break (a transcription's ``{166}``).
  headings are ``div type="section"`` with ``head``; other material ``div type="front|other"``.
  Whitespace between laws is kept verbatim at the end of the preceding paragraph, so the reading
  view gives back the cleaned text exactly.
* Pointers: inside one file ``#id``; across files ``<file>#id`` with the file name relative to
  the TEI folder (``fr-000.xml#ecarte.fr-000.law-10``).  Law ids, link ids and all ids in
  ``text``/``standOff`` are unique across the edition; ids declared in a ``teiHeader``
  (the ``#pipeline`` application that ``@resp`` points to) are local to their file.
"""
