// A minimal Crescent adapter (spec/protocol.md) in C#, to copy and fill in: docs/writing-an-adapter.md.
//
//     mcs -out:skeleton-adapter.exe docs/skeletons/SkeletonAdapter.cs      (or: dotnet new console, add this file)
//     crescent-conformance smoke --cmd "mono skeleton-adapter.exe"
//
// It speaks the whole protocol loop of version 3: the handshake, new_game, act, stop, the state on
// demand and batches; one JSON line a reply on stdout, everything else on stderr. The rules live in
// YourEngine below: as shipped it can only load a position and report it, and answers every action
// with "skipped" ("not implemented yet"), so the kit runs what it can (the scenarios that check a
// starting position) and skips the rest.
// Replace its methods with calls into your game. C# 7 (Mono's mcs or .NET), no packages: the
// protocol's JSON is small enough for the reader and writer at the end of this file (use
// System.Text.Json instead on .NET if you like).

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;

/// <summary>A request the engine cannot serve yet: the adapter answers "skipped", the kit skips the scenario.</summary>
public sealed class NotImplementedYet : Exception
{
    public NotImplementedYet(string message) : base(message) { }
}

/// <summary>A position (or request) the engine cannot read: answered "errored", "refused" for new_game.</summary>
public sealed class Unreadable : Exception
{
    public Unreadable(string message) : base(message) { }
}

/// <summary>A request field of the wrong type (a "state" that is no list of names): "errored".</summary>
public sealed class Malformed : Exception
{
    public Malformed(string message) : base(message) { }
}

// ---------------------------------------------------------------------------------------------
// YOUR ENGINE HERE: replace the body of each method with calls into your game.
// ---------------------------------------------------------------------------------------------
/// <summary>Holds one game. As shipped: a table read from a position text that takes no actions.</summary>
public sealed class YourEngine
{
    private Dictionary<string, object> table = new Dictionary<string, object>();

    /// <summary>Set up the game from a position text (spec/notation.md §5). If your engine can only
    /// deal, see "Loading a given position" in docs/writing-an-adapter.md.</summary>
    public void NewGame(string profile, string position)
    {
        table = Position.Read(position);
    }

    /// <summary>Apply one action (canonical text: p10-p14, p5-A♠, reshuffle, undo, tap p5, drop p5).
    /// Return accepted, reason, effect and moves; the adapter adds the state.</summary>
    public Dictionary<string, object> Act(string action)
    {
        throw new NotImplementedYet("act '" + action + "': not implemented yet (YOUR ENGINE HERE in SkeletonAdapter.cs)");
    }

    /// <summary>The canonical state JSON (spec/interpreting.md): read it off your engine's table.</summary>
    public Dictionary<string, object> State()
    {
        var state = new Dictionary<string, object>(table);
        state["status"] = "playing";
        state["foundation_cards"] = Position.FoundationCards((Dictionary<string, object>)table["foundations"]);
        return state;
    }
}
// ---------------------------------------------------------------------------------------------

/// <summary>The position text of spec/notation.md §5, read into the state JSON's table.</summary>
public static class Position
{
    static readonly string[] Bases = { "A♠", "A♥", "A♦", "A♣", "K♠", "K♥", "K♦", "K♣" };

    /// <summary>The rank of a card in canonical text: A=1 ... K=13.</summary>
    public static int Rank(string card)
    {
        string face = card.Substring(0, card.Length - 1);
        switch (face)
        {
            case "A": return 1;
            case "J": return 11;
            case "Q": return 12;
            case "K": return 13;
            default: return int.Parse(face, CultureInfo.InvariantCulture);
        }
    }

    /// <summary>Cards on the eight foundations, from their top cards.</summary>
    public static int FoundationCards(Dictionary<string, object> tops)
    {
        return tops.Sum(t => t.Key.StartsWith("A") ? Rank((string)t.Value) : 14 - Rank((string)t.Value));
    }

    /// <summary>"8♦,5♠" as a list of cards; "" and "-" are an empty pile.</summary>
    static List<object> Cards(string text)
    {
        return text == "" || text == "-" ? new List<object>() : text.Split(',').Cast<object>().ToList();
    }

