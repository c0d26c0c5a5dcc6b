/* The whole game on the compiled board (piquet.fast.game): every decision of every deal is
 * the agent's, numbered by the shared action ids of piquet.integrations.actions.ids.
 *
 * One game is one flat row of int64 (WGame below).  The deal in progress is the kernel's
 * board (kernel.h) run with stop_all: it stops before each decision, with the decision's
 * kind, its seat and its legal ids.  The choices made so far in the deal are kept as the
 * kernel's forced-choice rows; a choice other than a card is made by running the deal again
 * from its pack with one more forced row (a deal has a dozen such choices), a card by going
 * on from the board where it stopped (kernel.h's play).  A discard is chosen card by card
 * (discard-card ids in increasing index, then discard-done), as the adapters number it.
 * Between deals the game's own rules (piquet.core.match): the deal alternates, a game ends
 * at the target, a partie after its deals (two more when level), with its settlement.
 * Checked against the engine by tests/test_fast_game.py.  Called without the GIL. */
#ifndef PIQUET_GAME_H
#define PIQUET_GAME_H

#include "kernel.h"

enum { WF_GAME, WF_PARTIE };
/* who moves when nobody does (OpenSpiel's number for the end) */
#define W_TERMINAL (-4)
/* step results */
enum { WS_OK = 0, WS_ILLEGAL = -1, WS_OVER = -2 };

typedef struct {
    u64 rng;
    i64 format;     /* WF_GAME, WF_PARTIE */
    i64 max_deals;  /* a game cut off (truncated) after this many deals */
    i64 dealer;     /* the player dealing the deal in play */
    i64 score[2];   /* the players' game scores before the deal in play */
    i64 ndeals;     /* deals finished */
    i64 extra;      /* a partie's extra deals (2 once level after its deals) */
    i64 over;       /* the game is over (finished or cut off) */
    i64 truncated;  /* cut off at max_deals, undecided */
    i64 winner;     /* the winning player, -1 for none (a drawn partie, a cut-off game) */
    i64 settled;    /* a partie's settlement: what the winner scores */
    i64 to_move;    /* the player to act, W_TERMINAL at the end */
    i64 role;       /* the role (0 elder, 1 younger) of the player to act */
    i64 kind;       /* the kind of decision (kernel.h's A_* codes) */
    i64 lo, hi;     /* a discard: the fewest and most cards */
    i64 sel;        /* a discard: the cards laid out so far */
    i64 nch;        /* the deal's choices so far (rows of ch) */
    i64 steps;      /* player decisions in this game */
    i64 deal_pts[2]; /* the players' points in the last finished deal */
    i64 reached;    /* the player who reached the target during the last deal, or -1 */
    u64 legal[8];   /* the legal ids of the player to act, as bits */
    i64 deck[36];   /* the pack of the deal in play, top first */
    i64 ch[MAX_TRACE][2];
    i64 flat[FLAT_SIZE];
} WGame;

#define WG_SIZE ((i64)(sizeof(WGame) / sizeof(i64)))

static inline void w_board(const i64 *p, WGame *g, Board *b) {
    b->p = p;
    b->policy = 0;
    b->rng = &g->rng; /* never drawn: every choice is forced or stops */
    board_of_flat(b, g->flat);
    b->fz = (const i64(*)[2])g->ch;
    b->nfz = g->nch;
    b->stop = 1;
    b->stop_all = 1;
    b->legal = g->legal;
}

static inline void w_set(WGame *g, i64 id) { g->legal[id >> 6] |= (u64)1 << (id & 63); }

/* the legal ids of a discard: the cards above the last one laid out that leave enough to
 * reach the fewest (ids._selectable), and discard-done once enough are laid out */
static void w_discard_legal(WGame *g, i64 hand) {
    memset(g->legal, 0, sizeof g->legal);
    i64 k = popcount(g->sel);
    if (k < g->hi) {
        i64 last = g->sel ? 63 - __builtin_clzll((u64)g->sel) : -1;
        i64 need_after = g->lo - k - 1 > 0 ? g->lo - k - 1 : 0;
        i64 rest = hand & ~g->sel;
        i64 above = last >= 35 ? 0 : rest & ~((BIT(last + 1)) - 1);
        i64 left = popcount(above);
        for (int c = 0; c < 36; c++)
            if (above >> c & 1) {
                left--;
                if (left >= need_after) w_set(g, ID_SELECT + c);
                else break;
            }
    }
    if (g->lo <= k && k <= g->hi) w_set(g, ID_DONE);
}

