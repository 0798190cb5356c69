/* One suit decided alone: the question suits.zero asks of a one-suit position with no reshuffle left
 * ("can it be won?"), answered by an exhaustive search of its own instead of Search.solve_suit.
 *
 * It restates, for one suit's cards only, what search.Search.solve_suit answers (a won position
 * reachable by the profile's moves, without autoplay); the position, its moves and its key are
 * onepos.c's. Give-backs and autoplay are not covered (the caller falls back to the general search).
 *
 * Status: in a one-suit position with no reshuffle left the game is over exactly when no move is left
 * (a meeting pair of foundations leaves 13 cards off them, so some pile card of the suit is movable),
 * so the search needs no status rule besides the won one (both foundations complete).
 *
 * The search is depth first over every reachable position, each once (a table of the keys met).
 * "winnable" comes with the line that wins (Core.onesuit gives it, the tests replay it); "not
 * winnable" means every reachable position was met and none is won (with ``prune``, apart from those
 * dead.c's locked-card rule proves dead, which are not expanded: dead.py's proof); "unknown" means the
 * budget of positions generated ran out.
 * The positions an exhausted search met are all not winnable; they stay in the Core's table, marked,
 * for the later questions of the same solve (``owner``, its memo: a Core is one profile, and a solve
 * must not depend on the solves before it), until the table fills. */
#include "core.h"

#define OS_LOST 0x80000000u /* a slot's gen with this bit: proved lost in the epoch of its other bits */
#define OS_BITS 21        /* the table's slots: 2^21 (64 MiB); half full is wiped */

enum { OS_WINNABLE, OS_NOT_WINNABLE, OS_UNKNOWN };

typedef struct { uint64_t k[3]; uint32_t gen, pad; } Slot;
typedef struct Level { size_t first, next, end; } Level;
#define MAXMOVES_OS (NPILES * NPILES + 4)  /* one position's moves at most */

typedef struct OneSuit {
    Slot *slots;
    uint32_t gen, epoch;       /* this call's gen (below OS_LOST); the solve's epoch */
    PyObject *owner;           /* the solve's memo (held): another one starts a new epoch */
    size_t lost;               /* slots marked lost in this epoch */
    uint32_t *mine; size_t nmine, cap_mine;   /* the slots this call filled */
    struct Frame *moves; size_t cap_moves;     /* the depth-first stack's moves */
    uint64_t (*keys)[3]; size_t cap_keys;      /* and the key of each one's child (the same index) */
    struct Level *levels; size_t cap_levels;   /* per depth: its moves' range and the next one */
    long calls, decided, nodes;         /* counters, read by Core.onesuit_counts */
    long unknown, unknown_nodes;        /* the questions that ran out of their budget, and their positions */
} OneSuit;

static inline uint64_t os_hash(const uint64_t *k) {
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ull ^ (k[1] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= (k[2] + 0x165667B19E3779F9ull) * 0x27D4EB2F165667C5ull;
    return h ^ h >> 29;
}

/* the slot of ``k``: 1 and *slot when it is met in this call or proved lost, else 0 and *slot the empty
 * (or stale) slot it takes */
static int os_find(const OneSuit *t, const uint64_t *k, size_t *slot) {
    size_t mask = ((size_t)1 << OS_BITS) - 1, i = (size_t)os_hash(k) & mask;
    for (;; i = (i + 1) & mask) {
        const Slot *e = &t->slots[i];
        if (e->gen != t->gen && e->gen != (OS_LOST | t->epoch)) { *slot = i; return 0; }
        if (e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2]) { *slot = i; return 1; }
    }
}

/* the key of each move's child (moves[0..n)) into keys, its slot fetched ahead: the table is far larger
 * than the caches, and a position's children are looked up one after the other */
static void os_child_keys(const Rules *r, const OneSuit *t, const OS *s, const Frame *moves, int n, uint64_t (*keys)[3]) {
    size_t mask = ((size_t)1 << OS_BITS) - 1;
    Run p[NPILES];
    int runs = os_runs(s, p);
    for (int m = 0; m < n; m++) {
        os_child_key(r, s, p, runs, &moves[m], keys[m]);
        __builtin_prefetch(&t->slots[(size_t)os_hash(keys[m]) & mask]);
    }
}

