/* The leaf rules of Piquet on card masks, in one compiled copy.
 *
 * Every compiled user (the deal kernel, the double-dummy solver, the batch environment,
 * the play-outs) reads the rules here and nowhere else: the parameter vector's slots
 * (piquet.fast.params generates the same list from Rules's fields and checks it against
 * PQ_PARAM_NAMES at import), the claims of a hand and what a class's winner counts, the
 * pique and repique timeline, whose carte blanche counts, the playable cards, the trick's
 * winner, the play's scoring, the last trick, the cards and capot, and the Rubicon
 * settlement.  The readable reference
 * is the engine (piquet.core); the differential tests hold the two together.
 *
 * Cards are indices 0..35, suit * 9 + rank (rank 0 = six .. 8 = ace); a hand is a mask.
 */
#ifndef PIQUET_RULES_H
#define PIQUET_RULES_H

#include <stdint.h>

typedef int64_t i64;
typedef uint64_t u64;

/* ---- the parameter vector: one slot list, in this order (piquet.fast.params) */
#define PQ_PARAMS(X) \
    X(DECK_SIZE) X(N_PACKETS) X(PACKETS0) X(PACKETS1) X(PACKETS2) X(PACKETS3) X(PACKETS4) \
    X(PACKETS5) X(BLANCHE_VALUE) X(BOTH_BLANCHE_SCORE) X(BLANCHE_NUMBER) X(ELDER_MAX) \
    X(ELDER_MIN) X(YOUNGER_MIN) X(YOUNGER_MAX) X(LEFTOVERS) X(POINT_BY_CARDS) X(POINT_TENS) \
    X(SEQ_SAME_SUIT) X(N_SEQ_VALUES) X(SEQ_VALUES0) X(SEQ_VALUES1) X(SEQ_VALUES2) \
    X(SEQ_VALUES3) X(SEQ_VALUES4) X(SEQ_VALUES5) X(SEQ_VALUES6) X(SET_MIN_RANK) \
    X(TRIO_VALUE) X(QUATORZE_VALUE) X(QUATORZE_BEATS_TRIO) X(YOUNGER_AFTER_LEAD) \
    X(ASK_MISSING) X(PLAY_SCORING) X(LEAD_VALUE) X(WIN_VALUE) X(LAST_BONUS) X(LAST_TENTH_BONUS) X(CARDS_BONUS) \
    X(CAPOT_BONUS) X(PIQUE_THRESHOLD) X(REPIQUE_BONUS) X(PIQUE_BONUS) X(PIQUE_ELDER_ONLY) \
    X(PIQUE_FIRST_CARD) X(TARGET) X(ENDS_MID_DEAL) X(STOCK_SIZE) X(PARTIE_DEALS) \
    X(PARTIE_TIE_EXTRA) X(SETTLEMENT_PARLETT) X(CARTE_BLANCHE) X(YOUNGER_BARS) \
    X(PIQUE_BY_CARDS) X(APPOINT_LACKED) \
    /* the solver's objective, after the rule set's slots */ \
    X(MODE) X(REM0) X(REM1) X(BASE0) X(BASE1) X(SETTLE_CLASSIC) X(RACE_BONUS) \
    X(TABLE_W)

#define PQ_ENUM(name) P_##name,
enum { PQ_PARAMS(PQ_ENUM) P_COUNT };
#undef PQ_ENUM
#define P_PACKETS P_PACKETS0
#define P_SEQ_VALUES P_SEQ_VALUES0

/* codes of enumerated knobs */
enum { LEFT_HIDDEN, LEFT_NAMES_SUIT, LEFT_NAMES_CARD, LEFT_TURNS_UP, LEFT_LOOKS };
enum { PS_TENTH_CARDS, PS_WINNER_TENTHS, PS_LEADS_AND_WINS };
/* score kinds, in the order of piquet.core.scoring.Kind */
enum { K_BLANCHE, K_POINT, K_SEQUENCES, K_SETS, K_LEAD, K_TRICK, K_LAST, K_CARDS, K_CAPOT,
       K_REPIQUE, K_PIQUE };

#define MAX_CLAIMS 64
#define SUIT_MASK(s) ((i64)0x1FF << (9 * (s)))
#define BIT(c) ((i64)1 << (c))
#define FULL36 (((i64)1 << 36) - 1)
#define SIXES (1LL | 1LL << 9 | 1LL << 18 | 1LL << 27)

