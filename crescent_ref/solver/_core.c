/* The solver's compiled core: the move generator, the transitions, the canonical key, the search
 * order's score and the locked-card rule, on the engine's own Position objects.
 *
 * Every function here restates one Python function of crescent_ref (named in its comment) and must
 * give exactly its answer, in the same order: the search on this core expands the same positions as
 * the pure-Python search (tests/solver/test_solver_fast.py holds it to that, and the conformance
 * adapter crescent_ref.solver.fastgame holds its moves and transitions to the corpus and perft).
 * crescent_ref/solver/fast.py builds a Core per profile and says when this module is not used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NPILES 16
#define MAXP 104          /* cards in a pile at most: the whole double deck */
#define UPB 16            /* UP + suit: the Ace foundation of that suit */
#define DOWNB 20          /* DOWN + suit: the King foundation */
#define HOLDP 24
#define NPLACES 25
#define NO_CARD 52
#define ACE 1
#define KING 13
#define DEEP 20           /* orders.DEEP */
#define MAXMOVES 512
#define MAXSTEP 16        /* slides (at most 12) and a move */
#define RESH (-1)         /* an action's src for the reshuffle */
#define NCACHE 4          /* positions whose reading is kept: one is asked several questions in a row */

typedef struct {
    int len[NPILES];
    unsigned char c[NPILES][MAXP];
    long hidden[NPILES];
    int up[4], down[4], held[4];
    long resh;
    long moves;
} State;

typedef struct { signed char src, dst; } Act;

typedef struct {
    PyObject_HEAD
    int wrap, limit, between, give_backs, autoplay, hold, stuck_no_move, collapse, ordered;
    int order[NPILES];                 /* autoplay's scan order (0-based piles) when ordered */
    int nnear[53];
    unsigned char near[53][2];
    PyTypeObject *postype;             /* crescent_ref.position.Position */
    PyObject *actions;                 /* actions.MOVES: MOVES[src][dst] */
    PyObject *reshuffle;               /* actions.RESHUFFLE */
    PyObject *heappush;                /* heapq.heappush */
    PyObject *status_text[4];          /* "won", "playing", "waiting", "lost" */
    PyObject *cached[NCACHE];          /* the positions read last (held, so that their identity stays theirs) */
    State cache[NCACHE];               /* and what was read of them */
    int next_slot;
} Core;

enum { WON, PLAYING, WAITING, LOST };

/* -- reading and writing positions ------------------------------------------------------------ */

