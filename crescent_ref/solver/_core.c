/* The solver's compiled core: the move generator, the transitions, the canonical key, the search
 * order's score, the locked-card rule and the waiting rule, on the engine's own Position objects;
 * and the search loop itself (Core.search), with the one-suit rules of suits.py and last.py.
 *
 * Every function here restates one Python function of crescent_ref (named in its comment) and must
 * give exactly its answer, in the same order: the search on this core expands the same positions as
 * the pure-Python search (tests/solver/test_solver_fast.py holds it to that, and the conformance
 * adapter crescent_ref.solver.fastgame holds its moves and transitions to the corpus and perft).
 * crescent_ref/solver/fast.py builds a Core per profile and says when this module is not used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

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
    PyObject *verdict_text[3];         /* "winnable", "not winnable", "unknown" */
    PyObject *cached[NCACHE];          /* the positions read last (held, so that their identity stays theirs) */
    State cache[NCACHE];               /* and what was read of them */
    int next_slot;
    struct Waits *waits;               /* waits.py's scratch, made when first asked */
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
    if (n && s->c[a][0] != s->c[b][0]) return s->c[a][0] - s->c[b][0];  /* most piles differ at the bottom */
    int c = n ? memcmp(s->c[a], s->c[b], (size_t)n) : 0;
    return c ? c : s->len[a] - s->len[b];
}

/* the key's bytes into ``out`` (at most KEYMAX); their number */
#define KEYMAX (MAXP * NPILES + NPILES + 13)
static Py_ssize_t key_into(const Core *core, const State *s, unsigned char *out) {
    int idx[NPILES];
    unsigned char *start = out;
    for (int i = 0; i < NPILES; i++) idx[i] = i;
    if (!core->autoplay) {
        for (int i = 1; i < NPILES; i++) {  /* insertion sort: 16 piles */
            int v = idx[i], j = i - 1;
            while (j >= 0 && pile_cmp(s, idx[j], v) > 0) { idx[j + 1] = idx[j]; j--; }
            idx[j + 1] = v;
        }
    }
    for (int i = 0; i < NPILES; i++) {
        if (i) *out++ = 0xff;
        memcpy(out, s->c[idx[i]], (size_t)s->len[idx[i]]);
        out += s->len[idx[i]];
    }
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)(core->collapse && meets(s, i) ? 0 : s->up[i]);
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)(core->collapse && meets(s, i) ? 0 : s->down[i]);
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->held[i];
    *out++ = (unsigned char)(s->resh > 255 ? 255 : s->resh);
    return out - start;
}

