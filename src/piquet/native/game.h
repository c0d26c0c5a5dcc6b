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

#include "batch.h"
#include "kernel.h"

enum { WF_GAME, WF_PARTIE, WF_DEAL };
enum { W_SEES_UNUSED = 1, W_SHOW_POINT = 2, W_SHOW_SEQUENCES = 4, W_SHOW_SETS = 8,
       W_SHOW_MISSING = 16 };
/* who moves when nobody does (OpenSpiel's number for the end) */
#define W_TERMINAL (-4)
/* step results */
enum { WS_OK = 0, WS_ILLEGAL = -1, WS_OVER = -2 };

typedef struct {
    u64 rng;
    i64 format;     /* WF_GAME, WF_PARTIE, WF_DEAL (one deal: player 1 deals, no target) */
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
    i64 knobs;      /* what a seat sees (not in the parameter vector), as bits: W_SEES_UNUSED,
                     * W_SHOW_POINT, W_SHOW_SEQUENCES, W_SHOW_SETS, W_SHOW_MISSING */
    u64 legal[8];   /* the legal ids of the player to act, as bits */
    i64 deck[36];   /* the pack of the deal in play, top first */
    i64 ch[MAX_TRACE][2];
    i64 chrole[MAX_TRACE]; /* the role that made each choice */
    i64 chcls[MAX_TRACE];  /* a claim's, a pass's or an answer's class */
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
    if (g->format != WF_DEAL) { /* a single deal is no game: its points are its return */
        g->score[elder] += tl[T0];
        g->score[g->dealer] += tl[T1];
    }
    g->ndeals++;
    g->reached = tl[T_REACHED] < 0 ? -1 : (tl[T_REACHED] == 0 ? elder : g->dealer);
    i64 sa = g->score[0], sb = g->score[1];
    i64 winner = -1;
    int end = 0;
    if (g->format == WF_DEAL) {
        end = 1; /* no winner: the return is the point difference (w_return0) */
    } else if (g->format == WF_PARTIE) {
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
    if (g->format == WF_GAME && g->ndeals >= g->max_deals) {
        /* cut off: the last deal stays on the board (its dealer too) */
        g->over = 1;
        g->truncated = 1;
        g->to_move = W_TERMINAL;
        memset(g->legal, 0, sizeof g->legal);
        return;
    }
    g->dealer = 1 - g->dealer;
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
static void w_reset(const i64 *p, WGame *g, u64 seed, i64 format, i64 max_deals,
                    i64 knobs) {
    memset(g, 0, sizeof *g);
    g->knobs = knobs;
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
    if (format == WF_DEAL) g->dealer = 1; /* a single deal: player 0 is elder */
    w_new_deal(p, g);
}

/* the deal in play dealt again from pack (its first decision not yet made), as at a table
 * whose cards are entered, by dealer (-1: the same; another only for a game's first deal);
 * 0 if a decision of the deal has been made, the game is over, or the dealer may not change */
static int w_deal_pack(const i64 *p, WGame *g, const i64 *pack, i64 dealer) {
    if (g->over || g->nch || g->sel || (dealer >= 0 && g->ndeals)) return 0;
    if (dealer >= 0) g->dealer = dealer;
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
        g->chrole[g->nch] = g->role;
        g->nch++;
        g->sel = 0;
        w_run(p, g);
        return WS_OK;
    }
    if (g->kind == A_PLAY) {
        /* go on from the board where it stopped */
        g->ch[g->nch][0] = A_PLAY;
        g->ch[g->nch][1] = id;
        g->chrole[g->nch] = g->role;
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
    g->chrole[g->nch] = g->role;
    g->chcls[g->nch] = (g->flat + FLAT_INFO)[I_CLS];
    g->nch++;
    w_run(p, g);
    return WS_OK;
}


/* ---- the observation: the adapters' information-state tensor
 * (piquet.integrations.observation.INFO_PIECES: the same layout and values), written for
 * one player from the board and the deal's rows (the dialog is read back from the rows:
 * who said what, which holdings a class's winner showed, which card is missing). */
enum { O_ROLE = 0, O_PHASE = 2, O_TO_ACT = 10, O_PACKET = 12, O_HAND = 18, O_DEALT = 54,
       O_DISCARDS = 90, O_TAKEN = 126, O_LAID_OUT = 162, O_STOCK_SEEN = 198,
       O_OTHER_SHOWN = 234, O_OTHER_PLAYED = 270, O_MY_PLAYED = 306, O_SEEN_BY_OTHER = 342,
       O_TRICK_LEAD = 378, O_MISSING = 414, O_COUNTS = 450, O_LEAD_RULE = 459,
       O_BLANCHE = 499, O_DECLARATIONS = 503, O_MISSING_ASKED = 677, O_COUNTED = 688,
       O_GAME = 712, O_TRICKS = 717, O_SIZE = 1605 };
/* the engine's phases (piquet.core.deal.Phase, in order) */
enum { PH_DEAL, PH_BLANCHE, PH_EXCHANGE, PH_LEFTOVERS, PH_APPOINT, PH_DECLARE, PH_PLAY,
       PH_OVER };

static inline float w_points(i64 n) { return (float)((double)(n < 300 ? n : 300) / 300.0); }
static inline float w_twelfths(i64 n) {
    double x = (double)n / 12.0;
    return (float)(x < 1.0 ? x : 1.0);
}

/* a claim's pips as a feature: a hundredth of them, at most 1 */
static inline float pips_feature(i64 cards) {
    double x = mask_pips(cards) / 100.0;
    return (float)(x < 1.0 ? x : 1.0);
}
static inline void w_plane(float *o, i64 mask) { bits_to_floats(o, mask); }

/* the phase of the decision (or the end) */
static int w_phase(const WGame *g) {
    if (g->over) return PH_OVER;
    switch (g->kind) {
    case A_DEAL: return PH_DEAL;
    case A_BLANCHE: return PH_BLANCHE;
    case A_DISCARD: return PH_EXCHANGE;
    case A_LEFTOVER: case A_NAME_SUIT: case A_NAME_CARD: return PH_LEFTOVERS;
    case A_APPOINT_SUIT: case A_APPOINT_CARD: return PH_APPOINT;
    case A_PLAY: return PH_PLAY;
    }
    return PH_DECLARE;
}

/* the cards of the runs counted by the winner of sequences of any suits with claim cards
 * (rules.h: any_suit_counted), each run's cards taken from the lowest suit up */
static i64 w_any_suit_held(const i64 *p, i64 hand, i64 claim) {
    i64 size = popcount(claim), top = top_rank(claim);
    Split best;
    any_suit_counted(hand, size * 256 + top, size, top, p, &best);
    i64 remaining = hand, held = 0;
    for (int k = 0; k < best.n; k++) {
        for (i64 i = best.runs[k][0] - best.runs[k][1] + 1; i <= best.runs[k][0]; i++)
            for (int t = 0; t < 4; t++) {
                i64 b = BIT(9 * t + i);
                if (remaining & b) {
                    held |= b;
                    remaining &= ~b;
                    break;
                }
            }
    }
    return held;
}

/* Write player's observation of game g into out: size floats, O_SIZE (the information
 * state) or O_TRICKS (the observation: the same without the tricks in order, the adapters'
 * observation tensor). Longer than a function should be (tests/test_sizes.py allows it): the
 * tensor written field by field in its layout's order, top to bottom. */
static void w_obs(const i64 *p, const WGame *g, int player, float *out, i64 out_size) {
    memset(out, 0, (size_t)out_size * sizeof(float));
    /* the game */
    if (g->format != WF_DEAL) { /* a single deal has no game: no scores */
        out[O_GAME] = 1.0f;
        out[O_GAME + 1] = w_points(g->score[player]);
        out[O_GAME + 2] = w_points(g->score[1 - player]);
    }
    out[O_GAME + 3] = w_points(p[P_TARGET]);
    i64 most = g->format == WF_GAME ? g->max_deals
               : g->format == WF_DEAL ? 1
                                      : p[P_PARTIE_DEALS] + (p[P_PARTIE_TIE_EXTRA] ? 2 : 0);
    if (g->ndeals) {
        double x = (double)g->ndeals / (double)most;
        out[O_GAME + 4] = (float)(x < 1.0 ? x : 1.0);
    }
    /* the deal: its rows walked once */
    const i64 *ps = g->flat + FLAT_PS;
    const i64 *tl = g->flat;
    int me = player == g->dealer ? 1 : 0; /* the role: the last deal's at the end */
    int other = 1 - me;
    i64 packet = p[P_N_PACKETS] == 1 ? p[P_PACKETS] : 0;
    i64 lead_kind = 0, lead_val = 0, look[2] = {0, 0}, disc_rows = 0, bl_n[2] = {-1, -1};
    i64 played[2] = {0, 0}, tricks[12][3], ntricks = 0, lead = -1, leader = 0;
    i64 mode = p[P_LEFTOVERS];
    int blanche_rows = 0;
    i64 dealt[2] = {0, 0};
    for (i64 k = 0; k < g->nch; k++) {
        i64 code = g->ch[k][0], v = g->ch[k][1];
        if (code == A_DEAL) packet = v;
        if (packet && !dealt[0])
            for (int pos = 0; pos < 24; pos++) dealt[(pos / packet) % 2] |= BIT(g->deck[pos]);
        switch (code) {
        case A_BLANCHE: {
            int bl0 = p[P_CARTE_BLANCHE] != 0 && is_blanche(dealt[0]);
            bl_n[blanche_rows == 0 && bl0 ? 0 : 1] = v;
            blanche_rows++;
            break;
        }
        case A_DISCARD: disc_rows++; break;
        case A_NAME_SUIT: case A_NAME_CARD:
            lead_kind = code == A_NAME_SUIT ? 1 : 2;
            lead_val = v;
            look[0] = look[1] = 1;
            break;
        case A_APPOINT_SUIT: case A_APPOINT_CARD:
            lead_kind = code == A_APPOINT_SUIT ? 1 : 2;
            lead_val = v;
            break;
        case A_LEFTOVER:
            if (mode == LEFT_TURNS_UP) look[0] = look[1] = v;
            else if (mode == LEFT_LOOKS) look[1] = v;
            break;
        case A_PLAY:
            if (lead < 0) {
                lead = v;
                played[leader] |= BIT(v);
            } else {
                tricks[ntricks][0] = leader;
                tricks[ntricks][1] = lead;
                tricks[ntricks][2] = v;
                played[1 - leader] |= BIT(v);
                ntricks++;
                if (follower_wins(lead, v)) leader = 1 - leader;
                lead = -1;
            }
            break;
        }
    }
    if (packet && !dealt[0])
        for (int pos = 0; pos < 24; pos++) dealt[(pos / packet) % 2] |= BIT(g->deck[pos]);
    i64 hands[2] = {ps[PS_HAND], ps[PS_HAND + 1]};
    i64 disc[2] = {ps[PS_DISC], ps[PS_DISC + 1]};
    i64 taken[2];
    for (int r = 0; r < 2; r++) taken[r] = (hands[r] | played[r]) & ~dealt[r];
    int exch_done = disc_rows >= 2;
    i64 size = p[P_DECK_SIZE];
    i64 n0 = popcount(taken[0]);
    i64 left_at = 24 + n0 + popcount(taken[1]);
    i64 leftovers = 0;
    if (exch_done)
        for (i64 i = left_at; i < size; i++) leftovers |= BIT(g->deck[i]);
    if ((mode == LEFT_NAMES_SUIT || mode == LEFT_NAMES_CARD) && exch_done && leftovers)
        look[1] = 1;
    /* the cards of elder's allotment he left, once he has exchanged */
    i64 unused = 0;
    int elder_done = disc_rows >= 2 || (disc_rows == 1 && !(bl_n[0] >= 0));
    if (elder_done)
        for (i64 i = 24 + n0; i < 24 + p[P_ELDER_MAX] && i < size; i++) unused |= BIT(g->deck[i]);
    i64 seen[2];
    for (int r = 0; r < 2; r++) {
        i64 s = r == 0 && (g->knobs & W_SEES_UNUSED) ? unused : 0;
        int sees_left = mode != LEFT_HIDDEN &&
                        (mode == LEFT_LOOKS && r == 0
                             ? look[1] && (ntricks > 0 || lead >= 0)
                             : look[r]);
        if (leftovers && sees_left) s |= leftovers;
        seen[r] = s & ~hands[r] & ~taken[r];
    }
    /* carte blanche: called by each holder, its number, its cards shown */
    i64 shown[2] = {0, 0};
    int bl[2];
    for (int r = 0; r < 2; r++) {
        bl[r] = packet && p[P_CARTE_BLANCHE] && is_blanche(dealt[r]);
        if (bl[r]) {
            out[O_BLANCHE + (r == me ? 0 : 1)] = 1.0f;
            if (bl_n[r] >= 0) out[O_BLANCHE + 2 + (r == me ? 0 : 1)] = w_twelfths(bl_n[r]);
        }
    }
    if (bl[0]) {
        int when = !p[P_BLANCHE_NUMBER] ? 1 : disc_rows >= 1; /* elder shows */
        if (when) shown[0] |= dealt[0];
    }
    if (bl[1]) {
        int when = !p[P_BLANCHE_NUMBER] ? disc_rows >= 1 : (bl_n[0] >= 0 ? disc_rows >= 2 : disc_rows >= 1);
        if (when) shown[1] |= dealt[1];
    }
    /* the declarations' dialog, from the rows: what each said, passed and answered, the
     * holdings the winner of a class showed, "which is missing" */
    {
        i64 claim_cards[3][2] = {{0, 0}, {0, 0}, {0, 0}};
        i64 claim_base[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
        int by_cards = p[P_POINT_BY_CARDS] != 0;
        for (i64 k = 0; k < g->nch; k++) {
            i64 code = g->ch[k][0], v = g->ch[k][1];
            if (code != A_DECLARE && code != A_PASS && code != A_ANSWER && code != A_QUESTION)
                continue;
            int r = (int)g->chrole[k];
            int side = r == me ? 0 : 1;
            int cls = code == A_DECLARE ? (int)(v & 3) : code == A_QUESTION ? 2 : (int)g->chcls[k];
            i64 base = O_DECLARATIONS + (cls * 2 + side) * 29;
            int winner = -1;
            i64 wcards = 0;
            if (code == A_DECLARE) {
                i64 cards = v >> 2;
                i64 size = popcount(cards), top = top_rank(cards);
                out[base] = 1.0f;
                if (cls == 0) {
                    int full = !(r == 0 && by_cards);
                    if (by_cards) out[base + 2 + (size < 12 ? size : 12)] = 1.0f;
                    if (!by_cards || full) out[base + 24] = pips_feature(cards);
                } else {
                    out[base + 2 + (size < 12 ? size : 12)] = 1.0f;
                    out[base + 15 + top - 6] = 1.0f;
                }
                claim_cards[cls][r] = cards;
                claim_base[cls][r] = base;
                if (r == 1) { winner = 1; wcards = cards; }
            } else if (code == A_PASS) {
                out[base + 1] = 1.0f;
            } else if (code == A_ANSWER) {
                out[base + 25 + v] = 1.0f;
                if (v == R_MAKING && claim_base[cls][0] >= 0) {
                    out[claim_base[cls][0] + 24] = pips_feature(claim_cards[cls][0]);
                }
                if (v == R_GOOD) { winner = 0; wcards = claim_cards[cls][0]; }
            } else if (v) {
                /* "which is missing?": asked by r of the winner of the sets' trios */
                out[O_MISSING_ASKED + side] = 1.0f;
                int holder = 1 - r;
                i64 hand = hands[holder] | played[holder];
                i64 cl = claim_cards[2][holder];
                i64 crank = 0;
                for (int c = 0; c < 36; c++)
                    if (cl >> c & 1) crank = c % 9 + 6;
                i64 ckey = set_key(p, popcount(cl), crank);
                for (i64 rank = 14; rank >= p[P_SET_MIN_RANK]; rank--) {
                    i64 trio = 0;
                    if (rank == crank) {
                        if (popcount(cl) == 3) trio = cl;
                    } else {
                        i64 held = hand & rank_mask((int)rank - 6);
                        if (popcount(held) == 3 && set_key(p, 3, rank) <= ckey) trio = held;
                    }
                    if (!trio) continue;
                    i64 missing = rank_mask((int)rank - 6) & ~trio;
                    if (disc[holder] & missing) {
                        for (int c = 0; c < 36; c++)
                            if (missing >> c & 1) out[O_MISSING + c] = 1.0f;
                        if (g->knobs & W_SHOW_MISSING) shown[holder] |= missing;
                    } else {
                        out[O_MISSING_ASKED + 2 + rank - 6] = 1.0f;
                    }
                }
            }
            if (winner >= 0) {
                /* the holdings counted, shown where the rule set shows that class */
                i64 hand = hands[winner] | played[winner];
                i64 held = wcards;
                int show = cls == 0 ? (g->knobs & W_SHOW_POINT) != 0
                         : cls == 1 ? (g->knobs & W_SHOW_SEQUENCES) != 0
                                    : (g->knobs & W_SHOW_SETS) != 0;
                if (cls == 2) {
                    i64 crank = 0;
                    for (int c = 0; c < 36; c++)
                        if (wcards >> c & 1) crank = c % 9 + 6;
                    i64 ckey = set_key(p, popcount(wcards), crank);
                    for (i64 rank = 14; rank >= p[P_SET_MIN_RANK]; rank--) {
                        if (rank == crank) continue;
                        i64 h = hand & rank_mask((int)rank - 6);
                        if (popcount(h) >= 3 && set_key(p, popcount(h), rank) <= ckey) held |= h;
                    }
                } else if (cls == 1 && p[P_SEQ_SAME_SUIT]) {
                    int suit = 0;
                    while (!(wcards & SUIT_MASK(suit))) suit++;
                    i64 local = hand >> (9 * suit) & 0x1FF, run = wcards >> (9 * suit) & 0x1FF;
                    for (;;) {
                        i64 grown = run | (((run << 1) | (run >> 1)) & local);
                        if (grown == run) break;
                        run = grown;
                    }
                    i64 rest = hand & ~(run << (9 * suit));
                    i64 size = popcount(wcards), top = 0;
                    for (int c = 0; c < 36; c++)
                        if (wcards >> c & 1) top = c % 9 + 6;
                    i64 ckey = size * 256 + top;
                    for (int s2 = 0; s2 < 4; s2++) {
                        i64 loc = rest >> (9 * s2) & 0x1FF;
                        int i = 8;
                        while (i >= 0) {
                            if (!(loc >> i & 1)) { i--; continue; }
                            int j = i;
                            while (j - 1 >= 0 && (loc >> (j - 1) & 1)) j--;
                            i64 length = i - j + 1;
                            if (length >= 3 && length * 256 + i + 6 <= ckey)
                                held |= ((BIT(length) - 1) << j) << (9 * s2);
                            i = j - 1;
                        }
                    }
                } else if (cls == 1) {
                    held = w_any_suit_held(p, hand, wcards);
                }
                if (show) shown[winner] |= held;
            }
        }
    }
    /* who acts, the phase, the packet */
    out[O_ROLE + me] = 1.0f;
    int phase = w_phase(g);
    out[O_PHASE + phase] = 1.0f;
    int acting = !g->over && g->to_move >= 0;
    if (acting) out[O_TO_ACT + (g->to_move == player ? 0 : 1)] = 1.0f;
    for (int k = 0; k < 6; k++)
        if (packet && DEAL_SIZES[k] == packet) out[O_PACKET + k] = 1.0f;
    int mine_now = acting && g->to_move == player && g->kind == A_DISCARD;
    i64 sel = mine_now ? g->sel : 0;
    i64 trick_lead = lead >= 0 ? BIT(lead) : 0;
    i64 mine = hands[me] | disc[me] | played[me];
    w_plane(out + O_HAND, hands[me]);
    w_plane(out + O_DEALT, dealt[me]);
    w_plane(out + O_DISCARDS, disc[me]);
    w_plane(out + O_TAKEN, taken[me]);
    w_plane(out + O_LAID_OUT, sel);
    w_plane(out + O_STOCK_SEEN, seen[me]);
    w_plane(out + O_OTHER_SHOWN, shown[other]);
    w_plane(out + O_OTHER_PLAYED, played[other]);
    w_plane(out + O_MY_PLAYED, played[me]);
    w_plane(out + O_SEEN_BY_OTHER, (shown[me] | seen[other]) & mine);
    w_plane(out + O_TRICK_LEAD, trick_lead);
    /* the counts */
    i64 stock = packet ? size - 24 - n0 - popcount(taken[1]) : 0;
    i64 won0 = ps[PS_WON0];
    i64 won[2] = {won0, ntricks - won0};
    i64 counts[9] = {popcount(disc[other]), stock, popcount(leftovers),
                     mine_now ? g->lo : 0, mine_now ? g->hi : 0, popcount(sel),
                     won[me], won[other], ntricks};
    for (int k = 0; k < 9; k++)
        if (counts[k]) out[O_COUNTS + k] = w_twelfths(counts[k]);
    if (lead_kind) out[O_LEAD_RULE + (lead_kind == 1 ? lead_val : 4 + lead_val)] = 1.0f;
    /* the counted events, in counting order */
    const i64 *ev = g->flat + FLAT_EV;
    for (i64 k = 0; k < tl[T_NEV]; k++) {
        int side = ev[3 * k] == me ? 0 : 1;
        out[O_COUNTED + side * 11 + ev[3 * k + 1]] += (float)((double)ev[3 * k + 2] / 300.0);
    }
    out[O_COUNTED + 22] = w_points(tl[me == 0 ? T0 : T1]);
    out[O_COUNTED + 23] = w_points(tl[me == 0 ? T1 : T0]);
    /* every trick in order */
    for (i64 k = 0; out_size == O_SIZE && k < ntricks; k++) {
        float *at = out + O_TRICKS + 74 * k;
        at[tricks[k][0] == me ? 0 : 1] = 1.0f;
        at[2 + tricks[k][1]] = 1.0f;
        at[38 + tricks[k][2]] = 1.0f;
    }
}


/* ---- the batch environment's step (piquet.fast.game.GameEnv) */
typedef struct {
    const i64 *p;
    WGame *g;
    const i64 *actions;
    float *obs;        /* (n, obs_size), or NULL: no observations */
    i64 obs_size;      /* O_SIZE or O_TRICKS */
    uint8_t *masks;    /* (n, N_IDS) */
    double *rewards;   /* player 0's */
    uint8_t *term, *trunc, *ended;
    float *final_obs;  /* (n, obs_size): the ended game's last observation, for its last mover */
    double *returns;   /* (n, 2): the ended game's returns of players 0 and 1 */
    i64 *facts;        /* (n, 4): the ended game's scores of players 0 and 1, its winner (-1
                        * for none) and its deals played */
    i64 *status;
    i64 *last_mover;
} WEnv;

static inline void w_mask(const WGame *g, uint8_t *m) {
    const BitTables *t = bit_tables();
    for (int k = 0; k < 60; k++) memcpy(m + 8 * k, t->b[(g->legal[k >> 3] >> (8 * (k & 7))) & 0xFF], 8);
}

/* a finished game's returns (player 0's, player 1's): a game +1 / -1, a partie the
 * settlement, 0 for a draw or a cut-off game */
static inline double w_return0(const WGame *g) {
    if (g->format == WF_DEAL) return (double)(g->deal_pts[0] - g->deal_pts[1]);
    if (g->winner < 0) return 0.0;
    double v = g->format == WF_PARTIE ? (double)g->settled : 1.0;
    return g->winner == 0 ? v : -v;
}

/* the next game of a row: seeded from the row's own generator */
static void w_again(const i64 *p, WGame *g) {
    u64 seed = (u64)rand_below(&g->rng, (i64)1 << 62);
    w_reset(p, g, seed, g->format, g->max_deals, g->knobs);
}

static void w_env_rows(const WEnv *e, i64 lo, i64 hi, int stepping) {
    for (i64 i = lo; i < hi; i++) {
        WGame *g = &e->g[i];
        if (stepping) {
            e->rewards[i] = 0.0;
            e->term[i] = e->trunc[i] = e->ended[i] = 0;
            e->last_mover[i] = g->to_move;
            e->status[i] = w_step(e->p, g, e->actions[i]);
            if (g->over) {
                double r0 = w_return0(g);
                e->rewards[i] = r0;
                e->term[i] = !g->truncated;
                e->trunc[i] = (uint8_t)g->truncated;
                e->ended[i] = 1;
                e->returns[2 * i] = r0;
                e->returns[2 * i + 1] = -r0;
                e->facts[4 * i] = g->score[0];
                e->facts[4 * i + 1] = g->score[1];
                e->facts[4 * i + 2] = g->winner;
                e->facts[4 * i + 3] = g->ndeals;
                if (e->obs)
                    w_obs(e->p, g, (int)e->last_mover[i], e->final_obs + i * e->obs_size,
                          e->obs_size);
                w_again(e->p, g);
            }
        }
        if (e->obs) w_obs(e->p, g, (int)g->to_move, e->obs + i * e->obs_size, e->obs_size);
        w_mask(g, e->masks + i * N_IDS);
    }
}


/* a legal id of row g drawn uniformly (the generator rng): for random play and benchmarks */
static i64 w_random_legal(const WGame *g, u64 *rng) {
    int total = 0;
    for (int k = 0; k < 8; k++) total += __builtin_popcountll(g->legal[k]);
    if (!total) return -1;
    i64 r = rand_below(rng, total);
    for (int k = 0; k < 8; k++) {
        int c = __builtin_popcountll(g->legal[k]);
        if (r < c) {
            u64 w = g->legal[k];
            for (i64 j = 0; j < r; j++) w &= w - 1;
            return 64 * k + __builtin_ctzll(w);
        }
        r -= c;
    }
    return -1;
}

#endif
