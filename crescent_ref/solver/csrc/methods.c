/* The Core's methods, one primitive each, as the Python side calls them: the move generator, the
 * status, the key, the dead rules, the score, the transitions, the one-suit helpers and
 * search.Search.expand (the search loop's method, Core.search, is in search.c); and their table.
 * crescent_ref/solver/_core.pyi types them; fast.py and fastgame.py call them. */
#include "core.h"

static PyObject *Core_pile_moves(Core *self, PyObject *pos) {
    State s;
    Act moves[MAXMOVES];
    if (read_cached(self, pos, &s) < 0) return NULL;
    return action_list(self, moves, pile_moves(self, &s, moves));
}

static PyObject *Core_foundation_moves(Core *self, PyObject *pos) {
    State s;
    Act moves[MAXMOVES];
    if (read_cached(self, pos, &s) < 0) return NULL;
    return action_list(self, moves, foundation_moves(self, &s, moves));
}

static PyObject *Core_status(Core *self, PyObject *pos) {
    State s;
    Act moves[MAXMOVES];
    if (read_cached(self, pos, &s) < 0) return NULL;
    return Py_NewRef(self->status_text[status_of(self, &s, pile_moves(self, &s, moves))]);
}

static PyObject *Core_key(Core *self, PyObject *pos) {
    State s;
    if (read_cached(self, pos, &s) < 0) return NULL;
    return key_of(self, &s);
}

static PyObject *Core_witness(Core *self, PyObject *pos) {
    State s;
    int card = -1;
    if (read_cached(self, pos, &s) < 0) return NULL;
    int pile = witness(self, &s, &card);
    if (pile < 0) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", pile, card);
}

static PyObject *Core_dead(Core *self, PyObject *pos) {
    State s;
    int card;
    if (read_cached(self, pos, &s) < 0) return NULL;
    return PyBool_FromLong(witness(self, &s, &card) >= 0);
}

static PyObject *Core_waits(Core *self, PyObject *pos) {
    State s;
    if (read_cached(self, pos, &s) < 0) return NULL;
    if (self->waits == NULL && (self->waits = PyMem_RawMalloc(sizeof(Waits))) == NULL) return PyErr_NoMemory();
    int found[NPILES * MAXP];
    int n = waits_stuck(self, &s, self->waits, found);
    PyObject *spots = PyTuple_New(n);
    if (spots == NULL) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *spot = Py_BuildValue("(ii)", self->waits->closed_p[found[k]], self->waits->closed_i[found[k]]);
        if (spot == NULL) { Py_DECREF(spots); return NULL; }
        PyTuple_SET_ITEM(spots, k, spot);
    }
    return spots;
}

static PyObject *Core_score(Core *self, PyObject *args) {
    PyObject *pos, *order;
    State s;
    Promise p;
    if (!PyArg_ParseTuple(args, "OO", &pos, &order) || read_cached(self, pos, &s) < 0 || read_promise(order, &p) < 0)
        return NULL;
    return PyLong_FromLong(score(&s, &p));
}

static PyObject *Core_move(Core *self, PyObject *args) {
    PyObject *pos;
    int src, dst, count;
    State s;
    unsigned dirty = 0;
    if (!PyArg_ParseTuple(args, "Oiii", &pos, &src, &dst, &count) || read_cached(self, pos, &s) < 0) return NULL;
    if (src < 0 || src >= HOLDP || dst < 0 || dst >= NPLACES) {
        PyErr_Format(PyExc_ValueError, "move %d-%d: no such places", src, dst);
        return NULL;
    }
    if ((src < NPILES && !s.len[src]) || (dst < NPILES && s.len[dst] >= MAXP)) {
        PyErr_Format(PyExc_ValueError, "move %d-%d: an empty source or a full pile", src, dst);
        return NULL;
    }
    move(&s, src, dst, count, &dirty);
    return make_position(self, &s, pos, dirty);
}

static PyObject *Core_reshuffle(Core *self, PyObject *pos) {
    State s;
    unsigned dirty = 0;
    if (read_cached(self, pos, &s) < 0) return NULL;
    reshuffle(&s, &dirty);
    return make_position(self, &s, pos, dirty);
}

