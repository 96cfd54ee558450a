// The reading edition's only script: filters on the index, the view toggle on witness pages.
// It reads the page's own DOM; it never builds HTML from corpus text (textContent only).
(function () {
  "use strict";
  function fold(s) {
    return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  // ---- index: filter by game, witness and text
  function setupFilters() {
    var game = document.getElementById("f-game");
    var text = document.getElementById("f-text");
    var count = document.getElementById("f-count");
    if (!game || !text) return;
    var boxes = Array.prototype.slice.call(document.querySelectorAll("input.wfilter"));
    function apply() {
      var g = game.value;
      var q = fold(text.value.trim());
      var off = {};
      boxes.forEach(function (b) { if (!b.checked) off[b.value] = true; });
      document.querySelectorAll("section.game").forEach(function (sec) {
        sec.classList.toggle("hidden-by-filter", !!g && sec.getAttribute("data-game") !== g);
      });
      document.querySelectorAll("ul.witnesses li, form.filters label[data-game]").forEach(function (el) {
        el.classList.toggle("hidden-by-filter", !!g && el.getAttribute("data-game") !== g);
      });
      document.querySelectorAll("table.synoptic [data-witness]").forEach(function (cell) {
        if (cell.tagName === "TD" || cell.tagName === "TH")
          cell.classList.toggle("hidden-by-filter", !!off[cell.getAttribute("data-witness")]);
      });
      var shown = 0, total = 0;
      document.querySelectorAll("table.synoptic tbody tr").forEach(function (tr) {
        var sec = tr.closest("section.game");
        if (sec && sec.classList.contains("hidden-by-filter")) return;
        total++;
        var hay = "";
        tr.querySelectorAll("td").forEach(function (td) {
          // data-search: the cell's reading and printed forms, folded, and the glossary's other-language terms
          if (!off[td.getAttribute("data-witness")]) hay += " " + (td.getAttribute("data-search") || fold(td.textContent));
        });
        var ok = !q || hay.indexOf(q) >= 0;
        tr.classList.toggle("hidden-by-filter", !ok);
        if (ok) shown++;
      });
      if (count) count.textContent = shown + " of " + total + " provisions shown";
    }
    game.addEventListener("change", apply);
    text.addEventListener("input", apply);
    boxes.forEach(function (b) { b.addEventListener("change", apply); });
    apply();
  }

  // ---- witness pages: reading <-> diplomatic
  function setupToggle() {
    var btn = document.getElementById("view-toggle");
    var reading = document.getElementById("reading");
    var dipl = document.getElementById("diplomatic");
    var name = document.getElementById("view-name");
    if (!btn || !reading || !dipl) return;
    function show(diplomatic) {
      reading.hidden = diplomatic;
      dipl.hidden = !diplomatic;
      btn.setAttribute("aria-pressed", diplomatic ? "true" : "false");
      btn.textContent = diplomatic ? "Show reading view" : "Show diplomatic view";
      if (name) name.textContent = diplomatic ? "Diplomatic view" : "Reading view";
    }
    btn.addEventListener("click", function () { show(reading.hidden === false); });
    if (location.hash === "#diplomatic") show(true);
  }

  // ---- tooltips: Escape leaves a focused highlight
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && document.activeElement && document.activeElement.classList &&
        document.activeElement.classList.contains("tip")) document.activeElement.blur();
  });

  // ---- "cite this law": without a base_url in corpus/edition.toml, the absolute address the page was opened from
  function setupCitations() {
    document.querySelectorAll("a.cite-url[data-absolute='from-page']").forEach(function (a) {
      a.textContent = a.href;  // the href resolved against the page's own address
    });
  }

  // ---- a jump into a synoptic table: the table's top (its witness headers) below the sticky filter bar, and the
  // law or row right below the headers (the browser alone scrolls the table's own box to the top of the window)
  function landInTable() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var wrap = target && target.closest(".table-wrap");
    if (!wrap || getComputedStyle(wrap).overflowY === "visible") return;  // phones: one card per row, no headers
    var bar = document.querySelector("form.filters");
    var barHeight = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
    var head = wrap.querySelector("thead");
    var headHeight = head ? head.getBoundingClientRect().height : 0;
    var gap = 6;
    wrap.scrollTop += target.getBoundingClientRect().top - wrap.getBoundingClientRect().top - headHeight - gap;
    window.scrollBy(0, wrap.getBoundingClientRect().top - barHeight - gap);
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupFilters(); setupToggle(); setupCitations(); landInTable();
  });
  window.addEventListener("load", landInTable);
  window.addEventListener("hashchange", landInTable);
})();
