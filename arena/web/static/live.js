// The live page's games in progress and latest results: polls
// /api/live.json every second and redraws those two tables in place, so the
// page stays readable at any game rate. It reloads itself only once: from
// the page of a run with no game recorded yet, when the first is (the report
// below is otherwise as of the page's load). When the run has finished it
// says so and stops polling.
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  var body = document.querySelector("#live-games tbody");
  var latest = document.querySelector("#live-latest tbody");
  var recordedNote = document.getElementById("live-recorded");
  var rendered = Number(document.getElementById("live").getAttribute("data-recorded"));

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function drawGames(games) {
    body.innerHTML = "";
    games.forEach(function (g) {
      var row = el("tr", { "class": "live-game", "data-game": g.id });
      var link = el("td");
      link.appendChild(el("a", { "class": "live-link", href: "live/" + encodeURIComponent(g.id) },
                                 g.id.replace(/[|#]/g, ":")));  // the game id people type (docs/report.md)
      row.appendChild(link);
      row.appendChild(el("td", {}, g.bots[0]));
      row.appendChild(el("td", {}, g.bots[1]));
      row.appendChild(el("td", { "class": "live-score" }, g.scores[0] + "–" + g.scores[1]));
      row.appendChild(el("td", {}, String(g.target)));
      row.appendChild(el("td", { "class": "live-hand" }, String(g.hand)));
      row.appendChild(el("td", {}, String(g.step)));
      body.appendChild(row);
    });
  }

  function drawLatest(results) {
    latest.innerHTML = "";
    (results || []).forEach(function (r) {
      var row = el("tr", { "class": "live-result", "data-key": r.key });
      var link = el("td");
      link.appendChild(el("a", { href: r.page }, r.key));
      row.appendChild(link);
      row.appendChild(el("td", {}, r.bots[0]));
      row.appendChild(el("td", {}, r.bots[1]));
      row.appendChild(el("td", {}, r.scores[0] + "–" + r.scores[1]));
      row.appendChild(el("td", {}, r.winner === null ? "none" : r.winner));
      row.appendChild(el("td", {}, r.termination));
      latest.appendChild(row);
    });
  }

  function draw(data) {
    var recorded = data.recorded === null ? -1 : data.recorded;
    drawGames(data.games);
    drawLatest(data.latest);
    if (rendered < 1 && recorded >= 1) {  // the page without a report: load the report once there is one
      window.location.reload();
      return false;
    }
    if (recorded > rendered) {
      recordedNote.textContent = (recorded - Math.max(rendered, 0)) + " game(s) recorded since this page loaded " +
        "(" + recorded + " in all); the standings below are as of its load: reload for the latest.";
    }
    var when = " · updated " + new Date().toLocaleTimeString();
    if (data.finished) {
      status.textContent = "finished · " + (recorded < 0 ? "no game recorded" : recorded + " recorded") + when;
      status.setAttribute("data-finished", "1");
      return false;
    }
    status.textContent = data.games.length + " game(s) in progress · " +
      (recorded < 0 ? "no game recorded yet" : recorded + " recorded") + when;
    return true;
  }

  function poll() {
    var again = true;
    fetch("api/live.json", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) { again = draw(data); })
      .catch(function () { status.textContent = "the arena is not answering (stopped?)"; })
      .then(function () { if (again) window.setTimeout(poll, 1000); });
  }
  poll();
})();
