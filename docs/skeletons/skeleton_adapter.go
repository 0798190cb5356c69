// A minimal Crescent adapter (spec/protocol.md) in Go, to copy and fill in: docs/writing-an-adapter.md.
//
//	crescent-conformance smoke --cmd "go run docs/skeletons/skeleton_adapter.go"
//
// It speaks the whole protocol loop of version 3: the handshake, new_game, act, stop, the state on
// demand and batches; one JSON line a reply on stdout, everything else on stderr. The rules live in
// YourEngine below: as shipped it can only load a position and report it, and answers every action
// with "skipped" ("not implemented yet"), so the kit runs what it can (the scenarios that check a
// starting position) and skips the rest.
// Replace its methods with calls into your game. Go 1.19 or later, standard library only; build it
// once (go build -o my-adapter skeleton_adapter.go) to start faster than go run.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

var foundationBases = []string{"A♠", "A♥", "A♦", "A♣", "K♠", "K♥", "K♦", "K♣"}

// NotImplementedYet is a request the engine cannot serve yet: the adapter answers "skipped", and
// the kit skips the scenario.
type NotImplementedYet struct{ What string }

func (e NotImplementedYet) Error() string { return e.What }

// Unreadable is a position the engine cannot read: new_game is answered "errored", "refused".
type Unreadable struct{ What string }

func (e Unreadable) Error() string { return e.What }

// Table is the table as the state JSON writes it (spec/interpreting.md), piles bottom card first.
type Table struct {
	Piles       [][]string        `json:"piles"`
	Hidden      []int             `json:"hidden"`
	Foundations map[string]string `json:"foundations"`
	Held        []string          `json:"held"`
	Reshuffles  int               `json:"reshuffles"`
	Moves       int               `json:"moves"`
}

// State is the canonical state JSON: the table, the status and the count on the foundations.
type State struct {
	Table
	Status          string `json:"status"`
	FoundationCards int    `json:"foundation_cards"`
}

// Outcome is what came of one action; the adapter adds the state. Reason and Effect are nil for null.
type Outcome struct {
	Accepted bool     `json:"accepted"`
	Reason   *string  `json:"reason"`
	Effect   *string  `json:"effect"`
	Moves    []string `json:"moves"`
}

// ---------------------------------------------------------------------------------------------
// YOUR ENGINE HERE: replace the body of each method with calls into your game.
// ---------------------------------------------------------------------------------------------

// YourEngine holds one game. As shipped: a table read from a position text that takes no actions.
type YourEngine struct{ table Table }

// NewGame sets up the game from a position text (spec/notation.md §5). If your engine can only
// deal, see "Loading a given position" in docs/writing-an-adapter.md.
func (e *YourEngine) NewGame(profile, position string) error {
	table, err := readPosition(position)
	if err != nil {
		return err
	}
	e.table = table
	return nil
}

// Act applies one action (canonical text: p10-p14, p5-A♠, reshuffle, undo, tap p5, drop p5).
func (e *YourEngine) Act(action string) (Outcome, error) {
	_, here, _, _ := runtime.Caller(0)
	return Outcome{}, NotImplementedYet{fmt.Sprintf("act '%s': not implemented yet (YOUR ENGINE HERE in %s)", action, here)}
}

// State is the canonical state JSON (spec/interpreting.md): read it off your engine's table.
func (e *YourEngine) State() State {
	return State{Table: e.table, Status: "playing", FoundationCards: foundationCards(e.table.Foundations)}
}

// ---------------------------------------------------------------------------------------------

// rank is a card's rank in canonical text: A=1 ... K=13.
func rank(card string) int {
	face := strings.TrimRight(card, "♠♥♦♣")
	switch face {
	case "A":
		return 1
	case "J":
		return 11
	case "Q":
		return 12
	case "K":
		return 13
	}
	n, _ := strconv.Atoi(face)
	return n
}