static PyObject *key_of(const Core *core, const State *s) {
    unsigned char buf[KEYMAX];
    Py_ssize_t n = key_into(core, s, buf);
    return PyBytes_FromStringAndSize((const char *)buf, n);
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
    int codes[52], nearest[52];  /* nearest: the fewest cards on a copy of the card, over the piles */
    for (int c = 0; c < 52; c++) codes[c] = code_of(s, c), nearest[c] = DEEP;
    long tangled = 0;
    for (int i = 0; i < NPILES; i++) {
        int n = s->len[i];
        const unsigned char *pile = s->c[i];
        for (int j = 0; j < n; j++) {
            if (n - 1 - j < nearest[pile[j]]) nearest[pile[j]] = n - 1 - j;
            int u = codes[pile[j]];
            if (u > 0) {
                int low = u - u % 16;
                for (int k = 0; k < j; k++) { int l = codes[pile[k]]; tangled += low <= l && l < u; }
            }
        }
    }
    for (int t = 0; t < nn; t++) depth[t] = nearest[nexts[t]];
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

/* -- cards that wait on each other (waits.stuck) ---------------------------------------------------
 *
 * waits.py's fixed point restated: the closed cards (no neighbour copy topping another pile or free
 * to rotate up) in the order waits.stuck lists them (piles ascending, each from its top down), their
 * gates, and the least set of events, iterated until nothing changes. The prerequisites are read off
 * the position at each look instead of being listed first: the least fixed point is the same. */

#define ALWAYS (-1)
#define COPIES 8          /* copies of one card on the piles that the rule follows (a double deck: 2) */

typedef struct Waits {
    const State *s;
    int resh, m;
    unsigned char cp[52][COPIES], ci[52][COPIES], ncopies[53];  /* where: the spots of each card */
    short number[NPILES][MAXP];          /* the closed card's number at a spot, or -1 */
    short gates[NPILES][MAXP];           /* per pinned spot of a gated pile: the closed card at or above it */
    unsigned char gated[NPILES];
    unsigned char closed_p[NPILES * MAXP], closed_i[NPILES * MAXP];
    unsigned char flags[2 * NPILES * MAXP];
} Waits;

static inline int wait_left(const Waits *w, int q, int j) {
    int gate = j >= w->resh ? (w->gated[q] ? w->gates[q][j] : ALWAYS) : w->number[q][j];
    return gate < 0 ? ALWAYS : 2 * gate + 1;
}

static inline int wait_met(const Waits *w, int code) { return code < 0 || w->flags[code]; }

/* some pile route of closed card m is open (waits._onto, any requirement met) */
static int onto_met(const Core *core, const Waits *w, int m) {
    int p = w->closed_p[m], i = w->closed_i[m], card = w->s->c[p][i];
    for (int k = 0; k < core->nnear[card]; k++) {
        int n = core->near[card][k];
        for (int c = 0; c < w->ncopies[n]; c++) {
            int q = w->cp[n][c], j = w->ci[n][c], code;
            if (q != p) code = wait_left(w, q, j + 1);
            else if (j > i || j < w->resh) code = w->number[q][j] >= 0 ? 2 * w->number[q][j] : wait_left(w, q, j);
            else continue;
            if (wait_met(w, code)) return 1;
        }
    }
    return 0;
}

/* every rank in ``ranks`` (n of them) can arrive: some copy of it leaves its pile */
static int ranks_met(const Waits *w, int suit, const int *ranks, int n) {
    for (int k = 0; k < n; k++) {
        int card = suit * 13 + ranks[k] - 1, any = 0;
        for (int c = 0; c < w->ncopies[card] && !any; c++) any = wait_met(w, wait_left(w, w->cp[card][c], w->ci[card][c]));
        if (!any) return 0;
    }
    return 1;
}

/* some foundation route of closed card m is open (waits._home over waits._ranks_needed) */
static int home_met(const Core *core, const Waits *w, int m) {
    const State *s = w->s;
    int card = s->c[w->closed_p[m]][w->closed_i[m]], suit = card / 13, rank = card % 13 + 1;
    int a = s->up[suit], b = s->down[suit], h = s->held[suit], slides = core->between && b > a;
    int meet[KING], nmeet = 0, ranks[KING], n;
    for (int k = a + 1; k < b; k++) if (k != h) meet[nmeet++] = k;
    if (rank != ACE && (rank > a || slides)) {
        if (rank <= a) { if (ranks_met(w, suit, meet, nmeet)) return 1; }
        else {
            n = 0;
            for (int k = a + 1; k < rank; k++) if (k != h && !(slides && k >= b)) ranks[n++] = k;
            if (ranks_met(w, suit, ranks, n)) return 1;
        }
    }
    if (rank != KING && (rank < b || slides)) {
        if (rank >= b) { if (ranks_met(w, suit, meet, nmeet)) return 1; }
        else {
            n = 0;
            for (int k = rank + 1; k < b; k++) if (k != h && !(slides && k <= a)) ranks[n++] = k;
            if (ranks_met(w, suit, ranks, n)) return 1;
        }
    }
    return 0;
}

/* waits.stuck: the number of stuck cards, their spots in w->closed_* order into ``out`` (closed numbers) */
static int waits_stuck(const Core *core, const State *s, Waits *w, int *out) {
    if (core->give_backs) return 0;
    w->s = s;
    w->resh = s->resh < 0 ? 0 : s->resh > MAXP ? MAXP : (int)s->resh;
    w->m = 0;
    uint32_t reached[53] = {0};
    memset(w->ncopies, 0, sizeof w->ncopies);
    for (int p = 0; p < NPILES; p++) {
        for (int i = 0; i < s->len[p]; i++) {
            int card = s->c[p][i];
            if (w->ncopies[card] >= COPIES) return 0;  /* beyond any deal: the rule proves nothing */
            w->cp[card][w->ncopies[card]] = (unsigned char)p, w->ci[card][w->ncopies[card]++] = (unsigned char)i;
            if (i < w->resh) reached[card] |= 1u << p;
            w->number[p][i] = -1;
        }
        if (s->len[p]) reached[top_of(s, p)] |= 1u << p;
    }
    for (int p = 0; p < NPILES; p++) {
        w->gated[p] = 0;
        for (int i = s->len[p] - 1; i >= 0; i--) {
            int card = s->c[p][i];
            uint32_t piles = 0;
            for (int k = 0; k < core->nnear[card]; k++) piles |= reached[core->near[card][k]];
            if (piles & ~(1u << p)) continue;
            w->number[p][i] = (short)w->m;
            w->closed_p[w->m] = (unsigned char)p, w->closed_i[w->m++] = (unsigned char)i;
            if (i >= w->resh) w->gated[p] = 1;
        }
    }
    if (!w->m) return 0;
    for (int p = 0; p < NPILES; p++) {
        if (!w->gated[p]) continue;
        short gate = ALWAYS;
        for (int i = s->len[p] - 1; i >= 0; i--) {
            if (w->number[p][i] >= 0) gate = w->number[p][i];
            w->gates[p][i] = gate;
        }
    }
    memset(w->flags, 0, (size_t)(2 * w->m));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int m = 0; m < w->m; m++) {
            int p = w->closed_p[m], i = w->closed_i[m];
            int gate = w->resh <= i && i < s->len[p] - 1 ? wait_left(w, p, i + 1) : ALWAYS;
            if (w->flags[2 * m] || !wait_met(w, gate)) continue;
            if (onto_met(core, w, m)) { w->flags[2 * m] = w->flags[2 * m + 1] = 1; changed = 1; continue; }
            if (w->flags[2 * m + 1]) continue;
            if (home_met(core, w, m)) { w->flags[2 * m + 1] = 1; changed = 1; }
        }
    }
    int n = 0;
    for (int m = 0; m < w->m; m++)
        if (!w->flags[2 * m + 1]) { if (out) out[n] = m; n++; }
    return n;
}

