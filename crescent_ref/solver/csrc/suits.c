/* One suit at a time: suits.some_suit_lost with suits.zero, suits.one_left and last.sweep.
 *
 * Asked by the search loop (search.c) of the positions with no reshuffle left (and one, from the
 * second round of restarts) in profiles without autoplay, in place of Search.relaxed. The answers go
 * into the solve's Python memo under the keys suits.py gives them, so both loops share what they
 * learn; a one-suit position's own search (a memo miss) is onesuit.c's when the search asks for it
 * (Relax.decide_nodes), else Python's Search.suit_verdict, itself run on the compiled loop. last.sweep's own depth-first walk keeps its seen positions in a table.c table. */
#include "core.h"

enum { WINNABLE, NOT_WINNABLE, UNKNOWN };

static int verdict_code(const Relax *r, PyObject *text) {
    for (int i = 0; i < 3; i++)
        if (text == r->text[i]) return i;
    for (int i = 0; i < 3; i++) {
        int same = PyUnicode_Check(text) ? PyUnicode_Compare(text, r->text[i]) == 0 : 0;
        if (same) return i;
    }
    PyErr_SetString(PyExc_ValueError, "one-suit verdict: expected winnable, not winnable or unknown");
    return -1;
}

/* the memo's verdict for the key in ``key`` (n bytes), or -2 when it holds none */
static int memo_get(const Relax *r, PyObject *key) {
    PyObject *found = PyDict_GetItemWithError(r->memo, key);
    if (found == NULL) return PyErr_Occurred() ? -1 : -2;
    return verdict_code(r, found);
}

static int memo_set(const Relax *r, PyObject *key, int verdict) {
    return PyDict_SetItem(r->memo, key, r->text[verdict]);
}

/* suits.one_suit for the four suits at once (parts[suit]): one pass over the piles' cards; the suits
 * with a card on the piles, a bit each */
static unsigned one_suits(const State *s, State *parts) {
    unsigned seen = 0;
    for (int i = 0; i < NPILES; i++) {
        int n[4] = {0};
        for (int j = 0; j < s->len[i]; j++) {
            int card = s->c[i][j], suit = card / 13;
            parts[suit].c[i][n[suit]++] = (unsigned char)card;
        }
        for (int suit = 0; suit < 4; suit++) {
            parts[suit].len[i] = n[suit], parts[suit].hidden[i] = 0;
            if (n[suit]) seen |= 1u << suit;
        }
    }
    for (int suit = 0; suit < 4; suit++) {
        State *part = &parts[suit];
        for (int i = 0; i < 4; i++) {
            part->up[i] = i == suit ? s->up[i] : KING;
            part->down[i] = i == suit ? s->down[i] : ACE;
            part->held[i] = i == suit ? s->held[i] : 0;
        }
        part->resh = s->resh;
        part->moves = 0;
    }
    return seen;
}

/* What Search.run answers about a one-suit position before it searches (search.py's
 * ``run``, with ``prune`` and the compiled core, as Search.solve_suit runs it): won, lost, or dead
 * at the start by the locked-card rule or waits.py, each with no node made; -2 when it would
 * search. Asked here, it spares the call into Python for the many one-suit positions decided at
 * their start; the verdict and the nodes are the same (no key is met, so none is remembered). */
static int start_verdict(Core *core, const State *part) {
    Act moves[MAXMOVES];
    int card, status = status_of(core, part, pile_moves(core, part, moves));
    if (status == WON) return WINNABLE;
    if (status == LOST || witness(core, part, &card) >= 0) return NOT_WINNABLE;
    int stuck = waits_dead(core, part);
    return stuck < 0 ? -1 : stuck ? NOT_WINNABLE : -2;
}

