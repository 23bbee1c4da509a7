// The replay viewer: reads a game's JSON export (docs/replay-json.md) and
// draws the table at one position. Positions run hand by hand: the fresh
// deal, then the table after each action of that hand.
// Every view comes from the export; a seat's view shows only what the engine
// let that seat see, the full view shows each seat's own cards at once.
//
// The export comes from the page itself (a #game-data element: the live
// page's viewer), or, on the report's one viewer page (viewer.html#GAME), from
// games/GAME.js, loaded on demand: a page opened from disk may not fetch a
// file, but it may load a script that lies beside it.
(function () {
  "use strict";
  var inline = document.getElementById("game-data");
  if (inline) { start(JSON.parse(inline.textContent)); return; }

  function fail(text) {
    var box = document.getElementById("replay-error");
    box.textContent = text;
    box.hidden = false;
    document.getElementById("viewer").hidden = true;
  }
  var name = decodeURIComponent(window.location.hash.slice(1));
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) { fail("No game chosen: open a game from the list of games."); return; }
  window.trucoGame = function (data) {
    if (data.error !== undefined) { fail("This game cannot be replayed: " + data.error); return; }
    var info = data.info;
    document.title = info.game_id + ": " + info.bots[0] + " vs " + info.bots[1];
    document.getElementById("game-title").textContent = info.bots[0] + " vs " + info.bots[1];
    document.getElementById("game-meta").textContent = "game " + info.game_id + " · seed " + info.seed + " · " +
      info.scores.join("–") + " · ended by " + info.termination + (info.reason ? " (" + info.reason + ")" : "");
    start(data);
  };
  var script = document.createElement("script");
  script.src = "games/" + name + ".js";
  script.onerror = function () { fail("This game is not in the report (see its list of games)."); };
  document.body.appendChild(script);
  window.addEventListener("hashchange", function () { window.location.reload(); });

  function start(game) {
    var bots = game.info.bots;
    var seats = game.info.options.seats;
    var positions = [];
    game.hands.forEach(function (hand, h) {
      positions.push({ hand: h, step: null });
      for (var s = hand.first_step; s <= hand.last_step; s++) positions.push({ hand: h, step: s });
    });
    var state = { pos: 0, view: "full" };
    var SUITS = { E: "espadas", B: "bastos", O: "oros", C: "copas" };

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
    function seatName(s) { return "seat " + s + " (" + (bots[s] || "?") + ")"; }
    function clear(id) { var node = document.getElementById(id); node.innerHTML = ""; return node; }

    function viewsAt(p) { return p.step === null ? game.hands[p.hand].start : game.steps[p.step].views; }
    // The view whose public facts are drawn: a seat's own view, else the spectator's.
    function tableView(views) {
      if (state.view === "full" || state.view === "public") return views.public;
      return views.seats[Number(state.view)] || views.public;
    }
    // The cards drawn face up for seat s: only those the chosen onlooker saw.
    function visibleCards(views, s) {
      if (state.view === "full") return views.seats[s] ? views.seats[s].cards[s] : null;
      if (state.view === "public") return null;
      var v = views.seats[Number(state.view)];
      return v ? v.cards[s] : null;
    }

    function render() {
      var p = positions[state.pos];
      var hand = game.hands[p.hand];
      var views = viewsAt(p);
      var v = tableView(views);

      document.getElementById("position").textContent =
        "hand " + (p.hand + 1) + " of " + game.hands.length + " · " +
        (p.step === null ? "deal" : "step " + (p.step + 1) + " of " + game.steps.length);
      document.getElementById("hand-select").value = String(p.hand);

      var board = clear("scoreboard");
      for (var t = 0; t < 2; t++) {
        var team = el("span", { "class": "team" }, (bots[t] || "team " + t) + " ");
        team.appendChild(el("strong", { id: "score-" + t }, String(v.scores[t])));
        board.appendChild(team);
      }
      board.appendChild(el("span", { "class": "target" }, "to " + game.info.options.target));

      var last = clear("last-action");
      if (p.step !== null) {
        var step = game.steps[p.step];
        last.textContent = seatName(step.seat) + ": " + step.action;
        // What the action caused, as the referee announced it to everybody (tricks, points, shown cards).
        var caused = step.events.filter(function (e) { return e !== step.seat + " " + step.action; });
        if (caused.length) last.appendChild(el("span", { "class": "caused" }, " → " + caused.join(" · ")));
        // What the bot wrote to stderr while choosing this action (the organizer's
        // report only): shown as text, never as markup.
        if (step.stderr) {
          last.appendChild(el("div", { "class": "stderr-label" }, seatName(step.seat) + " wrote on stderr:"));
          last.appendChild(el("pre", { "class": "bot-stderr", id: "step-stderr" }, step.stderr));
        }
      } else {
        last.textContent = "cards dealt, " + seatName(hand.mano) + " is mano";
      }

      var seatBox = clear("seats");
      for (var s = 0; s < seats; s++) {
        var box = el("div", { "class": "seat" + (v.to_act === s ? " to-act" : ""), id: "seat-" + s });
        box.appendChild(el("div", { "class": "name" }, seatName(s) + (v.mano === s ? " · mano" : "") + (v.to_act === s ? " · to act" : "")));
        var cardsBox = el("div", { "class": "cards", id: "seat-" + s + "-cards" });
        var faces = visibleCards(views, s);
        if (faces) faces.forEach(function (c) { cardsBox.appendChild(card(c)); });
        else for (var k = 0; k < v.cards_left[s]; k++) cardsBox.appendChild(back());
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
      // A call left open when the game ended (the target reached on an envido) waits for nobody.
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

      var points = clear("points");
      var head = el("tr");
      ["", bots[0] || "team 0", bots[1] || "team 1"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      points.appendChild(head);
      ["flor", "envido", "truco"].forEach(function (cat) {
        var totals = [0, 0];
        hand.scored.forEach(function (e) {
          if (e.category === cat && p.step !== null && e.step <= p.step) totals[e.team] += e.points;
        });
        var row = el("tr", { id: "points-" + cat });
        row.appendChild(el("th", {}, cat));
        row.appendChild(el("td", {}, String(totals[0])));
        row.appendChild(el("td", {}, String(totals[1])));
        points.appendChild(row);
      });

      var log = clear("log");
      v.log.forEach(function (line) { log.appendChild(el("li", {}, line)); });
    }

    function go(pos) { state.pos = Math.max(0, Math.min(positions.length - 1, pos)); render(); }
    function jumpToHand(h) {
      for (var i = 0; i < positions.length; i++) if (positions[i].hand === h) { go(i); return; }
    }

    var handSelect = document.getElementById("hand-select");
    game.hands.forEach(function (hand, h) {
      handSelect.appendChild(el("option", { value: String(h) }, (h + 1) + " (" + hand.start_scores.join("–") + ")"));
    });
    var viewSelect = document.getElementById("view-select");
    viewSelect.appendChild(el("option", { value: "full" }, "full (every seat's cards)"));
    viewSelect.appendChild(el("option", { value: "public" }, "spectator"));
    for (var s = 0; s < seats; s++) viewSelect.appendChild(el("option", { value: String(s) }, "as " + seatName(s)));

    document.getElementById("first").addEventListener("click", function () { go(0); });
    document.getElementById("prev").addEventListener("click", function () { go(state.pos - 1); });
    document.getElementById("next").addEventListener("click", function () { go(state.pos + 1); });
    document.getElementById("last").addEventListener("click", function () { go(positions.length - 1); });
    handSelect.addEventListener("change", function () { jumpToHand(Number(handSelect.value)); });
    viewSelect.addEventListener("change", function () { state.view = viewSelect.value; render(); });
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") return;  // the arrows choose an option there
      if (e.key === "ArrowRight") go(state.pos + 1);
      if (e.key === "ArrowLeft") go(state.pos - 1);
    });
    render();
  }
})();
