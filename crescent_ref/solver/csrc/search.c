/* The search loop: search.Search.loop on this core (Core.search), from a start to a won line, a
 * dry frontier or a spent budget; the popped positions skipped by the dead and one-suit rules; and
 * the winning line, rebuilt by replaying the choices from the start.
 *
 * One best-first search with its frontier and its seen table in table.c instead of in Python objects.
 * The frontier is a binary heap on (score, tick), the larger first: search.py's heapq holds
 * (-score, -tick, ...) and every tick is distinct, so both take the positions in the same order.
 * A node keeps its parent's index and the number of its step among the parent's choices, so the
 * line is rebuilt by replaying the choices from the start. A queued node keeps its position packed
 * (table.c's Packed header and its cards). */
#include "core.h"

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
/* Whether a popped position is skipped: lost, in the lost set, or proved dead (here, or by ``ask``,
 * which answers (dead, nodes it made), asked after this core's own rules found nothing, up to
 * ``ask_most`` reshuffles left); -1 on an error. Its pile moves go into ``moves`` (*nmoves of them),
 * for its expansion. ``known``: the suits whose one-suit questions its parent answered (suit_lost);
 * ``passed``: the piles whose locked-card verdicts are its parent's (witness_in); *alive: the suits
 * this position's questions answered not lost, for its children. */
