/* The deal kernel: a whole deal of any rule set, played by a policy (piquet.fast.kernel).
 *
 * A private fast board (hands and stock as masks, the tally as a few integers) plays one
 * deal from a pack to its end, or to the game's target, or to a card to be chosen from
 * outside (stop), writing the trace (every choice, as (code, value) rows) and the events
 * (every score event, (role, kind, points) in counting order).  A second implementation
 * of piquet.core.transitions read from the parameter vector; checked against the engine by
 * tests/test_fast_differential.py. */
#ifndef PIQUET_KERNEL_H
#define PIQUET_KERNEL_H

#include <string.h>

#include "policies.h"

/* choice codes of the trace */
enum { A_DEAL, A_BLANCHE, A_DISCARD, A_LEFTOVER, A_NAME_SUIT, A_NAME_CARD, A_APPOINT_SUIT,
       A_APPOINT_CARD, A_DECLARE, A_PASS, A_ANSWER, A_QUESTION, A_PLAY };
#define MAX_EVENTS 64
#define MAX_TRACE 96
#define MAX_HELD 40
/* the tally */
enum { T0, T1, T_OPEN, T_REACHED, T_NEV, T_START0, T_START1, T_TARGET, T_COMMITTED, T_NHELD,
       T_NTR, T_FI, T_STOP };
#define T_SIZE 16
/* the info of a stopped deal */
enum { I_STATUS, I_SEAT, I_ALLOWED, I_LEAD, I_HAND, I_PLAYED, I_WON, I_TRICK, I_DISCARDS,
       I_SCORE0, I_SCORE1, I_KIND };
/* a stop of stop_all before a decision other than a card: what it needs, in the slots a
 * card's stop uses for the play (I_ALLOWED ..) */
#define I_CLS I_ALLOWED   /* a claim, a pass, an answer: the class */
#define I_LO I_ALLOWED    /* a discard: the fewest and most cards, the hand */
#define I_HI I_LEAD
#define I_DHAND I_HAND
#define I_SIZE 12
/* the play state */
enum { PS_HAND = 0, PS_DISC = 2, PS_PLAYED = 4, PS_TRICK = 5, PS_HALF = 6, PS_LED = 7,
       PS_LEADER = 8, PS_WON0 = 9, PS_LEAD_KIND = 10, PS_LEAD_VAL = 11, PS_NDEF = 12,
       PS_FULL = 13 };
#define PS_SIZE 16
#define STOPPED 1
#define BAD_CHOICE (-1)

/* the flat board: every array of a resumable deal in one int64 array, at these offsets */
#define FLAT_EV T_SIZE
#define FLAT_TR (FLAT_EV + MAX_EVENTS * 3)
#define FLAT_RES (FLAT_TR + MAX_TRACE * 2)
#define FLAT_HELD (FLAT_RES + 9)
#define FLAT_DEF (FLAT_HELD + MAX_HELD * 3)
#define FLAT_PS (FLAT_DEF + 9)
#define FLAT_INFO (FLAT_PS + PS_SIZE)
#define FLAT_SIZE (FLAT_INFO + I_SIZE)

/* a board: the rule set, the policy and its generator, the deal's arrays, the forced
 * choices (fz[:nfz], rows of two) and whether to stop at the first free card */
typedef struct {
    const i64 *p;
    i64 policy;
    u64 *rng;
    i64 *tl;
    i64 (*ev)[3];
    i64 (*tr)[2];
    i64 (*res)[3];
    i64 (*held)[3];
    i64 (*deferred)[3];
    i64 *ps;
    i64 *info;
    const i64 (*fz)[2];
    i64 nfz;
    int stop;
    /* stop at every decision once the forced choices are used up (the whole-game board,
     * game.h): the decision's kind in info[I_KIND], its seat in info[I_SEAT], its legal
     * action ids (piquet.integrations.actions.ids) as bits of legal[8] */
    int stop_all;
    u64 *legal;
} Board;

/* the board whose arrays are the parts of a flat array */
static inline void board_of_flat(Board *b, i64 *flat) {
    b->tl = flat;
    b->ev = (i64(*)[3])(flat + FLAT_EV);
    b->tr = (i64(*)[2])(flat + FLAT_TR);
    b->res = (i64(*)[3])(flat + FLAT_RES);
    b->held = (i64(*)[3])(flat + FLAT_HELD);
    b->deferred = (i64(*)[3])(flat + FLAT_DEF);
    b->ps = flat + FLAT_PS;
    b->info = flat + FLAT_INFO;
}

