/* The compiled core's shared types and the functions its files call of each other.
 *
 * The core restates, in C, the solver's inner loop: every function restates one Python function of
 * crescent_ref (named in its comment) and must give exactly its answer, in the same order, so a
 * search on this core expands the same positions as the pure-Python search
 * (tests/solver/test_solver_fast.py holds it to that, and the conformance adapter
 * crescent_ref.solver.fastgame holds its moves and transitions to the corpus and perft).
 * crescent_ref/solver/fast.py builds a Core per profile and says when this module is not used.
 *
 * The files, all compiled into the one extension crescent_ref.solver._core (hatch_build.py):
 *   position.c  positions read into a State and written back; actions and orders from Python
 *   moves.c     the move generator, the status, the transitions with autoplay
 *   steps.c     the steps searched, the canonical key, the order's score
 *   dead.c      the locked-card rule and the cards that wait on each other
 *   suits.c     the one-suit rules (suits.py, last.py)
 *   onepos.c    a one-suit position with no reshuffle left: its moves, their steps, its key
 *   onesuit.c   such a position decided by its own exhaustive search
 *   table.c     the seen table, the packed positions, the heap, the CPU clock
 *   search.c    the search loop (Core.search) and its line
 *   methods.c   the Core's methods as Python calls them
 *   module.c    the Core type and the module
 */
#ifndef CRESCENT_CORE_H
#define CRESCENT_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)  /* the files' shared names stay inside the .so; PyInit__core is exported */
#endif

/* -- places, cards and a position ---------------------------------------------------------------- */

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
    long hidden[NPILES];
    int up[4], down[4], held[4];
    long resh;
    long moves;
    unsigned char c[NPILES][MAXP];     /* last: copy_state takes the fields before it whole */
} State;

typedef struct { signed char src, dst; } Act;

typedef struct {
    PyObject_HEAD
    int wrap, limit, between, give_backs, autoplay, hold, stuck_no_move, collapse, ordered;
    int order[NPILES];                 /* autoplay's scan order (0-based piles) when ordered */
    int nnear[53];
    unsigned char near[53][2];         /* a card's neighbours (nnear of them; NO_CARD after) */
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
    struct OneSuit *onesuit;           /* onesuit.c's table, made when first asked */
    struct Table *spare[2];            /* a search's table kept for the next (SPARE_*), or NULL */
} Core;

enum { WON, PLAYING, WAITING, LOST };  /* game.status_of's answers, in Core.status_text's order */

/* small questions of a State, asked in several files */
static inline int top_of(const State *s, int i) { return s->len[i] ? s->c[i][s->len[i] - 1] : NO_CARD; }

/* n cards from ``src`` to ``dst`` (a pile's row, a key, the packed states): a short pile as one 16-byte
 * copy, which the compiler makes two moves where a memcpy of n bytes is a call. Both sides have room
 * for the bytes past the n (a pile's row holds MAXP, the others CARDS_PAST spare); those are junk,
 * written over next. */
#define CARDS_PAST 16
static inline void copy_cards(unsigned char *dst, const unsigned char *src, int n) {
    if (n <= CARDS_PAST) memcpy(dst, src, CARDS_PAST);
    else memcpy(dst, src, (size_t)n);
}

/* *dst = *src, but of each pile's row only its cards (and copy_cards' junk past them): the rows are
 * mostly empty, and a child's position is a copy of its parent's */
static inline void copy_state(State *dst, const State *src) {
    memcpy(dst, src, offsetof(State, c));
    for (int i = 0; i < NPILES; i++) copy_cards(dst->c[i], src->c[i], src->len[i]);
}

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

static inline int meets(const State *s, int suit) { return !s->held[suit] && s->down[suit] == s->up[suit] + 1; }

/* The tuples made here hold ints, bytes, other such tuples or the interned actions: none can be part of
 * a reference cycle, so they are taken off the cyclic collector's lists, which would otherwise walk
 * every recorded position and step at each full collection. */
static inline PyObject *untracked(PyObject *o) {
    if (o != NULL && PyObject_GC_IsTracked(o)) PyObject_GC_UnTrack(o);
    return o;
}

/* -- what the search tries and stores ----------------------------------------------------------- */

/* the steps of a position: each a few actions (slides, then a move) */
typedef struct { int n; int len[MAXMOVES]; Act a[MAXMOVES][MAXSTEP]; } Steps;

