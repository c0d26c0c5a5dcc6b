/* The batch environment's core: N games stepped together (piquet.fast.batch).  Each game is
 * a row of arrays: its pack, its state (score, dealer, deal number), its generator and the
 * kernel's resumable board of the deal in progress; the agent plays the cards, the policy
 * every other choice.  Called without the GIL: threads step slices of the rows at once. */
#ifndef PIQUET_BATCH_H
#define PIQUET_BATCH_H

#include "kernel.h"

#define OBS_SIZE (36 * 4 + 9)
enum { FORMAT_GAME, FORMAT_PARTIE };
enum { G_SCORE0, G_SCORE1, G_DEALER, G_DEAL_NO, G_EXTRA, G_TO_PLAY };
#define G_SIZE 6

/* a card mask as 36 values 0 or 1 (byte by byte, from tables: the observation is written
 * at every step of every game) */
typedef struct {
    float f[256][8];
    uint8_t b[256][8];
} BitTables;

static const BitTables *bit_tables(void) {
    static BitTables t;
    static int ready = 0; /* filled at import (module init), before any thread runs */
    if (!ready) {
        for (int v = 0; v < 256; v++)
            for (int k = 0; k < 8; k++) {
                t.f[v][k] = (float)(v >> k & 1);
                t.b[v][k] = (uint8_t)(v >> k & 1);
            }
        ready = 1;
    }
    return &t;
}

static inline void bits_to_floats(float *o, i64 mask) {
    const BitTables *t = bit_tables();
    for (int k = 0; k < 4; k++) memcpy(o + 8 * k, t->f[(mask >> (8 * k)) & 0xFF], 8 * sizeof(float));
    memcpy(o + 32, t->f[(mask >> 32) & 0xF], 4 * sizeof(float));
}

static inline void bits_to_bytes(uint8_t *o, i64 mask) {
    const BitTables *t = bit_tables();
    for (int k = 0; k < 4; k++) memcpy(o + 8 * k, t->b[(mask >> (8 * k)) & 0xFF], 8);
    memcpy(o + 32, t->b[(mask >> 32) & 0xF], 4);
}

/* the rows of N games */
typedef struct {
    const i64 *p;
    i64 fmt, policy;
    i64 (*decks)[36];
    i64 (*st)[G_SIZE];
    u64 *rngs;
    i64 (*tl)[T_SIZE];
    i64 (*ev)[MAX_EVENTS][3];
    i64 (*tr)[MAX_TRACE][2];
    i64 (*res)[3][3];
    i64 (*held)[MAX_HELD][3];
    i64 (*deferred)[3][3];
    i64 (*ps)[PS_SIZE];
    i64 (*info)[I_SIZE];
    float (*obs)[OBS_SIZE];
    uint8_t (*masks)[36];
    double *rewards;
    uint8_t *done;
    float (*final_obs)[OBS_SIZE]; /* step_rows: an ended game's last observation (else NULL) */
    i64 (*facts)[4];              /* step_rows: its scores of players 0 and 1, winner, deals */
} Games;

static void game_board(const Games *g, i64 i, Board *b) {
    static const i64 no_choices[1][2] = {{0, 0}};
    b->p = g->p;
    b->policy = g->policy;
    b->rng = &g->rngs[i];
    b->tl = g->tl[i];
    b->ev = g->ev[i];
    b->tr = g->tr[i];
    b->res = g->res[i];
    b->held = g->held[i];
    b->deferred = g->deferred[i];
    b->ps = g->ps[i];
    b->info = g->info[i];
    b->fz = no_choices;
    b->nfz = 0;
    b->stop = 1;
}

/* deal game i's pack and run it to its first card (or its end); the dealer is younger */
static void g_deal(const Games *g, i64 i) {
    i64 *st = g->st[i];
    i64 d = st[G_DEALER];
    i64 s_e = d == 1 ? st[G_SCORE0] : st[G_SCORE1];
    i64 s_y = d == 1 ? st[G_SCORE1] : st[G_SCORE0];
    Board b = {.stop_all = 0};
    game_board(g, i, &b);
    run_deal(&b, g->decks[i], s_e, s_y, g->fmt == FORMAT_GAME ? g->p[P_TARGET] : 0);
}

/* what `player` (seat 0 elder, 1 younger in the deal) sees: the observation's layout
 * (piquet.fast.batch.OBS_SIZE); lead < 0: no card led to this trick */
static void write_obs(const Games *g, i64 i, float *o, i64 player, i64 hand, i64 dis, i64 pl,
                      i64 lead, i64 trick, i64 won, i64 score0, i64 score1) {
    const i64 *p = g->p;
    const i64 *st = g->st[i];
    i64 seat = player == st[G_DEALER] ? 1 : 0;
    bits_to_floats(o, hand);
    bits_to_floats(o + 36, dis);
    bits_to_floats(o + 72, pl);
    memset(o + 108, 0, 36 * sizeof(float));
    if (lead >= 0) o[108 + lead] = 1.0f;
    o[144] = seat == 0 ? 1.0f : 0.0f;
    o[145] = (float)((double)trick / 12.0);
    o[146] = (float)((double)won / 12.0);
    o[147] = (float)((double)(trick - won) / 12.0);
    i64 mine = seat == 0 ? score0 : score1;
    i64 theirs = seat == 0 ? score1 : score0;
    o[148] = (float)((double)mine / 100.0);
    o[149] = (float)((double)theirs / 100.0);
    o[150] = (float)((double)st[G_SCORE0 + player] / 100.0);
    o[151] = (float)((double)st[G_SCORE1 - player] / 100.0);
    i64 deals = p[P_PARTIE_DEALS] > 1 ? p[P_PARTIE_DEALS] : 1;
    o[152] = (float)((double)st[G_DEAL_NO] / (double)deals);
}