static int waits_dead(Core *core, const State *s) {
    if (core->waits == NULL && (core->waits = PyMem_RawMalloc(sizeof(Waits))) == NULL) { PyErr_NoMemory(); return -1; }
    return waits_stuck(core, s, core->waits, NULL) > 0;
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

/* -- the search loop (search.Search.loop on this core) ------------------------------------------
 *
 * One best-first search with its frontier and its seen table here instead of in Python objects.
 * The frontier is a binary heap on (score, tick), the larger first: search.py's heapq holds
 * (-score, -tick, ...) and every tick is distinct, so both take the positions in the same order.
 * The seen table is open addressing on the canonical key; a node keeps its parent's index and the
 * number of its step among the parent's choices, so the line is rebuilt by replaying the choices
 * from the start. A queued node keeps its position packed (the header below and its cards). */

typedef struct { uint64_t key; uint64_t state; uint32_t parent; uint16_t step; uint16_t keylen; } Node;
typedef struct { long score; uint32_t tick; uint32_t node; } Queued;
typedef struct {
    int32_t resh, moves;
    uint8_t up[4], down[4], held[4], len[NPILES], hidden[NPILES];
} Packed;

typedef struct {
    Node *nodes; size_t nnodes, cap_nodes;
    uint64_t *slots; size_t nslots;        /* (hash << 32) | (node + 1); 0 is empty */
    unsigned char *keys; size_t nkeys, cap_keys;
    unsigned char *states; size_t nstates, cap_states;
    Queued *heap; size_t nheap, cap_heap;
} Table;

static void table_free(Table *t) {
    PyMem_RawFree(t->nodes); PyMem_RawFree(t->slots); PyMem_RawFree(t->keys);
    PyMem_RawFree(t->states); PyMem_RawFree(t->heap);
    memset(t, 0, sizeof *t);
}

static int grow(void **buf, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *b = PyMem_RawRealloc(*buf, cap2 * item);
    if (b == NULL) { PyErr_NoMemory(); return -1; }
    *buf = b, *cap = cap2;
    return 0;
}

static uint32_t hash_bytes(const unsigned char *p, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return (uint32_t)h;
}

static int rehash(Table *t, size_t nslots) {
    uint64_t *slots = PyMem_RawCalloc(nslots, sizeof *slots);
    if (slots == NULL) { PyErr_NoMemory(); return -1; }
    for (size_t i = 0; i < t->nslots; i++) {
        uint64_t v = t->slots[i];
        if (!v) continue;
        size_t j = (size_t)(v >> 32) & (nslots - 1);
        while (slots[j]) j = (j + 1) & (nslots - 1);
        slots[j] = v;
    }
    PyMem_RawFree(t->slots);
    t->slots = slots, t->nslots = nslots;
    return 0;
}

/* The node of ``key``: its index when seen already (*fresh = 0), else a new node (*fresh = 1);
 * -1 on a memory error. */
static long table_add(Table *t, const unsigned char *key, size_t n, int *fresh) {
    if ((t->nnodes + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : 1 << 12) < 0) return -1;
    uint32_t h = hash_bytes(key, n);
    size_t j = h & (t->nslots - 1);
    for (uint64_t v; (v = t->slots[j]); j = (j + 1) & (t->nslots - 1)) {
        if ((uint32_t)(v >> 32) != h) continue;
        const Node *node = &t->nodes[(uint32_t)v - 1];
        if (node->keylen == n && memcmp(t->keys + node->key, key, n) == 0) { *fresh = 0; return (uint32_t)v - 1; }
    }
    if (t->nnodes >= UINT32_MAX - 1) { PyErr_SetString(PyExc_MemoryError, "search: too many positions"); return -1; }
    if (grow((void **)&t->nodes, &t->cap_nodes, t->nnodes + 1, sizeof(Node)) < 0
        || grow((void **)&t->keys, &t->cap_keys, t->nkeys + n, 1) < 0) return -1;
    Node *node = &t->nodes[t->nnodes];
    node->key = t->nkeys, node->keylen = (uint16_t)n, node->parent = UINT32_MAX, node->step = 0, node->state = 0;
    memcpy(t->keys + t->nkeys, key, n);
    t->nkeys += n;
    t->slots[j] = (uint64_t)h << 32 | (uint64_t)(t->nnodes + 1);
    *fresh = 1;
    return (long)t->nnodes++;
}

static int pack(Table *t, Node *node, const State *s) {
    size_t cards = 0;
    for (int i = 0; i < NPILES; i++) cards += (size_t)s->len[i];
    if (grow((void **)&t->states, &t->cap_states, t->nstates + sizeof(Packed) + cards, 1) < 0) return -1;
    Packed h;
    h.resh = (int32_t)s->resh, h.moves = (int32_t)s->moves;
    for (int i = 0; i < 4; i++) h.up[i] = (uint8_t)s->up[i], h.down[i] = (uint8_t)s->down[i], h.held[i] = (uint8_t)s->held[i];
    unsigned char *out = t->states + t->nstates + sizeof(Packed);
    for (int i = 0; i < NPILES; i++) {
        h.len[i] = (uint8_t)s->len[i], h.hidden[i] = (uint8_t)(s->hidden[i] > 255 ? 255 : s->hidden[i]);
        memcpy(out, s->c[i], (size_t)s->len[i]);
        out += s->len[i];
    }
    memcpy(t->states + t->nstates, &h, sizeof h);
    node->state = t->nstates;
    t->nstates += sizeof(Packed) + cards;
    return 0;
}

static void unpack(const Table *t, const Node *node, State *s) {
    Packed h;
    memcpy(&h, t->states + node->state, sizeof h);
    const unsigned char *in = t->states + node->state + sizeof(Packed);
    s->resh = h.resh, s->moves = h.moves;
    for (int i = 0; i < 4; i++) s->up[i] = h.up[i], s->down[i] = h.down[i], s->held[i] = h.held[i];
    for (int i = 0; i < NPILES; i++) {
        s->len[i] = h.len[i], s->hidden[i] = h.hidden[i];
        memcpy(s->c[i], in, h.len[i]);
        in += h.len[i];
    }
}

static inline int before(const Queued *a, const Queued *b) {
    return a->score > b->score || (a->score == b->score && a->tick > b->tick);
}

static int heap_push(Table *t, Queued q) {
    if (grow((void **)&t->heap, &t->cap_heap, t->nheap + 1, sizeof(Queued)) < 0) return -1;
    size_t i = t->nheap++;
    while (i) {
        size_t up = (i - 1) / 2;
        if (!before(&q, &t->heap[up])) break;
        t->heap[i] = t->heap[up];
        i = up;
    }
    t->heap[i] = q;
    return 0;
}

static Queued heap_pop(Table *t) {
    Queued top = t->heap[0], last = t->heap[--t->nheap];
    size_t i = 0, n = t->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(&t->heap[c + 1], &t->heap[c])) c++;
        if (!before(&t->heap[c], &last)) break;
        t->heap[i] = t->heap[c];
        i = c;
    }
    if (n) t->heap[i] = last;
    return top;
}