// foundationCards counts the cards on the eight foundations, from their top cards.
func foundationCards(tops map[string]string) int {
	n := 0
	for base, top := range tops {
		if strings.HasPrefix(base, "A") {
			n += rank(top)
		} else {
			n += 14 - rank(top)
		}
	}
	return n
}

// cards splits "8♦,5♠" into cards; "" and "-" are an empty pile.
func cards(text string) []string {
	if text == "" || text == "-" {
		return []string{}
	}
	return strings.Split(text, ",")
}

// readPosition reads a position text into the table, as the state JSON writes it.
func readPosition(text string) (Table, error) {
	fields := map[string]string{}
	for _, part := range strings.Fields(text) {
		name, value, found := strings.Cut(part, ":")
		if !found {
			return Table{}, Unreadable{fmt.Sprintf("not a field: %q in %q", part, text)}
		}
		fields[name] = value
	}
	for _, name := range []string{"up", "down", "piles", "reshuffles", "moves"} {
		if _, ok := fields[name]; !ok {
			return Table{}, Unreadable{fmt.Sprintf("position without %s: %q", name, text)}
		}
	}
	table := Table{Piles: [][]string{}, Hidden: []int{}, Foundations: map[string]string{}, Held: []string{}}
	for _, pile := range strings.Split(fields["piles"], "/") {
		faceDown := []string{}
		if strings.HasPrefix(pile, "[") {
			inside, rest, _ := strings.Cut(pile[1:], "],")
			faceDown, pile = strings.Split(inside, ","), rest
		}
		table.Piles = append(table.Piles, append(faceDown, cards(pile)...))
		table.Hidden = append(table.Hidden, len(faceDown))
	}
	tops := append(strings.Split(fields["up"], ","), strings.Split(fields["down"], ",")...)
	if len(tops) != len(foundationBases) {
		return Table{}, Unreadable{fmt.Sprintf("not eight foundations: %q", text)}
	}
	for i, base := range foundationBases {
		table.Foundations[base] = tops[i]
	}
	table.Held = cards(fields["held"])
	for name, into := range map[string]*int{"reshuffles": &table.Reshuffles, "moves": &table.Moves} {
		n, err := strconv.Atoi(fields[name])
		if err != nil {
			return Table{}, Unreadable{fmt.Sprintf("%s is not a number: %q", name, fields[name])}
		}
		*into = n
	}
	return table, nil
}

// hello is the handshake's reply (spec/protocol.md, Versions and Capabilities).
var hello = map[string]any{
	"version": 3,
	"implementation": map[string]any{
		"name":     "my-crescent", // your game's name and version
		"version":  "0.0.1",
		"language": "go",
		"profiles": []string{"app"}, // the rule profiles your game plays (spec/profiles.yaml)
		// What the adapter offers and observes; add "undo", "tap", "reasons", ... as it learns them, and
		// declare only what it really reports:
		// - "move-count", "reshuffle-count": State reports the game's own counters (drop one your game
		//   lacks); Status is always "playing" here, so "lost" is not declared;
		// - "state-on-demand": a request's "state" names the fields wanted (stateFor below);
		// - "batch": several requests in one line (answerBatch below). Both only make a run cheaper.
		"capabilities": []string{"move-count", "reshuffle-count", "state-on-demand", "batch"},
	},
}

// request is one request from the runner; Seq is echoed back as it came. State is nil when the
// request has no "state" (the whole state is wanted), else the fields wanted (state on demand).
type request struct {
	Cmd      string          `json:"cmd"`
	Seq      json.RawMessage `json:"seq"`
	Profile  string          `json:"profile"`
	Position *string         `json:"position"`
	Action   string          `json:"action"`
	State    *[]string       `json:"state"`
	Requests json.RawMessage `json:"requests"`
}

// readRequest reads one request; the second value is the "errored" answer when it cannot be read
// (then Seq is null unless the line is an object whose seq was read).
func readRequest(data []byte) (request, map[string]any) {
	req := request{}
	err := json.Unmarshal(data, &req)
	if req.Seq == nil {
		req.Seq = json.RawMessage("null")
	}
	var wrongType *json.UnmarshalTypeError
	switch {
	case err == nil:
		return req, nil
	case errors.As(err, &wrongType) && wrongType.Field != "":
		return req, map[string]any{"message": fmt.Sprintf("field %s: expected %s", wrongType.Field, wrongType.Type)}
	default:
		return req, map[string]any{"message": "not a JSON request object: " + err.Error()}
	}
}