static int read_ints(PyObject *tuple, int *out, Py_ssize_t n, const char *what) {
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

/* The tuples made here hold ints, bytes, other such tuples or the interned actions: none can be part of
 * a reference cycle, so they are taken off the cyclic collector's lists, which would otherwise walk
 * every recorded position and step at each full collection. */
static inline PyObject *untracked(PyObject *o) {
    if (o != NULL && PyObject_GC_IsTracked(o)) PyObject_GC_UnTrack(o);
    return o;
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
static PyObject *make_position(Core *core, const State *s, PyObject *parent, unsigned dirty) {
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
static int read_cached(Core *core, PyObject *pos, State *s) {
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

/* -- the move generator (movegen.pile_moves, foundation_moves, rules.ranks_after) -------------- */

static inline int top_of(const State *s, int i) { return s->len[i] ? s->c[i][s->len[i] - 1] : NO_CARD; }

static inline int is_near(const Core *core, int card, int other) {
    for (int k = 0; k < core->nnear[card]; k++)
        if (core->near[card][k] == other) return 1;
    return 0;
}

static inline int takes_up(const State *s, int suit, int rank) {
    int held = s->held[suit];
    if (held) return rank == held || rank == held + 1;
    return rank == s->up[suit] + 1 && rank <= KING;
}

static inline int takes_down(const State *s, int suit, int rank) {
    int held = s->held[suit];
    if (held) return rank == held || rank == held - 1;
    return rank == s->down[suit] - 1 && rank >= ACE;
}

/* pile_moves: per source pile in order, the piles it may go onto (ascending), then the foundations
 * or the hold that take it. */
static int pile_moves(const Core *core, const State *s, Act *out) {
    int n = 0, tops[NPILES];
    for (int i = 0; i < NPILES; i++) tops[i] = top_of(s, i);
    for (int src = 0; src < NPILES; src++) {
        int card = tops[src];
        if (card == NO_CARD) continue;
        for (int j = 0; j < NPILES; j++)
            if (tops[j] != NO_CARD && is_near(core, card, tops[j]) && s->len[j] < core->limit)
                out[n].src = (signed char)src, out[n++].dst = (signed char)j;
        int suit = card / 13, rank = card % 13 + 1;
        int a = takes_up(s, suit, rank), k = takes_down(s, suit, rank);
        if (a && k && core->hold && !s->held[suit]) {
            out[n].src = (signed char)src, out[n++].dst = HOLDP;
            continue;
        }
        if (a) out[n].src = (signed char)src, out[n++].dst = (signed char)(UPB + suit);
        if (k) out[n].src = (signed char)src, out[n++].dst = (signed char)(DOWNB + suit);
    }
    return n;
}

/* foundation_moves: give-backs and moves between foundations, sources in place order. */
static int foundation_moves(const Core *core, const State *s, Act *out) {
    int n = 0;
    for (int side = 0; side < 2; side++) {
        for (int suit = 0; suit < 4; suit++) {
            int rank = side ? s->down[suit] : s->up[suit];
            if (rank == (side ? KING : ACE)) continue;
            int src = (side ? DOWNB : UPB) + suit, partner = (side ? UPB : DOWNB) + suit;
            int card = suit * 13 + rank - 1, held = s->held[suit];
            if (core->give_backs && !held) {
                for (int j = 0; j < NPILES; j++) {
                    int top = top_of(s, j);
                    if (top != NO_CARD && is_near(core, card, top) && s->len[j] < core->limit)
                        out[n].src = (signed char)src, out[n++].dst = (signed char)j;
                }
            }
            int crosses = core->between && !held && (side ? takes_up(s, suit, rank) : takes_down(s, suit, rank));
            if (crosses) out[n].src = (signed char)src, out[n++].dst = (signed char)partner;
        }
    }
    return n;
}

/* game.status_of with movegen.can_go_on */
static int status_of(const Core *core, const State *s, int npile_moves) {
    int won = 1;
    for (int i = 0; i < 4; i++) won &= s->up[i] == KING && s->down[i] == ACE;
    if (won) return WON;
    if (npile_moves) return PLAYING;
    if (core->between) {
        for (int i = 0; i < NPILES; i++) {
            int top = top_of(s, i);
            if (top != NO_CARD && s->down[top / 13] == s->up[top / 13] + 1) return PLAYING;
        }
    }
    if (core->stuck_no_move) {
        Act buf[MAXMOVES];
        if (foundation_moves(core, s, buf)) return PLAYING;
    }
    return s->resh ? WAITING : LOST;
}

static int is_won(const State *s) {
    for (int i = 0; i < 4; i++)
        if (s->up[i] != KING || s->down[i] != ACE) return 0;
    return 1;
}

/* -- transitions (transitions.move, reshuffle, autoplay) ------------------------------------- */

static void move(State *s, int src, int dst, int count, unsigned *dirty) {
    int card;
    if (src < NPILES) {
        card = s->c[src][--s->len[src]];
        if (s->hidden[src] && s->hidden[src] >= s->len[src]) s->hidden[src] = s->len[src] > 1 ? s->len[src] - 1 : 0;
        *dirty |= 1u << src;
    } else if (src < DOWNB) {
        card = (src - UPB) * 13 + s->up[src - UPB] - 1;
        s->up[src - UPB] -= 1;
    } else {
        card = (src - DOWNB) * 13 + s->down[src - DOWNB] - 1;
        s->down[src - DOWNB] += 1;
    }
    if (dst < NPILES) {
        s->c[dst][s->len[dst]++] = (unsigned char)card;
        *dirty |= 1u << dst;
    } else {
        int suit = card / 13, rank = card % 13 + 1;
        if (dst == HOLDP) {
            s->held[suit] = rank;
        } else {
            int waiting = s->held[suit];
            s->held[suit] = 0;
            if (waiting == rank) s->up[suit] = rank, s->down[suit] = rank;
            else if (dst < DOWNB) s->up[suit] = rank;
            else s->down[suit] = rank;
        }
    }
    s->moves += count;
}

static void reshuffle(State *s, unsigned *dirty) {
    for (int i = 0; i < NPILES; i++) {
        int n = s->len[i];
        if (n > 1) {
            unsigned char bottom = s->c[i][0];
            memmove(s->c[i], s->c[i] + 1, (size_t)(n - 1));
            s->c[i][n - 1] = bottom;
            *dirty |= 1u << i;
            if (s->hidden[i]) s->hidden[i] -= 1;
        }
    }
    s->resh -= 1;
}

/* transitions.first_forced over pile_moves: the first pile (in the scan order) whose one and only
 * move goes to a foundation; -1 when none. */
static int forced(const Core *core, const State *s, int *dst) {
    Act moves[MAXMOVES];
    int n = pile_moves(core, s, moves), found[NPILES];
    for (int i = 0; i < NPILES; i++) found[i] = -1;
    for (int k = 0; k < n; k++) {
        int alone = (k == 0 || moves[k - 1].src != moves[k].src) && (k == n - 1 || moves[k + 1].src != moves[k].src);
        if (alone && moves[k].dst >= UPB && moves[k].dst < HOLDP) {
            if (!core->ordered) { *dst = moves[k].dst; return moves[k].src; }
            found[(int)moves[k].src] = moves[k].dst;
        }
    }
    for (int i = 0; core->ordered && i < NPILES; i++)
        if (found[core->order[i]] >= 0) { *dst = found[core->order[i]]; return core->order[i]; }
    return -1;
}

static void autoplay(const Core *core, State *s, unsigned *dirty) {
    int dst, src;
    while ((src = forced(core, s, &dst)) >= 0) move(s, src, dst, 0, dirty);
}

/* canon.after: the step's actions, each followed by the profile's autoplay */
static void after(const Core *core, State *s, const Act *step, int len, unsigned *dirty) {
    for (int i = 0; i < len; i++) {
        if (step[i].src == RESH) reshuffle(s, dirty);
        else move(s, step[i].src, step[i].dst, 1, dirty);
        if (core->autoplay) autoplay(core, s, dirty);
    }
}

/* -- the steps searched (canon.steps, search.choices, safe.safe_move) ------------------------ */

typedef struct { int n; int len[MAXMOVES]; Act a[MAXMOVES][MAXSTEP]; } Steps;

static inline int meets(const State *s, int suit) { return !s->held[suit] && s->down[suit] == s->up[suit] + 1; }

static int move_rank(Act m) { return (m.src < NPILES && m.dst >= NPILES) ? 0 : m.src < NPILES ? 1 : 2; }

static void add_sorted(Steps *out, const Act *moves, int n) {
    /* canon._rank order, stable: to a foundation or the hold, onto a pile, from a foundation */
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < n; k++)
            if (move_rank(moves[k]) == r) { out->a[out->n][0] = moves[k]; out->len[out->n++] = 1; }
}

static void home(const State *s, int src, Act *step, int *len) {
    int card = top_of(s, src), suit = card / 13, rank = card % 13 + 1, up = s->up[suit];
    int by_up = rank > 1 ? abs(up - (rank - 1)) : 99, by_down = rank < KING ? abs(up - rank) : 99;
    int target = by_up <= by_down ? rank - 1 : rank, dst = (by_up <= by_down ? UPB : DOWNB) + suit;
    Act slide = target < up ? (Act){(signed char)(UPB + suit), (signed char)(DOWNB + suit)}
                            : (Act){(signed char)(DOWNB + suit), (signed char)(UPB + suit)};
    int n = 0;
    for (int k = 0; k < abs(up - target); k++) step[n++] = slide;
    step[n].src = (signed char)src, step[n++].dst = (signed char)dst;
    *len = n;
}

static void steps(const Core *core, const State *s, const Act *moves, int n, Steps *out) {
    out->n = 0;
    if (!core->collapse) {
        Act all[MAXMOVES];
        memcpy(all, moves, sizeof(Act) * (size_t)n);
        int m = n;
        if (core->between || core->give_backs) m += foundation_moves(core, s, all + n);
        add_sorted(out, all, m);
        return;
    }
    int meeting[4], any = 0;
    for (int i = 0; i < 4; i++) any |= meeting[i] = meets(s, i);
    if (!any) { add_sorted(out, moves, n); return; }
    Act kept[MAXMOVES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].dst < NPILES || !meeting[top_of(s, moves[i].src) / 13]) kept[k++] = moves[i];
    for (int src = 0; src < NPILES; src++) {
        int top = top_of(s, src);
        if (top != NO_CARD && meeting[top / 13]) { home(s, src, out->a[out->n], &out->len[out->n]); out->n++; }
    }
    add_sorted(out, kept, k);
}

static int on_foundations(const State *s, int card) {
    int suit = card / 13, rank = card % 13 + 1;
    return (rank <= s->up[suit]) + (rank >= s->down[suit]);
}

static int safe_move(const Core *core, const State *s, const Act *moves, int n) {
    if (core->give_backs || core->autoplay) return -1;
    for (int k = 0; k < n; k++) {
        if (moves[k].dst < UPB || moves[k].dst >= UPB + 8 || moves[k].src >= NPILES) continue;
        int src = moves[k].src, top = top_of(s, src), all = 1;
        for (int i = 0; i < core->nnear[top] && all; i++) all = on_foundations(s, core->near[top][i]) == 2;
        if (s->len[src] > s->resh && all) return k;
    }
    return -1;
}

static void choices(const Core *core, const State *s, const Act *moves, int n, int prune, Steps *out) {
    int safe = prune ? safe_move(core, s, moves, n) : -1;
    if (safe >= 0) {
        out->n = 1, out->len[0] = 1, out->a[0][0] = moves[safe];
        return;
    }
    steps(core, s, moves, n, out);
    if (s->resh) { out->a[out->n][0] = (Act){RESH, RESH}; out->len[out->n++] = 1; }
}

/* -- the canonical key (canon.key) ----------------------------------------------------------- */

static int pile_cmp(const State *s, int a, int b) {
    int n = s->len[a] < s->len[b] ? s->len[a] : s->len[b];
    int c = n ? memcmp(s->c[a], s->c[b], (size_t)n) : 0;
    return c ? c : s->len[a] - s->len[b];
}

static PyObject *key_of(const Core *core, const State *s) {
    int idx[NPILES], total = 0;
    for (int i = 0; i < NPILES; i++) idx[i] = i, total += s->len[i];
    if (!core->autoplay) {
        for (int i = 1; i < NPILES; i++) {  /* insertion sort: 16 piles */
            int v = idx[i], j = i - 1;
            while (j >= 0 && pile_cmp(s, idx[j], v) > 0) { idx[j + 1] = idx[j]; j--; }
            idx[j + 1] = v;
        }
    }
    Py_ssize_t size = total + (NPILES - 1) + 13;
    PyObject *key = PyBytes_FromStringAndSize(NULL, size);
    if (key == NULL) return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(key);
    for (int i = 0; i < NPILES; i++) {
        if (i) *out++ = 0xff;
        memcpy(out, s->c[idx[i]], (size_t)s->len[idx[i]]);
        out += s->len[idx[i]];
    }
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)(core->collapse && meets(s, i) ? 0 : s->up[i]);
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)(core->collapse && meets(s, i) ? 0 : s->down[i]);
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->held[i];
    *out = (unsigned char)(s->resh > 255 ? 255 : s->resh);
    return key;
}

