/* The search's storage: the seen table (open addressing on the canonical key, each node with its
 * parent and its step's number), the packed positions of the queued nodes, and the frontier, a
 * binary heap on (score, tick); and the CPU clock that search.py reads. These restate the dict,
 * the heapq and time.process_time that search.Search uses. */
#include "core.h"

void table_free(Table *t) {
    PyMem_RawFree(t->nodes); PyMem_RawFree(t->slots); PyMem_RawFree(t->keys);
    PyMem_RawFree(t->states); PyMem_RawFree(t->heap);
    memset(t, 0, sizeof *t);
}

#define FIRST_SLOTS (1 << 12)

/* A table for a search: the one the core kept from an earlier search of its kind, emptied, or a new
 * one. Reusing its buffers spares the page faults and copies of growing new ones at every restart
 * (a tenth of a hard solve's CPU went to the kernel); nothing stored depends on the buffers' past. */
void table_take(Core *core, int which, Table *t) {
    Table *kept = core->spare[which];
    memset(t, 0, sizeof *t);
    if (kept == NULL) return;
    *t = *kept, core->spare[which] = NULL;
    PyMem_RawFree(kept);
    t->nnodes = t->nkeys = t->nstates = t->nheap = 0;
    t->nslots = t->cap_slots < FIRST_SLOTS ? t->cap_slots : FIRST_SLOTS;
    memset(t->slots, 0, t->nslots * sizeof *t->slots);
}

/* Done with ``t``: kept for the next search of its kind, unless the core keeps a larger one (a search inside
 * a search gives its table back first) or it passed KEEP_MOST positions (a long solve's table is not held
 * through the small ones after it; its own growth cost little against its search); else freed. */
#define KEEP_MOST ((size_t)1 << 20)
void table_give(Core *core, int which, Table *t) {
    Table *kept = core->spare[which];
    if (!t->cap_slots || t->cap_nodes > KEEP_MOST || (kept != NULL && kept->cap_nodes >= t->cap_nodes)) {
        table_free(t);
        return;
    }
    if (kept == NULL && (kept = core->spare[which] = PyMem_RawCalloc(1, sizeof *kept)) == NULL) { table_free(t); return; }
    table_free(kept);  /* the smaller one kept before, or an empty one */
    *kept = *t;
    memset(t, 0, sizeof *t);
}

int grow(void **buf, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *b = PyMem_RawRealloc(*buf, cap2 * item);
    if (b == NULL) { PyErr_NoMemory(); return -1; }
    *buf = b, *cap = cap2;
    return 0;
}

/* The key's hash; the key has CARDS_PAST spare bytes past its n (every caller's buffer is KEYMAX long,
 * and the table's keys keep as many past the last),
 * so on a little-endian machine its last bytes are read as one word, the bytes past the n masked off. */
uint32_t hash_bytes(const unsigned char *p, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, p + i, 8);
    w = n - i ? w & (~0ull >> (64 - 8 * (n - i))) : 0;
#else
    memcpy(&w, p + i, n - i);
#endif
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return (uint32_t)h;
}

static int rehash(Table *t, size_t nslots) {
    if (nslots <= t->cap_slots) {  /* a kept table's buffer has room: the nodes put back by their keys */
        memset(t->slots, 0, nslots * sizeof *t->slots);
        t->nslots = nslots;
        for (size_t k = 0; k < t->nnodes; k++) {
            uint32_t h = hash_bytes(t->keys + t->nodes[k].key, t->nodes[k].keylen);
            size_t j = h & (nslots - 1);
            while (t->slots[j]) j = (j + 1) & (nslots - 1);
            t->slots[j] = (uint64_t)h << 32 | (uint64_t)(k + 1);
        }
        return 0;
    }
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
    t->slots = slots, t->nslots = t->cap_slots = nslots;
    return 0;
}

/* The node of ``key``: its index when seen already (*fresh = 0), else a new node (*fresh = 1);
 * -1 on a memory error. */
long table_add(Table *t, const unsigned char *key, size_t n, int *fresh) {
    return table_add_hashed(t, key, n, hash_bytes(key, n), fresh);
}