// answerBatch answers a batch (spec/protocol.md, Batches): each request in order, as if it came
// alone, each answer without seq.
func answerBatch(engine *YourEngine, raw json.RawMessage) map[string]any {
	var requests []json.RawMessage
	if err := json.Unmarshal(raw, &requests); err != nil || requests == nil {
		return map[string]any{"errored": map[string]any{"message": "batch: requests is not a list"}}
	}
	replies := []map[string]any{}
	for _, one := range requests {
		if req, fault := readRequest(one); fault != nil {
			replies = append(replies, map[string]any{"errored": fault})
		} else {
			replies = append(replies, answer(engine, req))
		}
	}
	return map[string]any{"result": map[string]any{"replies": replies}}
}

// answer is the answer to one request: exactly one of "result", "skipped" or "errored" (no seq).
func answer(engine *YourEngine, req request) map[string]any {
	var result any
	var err error
	switch req.Cmd {
	case "new_game":
		if req.Position == nil {
			err = NotImplementedYet{"new_game from a game code: not implemented yet"}
		} else if err = engine.NewGame(req.Profile, *req.Position); err == nil {
			result = struct {
				State any `json:"state,omitempty"`
			}{stateFor(engine, req.State)}
		}
	case "act":
		var outcome Outcome
		if outcome, err = engine.Act(req.Action); err == nil {
			if outcome.Moves == nil {
				outcome.Moves = []string{}
			}
			result = struct {
				Outcome
				State any `json:"state,omitempty"`
			}{outcome, stateFor(engine, req.State)}
		}
	default:
		err = fmt.Errorf("unknown command %q", req.Cmd)
	}
	var skipped NotImplementedYet
	var unreadable Unreadable
	switch {
	case err == nil:
		return map[string]any{"result": result}
	case errors.As(err, &skipped):
		return map[string]any{"skipped": map[string]any{"message": err.Error()}}
	case errors.As(err, &unreadable):
		return map[string]any{"errored": map[string]any{"message": err.Error(), "refused": req.Cmd == "new_game"}}
	default:
		return map[string]any{"errored": map[string]any{"message": err.Error()}}
	}
}

// stateFor is the state a request asks for (state on demand): wanted nil, the whole state; a list
// of fields, only those; an empty list, none (nil, and the reply leaves "state" out).
func stateFor(engine *YourEngine, wanted *[]string) any {
	if wanted == nil {
		return engine.State()
	}
	if len(*wanted) == 0 {
		return nil
	}
	whole, _ := json.Marshal(engine.State()) // a State always marshals
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(whole, &fields)
	part := map[string]json.RawMessage{}
	for _, name := range *wanted {
		if value, found := fields[name]; found {
			part[name] = value
		}
	}
	return part
}

// main answers requests on stdin until stop: one JSON line each on stdout (os.Stdout is not buffered).
func main() {
	engine := &YourEngine{}
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 8<<20)
	for lines.Scan() {
		if strings.TrimSpace(lines.Text()) == "" {
			continue
		}
		var reply map[string]any
		switch req, fault := readRequest(lines.Bytes()); {
		case fault != nil:
			reply = map[string]any{"seq": req.Seq, "errored": fault}
		case req.Cmd == "stop":
			return
		case req.Cmd == "start":
			reply = hello
		case req.Cmd == "batch":
			reply = answerBatch(engine, req.Requests)
			reply["seq"] = req.Seq
		default:
			reply = answer(engine, req)
			reply["seq"] = req.Seq
		}
		line, err := json.Marshal(reply)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot write a reply:", err)
			os.Exit(1)
		}
		os.Stdout.Write(append(line, '\n'))
	}
}