static PyObject *Core_children(Core *self, PyObject *args) {
    /* [(step, child)] for every step canon.steps lists (no safe move, no reshuffle): last.sweep */
    PyObject *pos;
    State s;
    Act moves[MAXMOVES];
    Steps all;
    if (!PyArg_ParseTuple(args, "O", &pos) || read_cached(self, pos, &s) < 0) return NULL;
    int n = pile_moves(self, &s, moves);
    steps(self, &s, moves, n, &all);
    PyObject *list = PyList_New(all.n);
    if (list == NULL) return NULL;
    for (int k = 0; k < all.n; k++) {
        State c = s;
        unsigned dirty = 0;
        after(self, &c, all.a[k], all.len[k], &dirty);
        PyObject *step = step_tuple(self, all.a[k], all.len[k]), *child = make_position(self, &c, pos, dirty);
        PyObject *pair = (step && child) ? PyTuple_Pack(2, step, child) : NULL;
        Py_XDECREF(step);
        Py_XDECREF(child);
        if (pair == NULL) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, k, pair);
    }
    return list;
}

/* suits.one_suit: the suit's pile cards in order, every other suit home, the reshuffles left kept */
static PyObject *Core_one_suit(Core *self, PyObject *args) {
    PyObject *pos;
    int suit;
    State s, part;
    if (!PyArg_ParseTuple(args, "Oi", &pos, &suit) || read_cached(self, pos, &s) < 0) return NULL;
    if (suit < 0 || suit > 3) {
        PyErr_Format(PyExc_ValueError, "one_suit: suit %d is not 0..3", suit);
        return NULL;
    }
    for (int i = 0; i < NPILES; i++) {
        int n = 0;
        for (int j = 0; j < s.len[i]; j++)
            if (s.c[i][j] / 13 == suit) part.c[i][n++] = s.c[i][j];
        part.len[i] = n;
        part.hidden[i] = 0;
    }
    for (int i = 0; i < 4; i++) {
        part.up[i] = i == suit ? s.up[i] : KING;
        part.down[i] = i == suit ? s.down[i] : ACE;
        part.held[i] = i == suit ? s.held[i] : 0;
    }
    part.resh = s.resh;
    part.moves = 0;
    return make_position(self, &part, NULL, 0);
}

/* the suits with a card on the piles, ascending (the order suits.some_suit_lost's set gives) */
static PyObject *Core_suits(Core *self, PyObject *pos) {
    State s;
    int seen[4] = {0}, n = 0;
    if (read_cached(self, pos, &s) < 0) return NULL;
    for (int i = 0; i < NPILES; i++)
        for (int j = 0; j < s.len[i]; j++) seen[s.c[i][j] / 13] = 1;
    PyObject *t = PyTuple_New(seen[0] + seen[1] + seen[2] + seen[3]);
    if (t == NULL) return NULL;
    for (int i = 0; i < 4; i++)
        if (seen[i]) PyTuple_SET_ITEM(t, n++, PyLong_FromLong(i));
    return t;
}

/* last.rotating: per pile, its bottom card is of ``suit`` */
static PyObject *Core_rotating(Core *self, PyObject *args) {
    PyObject *pos;
    int suit;
    State s;
    if (!PyArg_ParseTuple(args, "Oi", &pos, &suit) || read_cached(self, pos, &s) < 0) return NULL;
    PyObject *t = PyTuple_New(NPILES);
    if (t == NULL) return NULL;
    for (int i = 0; i < NPILES; i++) PyTuple_SET_ITEM(t, i, PyBool_FromLong(s.len[i] && s.c[i][0] / 13 == suit));
    return t;
}

/* last.marked_key: "L", the piles each after its mark byte (sorted), 0xff between, then the
 * foundations, the hold and the reshuffles left */