/* this process's CPU seconds: the clock of Python's time.process_time */
static double cpu_seconds(void) {
#ifdef CLOCK_PROCESS_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return (double)clock() / CLOCKS_PER_SEC;
}

/* The winning line: the steps from the start to ``end``, replayed from the start's position. */
static PyObject *line_of(Core *core, const Table *t, uint32_t end, int prune) {
    size_t depth = 0;
    for (uint32_t i = end; t->nodes[i].parent != UINT32_MAX; i = t->nodes[i].parent) depth++;
    uint16_t *path = PyMem_RawMalloc((depth + 1) * sizeof *path);
    if (path == NULL) return PyErr_NoMemory();
    size_t k = depth;
    for (uint32_t i = end; t->nodes[i].parent != UINT32_MAX; i = t->nodes[i].parent) path[--k] = t->nodes[i].step;
    PyObject *line = PyList_New(0);
    State s;
    unpack(t, &t->nodes[0], &s);
    Steps *all = PyMem_RawMalloc(sizeof *all);
    if (line == NULL || all == NULL) { Py_XDECREF(line); PyMem_RawFree(path); PyMem_RawFree(all); return PyErr_NoMemory(); }
    for (k = 0; k < depth; k++) {
        Act moves[MAXMOVES];
        unsigned dirty = 0;
        choices(core, &s, moves, pile_moves(core, &s, moves), prune, all);
        const Act *step = all->a[path[k]];
        for (int a = 0; a < all->len[path[k]]; a++) {
            PyObject *action = action_of(core, step[a]);
            int bad = PyList_Append(line, action);
            Py_DECREF(action);
            if (bad < 0) { Py_DECREF(line); line = NULL; goto done; }
        }
        after(core, &s, step, all->len[path[k]], &dirty);
    }
done:
    PyMem_RawFree(path);
    PyMem_RawFree(all);
    return line;
}