/* game i has ended: its last mover's observation as the board stands at the end (the deal
 * that ended it: the hand and discards left, the cards played, the card led to a trick
 * left unfinished, the tricks, the deal's points, the game scores settled) and its facts */
static void g_final(const Games *g, i64 i, i64 winner) {
    const i64 *st = g->st[i];
    const i64 *ps = g->ps[i];
    if (g->facts) {
        g->facts[i][0] = st[G_SCORE0];
        g->facts[i][1] = st[G_SCORE1];
        g->facts[i][2] = winner;
        g->facts[i][3] = st[G_DEAL_NO];
    }
    if (!g->final_obs) return;
    i64 player = st[G_TO_PLAY];
    i64 seat = player == st[G_DEALER] ? 1 : 0;
    i64 trick = __builtin_popcountll((u64)ps[PS_PLAYED]) / 2; /* the tricks finished */
    i64 won0 = ps[PS_WON0];
    i64 lead = ps[PS_HALF] ? ps[PS_LED] : -1;
    write_obs(g, i, g->final_obs[i], player, ps[PS_HAND + seat], ps[PS_DISC + seat],
              ps[PS_PLAYED], lead, trick, seat == 0 ? won0 : trick - won0, g->tl[i][T0],
              g->tl[i][T1]);
}

/* game i after its deal went on: stopped at a card, write what the player to play sees;
 * else settle the deal (and the game), deal the next and go on */
static void g_advance(const Games *g, i64 i) {
    const i64 *p = g->p;
    i64 *st = g->st[i];
    for (;;) {
        i64 *inf = g->info[i];
        if (inf[I_STATUS] == STOPPED) {
            i64 seat = inf[I_SEAT];
            i64 player = seat == 1 ? st[G_DEALER] : 1 - st[G_DEALER];
            st[G_TO_PLAY] = player;
            bits_to_bytes(g->masks[i], inf[I_ALLOWED]);
            write_obs(g, i, g->obs[i], player, inf[I_HAND], inf[I_DISCARDS], inf[I_PLAYED],
                      inf[I_LEAD], inf[I_TRICK], inf[I_WON], inf[I_SCORE0], inf[I_SCORE1]);
            return;
        }
        i64 pts_e = g->tl[i][T0], pts_y = g->tl[i][T1], reached = g->tl[i][T_REACHED];
        /* the deal is over: settle it */
        i64 d = st[G_DEALER];
        st[G_SCORE0] += d == 1 ? pts_e : pts_y;
        st[G_SCORE1] += d == 1 ? pts_y : pts_e;
        i64 a = st[G_SCORE0], bb = st[G_SCORE1];
        i64 winner = -2; /* -2: the game goes on; -1: a drawn partie */
        if (g->fmt == FORMAT_GAME) {
            if (reached >= 0) winner = reached == 0 ? 1 - d : d;
            else if ((a > bb ? a : bb) >= p[P_TARGET] && a != bb) winner = a > bb ? 0 : 1;
        } else if (st[G_DEAL_NO] >= p[P_PARTIE_DEALS] + st[G_EXTRA]) {
            if (a != bb) winner = a > bb ? 0 : 1;
            else if (p[P_PARTIE_TIE_EXTRA] && st[G_EXTRA] == 0) st[G_EXTRA] = 2;
            else winner = -1;
        }
        if (winner > -2) {
            i64 value;
            if (g->fmt == FORMAT_GAME || winner == -1) {
                value = winner == -1 ? 0 : 1;
            } else {
                i64 ws = winner == 0 ? a : bb, ls = winner == 0 ? bb : a;
                value = settlement(p[P_SETTLEMENT_PARLETT] != 0, ws, ls);
            }
            g->rewards[i] += (double)(winner == 0 ? value : -value);
            g->done[i] = 1;
            g_final(g, i, winner);
            return;
        }
        st[G_DEALER] = 1 - d;
        st[G_DEAL_NO]++;
        shuffle_pack(p, &g->rngs[i], g->decks[i]);
        g_deal(g, i);
    }
}

static void g_new_game(const Games *g, i64 i) {
    i64 *st = g->st[i];
    for (int k = 0; k < G_SIZE; k++) st[k] = 0;
    st[G_DEALER] = rand_below(&g->rngs[i], 2);
    st[G_DEAL_NO] = 1;
    shuffle_pack(g->p, &g->rngs[i], g->decks[i]);
}

/* a new game run to its first card (a game decided before any card is played gives the
 * agent no choice: another is dealt) */
static void g_fresh_game(const Games *g, i64 i) {
    for (;;) {
        g_new_game(g, i);
        g->done[i] = 0;
        g->rewards[i] = 0.0;
        g_deal(g, i);
        g_advance(g, i);
        if (!g->done[i]) return;
    }
}

static void reset_rows(const Games *g, i64 lo, i64 hi) {
    for (i64 i = lo; i < hi; i++) {
        g_fresh_game(g, i);
        g->done[i] = 0;
    }
}

static void step_rows(const Games *g, const i64 *actions, i64 lo, i64 hi) {
    for (i64 i = lo; i < hi; i++) {
        g->rewards[i] = 0.0;
        g->done[i] = 0;
        Board b = {.stop_all = 0};
        game_board(g, i, &b);
        resume_deal(&b, actions[i]);
        g_advance(g, i);
        if (g->done[i]) {
            double reward = g->rewards[i];
            g_fresh_game(g, i);
            g->rewards[i] = reward;
            g->done[i] = 1;
        }
    }
}

#endif