/* -- the search order (orders.Promise with orders.features) ---------------------------------- */

typedef struct { long home, kept, buried, tangled; int flat; } Promise;

static int code_of(const State *s, int card) {
    int suit = card / 13, rank = card % 13 + 1;
    if (rank <= s->up[suit]) return suit * 16 + KING - rank;
    if (rank >= s->down[suit]) return suit * 16 + rank;
    return -1;
}

static long score(const State *s, const Promise *p) {
    if (p->flat) return 0;
    int nexts[8], nn = 0, depth[8];
    for (int i = 0; i < 4; i++) if (s->up[i] < KING) nexts[nn++] = i * 13 + s->up[i];
    for (int i = 0; i < 4; i++) if (s->down[i] > ACE) nexts[nn++] = i * 13 + s->down[i] - 2;
    for (int i = 0; i < nn; i++) depth[i] = DEEP;
    int codes[52];
    for (int c = 0; c < 52; c++) codes[c] = code_of(s, c);
    long tangled = 0;
    for (int i = 0; i < NPILES; i++) {
        int n = s->len[i];
        const unsigned char *pile = s->c[i];
        for (int j = 1; j < n; j++) {
            int u = codes[pile[j]];
            if (u > 0) {
                int low = u - u % 16;
                for (int k = 0; k < j; k++) { int l = codes[pile[k]]; tangled += low <= l && l < u; }
            }
        }
        for (int t = 0; t < nn; t++) {
            for (int j = n - 1; j >= 0; j--) {
                if (pile[j] == nexts[t]) { if (n - 1 - j < depth[t]) depth[t] = n - 1 - j; break; }
            }
        }
    }
    long buried = 0, home = 0;
    for (int t = 0; t < nn; t++) buried += depth[t];
    for (int i = 0; i < 4; i++) home += s->up[i] + KING + 1 - s->down[i];
    return home * p->home + s->resh * p->kept - p->buried * buried - p->tangled * tangled;
}

