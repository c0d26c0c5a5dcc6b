/* The double-dummy solver of the twelve tricks (piquet.fast.solver): both hands known, exact
 * alpha-beta with a transposition table, over positions of the play; the play's scoring
 * is the one of rules.h (the same leaf rules as the kernel). */
#ifndef PIQUET_SOLVER_H
#define PIQUET_SOLVER_H

#include "rules.h"

/* a position of the play */
typedef struct {
    i64 h0, h1, leader, lead, won0, ntr, acc0, acc1, opn;
} Pos;

enum { MODE_DIFF, MODE_RACE, MODE_PARTIE, MODE_TABLE };
enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };
#define S_INF ((i64)1 << 20)
/* the search's inner steps, inlined into it (as numba inlined them) */
#define HOT static inline __attribute__((always_inline))

/* seat counts pts for kind in play order: the pique, and the target in RACE mode */
HOT void s_add(const i64 *P, int seat, int kind, i64 pts, Pos *s, i64 *ended) {
    if (*ended != 0 || pts <= 0) return;
    i64 before = seat == 0 ? s->acc0 : s->acc1;
    i64 other = seat == 0 ? s->acc1 : s->acc0;
    i64 mine = before + pts;
    i64 bonus;
    pique_bonus(P, seat, kind, before, mine, other, &s->opn, &bonus);
    mine += bonus;
    if (seat == 0) s->acc0 = mine;
    else s->acc1 = mine;
    if (P[P_MODE] == MODE_RACE) {
        if (s->acc0 >= P[P_REM0]) *ended = 1;
        else if (s->acc1 >= P[P_REM1]) *ended = 2;
    }
}

static inline i64 s_terminal(i64 acc0, i64 acc1, i64 ended, const i64 *P) {
    i64 mode = P[P_MODE];
    if (mode == MODE_DIFF) return 0;
    if (mode == MODE_RACE) {
        i64 v = acc0 - acc1;
        if (ended == 1) v += P[P_RACE_BONUS];
        else if (ended == 2) v -= P[P_RACE_BONUS];
        return v;
    }
    if (mode == MODE_TABLE) {
        /* the match's value of the deal ending with (elder, younger) counting (acc0, acc1):
         * a TABLE_W x TABLE_W table after the vector's slots, the last row and column
         * standing for every larger count */
        i64 w = P[P_TABLE_W];
        i64 i = acc0 < 0 ? 0 : (acc0 >= w ? w - 1 : acc0);
        i64 j = acc1 < 0 ? 0 : (acc1 >= w ? w - 1 : acc1);
        return P[P_COUNT + i * w + j];
    }
    i64 t0 = P[P_BASE0] + acc0, t1 = P[P_BASE1] + acc1;
    if (t0 == t1) return 0;
    i64 ws = t0 > t1 ? t0 : t1, ls = t0 > t1 ? t1 : t0;
    i64 settled = settlement(P[P_SETTLE_CLASSIC] == 0, ws, ls);
    return t0 > t1 ? settled : -settled;
}

/* representative playable cards (one per class of equivalent cards) into out[ply]: the
 * highest of each run of the mover's cards that no card of the other's (or the card led)
 * separates, alike for the scoring (tenth cards apart, unless every card scores alike) */
HOT int s_gen(i64 hand, i64 opp, i64 lead, int alike, i64 (*out)[12], int ply) {
    i64 avail = playable(hand, lead, 0, 0);
    i64 sep = lead >= 0 ? opp | BIT(lead) : opp;
    int n = 0;
    for (int s = 0; s < 4; s++) {
        u64 local = (u64)(avail >> (9 * s)) & 0x1FF;
        if (local == 0) continue;
        u64 both = local | ((u64)(sep >> (9 * s)) & 0x1FF);
        int in_run = 0, prev_t = -1;
        while (both) {
            int r = 63 - __builtin_clzll(both);
            both &= ~((u64)1 << r);
            if ((local >> r) & 1) {
                int t = r >= 4;
                if (in_run && (alike || t == prev_t)) continue;
                out[ply][n++] = 9 * s + r;
                in_run = 1;
                prev_t = t;
            } else {
                in_run = 0;
            }
        }
    }
    return n;
}

