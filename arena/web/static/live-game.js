// One running game, live: polls /api/game/ID.json every second and draws the
// spectator's view the server sends. The server sends only public facts, so
// other seats' cards are drawn as backs (their count is public).
(function () {
  "use strict";
  var gameId = document.getElementById("viewer").getAttribute("data-game");
  var status = document.getElementById("live-game-status");
  var SUITS = { E: "espadas", B: "bastos", O: "oros", C: "copas" };
  var over = false;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function card(code) {
    var suit = code.slice(-1);
    return el("span", { "class": "card suit-" + suit, "data-card": code, title: code.slice(0, -1) + " de " + SUITS[suit] }, code);
  }
  function back() { return el("span", { "class": "card back", title: "a card not seen" }, ""); }
  function clear(id) { var node = document.getElementById(id); node.innerHTML = ""; return node; }

  function draw(g) {
    var v = g.view;
    var bots = g.bots;
    function seatName(s) { return "seat " + s + " (" + (bots[s] || "?") + ")"; }
    document.getElementById("live-title").textContent = bots.join(" vs ");
    status.textContent = "game " + g.id + " · hand " + g.hand + " · " + g.step + " actions · updated " + new Date().toLocaleTimeString();

    var board = clear("scoreboard");
    for (var t = 0; t < 2; t++) {
      var team = el("span", { "class": "team" }, (bots[t] || "team " + t) + " ");
      team.appendChild(el("strong", { id: "score-" + t }, String(g.scores[t])));
      board.appendChild(team);
    }
    board.appendChild(el("span", { "class": "target" }, "to " + g.target));

    var seatBox = clear("seats");
    for (var s = 0; s < v.cards_left.length; s++) {
      var box = el("div", { "class": "seat" + (v.to_act === s ? " to-act" : ""), id: "seat-" + s });
      box.appendChild(el("div", { "class": "name" }, seatName(s) + (v.mano === s ? " · mano" : "") + (v.to_act === s ? " · to act" : "")));
      var cardsBox = el("div", { "class": "cards", id: "seat-" + s + "-cards" });
      for (var k = 0; k < v.cards_left[s]; k++) cardsBox.appendChild(back());
      box.appendChild(cardsBox);
      seatBox.appendChild(box);
    }
    var up = clear("up-card");
    if (v.up_card) up.appendChild(card(v.up_card)); else up.textContent = "none";

    var tricks = clear("tricks");
    v.tricks.forEach(function (trick, i) {
      var row = el("div", { "class": "trick", id: "trick-" + i });
      row.appendChild(el("span", { "class": "label" }, "trick " + (i + 1)));
      trick.cards.forEach(function (pc) {
        var played = el("span", { "class": "played" }, "s" + pc.seat + " ");
        played.appendChild(card(pc.card));
        row.appendChild(played);
      });
      var result = !trick.finished ? "" : trick.winner_team === null ? "parda" : "won by " + (bots[trick.winner_team] || "team " + trick.winner_team);
      row.appendChild(el("span", { "class": "result" }, result));
      tricks.appendChild(row);
    });

    var calls = clear("calls");
    v.history.forEach(function (c) { calls.appendChild(el("li", {}, seatName(c.seat) + ": " + c.action)); });
    document.getElementById("pending").textContent = v.pending && v.to_act !== null
      ? "waiting: " + seatName(v.pending.answerer) + " must answer " + v.pending.calls.join(", ") : "";
    var announced = clear("announced");
    v.announced.forEach(function (a) { announced.appendChild(el("div", {}, seatName(a.seat) + " says " + a.what + " " + a.points)); });
    var shown = clear("shown");
    v.shown.forEach(function (sc) {
      var line = el("div", { "class": "shown", id: "shown-" + sc.seat }, seatName(sc.seat) + " shows ");
      sc.cards.forEach(function (c) { line.appendChild(card(c)); });
      shown.appendChild(line);
    });
    document.getElementById("hand-info").textContent = "hand " + g.hand + ", " + seatName(v.mano) + " is mano" +
      (v.to_act !== null ? "; " + seatName(v.to_act) + " to act" : "");
    var log = clear("log");
    v.log.forEach(function (line) { log.appendChild(el("li", {}, line)); });
  }

  function poll() {
    fetch("../api/game/" + encodeURIComponent(gameId) + ".json", { cache: "no-store" })
      .then(function (r) {
        if (r.status === 404) {
          over = true;
          status.innerHTML = "";
          status.appendChild(document.createTextNode("this game is over (or not running): its replay is on the "));
          status.appendChild(el("a", { href: "../index.html#games" }, "live page's game list"));
          status.setAttribute("data-over", "1");
          return;
        }
        return r.json().then(function (g) {
          if (g.pending) { status.textContent = "game " + g.id + " · loading…"; return; }
          draw(g);
        });
      })
      .catch(function () { status.textContent = "the arena is not answering (stopped?)"; })
      .then(function () { if (!over) window.setTimeout(poll, 1000); });
  }
  poll();
})();
