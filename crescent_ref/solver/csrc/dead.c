/* The dead rules, a position proved not winnable by its cards alone: the locked-card rule
 * (solver/dead.py's witness) and the cards that wait on each other (solver/waits.py's stuck). */
#include "core.h"

/* -- the locked-card rule (dead.witness) ------------------------------------------------------ */

typedef uint16_t Count;  /* copies of one card on the piles: at most NPILES * MAXP */

static int never_placed(const Core *core, const State *s, int card, const Count *loose, const Count *trapped) {
    int suit = card / 13, rank = card % 13 + 1, up = s->up[suit], down = s->down[suit];
    int ace = suit * 13 - 1, held = s->held[suit];
    int up_closed = rank == ACE || rank <= up, down_closed = rank == KING || rank >= down, between = 0;
    for (int r = ACE + 1; r < KING; r++) {
        if (loose[ace + r] != trapped[ace + r] || held == r) continue;  /* rank r not lacking: some copy is free */
        up_closed |= up < r && r < rank;
        down_closed |= rank < r && r < down;
        between |= up < r && r < down;
    }
    int may_meet = core->between && down > up && !between;
    return up_closed && down_closed && !may_meet;
}

/* The dead card of pile i, or -1. ``trapped`` and ``locked`` (per card) come zeroed and are left
 * zeroed: only the pile's own cards are counted, and cleared again at the end (cheaper than zeroing
 * every card's count for every pile). */
static int pile_dead(const Core *core, const State *s, int i, const Count *loose, Count *trapped, Count *locked) {
    int dead = -1, nlocked = 0;
    for (int j = (int)s->resh; j < s->len[i]; j++) trapped[s->c[i][j]]++;
    for (int j = s->len[i] - 1; j > s->resh; j--) {
        int card = s->c[i][j], all = 1;
        trapped[card]--;
        for (int k = 0; k < core->nnear[card] && all; k++) {
            int n = core->near[card][k];
            all = loose[n] == trapped[n] + locked[n];
        }
        if (all) {
            if (never_placed(core, s, card, loose, trapped)) { dead = card; break; }
            locked[card]++, nlocked++;
        }
    }
    /* read through to its bottom card without a lock, the pile took off every count it added but the
     * bottom card's (most piles); else each of its cards is cleared */
    if (dead < 0 && !nlocked) trapped[s->c[i][s->resh]] = 0;
    else for (int j = (int)s->resh; j < s->len[i]; j++) trapped[s->c[i][j]] = locked[s->c[i][j]] = 0;
    return dead;
}

int witness(const Core *core, const State *s, int *card) { return witness_in(core, s, card, ALL_PILES); }

/* witness, reading only the piles in ``piles`` (a bit each): a pile's verdict reads its own cards, the
 * copies on all the piles (loose), the foundations, the hold and the reshuffles left, so the caller may
 * leave out the piles it knows pass from a position where all of those were the same */
int witness_in(const Core *core, const State *s, int *card, unsigned piles) {
    if (core->give_backs) return -1;
    Count loose[53] = {0}, trapped[53] = {0}, locked[53] = {0};
    for (int i = 0; i < NPILES; i++)
        for (int j = 0; j < s->len[i]; j++) loose[s->c[i][j]]++;
    for (int i = 0; i < NPILES; i++) {
        if ((piles >> i & 1) && s->len[i] > s->resh + 1 && (*card = pile_dead(core, s, i, loose, trapped, locked)) >= 0)
            return i;
    }
    return -1;
}

/* -- cards that wait on each other (waits.stuck) ---------------------------------------------------
 *
 * waits.py's fixed point restated: the closed cards (no neighbour copy topping another pile or free
 * to rotate up) in the order waits.stuck lists them (piles ascending, each from its top down), their
 * gates, and the least set of events, iterated until nothing changes. The prerequisites are read off
 * the position at each look instead of being listed first: the least fixed point is the same. */

#define ALWAYS (-1)       /* a wait with no gate: met from the start */

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
int waits_stuck(const Core *core, const State *s, Waits *w, int *out) {
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
            const unsigned char *near = core->near[s->c[p][i]];
            if ((reached[near[0]] | reached[near[1]]) & ~(1u << p)) continue;  /* reached[NO_CARD] is 0 */
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
    for (int m = 0; m < w->m; m++) {  /* read once: the passes below ask it again and again */
        int p = w->closed_p[m], i = w->closed_i[m];
        w->own[m] = w->resh <= i && i < s->len[p] - 1 ? wait_left(w, p, i + 1) : ALWAYS;
    }
    int left = w->m;  /* cards without L: once none is left, no card is stuck, whatever else the passes would find */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int m = 0; m < w->m; m++) {
            if (w->flags[2 * m] || !wait_met(w, w->own[m])) continue;
            int had = w->flags[2 * m + 1];
            if (onto_met(core, w, m)) w->flags[2 * m] = w->flags[2 * m + 1] = 1;
            else if (!had && home_met(core, w, m)) w->flags[2 * m + 1] = 1;
            else continue;
            changed = 1;
            if (!had && !--left) return 0;
        }
    }
    int n = 0;
    for (int m = 0; m < w->m; m++)
        if (!w->flags[2 * m + 1]) { if (out) out[n] = m; n++; }
    return n;
}

int waits_dead(Core *core, const State *s) {
    if (core->waits == NULL && (core->waits = PyMem_RawMalloc(sizeof(Waits))) == NULL) { PyErr_NoMemory(); return -1; }
    return waits_stuck(core, s, core->waits, NULL) > 0;
}