/* Every key met, into the set ``into`` (cleared first when it would pass ``most``): search.remember_lost. */
static int remember(const Table *t, PyObject *into, Py_ssize_t most) {
    if (PySet_GET_SIZE(into) + (Py_ssize_t)t->nnodes > most && PySet_Clear(into) < 0) return -1;
    for (size_t i = 0; i < t->nnodes; i++) {
        PyObject *key = PyBytes_FromStringAndSize((const char *)t->keys + t->nodes[i].key, t->nodes[i].keylen);
        if (key == NULL || PySet_Add(into, key) < 0) { Py_XDECREF(key); return -1; }
        Py_DECREF(key);
    }
    return 0;
}

typedef struct {
    PyObject *memo, *solve_suit, *text[3];  /* "winnable", "not winnable", "unknown" */
    int last;
    long last_nodes;
} Relax;

typedef struct {
    Promise p;
    const Relax *relax;                /* the one-suit rules here, or NULL: only ``ask`` */
    int prune, ask_most, check_every, waits_most;
    PyObject *lost, *ask, *tick, *remember_into;
    Py_ssize_t remember_most;
    long budget_nodes;
    size_t budget_stored;
    double started, seconds;
} Plan;

enum { FOUND, RAN_DRY, NODES, STORED, SECONDS };

/* -- one suit at a time (suits.some_suit_lost with zero, one_left and last.sweep) -------------------
 *
 * Asked by the loop above of the positions with no reshuffle left (and one, from the second round
 * of restarts) in profiles without autoplay, in place of Search.relaxed. The answers go into the
 * solve's Python memo under the keys suits.py gives them, so both loops share what they learn;
 * a one-suit position's own search (a memo miss) is Python's Search.suit_verdict, itself run on
 * the loop above. */

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

