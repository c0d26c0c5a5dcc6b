/* The kernel's policies: how each choice of a deal is made (piquet.fast.policies).
 * RANDOM: each legal choice equally likely (a discard: each size, then each set of it);
 * BOOK: the rules of thumb of piquet.players.book (piquet.fast.book), on masks. */
#ifndef PIQUET_POLICIES_H
#define PIQUET_POLICIES_H

#include "rules.h"

enum { POL_RANDOM = 0, POL_BOOK = 1 };
enum { R_GOOD, R_NOT_GOOD, R_EQUAL, R_MAKING };

/* ---- the book */
static const double RANK_WORTH[9] = {0.2, 0.4, 0.6, 1.0, 2.0, 2.5, 4.0, 7.0, 10.0};

/* values[c]: how much card c of the hand is worth keeping (players.common.card_values) */
static void card_values(const i64 *p, i64 hand, i64 role, double *values) {
    int by_cards = p[P_POINT_BY_CARDS] != 0;
    int best_suit = 0;
    i64 best_a = -1, best_b = -1;
    for (int s = 0; s < 4; s++) {
        i64 local = hand >> (9 * s) & 0x1FF;
        i64 a = by_cards ? popcount(local) : mask_pips(local);
        i64 b = by_cards ? mask_pips(local) : 0;
        if (a > best_a || (a == best_a && b > best_b)) {
            best_a = a;
            best_b = b;
            best_suit = s;
        }
    }
    i64 aces = 0;
    for (int s = 0; s < 4; s++) aces += hand >> (9 * s + 8) & 1;
    for (int c = 0; c < 36; c++) {
        if (!(hand >> c & 1)) continue;
        int s = c / 9, r = c % 9;
        i64 suit = hand >> (9 * s) & 0x1FF;
        int n_suit = popcount(suit);
        double v = RANK_WORTH[r] * 1.0;
        if (r == 7) v += n_suit >= 2 ? 2.0 : -2.0;
        if (r == 6 && (n_suit >= 3 || (suit >> 7 & 1))) v += 1.5;
        if (s == best_suit) v += 3.0 * 1.0;
        int i = 8;
        while (i >= 0) {
            if (!(suit >> i & 1)) { i--; continue; }
            int j = i;
            while (j - 1 >= 0 && (suit >> (j - 1) & 1)) j--;
            int length = i - j + 1;
            if (i - length < r && r <= i) {
                if (length >= 5) v += 6.0 * 1.0;
                else if (length >= 3) v += (1.5 + length - 3) * 1.0;
                else if (length == 2) v += 0.5;
            }
            i = j - 1;
        }
        if (r + 6 >= p[P_SET_MIN_RANK]) {
            int n = 0;
            for (int t = 0; t < 4; t++) n += hand >> (9 * t + r) & 1;
            if (n == 4) v += 4.0 * 1.0;
            else if (n == 3) v += (r >= 7 ? 2.0 : 0.7) * 1.0;
        }
        if (role != 0 && (suit >> 6 & 1) && r < 6 && n_suit <= 3) v += 1.5;
        if (role != 0 && aces == 3 && !(suit >> 8 & 1)) v -= 1.5;
        values[c] = v;
    }
}