static inline int halted(const Board *b) { return b->tl[T_REACHED] >= 0 || b->tl[T_STOP]; }

static inline i64 draw(i64 *hands, const i64 *deck, i64 sp, int role, i64 count) {
    for (i64 i = 0; i < count; i++) hands[role] |= BIT(deck[sp++]);
    return sp;
}

static inline i64 exchange(i64 *hands, i64 *disc, const i64 *deck, i64 sp, int role, i64 n) {
    hands[role] &= ~n;
    disc[role] |= n;
    return draw(hands, deck, sp, role, popcount(n));
}

/* the next forced choice's row, or -1 when they are used up */
static inline i64 forced(Board *b) {
    i64 i = b->tl[T_FI];
    if (i < b->nfz) {
        b->tl[T_FI] = i + 1;
        return i;
    }
    return -1;
}

static inline void bad(Board *b) {
    if (b->info[I_STATUS] == STOPPED) return; /* stopped at a decision: not a bad choice */
    b->info[I_STATUS] = BAD_CHOICE;
    b->tl[T_STOP] = 1;
}

/* ---- the shared action ids (piquet.integrations.actions.ids: the same numbers) */
enum { ID_PLAY = 0, ID_SELECT = 36, ID_DONE = 72, ID_DEAL = 73, ID_BLANCHE = 79,
       ID_NAME_SUIT = 92, ID_NAME_CARD = 96, ID_APPOINT_SUIT = 132, ID_APPOINT_CARD = 136,
       ID_LOOK = 172, ID_DECLINE = 173, ID_POINT = 174, ID_SEQUENCE = 210, ID_SET = 455,
       ID_PASS = 473, ID_REPLY = 474, ID_ASK = 478, ID_NO_QUESTION = 479, N_IDS = 480 };
static const i64 DEAL_SIZES[6] = {1, 2, 3, 4, 6, 12};

static inline void legal_set(Board *b, i64 id) { b->legal[id >> 6] |= (u64)1 << (id & 63); }

/* the id of claim k of class cls */
static inline i64 claim_id(const i64 *p, int cls, i64 (*cl)[5], int k) {
    if (cls == 0) return ID_POINT + 9 * cl[k][3] + cl[k][2] - 1;
    if (cls == 2) return ID_SET + (cl[k][3] - 6) * 2 + cl[k][2] - 3;
    i64 slot = 4;
    if (p[P_SEQ_SAME_SUIT]) {
        slot = 0;
        while (!(cl[k][0] & SUIT_MASK(slot))) slot++;
    }
    return ID_SEQUENCE + (slot * 7 + (cl[k][3] - 8)) * 7 + (cl[k][2] - 3);
}

/* Stop here (stop_all, the forced choices used up): a decision of kind by seat; the legal
 * ids are cleared for the caller to set.  0: go on (a forced choice, or no stop_all). */
static inline int stop_at(Board *b, i64 kind, i64 seat) {
    if (!b->stop_all || b->tl[T_FI] < b->nfz) return 0;
    b->info[I_STATUS] = STOPPED;
    b->info[I_SEAT] = seat;
    b->info[I_KIND] = kind;
    b->tl[T_STOP] = 1;
    memset(b->legal, 0, 8 * sizeof(u64));
    return 1;
}

static inline void trace(Board *b, i64 code, i64 value) {
    i64 k = b->tl[T_NTR];
    b->tr[k][0] = code;
    b->tr[k][1] = value;
    b->tl[T_NTR] = k + 1;
}

/* role, holding carte blanche in hand, announces it and the number of cards, lo to hi, it
 * will take (*ann): the policy's choice or the next forced one.  0: the deal stops here
 * (a decision to make, or a forced choice that is not allowed) */
static inline int announce_blanche(Board *b, int role, i64 hand, i64 lo, i64 hi, i64 *ann) {
    if (stop_at(b, A_BLANCHE, role)) {
        for (i64 k = lo; k <= hi && k <= 12; k++) legal_set(b, ID_BLANCHE + k);
        return 0;
    }
    i64 row = forced(b);
    if (row < 0) {
        *ann = choose_blanche(b->p, b->policy, b->rng, hand, role, lo, hi);
    } else {
        *ann = b->fz[row][1];
        if (b->fz[row][0] != A_BLANCHE || *ann < lo || *ann > hi) {
            bad(b);
            return 0;
        }
    }
    trace(b, A_BLANCHE, *ann);
    return 1;
}