static void one_suit_of(const State *s, int suit, State *part) {
    for (int i = 0; i < NPILES; i++) {
        int n = 0;
        for (int j = 0; j < s->len[i]; j++)
            if (s->c[i][j] / 13 == suit) part->c[i][n++] = s->c[i][j];
        part->len[i] = n;
        part->hidden[i] = 0;
    }
    for (int i = 0; i < 4; i++) {
        part->up[i] = i == suit ? s->up[i] : KING;
        part->down[i] = i == suit ? s->down[i] : ACE;
        part->held[i] = i == suit ? s->held[i] : 0;
    }
    part->resh = s->resh;
    part->moves = 0;
}

/* suits.zero: a one-suit position with no reshuffle left, remembered by its key */
static int zero_verdict(Core *core, const Relax *r, const State *part, long *nodes) {
    PyObject *key = key_of(core, part);
    if (key == NULL) return -1;
    int verdict = memo_get(r, key);
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
        memcpy(out, s->c[i], (size_t)s->len[i]);
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
    memset(&t, 0, sizeof t);
    unsigned char key[KEYMAX + NPILES];
    uint32_t *todo = NULL;
    size_t ntodo = 0, cap_todo = 0;
    long made = 0;
    int fresh, verdict = -1;
    Steps *all = PyMem_RawMalloc(sizeof *all);
    if (all == NULL) { PyErr_NoMemory(); goto done; }
    if (table_add(&t, key, exact_into(start, key), &fresh) < 0 || pack(&t, &t.nodes[0], start) < 0) goto done;
    if (grow((void **)&todo, &cap_todo, 1, sizeof *todo) < 0) goto done;
    todo[ntodo++] = 0;
    while (ntodo) {
        State s;
        int card;
        unpack(&t, &t.nodes[todo[--ntodo]], &s);
        if (is_won(&s)) { verdict = WINNABLE; goto done; }
        if (witness(core, &s, &card) >= 0) continue;
        if (cpu_seconds() - plan->started >= plan->seconds) { verdict = UNKNOWN; goto done; }
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
            if (pack(&t, &t.nodes[child], &c) < 0 || grow((void **)&todo, &cap_todo, ntodo + 1, sizeof *todo) < 0)
                goto done;
            todo[ntodo++] = (uint32_t)child;
        }
    }
    verdict = NOT_WINNABLE;
done:
    *nodes += made;
    PyMem_RawFree(all);
    PyMem_RawFree(todo);
    table_free(&t);
    return verdict;
}

/* last.marked_key (Core_marked_key without the Python values) */
static PyObject *marked_key_of(const State *s, const int *marks) {
    State m;
    int idx[NPILES], total = 0;
    for (int i = 0; i < NPILES; i++) {
        if (s->len[i] >= MAXP) { PyErr_SetString(PyExc_ValueError, "marked_key: a pile too long"); return NULL; }
        m.c[i][0] = (unsigned char)marks[i];
        memcpy(m.c[i] + 1, s->c[i], (size_t)s->len[i]);
        m.len[i] = s->len[i] + 1;
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
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->up[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->down[i];
    for (int i = 0; i < 4; i++) *out++ = (unsigned char)s->held[i];
    *out = (unsigned char)(s->resh < 0 ? 0 : s->resh > 255 ? 255 : s->resh);
    return key;
}

/* suits.one_left: the marked key, the memo, else last_verdict */
static int one_left_verdict(Core *core, const Relax *r, const State *s, int suit, const Plan *plan, long *nodes) {
    State part;
    one_suit_of(s, suit, &part);
    int marks[NPILES];
    for (int i = 0; i < NPILES; i++) marks[i] = s->len[i] && s->c[i][0] / 13 == suit;
    PyObject *key = marked_key_of(&part, marks);
    if (key == NULL) return -1;
    int verdict = memo_get(r, key);
    if (verdict == -2) {
        verdict = last_verdict(core, r, &part, marks, plan, nodes);
        if (verdict >= 0 && memo_set(r, key, verdict) < 0) verdict = -1;
    }
    Py_DECREF(key);
    return verdict;
}

/* suits.some_suit_lost for no reshuffle left or one (the caller checked which applies): 1 when some
 * suit alone is proved not winnable */
static int suit_lost(Core *core, const Relax *r, const State *s, const Plan *plan, long *nodes) {
    int seen[4] = {0}, count = 0;
    for (int i = 0; i < NPILES; i++)
        for (int j = 0; j < s->len[i]; j++) seen[s->c[i][j] / 13] = 1;
    for (int i = 0; i < 4; i++) count += seen[i];
    if (count < 2 && s->resh == 0) return 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!seen[suit]) continue;
        int verdict;
        if (s->resh == 0) {
            State part;
            one_suit_of(s, suit, &part);
            verdict = zero_verdict(core, r, &part, nodes);
        } else {
            verdict = one_left_verdict(core, r, s, suit, plan, nodes);
        }
        if (verdict < 0) return -1;
        if (verdict == NOT_WINNABLE) return 1;
    }
    return 0;
}

