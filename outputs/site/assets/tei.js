// The CETEIcean view of a witness's TEI file: the document is in the page (a JSON string), CETEIcean turns it
// into tei-* elements, tei.css shows them; the checkbox switches the reading view and the printed/OCR form.
(function () {
  "use strict";
  var source = document.getElementById("tei-source");
  var host = document.getElementById("tei");
  if (!source || !host || !window.CETEI) {
    return;
  }
  var ceteicean = new window.CETEI();
  ceteicean.removeBehavior("tei", "note"); // notes stay at their markers (tei.css), not in brackets
  ceteicean.makeHTML5(JSON.parse(source.textContent), function (data) {
    host.appendChild(data);
    host.setAttribute("data-rendered", "");
  });
  var toggle = document.getElementById("tei-show-ocr");
  if (toggle) {
    toggle.addEventListener("change", function () {
      host.classList.toggle("ocr", toggle.checked);
      host.classList.toggle("reading", !toggle.checked);
    });
  }
})();