    /// <summary>The table of a position text, as the state JSON writes it (piles bottom card first).</summary>
    public static Dictionary<string, object> Read(string text)
    {
        var fields = new Dictionary<string, string>();
        foreach (string part in text.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries))
        {
            int colon = part.IndexOf(':');
            if (colon < 0) throw new Unreadable("not a field: '" + part + "' in '" + text + "'");
            fields[part.Substring(0, colon)] = part.Substring(colon + 1);
        }
        foreach (string name in new[] { "up", "down", "piles", "reshuffles", "moves" })
        {
            if (!fields.ContainsKey(name)) throw new Unreadable("position without " + name + ": '" + text + "'");
        }
        var piles = new List<object>();
        var hidden = new List<object>();
        foreach (string whole in fields["piles"].Split('/'))
        {
            string pile = whole;
            var cards = new List<object>();
            if (pile.StartsWith("["))
            {
                int close = pile.IndexOf("],", StringComparison.Ordinal);
                if (close < 0) throw new Unreadable("face-down cards without '],': '" + pile + "'");
                cards = Cards(pile.Substring(1, close - 1));
                pile = pile.Substring(close + 2);
            }
            hidden.Add(cards.Count);
            cards.AddRange(Cards(pile));
            piles.Add(cards);
        }
        string[] tops = (fields["up"] + "," + fields["down"]).Split(',');
        if (tops.Length != Bases.Length) throw new Unreadable("not eight foundations: '" + text + "'");
        var foundations = new Dictionary<string, object>();
        for (int i = 0; i < tops.Length; i++) foundations[Bases[i]] = tops[i];
        int reshuffles, moves;
        if (!int.TryParse(fields["reshuffles"], out reshuffles) || !int.TryParse(fields["moves"], out moves))
            throw new Unreadable("not a number in '" + text + "'");
        string held;
        return new Dictionary<string, object>
        {
            { "piles", piles }, { "hidden", hidden }, { "foundations", foundations },
            { "held", Cards(fields.TryGetValue("held", out held) ? held : "") },
            { "reshuffles", reshuffles }, { "moves", moves },
        };
    }
}

public static class SkeletonAdapter
{
    /// <summary>The handshake's reply (spec/protocol.md, Versions and Capabilities).</summary>
    static Dictionary<string, object> Hello()
    {
        var implementation = new Dictionary<string, object>
        {
            { "name", "my-crescent" }, { "version", "0.0.1" },  // your game's name and version
            { "language", "csharp" },
            { "profiles", new List<object> { "app" } },  // the rule profiles your game plays (spec/profiles.yaml)
            // What the adapter offers and observes; add "undo", "tap", "reasons", ... as it learns them, and
            // declare only what it really reports:
            // - "move-count", "reshuffle-count": State() reports the game's own counters (drop one your game
            //   lacks); status is always "playing" here, so "lost" is not declared;
            // - "state-on-demand": a request's "state" names the fields wanted (WithState below);
            // - "batch": several requests in one line (AnswerBatch below). Both only make a run cheaper.
            { "capabilities", new List<object> { "move-count", "reshuffle-count", "state-on-demand", "batch" } },
        };
        return new Dictionary<string, object> { { "version", 3 }, { "implementation", implementation } };
    }

    /// <summary>The reply to one request line (not start or stop): the seq as it came, then the answer.</summary>
    static Dictionary<string, object> ReplyTo(YourEngine engine, Dictionary<string, object> request)
    {
        object seq, cmd, requests;
        request.TryGetValue("seq", out seq);
        request.TryGetValue("cmd", out cmd);
        request.TryGetValue("requests", out requests);
        var reply = new Dictionary<string, object> { { "seq", seq } };
        var answer = "batch".Equals(cmd) ? AnswerBatch(engine, requests) : Answer(engine, request);
        foreach (var entry in answer) reply[entry.Key] = entry.Value;
        return reply;
    }

    /// <summary>A batch (spec/protocol.md, Batches): each request answered in order as if it came
    /// alone, without seq.</summary>
    static Dictionary<string, object> AnswerBatch(YourEngine engine, object requests)
    {
        var list = requests as List<object>;
        if (list == null) return Errored("batch: requests is not a list");
        var replies = new List<object>();
        foreach (object one in list)
        {
            var request = one as Dictionary<string, object>;
            replies.Add(request != null ? Answer(engine, request) : Errored("batch: a request that is not an object"));
        }
        return Result(new Dictionary<string, object> { { "replies", replies } });
    }