/* suits.zero: a one-suit position with no reshuffle left, remembered by its key */
static int zero_verdict(Core *core, const Relax *r, const State *part, long *nodes) {
    PyObject *key = key_of(core, part);
    if (key == NULL) return -1;
    int verdict = memo_get(r, key);
    if (verdict == -2 && (verdict = start_verdict(core, part)) >= 0 && memo_set(r, key, verdict) < 0) verdict = -1;
    if (verdict == -2 && r->decide_nodes > 0) {  /* onesuit.c's own search, where it applies */
        long made = 0;
        verdict = onesuit_decide(core, part, r->decide_nodes, 1, r->memo, &made, NULL, NULL);
        if (r->decide_counted) *nodes += made;
        if (verdict >= 0 && memo_set(r, key, verdict) < 0) verdict = -1;
    }
    if (verdict == -2) {
        PyObject *pos = make_position(core, part, NULL, 0);
        PyObject *said = pos ? PyObject_CallOneArg(r->solve_suit, pos) : NULL;
        Py_XDECREF(pos);
        PyObject *text = NULL;
        long made = 0;
        verdict = said && PyArg_ParseTuple(said, "Ol", &text, &made) ? verdict_code(r, text) : -1;
        Py_XDECREF(said);
        *nodes += made;
        if (verdict >= 0 && memo_set(r, key, verdict) < 0) verdict = -1;
    }
    Py_DECREF(key);
    return verdict;
}

/* the exact one-suit position (piles in order, foundations, hold, reshuffles left): the sweep's seen key */
static size_t exact_into(const State *s, unsigned char *out) {
    unsigned char *start = out;
    for (int i = 0; i < NPILES; i++) {
        *out++ = (unsigned char)s->len[i];
        copy_cards(out, s->c[i], s->len[i]);
        out += s->len[i];
    }
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->up[i], *out++ = (unsigned char)s->down[i], *out++ = (unsigned char)s->held[i];
    *out++ = (unsigned char)(s->resh > 255 ? 255 : s->resh);
    return (size_t)(out - start);
}

/* last.solve with last.sweep: Q_s depth first, each position once, asking suits.zero of the position
 * after its (marked) reshuffle; the verdict, the positions generated added to *nodes */
static int last_verdict(Core *core, const Relax *r, const State *start, const int *marks, const Plan *plan, long *nodes) {
    Table t;
    table_take(core, SPARE_SWEEP, &t);
    unsigned char key[KEYMAX + NPILES];
    uint32_t *todo = NULL;
    size_t ntodo = 0, cap_todo = 0;
    long made = 0, popped = 0;
    int fresh, verdict = -1;
    Steps *all = PyMem_RawMalloc(sizeof *all);
    if (all == NULL) { PyErr_NoMemory(); goto done; }
    if (table_add(&t, key, exact_into(start, key), &fresh) < 0 || pack(&t, &t.nodes[0], start, NULL) < 0) goto done;
    if (grow((void **)&todo, &cap_todo, 1, sizeof *todo) < 0) goto done;
    todo[ntodo++] = 0;
    while (ntodo) {
        State s;
        int card;
        unpack(&t, &t.nodes[todo[--ntodo]], &s);
        if (is_won(&s)) { verdict = WINNABLE; goto done; }
        if (witness(core, &s, &card) >= 0) continue;
        /* the clock is a system call: read at the first position and every 64th after */
        if (!(popped++ & 63) && cpu_seconds() - plan->started >= plan->seconds) { verdict = UNKNOWN; goto done; }
        State after_it = s;
        for (int i = 0; i < NPILES; i++) {
            int n = after_it.len[i];
            if (marks[i] && n > 1) {
                unsigned char bottom = after_it.c[i][0];
                memmove(after_it.c[i], after_it.c[i] + 1, (size_t)(n - 1));
                after_it.c[i][n - 1] = bottom;
            }
        }
        after_it.resh -= 1;
        int v = zero_verdict(core, r, &after_it, nodes);
        if (v != NOT_WINNABLE) { verdict = v; goto done; }
        Act moves[MAXMOVES];
        steps(core, &s, moves, pile_moves(core, &s, moves), all);
        for (int k = 0; k < all->n; k++) {
            if (++made > r->last_nodes) { verdict = UNKNOWN; goto done; }
            State c = s;
            unsigned dirty = 0;
            after(core, &c, all->a[k], all->len[k], &dirty);
            c.moves = 0;
            long child = table_add(&t, key, exact_into(&c, key), &fresh);
            if (child < 0) goto done;
            if (!fresh) continue;
            if (pack(&t, &t.nodes[child], &c, NULL) < 0 || grow((void **)&todo, &cap_todo, ntodo + 1, sizeof *todo) < 0)
                goto done;
            todo[ntodo++] = (uint32_t)child;
        }
    }
    verdict = NOT_WINNABLE;
done:
    *nodes += made;
    PyMem_RawFree(all);
    PyMem_RawFree(todo);
    table_give(core, SPARE_SWEEP, &t);
    return verdict;
}