/* sort out[ply, :n] by a move-ordering priority (first goes first) */
HOT void s_order(i64 opp, i64 lead, i64 (*out)[12], int ply, int n, i64 first) {
    i64 *pr = out[ply + 26];
    for (int i = 0; i < n; i++) {
        i64 c = out[ply][i];
        i64 s = c / 9, r = c % 9, p;
        if (c == first) p = 1000;
        else if (lead < 0) {
            i64 higher = (opp >> (9 * s)) & (0x1FF & ~(BIT(r + 1) - 1));
            p = higher == 0 ? 200 + r : 100 - r;
        } else if (c / 9 == lead / 9) {
            p = r > lead % 9 ? 300 - r : 100 - r;
        } else {
            p = 100 - r;
        }
        pr[i] = p;
    }
    for (int i = 1; i < n; i++) {
        i64 c = out[ply][i], p = pr[i];
        int j = i - 1;
        while (j >= 0 && pr[j] < p) {
            out[ply][j + 1] = out[ply][j];
            pr[j + 1] = pr[j];
            j--;
        }
        out[ply][j + 1] = c;
        pr[j + 1] = p;
    }
}

/* card moved to the front of out[ply, :n] if it is there, the others keeping their order:
 * the order s_order gives with it as first */
HOT void s_first(i64 (*out)[12], int ply, int n, i64 card) {
    for (int i = 0; i < n; i++) {
        if (out[ply][i] != card) continue;
        for (int j = i; j > 0; j--) out[ply][j] = out[ply][j - 1];
        out[ply][0] = card;
        return;
    }
}

/* COMPRESS4[m * 16 + x], COMPRESS5[m * 32 + x]: the bits of x (within m) packed down to
 * their order among m's bits (x within m; other entries 0) */
static const unsigned char COMPRESS4[256] = {
    0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,2,3,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,2,0,3,0,0,0,0,0,0,0,0,0,0,1,2,3,4,5,6,7,0,0,0,0,0,0,0,0,
    0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,2,3,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,2,0,3,0,0,0,0,0,0,1,2,3,0,0,0,0,4,5,6,7,0,0,0,0,
    0,0,0,0,1,0,0,0,2,0,0,0,3,0,0,0,0,1,0,0,2,3,0,0,4,5,0,0,6,7,0,0,
    0,0,1,0,2,0,3,0,4,0,5,0,6,0,7,0,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,
};
static const unsigned char COMPRESS5[1024] = {
    0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,2,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,2,3,4,5,6,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,0,0,0,0,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,2,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,2,3,0,0,0,0,4,5,6,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,1,0,0,0,2,0,0,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,2,3,0,0,4,5,0,0,6,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,2,0,3,0,4,0,5,0,6,0,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,
    0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,4,5,6,7,0,0,0,0,0,0,0,0,0,0,0,0,
    0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,3,0,0,0,0,0,0,0,0,0,0,0,
    0,1,0,0,2,3,0,0,0,0,0,0,0,0,0,0,4,5,0,0,6,7,0,0,0,0,0,0,0,0,0,0,
    0,0,1,0,2,0,3,0,0,0,0,0,0,0,0,0,4,0,5,0,6,0,7,0,0,0,0,0,0,0,0,0,
    0,1,2,3,4,5,6,7,0,0,0,0,0,0,0,0,8,9,10,11,12,13,14,15,0,0,0,0,0,0,0,0,
    0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,
    0,1,0,0,0,0,0,0,2,3,0,0,0,0,0,0,4,5,0,0,0,0,0,0,6,7,0,0,0,0,0,0,
    0,0,1,0,0,0,0,0,2,0,3,0,0,0,0,0,4,0,5,0,0,0,0,0,6,0,7,0,0,0,0,0,
    0,1,2,3,0,0,0,0,4,5,6,7,0,0,0,0,8,9,10,11,0,0,0,0,12,13,14,15,0,0,0,0,
    0,0,0,0,1,0,0,0,2,0,0,0,3,0,0,0,4,0,0,0,5,0,0,0,6,0,0,0,7,0,0,0,
    0,1,0,0,2,3,0,0,4,5,0,0,6,7,0,0,8,9,0,0,10,11,0,0,12,13,0,0,14,15,0,0,
    0,0,1,0,2,0,3,0,4,0,5,0,6,0,7,0,8,0,9,0,10,0,11,0,12,0,13,0,14,0,15,0,
    0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,
};