static inline int popcount(i64 x) { return __builtin_popcountll((u64)x); }

/* the pack's cards */
static inline i64 full_pack(const i64 *p) { return p[P_DECK_SIZE] == 36 ? FULL36 : FULL36 & ~SIXES; }

static inline int is_tenth(i64 card) { return card % 9 >= 4; }

/* a hand of no court card */
static inline int is_blanche(i64 mask) {
    i64 courts = 0;
    for (int s = 0; s < 4; s++) courts |= (i64)(0x7 << 5) << (9 * s);
    return (mask & courts) == 0;
}

/* whose carte blanche counts (Rules.blanche_counted), elder's (*c0) and younger's (*c1),
 * when each holds one (bl0, bl1) or not: both, neither, or younger's alone */
static inline void blanche_counted(const i64 *p, int bl0, int bl1, int *c0, int *c1) {
    if (!p[P_CARTE_BLANCHE]) {
        *c0 = *c1 = 0;
    } else if (bl0 && bl1) {
        *c0 = !p[P_YOUNGER_BARS] && p[P_BOTH_BLANCHE_SCORE];
        *c1 = p[P_YOUNGER_BARS] || p[P_BOTH_BLANCHE_SCORE];
    } else {
        *c0 = bl0;
        *c1 = bl1;
    }
}

/* ---- the declarations (piquet.core.declarations) */
static const i64 PIPS[9] = {6, 7, 8, 9, 10, 10, 10, 10, 11};

/* the pips of a set of cards (a mask) */
static inline i64 mask_pips(i64 mask) {
    i64 total = 0;
    for (u64 m = (u64)mask; m; m &= m - 1) total += PIPS[__builtin_ctzll(m) % 9];
    return total;
}

static inline i64 rank_mask(int r) { return BIT(r) | BIT(9 + r) | BIT(18 + r) | BIT(27 + r); }

/* the highest rank (6 = six .. 14 = ace) of a set of cards; 0 for none */
static inline i64 top_rank(i64 cards) {
    for (int r = 8; r >= 0; r--)
        if (cards & rank_mask(r)) return r + 6;
    return 0;
}

static inline i64 seq_value(const i64 *p, i64 length) {
    if (length < 3) return 0;
    i64 idx = length < 2 + p[P_N_SEQ_VALUES] ? length : 2 + p[P_N_SEQ_VALUES];
    return p[P_SEQ_VALUES + idx - 3];
}

/* a set's key: by size first where a quatorze beats any trio, else by rank */
static inline i64 set_key(const i64 *p, i64 size, i64 rank) {
    return p[P_QUATORZE_BEATS_TRIO] ? size * 256 + rank : rank * 256 + size;
}

/* a claim of class cls (0 point, 1 sequence, 2 set) is worth */
static inline i64 claim_score(const i64 *p, int cls, i64 size, i64 pips) {
    if (cls == 0) return p[P_POINT_TENS] ? (pips + 5) / 10 : size;
    if (cls == 1) return seq_value(p, size);
    return size == 4 ? p[P_QUATORZE_VALUE] : p[P_TRIO_VALUE];
}

/* Fill out[k] = (cards, key, size, top, pips) with every claim of class cls the hand may
 * show; return how many.  A key is 256 * first + second of the engine's key tuple. */
