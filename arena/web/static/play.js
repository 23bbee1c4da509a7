// The play page: polls the seat's state and sends the person's clicks.
// Everything shown comes from /state, which holds only what the arena sent
// this seat; text is set with textContent, never parsed as markup.
"use strict";
(function () {
  const base = location.pathname.replace(/[^/]*$/, "");  // /s/KEY/
  const $ = (id) => document.getElementById(id);
  let shownDecision = -1;
  let acknowledged = 0;      // the last finished game the person has seen and left
  let decisionSince = 0;     // when the current decision appeared, for the clock
  let last = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function clear(id) { const e = $(id); while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function who(seat, mySeat) {
    const names = last && last.game ? last.game.bots : [];
    if (seat === mySeat) return "You";
    if (seat % 2 === mySeat % 2) return "Partner (seat " + seat + ")";
    return (names[seat] || "Seat " + seat) + " (seat " + seat + ")";
  }

  async function send(path) {
    $("message").textContent = "";
    try {
      const r = await fetch(base + path, { cache: "no-store" });
      const body = await r.json();
      if (!r.ok) $("message").textContent = body.error || ("refused (" + r.status + ")");
      return r.ok;
    } catch (e) {
      $("message").textContent = "could not reach the arena: " + e;
      return false;
    }
  }

  async function act(decision, action) {
    $("message").textContent = "";
    const url = base + "act/" + decision + "/" + encodeURIComponent(action);
    try {
      const r = await fetch(url, { cache: "no-store" });
      const body = await r.json();
      if (!r.ok) $("message").textContent = body.error || ("refused (" + r.status + ")");
    } catch (e) {
      $("message").textContent = "could not reach the arena: " + e;
    }
    poll();
  }

  function renderGame(s) {
    const g = s.game;
    const o = s.obs;
    const prev = s.previous;
    const unseen = prev && acknowledged < prev.number;  // a finished game the person has not left yet
    if (unseen) {
      const verdict = prev.won === true ? "You won" : prev.won === false ? "You lost" : "The game was interrupted";
      $("result").textContent = "Game " + prev.number + ": " + verdict + " " + prev.scores[prev.seat % 2] + " to " +
        prev.scores[1 - prev.seat % 2] + ".";
      const more = prev.number < s.games;
      $("next").hidden = !more;
      $("last").hidden = (more && !s.league) || s.ended;
      $("another-button").hidden = !!s.league;  // a league pairs the next game by itself
      if (s.ended) $("result").textContent += " The session is over: you can close this page.";
      clear("actions");
      $("turn").textContent = "";
      $("clock").textContent = "";
      shownDecision = -1;
      return;
    }
    $("result").textContent = "";
    $("next").hidden = true;
    $("last").hidden = true;
    const them = g.bots.filter((b, i) => i % 2 !== g.seat % 2);
    const partners = g.bots.map((b, i) => i).filter((i) => i !== g.seat && i % 2 === g.seat % 2);
    $("status").textContent = "Game " + g.number + (s.league ? "" : " of " + s.games) + " (" + g.variant + "), you are seat " + g.seat +
      (partners.length === 1 ? " with a partner in seat " + partners[0] : "") +
      (partners.length > 1 ? " with partners in seats " + partners.join(" and ") : "") + " against " +
      Array.from(new Set(them)).join(", ");
    const summaries = clear("summaries");
    for (const h of g.summaries) {
      const li = el("li", "Hand " + h.hand + ": score " + h.scores[g.seat % 2] + "-" + h.scores[1 - g.seat % 2]);
      for (const sh of h.shown) li.appendChild(el("span", " | " + who(sh.seat, g.seat) + " showed " + sh.cards.map((c) => c.label).join(", ")));
      summaries.appendChild(li);
    }
    if (!o) {
      $("turn").textContent = g.result ? "" : "The bot is thinking...";
      clear("actions");
      $("clock").textContent = "";
      return;
    }
    $("score").textContent = "You " + o.scores[o.team] + " - " + o.scores[1 - o.team] + " them (to " + o.target + ")";
    $("up-row").hidden = !o.up_card;
    if (o.up_card) {
      $("up-name").textContent = g.variant === "venezolano" ? "Vira" : "Muestra";
      clear("up").appendChild(el("span", o.up_card.label, "card"));
    }
    const hand = clear("hand");
    o.hand.forEach((c, i) => hand.appendChild(el("span", (i + 1) + ": " + c.label, "card")));
    const tricks = clear("tricks");
    o.tricks.forEach((t, i) => {
      const tr = el("tr");
      tr.appendChild(el("td", "Trick " + (i + 1)));
      for (const p of t) tr.appendChild(el("td", who(p.seat, o.seat) + ": " + p.card.label, p.seat === o.seat ? "mine" : ""));
      const w = o.trick_winners[i];
      if (i < o.trick_winners.length) tr.appendChild(el("td", w === null ? "parda" : (w === o.team ? "yours" : "theirs")));
      tricks.appendChild(tr);
    });
    const history = clear("history");
    for (const h of o.history) history.appendChild(el("li", who(h.seat, o.seat) + ": " + h.label));
    for (const a of o.announced) history.appendChild(el("li", who(a.seat, o.seat) + " sang " + a.points + " (" + a.what + ")"));
    $("turn").textContent = "Your turn" + (o.pending ? " (answer the " + o.pending.chain + ")" : "");
    if (s.decision !== shownDecision) {
      shownDecision = s.decision;
      decisionSince = Date.now();
      const actions = clear("actions");
      for (const a of o.legal) {
        const b = el("button", a.label, a.card ? "card-action" : "");
        b.type = "button";
        b.dataset.action = a.action;
        b.addEventListener("click", () => { for (const x of actions.querySelectorAll("button")) x.disabled = true; act(s.decision, a.action); });
        actions.appendChild(b);
      }
    }
  }

  function render(s) {
    last = s;
    if (!s.game) return;
    renderGame(s);
  }

  function tick() {
    if (!last || !last.game || !last.obs || !last.game.move_seconds) { return; }
    const left = last.game.move_seconds - (Date.now() - decisionSince) / 1000;
    $("clock").textContent = "Clock: " + Math.max(0, left).toFixed(0) + " s for this move (then the bank)";
  }

  async function poll() {
    try {
      const r = await fetch(base + "state", { cache: "no-store" });
      if (r.ok) render(await r.json());
      else $("message").textContent = await r.text();
    } catch (e) { /* the arena has stopped: keep what is shown */ }
  }

  $("next-button").addEventListener("click", () => {
    if (last && last.previous) acknowledged = last.previous.number;
    if (last) render(last);
  });
  $("another-button").addEventListener("click", async () => {
    if (!last || !last.previous) return;
    const after = last.previous.number;
    if (await send("more/" + after)) { acknowledged = after; $("last").hidden = true; }
    poll();
  });
  $("end-button").addEventListener("click", async () => {
    await send("end");
    poll();
  });
  document.addEventListener("keydown", (ev) => {
    // 1, 2, 3 play the cards of the hand in the order shown.
    if (!last || !last.obs || !["1", "2", "3"].includes(ev.key)) return;
    const card = last.obs.hand[Number(ev.key) - 1];
    if (!card) return;
    const a = last.obs.legal.find((x) => x.card && x.action === "play " + card.text);
    if (a) act(last.decision, a.action);
  });
  setInterval(poll, 400);
  setInterval(tick, 250);
  poll();
})();