/* the scoring timeline: seat counts pts for kind (Tally.add) */
static void add(Board *b, int seat, int kind, i64 pts) {
    i64 *tl = b->tl;
    if (tl[T_REACHED] >= 0 || pts <= 0) return;
    i64 n = tl[T_NEV];
    b->ev[n][0] = seat;
    b->ev[n][1] = kind;
    b->ev[n][2] = pts;
    n++;
    i64 before = tl[seat];
    tl[seat] += pts;
    i64 bonus;
    int bkind = pique_bonus(b->p, seat, kind, before, tl[seat], tl[1 - seat], &tl[T_OPEN], &bonus);
    if (bkind >= 0) {
        b->ev[n][0] = seat;
        b->ev[n][1] = bkind;
        b->ev[n][2] = bonus;
        n++;
        tl[seat] += bonus;
    }
    tl[T_NEV] = n;
    if (tl[T_TARGET] > 0 && tl[T_START0 + seat] + tl[seat] >= tl[T_TARGET]) tl[T_REACHED] = seat;
}

/* a count of the play: held back until the declarations are counted */
static void play_count(Board *b, int seat, int kind, i64 pts) {
    if (b->tl[T_COMMITTED] < 3) {
        i64 k = b->tl[T_NHELD];
        b->held[k][0] = seat;
        b->held[k][1] = kind;
        b->held[k][2] = pts;
        b->tl[T_NHELD] = k + 1;
        return;
    }
    add(b, seat, kind, pts);
}

/* count resolved classes in order, then any held play counts */
static void commit(Board *b) {
    i64 *tl = b->tl;
    while (tl[T_COMMITTED] < 3) {
        i64 c = tl[T_COMMITTED];
        if (b->res[c][0] == 0) return;
        if (b->res[c][1] >= 0 && b->res[c][2] > 0) {
            add(b, (int)b->res[c][1], K_POINT + (int)c, b->res[c][2]);
            if (halted(b)) return;
        }
        tl[T_COMMITTED] = c + 1;
    }
    i64 k = tl[T_NHELD];
    if (k) {
        tl[T_NHELD] = 0;
        for (i64 i = 0; i < k; i++) {
            add(b, (int)b->held[i][0], (int)b->held[i][1], b->held[i][2]);
            if (halted(b)) return;
        }
    }
}

/* a class is decided: count what can be counted, then the question of a trio */
static void set_result(Board *b, int cls, i64 winner, i64 pts, int trio) {
    b->res[cls][0] = 1;
    b->res[cls][1] = winner;
    b->res[cls][2] = pts;
    commit(b);
    if (halted(b)) return;
    if (cls == 2 && b->p[P_ASK_MISSING] && winner >= 0 && trio) {
        if (stop_at(b, A_QUESTION, 1 - winner)) {
            legal_set(b, ID_ASK);
            legal_set(b, ID_NO_QUESTION);
            return;
        }
        i64 ask;
        i64 row = forced(b);
        if (row < 0) {
            ask = choose_yes(b->policy, b->rng, 1);
        } else {
            ask = b->fz[row][1];
            if (b->fz[row][0] != A_QUESTION) {
                bad(b);
                return;
            }
        }
        trace(b, A_QUESTION, ask);
    }
}

static void win(Board *b, const i64 *hands, int seat, int cls, i64 (*cl)[5], int k) {
    int trio = 0;
    i64 pts = counted(hands[seat], cls, cl[k][0], cl[k][1], cl[k][2], cl[k][3], cl[k][4], b->p,
                      &trio);
    set_result(b, cls, seat, pts, trio);
}

/* younger's possible answers to elder's claim (Deal._replies); returns how many */
static int replies(i64 claim_key, int partial, i64 (*cl)[5], int n, i64 *out) {
    int m = 0;
    out[m++] = R_GOOD;
    i64 best = -1;
    int eq = 0;
    if (partial) {
        i64 first = claim_key / 256;
        for (int i = 0; i < n; i++) {
            i64 f = cl[i][1] / 256;
            if (f > best) best = f;
            if (f == first) eq = 1;
        }
        if (n && best > first) out[m++] = R_NOT_GOOD;
        if (eq) out[m++] = R_MAKING;
        return m;
    }
    for (int i = 0; i < n; i++) {
        if (cl[i][1] > best) best = cl[i][1];
        if (cl[i][1] == claim_key) eq = 1;
    }
    if (n && best > claim_key) out[m++] = R_NOT_GOOD;
    if (eq) out[m++] = R_EQUAL;
    return m;
}