/* a canonical key's bytes at most, and copy_cards' room past them */
#define KEYMAX (MAXP * NPILES + NPILES + 13 + CARDS_PAST)

/* the key's order of a position's piles (idx) and each pile's head (steps.c's pile_head) */
typedef struct { int idx[NPILES]; uint64_t head[NPILES]; } KeyOrder;

/* orders.Promise's weights and its tie-break (seed, spread: orders.noise), or flat (orders.depth_first) */
typedef struct { long home, kept, buried, tangled, seed, spread; int flat; } Promise;

/* waits.py's scratch: the spots of each card, the closed cards, their gates and the events met */
#define COPIES 8          /* copies of one card on the piles that the rule follows (a double deck: 2) */

typedef struct Waits {
    const State *s;
    int resh, m;
    unsigned char cp[52][COPIES], ci[52][COPIES], ncopies[53];  /* where: the spots of each card */
    short number[NPILES][MAXP];          /* the closed card's number at a spot, or -1 */
    short gates[NPILES][MAXP];           /* per pinned spot of a gated pile: the closed card at or above it */
    unsigned char gated[NPILES];
    unsigned char closed_p[NPILES * MAXP], closed_i[NPILES * MAXP];
    int own[NPILES * MAXP];              /* per closed card, the wait for the card above it to leave (its own gate) */
    unsigned char flags[2 * NPILES * MAXP];
} Waits;

/* a seen position: its key and packed state (offsets), its parent's index and its step's number */
typedef struct { uint64_t key; uint64_t state; uint32_t parent; uint16_t step; uint16_t keylen; } Node;
typedef struct { long score; uint32_t tick; uint32_t node; } Queued;
typedef struct {
    int32_t resh, moves;
    uint8_t up[4], down[4], held[4], len[NPILES], hidden[NPILES];
    uint8_t order[NPILES / 2];  /* the piles in the key's order, a nibble each: the start of its children's */
    uint8_t alive;              /* a bit per suit whose one-suit question is its parent's, answered not lost (search.c) */
    uint16_t passed;            /* a bit per pile whose locked-card verdict is its parent's, which passed (search.c) */
} Packed;

typedef struct Table {
    Node *nodes; size_t nnodes, cap_nodes;
    uint64_t *slots; size_t nslots, cap_slots;  /* (hash << 32) | (node + 1); 0 is empty; nslots in use */
    unsigned char *keys; size_t nkeys, cap_keys;
    unsigned char *states; size_t nstates, cap_states;
    Queued *heap; size_t nheap, cap_heap;
} Table;

/* the one-suit rules' memo and its search (suits.c) */
typedef struct {
    PyObject *memo, *solve_suit, *text[3];  /* "winnable", "not winnable", "unknown" */
    int last;
    long last_nodes;
    long decide_nodes;                 /* > 0: a memo miss is decided by onesuit.c within this many positions */
    int decide_counted;                /* its positions count as the search's nodes (as the general search's do) */
} Relax;

/* one search's order, rules, budgets and callbacks */
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

enum { FOUND, RAN_DRY, NODES, STORED, SECONDS };  /* how a search ended: Core.search's outcome */

/* -- position.c --------------------------------------------------------------------------------- */
int read_ints(PyObject *tuple, int *out, Py_ssize_t n, const char *what);
int read_cached(Core *core, PyObject *pos, State *s);
PyObject *make_position(Core *core, const State *s, PyObject *parent, unsigned dirty);
PyObject *action_of(Core *core, Act a);
PyObject *action_list(Core *core, const Act *moves, int n);
PyObject *step_tuple(Core *core, const Act *step, int len);
int read_promise(PyObject *order, Promise *p);

/* -- moves.c ------------------------------------------------------------------------------------ */
int pile_moves(const Core *core, const State *s, Act *out);
int foundation_moves(const Core *core, const State *s, Act *out);
int status_of(const Core *core, const State *s, int npile_moves);
int is_won(const State *s);
void move(State *s, int src, int dst, int count, unsigned *dirty);
void reshuffle(State *s, unsigned *dirty);
void after(const Core *core, State *s, const Act *step, int len, unsigned *dirty);