    /// <summary>The answer to one request: exactly one of result, skipped or errored.</summary>
    static Dictionary<string, object> Answer(YourEngine engine, Dictionary<string, object> request)
    {
        object cmd, position, profile, action;
        request.TryGetValue("cmd", out cmd);
        try
        {
            if ("new_game".Equals(cmd))
            {
                var wanted = WantedFields(request);
                if (!request.TryGetValue("position", out position) || !(position is string))
                    throw new NotImplementedYet("new_game from a game code: not implemented yet");
                request.TryGetValue("profile", out profile);
                engine.NewGame(Convert.ToString(profile), (string)position);
                return Result(WithState(new Dictionary<string, object>(), engine, wanted));
            }
            if ("act".Equals(cmd))
            {
                var wanted = WantedFields(request);
                request.TryGetValue("action", out action);
                var outcome = new Dictionary<string, object>(engine.Act(Convert.ToString(action)));
                return Result(WithState(outcome, engine, wanted));
            }
            return Errored("unknown command " + Json.Write(cmd));
        }
        catch (NotImplementedYet e)
        {
            var skipped = new Dictionary<string, object> { { "message", e.Message } };
            return new Dictionary<string, object> { { "skipped", skipped } };
        }
        catch (Malformed e)
        {
            return Errored(e.Message);
        }
        catch (Unreadable e)
        {
            var errored = new Dictionary<string, object>
            {
                { "message", e.Message }, { "refused", "new_game".Equals(cmd) },
            };
            return new Dictionary<string, object> { { "errored", errored } };
        }
        catch (Exception e)
        {
            Console.Error.WriteLine(e);  // stderr only: stdout carries replies and nothing else
            return Errored("internal error: " + e.Message);
        }
    }

    /// <summary>The state fields a request asks for (state on demand): null when it has no "state"
    /// (the whole state is wanted).</summary>
    static List<object> WantedFields(Dictionary<string, object> request)
    {
        object wanted;
        if (!request.TryGetValue("state", out wanted)) return null;
        var list = wanted as List<object>;
        if (list == null || !list.All(name => name is string))
            throw new Malformed("state: expected a list of state fields, got " + Json.Write(wanted));
        return list;
    }

    /// <summary>result with the state asked for: wanted null, the whole state; a list of fields, only
    /// those; an empty list, none.</summary>
    static Dictionary<string, object> WithState(
        Dictionary<string, object> result, YourEngine engine, List<object> wanted)
    {
        if (wanted != null && wanted.Count == 0) return result;
        var state = engine.State();
        if (wanted != null) state = state.Where(f => wanted.Contains(f.Key)).ToDictionary(f => f.Key, f => f.Value);
        result["state"] = state;
        return result;
    }

    static Dictionary<string, object> Result(Dictionary<string, object> result)
    {
        return new Dictionary<string, object> { { "result", result } };
    }

    static Dictionary<string, object> Errored(string message)
    {
        var errored = new Dictionary<string, object> { { "message", message } };
        return new Dictionary<string, object> { { "errored", errored } };
    }

    /// <summary>Answer requests on stdin until stop: one JSON line each on stdout, flushed.</summary>
    public static int Main()
    {
        var utf8 = new UTF8Encoding(false);
        var input = new StreamReader(Console.OpenStandardInput(), utf8);
        var output = new StreamWriter(Console.OpenStandardOutput(), utf8) { NewLine = "\n" };
        var engine = new YourEngine();
        for (string line = input.ReadLine(); line != null; line = input.ReadLine())
        {
            if (line.Trim() == "") continue;
            object reply;
            try
            {
                var request = Json.Read(line) as Dictionary<string, object>;
                if (request == null) throw new FormatException("not an object");
                object cmd;
                request.TryGetValue("cmd", out cmd);
                if ("stop".Equals(cmd)) break;
                reply = "start".Equals(cmd) ? Hello() : ReplyTo(engine, request);
            }
            catch (FormatException e)
            {
                reply = new Dictionary<string, object>
                {
                    { "seq", null }, { "errored", new Dictionary<string, object> { { "message", "not a JSON request: " + e.Message } } },
                };
            }
            output.WriteLine(Json.Write(reply));
            output.Flush();
        }
        output.Flush();
        return 0;
    }
}

