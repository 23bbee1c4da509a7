// A Truco Arena stdio bot in Go (docs/protocol.md, "Stdio bots").
// Reads one JSON object per line; answers each decision with an action id.
// Its one idea: accept every bet, else play a card, never go to the mazo.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type message struct {
	Type         string   `json:"type"`
	LegalActions []string `json:"legal_actions"`
}

func first(legal []string, prefix string) int {
	for i, a := range legal {
		if strings.HasPrefix(a, prefix) {
			return i
		}
	}
	return -1
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil || m.Type != "decision" {
			continue // game_start, hand_end, game_end
		}
		id := first(m.LegalActions, "quiero")
		if id < 0 {
			id = first(m.LegalActions, "play ")
		}
		if id < 0 {
			id = 0
		}
		fmt.Fprintln(os.Stderr, "go bot:", m.LegalActions[id])
		fmt.Println(id) // os.Stdout is not buffered: the line goes at once
	}
}