/* the discard: forced, or by the policy; -1 when a forced one is not allowed */
static i64 discard_choice(Board *b, i64 hand, int seat, i64 lo, i64 hi, i64 fixed) {
    if (stop_at(b, A_DISCARD, seat)) {
        b->info[I_LO] = fixed >= 0 ? fixed : lo;
        b->info[I_HI] = fixed >= 0 ? fixed : hi;
        b->info[I_DHAND] = hand;
        return -1;
    }
    i64 row = forced(b);
    if (row < 0) return choose_discard(b->p, b->policy, b->rng, hand, seat, lo, hi, fixed);
    i64 n = b->fz[row][1];
    i64 k = popcount(n);
    if (b->fz[row][0] != A_DISCARD || (n & ~hand) || (fixed >= 0 && k != fixed) || k < lo || k > hi)
        return -1;
    return n;
}

/* the most younger may exchange of `left` stock cards (no more than his limit, where the
 * rules set one) */
static inline i64 younger_most(const i64 *p, i64 left) {
    i64 ymax = p[P_YOUNGER_MAX];
    return ymax && ymax < left ? ymax : left;
}

/* younger's discard with `left` stock cards to take from (`fixed`: the number he announced
 * with his blanche, or -1); -1 when a forced one is not allowed */
static inline i64 younger_discard(Board *b, i64 hand, i64 left, i64 fixed) {
    i64 hi = younger_most(b->p, left), lo = b->p[P_YOUNGER_MIN];
    return discard_choice(b, hand, 1, lo < hi ? lo : hi, hi, fixed);
}

/* elder's discard (`fixed`: the number he announced with his blanche, or -1), traced and
 * exchanged for the stock's next cards from *sp; 0 when refused or stopped */
static inline int elder_exchanges(Board *b, i64 *hands, i64 *disc, const i64 *deck, i64 *sp,
                                  i64 fixed) {
    i64 n = discard_choice(b, hands[0], 0, b->p[P_ELDER_MIN], b->p[P_ELDER_MAX], fixed);
    if (n < 0) { bad(b); return 0; }
    trace(b, A_DISCARD, n);
    *sp = exchange(hands, disc, deck, *sp, 0, n);
    return 1;
}

/* seat's carte blanche counted (shown, where it counts: blanche_counted); 1 when the run
 * stops there (the target reached where that ends the deal) */
static inline int blanche_halts(Board *b, int seat) {
    add(b, seat, K_BLANCHE, b->p[P_BLANCHE_VALUE]);
    return halted(b);
}

/* a claim (an index into cl) or n to pass: forced, or by the policy; -1 when a forced one
 * is not allowed */
static int claim_choice(Board *b, i64 hand, int cls, i64 (*cl)[5], int n, int younger, i64 beat,
                        int partial, int may_pass) {
    if (stop_at(b, A_DECLARE, younger)) {
        b->info[I_CLS] = cls;
        for (int i = 0; i < n; i++)
            if (!younger || beats(cl[i][1], beat, partial)) legal_set(b, claim_id(b->p, cls, cl, i));
        if (may_pass) legal_set(b, ID_PASS);
        return -1;
    }
    i64 row = forced(b);
    if (row < 0) {
        if (younger)
            return choose_younger_claim(b->policy, b->rng, hand, cls, cl, n, beat, partial,
                                        may_pass);
        return choose_elder_claim(b->policy, b->rng, cl, n);
    }
    if (b->fz[row][0] == A_PASS) return may_pass ? n : -1;
    if (b->fz[row][0] != A_DECLARE || (b->fz[row][1] & 3) != cls) return -1;
    i64 cards = b->fz[row][1] >> 2;
    for (int i = 0; i < n; i++)
        if (cl[i][0] == cards) return beats(cl[i][1], beat, partial) ? i : -1;
    return -1;
}

/* the card played: forced, or by the policy; -1 when the deal stops here (stop and no
 * forced choice left: info tells the decision) or a forced card is not allowed */
static i64 play_choice(Board *b, int seat, i64 hand, i64 allowed, i64 lead, i64 possible, i64 won,
                       i64 trick, i64 discards) {
    i64 *info = b->info;
    if (b->stop && b->tl[T_FI] >= b->nfz) {
        info[I_STATUS] = STOPPED;
        info[I_SEAT] = seat;
        info[I_ALLOWED] = allowed;
        info[I_LEAD] = lead;
        info[I_HAND] = hand;
        info[I_PLAYED] = full_pack(b->p) & ~possible & ~hand & ~discards;
        info[I_WON] = won;
        info[I_TRICK] = trick;
        info[I_DISCARDS] = discards;
        info[I_SCORE0] = b->tl[T0];
        info[I_SCORE1] = b->tl[T1];
        info[I_KIND] = A_PLAY;
        b->tl[T_STOP] = 1;
        if (b->stop_all) {
            memset(b->legal, 0, 8 * sizeof(u64));
            b->legal[0] = (u64)allowed;
        }
        return -1;
    }
    i64 row = forced(b);
    if (row < 0) return choose_play(b->policy, b->rng, hand, allowed, lead, possible, won);
    i64 c = b->fz[row][1];
    if (b->fz[row][0] != A_PLAY || c < 0 || c > 35 || !(allowed >> c & 1)) {
        bad(b);
        return -1;
    }
    return c;
}