/* last.marked_key of a read position and its 16 marks (Core_marked_key checks the Python values first) */
PyObject *marked_key_of(const State *s, const int *marks) {
    State m;
    KeyOrder o;
    int *idx = o.idx, total = 0;
    for (int i = 0; i < NPILES; i++) {
        if (s->len[i] >= MAXP) { PyErr_SetString(PyExc_ValueError, "marked_key: a pile too long"); return NULL; }
        m.c[i][0] = (unsigned char)marks[i];
        copy_cards(m.c[i] + 1, s->c[i], s->len[i]);  /* s->len[i] < MAXP: the row has room for the copy */
        m.len[i] = s->len[i] + 1;
        total += m.len[i];
    }
    pile_order(&m, &o);
    PyObject *key = PyBytes_FromStringAndSize(NULL, 1 + total + (NPILES - 1) + 13);
    if (key == NULL) return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(key);
    *out++ = 'L';
    for (int i = 0; i < NPILES; i++) {
        if (i) *out++ = 0xff;
        memcpy(out, m.c[idx[i]], (size_t)m.len[idx[i]]);
        out += m.len[idx[i]];
    }
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->up[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->down[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->held[i];
    *out = (unsigned char)(s->resh < 0 ? 0 : s->resh > 255 ? 255 : s->resh);
    return key;
}

/* suits.one_left of ``part`` (suit ``suit`` of ``s``): the marked key, the memo, else last_verdict */
static int one_left_verdict(Core *core, const Relax *r, const State *s, const State *part, int suit, const Plan *plan,
                            long *nodes) {
    int marks[NPILES];
    for (int i = 0; i < NPILES; i++) marks[i] = s->len[i] && s->c[i][0] / 13 == suit;
    PyObject *key = marked_key_of(part, marks);
    if (key == NULL) return -1;
    int verdict = memo_get(r, key);
    if (verdict == -2) {
        verdict = last_verdict(core, r, part, marks, plan, nodes);
        if (verdict >= 0 && memo_set(r, key, verdict) < 0) verdict = -1;
    }
    Py_DECREF(key);
    return verdict;
}

/* suits.some_suit_lost for no reshuffle left or one (the caller checked which applies): 1 when some
 * suit alone is proved not winnable. The suits in ``known`` are not asked: their questions were asked
 * before and answered not lost (the memo would answer the same, with no node made). *alive gets the
 * suits asked or known, none lost, when the answer is 0. */
int suit_lost(Core *core, const Relax *r, const State *s, const Plan *plan, long *nodes, unsigned known, unsigned *alive) {
    State parts[4];
    unsigned seen = one_suits(s, parts);
    *alive = 0;
    if (__builtin_popcount(seen) < 2 && s->resh == 0) return 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!(seen >> suit & 1)) continue;
        if (!(known >> suit & 1)) {
            int verdict = s->resh == 0 ? zero_verdict(core, r, &parts[suit], nodes)
                                       : one_left_verdict(core, r, s, &parts[suit], suit, plan, nodes);
            if (verdict < 0) return -1;
            if (verdict == NOT_WINNABLE) return 1;
        }
        *alive |= 1u << suit;
    }
    return 0;
}