/* -- steps.c ------------------------------------------------------------------------------------ */
void steps(const Core *core, const State *s, const Act *moves, int n, Steps *out);
void choices(const Core *core, const State *s, const Act *moves, int n, int prune, Steps *out);
int pile_cmp(const State *s, int a, int b);
uint64_t pile_head(const State *s, int i);
void pile_order(const State *s, KeyOrder *o);
void key_order(const Core *core, const State *s, KeyOrder *o);
void key_reorder(const Core *core, const State *s, const KeyOrder *parent, unsigned dirty, KeyOrder *o);
Py_ssize_t key_write(const Core *core, const State *s, const KeyOrder *o, unsigned char *out);
Py_ssize_t key_into(const Core *core, const State *s, unsigned char *out);
PyObject *key_of(const Core *core, const State *s);
long score(const State *s, const Promise *p);
long noise(const Promise *p, const unsigned char *key, size_t n);

/* -- dead.c ------------------------------------------------------------------------------------- */
int witness(const Core *core, const State *s, int *card);
#define ALL_PILES 0xFFFFu
int witness_in(const Core *core, const State *s, int *card, unsigned piles);
int waits_stuck(const Core *core, const State *s, Waits *w, int *out);
int waits_dead(Core *core, const State *s);

/* -- table.c ------------------------------------------------------------------------------------ */
void table_free(Table *t);
enum { SPARE_SEARCH, SPARE_SWEEP };  /* the core's kept tables: the main searches', last.sweep's */
void table_take(Core *core, int which, Table *t);
void table_give(Core *core, int which, Table *t);
int grow(void **buf, size_t *cap, size_t need, size_t item);
long table_add(Table *t, const unsigned char *key, size_t n, int *fresh);
uint32_t hash_bytes(const unsigned char *p, size_t n);
long table_add_hashed(Table *t, const unsigned char *key, size_t n, uint32_t h, int *fresh);
/* a hint: the slot where the key of hash ``h`` is looked for, fetched into the caches ahead of time */
static inline void table_prefetch(const Table *t, uint32_t h) {
    if (t->nslots) __builtin_prefetch(&t->slots[h & (t->nslots - 1)]);
}
int pack(Table *t, Node *node, const State *s, const KeyOrder *o);
void unpack(const Table *t, const Node *node, State *s);
void unpack_order(const Table *t, const Node *node, const State *s, KeyOrder *o);
int heap_push(Table *t, Queued q);
Queued heap_pop(Table *t);
double cpu_seconds(void);

/* -- onepos.c: a one-suit position with no reshuffle left ------------------------------------------ */
#define OS_MAXP 26        /* one suit's cards: at most 24 on the piles */
typedef struct Frame { signed char src, dst; uint8_t card, up, down, held; } Frame;  /* a move, and what undoes it */
typedef struct {
    int len[NPILES];
    unsigned __int128 v[NPILES];   /* each pile's ranks, bottom first, a nibble each */
    uint8_t c[NPILES][OS_MAXP];
    int up, down, held;
    int base;                      /* the suit's card index less one: a rank's card is base + rank */
    State *full;                   /* the same position as the core's State, for dead.c's witness (or NULL) */
} OS;

typedef struct {
    int suit, wrap, limit, between, hold;
} Rules;

/* a non-empty pile: its ranks as nibbles (bottom first) and how many; the nibbles decide the count */
typedef struct { unsigned __int128 v; int len; } Run;
int os_read(const State *part, Rules *r, OS *s);
int os_moves(const Rules *r, const OS *s, Frame *out);
void os_do(const Rules *r, OS *s, Frame *f);
void os_undo(const Rules *r, OS *s, const Frame *f);
int os_runs(const OS *s, Run *p);
void os_key(const OS *s, uint64_t *k);
void os_child_key(const Rules *r, const OS *s, const Run *p, int n, const Frame *f, uint64_t *k);

/* -- onesuit.c ---------------------------------------------------------------------------------- */
int onesuit_decide(Core *core, const State *part, long budget, int prune, PyObject *owner, long *nodes, Act **line,
                   size_t *nline);
void onesuit_free(struct OneSuit *t);
void onesuit_counts(const Core *core, long *calls, long *decided, long *nodes, long *unknown, long *unknown_nodes);

/* -- suits.c, search.c, methods.c ---------------------------------------------------------------- */
int suit_lost(Core *core, const Relax *r, const State *s, const Plan *plan, long *nodes, unsigned known, unsigned *alive);
PyObject *marked_key_of(const State *s, const int *marks);
PyObject *Core_search(Core *self, PyObject *args);
extern PyMethodDef Core_methods[];

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