/* younger declares in class cls where elder passed (beat < 0: nothing to beat; else elder's
 * key beat, partial as claim_choice reads it) or sinks it; -1 for a forced choice not allowed */
static inline int younger_declares(Board *b, int cls, i64 beat, int partial) {
    i64 *hands = b->ps + PS_HAND;
    i64 cl2[MAX_CLAIMS][5];
    int ny = claims(hands[1], cls, b->p, cl2);
    int j = claim_choice(b, hands[1], cls, cl2, ny, 1, beat, partial, beat < 0);
    if (j < 0) {
        bad(b);
        return -1;
    }
    if (j == ny) {
        trace(b, A_PASS, cls);
        set_result(b, cls, -1, 0, 0);
    } else {
        trace(b, A_DECLARE, cl2[j][0] << 2 | cls);
        win(b, hands, 1, cls, cl2, j);
    }
    return 0;
}

/* younger's declarations that waited for elder's first card; 0 to go on */
static int deferred_claims(Board *b) {
    for (i64 d = 0; d < b->ps[PS_NDEF]; d++) {
        if (younger_declares(b, (int)b->deferred[d][0], b->deferred[d][1],
                             b->deferred[d][2] != 0) < 0)
            return 1;
        if (halted(b)) return 1;
    }
    commit(b);
    return halted(b);
}

/* The next card of seat (the leader's when led < 0, else the follower's to the card led):
 * *card if it is >= 0 (then used up), else forced or by the policy; traced and taken from
 * the hand. -1 when the deal stops here (see play_choice). */
static inline i64 next_card(Board *b, i64 *card, int seat, i64 led) {
    i64 *ps = b->ps;
    i64 hand = ps[PS_HAND + seat];
    i64 c = *card;
    if (c >= 0) {
        *card = -1;
    } else {
        i64 t = ps[PS_TRICK];
        i64 won0 = ps[PS_WON0];
        i64 disc = ps[PS_DISC + seat];
        i64 allowed = led < 0 ? playable(hand, -1, t == 0 ? ps[PS_LEAD_KIND] : 0, ps[PS_LEAD_VAL])
                              : playable(hand, led, 0, 0);
        c = play_choice(b, seat, hand, allowed, led, ps[PS_FULL] & ~hand & ~disc & ~ps[PS_PLAYED],
                        seat == 0 ? won0 : t - won0, t, disc);
        if (c < 0) return -1;
    }
    trace(b, A_PLAY, c);
    ps[PS_HAND + seat] &= ~BIT(c);
    ps[PS_PLAYED] |= BIT(c);
    return c;
}

/* The play, from the trick and half-trick ps holds: card (if >= 0) is the next card, then
 * the forced choices, then the policy; returns at the end of the deal, or where stop
 * stops it at a card (ps then holds where to go on). */
static void play(Board *b, i64 card) {
    const i64 *p = b->p;
    i64 *ps = b->ps;
    while (ps[PS_TRICK] < 12) {
        i64 t = ps[PS_TRICK];
        int leader = (int)ps[PS_LEADER];
        i64 won0 = ps[PS_WON0];
        if (ps[PS_HALF] == 0) {
            i64 c = next_card(b, &card, leader, -1);
            if (c < 0) return;
            ps[PS_LED] = c;
            ps[PS_HALF] = 1;
            i64 lp = lead_points(p, c);
            if (lp) {
                play_count(b, leader, K_LEAD, lp);
                if (halted(b)) return;
            }
            if (t == 0 && ps[PS_NDEF] && deferred_claims(b)) return;
        }
        i64 c = ps[PS_LED];
        int follower = 1 - leader;
        i64 f = next_card(b, &card, follower, c);
        if (f < 0) return;
        ps[PS_HALF] = 0;
        pique_at_card(p, t, &b->tl[T_OPEN]);
        int fw = follower_wins(c, f);
        int winner = fw ? follower : leader;
        if (winner == 0) ps[PS_WON0] = ++won0;
        i64 tp = trick_points(p, c, f);
        if (tp) play_count(b, winner, K_TRICK, tp);
        if (halted(b)) return;
        if (t < 11) {
            ps[PS_LEADER] = winner;
            ps[PS_TRICK] = t + 1;
            continue;
        }
        ps[PS_TRICK] = 12;
        play_count(b, winner, K_LAST, last_points(p, fw ? f : c));
        if (halted(b)) return;
        int kind;
        i64 pts;
        int seat = cards_result(p, won0, &kind, &pts);
        if (seat >= 0) play_count(b, seat, kind, pts);
    }
}