static void w_new_deal(const i64 *p, WGame *g);

/* the deal in play is over: count it into the game; the next deal, or the end */
static void w_settle(const i64 *p, WGame *g) {
    i64 *tl = g->flat;
    i64 elder = 1 - g->dealer;
    g->deal_pts[elder] = tl[T0];
    g->deal_pts[g->dealer] = tl[T1];
    g->score[elder] += tl[T0];
    g->score[g->dealer] += tl[T1];
    g->ndeals++;
    g->reached = tl[T_REACHED] < 0 ? -1 : (tl[T_REACHED] == 0 ? elder : g->dealer);
    i64 sa = g->score[0], sb = g->score[1];
    i64 winner = -1;
    int end = 0;
    if (g->format == WF_PARTIE) {
        if (g->ndeals >= p[P_PARTIE_DEALS] + g->extra) {
            if (sa != sb) {
                end = 1;
                winner = sa > sb ? 0 : 1;
            } else if (!(p[P_PARTIE_TIE_EXTRA] && g->extra == 0)) {
                end = 1;
            } else {
                g->extra = 2;
            }
        }
    } else if (g->reached >= 0) {
        end = 1;
        winner = g->reached;
    } else if ((sa > sb ? sa : sb) >= p[P_TARGET] && sa != sb) {
        end = 1;
        winner = sa > sb ? 0 : 1;
    }
    if (end) {
        g->over = 1;
        g->winner = winner;
        if (g->format == WF_PARTIE && winner >= 0) {
            i64 ws = g->score[winner], ls = g->score[1 - winner];
            g->settled = settlement(p[P_SETTLEMENT_PARLETT] != 0, ws, ls);
        }
        g->to_move = W_TERMINAL;
        memset(g->legal, 0, sizeof g->legal);
        return;
    }
    g->dealer = 1 - g->dealer;
    if (g->format == WF_GAME && g->ndeals >= g->max_deals) {
        g->over = 1;
        g->truncated = 1;
        g->to_move = W_TERMINAL;
        memset(g->legal, 0, sizeof g->legal);
        return;
    }
    w_new_deal(p, g);
}

/* where the board stopped: the decision to make, or the deal's end */
static void w_after(const i64 *p, WGame *g) {
    i64 *info = g->flat + FLAT_INFO;
    if (info[I_STATUS] != STOPPED) {
        w_settle(p, g);
        return;
    }
    g->role = info[I_SEAT];
    g->to_move = g->role == 1 ? g->dealer : 1 - g->dealer;
    g->kind = info[I_KIND];
    if (g->kind == A_DISCARD) {
        g->lo = info[I_LO];
        g->hi = info[I_HI];
        g->sel = 0;
        w_discard_legal(g, info[I_DHAND]);
    }
}

/* run the deal in play from its pack through its choices so far, to the next stop */
static void w_run(const i64 *p, WGame *g) {
    Board b = {.stop_all = 1};
    w_board(p, g, &b);
    i64 start0 = g->score[1 - g->dealer], start1 = g->score[g->dealer];
    run_deal(&b, g->deck, start0, start1, g->format == WF_GAME ? p[P_TARGET] : 0);
    w_after(p, g);
}

static void w_new_deal(const i64 *p, WGame *g) {
    shuffle_pack(p, &g->rng, g->deck);
    g->nch = 0;
    w_run(p, g);
}

/* a new game from seed: the first dealer drawn, the first deal dealt */
static void w_reset(const i64 *p, WGame *g, u64 seed, i64 format, i64 max_deals) {
    memset(g, 0, sizeof *g);
    /* splitmix64 of the seed: a nonzero xorshift state */
    u64 z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    g->rng = z ? z : 0x2545F4914F6CDD1DULL;
    g->format = format;
    g->max_deals = max_deals;
    g->winner = -1;
    g->reached = -1;
    g->dealer = rand_below(&g->rng, 2);
    w_new_deal(p, g);
}