/* the same, ``h`` being hash_bytes(key, n) (read ahead with table_prefetch) */
long table_add_hashed(Table *t, const unsigned char *key, size_t n, uint32_t h, int *fresh) {
    if ((t->nnodes + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : FIRST_SLOTS) < 0) return -1;
    size_t j = h & (t->nslots - 1);
    for (uint64_t v; (v = t->slots[j]); j = (j + 1) & (t->nslots - 1)) {
        if ((uint32_t)(v >> 32) != h) continue;
        const Node *node = &t->nodes[(uint32_t)v - 1];
        if (node->keylen == n && memcmp(t->keys + node->key, key, n) == 0) { *fresh = 0; return (uint32_t)v - 1; }
    }
    if (t->nnodes >= UINT32_MAX - 1) { PyErr_SetString(PyExc_MemoryError, "search: too many positions"); return -1; }
    if (grow((void **)&t->nodes, &t->cap_nodes, t->nnodes + 1, sizeof(Node)) < 0
        || grow((void **)&t->keys, &t->cap_keys, t->nkeys + n + CARDS_PAST, 1) < 0) return -1;  /* hash_bytes reads past */
    Node *node = &t->nodes[t->nnodes];
    node->key = t->nkeys, node->keylen = (uint16_t)n, node->parent = UINT32_MAX, node->step = 0, node->state = 0;
    memcpy(t->keys + t->nkeys, key, n);
    t->nkeys += n;
    t->slots[j] = (uint64_t)h << 32 | (uint64_t)(t->nnodes + 1);
    *fresh = 1;
    return (long)t->nnodes++;
}

/* ``s`` packed at the end of the states, with its key order ``o`` (or NULL: none kept) */
int pack(Table *t, Node *node, const State *s, const KeyOrder *o) {
    size_t cards = 0;
    for (int i = 0; i < NPILES; i++) cards += (size_t)s->len[i];
    if (grow((void **)&t->states, &t->cap_states, t->nstates + sizeof(Packed) + cards + CARDS_PAST, 1) < 0) return -1;
    Packed h;
    h.resh = (int32_t)s->resh, h.moves = (int32_t)s->moves;
    for (int i = 0; i < 4; i++) h.up[i] = (uint8_t)s->up[i], h.down[i] = (uint8_t)s->down[i], h.held[i] = (uint8_t)s->held[i];
    unsigned char *out = t->states + t->nstates + sizeof(Packed);
    for (int i = 0; i < NPILES; i++) {
        h.len[i] = (uint8_t)s->len[i], h.hidden[i] = (uint8_t)(s->hidden[i] > 255 ? 255 : s->hidden[i]);
        copy_cards(out, s->c[i], s->len[i]);
        out += s->len[i];
    }
    h.alive = 0, h.passed = 0;
    if (o == NULL) memset(h.order, 0, sizeof h.order);
    else for (int i = 0; i < NPILES / 2; i++) h.order[i] = (uint8_t)(o->idx[2 * i] | o->idx[2 * i + 1] << 4);
    memcpy(t->states + t->nstates, &h, sizeof h);
    node->state = t->nstates;
    t->nstates += sizeof(Packed) + cards;
    return 0;
}

void unpack(const Table *t, const Node *node, State *s) {
    Packed h;
    memcpy(&h, t->states + node->state, sizeof h);
    const unsigned char *in = t->states + node->state + sizeof(Packed);
    s->resh = h.resh, s->moves = h.moves;
    for (int i = 0; i < 4; i++) s->up[i] = h.up[i], s->down[i] = h.down[i], s->held[i] = h.held[i];
    for (int i = 0; i < NPILES; i++) {
        s->len[i] = h.len[i], s->hidden[i] = h.hidden[i];
        copy_cards(s->c[i], in, h.len[i]);  /* the packed states keep CARDS_PAST spare bytes at their end */
        in += h.len[i];
    }
}

/* the key order that ``node`` was packed with (``s``: its position, unpacked): the piles' order kept,
 * their heads read again, which is cheaper than sorting the piles anew (steps.c's key_order) */
void unpack_order(const Table *t, const Node *node, const State *s, KeyOrder *o) {
    const uint8_t *order = t->states + node->state + offsetof(Packed, order);
    for (int i = 0; i < NPILES; i++) o->idx[i] = order[i / 2] >> (4 * (i % 2)) & 15, o->head[i] = pile_head(s, i);
}

static inline int before(const Queued *a, const Queued *b) {
    return a->score > b->score || (a->score == b->score && a->tick > b->tick);
}

int heap_push(Table *t, Queued q) {
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

Queued heap_pop(Table *t) {
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
double cpu_seconds(void) {
#ifdef CLOCK_PROCESS_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return (double)clock() / CLOCKS_PER_SEC;
}