/* the least useful cards; all one may take unless the worst are good ones (Rule III) */
static i64 book_discard(const i64 *p, i64 hand, i64 role, i64 lo, i64 hi, i64 fixed) {
    if (fixed >= 0) lo = hi = fixed;
    double values[36] = {0};
    card_values(p, hand, role, values);
    int order[36];
    int n = 0;
    for (int c = 0; c < 36; c++) {
        if (!(hand >> c & 1)) continue;
        int j = n;
        while (j > 0 && values[order[j - 1]] > values[c]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = c;
        n++;
    }
    i64 k = hi;
    double threshold = role == 0 ? 9.0 : 7.5;
    while (k > lo && values[order[k - 1]] >= threshold) k--;
    i64 out = 0;
    for (i64 i = 0; i < k; i++) out |= BIT(order[i]);
    return out;
}

/* elder declares his best holding (by key, then cards); he never sinks */
static int book_elder_claim(i64 (*cl)[5], int n) {
    int best = n;
    for (int i = 0; i < n; i++)
        if (best == n || cl[i][1] > cl[best][1] ||
            (cl[i][1] == cl[best][1] && popcount(cl[i][0]) > popcount(cl[best][0])))
            best = i;
    return best;
}

/* Rule XII: younger sinks a low trio whose card is the only guard of a king or queen */
static int book_younger_sinks(i64 hand, int cls, i64 cards, i64 size, i64 rank, int n_legal,
                              int may_pass) {
    if (cls != 2 || !may_pass || size != 3 || rank > 12 || n_legal != 1) return 0;
    for (int c = 0; c < 36; c++) {
        if (!(cards >> c & 1)) continue;
        i64 suit = hand >> (9 * (c / 9)) & 0x1FF;
        int m = popcount(suit);
        int king = suit >> 7 & 1, queen = suit >> 6 & 1;
        if ((king && m == 2) || (queen && !king && m == 3 && c % 9 + 6 < 12)) return 1;
    }
    return 0;
}

/* the true answer: not good, equal, making, good, in that order of preference */
static i64 book_answer(const i64 *opts, int m) {
    static const int prefs[4] = {R_NOT_GOOD, R_EQUAL, R_MAKING, R_GOOD};
    for (int w = 0; w < 4; w++)
        for (int i = 0; i < m; i++)
            if (opts[i] == prefs[w]) return prefs[w];
    return opts[0];
}

static inline int guard_penalty(int card, i64 hand) {
    int r = card % 9;
    i64 suit = hand >> (9 * (card / 9)) & 0x1FF;
    int n = popcount(suit);
    int king = suit >> 7 & 1, queen = suit >> 6 & 1;
    if (r < 6 && ((king && n <= 2) || (queen && n <= 3))) return 2;
    if (r == 6 || r == 7) return 1;
    return 0;
}

static inline int lt3(i64 a0, i64 a1, i64 a2, i64 b0, i64 b1, i64 b2) {
    if (a0 != b0) return a0 < b0;
    if (a1 != b1) return a1 < b1;
    return a2 < b2;
}

/* the book's card: win cheaply or follow low; lead a master (the shorter suit first, the
 * highest with six tricks), else the lowest card of a long suit that guards nothing */
static i64 book_play(i64 hand, i64 allowed, i64 lead, i64 possible, i64 won) {
    if (popcount(allowed) == 1)
        for (int c = 0; c < 36; c++)
            if (allowed >> c & 1) return c;
    i64 best = -1, bk0 = 0, bk1 = 0, bk2 = 0;
    if (lead >= 0) {
        i64 same = allowed & SUIT_MASK(lead / 9);
        if (same) {
            for (i64 c = lead + 1; c < 36; c++)
                if (same >> c & 1) return c;
            for (int c = 0; c < 36; c++)
                if (same >> c & 1) return c;
        }
        for (int c = 0; c < 36; c++) {
            if (!(allowed >> c & 1)) continue;
            i64 k0 = guard_penalty(c, hand), k1 = c % 9;
            i64 k2 = popcount(hand & SUIT_MASK(c / 9));
            if (best < 0 || lt3(k0, k1, k2, bk0, bk1, bk2)) {
                best = c; bk0 = k0; bk1 = k1; bk2 = k2;
            }
        }
        return best;
    }
    for (int c = 0; c < 36; c++) {
        if (!(allowed >> c & 1)) continue;
        int r = c % 9;
        i64 higher = (possible >> (9 * (c / 9))) & 0x1FF & ~(BIT(r + 1) - 1);
        if (higher) continue;
        if (won >= 6) {
            if (best < 0 || r > bk0) { best = c; bk0 = r; }
        } else {
            i64 k0 = popcount(hand & SUIT_MASK(c / 9)), k1 = -r;
            if (best < 0 || k0 < bk0 || (k0 == bk0 && k1 < bk1)) { best = c; bk0 = k0; bk1 = k1; }
        }
    }
    if (best >= 0) return best;
    for (int c = 0; c < 36; c++) {
        if (!(allowed >> c & 1)) continue;
        i64 k0 = guard_penalty(c, hand), k1 = -popcount(hand & SUIT_MASK(c / 9)), k2 = c % 9;
        if (best < 0 || lt3(k0, k1, k2, bk0, bk1, bk2)) {
            best = c; bk0 = k0; bk1 = k1; bk2 = k2;
        }
    }
    return best;
}

/* ---- the policies */
static i64 choose_discard(const i64 *p, i64 policy, u64 *rng, i64 hand, i64 seat, i64 lo, i64 hi,
                          i64 fixed) {
    if (policy == POL_BOOK) return book_discard(p, hand, seat, lo, hi, fixed);
    i64 k = fixed >= 0 ? fixed : lo + rand_below(rng, hi - lo + 1);
    i64 out = 0, rest = hand;
    i64 n = popcount(hand);
    for (i64 j = 0; j < k; j++) {
        i64 c = nth_card(rest, rand_below(rng, n - j));
        out |= BIT(c);
        rest &= ~BIT(c);
    }
    return out;
}

static int choose_elder_claim(i64 policy, u64 *rng, i64 (*cl)[5], int n) {
    if (policy == POL_BOOK) return book_elder_claim(cl, n);
    return (int)rand_below(rng, n + 1);
}

static inline int beats(i64 key, i64 beat, int partial) {
    return beat < 0 || (partial ? key / 256 > beat / 256 : key > beat);
}

static int choose_younger_claim(i64 policy, u64 *rng, i64 hand, int cls, i64 (*cl)[5], int n,
                                i64 beat, int partial, int may_pass) {
    int m = 0;
    for (int i = 0; i < n; i++)
        if (beats(cl[i][1], beat, partial)) m++;
    int total = m + (may_pass ? 1 : 0);
    if (policy == POL_BOOK) {
        int best = n;
        for (int i = 0; i < n; i++) {
            i64 key = cl[i][1];
            if (beats(key, beat, partial) &&
                (best == n || key > cl[best][1] ||
                 (key == cl[best][1] && popcount(cl[i][0]) > popcount(cl[best][0]))))
                best = i;
        }
        if (best < n && book_younger_sinks(hand, cls, cl[best][0], cl[best][2], cl[best][3], m,
                                           may_pass))
            return n;
        return (best < n || may_pass) ? best : n;
    }
    i64 k = rand_below(rng, total);
    if (k == m) return n;
    for (int i = 0; i < n; i++)
        if (beats(cl[i][1], beat, partial)) {
            if (k == 0) return i;
            k--;
        }
    return n;
}

static i64 choose_answer(i64 policy, u64 *rng, const i64 *opts, int m) {
    if (policy == POL_BOOK) return book_answer(opts, m);
    return opts[rand_below(rng, m)];
}

static i64 choose_play(i64 policy, u64 *rng, i64 hand, i64 allowed, i64 lead, i64 possible,
                       i64 won) {
    if (policy == POL_BOOK) return book_play(hand, allowed, lead, possible, won);
    return nth_card(allowed, rand_below(rng, popcount(allowed)));
}

static i64 choose_packet(const i64 *p, i64 policy, u64 *rng) {
    i64 n = p[P_N_PACKETS];
    if (policy == POL_BOOK) {
        for (i64 i = 0; i < n; i++)
            if (p[P_PACKETS + i] == 2) return 2;
        return p[P_PACKETS];
    }
    return p[P_PACKETS + rand_below(rng, n)];
}

static i64 choose_blanche(const i64 *p, i64 policy, u64 *rng, i64 hand, i64 role, i64 lo, i64 hi) {
    if (policy == POL_BOOK) return popcount(book_discard(p, hand, role, lo, hi, -1));
    return lo + rand_below(rng, hi - lo + 1);
}

static i64 choose_name(i64 policy, u64 *rng, i64 hand, int by_suit, i64 full) {
    if (policy == POL_BOOK) {
        int best = 0, best_n = -1;
        for (int s = 0; s < 4; s++) {
            int m = popcount(hand & SUIT_MASK(s));
            if (m >= best_n) { best_n = m; best = s; }
        }
        int ace = 9 * best + 8;
        if (hand >> ace & 1) return by_suit ? best : ace;
        return -1;
    }
    i64 n_opts = by_suit ? 4 : popcount(full);
    i64 k = rand_below(rng, n_opts + 1);
    if (k == n_opts) return -1;
    return by_suit ? k : nth_card(full, k);
}

static i64 choose_appoint(i64 policy, u64 *rng, i64 hand, int by_suit, i64 full, i64 free_) {
    i64 suits = 0;
    for (int s = 0; s < 4; s++)
        if (free_ >> (9 * s) & 0x1FF) suits |= BIT(s);
    if (policy == POL_BOOK) {
        int best = 0;
        i64 bk0 = -1, bk1 = -1;
        for (int s = 0; s < 4; s++) {
            i64 local = hand >> (9 * s) & 0x1FF;
            i64 top = 0;
            while (local >> top) top++;
            i64 m = popcount(local);
            if (top > bk0 || (top == bk0 && m > bk1)) { bk0 = top; bk1 = m; best = s; }
        }
        if (by_suit) {
            if (suits >> best & 1) return best;
            return nth_card(suits, 0);
        }
        i64 same = free_ & SUIT_MASK(best);
        return nth_card(same ? same : free_, 0);
    }
    if (by_suit) return rand_below(rng, 4);
    i64 anyone = full & ~hand;
    return nth_card(anyone, rand_below(rng, popcount(anyone)));
}

static i64 choose_yes(i64 policy, u64 *rng, i64 book_says) {
    if (policy == POL_BOOK) return book_says;
    return rand_below(rng, 2);
}

#endif