/* the hands with played cards squeezed out of each suit (relative ranks); under a scoring
 * that counts tenth cards, the cards below the ten and from it are kept apart (the tenth
 * cards from position 4 on: there are four cards below the ten).  Each suit's four low and
 * five high ranks are squeezed by a table lookup each. */
HOT void s_normal(i64 h0, i64 h1, i64 lead, int alike, i64 *n0o, i64 *n1o, i64 *nleado) {
    u64 n0 = 0, n1 = 0;
    u64 both = (u64)(h0 | h1);
    if (lead >= 0) both |= (u64)1 << lead;
    for (int s = 0; s < 4; s++) {
        int base = 9 * s;
        u64 rem = (both >> base) & 0x1FF;
        u64 a = ((u64)h0 >> base) & 0x1FF, b = ((u64)h1 >> base) & 0x1FF;
        int start = alike ? __builtin_popcountll(rem & 0xF) : 4;
        const unsigned char *lo = COMPRESS4 + (rem & 0xF) * 16, *hi = COMPRESS5 + (rem >> 4) * 32;
        n0 |= (lo[a & 0xF] | ((u64)hi[a >> 4] << start)) << base;
        n1 |= (lo[b & 0xF] | ((u64)hi[b >> 4] << start)) << base;
    }
    i64 nlead = -1;
    if (lead >= 0) {
        int base = 9 * (int)(lead / 9);
        u64 rem = (both >> base) & 0x1FF, l = (u64)1 << (lead - base);
        int start = alike ? __builtin_popcountll(rem & 0xF) : 4;
        u64 p = COMPRESS4[(rem & 0xF) * 16 + (l & 0xF)]
                | ((u64)COMPRESS5[(rem >> 4) * 32 + (l >> 4)] << start);
        nlead = base + __builtin_ctzll(p);
    }
    *n0o = (i64)n0;
    *n1o = (i64)n1;
    *nleado = nlead;
}

/* play card for the seat to move: the new position; returns the deal's end flag */
HOT i64 s_step(Pos *s, i64 card, const i64 *P) {
    i64 ended = 0;
    if (s->lead < 0) {
        if (s->leader == 0) s->h0 &= ~BIT(card);
        else s->h1 &= ~BIT(card);
        s_add(P, (int)s->leader, K_LEAD, lead_points(P, card), s, &ended);
        s->lead = card;
        return ended;
    }
    int leader = (int)s->leader, follower = 1 - leader;
    pique_at_card(P, s->ntr, &s->opn);
    if (follower == 0) s->h0 &= ~BIT(card);
    else s->h1 &= ~BIT(card);
    int fw = follower_wins(s->lead, card);
    int winner = fw ? follower : leader;
    i64 win_card = fw ? card : s->lead;
    s_add(P, winner, K_TRICK, trick_points(P, s->lead, card), s, &ended);
    if (winner == 0) s->won0++;
    s->ntr++;
    if (s->ntr == 12) {
        s_add(P, winner, K_LAST, last_points(P, win_card), s, &ended);
        /* the cards and capot make a pique only where pique_by_cards says so: pique_bonus */
        int kind;
        i64 pts;
        int seat = cards_result(P, s->won0, &kind, &pts);
        if (seat >= 0) s_add(P, seat, kind, pts, s, &ended);
    }
    s->leader = winner;
    s->lead = -1;
    return ended;
}

/* frame fields of the explicit search stack */
enum { F_H0, F_H1, F_LEADER, F_LEAD, F_WON0, F_NTR, F_ACC0, F_ACC1, F_OPN, F_ALPHA, F_BETA,
       F_A0, F_B0, F_BEST, F_BMOVE, F_I, F_N, F_K1, F_K2, F_IDX, F_GAIN, F_ENTER, F_FIELDS };
#define S_DEPTH 28

/* the solver's arrays: the table (rows of 3, a power of two of them), the move buffer
 * (52 rows of 12), the stats (positions searched, the limit, out of positions), the stack */
typedef struct {
    const i64 *P;
    i64 (*tt)[3];
    i64 tt_mask;
    i64 (*buf)[12];
    i64 *stats;
    i64 (*S)[F_FIELDS];
} Solver;