static PyObject *Core_marked_key(Core *self, PyObject *args) {
    PyObject *pos, *marks;
    State s;
    if (!PyArg_ParseTuple(args, "OO", &pos, &marks) || read_cached(self, pos, &s) < 0) return NULL;
    if (!PyTuple_Check(marks) || PyTuple_GET_SIZE(marks) != NPILES) {
        PyErr_SetString(PyExc_ValueError, "marked_key: 16 marks");
        return NULL;
    }
    if (s.resh < 0 || s.resh > 255) {
        PyErr_SetString(PyExc_ValueError, "marked_key: reshuffles left out of 0..255");
        return NULL;
    }
    int flags[NPILES];
    for (int i = 0; i < NPILES; i++) {
        int mark = PyObject_IsTrue(PyTuple_GET_ITEM(marks, i));
        if (mark < 0) return NULL;
        if (s.len[i] >= MAXP) {
            PyErr_Format(PyExc_ValueError, "marked_key: pile %d has more than %d cards", i + 1, MAXP - 1);
            return NULL;
        }
        flags[i] = mark;
    }
    return marked_key_of(&s, flags);
}

/* search.Search.expand: generate the children of one position, in the order of search.choices;
 * a new key is recorded in ``parents`` with (pos_key, step) and, unless won, pushed on ``frontier``
 * as (-score, -next(ticks), key, child). Returns (key of a won child or None, steps generated). */
static PyObject *Core_expand(Core *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "expand(pos, pos_key, parents, frontier, ticks, order, prune)");
        return NULL;
    }
    PyObject *pos = args[0], *pos_key = args[1], *parents = args[2], *frontier = args[3], *ticks = args[4];
    int prune = PyObject_IsTrue(args[6]);
    State s;
    Promise p;
    Act moves[MAXMOVES];
    Steps all;  /* on the stack (18 KiB): nothing shared between calls or threads */
    if (prune < 0 || read_cached(self, pos, &s) < 0 || read_promise(args[5], &p) < 0) return NULL;
    if (!PyDict_Check(parents) || !PyList_Check(frontier)) {
        PyErr_SetString(PyExc_TypeError, "expand: parents is a dict, frontier a list");
        return NULL;
    }
    int n = pile_moves(self, &s, moves);
    choices(self, &s, moves, n, prune, &all);
    long made = 0;
    for (int k = 0; k < all.n; k++) {
        made++;
        State c = s;
        unsigned dirty = 0;
        after(self, &c, all.a[k], all.len[k], &dirty);
        PyObject *key = key_of(self, &c);
        if (key == NULL) return NULL;
        int seen = PyDict_Contains(parents, key);
        if (seen != 0) { Py_DECREF(key); if (seen < 0) return NULL; continue; }
        PyObject *step = step_tuple(self, all.a[k], all.len[k]);
        PyObject *link = step ? untracked(PyTuple_Pack(2, pos_key, step)) : NULL;
        Py_XDECREF(step);
        if (link == NULL || PyDict_SetItem(parents, key, link) < 0) { Py_XDECREF(link); Py_DECREF(key); return NULL; }
        Py_DECREF(link);
        if (is_won(&c)) return Py_BuildValue("(Nl)", key, made);
        PyObject *child = make_position(self, &c, pos, dirty);
        PyObject *tick = child ? PyIter_Next(ticks) : NULL;
        if (tick == NULL) {
            if (child && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "expand: ticks ran out");
            Py_XDECREF(child); Py_DECREF(key); return NULL;
        }
        PyObject *neg_tick = PyNumber_Negative(tick);
        Py_DECREF(tick);
        long tie = noise(&p, (const unsigned char *)PyBytes_AS_STRING(key), (size_t)PyBytes_GET_SIZE(key));
        PyObject *rank = PyLong_FromLong(-(score(&c, &p) + tie));
        PyObject *entry = (neg_tick && rank) ? untracked(PyTuple_Pack(4, rank, neg_tick, key, child)) : NULL;
        Py_XDECREF(neg_tick); Py_XDECREF(rank); Py_DECREF(key); Py_DECREF(child);
        if (entry == NULL) return NULL;
        PyObject *call[2] = {frontier, entry};
        PyObject *done = PyObject_Vectorcall(self->heappush, call, 2, NULL);
        Py_DECREF(entry);
        if (done == NULL) return NULL;
        Py_DECREF(done);
    }
    return Py_BuildValue("(Ol)", Py_None, made);
}