/* -- the locked-card rule (dead.witness) ------------------------------------------------------ */

static int never_placed(const Core *core, const State *s, int card, const int *loose, const int *trapped) {
    int suit = card / 13, rank = card % 13 + 1, up = s->up[suit], down = s->down[suit];
    int ace = suit * 13 - 1, held = s->held[suit], lacking[KING + 1] = {0};
    for (int r = ACE + 1; r < KING; r++) lacking[r] = loose[ace + r] == trapped[ace + r] && held != r;
    int up_closed = rank == ACE || rank <= up, down_closed = rank == KING || rank >= down, between = 0;
    for (int r = ACE + 1; r < KING; r++) {
        if (!lacking[r]) continue;
        up_closed |= up < r && r < rank;
        down_closed |= rank < r && r < down;
        between |= up < r && r < down;
    }
    int may_meet = core->between && down > up && !between;
    return up_closed && down_closed && !may_meet;
}

static int pile_dead(const Core *core, const State *s, int i, const int *loose) {
    int trapped[53] = {0}, locked[53] = {0};
    for (int j = (int)s->resh; j < s->len[i]; j++) trapped[s->c[i][j]]++;
    for (int j = s->len[i] - 1; j > s->resh; j--) {
        int card = s->c[i][j], all = 1;
        trapped[card]--;
        for (int k = 0; k < core->nnear[card] && all; k++) {
            int n = core->near[card][k];
            all = loose[n] == trapped[n] + locked[n];
        }
        if (all) {
            if (never_placed(core, s, card, loose, trapped)) return card;
            locked[card]++;
        }
    }
    return -1;
}