HOT void s_push(i64 (*S)[F_FIELDS], int sp, const Pos *q, i64 alpha, i64 beta) {
    i64 *f = S[sp];
    f[F_H0] = q->h0;
    f[F_H1] = q->h1;
    f[F_LEADER] = q->leader;
    f[F_LEAD] = q->lead;
    f[F_WON0] = q->won0;
    f[F_NTR] = q->ntr;
    f[F_ACC0] = q->acc0;
    f[F_ACC1] = q->acc1;
    f[F_OPN] = q->opn;
    f[F_ALPHA] = alpha;
    f[F_BETA] = beta;
    f[F_ENTER] = 1;
}

/* a move's value folded into the frame: the best so far and the window */
HOT void s_fold(i64 *f, int mover, i64 v, i64 card) {
    if (mover == 0) {
        if (v > f[F_BEST]) { f[F_BEST] = v; f[F_BMOVE] = card; }
        if (f[F_BEST] > f[F_ALPHA]) f[F_ALPHA] = f[F_BEST];
    } else {
        if (v < f[F_BEST]) { f[F_BEST] = v; f[F_BMOVE] = card; }
        if (f[F_BEST] < f[F_BETA]) f[F_BETA] = f[F_BEST];
    }
}

/* Value of the position (DIFF: points to come; else the objective) for elder: alpha-beta
 * with a transposition table, written with an explicit stack (one row per ply) instead
 * of recursion.  Rows ply + k of buf hold the moves of stack level k. */