static int os_table(Core *core, long budget, PyObject *owner, OneSuit **out) {
    OneSuit *t = core->onesuit;
    if (t == NULL) {
        t = core->onesuit = PyMem_RawCalloc(1, sizeof *t);
        if (t == NULL) { PyErr_NoMemory(); return -1; }
    }
    if (owner != NULL && owner != t->owner) {  /* a new solve: what earlier ones proved is left out */
        Py_XSETREF(t->owner, Py_NewRef(owner));
        t->epoch = (t->epoch + 1) & (OS_LOST - 1), t->lost = 0;
    }
    size_t cap = (size_t)1 << OS_BITS;
    if (t->slots == NULL) {
        t->slots = PyMem_RawCalloc(cap, sizeof *t->slots);
        if (t->slots == NULL) { PyErr_NoMemory(); return -1; }
    }
    if (t->lost + (size_t)budget + 1 > cap / 2 || t->gen >= OS_LOST - 1 || t->epoch == OS_LOST - 1) {  /* wipe it */
        memset(t->slots, 0, cap * sizeof *t->slots);
        t->lost = 0, t->gen = 0, t->epoch = 0;
    }
    t->gen++;
    t->nmine = 0;
    *out = t;
    return 0;
}

void onesuit_free(OneSuit *t) {
    if (t == NULL) return;
    Py_XDECREF(t->owner);
    PyMem_RawFree(t->slots);
    PyMem_RawFree(t->mine);
    PyMem_RawFree(t->moves);
    PyMem_RawFree(t->keys);
    PyMem_RawFree(t->levels);
    PyMem_RawFree(t);
}

/* a position met for the first time in this call: its slot filled, and kept in mine */
static int os_meet(OneSuit *t, size_t slot, const uint64_t *k) {
    if (grow((void **)&t->mine, &t->cap_mine, t->nmine + 1, sizeof *t->mine) < 0) return -1;
    Slot *e = &t->slots[slot];
    e->k[0] = k[0], e->k[1] = k[1], e->k[2] = k[2], e->gen = t->gen;
    t->mine[t->nmine++] = (uint32_t)slot;
    return 0;
}

/* Decide the one-suit position ``part`` (no reshuffle left) within ``budget`` positions generated:
 * OS_WINNABLE, OS_NOT_WINNABLE or OS_UNKNOWN (the numbers of suits.c's verdicts), -2 when not covered
 * (give-backs, autoplay, a reshuffle left, not one suit), -1 on an error. *nodes gets the positions
 * generated. ``prune``: positions dead.c's locked-card rule proves dead are not expanded (dead.py's proof,
 * which the general search leans on too; after a move between piles only those two are read: witness_in).
 * ``owner``: the solve asking (its memo), or NULL: the last one. ``line`` (NULL: not wanted) gets the winning
 * moves, *nline of them, in memory the caller frees with PyMem_RawFree (a position won at the start has none). */
