/* Reading and writing the engine's positions: a crescent_ref.position.Position (a tuple of piles,
 * face-down counts, foundations, hold, reshuffles left and moves) into a State and back, the last
 * few positions' readings kept, and the actions and orders passed in from Python
 * (crescent_ref/position.py, actions.py, solver/orders.py's Promise). */
#include "core.h"

int read_ints(PyObject *tuple, int *out, Py_ssize_t n, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
        PyErr_Format(PyExc_ValueError, "position: %s is not a tuple of %zd", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 14) {
            PyErr_Format(PyExc_ValueError, "position: %s holds %ld", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

static int read_state(PyObject *pos, State *s) {
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 7) {
        PyErr_SetString(PyExc_TypeError, "expected a Position");
        return -1;
    }
    PyObject *piles = PyTuple_GET_ITEM(pos, 0), *hidden = PyTuple_GET_ITEM(pos, 1);
    if (!PyTuple_Check(piles) || PyTuple_GET_SIZE(piles) != NPILES || !PyTuple_Check(hidden)
        || PyTuple_GET_SIZE(hidden) != NPILES) {
        PyErr_SetString(PyExc_ValueError, "position: expected 16 piles and 16 face-down counts");
        return -1;
    }
    for (int i = 0; i < NPILES; i++) {
        PyObject *pile = PyTuple_GET_ITEM(piles, i);
        if (!PyTuple_Check(pile) || PyTuple_GET_SIZE(pile) > MAXP) {
            PyErr_Format(PyExc_ValueError, "position: pile %d is not a tuple of at most %d cards", i + 1, MAXP);
            return -1;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(pile);
        s->len[i] = (int)n;
        for (Py_ssize_t j = 0; j < n; j++) {
            long card = PyLong_AsLong(PyTuple_GET_ITEM(pile, j));
            if (card == -1 && PyErr_Occurred()) return -1;
            if (card < 0 || card > 51) {
                PyErr_Format(PyExc_ValueError, "position: pile %d holds card index %ld", i + 1, card);
                return -1;
            }
            s->c[i][j] = (unsigned char)card;
        }
        s->hidden[i] = PyLong_AsLong(PyTuple_GET_ITEM(hidden, i));
        if (s->hidden[i] == -1 && PyErr_Occurred()) return -1;
    }
    if (read_ints(PyTuple_GET_ITEM(pos, 2), s->up, 4, "up") < 0) return -1;
    if (read_ints(PyTuple_GET_ITEM(pos, 3), s->down, 4, "down") < 0) return -1;
    if (read_ints(PyTuple_GET_ITEM(pos, 4), s->held, 4, "held") < 0) return -1;
    s->resh = PyLong_AsLong(PyTuple_GET_ITEM(pos, 5));
    if (s->resh == -1 && PyErr_Occurred()) return -1;
    s->moves = PyLong_AsLong(PyTuple_GET_ITEM(pos, 6));
    if (s->moves == -1 && PyErr_Occurred()) return -1;
    return 0;
}

static PyObject *int_tuple(const int *values, int n, PyObject *same) {
    /* ``same`` (the parent's tuple) when the values are unchanged, else a new tuple */
    if (same != NULL) {
        int equal = 1;
        for (int i = 0; i < n && equal; i++) {
            PyObject *item = PyTuple_GET_ITEM(same, i);
            equal = PyLong_AsLong(item) == values[i];
        }
        if (equal) return Py_NewRef(same);
    }
    PyObject *t = untracked(PyTuple_New(n));
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *pile_tuple(const State *s, int i) {
    PyObject *t = untracked(PyTuple_New(s->len[i]));
    if (t == NULL) return NULL;
    for (int j = 0; j < s->len[i]; j++) PyTuple_SET_ITEM(t, j, PyLong_FromLong(s->c[i][j]));
    return t;
}

/* A Position for ``s``; piles not in ``dirty`` (a bit per pile) are taken from ``parent``. */
PyObject *make_position(Core *core, const State *s, PyObject *parent, unsigned dirty) {
    PyObject *pp = parent ? PyTuple_GET_ITEM(parent, 0) : NULL;
    PyObject *piles = untracked(PyTuple_New(NPILES)), *hidden = NULL, *up = NULL, *down = NULL, *held = NULL;
    PyObject *resh = NULL, *moves = NULL, *pos = NULL;
    if (piles == NULL) return NULL;
    for (int i = 0; i < NPILES; i++) {
        PyObject *pile = (pp && !(dirty >> i & 1)) ? Py_NewRef(PyTuple_GET_ITEM(pp, i)) : pile_tuple(s, i);
        if (pile == NULL) goto fail;
        PyTuple_SET_ITEM(piles, i, pile);
    }
    int h[NPILES];
    for (int i = 0; i < NPILES; i++) h[i] = (int)s->hidden[i];
    hidden = int_tuple(h, NPILES, parent ? PyTuple_GET_ITEM(parent, 1) : NULL);
    up = int_tuple(s->up, 4, parent ? PyTuple_GET_ITEM(parent, 2) : NULL);
    down = int_tuple(s->down, 4, parent ? PyTuple_GET_ITEM(parent, 3) : NULL);
    held = int_tuple(s->held, 4, parent ? PyTuple_GET_ITEM(parent, 4) : NULL);
    resh = PyLong_FromLong(s->resh);
    moves = PyLong_FromLong(s->moves);
    if (!hidden || !up || !down || !held || !resh || !moves) goto fail;
    pos = untracked(core->postype->tp_alloc(core->postype, 7));
    if (pos == NULL) goto fail;
    PyTuple_SET_ITEM(pos, 0, piles);
    PyTuple_SET_ITEM(pos, 1, hidden);
    PyTuple_SET_ITEM(pos, 2, up);
    PyTuple_SET_ITEM(pos, 3, down);
    PyTuple_SET_ITEM(pos, 4, held);
    PyTuple_SET_ITEM(pos, 5, resh);
    PyTuple_SET_ITEM(pos, 6, moves);
    return pos;
fail:
    Py_XDECREF(piles); Py_XDECREF(hidden); Py_XDECREF(up); Py_XDECREF(down); Py_XDECREF(held);
    Py_XDECREF(resh); Py_XDECREF(moves);
    return NULL;
}

/* read_state, kept for the last NCACHE positions: a Position is immutable (a tuple of tuples of ints),
 * so the same object always reads the same, and the search asks one position several questions in a row
 * (its status, the dead rule, its suits, its one-suit parts, its children). */
int read_cached(Core *core, PyObject *pos, State *s) {
    for (int i = 0; i < NCACHE; i++) {
        if (core->cached[i] == pos) { *s = core->cache[i]; return 0; }
    }
    if (read_state(pos, s) < 0) return -1;
    int slot = core->next_slot;
    core->next_slot = (slot + 1) % NCACHE;
    Py_XSETREF(core->cached[slot], Py_NewRef(pos));
    core->cache[slot] = *s;
    return 0;
}

PyObject *action_of(Core *core, Act a) {
    if (a.src == RESH) return Py_NewRef(core->reshuffle);
    return Py_NewRef(PyTuple_GET_ITEM(PyTuple_GET_ITEM(core->actions, a.src), a.dst));
}

PyObject *action_list(Core *core, const Act *moves, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int k = 0; k < n; k++) PyList_SET_ITEM(list, k, action_of(core, moves[k]));
    return list;
}

PyObject *step_tuple(Core *core, const Act *step, int len) {
    PyObject *t = untracked(PyTuple_New(len));
    if (t == NULL) return NULL;
    for (int k = 0; k < len; k++) PyTuple_SET_ITEM(t, k, action_of(core, step[k]));
    return t;
}

int read_promise(PyObject *order, Promise *p) {
    memset(p, 0, sizeof *p);
    if (order == Py_None) { p->flat = 1; return 0; }
    Py_ssize_t n = PyTuple_Check(order) ? PyTuple_GET_SIZE(order) : 0;
    if (n != 4 && n != 6) {
        PyErr_SetString(PyExc_TypeError, "order: None or (home, kept, buried, tangled[, seed, spread])");
        return -1;
    }
    long *fields[6] = {&p->home, &p->kept, &p->buried, &p->tangled, &p->seed, &p->spread};
    for (Py_ssize_t i = 0; i < n; i++) {
        *fields[i] = PyLong_AsLong(PyTuple_GET_ITEM(order, i));
        if (*fields[i] == -1 && PyErr_Occurred()) return -1;
    }
    if (p->spread < 0 || p->seed < 0 || p->seed > 0xffffffffL) {
        PyErr_SetString(PyExc_ValueError, "order: seed is 0..2**32-1 and spread at least 0");
        return -1;
    }
    return 0;
}