/* Deal the pack on a board and play it (see piquet.fast.kernel.run_deal); the arrays of b
 * are the caller's. Longer than a function should be (tests/test_sizes.py allows it): the
 * deal's phases in the engine's order over the hands and claims held here, so that it reads
 * beside core/transitions.py and the differential tests compare the two step by step. */
static void run_deal(Board *b, const i64 *deck, i64 start0, i64 start1, i64 target) {
    const i64 *p = b->p;
    i64 *tl = b->tl;
    i64 *ps = b->ps;
    b->info[I_STATUS] = 0;
    memset(tl, 0, sizeof(i64) * T_SIZE);
    memset(b->res, 0, sizeof(i64) * 9);
    memset(ps, 0, sizeof(i64) * PS_SIZE);
    tl[T_OPEN] = 1;
    tl[T_REACHED] = -1;
    tl[T_START0] = start0;
    tl[T_START1] = start1;
    tl[T_TARGET] = p[P_ENDS_MID_DEAL] ? target : 0;
    i64 cl[MAX_CLAIMS][5], cl2[MAX_CLAIMS][5];
    i64 opts[8];
    i64 *hands = ps + PS_HAND;
    i64 *disc = ps + PS_DISC;
    i64 deck_size = p[P_DECK_SIZE];
    i64 full = full_pack(p);
    i64 row;

    /* the deal */
    i64 size = p[P_PACKETS];
    if (p[P_N_PACKETS] > 1) {
        if (stop_at(b, A_DEAL, 1)) {
            for (i64 i = 0; i < p[P_N_PACKETS]; i++)
                for (int k = 0; k < 6; k++)
                    if (DEAL_SIZES[k] == p[P_PACKETS + i]) legal_set(b, ID_DEAL + k);
            return;
        }
        row = forced(b);
        if (row < 0) {
            size = choose_packet(p, b->policy, b->rng);
        } else {
            size = b->fz[row][1];
            int ok = 0;
            for (i64 i = 0; i < p[P_N_PACKETS]; i++) ok = ok || p[P_PACKETS + i] == size;
            if (b->fz[row][0] != A_DEAL || !ok) { bad(b); return; }
        }
        trace(b, A_DEAL, size);
    }
    for (int pos = 0; pos < 24; pos++) hands[(pos / size) % 2] |= BIT(deck[pos]);
    i64 sp = 24;
    int bl0 = p[P_CARTE_BLANCHE] != 0 && is_blanche(hands[0]);
    int bl1 = p[P_CARTE_BLANCHE] != 0 && is_blanche(hands[1]);

    /* carte blanche and the exchange */
    i64 ann0 = -1, ann1 = -1;
    i64 stock = deck_size - 24;
    if (p[P_BLANCHE_NUMBER] && (bl0 || bl1)) {
        if (bl0) {
            i64 lo = p[P_ELDER_MIN], hi = p[P_ELDER_MAX];
            if (!announce_blanche(b, 0, hands[0], lo, hi, &ann0)) return;
        }
        if (bl1) {
            i64 hi = younger_most(p, stock - (ann0 >= 0 ? ann0 : p[P_ELDER_MAX]));
            if (!announce_blanche(b, 1, hands[1], p[P_YOUNGER_MIN], hi, &ann1)) return;
        }
    }
    int count0, count1; /* whose blanche counts */
    blanche_counted(p, bl0, bl1, &count0, &count1);
    if (ann0 >= 0) {
        /* elder's blanche: younger lays out first, elder shows, exchanges; younger takes */
        i64 n1 = younger_discard(b, hands[1], stock - ann0, ann1);
        if (n1 < 0) { bad(b); return; }
        trace(b, A_DISCARD, n1);
        hands[1] &= ~n1;
        disc[1] |= n1;
        if (count0 && blanche_halts(b, 0)) return;
        if (!elder_exchanges(b, hands, disc, deck, &sp, ann0)) return;
        if (count1 && blanche_halts(b, 1)) return;
        sp = draw(hands, deck, sp, 1, popcount(n1));
    } else {
        /* elder exchanges, then younger, each after his blanche is shown: one branch for
         * the rules that announce no number and for younger's announced blanche (elder then
         * holds none, so count0 is 0), as core/transitions.py's _start_exchange */
        if (count0 && blanche_halts(b, 0)) return;
        if (!elder_exchanges(b, hands, disc, deck, &sp, -1)) return;
        if (count1 && blanche_halts(b, 1)) return;
        i64 n = younger_discard(b, hands[1], deck_size - sp, ann1);
        if (n < 0) { bad(b); return; }
        trace(b, A_DISCARD, n);
        sp = exchange(hands, disc, deck, sp, 1, n);
    }

    /* the stock cards younger left */
    i64 lead_kind = 0, lead_val = 0;
    i64 mode = p[P_LEFTOVERS];
    if (sp < deck_size && (mode == LEFT_NAMES_SUIT || mode == LEFT_NAMES_CARD)) {
        int by_suit = mode == LEFT_NAMES_SUIT;
        /* the cards elder may name: any, or (appoint_if_card_lacked off) one he holds or
         * one of a suit he has none of */
        i64 nameable = full;
        if (!p[P_APPOINT_LACKED]) {
            nameable = hands[0];
            for (int s = 0; s < 4; s++)
                if ((hands[0] & SUIT_MASK(s)) == 0) nameable |= full & SUIT_MASK(s);
        }
        i64 k;
        if (stop_at(b, by_suit ? A_NAME_SUIT : A_NAME_CARD, 0)) {
            for (int i = 0; i < 36; i++)
                if (by_suit ? i < 4 : (nameable >> i & 1))
                    legal_set(b, (by_suit ? ID_NAME_SUIT : ID_NAME_CARD) + i);
            legal_set(b, ID_DECLINE);
            return;
        }
        row = forced(b);
        if (row < 0) {
            k = choose_name(b->policy, b->rng, hands[0], by_suit, nameable);
        } else if (b->fz[row][0] == A_LEFTOVER && b->fz[row][1] == 0) {
            k = -1;
        } else if (b->fz[row][0] == (by_suit ? A_NAME_SUIT : A_NAME_CARD) &&
                   (by_suit ? b->fz[row][1] < 4 : (nameable >> b->fz[row][1] & 1))) {
            k = b->fz[row][1];
        } else {
            { bad(b); return; }
        }
        if (k < 0) {
            trace(b, A_LEFTOVER, 0);
        } else {
            lead_kind = by_suit ? 1 : 2;
            lead_val = k;
            trace(b, by_suit ? A_NAME_SUIT : A_NAME_CARD, k);
            int lacks = by_suit ? (hands[0] & SUIT_MASK(k)) == 0 : (hands[0] >> k & 1) == 0;
            if (lacks) {
                /* what elder may hold as far as younger knows (core.view.appointable) */
                i64 known = hands[1] | disc[1];
                for (i64 i = sp; i < deck_size; i++) known |= BIT(deck[i]);
                known |= by_suit ? SUIT_MASK(k) : BIT(k);
                if (stop_at(b, by_suit ? A_APPOINT_SUIT : A_APPOINT_CARD, 1)) {
                    for (int i = 0; i < 36; i++)
                        if (by_suit ? i < 4 : ((full & ~hands[1]) >> i & 1))
                            legal_set(b, (by_suit ? ID_APPOINT_SUIT : ID_APPOINT_CARD) + i);
                    return;
                }
                row = forced(b);
                if (row < 0) {
                    lead_val = choose_appoint(b->policy, b->rng, hands[1], by_suit, full,
                                              full & ~known);
                } else {
                    lead_val = b->fz[row][1];
                    if (b->fz[row][0] != (by_suit ? A_APPOINT_SUIT : A_APPOINT_CARD) ||
                        !(by_suit ? lead_val < 4 : ((full & ~hands[1]) >> lead_val & 1)))
                        { bad(b); return; }
                }
                trace(b, by_suit ? A_APPOINT_SUIT : A_APPOINT_CARD, lead_val);
            }
        }
    } else if (sp < deck_size && (mode == LEFT_TURNS_UP || mode == LEFT_LOOKS)) {
        i64 look;
        if (stop_at(b, A_LEFTOVER, 1)) {
            legal_set(b, ID_LOOK);
            legal_set(b, ID_DECLINE);
            return;
        }
        row = forced(b);
        if (row < 0) {
            look = choose_yes(b->policy, b->rng, mode == LEFT_LOOKS ? 1 : 0);
        } else {
            look = b->fz[row][1];
            if (b->fz[row][0] != A_LEFTOVER) { bad(b); return; }
        }
        trace(b, A_LEFTOVER, look);
    }

    /* the declarations */
    int after_lead = p[P_YOUNGER_AFTER_LEAD] != 0;
    i64 n_def = 0;
    for (int cls = 0; cls < 3; cls++) {
        int ne = claims(hands[0], cls, p, cl);
        int k = claim_choice(b, hands[0], cls, cl, ne, 0, -1, 0, 1);
        if (k < 0) { bad(b); return; }
        if (k == ne) {
            trace(b, A_PASS, cls);
            if (after_lead) {
                b->deferred[n_def][0] = cls;
                b->deferred[n_def][1] = -1;
                b->deferred[n_def][2] = 0;
                n_def++;
                continue;
            }
            if (younger_declares(b, cls, -1, 0) < 0) return;
            if (halted(b)) return;
            continue;
        }
        trace(b, A_DECLARE, cl[k][0] << 2 | cls);
        i64 ekey = cl[k][1];
        int ny = claims(hands[1], cls, p, cl2);
        int revealed = 0;
        for (;;) {
            int partial = cls == 0 && p[P_POINT_BY_CARDS] != 0 && !revealed;
            int m = replies(ekey, partial, cl2, ny, opts);
            i64 r;
            if (stop_at(b, A_ANSWER, 1)) {
                b->info[I_CLS] = cls;
                for (int i = 0; i < m; i++) legal_set(b, ID_REPLY + opts[i]);
                return;
            }
            row = forced(b);
            if (row < 0) {
                r = choose_answer(b->policy, b->rng, opts, m);
            } else {
                r = b->fz[row][1];
                int ok = 0;
                for (int i = 0; i < m; i++) ok = ok || opts[i] == r;
                if (b->fz[row][0] != A_ANSWER || !ok) { bad(b); return; }
            }
            trace(b, A_ANSWER, r);
            if (r == R_MAKING) {
                revealed = 1;
                continue;
            }
            if (r == R_GOOD) {
                win(b, hands, 0, cls, cl, k);
            } else if (r == R_EQUAL) {
                set_result(b, cls, -1, 0, 0);
            } else if (after_lead) {
                b->deferred[n_def][0] = cls;
                b->deferred[n_def][1] = ekey;
                b->deferred[n_def][2] = partial;
                n_def++;
            } else {
                int j = claim_choice(b, hands[1], cls, cl2, ny, 1, ekey, partial, 0);
                if (j < 0) { bad(b); return; }
                trace(b, A_DECLARE, cl2[j][0] << 2 | cls);
                win(b, hands, 1, cls, cl2, j);
            }
            break;
        }
        if (halted(b)) return;
    }
    commit(b);
    if (halted(b)) return;

    /* the play */
    ps[PS_FULL] = full;
    ps[PS_LEAD_KIND] = lead_kind;
    ps[PS_LEAD_VAL] = lead_val;
    ps[PS_NDEF] = n_def;
    play(b, -1);
}

