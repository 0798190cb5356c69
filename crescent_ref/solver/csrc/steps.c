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

/* A pile's first 8 cards as a big-endian number, zeros past its end: two piles whose heads differ are
 * in the order of their heads (where they first differ, either both have a card or the one that ended
 * is a prefix of the other, its 0 below the other's card); equal heads leave it to pile_cmp. */
uint64_t pile_head(const State *s, int i) {
    int n = s->len[i];
    if (!n) return 0;
    uint64_t h;
    memcpy(&h, s->c[i], 8);  /* a pile's row holds MAXP bytes: the 8 are in it, those past the end masked */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    h = __builtin_bswap64(h);
#endif
    return n >= 8 ? h : h & ~(~0ull >> (8 * n));
}

static inline int head_cmp(const State *s, const uint64_t *head, int a, int b) {
    if (head[a] != head[b]) return head[a] < head[b] ? -1 : 1;
    return pile_cmp(s, a, b);
}

/* put pile ``v`` into ``idx`` (n piles sorted) at its place: an insertion sort's step. Piles that
 * compare equal are the same bytes, so where among them it goes leaves the key unchanged. */
static inline void insert_pile(const State *s, const uint64_t *head, int *idx, int n, int v) {
    int j = n - 1;
    while (j >= 0 && head_cmp(s, head, idx[j], v) > 0) { idx[j + 1] = idx[j]; j--; }
    idx[j + 1] = v;
}

/* the piles sorted (pile_cmp's order) */
void pile_order(const State *s, KeyOrder *o) {
    for (int i = 0; i < NPILES; i++) o->head[i] = pile_head(s, i);
    for (int i = 0; i < NPILES; i++) insert_pile(s, o->head, o->idx, i, i);
}

/* the piles in the key's order (as they lie under autoplay, which keeps the piles in place) */
void key_order(const Core *core, const State *s, KeyOrder *o) {
    if (!core->autoplay) { pile_order(s, o); return; }
    for (int i = 0; i < NPILES; i++) o->head[i] = pile_head(s, i), o->idx[i] = i;
}

/* key_order of a child ``s`` from its parent's order ``parent``, when only the piles in ``dirty``
 * (a bit per pile) changed: the others keep their heads and their order, the changed ones go in. */
void key_reorder(const Core *core, const State *s, const KeyOrder *parent, unsigned dirty, KeyOrder *o) {
    if (core->autoplay) {
        *o = *parent;
        for (int i = 0; i < NPILES; i++) if (dirty >> i & 1) o->head[i] = pile_head(s, i);
        return;
    }
    int n = 0;
    memcpy(o->head, parent->head, sizeof o->head);  /* whole: cheaper than pile by pile; the changed ones are read next */
    for (int k = 0; k < NPILES; k++) {
        int i = parent->idx[k];
        o->idx[n] = i, n += !(dirty >> i & 1);  /* written always, kept when unchanged: no branch to mispredict */
    }
    for (unsigned left = dirty & ((1u << NPILES) - 1); left; left &= left - 1) {  /* the changed piles, lowest first */
        int i = __builtin_ctz(left);
        o->head[i] = pile_head(s, i);
        insert_pile(s, o->head, o->idx, n++, i);
    }
}

/* the key's bytes into ``out`` (at most KEYMAX), the piles in the order ``o``; their number */
Py_ssize_t key_write(const Core *core, const State *s, const KeyOrder *o, unsigned char *out) {
    unsigned char *start = out;
    for (int i = 0; i < NPILES; i++) {  /* each pile and a 0xff after it; the last one's is written over */
        copy_cards(out, s->c[o->idx[i]], s->len[o->idx[i]]);
        out += s->len[o->idx[i]];
        *out++ = 0xff;
    }
    out--;
    for (int i = 0; i < 4; i++) {  /* the ups, the downs, the held: a suit's three in one step */
        int hidden = core->collapse && meets(s, i);
        out[i] = (unsigned char)(hidden ? 0 : s->up[i]);
        out[4 + i] = (unsigned char)(hidden ? 0 : s->down[i]);
        out[8 + i] = (unsigned char)s->held[i];
    }
    out[12] = (unsigned char)(s->resh > 255 ? 255 : s->resh);
    return out + 13 - start;
}

/* the key's bytes into ``out`` (at most KEYMAX); their number */
Py_ssize_t key_into(const Core *core, const State *s, unsigned char *out) {
    KeyOrder o;
    key_order(core, s, &o);
    return key_write(core, s, &o, out);
}

PyObject *key_of(const Core *core, const State *s) {
    unsigned char buf[KEYMAX];
    Py_ssize_t n = key_into(core, s, buf);
    return PyBytes_FromStringAndSize((const char *)buf, n);
}

/* -- the search order (orders.Promise with orders.features) ---------------------------------- */

/* each card's code (orders.features): suit * 16 + KING - rank when on the Ace foundation's side,
 * suit * 16 + rank on the King's, -1 while not home; one suit's, by its foundations */
static void suit_codes(int suit, int up, int down, signed char *code) {
    int rank = ACE;
    /* three runs of ranks instead of a test per rank: the Ace side, those not home, the King side */
    for (; rank <= up && rank <= KING; rank++) code[rank - 1] = (signed char)(suit * 16 + KING - rank);
    for (; rank < down && rank <= KING; rank++) code[rank - 1] = -1;
    for (; rank <= KING; rank++) code[rank - 1] = (signed char)(suit * 16 + rank);
}

/* every suit's codes for every pair of foundations a game has (up 0-13, down 1-14), made once: a
 * score copies its four rows instead of making them */