/* Whether a popped position is skipped: lost, in the lost set, or proved dead (here, or by ``ask``,
 * which answers (dead, nodes it made)); -1 on an error. */
static int skipped(Core *core, const Table *t, const Node *node, const State *s, const Plan *plan, long *nodes) {
    Act moves[MAXMOVES];
    int card;
    if (status_of(core, s, pile_moves(core, s, moves)) == LOST) return 1;
    if (PySet_GET_SIZE(plan->lost)) {
        PyObject *key = PyBytes_FromStringAndSize((const char *)t->keys + node->key, node->keylen);
        int in = key ? PySet_Contains(plan->lost, key) : -1;
        Py_XDECREF(key);
        if (in) return in;
    }
    if (!plan->prune) return 0;
    if (witness(core, s, &card) >= 0) return 1;
    if (s->resh <= plan->waits_most) {
        int stuck = waits_dead(core, s);
        if (stuck) return stuck;
    }
    const Relax *r = plan->relax;
    if (r != NULL && s->resh <= (r->last ? 1 : 0)) return suit_lost(core, r, s, plan, nodes);
    if (plan->ask == Py_None || s->resh > plan->ask_most) return 0;
    PyObject *pos = make_position(core, s, NULL, 0);
    PyObject *said = pos ? PyObject_CallOneArg(plan->ask, pos) : NULL;
    Py_XDECREF(pos);
    if (said == NULL) return -1;
    int dead = -1;
    long made = 0;
    if (!PyArg_ParseTuple(said, "pl", &dead, &made)) dead = -1;
    Py_DECREF(said);
    *nodes += made;
    return dead;
}

/* Generate the children of node ``at``; FOUND with *won set when one is won, else -1 (error) or 0. */
static int grow_node(Core *core, Table *t, uint32_t at, const State *s, const Plan *plan, Steps *all, long *nodes,
                     uint32_t *ticks, uint32_t *won) {
    Act moves[MAXMOVES];
    unsigned char key[KEYMAX];
    choices(core, s, moves, pile_moves(core, s, moves), plan->prune, all);
    for (int k = 0; k < all->n; k++) {
        ++*nodes;
        State c = *s;
        unsigned dirty = 0;
        after(core, &c, all->a[k], all->len[k], &dirty);
        int fresh;
        long child = table_add(t, key, (size_t)key_into(core, &c, key), &fresh);
        if (child < 0) return -1;
        if (!fresh) continue;
        t->nodes[child].parent = at, t->nodes[child].step = (uint16_t)k;
        if (is_won(&c)) { *won = (uint32_t)child; return 1; }
        if (pack(t, &t->nodes[child], &c) < 0) return -1;
        Queued q = {score(&c, &plan->p), (*ticks)++, (uint32_t)child};
        if (heap_push(t, q) < 0) return -1;
    }
    return 0;
}