/* go on with a deal stopped at a card: the seat to play plays card, then the policy makes
 * every other choice up to the next card to play (where it stops again) or the end */
static void resume_deal(Board *b, i64 card) {
    static const i64 no_choices[1][2] = {{0, 0}};
    b->info[I_STATUS] = 0;
    b->tl[T_STOP] = 0;
    b->fz = no_choices;
    b->nfz = 0;
    b->stop = 1;
    play(b, card);
}

/* fill deck with the rule set's pack in a random order (Fisher-Yates) */
static void shuffle_pack(const i64 *p, u64 *rng, i64 *deck) {
    int n = 0;
    for (int i = 0; i < 36; i++)
        if (p[P_DECK_SIZE] == 36 || i % 9) deck[n++] = i;
    for (int i = n - 1; i > 0; i--) {
        i64 j = rand_below(rng, i + 1);
        i64 t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* a board on scratch arrays, for a deal played to its end */
typedef struct {
    i64 tl[T_SIZE];
    i64 ev[MAX_EVENTS][3];
    i64 tr[MAX_TRACE][2];
    i64 res[3][3];
    i64 held[MAX_HELD][3];
    i64 deferred[3][3];
    i64 ps[PS_SIZE];
    i64 info[I_SIZE];
} Scratch;

static inline void board_on(Board *b, Scratch *s) {
    b->tl = s->tl;
    b->ev = s->ev;
    b->tr = s->tr;
    b->res = s->res;
    b->held = s->held;
    b->deferred = s->deferred;
    b->ps = s->ps;
    b->info = s->info;
}

#endif
