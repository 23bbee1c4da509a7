// A Truco Arena stdio bot in Rust (docs/protocol.md, "Stdio bots").
// Reads one JSON object per line; answers each decision with an action id.
// Its one idea: accept every bet, else play a card, never go to the mazo.
use std::io::{self, BufRead, Write};

// The texts of "legal_actions":["...","..."] (action texts hold no quotes).
fn legal_actions(line: &str) -> Vec<&str> {
    let start = line.find("\"legal_actions\":[").unwrap() + 17;
    let end = start + line[start..].find(']').unwrap();
    line[start..end].split(',').map(|a| a.trim_matches('"')).filter(|a| !a.is_empty()).collect()
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if !line.contains("\"type\":\"decision\"") {
            continue; // game_start, hand_end, game_end
        }
        let legal = legal_actions(&line);
        let id = legal.iter().position(|a| a.starts_with("quiero"))
            .or_else(|| legal.iter().position(|a| a.starts_with("play ")))
            .unwrap_or(0);
        eprintln!("rust bot: {}", legal[id]);
        writeln!(out, "{}", id).unwrap();
        out.flush().unwrap();
    }
}