static int claims(i64 hand, int cls, const i64 *p, i64 (*out)[5]) {
    int n = 0;
    if (cls == 0) {
        int by_cards = p[P_POINT_BY_CARDS] != 0;
        for (int s = 0; s < 4; s++) {
            i64 local = hand >> (9 * s) & 0x1FF;
            i64 sub = 0, k = 0, pips = 0;
            int start = n + popcount(local) - 1;
            for (int i = 8; i >= 0; i--) {
                if (local >> i & 1) {
                    sub |= BIT(i);
                    k++;
                    pips += PIPS[i];
                    int row = start - (int)(k - 1);
                    out[row][0] = sub << (9 * s);
                    out[row][1] = by_cards ? k * 256 + pips : pips * 256;
                    out[row][2] = k;
                    out[row][3] = s;
                    out[row][4] = pips;
                }
            }
            n += (int)k;
        }
        return n;
    }
    if (cls == 1) {
        int same_suit = p[P_SEQ_SAME_SUIT] != 0;
        int suits = same_suit ? 4 : 1;
        for (int s = 0; s < suits; s++) {
            i64 local = same_suit ? hand >> (9 * s) & 0x1FF
                                  : (hand | hand >> 9 | hand >> 18 | hand >> 27) & 0x1FF;
            int i = 8;
            while (i >= 0) {
                if (!(local >> i & 1)) { i--; continue; }
                int j = i;
                while (j - 1 >= 0 && (local >> (j - 1) & 1)) j--;
                int low = j;
                for (int top = i; top > low + 1; top--) {
                    for (int ln = top - low + 1; ln > 2; ln--) {
                        i64 run = ((BIT(ln) - 1)) << (top - ln + 1);
                        i64 cards = 0;
                        if (same_suit) {
                            cards = run << (9 * s);
                        } else {
                            for (int r = top - ln + 1; r <= top; r++)
                                for (int t = 0; t < 4; t++) {
                                    i64 b = BIT(9 * t + r);
                                    if (hand & b) { cards |= b; break; }
                                }
                        }
                        out[n][0] = cards;
                        out[n][1] = (i64)ln * 256 + top + 6;
                        out[n][2] = ln;
                        out[n][3] = top + 6;
                        out[n][4] = 0;
                        n++;
                    }
                }
                i = j - 1;
            }
        }
        return n;
    }
    for (i64 rank = 14; rank >= p[P_SET_MIN_RANK]; rank--) {
        i64 held = hand & rank_mask((int)rank - 6);
        int c = popcount(held);
        if (c < 3) continue;
        for (int variant = 0; variant < (c == 4 ? 2 : 1); variant++) {
            i64 cards = held;
            i64 size = c;
            if (variant == 1) {
                for (int t = 3; t >= 0; t--) {
                    i64 b = BIT(9 * t + rank - 6);
                    if (held & b) { cards = held & ~b; break; }
                }
                size = 3;
            }
            out[n][0] = cards;
            out[n][1] = set_key(p, size, rank);
            out[n][2] = size;
            out[n][3] = rank;
            out[n][4] = 0;
            n++;
        }
    }
    return n;
}

/* The best split of packed rank counts (three bits a rank) into disjoint cross-suit runs,
 * each of key at most limit: the split that counts most (core.declarations: the best
 * split).  split_choice makes one step of it: its lowest rank's card left out of every
 * run (0) or the lowest run taken, of the length returned; *total: what the best split
 * counts.  split_total is the count alone; split_runs the runs, step by step. */
static i64 split_total(i64 packed, i64 limit, const i64 *p);

/* always inlined, so that split_total is the one recursive function (the count is a
 * quarter of a du Coeur deal's work in the kernel) */
__attribute__((always_inline)) static inline int split_choice(i64 packed, i64 limit, const i64 *p,
                                                             int *low_out, i64 *total) {
    int low = 0;
    while (!((packed >> (3 * low)) & 7)) low++;
    i64 best = split_total(packed - ((i64)1 << (3 * low)), limit, p);
    int chosen = 0, length = 0;
    i64 run = 0;
    while (low + length < 9 && ((packed >> (3 * (low + length))) & 7)) {
        run += (i64)1 << (3 * (low + length));
        length++;
        if (length >= 3) {
            if ((i64)length * 256 + low + length - 1 + 6 > limit) break;
            i64 t = seq_value(p, length) + split_total(packed - run, limit, p);
            if (t > best) {
                best = t;
                chosen = length;
            }
        }
    }
    *low_out = low;
    *total = best;
    return chosen;
}

static i64 split_total(i64 packed, i64 limit, const i64 *p) {
    if (packed == 0) return 0;
    int low;
    i64 total;
    split_choice(packed, limit, p, &low, &total);
    return total;
}

/* the runs of a split: (top rank bit, length), at most six */
typedef struct {
    i64 total;
    int n;
    i64 runs[6][2];
} Split;

/* the best split's runs, lowest first, after the out->n runs already there */
static void split_runs(i64 packed, i64 limit, const i64 *p, Split *out) {
    while (packed && out->n < 6) {
        int low;
        i64 total;
        int length = split_choice(packed, limit, p, &low, &total);
        if (!length) {
            packed -= (i64)1 << (3 * low);
            continue;
        }
        out->runs[out->n][0] = low + length - 1;
        out->runs[out->n][1] = length;
        out->n++;
        for (int i = low; i < low + length; i++) packed -= (i64)1 << (3 * i);
    }
}