static int run_search(Core *core, Table *t, const State *start, const Plan *plan, long *nodes, uint32_t *won) {
    unsigned char key[KEYMAX];
    int fresh;
    uint32_t ticks = 0;
    long expanded = 0;
    Steps *all = PyMem_RawMalloc(sizeof *all);
    if (all == NULL) { PyErr_NoMemory(); return -1; }
    int result = -1;
    if (table_add(t, key, (size_t)key_into(core, start, key), &fresh) < 0 || pack(t, &t->nodes[0], start) < 0) goto done;
    Queued root = {score(start, &plan->p), ticks++, 0};
    if (heap_push(t, root) < 0) goto done;
    while (t->nheap) {
        Queued q = heap_pop(t);
        State s;
        unpack(t, &t->nodes[q.node], &s);
        int skip = skipped(core, t, &t->nodes[q.node], &s, plan, nodes);
        if (skip < 0) goto done;
        if (skip) continue;
        int found = grow_node(core, t, q.node, &s, plan, all, nodes, &ticks, won);
        if (found) { result = found < 0 ? -1 : FOUND; goto done; }
        if (++expanded % plan->check_every) continue;
        if (PyErr_CheckSignals() < 0) goto done;  /* Ctrl-C stops a long search as it stops the Python loop */
        if (plan->tick != Py_None) {
            PyObject *r = PyObject_CallFunction(plan->tick, "l", *nodes);
            if (r == NULL) goto done;
            Py_DECREF(r);
        }
        if (*nodes >= plan->budget_nodes) { result = NODES; goto done; }
        if (t->nnodes >= plan->budget_stored) { result = STORED; goto done; }
        if (cpu_seconds() - plan->started >= plan->seconds) { result = SECONDS; goto done; }
    }
    result = RAN_DRY;
    if (plan->remember_into != Py_None && remember(t, plan->remember_into, plan->remember_most) < 0) result = -1;
done:
    PyMem_RawFree(all);
    return result;
}

/* search(pos, order, prune, lost, ask, ask_most, remember_into, remember_most, nodes, stored, started,
 *        seconds, check_every, tick) -> (outcome, line or None, nodes, stored): Search.loop from the start */
static PyObject *Core_search(Core *self, PyObject *args) {
    PyObject *pos, *order;
    Plan plan;
    Relax relax;
    Py_ssize_t stored;
    memset(&plan, 0, sizeof plan);
    memset(&relax, 0, sizeof relax);
    if (!PyArg_ParseTuple(args, "OOpOOiOnlnddiOOOpil", &pos, &order, &plan.prune, &plan.lost, &plan.ask,
                          &plan.ask_most, &plan.remember_into, &plan.remember_most, &plan.budget_nodes, &stored,
                          &plan.started, &plan.seconds, &plan.check_every, &plan.tick, &relax.memo, &relax.solve_suit,
                          &relax.last, &plan.waits_most, &relax.last_nodes))
        return NULL;
    if (relax.memo != Py_None) {
        if (!PyDict_Check(relax.memo) || !PyCallable_Check(relax.solve_suit)) {
            PyErr_SetString(PyExc_TypeError, "search: memo is a dict and solve_suit a function");
            return NULL;
        }
        for (int i = 0; i < 3; i++) relax.text[i] = self->verdict_text[i];
        plan.relax = &relax;
    }
    if (!PySet_Check(plan.lost) || (plan.remember_into != Py_None && !PySet_Check(plan.remember_into))) {
        PyErr_SetString(PyExc_TypeError, "search: lost and remember_into are sets");
        return NULL;
    }
    if (plan.check_every < 1) plan.check_every = 1;
    plan.budget_stored = stored < 0 ? 0 : (size_t)stored;
    State s;
    if (read_cached(self, pos, &s) < 0 || read_promise(order, &plan.p) < 0) return NULL;
    Table t;
    memset(&t, 0, sizeof t);
    long nodes = 0;
    uint32_t won = 0;
    int outcome = run_search(self, &t, &s, &plan, &nodes, &won);
    PyObject *line = NULL, *result = NULL;
    if (outcome == FOUND) line = line_of(self, &t, won, plan.prune);
    else if (outcome >= 0) line = Py_NewRef(Py_None);
    if (line != NULL) result = Py_BuildValue("(iNln)", outcome, line, nodes, (Py_ssize_t)t.nnodes);
    table_free(&t);
    return result;
}

static PyMethodDef Core_methods[] = {
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
    const char *verdicts[3] = {"winnable", "not winnable", "unknown"};
    for (int i = 0; i < 3; i++) {
        Py_XSETREF(self->verdict_text[i], PyUnicode_InternFromString(verdicts[i]));
        if (self->verdict_text[i] == NULL) return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    Py_XDECREF(self->postype);
    Py_XDECREF(self->actions);
    Py_XDECREF(self->reshuffle);
    Py_XDECREF(self->heappush);
    for (int i = 0; i < 4; i++) Py_XDECREF(self->status_text[i]);
    for (int i = 0; i < 3; i++) Py_XDECREF(self->verdict_text[i]);
    for (int i = 0; i < NCACHE; i++) Py_XDECREF(self->cached[i]);
    PyMem_RawFree(self->waits);
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