static signed char code_table[4][KING + 1][KING + 2][KING];
static int codes_ready;

static void codes_of(const State *s, signed char *codes) {
    if (!codes_ready) {
        for (int suit = 0; suit < 4; suit++)
            for (int up = 0; up <= KING; up++)
                for (int down = 0; down <= KING + 1; down++) suit_codes(suit, up, down, code_table[suit][up][down]);
        codes_ready = 1;
    }
    for (int suit = 0; suit < 4; suit++) {
        int up = s->up[suit], down = s->down[suit];
        if (up >= 0 && up <= KING && down >= 0 && down <= KING + 1) memcpy(codes + suit * 13, code_table[suit][up][down], KING);
        else suit_codes(suit, up, down, codes + suit * 13);  /* beyond any game: made as asked */
    }
}

/* orders.features of one pile: its cards' depths into ``nearest`` (the fewest cards on a copy of each
 * card), and its tangles returned: the pairs of a home card over a lower home card of its suit with a
 * smaller code (codes of one suit differ in their last 4 bits alone). A card not home (code -1) is in
 * no pair, so each home card is compared only with the home cards of its suit below it, which are kept
 * by suit as the pile is read upwards. */
static long long_pile_features(const unsigned char *pile, int n, const signed char *codes, int *nearest) {
    unsigned char below[4][MAXP];  /* per suit, the code's last 4 bits of its home cards read so far */
    int nb[4] = {0, 0, 0, 0};
    long tangled = 0;
    for (int j = 0; j < n; j++) {
        if (n - 1 - j < nearest[pile[j]]) nearest[pile[j]] = n - 1 - j;
        int u = codes[pile[j]];
        if (u < 0) continue;
        int suit = u >> 4, low = u & 15;
        for (int k = 0; k < nb[suit]; k++) tangled += below[suit][k] < low;
        below[suit][nb[suit]++] = (unsigned char)low;
    }
    return tangled;
}

/* the sum of a word's 16 four-bit counts, when it is under 16: the multiply adds them all into the
 * top four bits (no partial sum carries) */
static inline long count_sum(uint64_t counts) { return (long)((counts * 0x1111111111111111ull) >> 60); }

/* long_pile_features of a pile of at most 15 cards, where no count of them passes 15: per suit, a
 * four-bit count per code's last 4 bits of the home cards read so far, those under a card's code
 * summed at once instead of compared one by one */
static long pile_features(const unsigned char *pile, int n, const signed char *codes, int *nearest) {
    if (n > 15) return long_pile_features(pile, n, codes, nearest);
    uint64_t below[4] = {0, 0, 0, 0};
    long tangled = 0;
    for (int j = 0; j < n; j++) {
        if (n - 1 - j < nearest[pile[j]]) nearest[pile[j]] = n - 1 - j;
        int u = codes[pile[j]];
        if (u < 0) continue;
        int suit = u >> 4, low = u & 15;
        tangled += count_sum(below[suit] & ((1ull << 4 * low) - 1));
        below[suit] += 1ull << 4 * low;
    }
    return tangled;
}

long score(const State *s, const Promise *p) {
    if (p->flat) return 0;
    int nexts[8], nn = 0, depth[8];
    for (int i = 0; i < 4; i++) if (s->up[i] < KING) nexts[nn++] = i * 13 + s->up[i];
    for (int i = 0; i < 4; i++) if (s->down[i] > ACE) nexts[nn++] = i * 13 + s->down[i] - 2;
    signed char codes[52];
    int nearest[52];  /* nearest: the fewest cards on a copy of the card, over the piles */
    codes_of(s, codes);
    for (int c = 0; c < 52; c++) nearest[c] = DEEP;
    long tangled = 0;
    for (int i = 0; i < NPILES; i++) tangled += pile_features(s->c[i], s->len[i], codes, nearest);
    for (int t = 0; t < nn; t++) depth[t] = nearest[nexts[t]];
    long buried = 0, home = 0;
    for (int t = 0; t < nn; t++) buried += depth[t];
    for (int i = 0; i < 4; i++) home += s->up[i] + KING + 1 - s->down[i];
    return home * p->home + s->resh * p->kept - p->buried * buried - p->tangled * tangled;
}

/* orders.noise: a key's tie-break, zlib.crc32(key, seed) % spread (0 without a spread). The CRC-32 is
 * zlib's (the reflected polynomial 0xEDB88320, the value inverted before and after), eight bytes a
 * step ("slice-by-8": crc_table[k] is the CRC of a byte followed by k zero bytes), its tables made once. */
static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 256; i++) crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^ crc_table[0][crc_table[k - 1][i] & 0xff];
    crc_ready = 1;
}

long noise(const Promise *p, const unsigned char *key, size_t n) {
    if (p->flat || p->spread <= 0) return 0;
    if (!crc_ready) crc_init();
    uint32_t c = ~(uint32_t)p->seed;
    const uint32_t (*t)[256] = crc_table;
    for (; n >= 8; n -= 8, key += 8) {
        c ^= (uint32_t)key[0] | (uint32_t)key[1] << 8 | (uint32_t)key[2] << 16 | (uint32_t)key[3] << 24;
        c = t[7][c & 0xff] ^ t[6][(c >> 8) & 0xff] ^ t[5][(c >> 16) & 0xff] ^ t[4][c >> 24]
            ^ t[3][key[4]] ^ t[2][key[5]] ^ t[1][key[6]] ^ t[0][key[7]];
    }
    for (; n; n--, key++) c = t[0][(c ^ *key) & 0xff] ^ (c >> 8);
    return (long)((~c) % (uint32_t)p->spread);
}