/* sequences in any suits: what the winner of the class counts with his claim (size cards
 * up to top, key): the hand's best split, or the claim kept whole with the best split of
 * the rest where that counts as much (core.declarations.counted); where out is given, the
 * runs counted */
static i64 any_suit_counted(i64 hand, i64 key, i64 size, i64 top, const i64 *p, Split *out) {
    i64 packed = 0;
    for (int i = 0; i < 9; i++) packed |= (i64)popcount(hand & rank_mask(i)) << (3 * i);
    i64 value = split_total(packed, key, p);
    i64 low = top - 6 - size + 1, run = 0;
    for (i64 i = low; i < low + size; i++) run += (i64)1 << (3 * i);
    i64 kept = seq_value(p, size) + split_total(packed - run, key, p);
    int whole = kept >= value;
    if (out) {
        out->total = whole ? kept : value;
        out->n = 0;
        if (whole) {
            out->runs[0][0] = top - 6;
            out->runs[0][1] = size;
            out->n = 1;
        }
        split_runs(whole ? packed - run : packed, key, p, out);
    }
    return whole ? kept : value;
}

/* What the winner of class cls with this claim counts; *trio: whether a trio is among the
 * holdings counted (sets: the other may ask which card is missing). */
static i64 counted(i64 hand, int cls, i64 cards, i64 key, i64 size, i64 top, i64 pips,
                   const i64 *p, int *trio) {
    *trio = 0;
    if (cls == 0) return claim_score(p, 0, size, pips);
    if (cls == 2) {
        i64 total = claim_score(p, 2, size, 0);
        *trio = size == 3;
        for (i64 rank = 14; rank >= p[P_SET_MIN_RANK]; rank--) {
            if (rank == top) continue;
            int c = popcount(hand & rank_mask((int)rank - 6));
            if (c >= 3 && set_key(p, c, rank) <= key) {
                total += claim_score(p, 2, c, 0);
                if (c == 3) *trio = 1;
            }
        }
        return total;
    }
    if (p[P_SEQ_SAME_SUIT]) {
        /* the run the claim was declared from is one sequence: its undeclared rest is sunk */
        int suit = 0;
        while (!((cards >> suit) & 0x1FF)) suit += 9;
        i64 local = hand >> suit & 0x1FF;
        i64 run = cards >> suit & 0x1FF;
        for (;;) {
            i64 grown = run | (((run << 1) | (run >> 1)) & local);
            if (grown == run) break;
            run = grown;
        }
        i64 rest = hand & ~(run << suit);
        i64 total = seq_value(p, size);
        for (int s = 0; s < 4; s++) {
            local = rest >> (9 * s) & 0x1FF;
            int i = 8;
            while (i >= 0) {
                if (!(local >> i & 1)) { i--; continue; }
                int j = i;
                while (j - 1 >= 0 && (local >> (j - 1) & 1)) j--;
                i64 length = i - j + 1;
                if (length >= 3 && length * 256 + i + 6 <= key) total += seq_value(p, length);
                i = j - 1;
            }
        }
        return total;
    }
    return any_suit_counted(hand, key, size, top, p, NULL);
}

/* ---- the scoring timeline (piquet.core.scoring.Tally.add): the pique and repique.
 * seat counted pts for kind, going from before to after points while the other holds
 * other; *open says whether a pique can still be made.  Returns the kind of the bonus
 * made (K_REPIQUE, K_PIQUE; its points, maybe 0, in *bonus), else -1; closes *open once a
 * pique cannot be made any more. */
static inline int pique_bonus(const i64 *p, int seat, int kind, i64 before, i64 after,
                              i64 other, i64 *open, i64 *bonus) {
    *bonus = 0;
    if (!*open) return -1;
    i64 th = p[P_PIQUE_THRESHOLD];
    if (other == 0 && before < th && th <= after) {
        *open = 0;
        if (kind <= K_SETS) {
            *bonus = p[P_REPIQUE_BONUS];
            return K_REPIQUE;
        }
        if ((kind <= K_LAST || (p[P_PIQUE_BY_CARDS] && kind <= K_CAPOT)) &&
            !(p[P_PIQUE_ELDER_ONLY] && seat == 1)) {
            *bonus = p[P_PIQUE_BONUS];
            return K_PIQUE;
        }
        return -1;
    }
    if (other > 0 || after >= th) *open = 0;
    return -1;
}