static int witness(const Core *core, const State *s, int *card) {
    if (core->give_backs) return -1;
    int loose[53] = {0};
    for (int i = 0; i < NPILES; i++)
        for (int j = 0; j < s->len[i]; j++) loose[s->c[i][j]]++;
    for (int i = 0; i < NPILES; i++) {
        if (s->len[i] > s->resh + 1 && (*card = pile_dead(core, s, i, loose)) >= 0) return i;
    }
    return -1;
}

/* -- the Python face ------------------------------------------------------------------------- */

static PyObject *action_of(Core *core, Act a) {
    if (a.src == RESH) return Py_NewRef(core->reshuffle);
    return Py_NewRef(PyTuple_GET_ITEM(PyTuple_GET_ITEM(core->actions, a.src), a.dst));
}

static PyObject *action_list(Core *core, const Act *moves, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int k = 0; k < n; k++) PyList_SET_ITEM(list, k, action_of(core, moves[k]));
    return list;
}

static PyObject *step_tuple(Core *core, const Act *step, int len) {
    PyObject *t = untracked(PyTuple_New(len));
    if (t == NULL) return NULL;
    for (int k = 0; k < len; k++) PyTuple_SET_ITEM(t, k, action_of(core, step[k]));
    return t;
}

static int read_promise(PyObject *order, Promise *p) {
    memset(p, 0, sizeof *p);
    if (order == Py_None) { p->flat = 1; return 0; }
    if (!PyTuple_Check(order) || PyTuple_GET_SIZE(order) != 4) {
        PyErr_SetString(PyExc_TypeError, "order: None or (home, kept, buried, tangled)");
        return -1;
    }
    long *fields[4] = {&p->home, &p->kept, &p->buried, &p->tangled};
    for (int i = 0; i < 4; i++) {
        *fields[i] = PyLong_AsLong(PyTuple_GET_ITEM(order, i));
        if (*fields[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

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
    State m;  /* each pile with its mark in front, so that the sort is of (mark, *pile) */
    int idx[NPILES], total = 0;
    for (int i = 0; i < NPILES; i++) {
        int mark = PyObject_IsTrue(PyTuple_GET_ITEM(marks, i));
        if (mark < 0) return NULL;
        if (s.len[i] >= MAXP) {
            PyErr_Format(PyExc_ValueError, "marked_key: pile %d has more than %d cards", i + 1, MAXP - 1);
            return NULL;
        }
        m.c[i][0] = (unsigned char)mark;
        memcpy(m.c[i] + 1, s.c[i], (size_t)s.len[i]);
        m.len[i] = s.len[i] + 1;
        idx[i] = i, total += m.len[i];
    }
    for (int i = 1; i < NPILES; i++) {
        int v = idx[i], j = i - 1;
        while (j >= 0 && pile_cmp(&m, idx[j], v) > 0) { idx[j + 1] = idx[j]; j--; }
        idx[j + 1] = v;
    }
    PyObject *key = PyBytes_FromStringAndSize(NULL, 1 + total + (NPILES - 1) + 13);
    if (key == NULL) return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(key);
    *out++ = 'L';
    for (int i = 0; i < NPILES; i++) {
        if (i) *out++ = 0xff;
        memcpy(out, m.c[idx[i]], (size_t)m.len[idx[i]]);
        out += m.len[idx[i]];
    }
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s.up[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s.down[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s.held[i];
    *out = (unsigned char)s.resh;
    return key;
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
        PyObject *rank = PyLong_FromLong(-score(&c, &p));
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

static PyMethodDef Core_methods[] = {
    {"pile_moves", (PyCFunction)Core_pile_moves, METH_O, "movegen.pile_moves"},
    {"foundation_moves", (PyCFunction)Core_foundation_moves, METH_O, "movegen.foundation_moves"},
    {"status", (PyCFunction)Core_status, METH_O, "game.status_of"},
    {"key", (PyCFunction)Core_key, METH_O, "canon.key"},
    {"witness", (PyCFunction)Core_witness, METH_O, "dead.witness"},
    {"dead", (PyCFunction)Core_dead, METH_O, "dead.dead"},
    {"score", (PyCFunction)Core_score, METH_VARARGS, "orders.Promise (order None: depth_first)"},
    {"move", (PyCFunction)Core_move, METH_VARARGS, "transitions.move(pos, src, dst, count)"},
    {"reshuffle", (PyCFunction)Core_reshuffle, METH_O, "transitions.reshuffle"},
    {"children", (PyCFunction)Core_children, METH_VARARGS, "[(step, canon.after(pos, step))] for canon.steps"},
    {"suits", (PyCFunction)Core_suits, METH_O, "the suits on the piles, ascending"},
    {"rotating", (PyCFunction)Core_rotating, METH_VARARGS, "last.rotating"},
    {"marked_key", (PyCFunction)Core_marked_key, METH_VARARGS, "last.marked_key"},
    {"one_suit", (PyCFunction)Core_one_suit, METH_VARARGS, "suits.one_suit"},
    {"expand", (PyCFunction)(void (*)(void))Core_expand, METH_FASTCALL, "search.Search.expand"},
    {NULL, NULL, 0, NULL},
};

static int Core_init(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"wrap", "limit", "between", "give_backs", "autoplay", "order", "hold",
                            "stuck_no_move", "position", "moves", "reshuffle", NULL};
    PyObject *order, *postype, *actions, *resh;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "pipppOppOOO", names, &self->wrap, &self->limit, &self->between,
                                     &self->give_backs, &self->autoplay, &order, &self->hold, &self->stuck_no_move,
                                     &postype, &actions, &resh))
        return -1;
    if (!PyType_Check(postype) || !PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != NPLACES) {
        PyErr_SetString(PyExc_TypeError, "Core: position is the Position type, moves the MOVES table");
        return -1;
    }
    self->ordered = order != Py_None;
    if (self->ordered) {
        int seen[NPILES] = {0};
        if (read_ints(order, self->order, NPILES, "order") < 0) return -1;
        for (int i = 0; i < NPILES; i++) {
            if (self->order[i] >= NPILES || seen[self->order[i]]++) {
                PyErr_SetString(PyExc_ValueError, "Core: order is the 16 piles (0-based), each once");
                return -1;
            }
        }
    }
    if (self->limit < 0) self->limit = 0;
    self->collapse = self->between && !self->give_backs && !self->autoplay;
    for (int card = 0; card < 52; card++) {
        int rank = card % 13 + 1, ace = card - card % 13, n = 0, below = rank - 1, above = rank + 1;
        if (self->wrap) {
            self->near[card][n++] = (unsigned char)(ace + (below ? below : KING) - 1);
            self->near[card][n++] = (unsigned char)(ace + (above <= KING ? above : ACE) - 1);
        } else {
            if (below >= ACE) self->near[card][n++] = (unsigned char)(ace + below - 1);
            if (above <= KING) self->near[card][n++] = (unsigned char)(ace + above - 1);
        }
        self->nnear[card] = n;
    }
    self->nnear[NO_CARD] = 0;
    PyObject *heapq = PyImport_ImportModule("heapq");
    if (heapq == NULL) return -1;
    Py_XSETREF(self->heappush, PyObject_GetAttrString(heapq, "heappush"));
    Py_DECREF(heapq);
    if (self->heappush == NULL) return -1;
    Py_XSETREF(self->postype, (PyTypeObject *)Py_NewRef(postype));
    Py_XSETREF(self->actions, Py_NewRef(actions));
    Py_XSETREF(self->reshuffle, Py_NewRef(resh));
    const char *texts[4] = {"won", "playing", "waiting", "lost"};
    for (int i = 0; i < 4; i++) {
        Py_XSETREF(self->status_text[i], PyUnicode_InternFromString(texts[i]));
        if (self->status_text[i] == NULL) return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    Py_XDECREF(self->postype);
    Py_XDECREF(self->actions);
    Py_XDECREF(self->reshuffle);
    Py_XDECREF(self->heappush);
    for (int i = 0; i < 4; i++) Py_XDECREF(self->status_text[i]);
    for (int i = 0; i < NCACHE; i++) Py_XDECREF(self->cached[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "crescent_ref.solver._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled core of one profile (see crescent_ref/solver/fast.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's compiled core (crescent_ref/solver/fast.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