int onesuit_decide(Core *core, const State *part, long budget, int prune, PyObject *owner, long *nodes, Act **line,
                   size_t *nline) {
    *nodes = 0;
    if (core->give_backs || core->autoplay || part->resh != 0) return -2;
    Rules r = {-1, core->wrap, core->limit, core->between, core->hold};
    OS s;
    if (os_read(part, &r, &s) < 0) return -2;
    if (s.up == KING && s.down == ACE) return OS_WINNABLE;
    State full;
    int card;
    if (prune) {  /* the locked-card rule reads the core's State: kept in step, move by move */
        copy_state(&full, part);
        s.full = &full;
        if (witness(core, &full, &card) >= 0) return OS_NOT_WINNABLE;
    }
    OneSuit *t;
    if (os_table(core, budget, owner, &t) < 0) return -1;
    t->calls++;
    uint64_t k[3];
    size_t slot;
    os_key(&s, k);
    if (os_find(t, k, &slot)) { t->decided++; return OS_NOT_WINNABLE; }  /* proved lost before */
    int verdict = -1;
    long made = 0;
    size_t nmoves = 0, depth = 0;
    if (os_meet(t, slot, k) < 0) goto done;
    for (;;) {
        /* a new position at ``depth``: its moves go into t->moves from ``first`` to ``end`` */
        if (grow((void **)&t->moves, &t->cap_moves, nmoves + MAXMOVES_OS, sizeof *t->moves) < 0 ||
            grow((void **)&t->keys, &t->cap_keys, nmoves + MAXMOVES_OS, sizeof *t->keys) < 0 ||
            grow((void **)&t->levels, &t->cap_levels, depth + 1, sizeof *t->levels) < 0) goto done;
        Level *lv = &t->levels[depth];
        lv->first = lv->next = nmoves;
        int n = os_moves(&r, &s, t->moves + nmoves);
        os_child_keys(&r, t, &s, t->moves + nmoves, n, t->keys + nmoves);
        nmoves += (size_t)n;
        lv->end = nmoves;
        /* the next unmet child, going back up while a depth has none */
        for (;;) {
            lv = &t->levels[depth];
            if (lv->next < lv->end) {
                const uint64_t *child = t->keys[lv->next];
                Frame *f = &t->moves[lv->next++];
                if (++made > budget) { verdict = OS_UNKNOWN; goto done; }
                os_do(&r, &s, f);
                if (s.up == KING && s.down == ACE) {
                    verdict = OS_WINNABLE;
                    if (line != NULL) {  /* the moves of each depth's current child */
                        *line = PyMem_RawMalloc((depth + 1) * sizeof **line);
                        if (*line == NULL) { PyErr_NoMemory(); verdict = -1; goto done; }
                        for (size_t d = 0; d <= depth; d++) {
                            const Frame *g = &t->moves[t->levels[d].next - 1];
                            (*line)[d].src = g->src, (*line)[d].dst = g->dst;
                        }
                        *nline = depth + 1;
                    }
                    goto done;
                }
                k[0] = child[0], k[1] = child[1], k[2] = child[2];
                if (os_find(t, k, &slot)) { os_undo(&r, &s, f); continue; }
                if (os_meet(t, slot, k) < 0) goto done;
                unsigned piles = f->src < NPILES && f->dst < NPILES ? 1u << f->src | 1u << f->dst : ALL_PILES;  /* witness_in */
                if (s.full && witness_in(core, s.full, &card, piles) >= 0) { os_undo(&r, &s, f); continue; }
                depth++;
                break;
            }
            if (depth == 0) { verdict = OS_NOT_WINNABLE; goto done; }
            nmoves = lv->first;
            depth--;
            os_undo(&r, &s, &t->moves[t->levels[depth].next - 1]);
        }
    }
done:
    if (verdict == OS_NOT_WINNABLE) {  /* every position met is proved not winnable */
        for (size_t i = 0; i < t->nmine; i++) t->slots[t->mine[i]].gen = OS_LOST | t->epoch;
        t->lost += t->nmine;
    }
    if (verdict == OS_WINNABLE || verdict == OS_NOT_WINNABLE) t->decided++;
    if (verdict == OS_UNKNOWN) t->unknown++, t->unknown_nodes += made;
    t->nodes += made;
    *nodes = made;
    return verdict;
}

/* what the decider did so far on this core: questions, those decided, positions generated, and of those the
 * questions that ran out of their budget (``unknown``: a verdict that prunes nothing) and their positions */
void onesuit_counts(const Core *core, long *calls, long *decided, long *nodes, long *unknown, long *unknown_nodes) {
    const OneSuit *t = core->onesuit;
    *calls = t ? t->calls : 0, *decided = t ? t->decided : 0, *nodes = t ? t->nodes : 0;
    *unknown = t ? t->unknown : 0, *unknown_nodes = t ? t->unknown_nodes : 0;
}