/* the deal in play dealt again from pack (its first decision not yet made), as at a table
 * whose cards are entered; 0 if a decision of the deal has been made or the game is over */
static int w_deal_pack(const i64 *p, WGame *g, const i64 *pack) {
    if (g->over || g->nch || g->sel) return 0;
    memcpy(g->deck, pack, sizeof g->deck);
    w_run(p, g);
    return 1;
}

static inline int w_is_legal(const WGame *g, i64 id) {
    return id >= 0 && id < N_IDS && (g->legal[id >> 6] >> (id & 63) & 1);
}

/* the forced-choice row an id makes (not a discard step, not a card) */
static int w_row(const i64 *p, WGame *g, i64 id, i64 *code, i64 *value) {
    if (id >= ID_DEAL && id < ID_BLANCHE) { *code = A_DEAL; *value = DEAL_SIZES[id - ID_DEAL]; }
    else if (id < ID_NAME_SUIT) { *code = A_BLANCHE; *value = id - ID_BLANCHE; }
    else if (id < ID_NAME_CARD) { *code = A_NAME_SUIT; *value = id - ID_NAME_SUIT; }
    else if (id < ID_APPOINT_SUIT) { *code = A_NAME_CARD; *value = id - ID_NAME_CARD; }
    else if (id < ID_APPOINT_CARD) { *code = A_APPOINT_SUIT; *value = id - ID_APPOINT_SUIT; }
    else if (id < ID_LOOK) { *code = A_APPOINT_CARD; *value = id - ID_APPOINT_CARD; }
    else if (id == ID_LOOK || id == ID_DECLINE) { *code = A_LEFTOVER; *value = id == ID_LOOK; }
    else if (id < ID_PASS) {
        /* a claim: the hand's claim of the class with this id */
        const i64 *info = g->flat + FLAT_INFO;
        int cls = (int)info[I_CLS];
        i64 hand = (g->flat + FLAT_PS)[PS_HAND + g->role];
        i64 cl[MAX_CLAIMS][5];
        int n = claims(hand, cls, p, cl);
        for (int k = 0; k < n; k++)
            if (claim_id(p, cls, cl, k) == id) {
                *code = A_DECLARE;
                *value = cl[k][0] << 2 | cls;
                return 1;
            }
        return 0;
    }
    else if (id == ID_PASS) { *code = A_PASS; *value = (g->flat + FLAT_INFO)[I_CLS]; }
    else if (id < ID_ASK) { *code = A_ANSWER; *value = id - ID_REPLY; }
    else if (id < N_IDS) { *code = A_QUESTION; *value = id == ID_ASK; }
    else return 0;
    return 1;
}

/* the player to act takes action id; WS_ILLEGAL (nothing changes) if it is not legal now,
 * WS_OVER if the game is over */
static int w_step(const i64 *p, WGame *g, i64 id) {
    if (g->over) return WS_OVER;
    if (!w_is_legal(g, id)) return WS_ILLEGAL;
    g->steps++;
    if (g->kind == A_DISCARD) {
        if (id != ID_DONE) {
            g->sel |= BIT(id - ID_SELECT);
            w_discard_legal(g, (g->flat + FLAT_INFO)[I_DHAND]);
            return WS_OK;
        }
        g->ch[g->nch][0] = A_DISCARD;
        g->ch[g->nch][1] = g->sel;
        g->nch++;
        g->sel = 0;
        w_run(p, g);
        return WS_OK;
    }
    if (g->kind == A_PLAY) {
        /* go on from the board where it stopped */
        g->ch[g->nch][0] = A_PLAY;
        g->ch[g->nch][1] = id;
        g->nch++;
        Board b = {.stop_all = 1};
        w_board(p, g, &b);
        b.nfz = 0;
        b.info[I_STATUS] = 0;
        b.tl[T_STOP] = 0;
        play(&b, id);
        w_after(p, g);
        return WS_OK;
    }
    i64 code, value;
    if (!w_row(p, g, id, &code, &value)) return WS_ILLEGAL;
    g->ch[g->nch][0] = code;
    g->ch[g->nch][1] = value;
    g->nch++;
    w_run(p, g);
    return WS_OK;
}

#endif
