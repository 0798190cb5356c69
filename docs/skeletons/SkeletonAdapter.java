// A minimal Crescent adapter (spec/protocol.md) in Java, to copy and fill in: docs/writing-an-adapter.md.
//
//     crescent-conformance smoke --cmd "java docs/skeletons/SkeletonAdapter.java"
//
// It speaks the whole protocol loop of version 3: the handshake, new_game, act, stop, the state on
// demand and batches; one JSON line a reply on stdout, everything else on stderr. The rules live in
// YourEngine below: as shipped it can only load a position and report it, and answers every action
// with "skipped" ("not implemented yet"), so the kit runs what it can (the scenarios that check a
// starting position) and skips the rest.
// Replace its methods with calls into your game. Java 17 or later, no libraries: the protocol's
// JSON is small enough for the reader and writer at the end of this file (use your own library if
// the game has one). `java File.java` compiles and runs in one step; compile it once (javac) to
// start faster.

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class SkeletonAdapter {
    static final List<String> FOUNDATIONS = List.of("A♠", "A♥", "A♦", "A♣", "K♠", "K♥", "K♦", "K♣");

    /** A request the engine cannot serve yet: the adapter answers "skipped", the kit skips the scenario. */
    static final class NotImplementedYet extends Exception {
        NotImplementedYet(String message) { super(message); }
    }

    /** A position (or request) the engine cannot read: answered "errored", "refused" for new_game. */
    static final class Unreadable extends Exception {
        Unreadable(String message) { super(message); }
    }

    /** A request field of the wrong type (a "state" that is no list of names): "errored", nothing changed. */
    static final class Malformed extends Exception {
        Malformed(String message) { super(message); }
    }

    // -----------------------------------------------------------------------------------------
    // YOUR ENGINE HERE: replace the body of each method with calls into your game.
    // -----------------------------------------------------------------------------------------
    /** Holds one game. As shipped: a table read from a position text that takes no actions. */
    static final class YourEngine {
        private Map<String, Object> table = Map.of();

        /** Set up the game from a position text (spec/notation.md §5). If your engine can only
         *  deal, see "Loading a given position" in docs/writing-an-adapter.md. */
        void newGame(String profile, String position) throws Unreadable {
            table = readPosition(position);
        }

        /** Apply one action (canonical text: p10-p14, p5-A♠, reshuffle, undo, tap p5, drop p5).
         *  Return accepted, reason, effect and moves; the adapter adds the state. */
        Map<String, Object> act(String action) throws NotImplementedYet {
            throw new NotImplementedYet("act '" + action + "': not implemented yet (YOUR ENGINE HERE in SkeletonAdapter.java)");
        }

        /** The canonical state JSON (spec/interpreting.md): read it off your engine's table. */
        Map<String, Object> state() {
            Map<String, Object> state = new LinkedHashMap<>(table);
            state.put("status", "playing");
            @SuppressWarnings("unchecked")
            Map<String, String> tops = (Map<String, String>) table.get("foundations");
            state.put("foundation_cards", foundationCards(tops));
            return state;
        }
    }
    // -----------------------------------------------------------------------------------------

    /** The rank of a card in canonical text: A=1 ... K=13. */
    static int rank(String card) {
        String face = card.substring(0, card.length() - 1);
        return switch (face) {
            case "A" -> 1;
            case "J" -> 11;
            case "Q" -> 12;
            case "K" -> 13;
            default -> Integer.parseInt(face);
        };
    }

    /** Cards on the eight foundations, from their top cards. */
    static int foundationCards(Map<String, String> tops) {
        int n = 0;
        for (var entry : tops.entrySet()) {
            n += entry.getKey().startsWith("A") ? rank(entry.getValue()) : 14 - rank(entry.getValue());
        }
        return n;
    }

    /** "8♦,5♠" as a list of cards; "" and "-" are an empty pile. */
    static List<Object> cards(String text) {
        return text.isEmpty() || text.equals("-") ? new ArrayList<>() : new ArrayList<>(List.of(text.split(",")));
    }

    /** The table of a position text, as the state JSON writes it (piles bottom card first). */
    static Map<String, Object> readPosition(String text) throws Unreadable {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String part : text.trim().split("\\s+")) {
            int colon = part.indexOf(':');
            if (colon < 0) throw new Unreadable("not a field: '" + part + "' in '" + text + "'");
            fields.put(part.substring(0, colon), part.substring(colon + 1));
        }
        for (String name : List.of("up", "down", "piles", "reshuffles", "moves")) {
            if (!fields.containsKey(name)) throw new Unreadable("position without " + name + ": '" + text + "'");
        }
        List<Object> piles = new ArrayList<>();
        List<Object> hidden = new ArrayList<>();
        for (String pile : fields.get("piles").split("/", -1)) {
            List<Object> cards = new ArrayList<>();
            if (pile.startsWith("[")) {
                int close = pile.indexOf("],");
                if (close < 0) throw new Unreadable("face-down cards without '],': '" + pile + "'");
                cards = cards(pile.substring(1, close));
                pile = pile.substring(close + 2);
            }
            hidden.add(cards.size());
            cards.addAll(cards(pile));
            piles.add(cards);
        }
        String[] tops = (fields.get("up") + "," + fields.get("down")).split(",");
        if (tops.length != FOUNDATIONS.size()) throw new Unreadable("not eight foundations: '" + text + "'");
        Map<String, Object> foundations = new LinkedHashMap<>();
        for (int i = 0; i < tops.length; i++) foundations.put(FOUNDATIONS.get(i), tops[i]);
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("piles", piles);
        table.put("hidden", hidden);
        table.put("foundations", foundations);
        table.put("held", cards(fields.getOrDefault("held", "")));
        try {
            table.put("reshuffles", Integer.parseInt(fields.get("reshuffles")));
            table.put("moves", Integer.parseInt(fields.get("moves")));
        } catch (NumberFormatException e) {
            throw new Unreadable("not a number in '" + text + "': " + e.getMessage());
        }
        return table;
    }

    /** The handshake's reply (spec/protocol.md, Versions and Capabilities). */
    static Map<String, Object> hello() {
        Map<String, Object> implementation = new LinkedHashMap<>();
        implementation.put("name", "my-crescent"); // your game's name and version
        implementation.put("version", "0.0.1");
        implementation.put("language", "java");
        implementation.put("profiles", List.of("app")); // the rule profiles your game plays (spec/profiles.yaml)
        // What the adapter offers and observes; add "undo", "tap", "reasons", ... as it learns them, and
        // declare only what it really reports:
        // - "move-count", "reshuffle-count": state() reports the game's own counters (drop one your game
        //   lacks); status is always "playing" here, so "lost" is not declared;
        // - "state-on-demand": a request's "state" names the fields wanted (withState below);
        // - "batch": several requests in one line (answerBatch below). Both only make a run cheaper.
        implementation.put("capabilities", List.of("move-count", "reshuffle-count", "state-on-demand", "batch"));
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("version", 3);
        hello.put("implementation", implementation);
        return hello;
    }

    /** The reply to one request line (not start or stop): the seq echoed as it came, then the answer. */
    static Map<String, Object> replyTo(YourEngine engine, Map<?, ?> request) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("seq", request.get("seq"));
        boolean batch = "batch".equals(request.get("cmd"));
        reply.putAll(batch ? answerBatch(engine, request.get("requests")) : answer(engine, request));
        return reply;
    }

    /** A batch (spec/protocol.md, Batches): each request answered in order as if it came alone, without seq. */
    static Map<String, Object> answerBatch(YourEngine engine, Object requests) {
        if (!(requests instanceof List<?> list)) {
            return Map.of("errored", Map.of("message", "batch: requests is not a list"));
        }
        List<Object> replies = new ArrayList<>();
        for (Object one : list) {
            replies.add(one instanceof Map<?, ?> request
                    ? answer(engine, request)
                    : Map.of("errored", Map.of("message", "batch: a request that is not an object")));
        }
        return Map.of("result", Map.of("replies", replies));
    }

    /** The answer to one request: exactly one of result, skipped or errored. */
    static Map<String, Object> answer(YourEngine engine, Map<?, ?> request) {
        Object cmd = request.get("cmd");
        try {
            if ("new_game".equals(cmd)) {
                List<?> wanted = wantedFields(request);
                if (!(request.get("position") instanceof String position)) {
                    throw new NotImplementedYet("new_game from a game code: not implemented yet");
                }
                engine.newGame(String.valueOf(request.get("profile")), position);
                return Map.of("result", withState(new LinkedHashMap<>(), engine, wanted));
            }
            if ("act".equals(cmd)) {
                List<?> wanted = wantedFields(request);
                Map<String, Object> outcome = engine.act(String.valueOf(request.get("action")));
                return Map.of("result", withState(new LinkedHashMap<>(outcome), engine, wanted));
            }
            return Map.of("errored", Map.of("message", "unknown command " + Json.write(cmd)));
        } catch (NotImplementedYet e) {
            return Map.of("skipped", Map.of("message", e.getMessage()));
        } catch (Malformed e) {
            return Map.of("errored", Map.of("message", e.getMessage()));
        } catch (Unreadable e) {
            return Map.of("errored", Map.of("message", e.getMessage(), "refused", "new_game".equals(cmd)));
        } catch (RuntimeException e) {
            e.printStackTrace(); // stderr only: stdout carries replies and nothing else
            return Map.of("errored", Map.of("message", "internal error: " + e));
        }
    }

    /** The state fields a request asks for (state on demand): null when it has no "state" (the whole state). */
    static List<?> wantedFields(Map<?, ?> request) throws Malformed {
        Object wanted = request.get("state");
        if (!request.containsKey("state")) return null;
        if (wanted instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) return list;
        throw new Malformed("state: expected a list of state fields, got " + Json.write(wanted));
    }

    /** result with the state asked for: wanted null, the whole state; a list of fields, only those; [], none. */
    static Map<String, Object> withState(Map<String, Object> result, YourEngine engine, List<?> wanted) {
        if (wanted != null && wanted.isEmpty()) return result;
        Map<String, Object> state = new LinkedHashMap<>(engine.state());
        if (wanted != null) state.keySet().retainAll(wanted);
        result.put("state", state);
        return result;
    }

    /** Answer requests on stdin until stop: one JSON line each on stdout, flushed. */
    public static void main(String[] args) throws Exception {
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        var out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        YourEngine engine = new YourEngine();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) continue;
            Object reply;
            try {
                Object request = Json.read(line);
                if (!(request instanceof Map<?, ?> fields)) throw new IllegalArgumentException("not an object");
                if ("stop".equals(fields.get("cmd"))) break;
                reply = "start".equals(fields.get("cmd")) ? hello() : replyTo(engine, fields);
            } catch (IllegalArgumentException e) {
                Map<String, Object> errored = new LinkedHashMap<>();
                errored.put("seq", null);
                errored.put("errored", Map.of("message", "not a JSON request: " + e.getMessage()));
                reply = errored;
            }
            out.print(Json.write(reply) + "\n");
            out.flush();
        }
        out.flush();
    }

    /**
     * Just enough JSON for the protocol: objects (LinkedHashMap), arrays (List), strings, numbers
     * (kept as their text, so that a seq goes back as it came), true, false and null.
     */
    static final class Json {
        record Num(String text) {}

        private final String s;
        private int at;

        private Json(String s) { this.s = s; }

        /** The value of one JSON text; IllegalArgumentException naming the offset on anything else. */
        static Object read(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.space();
            if (json.at != text.length()) throw json.fault("text after the value");
            return value;
        }

        private IllegalArgumentException fault(String what) {
            return new IllegalArgumentException(what + " at offset " + at);
        }

        private void space() {
            while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) at++;
        }

        private boolean eat(char c) {
            space();
            if (at < s.length() && s.charAt(at) == c) { at++; return true; }
            return false;
        }

        private Object value() {
            space();
            if (at >= s.length()) throw fault("no value");
            char c = s.charAt(at);
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            for (String word : List.of("true", "false", "null")) {
                if (s.startsWith(word, at)) {
                    at += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = at;
            while (at < s.length() && "+-.eE0123456789".indexOf(s.charAt(at)) >= 0) at++;
            if (start == at) throw fault("unexpected '" + c + "'");
            return new Num(s.substring(start, at));
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            if (eat('}')) return map;
            do {
                space();
                String key = string();
                if (!eat(':')) throw fault("expected ':'");
                map.put(key, value());
            } while (eat(','));
            if (!eat('}')) throw fault("expected '}'");
            return map;
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            at++;
            if (eat(']')) return list;
            do list.add(value()); while (eat(','));
            if (!eat(']')) throw fault("expected ']'");
            return list;
        }

        private String string() {
            if (at >= s.length() || s.charAt(at) != '"') throw fault("expected a string");
            StringBuilder b = new StringBuilder();
            for (at++; at < s.length(); at++) {
                char c = s.charAt(at);
                if (c == '"') { at++; return b.toString(); }
                if (c != '\\') { b.append(c); continue; }
                if (++at >= s.length()) break;
                char e = s.charAt(at);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (at + 5 > s.length()) throw fault("short \\u escape");
                        b.append((char) Integer.parseInt(s.substring(at + 1, at + 5), 16));
                        at += 4;
                    }
                    default -> b.append(e); // \" \\ \/
                }
            }
            throw fault("unterminated string");
        }

        /** One line of JSON for a value made of maps, lists, strings, numbers, booleans and null. */
        static String write(Object value) {
            if (value == null) return "null";
            if (value instanceof String text) return quote(text);
            if (value instanceof Num number) return number.text();
            if (value instanceof Boolean || value instanceof Integer) return value.toString();
            StringBuilder b = new StringBuilder();
            if (value instanceof Map<?, ?> map) {
                for (var entry : map.entrySet()) {
                    b.append(b.length() == 0 ? "{" : ",").append(quote(String.valueOf(entry.getKey())));
                    b.append(':').append(write(entry.getValue()));
                }
                return b.length() == 0 ? "{}" : b.append('}').toString();
            }
            if (value instanceof List<?> list) {
                for (Object item : list) b.append(b.length() == 0 ? "[" : ",").append(write(item));
                return b.length() == 0 ? "[]" : b.append(']').toString();
            }
            throw new IllegalStateException("no JSON for " + value.getClass());
        }

        private static String quote(String text) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            return b.append('"').toString();
        }
    }
}
