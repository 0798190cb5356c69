/* The move generator, the status and the transitions with autoplay: movegen.pile_moves,
 * movegen.foundation_moves, game.status_of, transitions.move, transitions.reshuffle and the
 * profile's autoplay (transitions.first_forced), and canon.after, which plays a step with it. */
#include "core.h"

/* -- the move generator (movegen.pile_moves, foundation_moves, rules.ranks_after) -------------- */

/* pile_moves: per source pile in order, the piles it may go onto (ascending), then the foundations
 * or the hold that take it. */
int pile_moves(const Core *core, const State *s, Act *out) {
    int n = 0, tops[NPILES];
    uint32_t onto[53] = {0};  /* per card: the piles under the limit that it tops, a bit each */
    for (int i = 0; i < NPILES; i++) {
        tops[i] = top_of(s, i);
        if (s->len[i] < core->limit) onto[tops[i]] |= 1u << i;
    }
    onto[NO_CARD] = 0;
    for (int src = 0; src < NPILES; src++) {
        int card = tops[src];
        if (card == NO_CARD) continue;
        uint32_t piles = 0;  /* the piles whose top is near the card: their bits ascending are j ascending */
        for (int k = 0; k < core->nnear[card]; k++) piles |= onto[core->near[card][k]];
        for (; piles; piles &= piles - 1)
            out[n].src = (signed char)src, out[n++].dst = (signed char)__builtin_ctz(piles);
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
int foundation_moves(const Core *core, const State *s, Act *out) {
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
int status_of(const Core *core, const State *s, int npile_moves) {
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

int is_won(const State *s) {
    for (int i = 0; i < 4; i++)
        if (s->up[i] != KING || s->down[i] != ACE) return 0;
    return 1;
}

/* -- transitions (transitions.move, reshuffle, autoplay) ------------------------------------- */

void move(State *s, int src, int dst, int count, unsigned *dirty) {
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

void reshuffle(State *s, unsigned *dirty) {
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
void after(const Core *core, State *s, const Act *step, int len, unsigned *dirty) {
    for (int i = 0; i < len; i++) {
        if (step[i].src == RESH) reshuffle(s, dirty);
        else move(s, step[i].src, step[i].dst, 1, dirty);
        if (core->autoplay) autoplay(core, s, dirty);
    }
}
