/* A one-suit position with no reshuffle left (onesuit.c decides it): its moves, what a move does and undoes,
 * and its key.
 *
 * The moves restate, for one suit's cards only, movegen.pile_moves (onto a pile whose top is a neighbour,
 * under the pile limit; to the foundations that take the card, or to the hold where both do and the profile
 * has it), movegen.foundation_moves' moves between meeting foundations, and transitions.move, without
 * autoplay or give-backs. With no reshuffle left a pile's number decides nothing (an empty pile stays empty,
 * and no rule reads the numbers), so the key is the non-empty piles sorted: 24 bytes (each pile's ranks as
 * nibbles, a zero nibble after each pile, then the foundations and the hold). A child's key is made from
 * its parent's sorted piles, of which a move changes two at most. */
#include "core.h"

static inline int near_rank(const Rules *r, int a, int b) {
    int d = a - b;
    return d == 1 || d == -1 || (r->wrap && (a + b == 14) && (a == 1 || b == 1));
}

static inline int os_takes_up(const OS *s, int rank) {
    if (s->held) return rank == s->held || rank == s->held + 1;
    return rank == s->up + 1 && rank <= KING;
}

static inline int os_takes_down(const OS *s, int rank) {
    if (s->held) return rank == s->held || rank == s->held - 1;
    return rank == s->down - 1 && rank >= ACE;
}

/* the moves of ``s``, foundations first (a won line is mostly cards going home), then pile to pile */
int os_moves(const Rules *r, const OS *s, Frame *out) {
    int n = 0, up = UPB + r->suit, down = DOWNB + r->suit;
    for (int i = 0; i < NPILES; i++) {
        if (!s->len[i]) continue;
        int x = s->c[i][s->len[i] - 1], a = os_takes_up(s, x), k = os_takes_down(s, x);
        if (a && k && r->hold && !s->held) { out[n].src = (signed char)i, out[n++].dst = HOLDP; continue; }
        if (a) out[n].src = (signed char)i, out[n++].dst = (signed char)up;
        if (k) out[n].src = (signed char)i, out[n++].dst = (signed char)down;
    }
    if (r->between && !s->held) {
        if (s->up != ACE && os_takes_down(s, s->up)) out[n].src = (signed char)up, out[n++].dst = (signed char)down;
        if (s->down != KING && os_takes_up(s, s->down)) out[n].src = (signed char)down, out[n++].dst = (signed char)up;
    }
    for (int i = 0; i < NPILES; i++) {
        if (!s->len[i]) continue;
        int x = s->c[i][s->len[i] - 1];
        for (int j = 0; j < NPILES; j++)
            if (j != i && s->len[j] && s->len[j] < r->limit && near_rank(r, x, s->c[j][s->len[j] - 1]))
                out[n].src = (signed char)i, out[n++].dst = (signed char)j;
    }
    return n;
}

static inline void os_push(OS *s, int i, int x) {
    s->v[i] |= (unsigned __int128)x << (4 * s->len[i]);
    if (s->full) s->full->c[i][s->full->len[i]++] = (unsigned char)(s->base + x);
    s->c[i][s->len[i]++] = (uint8_t)x;
}

static inline int os_pop(OS *s, int i) {
    int x = s->c[i][--s->len[i]];
    if (s->full) s->full->len[i]--;
    s->v[i] &= ~((unsigned __int128)0xF << (4 * s->len[i]));
    return x;
}

/* the suit's foundations and hold into the State (the other suits stay complete) */
static inline void os_sync(OS *s, int suit) {
    if (s->full) s->full->up[suit] = s->up, s->full->down[suit] = s->down, s->full->held[suit] = s->held;
}

/* ``part`` read into ``s`` (``r->suit`` set): -1 unless its pile cards are of one suit (at most OS_MAXP a pile),
 * every other suit home and not held */
int os_read(const State *part, Rules *r, OS *s) {
    memset(s, 0, sizeof *s);
    for (int i = 0; i < NPILES; i++) {
        if (part->len[i] > OS_MAXP) return -1;
        for (int j = 0; j < part->len[i]; j++) {
            int card = part->c[i][j], suit = card / 13;
            if (r->suit < 0) r->suit = suit;
            if (suit != r->suit) return -1;
            os_push(s, i, card % 13 + 1);
        }
    }
    for (int i = 0; i < 4; i++)
        if (i != r->suit && (part->up[i] != KING || part->down[i] != ACE || part->held[i])) return -1;
    if (r->suit < 0) return -1;
    s->up = part->up[r->suit], s->down = part->down[r->suit], s->held = part->held[r->suit];
    s->base = r->suit * 13 - 1;
    return 0;
}

