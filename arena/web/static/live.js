// The live page's games in progress: polls /api/live.json every two seconds
// and redraws the table; when the number of recorded games changes, the page
// reloads so the report below (standings, charts, games) is recomputed.
(function () {
  "use strict";
  var section = document.getElementById("live");
  var rendered = Number(section.getAttribute("data-recorded"));
  var status = document.getElementById("live-status");
  var body = document.querySelector("#live-games tbody");

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function draw(data) {
    var recorded = data.recorded === null ? -1 : data.recorded;
    if (recorded !== rendered) { window.location.reload(); return; }
    body.innerHTML = "";
    data.games.forEach(function (g) {
      var row = el("tr", { "class": "live-game", "data-game": g.id });
      var link = el("td");
      link.appendChild(el("a", { "class": "live-link", href: "live/" + encodeURIComponent(g.id) }, g.id));
      row.appendChild(link);
      row.appendChild(el("td", {}, g.bots[0]));
      row.appendChild(el("td", {}, g.bots[1]));
      row.appendChild(el("td", { "class": "live-score" }, g.scores[0] + "–" + g.scores[1]));
      row.appendChild(el("td", {}, String(g.target)));
      row.appendChild(el("td", { "class": "live-hand" }, String(g.hand)));
      row.appendChild(el("td", {}, String(g.step)));
      body.appendChild(row);
    });
    status.textContent = data.games.length + " game(s) in progress · " +
      (recorded < 0 ? "no game recorded yet" : recorded + " recorded") + " · updated " + new Date().toLocaleTimeString();
  }

  function poll() {
    fetch("api/live.json", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(draw)
      .catch(function () { status.textContent = "the arena is not answering (stopped?)"; })
      .then(function () { window.setTimeout(poll, 2000); });
  }
  poll();
})();