static i64 s_search(Solver *sv, const Pos *root, i64 alpha, i64 beta, int ply) {
    const i64 *P = sv->P;
    i64 (*S)[F_FIELDS] = sv->S;
    i64 (*tt)[3] = sv->tt;
    i64 (*buf)[12] = sv->buf;
    i64 *stats = sv->stats;
    int diff = P[P_MODE] == MODE_DIFF;
    int alike = cards_alike(P);
    int sp = 0;
    s_push(S, 0, root, alpha, beta);
    i64 ret = 0;
    int have_ret = 0;
    for (;;) {
        int row = ply + sp;
        i64 *f = S[sp];
        if (f[F_ENTER] == 1) {
            f[F_ENTER] = 0;
            stats[0]++;
            if (stats[1] > 0 && stats[0] >= stats[1]) {
                stats[2] = 1; /* out of positions: give up, storing nothing more */
                return 0;
            }
            i64 c_leader = f[F_LEADER], c_lead = f[F_LEAD], c_opn = f[F_OPN];
            int keep_acc = !diff || c_opn != 0;
            i64 n0, n1, nlead;
            s_normal(f[F_H0], f[F_H1], c_lead, alike, &n0, &n1, &nlead);
            i64 k1 = n0 | (c_leader << 36) | ((nlead + 1) << 37) | (f[F_WON0] << 43) | (c_opn << 47);
            i64 k2 = n1;
            if (keep_acc) {
                i64 a0 = f[F_ACC0] < 511 ? f[F_ACC0] : 511;
                i64 a1 = f[F_ACC1] < 511 ? f[F_ACC1] : 511;
                k2 |= (a0 << 36) | (a1 << 45);
            }
            u64 hsh = ((u64)k1 * 0x5851F42D4C957F2DULL) ^ ((u64)k2 * 0x14057B7EF767814FULL);
            i64 idx = (i64)((hsh >> 17) & (u64)sv->tt_mask);
            f[F_K1] = k1;
            f[F_K2] = k2;
            f[F_IDX] = idx;
            /* the table's row is fetched while the moves are generated and ordered (the
             * probe's cache miss is the search's largest cost); the move the row holds is
             * then put first, as ordering with it first would have (s_first) */
            __builtin_prefetch(tt[idx]);
            __builtin_prefetch(&tt[idx][2]);
            int mover = (int)(c_lead < 0 ? c_leader : 1 - c_leader);
            i64 hand = mover == 0 ? f[F_H0] : f[F_H1];
            i64 opp = mover == 0 ? f[F_H1] : f[F_H0];
            int n = s_gen(hand, opp, c_lead, alike, buf, row);
            s_order(opp, c_lead, buf, row, n, -1);
            i64 tt_move = -1, v = 0;
            int cut = 0;
            if (tt[idx][0] == k1 && tt[idx][1] == k2) {
                i64 packed = tt[idx][2];
                v = (packed >> 16) - S_INF;
                i64 fl = (packed >> 8) & 0xFF;
                tt_move = (packed & 0xFF) - 1;
                if (fl == TT_EXACT) cut = 1;
                else if (fl == TT_LOWER && v >= f[F_BETA]) cut = 1;
                else if (fl == TT_UPPER && v <= f[F_ALPHA]) cut = 1;
            }
            if (cut) {
                ret = v;
                if (sp == 0) return ret;
                sp--;
                have_ret = 1;
                continue;
            }
            if (tt_move >= 0) s_first(buf, row, n, tt_move);
            f[F_N] = n;
            f[F_I] = 0;
            f[F_A0] = f[F_ALPHA];
            f[F_B0] = f[F_BETA];
            f[F_BEST] = mover == 0 ? -S_INF : S_INF;
            f[F_BMOVE] = -1;
        }
        i64 c_leader = f[F_LEADER], c_lead = f[F_LEAD];
        int mover = (int)(c_lead < 0 ? c_leader : 1 - c_leader);
        if (have_ret) {
            have_ret = 0;
            s_fold(f, mover, f[F_GAIN] + ret, buf[row][f[F_I] - 1]);
        }
        int pushed = 0;
        while (f[F_ALPHA] < f[F_BETA] && f[F_I] < f[F_N]) {
            i64 card = buf[row][f[F_I]];
            f[F_I]++;
            Pos q = {f[F_H0], f[F_H1], c_leader, c_lead, f[F_WON0], f[F_NTR], f[F_ACC0], f[F_ACC1],
                     f[F_OPN]};
            i64 ended = s_step(&q, card, P);
            i64 gain = diff ? (q.acc0 - q.acc1) - (f[F_ACC0] - f[F_ACC1]) : 0;
            if (ended != 0 || q.ntr == 12) {
                s_fold(f, mover, gain + s_terminal(q.acc0, q.acc1, ended, P), card);
                continue;
            }
            f[F_GAIN] = gain;
            s_push(S, sp + 1, &q, f[F_ALPHA] - gain, f[F_BETA] - gain);
            pushed = 1;
            break;
        }
        if (pushed) {
            sp++;
            continue;
        }
        i64 best = f[F_BEST];
        i64 flag = best <= f[F_A0] ? TT_UPPER : best >= f[F_B0] ? TT_LOWER : TT_EXACT;
        i64 idx = f[F_IDX];
        tt[idx][0] = f[F_K1];
        tt[idx][1] = f[F_K2];
        tt[idx][2] = ((best + S_INF) << 16) | (flag << 8) | (f[F_BMOVE] + 1);
        ret = best;
        if (sp == 0) return ret;
        sp--;
        have_ret = 1;
    }
}

/* exact value by a series of null-window searches converging from guess */
static i64 s_mtdf(Solver *sv, const Pos *s, i64 guess) {
    i64 g = guess, lo = -S_INF, hi = S_INF;
    while (lo < hi) {
        i64 beta = g == lo ? g + 1 : g;
        g = s_search(sv, s, beta - 1, beta, 1);
        if (sv->stats[2] != 0) return g;
        if (g < beta) hi = g;
        else lo = g;
    }
    return g;
}

/* ---- a fast estimate */
static inline int low9(i64 x) {
    for (int r = 0; r < 9; r++)
        if ((x >> r) & 1) return r;
    return -1;
}

static inline int high9(i64 x) {
    for (int r = 8; r >= 0; r--)
        if ((x >> r) & 1) return r;
    return -1;
}

