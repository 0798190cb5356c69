/* What the search tries and in which order: the steps of a position (canon.steps, search.choices,
 * safe.safe_move), the canonical key of a position (canon.key) and the order's score
 * (orders.Promise with orders.features). */
#include "core.h"

/* -- the steps searched (canon.steps, search.choices, safe.safe_move) ------------------------ */

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

void steps(const Core *core, const State *s, const Act *moves, int n, Steps *out) {
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

void choices(const Core *core, const State *s, const Act *moves, int n, int prune, Steps *out) {
    int safe = prune ? safe_move(core, s, moves, n) : -1;
    if (safe >= 0) {
        out->n = 1, out->len[0] = 1, out->a[0][0] = moves[safe];
        return;
    }
    steps(core, s, moves, n, out);
    if (s->resh) { out->a[out->n][0] = (Act){RESH, RESH}; out->len[out->n++] = 1; }
}

/* -- the canonical key (canon.key) ----------------------------------------------------------- */

int pile_cmp(const State *s, int a, int b) {
    int n = s->len[a] < s->len[b] ? s->len[a] : s->len[b];
    if (n && s->c[a][0] != s->c[b][0]) return s->c[a][0] - s->c[b][0];  /* most piles differ at the bottom */
    int c = n ? memcmp(s->c[a], s->c[b], (size_t)n) : 0;
    return c ? c : s->len[a] - s->len[b];
}

/* the key's bytes into ``out`` (at most KEYMAX); their number */
Py_ssize_t key_into(const Core *core, const State *s, unsigned char *out) {
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

PyObject *key_of(const Core *core, const State *s) {
    unsigned char buf[KEYMAX];
    Py_ssize_t n = key_into(core, s, buf);
    return PyBytes_FromStringAndSize((const char *)buf, n);
}

/* -- the search order (orders.Promise with orders.features) ---------------------------------- */

static int code_of(const State *s, int card) {
    int suit = card / 13, rank = card % 13 + 1;
    if (rank <= s->up[suit]) return suit * 16 + KING - rank;
    if (rank >= s->down[suit]) return suit * 16 + rank;
    return -1;
}

long score(const State *s, const Promise *p) {
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

/* orders.noise: a key's tie-break, zlib.crc32(key, seed) % spread (0 without a spread). The CRC-32 is
 * zlib's (the reflected polynomial 0xEDB88320, the value inverted before and after), its table made once. */
static uint32_t crc_table[256];
static int crc_ready;

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
    crc_ready = 1;
}

long noise(const Promise *p, const unsigned char *key, size_t n) {
    if (p->flat || p->spread <= 0) return 0;
    if (!crc_ready) crc_init();
    uint32_t c = ~(uint32_t)p->seed;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ key[i]) & 0xff] ^ (c >> 8);
    return (long)((~c) % (uint32_t)p->spread);
}