static int skipped(Core *core, const Table *t, const Node *node, const State *s, const Plan *plan, long *nodes,
                   Act *moves, int *nmoves, unsigned known, unsigned passed, unsigned *alive) {
    int card;
    *alive = 0;
    if (status_of(core, s, *nmoves = pile_moves(core, s, moves)) == LOST) return 1;
    if (PySet_GET_SIZE(plan->lost)) {
        PyObject *key = PyBytes_FromStringAndSize((const char *)t->keys + node->key, node->keylen);
        int in = key ? PySet_Contains(plan->lost, key) : -1;
        Py_XDECREF(key);
        if (in) return in;
    }
    if (!plan->prune) return 0;
    if (witness_in(core, s, &card, ALL_PILES & ~passed) >= 0) return 1;
    if (s->resh <= plan->waits_most) {
        int stuck = waits_dead(core, s);
        if (stuck) return stuck;
    }
    const Relax *r = plan->relax;
    if (r != NULL && s->resh <= (r->last ? 1 : 0)) {
        int lost = suit_lost(core, r, s, plan, nodes, known, alive);
        if (lost) return lost;  /* else ``ask`` may still prove it (pairs.py) */
    }
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

/* a child on its way into the table: its position, key order, key and the key's hash, and the suits its
 * step may have changed the one-suit question of */
typedef struct {
    State c; KeyOrder order; size_t keylen; uint32_t hash;
    unsigned touched, passed;  /* the suits whose one-suit question may have changed; the piles whose locked-card verdict did not */
    unsigned char key[KEYMAX];
} Child;

/* the suits whose foundations or hold differ between ``a`` and ``b`` */
static unsigned homes_changed(const State *a, const State *b) {
    unsigned suits = 0;
    for (int suit = 0; suit < 4; suit++)
        if (a->up[suit] != b->up[suit] || a->down[suit] != b->down[suit] || a->held[suit] != b->held[suit]) suits |= 1u << suit;
    return suits;
}

/* The suits whose one-suit question (suits.c: the suit's pile cards in order, the piles whose bottom card is
 * of the suit, its foundations and hold, the reshuffles left) may differ between ``a`` and its child ``b``,
 * which differ in the piles ``dirty`` only: every suit after a reshuffle; else the suits whose foundations
 * or hold changed (``homes``), and those of the top cards of the changed piles before and after, which include the
 * card moved (a step moves one card between piles, or cards to and between foundations). */
static unsigned touched(const State *a, const State *b, unsigned dirty, unsigned homes) {
    if (a->resh != b->resh) return 15;
    unsigned suits = homes;
    for (int i = 0; i < NPILES; i++) {
        if (!(dirty >> i & 1)) continue;
        if (a->len[i]) suits |= 1u << (top_of(a, i) / 13);
        if (b->len[i]) suits |= 1u << (top_of(b, i) / 13);
    }
    return suits;
}

/* step k of ``all`` from ``s`` (whose key order is ``order``): the child made and keyed, its slot fetched ahead */
static void make_child(const Core *core, const Table *t, const State *s, const KeyOrder *order, const Steps *all,
                       int k, Child *ch) {
    unsigned dirty = 0;
    copy_state(&ch->c, s);
    after(core, &ch->c, all->a[k], all->len[k], &dirty);
    key_reorder(core, &ch->c, order, dirty, &ch->order);  /* its parent's, with the piles its step changed */
    ch->keylen = (size_t)key_write(core, &ch->c, &ch->order, ch->key);
    ch->hash = hash_bytes(ch->key, ch->keylen);
    table_prefetch(t, ch->hash);
    unsigned homes = homes_changed(s, &ch->c);
    ch->touched = touched(s, &ch->c, dirty, homes);
    /* a step that moved cards between piles only leaves the cards on the piles, the foundations and the
     * reshuffles as they were: the other piles' locked-card verdicts are their parent's (dead.c's witness_in) */
    ch->passed = s->resh == ch->c.resh && !homes ? ALL_PILES & ~dirty : 0;
}

/* the marks a queued node's Packed header keeps for its expansion (the header lies at any byte): the suits whose
 * one-suit question is its parent's (alive) and the piles whose locked-card verdict is (passed) */
static void marks_put(Table *t, uint32_t node, uint8_t known, uint16_t passed) {
    unsigned char *h = t->states + t->nodes[node].state;
    memcpy(h + offsetof(Packed, alive), &known, sizeof known), memcpy(h + offsetof(Packed, passed), &passed, sizeof passed);
}

static void marks_of(const Table *t, uint32_t node, uint8_t *known, uint16_t *passed) {
    const unsigned char *h = t->states + t->nodes[node].state;
    memcpy(known, h + offsetof(Packed, alive), sizeof *known), memcpy(passed, h + offsetof(Packed, passed), sizeof *passed);
}

/* the child ``ch`` of node ``at`` by its k-th step recorded and queued when new: 1 with *won set when it is
 * won, else -1 (error) or 0 */
static int add_child(Table *t, uint32_t at, int k, const Child *ch, unsigned alive, const Plan *plan, long *nodes,
                     uint32_t *ticks, uint32_t *won) {
    int fresh;
    ++*nodes;
    long child = table_add_hashed(t, ch->key, ch->keylen, ch->hash, &fresh);
    if (child < 0) return -1;
    if (!fresh) return 0;
    t->nodes[child].parent = at, t->nodes[child].step = (uint16_t)k;
    if (is_won(&ch->c)) { *won = (uint32_t)child; return 1; }
    if (pack(t, &t->nodes[child], &ch->c, &ch->order) < 0) return -1;
    marks_put(t, (uint32_t)child, (uint8_t)(alive & ~ch->touched), (uint16_t)ch->passed);
    Queued q = {score(&ch->c, &plan->p) + noise(&plan->p, ch->key, ch->keylen), (*ticks)++, (uint32_t)child};
    return heap_push(t, q) < 0 ? -1 : 0;
}

/* Generate the children of node ``at`` (its pile moves: ``moves``, n of them); FOUND with *won set
 * when one is won, else -1 (error) or 0. Each child is made one step ahead of its recording, so that
 * its slot in the table is on its way from memory meanwhile (the same children, in the same order). */
static int grow_node(Core *core, Table *t, uint32_t at, const State *s, const KeyOrder *order, const Act *moves, int n,
                     unsigned alive, const Plan *plan, Steps *all, long *nodes, uint32_t *ticks, uint32_t *won) {
    Child two[2];
    choices(core, s, moves, n, plan->prune, all);
    for (int k = 0; k < all->n; k++) {
        make_child(core, t, s, order, all, k, &two[k & 1]);
        int done = k ? add_child(t, at, k - 1, &two[(k - 1) & 1], alive, plan, nodes, ticks, won) : 0;
        if (done) return done;
    }
    return all->n ? add_child(t, at, all->n - 1, &two[(all->n - 1) & 1], alive, plan, nodes, ticks, won) : 0;
}

static int run_search(Core *core, Table *t, const State *start, const Plan *plan, long *nodes, uint32_t *won) {
    unsigned char key[KEYMAX];
    int fresh;
    uint32_t ticks = 0;
    long expanded = 0;
    Steps *all = PyMem_RawMalloc(sizeof *all);
    if (all == NULL) { PyErr_NoMemory(); return -1; }
    int result = -1;
    KeyOrder order;
    key_order(core, start, &order);
    size_t keylen = (size_t)key_write(core, start, &order, key);
    if (table_add(t, key, keylen, &fresh) < 0 || pack(t, &t->nodes[0], start, &order) < 0) goto done;
    Queued root = {score(start, &plan->p) + noise(&plan->p, key, keylen), ticks++, 0};
    if (heap_push(t, root) < 0) goto done;
    while (t->nheap) {
        Queued q = heap_pop(t);
        State s;
        Act moves[MAXMOVES];
        int nmoves;
        unsigned alive;
        unpack(t, &t->nodes[q.node], &s);
        uint8_t known;
        uint16_t passed;
        marks_of(t, q.node, &known, &passed);
        int skip = skipped(core, t, &t->nodes[q.node], &s, plan, nodes, moves, &nmoves, known, passed, &alive);
        if (skip < 0) goto done;
        if (skip) continue;
        unpack_order(t, &t->nodes[q.node], &s, &order);
        int found = grow_node(core, t, q.node, &s, &order, moves, nmoves, alive, plan, all, nodes, &ticks, won);
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
 *        seconds, check_every, tick, memo, solve_suit, last, waits_most, last_nodes, decide_nodes,
 *        decide_counted)
 *   -> (outcome, line or None, nodes, stored): Search.loop from the start */
PyObject *Core_search(Core *self, PyObject *args) {
    PyObject *pos, *order;
    Plan plan;
    Relax relax;
    Py_ssize_t stored;
    memset(&plan, 0, sizeof plan);
    memset(&relax, 0, sizeof relax);
    if (!PyArg_ParseTuple(args, "OOpOOiOnlnddiOOOpillp", &pos, &order, &plan.prune, &plan.lost, &plan.ask,
                          &plan.ask_most, &plan.remember_into, &plan.remember_most, &plan.budget_nodes, &stored,
                          &plan.started, &plan.seconds, &plan.check_every, &plan.tick, &relax.memo, &relax.solve_suit,
                          &relax.last, &plan.waits_most, &relax.last_nodes, &relax.decide_nodes,
                          &relax.decide_counted))
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
    table_take(self, SPARE_SEARCH, &t);
    long nodes = 0;
    uint32_t won = 0;
    int outcome = run_search(self, &t, &s, &plan, &nodes, &won);
    PyObject *line = NULL, *result = NULL;
    if (outcome == FOUND) line = line_of(self, &t, won, plan.prune);
    else if (outcome >= 0) line = Py_NewRef(Py_None);
    if (line != NULL) result = Py_BuildValue("(iNln)", outcome, line, nodes, (Py_ssize_t)t.nnodes);
    table_give(self, SPARE_SEARCH, &t);
    return result;
}
