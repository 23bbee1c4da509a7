// A Truco Arena stdio bot in JavaScript for Node.js (docs/protocol.md, "Stdio bots").
// Reads one JSON object per line; answers each decision with an action id.
// Its one idea: accept every bet, else play a card, never go to the mazo.
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "decision") return; // game_start, hand_end, game_end
  const legal = message.legal_actions;
  let id = legal.findIndex((a) => a.startsWith("quiero"));
  if (id < 0) id = legal.findIndex((a) => a.startsWith("play "));
  if (id < 0) id = 0;
  console.error(`js bot: ${legal[id]} with ${message.observation.hand.join(" ")}`);
  process.stdout.write(`${id}\n`);
});