/// <summary>Just enough JSON for the protocol: objects, arrays, strings, numbers (kept as their
/// text, so that a seq goes back as it came), true, false and null.</summary>
public sealed class Json
{
    public sealed class Number
    {
        public readonly string Text;
        public Number(string text) { Text = text; }
    }

    readonly string s;
    int at;

    Json(string text) { s = text; }

    /// <summary>The value of one JSON text; FormatException naming the offset on anything else.</summary>
    public static object Read(string text)
    {
        var json = new Json(text);
        object value = json.Value();
        json.Space();
        if (json.at != text.Length) throw json.Fault("text after the value");
        return value;
    }

    FormatException Fault(string what) { return new FormatException(what + " at offset " + at); }

    void Space() { while (at < s.Length && " \t\r\n".IndexOf(s[at]) >= 0) at++; }

    bool Eat(char c)
    {
        Space();
        if (at < s.Length && s[at] == c) { at++; return true; }
        return false;
    }

    object Value()
    {
        Space();
        if (at >= s.Length) throw Fault("no value");
        char c = s[at];
        if (c == '{') return ReadObject();
        if (c == '[') return ReadArray();
        if (c == '"') return ReadString();
        foreach (string word in new[] { "true", "false", "null" })
        {
            if (string.CompareOrdinal(s, at, word, 0, word.Length) == 0)
            {
                at += word.Length;
                return word == "null" ? null : (object)(word == "true");
            }
        }
        int start = at;
        while (at < s.Length && "+-.eE0123456789".IndexOf(s[at]) >= 0) at++;
        if (start == at) throw Fault("unexpected '" + c + "'");
        return new Number(s.Substring(start, at - start));
    }

    Dictionary<string, object> ReadObject()
    {
        var map = new Dictionary<string, object>();
        at++;
        if (Eat('}')) return map;
        do
        {
            Space();
            string key = ReadString();
            if (!Eat(':')) throw Fault("expected ':'");
            map[key] = Value();
        } while (Eat(','));
        if (!Eat('}')) throw Fault("expected '}'");
        return map;
    }

    List<object> ReadArray()
    {
        var list = new List<object>();
        at++;
        if (Eat(']')) return list;
        do list.Add(Value()); while (Eat(','));
        if (!Eat(']')) throw Fault("expected ']'");
        return list;
    }

    string ReadString()
    {
        if (at >= s.Length || s[at] != '"') throw Fault("expected a string");
        var b = new StringBuilder();
        for (at++; at < s.Length; at++)
        {
            char c = s[at];
            if (c == '"') { at++; return b.ToString(); }
            if (c != '\\') { b.Append(c); continue; }
            if (++at >= s.Length) break;
            char e = s[at];
            switch (e)
            {
                case 'n': b.Append('\n'); break;
                case 't': b.Append('\t'); break;
                case 'r': b.Append('\r'); break;
                case 'b': b.Append('\b'); break;
                case 'f': b.Append('\f'); break;
                case 'u':
                    if (at + 5 > s.Length) throw Fault("short \\u escape");
                    b.Append((char)int.Parse(s.Substring(at + 1, 4), NumberStyles.HexNumber));
                    at += 4;
                    break;
                default: b.Append(e); break;  // \" \\ \/
            }
        }
        throw Fault("unterminated string");
    }

    /// <summary>One line of JSON for a value made of dictionaries, lists, strings, numbers, booleans and null.</summary>
    public static string Write(object value)
    {
        if (value == null) return "null";
        if (value is string) return Quote((string)value);
        if (value is Number) return ((Number)value).Text;
        if (value is bool) return (bool)value ? "true" : "false";
        if (value is int) return ((int)value).ToString(CultureInfo.InvariantCulture);
        var map = value as Dictionary<string, object>;
        if (map != null) return "{" + string.Join(",", map.Select(e => Quote(e.Key) + ":" + Write(e.Value))) + "}";
        var list = value as List<object>;
        if (list != null) return "[" + string.Join(",", list.Select(Write)) + "]";
        throw new InvalidOperationException("no JSON for " + value.GetType());
    }

    static string Quote(string text)
    {
        var b = new StringBuilder("\"");
        foreach (char c in text)
        {
            if (c == '"' || c == '\\') b.Append('\\').Append(c);
            else if (c < 0x20) b.Append("\\u").Append(((int)c).ToString("x4"));
            else b.Append(c);
        }
        return b.Append('"').ToString();
    }
}