/* onesuit(pos, nodes, prune=True, owner=None) -> (verdict, nodes, line or None): onesuit.c's decision of a one-suit
 * position with no reshuffle left (ValueError where it does not apply); an ``owner`` other than the last one's
 * starts anew what the table has proved (None: the last one's) */
static PyObject *Core_onesuit(Core *self, PyObject *args) {
    PyObject *pos, *owner = Py_None;
    long budget, made = 0;
    int prune = 1;
    State s;
    if (!PyArg_ParseTuple(args, "Ol|pO", &pos, &budget, &prune, &owner) || read_cached(self, pos, &s) < 0) return NULL;
    Act *line = NULL;
    size_t nline = 0;
    int verdict = onesuit_decide(self, &s, budget, prune, owner == Py_None ? NULL : owner, &made, &line, &nline);
    if (verdict == -2) PyErr_SetString(PyExc_ValueError, "onesuit: not a one-suit position with no reshuffle left "
                                                         "under a profile without give-backs and autoplay");
    if (verdict < 0) { PyMem_RawFree(line); return NULL; }
    PyObject *moves = verdict == 0 ? action_list(self, line, (int)nline) : Py_NewRef(Py_None);
    PyMem_RawFree(line);
    if (moves == NULL) return NULL;
    return Py_BuildValue("(OlN)", self->verdict_text[verdict], made, moves);
}

static PyObject *Core_onesuit_counts(Core *self, PyObject *unused) {
    long calls, decided, nodes, unknown, unknown_nodes;
    (void)unused;
    onesuit_counts(self, &calls, &decided, &nodes, &unknown, &unknown_nodes);
    return Py_BuildValue("(lllll)", calls, decided, nodes, unknown, unknown_nodes);
}

PyMethodDef Core_methods[] = {
    {"onesuit", (PyCFunction)Core_onesuit, METH_VARARGS, "onesuit.c: a one-suit position decided alone"},
    {"onesuit_counts", (PyCFunction)Core_onesuit_counts, METH_NOARGS, "onesuit.c's questions, decided, positions; unknown, their positions"},
    {"pile_moves", (PyCFunction)Core_pile_moves, METH_O, "movegen.pile_moves"},
    {"foundation_moves", (PyCFunction)Core_foundation_moves, METH_O, "movegen.foundation_moves"},
    {"status", (PyCFunction)Core_status, METH_O, "game.status_of"},
    {"key", (PyCFunction)Core_key, METH_O, "canon.key"},
    {"witness", (PyCFunction)Core_witness, METH_O, "dead.witness"},
    {"dead", (PyCFunction)Core_dead, METH_O, "dead.dead"},
    {"waits", (PyCFunction)Core_waits, METH_O, "waits.stuck (as a tuple)"},
    {"score", (PyCFunction)Core_score, METH_VARARGS, "orders.Promise (order None: depth_first)"},
    {"move", (PyCFunction)Core_move, METH_VARARGS, "transitions.move(pos, src, dst, count)"},
    {"reshuffle", (PyCFunction)Core_reshuffle, METH_O, "transitions.reshuffle"},
    {"children", (PyCFunction)Core_children, METH_VARARGS, "[(step, canon.after(pos, step))] for canon.steps"},
    {"suits", (PyCFunction)Core_suits, METH_O, "the suits on the piles, ascending"},
    {"rotating", (PyCFunction)Core_rotating, METH_VARARGS, "last.rotating"},
    {"marked_key", (PyCFunction)Core_marked_key, METH_VARARGS, "last.marked_key"},
    {"one_suit", (PyCFunction)Core_one_suit, METH_VARARGS, "suits.one_suit"},
    {"expand", (PyCFunction)(void (*)(void))Core_expand, METH_FASTCALL, "search.Search.expand"},
    {"search", (PyCFunction)Core_search, METH_VARARGS, "search.Search.loop from a start, frontier and seen table here"},
    {NULL, NULL, 0, NULL},
};