/* a card ``x`` landing on a foundation or the hold (``dst``; ``upp``: the suit's Ace foundation) */
static inline void os_land(int *up, int *down, int *held, int x, int dst, int upp) {
    if (dst == HOLDP) { *held = x; return; }
    int waiting = *held;
    *held = 0;
    if (waiting == x) *up = x, *down = x;
    else if (dst == upp) *up = x;
    else *down = x;
}

/* transitions.move for one suit (and on ``full`` when there is one); the frame keeps what undoing it needs */
void os_do(const Rules *r, OS *s, Frame *f) {
    int up = UPB + r->suit, x;
    f->up = (uint8_t)s->up, f->down = (uint8_t)s->down, f->held = (uint8_t)s->held;
    if (f->src < NPILES) x = os_pop(s, f->src);
    else if (f->src == up) x = s->up--;
    else x = s->down++;
    f->card = (uint8_t)x;
    if (f->dst < NPILES) os_push(s, f->dst, x);
    else os_land(&s->up, &s->down, &s->held, x, f->dst, up);
    os_sync(s, r->suit);
}

/* os_do undone */
void os_undo(const Rules *r, OS *s, const Frame *f) {
    if (f->dst < NPILES) os_pop(s, f->dst);
    s->up = f->up, s->down = f->down, s->held = f->held;
    if (f->src < NPILES) os_push(s, f->src, f->card);
    os_sync(s, r->suit);
}

/* ``p`` (``n`` runs, sorted) with ``v`` put in its place */
static inline int os_insert(Run *p, int n, unsigned __int128 v, int len) {
    int j = n;
    while (j > 0 && p[j - 1].v > v) p[j] = p[j - 1], j--;
    p[j].v = v, p[j].len = len;
    return n + 1;
}

/* ``p`` without one run whose nibbles are ``v`` (there is one: runs of equal nibbles are alike) */
static inline int os_drop(Run *p, int n, unsigned __int128 v) {
    int j = 0;
    while (p[j].v != v) j++;
    memmove(p + j, p + j + 1, (size_t)(n - 1 - j) * sizeof *p);
    return n - 1;
}

/* the key: the runs (sorted) each followed by a zero nibble, then up, down, held (nibbles 0-31 in k[0] and
 * k[1], 32-47 in k[2]; each run shifted into place whole) */
static void os_pack(const Run *p, int n, int up, int down, int held, uint64_t *k) {
    unsigned __int128 low = 0;  /* nibbles 0-31 */
    uint64_t high = 0;          /* nibbles 32-47 */
    for (int i = 0, at = 0; i < n; at += p[i++].len + 1) {  /* at: the nibbles written, each run's zero one too */
        if (at >= 32) { high |= (uint64_t)p[i].v << (4 * (at - 32)); continue; }
        low |= p[i].v << (4 * at);
        if (at + p[i].len > 32) high |= (uint64_t)(p[i].v >> (4 * (32 - at)));  /* at > 8 here: 24 cards at most */
    }
    k[0] = (uint64_t)low, k[1] = (uint64_t)(low >> 64);
    k[2] = high | (uint64_t)up << 44 | (uint64_t)down << 52 | (uint64_t)held << 58;
}

/* the non-empty piles of ``s`` as runs, sorted by their nibbles */
int os_runs(const OS *s, Run *p) {
    int n = 0;
    for (int i = 0; i < NPILES; i++)
        if (s->len[i]) n = os_insert(p, n, s->v[i], s->len[i]);
    return n;
}

void os_key(const OS *s, uint64_t *k) {
    Run p[NPILES];
    os_pack(p, os_runs(s, p), s->up, s->down, s->held, k);
}

/* the key of the child of ``s`` by ``f``, from the runs ``p`` (``n``) of ``s``: at most two runs change */
void os_child_key(const Rules *r, const OS *s, const Run *p, int n, const Frame *f, uint64_t *k) {
    Run q[NPILES];
    int up = s->up, down = s->down, held = s->held, x, i = f->src, j = f->dst;
    memcpy(q, p, (size_t)n * sizeof *q);
    if (i < NPILES) {
        int len = s->len[i];
        x = s->c[i][len - 1];
        n = os_drop(q, n, s->v[i]);
        if (len > 1) n = os_insert(q, n, s->v[i] & ~((unsigned __int128)0xF << (4 * (len - 1))), len - 1);
    } else if (i == UPB + r->suit) x = up--;
    else x = down++;
    if (j < NPILES) {
        n = os_drop(q, n, s->v[j]);
        n = os_insert(q, n, s->v[j] | (unsigned __int128)x << (4 * s->len[j]), s->len[j] + 1);
    } else os_land(&up, &down, &held, x, j, UPB + r->suit);
    os_pack(q, n, up, down, held, k);
}