/* the second card of the first trick closes the pique where it must be made by elder's
 * first card at the latest (Rules.pique_by_first_card) */
static inline void pique_at_card(const i64 *p, i64 trick, i64 *open) {
    if (trick == 0 && p[P_PIQUE_FIRST_CARD]) *open = 0;
}

/* ---- the play (piquet.core.play.play) */
/* the cards a seat may play: follow suit; elder's first lead bound by a named lead
 * (lead_kind 1: a suit, 2: a card, lead_val which) */
static inline i64 playable(i64 hand, i64 lead, i64 lead_kind, i64 lead_val) {
    if (lead >= 0) {
        i64 same = hand & SUIT_MASK(lead / 9);
        return same ? same : hand;
    }
    if (lead_kind == 1) {
        i64 same = hand & SUIT_MASK(lead_val);
        return same ? same : hand;
    }
    if (lead_kind == 2 && (hand >> lead_val & 1)) return BIT(lead_val);
    return hand;
}

/* the card played to the lead wins the trick */
static inline int follower_wins(i64 led, i64 card) { return card / 9 == led / 9 && card > led; }

/* what leading a card counts for the leader (a scoring lead counts LEAD_VALUE) */
static inline i64 lead_points(const i64 *p, i64 card) {
    i64 sc = p[P_PLAY_SCORING];
    int scores = sc == PS_LEADS_AND_WINS || (sc == PS_TENTH_CARDS && is_tenth(card));
    return scores ? p[P_LEAD_VALUE] : 0;
}

/* what the trick's winner counts for it (beyond the lead): a scoring win counts WIN_VALUE
 * (under winner-tenths, each card of ten or higher in the trick) */
static inline i64 trick_points(const i64 *p, i64 led, i64 card) {
    i64 sc = p[P_PLAY_SCORING];
    int fw = follower_wins(led, card);
    if (sc == PS_LEADS_AND_WINS) return fw * p[P_WIN_VALUE];
    if (sc == PS_TENTH_CARDS) return (fw && is_tenth(card)) * p[P_WIN_VALUE];
    return (is_tenth(led) + is_tenth(card)) * p[P_WIN_VALUE];
}

/* every card scores alike in the play (each lead and each trick the same, the last trick's
 * bonus whatever card wins it): a tenth card and a lower one are then interchangeable */
static inline int cards_alike(const i64 *p) {
    return p[P_PLAY_SCORING] == PS_LEADS_AND_WINS && p[P_LAST_BONUS] == p[P_LAST_TENTH_BONUS];
}

/* the last trick's bonus, by its winning card */
static inline i64 last_points(const i64 *p, i64 win_card) {
    return is_tenth(win_card) ? p[P_LAST_TENTH_BONUS] : p[P_LAST_BONUS];
}

/* the cards or capot, from the tricks elder won: the seat (-1 none), kind and points */
static inline int cards_result(const i64 *p, i64 won0, int *kind, i64 *pts) {
    i64 won1 = 12 - won0;
    if (won0 == 12 || won1 == 12) {
        *kind = K_CAPOT;
        *pts = p[P_CAPOT_BONUS];
        return won0 == 12 ? 0 : 1;
    }
    *kind = K_CARDS;
    *pts = p[P_CARDS_BONUS];
    if (won0 > won1) return 0;
    if (won1 > won0) return 1;
    return -1;
}

/* ---- the Rubicon partie's settlement: what the winner (ws points) wins from the loser
 * (ls points); a loser under 100 is rubiconed */
static inline i64 settlement(int parlett, i64 ws, i64 ls) {
    if (parlett) return ls < 100 ? 100 + ws + ls : 100 + ws - ls;
    return (ls < 100 && ws >= 100) ? ws + ls : ws - ls;
}

/* ---- the generator: xorshift64*, a number in range(n) */
static inline i64 rand_below(u64 *rng, i64 n) {
    u64 x = rng[0];
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng[0] = x;
    u64 r = (x * 0x2545F4914F6CDD1DULL) >> 11;
    return (i64)(r % (u64)n);
}

/* the k-th card (from the lowest index) of a mask */
static inline i64 nth_card(i64 mask, i64 k) {
    i64 m = 0;
    for (int i = 0; i < 36; i++)
        if (mask >> i & 1) {
            if (m == k) return i;
            m++;
        }
    return -1;
}

#endif