/* the card a simple open-handed player chooses (masters, cheap wins, low throws) */
static i64 greedy_card(i64 hand, i64 opp, i64 lead) {
    if (lead >= 0) {
        i64 s = lead / 9;
        i64 suit = (hand >> (9 * s)) & 0x1FF;
        i64 r_lead = lead % 9;
        if (suit) {
            i64 higher = suit & ~(BIT(r_lead + 1) - 1);
            if (higher) return 9 * s + low9(higher);
            return 9 * s + low9(suit);
        }
        i64 best = -1, best_key = (i64)1 << 30;
        for (int t = 0; t < 4; t++) {
            i64 cards = (hand >> (9 * t)) & 0x1FF;
            if (cards == 0) continue;
            int r = low9(cards);
            i64 key = (i64)r * 16 - popcount(cards);
            if (key < best_key) { best_key = key; best = 9 * t + r; }
        }
        return best;
    }
    i64 best = -1, best_key = -((i64)1 << 30);
    for (int t = 0; t < 4; t++) {
        i64 cards = (hand >> (9 * t)) & 0x1FF;
        if (cards == 0) continue;
        i64 theirs = (opp >> (9 * t)) & 0x1FF;
        int top = high9(cards);
        if (theirs == 0 || top > high9(theirs)) {
            i64 key = 1000 + (theirs == 0 ? 100 : 0) + popcount(cards) * 10 + top;
            if (key > best_key) { best_key = key; best = 9 * t + top; }
        } else {
            int low = low9(cards);
            i64 key = popcount(cards) * 10 - low;
            if (key > best_key) { best_key = key; best = 9 * t + low; }
        }
    }
    return best;
}

/* value (same units as s_search) of a greedy open-handed playout */
static i64 s_greedy(Pos s, const i64 *P) {
    int diff = P[P_MODE] == MODE_DIFF;
    i64 start = s.acc0 - s.acc1;
    i64 ended = 0;
    while (s.ntr < 12 && ended == 0) {
        i64 mover = s.lead < 0 ? s.leader : 1 - s.leader;
        i64 hand = mover == 0 ? s.h0 : s.h1, opp = mover == 0 ? s.h1 : s.h0;
        ended = s_step(&s, greedy_card(hand, opp, s.lead), P);
    }
    if (diff) return (s.acc0 - s.acc1) - start;
    return s_terminal(s.acc0, s.acc1, ended, P);
}

/* exact value (elder's side) of each representative move; returns how many (fewer when
 * the positions ran out) */
static int s_root(Solver *sv, const Pos *s, i64 guess, i64 *cards_out, i64 *values_out) {
    const i64 *P = sv->P;
    i64 mover = s->lead < 0 ? s->leader : 1 - s->leader;
    i64 hand = mover == 0 ? s->h0 : s->h1, opp = mover == 0 ? s->h1 : s->h0;
    int n = s_gen(hand, opp, s->lead, cards_alike(P), sv->buf, 0);
    s_order(opp, s->lead, sv->buf, 0, n, -1);
    int diff = P[P_MODE] == MODE_DIFF;
    for (int i = 0; i < n; i++) {
        i64 card = sv->buf[0][i];
        Pos q = *s;
        i64 ended = s_step(&q, card, P);
        i64 gain = diff ? (q.acc0 - q.acc1) - (s->acc0 - s->acc1) : 0;
        i64 v;
        if (ended != 0 || q.ntr == 12) {
            v = gain + s_terminal(q.acc0, q.acc1, ended, P);
        } else {
            v = gain + s_mtdf(sv, &q, guess - gain);
            guess = v;
        }
        if (sv->stats[2] != 0) return i;
        cards_out[i] = card;
        values_out[i] = v;
    }
    return n;
}

/* each representative move followed by a greedy open-handed playout (elder's side) */
static int s_root_estimate(const i64 *P, i64 (*buf)[12], const Pos *s, i64 *cards_out,
                           i64 *values_out) {
    i64 mover = s->lead < 0 ? s->leader : 1 - s->leader;
    i64 hand = mover == 0 ? s->h0 : s->h1, opp = mover == 0 ? s->h1 : s->h0;
    int n = s_gen(hand, opp, s->lead, cards_alike(P), buf, 0);
    int diff = P[P_MODE] == MODE_DIFF;
    for (int i = 0; i < n; i++) {
        i64 card = buf[0][i];
        Pos q = *s;
        i64 ended = s_step(&q, card, P);
        i64 gain = diff ? (q.acc0 - q.acc1) - (s->acc0 - s->acc1) : 0;
        i64 v = (ended != 0 || q.ntr == 12) ? gain + s_terminal(q.acc0, q.acc1, ended, P)
                                            : gain + s_greedy(q, P);
        cards_out[i] = card;
        values_out[i] = v;
    }
    return n;
}

#endif
