/* piquet._native: the compiled core of piquet, ahead of time, as a CPython extension.
 *
 * The kernel (a whole deal of any rule set by a policy; the resumable board), the
 * play-outs of many worlds, the double-dummy solver, and the batch environment's steps.
 * Arrays come from numpy through the buffer protocol (C-contiguous, int64 unless said);
 * the Python modules (piquet.fast.*, piquet.fast.solver) are the documented faces and check
 * their arguments; this layer checks only what keeps memory safe (types, sizes).
 * Built by setup.py (pip install), cached by the digest of these sources. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "batch.h"
#include "game.h"
#include <stddef.h>
#include "kernel.h"
#include "rules.h"
#include "solver.h"

#ifndef PQ_SOURCE_DIGEST
#define PQ_SOURCE_DIGEST "unknown"
#endif

/* ------------------------------------------------------------------ arguments */
#define MAX_BUFS 24
typedef struct {
    Py_buffer v[MAX_BUFS];
    int n;
} Bufs;

static void release(Bufs *bs) {
    for (int i = 0; i < bs->n; i++) PyBuffer_Release(&bs->v[i]);
    bs->n = 0;
}

/* kinds of element: 'i' int64, 'u' uint64, 'f' float64, 'g' float32, 'b' bool / uint8 */
static int kind_ok(const Py_buffer *v, char kind) {
    const char *f = v->format ? v->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    switch (kind) {
    case 'i': return v->itemsize == 8 && (*f == 'q' || *f == 'l');
    case 'u': return v->itemsize == 8 && (*f == 'Q' || *f == 'L');
    case 'f': return v->itemsize == 8 && *f == 'd';
    case 'g': return v->itemsize == 4 && *f == 'f';
    case 'b': return v->itemsize == 1 && (*f == '?' || *f == 'B' || *f == 'b');
    }
    return 0;
}

/* the buffer of argument `name`: C-contiguous, of kind, at least min_items elements */
static void *get(Bufs *bs, PyObject *o, char kind, Py_ssize_t min_items, int writable,
                 const char *name, Py_buffer **view) {
    if (bs->n >= MAX_BUFS) {
        PyErr_SetString(PyExc_RuntimeError, "too many arrays");
        return NULL;
    }
    Py_buffer *v = &bs->v[bs->n];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, v, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: a C-contiguous%s array is needed", name,
                     writable ? " writable" : "");
        return NULL;
    }
    bs->n++;
    if (!kind_ok(v, kind)) {
        PyErr_Format(PyExc_TypeError, "%s: wrong element type (%s)", name,
                     v->format ? v->format : "B");
        return NULL;
    }
    if (v->len / v->itemsize < min_items) {
        PyErr_Format(PyExc_ValueError, "%s: %zd elements, at least %zd needed", name,
                     v->len / v->itemsize, min_items);
        return NULL;
    }
    if (view) *view = v;
    return v->buf;
}

static int num(PyObject *o, i64 *out) {
    long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

static int nargs_ok(Py_ssize_t nargs, Py_ssize_t want, const char *fn) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments (%zd given)", fn, want, nargs);
        return 0;
    }
    return 1;
}

#define NARGS(n, fn) if (!nargs_ok(nargs, n, fn)) return NULL
/* a function's start and end: ARGS checks that it was given count arguments and keeps the
 * buffers they lend in bs; RETURN releases them and returns value (a new reference), or
 * NULL where an argument was refused (every `goto fail` lands there) */
#define ARGS(count, fn) \
    Bufs bs = {.n = 0}; \
    NARGS(count, fn)
#define RETURN(value) \
    release(&bs); \
    return (value); \
fail: \
    release(&bs); \
    return NULL
#define GET(var, type, i, kind, minn, w, name) \
    type var = (type)get(&bs, args[i], kind, minn, w, name, NULL); \
    if (!var) goto fail
#define NUM(var, i) \
    i64 var; \
    if (num(args[i], &var) < 0) goto fail

static PyObject *result5(const i64 *tl) {
    return Py_BuildValue("(LLLLL)", (long long)tl[T_NTR], (long long)tl[T_NEV],
                         (long long)tl[T0], (long long)tl[T1], (long long)tl[T_REACHED]);
}

/* the deck's cards must be indices of the pack (the Python faces check it is the pack) */
static int deck_ok(const i64 *deck, i64 n) {
    if (n < 24 || n > 36) {
        PyErr_SetString(PyExc_ValueError, "p: a pack of 24 to 36 cards");
        return 0;
    }
    for (i64 i = 0; i < n; i++)
        if (deck[i] < 0 || deck[i] > 35) {
            PyErr_SetString(PyExc_ValueError, "deck: card indices are 0 to 35");
            return 0;
        }
    return 1;
}

static int len_ok(Py_buffer *v, i64 n, const char *name) {
    if (v->len / v->itemsize < n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd elements, at least %lld needed", name,
                     v->len / v->itemsize, (long long)n);
        return 0;
    }
    return 1;
}

/* a parameter vector (the kernel's p, P_MODE long at least; the solver's P, P_COUNT): an
 * int64 array read only, its length checked by get */
#define GETVEC(var, i, n, name) \
    const i64 *var = (const i64 *)get(&bs, args[i], 'i', n, 0, name, NULL); \
    if (!var) goto fail
#define GETP(var, i) GETVEC(var, i, P_MODE, "p")

/* a deal from its pack, as play_deal, run_deal, playouts and flat_start take it: the pack
 * (args[1]), the start and the target (args[2..4]) (deal_pack); the forced choices fz and
 * their number nfz (args[f], args[f + 1]) (deal_forced); then checked, the pack against
 * the rule set's (deal_ok), once every argument is read */
typedef struct {
    const i64 *deck;
    Py_buffer *deckv;
    i64 start0, start1, target;
    const i64 *fz;
    Py_buffer *fzv;
    i64 nfz;
} DealArgs;

static int deal_pack(Bufs *bs, PyObject *const *args, DealArgs *d) {
    d->deck = (const i64 *)get(bs, args[1], 'i', 24, 0, "deck", &d->deckv);
    return d->deck && num(args[2], &d->start0) == 0 && num(args[3], &d->start1) == 0 &&
           num(args[4], &d->target) == 0;
}

static int deal_forced(Bufs *bs, PyObject *const *args, int f, DealArgs *d) {
    d->fz = (const i64 *)get(bs, args[f], 'i', 2, 0, "fz", &d->fzv);
    return d->fz && num(args[f + 1], &d->nfz) == 0;
}

static int deal_ok(const DealArgs *d, const i64 *p) {
    if (d->nfz < 0 || d->nfz > d->fzv->len / 16) {
        PyErr_SetString(PyExc_ValueError, "nfz: more forced choices than rows");
        return 0;
    }
    return len_ok(d->deckv, p[P_DECK_SIZE], "deck") && deck_ok(d->deck, p[P_DECK_SIZE]);
}

#define GETDEAL(d) \
    DealArgs d; \
    if (!deal_pack(&bs, args, &d)) goto fail
#define GETFORCED(d, f) \
    if (!deal_forced(&bs, args, f, &d)) goto fail
#define DEALOK(d) \
    if (!deal_ok(&d, p)) goto fail

/* the board's arrays (kernel.h's Board), each named and sized once: what one board takes
 * (GETB) and, a row each, what the batch's games take (ROWSB) */
enum { B_TL, B_EV, B_TR, B_RES, B_HELD, B_DEFERRED, B_PS, B_INFO };
static const struct {
    const char *name;
    Py_ssize_t n;
} BOARD[] = {
    [B_TL] = {"tl", T_SIZE},
    [B_EV] = {"ev", MAX_EVENTS * 3},
    [B_TR] = {"tr", MAX_TRACE * 2},
    [B_RES] = {"res", 9},
    [B_HELD] = {"held", MAX_HELD * 3},
    [B_DEFERRED] = {"deferred", 9},
    [B_PS] = {"ps", PS_SIZE},
    [B_INFO] = {"info", I_SIZE},
};
#define GETB(var, i, which) GET(var, i64 *, i, 'i', BOARD[which].n, 1, BOARD[which].name)

/* ------------------------------------------------------------------ the kernel */
static PyObject *py_play_deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info) */
    ARGS(13, "play_deal");
    GETP(p, 0);
    GETDEAL(d);
    NUM(policy, 5);
    GET(rng, u64 *, 6, 'u', 1, 1, "rng");
    GETB(tr, 7, B_TR);
    GETB(ev, 8, B_EV);
    GETFORCED(d, 9);
    int stop = PyObject_IsTrue(args[11]);
    GETB(info, 12, B_INFO);
    DEALOK(d);
    Scratch s;
    Board b = {.p = p, .policy = policy, .rng = rng, .fz = (const i64(*)[2])d.fz,
               .nfz = d.nfz, .stop = stop};
    board_on(&b, &s);
    b.tr = (i64(*)[2])tr;
    b.ev = (i64(*)[3])ev;
    b.info = info;
    run_deal(&b, d.deck, d.start0, d.start1, d.target);
    RETURN(result5(s.tl));
}

static PyObject *py_run_deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info, tl, res,
     *  held, deferred, ps) */
    ARGS(18, "run_deal");
    GETP(p, 0);
    GETDEAL(d);
    NUM(policy, 5);
    GET(rng, u64 *, 6, 'u', 1, 1, "rng");
    GETB(tr, 7, B_TR);
    GETB(ev, 8, B_EV);
    GETFORCED(d, 9);
    int stop = PyObject_IsTrue(args[11]);
    GETB(info, 12, B_INFO);
    GETB(tl, 13, B_TL);
    GETB(res, 14, B_RES);
    GETB(held, 15, B_HELD);
    GETB(deferred, 16, B_DEFERRED);
    GETB(ps, 17, B_PS);
    DEALOK(d);
    Board b = {.p = p, .policy = policy, .rng = rng, .tl = tl, .ev = (i64(*)[3])ev,
               .tr = (i64(*)[2])tr, .res = (i64(*)[3])res, .held = (i64(*)[3])held,
               .deferred = (i64(*)[3])deferred, .ps = ps, .info = info,
               .fz = (const i64(*)[2])d.fz, .nfz = d.nfz, .stop = stop};
    run_deal(&b, d.deck, d.start0, d.start1, d.target);
    RETURN(result5(tl));
}

static PyObject *py_resume(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, policy, rng, tl, ev, held, res, deferred, ps, tr, info, card) */
    ARGS(12, "resume");
    GETP(p, 0);
    NUM(policy, 1);
    GET(rng, u64 *, 2, 'u', 1, 1, "rng");
    GETB(tl, 3, B_TL);
    GETB(ev, 4, B_EV);
    GETB(held, 5, B_HELD);
    GETB(res, 6, B_RES);
    GETB(deferred, 7, B_DEFERRED);
    GETB(ps, 8, B_PS);
    GETB(tr, 9, B_TR);
    GETB(info, 10, B_INFO);
    NUM(card, 11);
    if (card < 0 || card > 35) {
        PyErr_SetString(PyExc_ValueError, "card: an index 0 to 35");
        goto fail;
    }
    Board b = {.p = p, .policy = policy, .rng = rng, .tl = tl, .ev = (i64(*)[3])ev,
               .tr = (i64(*)[2])tr, .res = (i64(*)[3])res, .held = (i64(*)[3])held,
               .deferred = (i64(*)[3])deferred, .ps = ps, .info = info};
    resume_deal(&b, card);
    RETURN(result5(tl));
}

static PyObject *py_shuffle_pack(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(3, "shuffle_pack");
    GETP(p, 0);
    GET(rng, u64 *, 1, 'u', 1, 1, "rng");
    GET(deck, i64 *, 2, 'i', 36, 1, "deck");
    shuffle_pack(p, rng, deck);
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_play_deals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, n, policy, rng, totals) -> score events */
    ARGS(5, "play_deals");
    GETP(p, 0);
    NUM(n, 1);
    NUM(policy, 2);
    GET(rng, u64 *, 3, 'u', 1, 1, "rng");
    GET(totals, i64 *, 4, 'i', 2, 1, "totals");
    i64 events = 0;
    Py_BEGIN_ALLOW_THREADS
    i64 deck[36];
    Scratch s;
    static const i64 none[1][2] = {{0, 0}};
    Board b = {.p = p, .policy = policy, .rng = rng, .fz = none, .nfz = 0, .stop = 0};
    board_on(&b, &s);
    for (i64 k = 0; k < n; k++) {
        shuffle_pack(p, rng, deck);
        run_deal(&b, deck, 0, 0, 0);
        totals[0] += s.tl[T0];
        totals[1] += s.tl[T1];
        events += s.tl[T_NEV];
    }
    Py_END_ALLOW_THREADS
    RETURN(PyLong_FromLongLong(events));
}

static PyObject *py_playouts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, deck, start0, start1, target, policy, rng, fz, nfz, n, out) -> 0, or -1 if a
     * forced choice is not allowed */
    ARGS(11, "playouts");
    GETP(p, 0);
    GETDEAL(d);
    NUM(policy, 5);
    GET(rng, u64 *, 6, 'u', 1, 1, "rng");
    GETFORCED(d, 7);
    NUM(n, 9);
    GET(out, i64 *, 10, 'i', 4, 1, "out");
    DEALOK(d);
    i64 status = 0;
    Py_BEGIN_ALLOW_THREADS
    Scratch s;
    Board b = {.p = p, .policy = policy, .rng = rng, .fz = (const i64(*)[2])d.fz,
               .nfz = d.nfz, .stop = 0};
    board_on(&b, &s);
    for (i64 k = 0; k < n; k++) {
        run_deal(&b, d.deck, d.start0, d.start1, d.target);
        if (s.info[I_STATUS] == BAD_CHOICE) {
            status = -1;
            break;
        }
        out[0] += s.tl[T0];
        out[1] += s.tl[T1];
        if (s.tl[T_REACHED] >= 0) out[2 + s.tl[T_REACHED]]++;
    }
    Py_END_ALLOW_THREADS
    RETURN(PyLong_FromLongLong(status));
}

static PyObject *py_flat_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, deck, start0, start1, target, fz, nfz, flat): dealt with the forced choices,
     * stopped at the first card after them */
    ARGS(8, "flat_start");
    GETP(p, 0);
    GETDEAL(d);
    GETFORCED(d, 5);
    GET(flat, i64 *, 7, 'i', FLAT_SIZE, 1, "flat");
    DEALOK(d);
    u64 rng = 1; /* no policy draws: every choice is forced or a card */
    Board b = {.p = p, .policy = 0, .rng = &rng, .fz = (const i64(*)[2])d.fz, .nfz = d.nfz,
               .stop = 1};
    board_of_flat(&b, flat);
    run_deal(&b, d.deck, d.start0, d.start1, d.target);
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_flat_resume(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(3, "flat_resume");
    GETP(p, 0);
    GET(flat, i64 *, 1, 'i', FLAT_SIZE, 1, "flat");
    NUM(card, 2);
    if (card < 0 || card > 35) {
        PyErr_SetString(PyExc_ValueError, "card: an index 0 to 35");
        goto fail;
    }
    u64 rng = 1;
    Board b = {.p = p, .policy = 0, .rng = &rng};
    board_of_flat(&b, flat);
    resume_deal(&b, card);
    RETURN(Py_NewRef(Py_None));
}

/* the worlds' arrays of the play-out matrices: decks (n_w, 36), fz (n_w, depth, 2) with a
 * free row after each history, nfz (n_w), cands (n_c) */
typedef struct {
    i64 (*decks)[36];
    i64 *fz;
    i64 depth;
    const i64 *nfz;
    const i64 *cands;
    i64 n_w, n_c;
} Worlds;

static int worlds(Bufs *bs, PyObject *const *args, int i, Worlds *w) {
    Py_buffer *dv, *fv, *nv, *cv;
    w->decks = (i64(*)[36])get(bs, args[i], 'i', 0, 0, "decks", &dv);
    if (!w->decks) return 0;
    w->fz = (i64 *)get(bs, args[i + 1], 'i', 0, 1, "fz", &fv);
    if (!w->fz) return 0;
    w->nfz = (const i64 *)get(bs, args[i + 2], 'i', 0, 0, "nfz", &nv);
    if (!w->nfz) return 0;
    w->cands = (const i64 *)get(bs, args[i + 3], 'i', 0, 0, "cands", &cv);
    if (!w->cands) return 0;
    w->n_w = nv->len / 8;
    w->n_c = cv->len / 8;
    if (dv->ndim != 2 || dv->shape[1] != 36 || dv->shape[0] != w->n_w || fv->ndim != 3 ||
        fv->shape[0] != w->n_w || fv->shape[2] != 2) {
        PyErr_SetString(PyExc_ValueError, "decks (n, 36), fz (n, depth, 2), nfz (n) needed");
        return 0;
    }
    w->depth = fv->shape[1];
    for (i64 j = 0; j < w->n_w; j++) {
        if (w->nfz[j] < 0 || w->nfz[j] >= w->depth) {
            PyErr_SetString(PyExc_ValueError, "nfz: each history needs a free row after it");
            return 0;
        }
        if (!deck_ok(w->decks[j], 36)) return 0;
    }
    return 1;
}

/* world j's forced choices with candidate c's discard written in the free row after its
 * history; returns the rows and, in *nfz, their number */
static const i64 (*with_discard(const Worlds *w, i64 j, i64 c, i64 *nfz))[2] {
    i64 k = w->nfz[j];
    i64 *fzj = w->fz + j * w->depth * 2;
    fzj[2 * k] = A_DISCARD;
    fzj[2 * k + 1] = w->cands[c];
    *nfz = k + 1;
    return (const i64(*)[2])fzj;
}

static PyObject *py_rollout_matrix(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, decks, fz, nfz, cands, role, policy, states, plays, out, status) */
    ARGS(11, "rollout_matrix");
    GETP(p, 0);
    Worlds w;
    if (!worlds(&bs, args, 1, &w)) goto fail;
    NUM(role, 5);
    NUM(policy, 6);
    NUM(plays, 8);
    GET(states, u64 *, 7, 'u', w.n_w * plays, 0, "states");
    GET(out, double *, 9, 'f', w.n_c * w.n_w, 1, "out");
    GET(status, i64 *, 10, 'i', w.n_c, 1, "status");
    Py_BEGIN_ALLOW_THREADS
    Scratch s;
    u64 rng;
    Board b = {.p = p, .policy = policy, .rng = &rng, .stop = 0};
    board_on(&b, &s);
    for (i64 c = 0; c < w.n_c; c++) {
        status[c] = 0;
        for (i64 j = 0; j < w.n_w; j++) {
            b.fz = with_discard(&w, j, c, &b.nfz);
            double total = 0.0;
            int badc = 0;
            for (i64 r = 0; r < plays; r++) {
                rng = states[j * plays + r];
                run_deal(&b, w.decks[j], 0, 0, 0);
                if (s.info[I_STATUS] == BAD_CHOICE) {
                    badc = 1;
                    break;
                }
                i64 d = s.tl[T0] - s.tl[T1];
                total += (double)(role == 0 ? d : -d);
            }
            if (badc) {
                status[c] = -1;
                break;
            }
            out[c * w.n_w + j] = total / (double)plays;
        }
    }
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_rollout_points(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, decks, fz, nfz, cands, role, policy, states, out, status): as rollout_matrix with
     * one play-out a world, out[c, j, 0] role's points and out[c, j, 1] the other's */
    ARGS(10, "rollout_points");
    GETP(p, 0);
    Worlds w;
    if (!worlds(&bs, args, 1, &w)) goto fail;
    NUM(role, 5);
    NUM(policy, 6);
    GET(states, u64 *, 7, 'u', w.n_w, 0, "states");
    GET(out, i64 *, 8, 'i', w.n_c * w.n_w * 2, 1, "out");
    GET(status, i64 *, 9, 'i', w.n_c, 1, "status");
    Py_BEGIN_ALLOW_THREADS
    Scratch s;
    u64 rng;
    Board b = {.p = p, .policy = policy, .rng = &rng, .stop = 0};
    board_on(&b, &s);
    for (i64 c = 0; c < w.n_c; c++) {
        status[c] = 0;
        for (i64 j = 0; j < w.n_w; j++) {
            b.fz = with_discard(&w, j, c, &b.nfz);
            rng = states[j];
            run_deal(&b, w.decks[j], 0, 0, 0);
            if (s.info[I_STATUS] == BAD_CHOICE) {
                status[c] = -1;
                break;
            }
            out[(c * w.n_w + j) * 2] = role == 0 ? s.tl[T0] : s.tl[T1];
            out[(c * w.n_w + j) * 2 + 1] = role == 0 ? s.tl[T1] : s.tl[T0];
        }
    }
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

/* ------------------------------------------------------------------ the solver */
static int pos_args(PyObject *const *args, int i, Pos *s) {
    i64 v[9];
    for (int k = 0; k < 9; k++)
        if (num(args[i + k], &v[k]) < 0) return 0;
    *s = (Pos){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
    return 1;
}

static int solver_args(Bufs *bs, PyObject *const *args, int i, const i64 *P, Solver *sv) {
    Py_buffer *tv;
    sv->P = P;
    sv->tt = (i64(*)[3])get(bs, args[i], 'i', 3, 1, "tt", &tv);
    if (!sv->tt) return 0;
    i64 rows = tv->len / 24;
    if (rows & (rows - 1)) {
        PyErr_SetString(PyExc_ValueError, "tt: a power of two of rows of 3 needed");
        return 0;
    }
    sv->tt_mask = rows - 1;
    sv->buf = (i64(*)[12])get(bs, args[i + 1], 'i', 52 * 12, 1, "buf", NULL);
    if (!sv->buf) return 0;
    sv->stats = (i64 *)get(bs, args[i + 2], 'i', 3, 1, "stats", NULL);
    if (!sv->stats) return 0;
    sv->S = (i64(*)[F_FIELDS])get(bs, args[i + 3], 'i', S_DEPTH * F_FIELDS, 1, "stack", NULL);
    if (!sv->S) return 0;
    return 1;
}

#define GETSP(var, i) GETVEC(var, i, P_COUNT, "P")

static PyObject *py_s_root(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, guess, P, tt, buf, stats, S,
     *  cards_out, values_out) -> how many */
    ARGS(17, "s_root");
    Pos s;
    if (!pos_args(args, 0, &s)) goto fail;
    NUM(guess, 9);
    GETSP(P, 10);
    Solver sv;
    if (!solver_args(&bs, args, 11, P, &sv)) goto fail;
    GET(cards, i64 *, 15, 'i', 12, 1, "cards_out");
    GET(vals, i64 *, 16, 'i', 12, 1, "values_out");
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = s_root(&sv, &s, guess, cards, vals);
    Py_END_ALLOW_THREADS
    RETURN(PyLong_FromLong(n));
}

static PyObject *py_s_mtdf(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (h0 .. opn, guess, P, tt, buf, stats, S) -> value */
    ARGS(15, "s_mtdf");
    Pos s;
    if (!pos_args(args, 0, &s)) goto fail;
    NUM(guess, 9);
    GETSP(P, 10);
    Solver sv;
    if (!solver_args(&bs, args, 11, P, &sv)) goto fail;
    i64 v;
    Py_BEGIN_ALLOW_THREADS
    v = s_mtdf(&sv, &s, guess);
    Py_END_ALLOW_THREADS
    RETURN(PyLong_FromLongLong(v));
}

static PyObject *py_s_root_estimate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (h0 .. opn, P, buf, cards_out, values_out) -> how many */
    ARGS(13, "s_root_estimate");
    Pos s;
    if (!pos_args(args, 0, &s)) goto fail;
    GETSP(P, 9);
    GET(buf, i64 *, 10, 'i', 52 * 12, 1, "buf");
    GET(cards, i64 *, 11, 'i', 12, 1, "cards_out");
    GET(vals, i64 *, 12, 'i', 12, 1, "values_out");
    int n = s_root_estimate(P, (i64(*)[12])buf, &s, cards, vals);
    RETURN(PyLong_FromLong(n));
}

static PyObject *py_s_greedy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(10, "s_greedy");
    Pos s;
    if (!pos_args(args, 0, &s)) goto fail;
    GETSP(P, 9);
    i64 v = s_greedy(s, P);
    RETURN(PyLong_FromLongLong(v));
}

static PyObject *py_s_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (h0 .. opn, card, P) -> (h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, ended) */
    ARGS(11, "s_step");
    Pos s;
    if (!pos_args(args, 0, &s)) goto fail;
    NUM(card, 9);
    GETSP(P, 10);
    if (card < 0 || card > 35) {
        PyErr_SetString(PyExc_ValueError, "card: an index 0 to 35");
        goto fail;
    }
    i64 ended = s_step(&s, card, P);
    RETURN(Py_BuildValue("(LLLLLLLLLL)", (long long)s.h0, (long long)s.h1,
                         (long long)s.leader, (long long)s.lead, (long long)s.won0,
                         (long long)s.ntr, (long long)s.acc0, (long long)s.acc1,
                         (long long)s.opn, (long long)ended));
}

static PyObject *py_s_terminal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(4, "s_terminal");
    NUM(acc0, 0);
    NUM(acc1, 1);
    NUM(ended, 2);
    GETSP(P, 3);
    i64 v = s_terminal(acc0, acc1, ended, P);
    RETURN(PyLong_FromLongLong(v));
}

static PyObject *py_greedy_card(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    i64 hand, opp, lead;
    NARGS(3, "greedy_card");
    if (num(args[0], &hand) < 0 || num(args[1], &opp) < 0 || num(args[2], &lead) < 0)
        return NULL;
    return PyLong_FromLongLong(greedy_card(hand, opp, lead));
}

/* elder's points minus younger's to come from a position of the play: the greedy player
 * while the seat to move holds more than exact_cards cards, then the exact value (within
 * node_cap positions, else the greedy play on); *exact: solved exactly */
static i64 hybrid_value(Solver *sv, Pos s, i64 exact_cards, i64 node_cap, int *exact) {
    i64 start = s.acc0 - s.acc1;
    i64 ended = 0;
    *exact = 0;
    while (s.ntr < 12 && ended == 0) {
        i64 mover = s.lead < 0 ? s.leader : 1 - s.leader;
        i64 hand = mover == 0 ? s.h0 : s.h1;
        if (popcount(hand) <= exact_cards) break;
        i64 opp = mover == 0 ? s.h1 : s.h0;
        ended = s_step(&s, greedy_card(hand, opp, s.lead), sv->P);
    }
    if (s.ntr >= 12 || ended != 0) return (s.acc0 - s.acc1) - start;
    sv->stats[2] = 0;
    sv->stats[1] = sv->stats[0] + (node_cap > 1 ? node_cap : 1);
    i64 v = s_mtdf(sv, &s, 0);
    if (sv->stats[2] != 0) {
        sv->stats[2] = 0;
        return (s.acc0 - s.acc1) - start + s_greedy(s, sv->P);
    }
    *exact = 1;
    return (s.acc0 - s.acc1) - start + v;
}

static PyObject *py_solver_matrix(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, sp, decks, fz, nfz, cands, role, policy, states, exact_cards, node_cap, tt, buf,
     *  stats, S, out, solved, status) */
    ARGS(18, "solver_matrix");
    GETP(p, 0);
    GETSP(P, 1);
    Worlds w;
    if (!worlds(&bs, args, 2, &w)) goto fail;
    NUM(role, 6);
    NUM(policy, 7);
    GET(states, u64 *, 8, 'u', w.n_w, 0, "states");
    NUM(exact_cards, 9);
    NUM(node_cap, 10);
    Solver sv;
    if (!solver_args(&bs, args, 11, P, &sv)) goto fail;
    GET(out, double *, 15, 'f', w.n_c * w.n_w, 1, "out");
    GET(solved, i64 *, 16, 'i', w.n_c * w.n_w, 1, "solved");
    GET(status, i64 *, 17, 'i', w.n_c, 1, "status");
    Py_BEGIN_ALLOW_THREADS
    i64 flat[FLAT_SIZE], flat2[FLAT_SIZE];
    u64 rng, rng2;
    for (i64 c = 0; c < w.n_c; c++) {
        status[c] = 0;
        for (i64 j = 0; j < w.n_w; j++) {
            i64 nfz;
            const i64(*fzj)[2] = with_discard(&w, j, c, &nfz);
            memset(flat, 0, sizeof flat);
            Board b = {.p = p, .policy = policy, .rng = &rng, .fz = fzj, .nfz = nfz, .stop = 1};
            board_of_flat(&b, flat);
            rng = states[j];
            run_deal(&b, w.decks[j], 0, 0, 0);
            if (b.info[I_STATUS] == BAD_CHOICE) {
                status[c] = -1;
                break;
            }
            double v0;
            if (b.info[I_STATUS] != STOPPED) {
                v0 = (double)(b.tl[T0] - b.tl[T1]);
            } else {
                i64 allowed = b.info[I_ALLOWED];
                double best = -1e18;
                for (int card = 0; card < 36; card++) {
                    if (!(allowed >> card & 1)) continue;
                    memcpy(flat2, flat, sizeof flat);
                    Board b2 = {.p = p, .policy = policy, .rng = &rng2};
                    board_of_flat(&b2, flat2);
                    rng2 = rng;
                    resume_deal(&b2, card);
                    double v = (double)(b2.tl[T0] - b2.tl[T1]);
                    if (b2.info[I_STATUS] == STOPPED) {
                        i64 *ps2 = b2.ps;
                        Pos q = {ps2[PS_HAND], ps2[PS_HAND + 1], ps2[PS_LEADER],
                                 ps2[PS_HALF] == 1 ? ps2[PS_LED] : -1, ps2[PS_WON0],
                                 ps2[PS_TRICK], b2.tl[T0], b2.tl[T1], b2.tl[T_OPEN]};
                        int ex;
                        v += (double)hybrid_value(&sv, q, exact_cards, node_cap, &ex);
                        solved[c * w.n_w + j] += ex;
                    }
                    if (v > best) best = v;
                }
                v0 = best;
            }
            out[c * w.n_w + j] = role == 0 ? v0 : -v0;
        }
    }
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

/* ------------------------------------------------------------------ the batch */
static int games_args(Bufs *bs, PyObject *const *args, Games *g, i64 *n_rows) {
    /* (p, fmt, policy, decks, st, rngs, tl, ev, tr, res, held, deferred, ps, info, obs,
     *  masks, rewards, done) */
    Py_buffer *v;
    g->p = (const i64 *)get(bs, args[0], 'i', P_MODE, 0, "p", &v);
    if (!g->p) return 0;
    if (num(args[1], &g->fmt) < 0 || num(args[2], &g->policy) < 0) return 0;
    g->decks = (i64(*)[36])get(bs, args[3], 'i', 0, 1, "decks", &v);
    if (!g->decks) return 0;
    i64 n = v->len / (36 * 8);
    *n_rows = n;
#define ROWS(field, type, i, kind, per, name) \
    g->field = (type)get(bs, args[i], kind, n * (per), 1, name, NULL); \
    if (!g->field) return 0
#define ROWSB(field, type, i, which) ROWS(field, type, i, 'i', BOARD[which].n, BOARD[which].name)
    ROWS(st, i64(*)[G_SIZE], 4, 'i', G_SIZE, "st");
    ROWS(rngs, u64 *, 5, 'u', 1, "rngs");
    ROWSB(tl, i64(*)[T_SIZE], 6, B_TL);
    ROWSB(ev, i64(*)[MAX_EVENTS][3], 7, B_EV);
    ROWSB(tr, i64(*)[MAX_TRACE][2], 8, B_TR);
    ROWSB(res, i64(*)[3][3], 9, B_RES);
    ROWSB(held, i64(*)[MAX_HELD][3], 10, B_HELD);
    ROWSB(deferred, i64(*)[3][3], 11, B_DEFERRED);
    ROWSB(ps, i64(*)[PS_SIZE], 12, B_PS);
    ROWSB(info, i64(*)[I_SIZE], 13, B_INFO);
    ROWS(obs, float(*)[OBS_SIZE], 14, 'g', OBS_SIZE, "obs");
    ROWS(masks, uint8_t(*)[36], 15, 'b', 36, "masks");
    ROWS(rewards, double *, 16, 'f', 1, "rewards");
    ROWS(done, uint8_t *, 17, 'b', 1, "done");
#undef ROWS
    g->final_obs = NULL;
    g->facts = NULL;
    return 1;
}

static int rows_ok(i64 lo, i64 hi, i64 n) {
    if (lo < 0 || hi > n || lo > hi) {
        PyErr_SetString(PyExc_ValueError, "rows lo:hi out of range");
        return 0;
    }
    return 1;
}

/* the rows lo:hi (args[i], args[i + 1]) of the n rows, checked */
#define LOHI(i) \
    NUM(lo, i); \
    NUM(hi, (i) + 1); \
    if (!rows_ok(lo, hi, n)) goto fail

static PyObject *py_reset_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(20, "reset_rows");
    Games g;
    i64 n;
    if (!games_args(&bs, args, &g, &n)) goto fail;
    LOHI(18);
    Py_BEGIN_ALLOW_THREADS
    reset_rows(&g, lo, hi);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_step_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    ARGS(23, "step_rows");
    Games g;
    i64 n;
    if (!games_args(&bs, args, &g, &n)) goto fail;
    GET(actions, i64 *, 18, 'i', n, 0, "actions");
    g.final_obs = (float(*)[OBS_SIZE])get(&bs, args[19], 'g', n * OBS_SIZE, 1, "final_obs", NULL);
    if (!g.final_obs) goto fail;
    g.facts = (i64(*)[4])get(&bs, args[20], 'i', n * 4, 1, "facts", NULL);
    if (!g.facts) goto fail;
    LOHI(21);
    for (i64 i = lo; i < hi; i++)
        if (actions[i] < 0 || actions[i] > 35) {
            PyErr_SetString(PyExc_ValueError, "actions: card indices 0 to 35");
            goto fail;
        }
    Py_BEGIN_ALLOW_THREADS
    step_rows(&g, actions, lo, hi);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

/* ------------------------------------------------------------------ the whole game */
/* the rows of whole games: (n, WG_SIZE) int64, writable */
static WGame *wgames(Bufs *bs, PyObject *o, i64 *n) {
    Py_buffer *v;
    WGame *g = (WGame *)get(bs, o, 'i', 0, 1, "games", &v);
    if (!g) return NULL;
    if (v->ndim != 2 || v->shape[1] != WG_SIZE) {
        PyErr_Format(PyExc_ValueError, "games: an (n, %lld) array is needed", (long long)WG_SIZE);
        return NULL;
    }
    *n = v->shape[0];
    return g;
}

/* the whole games g (args[i]) and their number n */
#define GETGAMES(g, n, i) \
    i64 n; \
    WGame *g = wgames(&bs, args[i], &n); \
    if (!g) goto fail

static PyObject *py_game_reset(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, games, seeds (n) uint64, format, max_deals, lo, hi, knobs): new games in
     * rows lo:hi */
    ARGS(8, "game_reset");
    GETP(p, 0);
    GETGAMES(g, n, 1);
    GET(seeds, const u64 *, 2, 'u', n, 0, "seeds");
    NUM(format, 3);
    NUM(max_deals, 4);
    NUM(lo, 5);
    NUM(hi, 6);
    NUM(knobs, 7);
    if (!rows_ok(lo, hi, n)) goto fail;
    if ((format != WF_GAME && format != WF_PARTIE && format != WF_DEAL) || max_deals < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "format 0 (game), 1 (partie) or 2 (deal), max_deals >= 1");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = lo; i < hi; i++) w_reset(p, &g[i], seeds[i], format, max_deals, knobs);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_game_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, games, actions (n), status (n) out, lo, hi): each row's player acts */
    ARGS(6, "game_step");
    GETP(p, 0);
    GETGAMES(g, n, 1);
    GET(actions, const i64 *, 2, 'i', n, 0, "actions");
    GET(status, i64 *, 3, 'i', n, 1, "status");
    LOHI(4);
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = lo; i < hi; i++) status[i] = w_step(p, &g[i], actions[i]);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_game_obs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, games, players (n), out (n, size) float32, lo, hi, size): each row's observation
     * for players[i] (-1: the player to act; at the end, players[i] must be 0 or 1); size
     * O_SIZE (the information state) or O_TRICKS (the observation) */
    ARGS(7, "game_obs");
    GETP(p, 0);
    GETGAMES(g, n, 1);
    GET(players, const i64 *, 2, 'i', n, 0, "players");
    NUM(size, 6);
    if (size != O_SIZE && size != O_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "size: the information state's or the observation's");
        goto fail;
    }
    GET(out, float *, 3, 'g', n * size, 1, "out");
    LOHI(4);
    for (i64 i = lo; i < hi; i++) {
        i64 who = players[i] < 0 ? g[i].to_move : players[i];
        if (who < 0 || who > 1) {
            PyErr_SetString(PyExc_ValueError, "players: 0 or 1 (-1 only where a player is to act)");
            goto fail;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = lo; i < hi; i++) {
        i64 who = players[i] < 0 ? g[i].to_move : players[i];
        w_obs(p, &g[i], (int)who, out + i * size, size);
    }
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_game_env(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, games, actions, obs or None, masks, rewards, term, trunc, ended, final_obs,
     *  returns, status, last_mover, stepping, obs_size, facts, lo, hi): rows lo:hi stepped
     * (stepping) with the autoreset of an ended game, then each row's observation (obs_size
     * floats: O_SIZE or O_TRICKS) and legal mask written; facts (n, 4): an ended game's
     * scores, winner and deals */
    ARGS(18, "game_env");
    i64 obs_size;
    if (num(args[14], &obs_size) < 0) return NULL;
    if (obs_size != O_SIZE && obs_size != O_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "obs_size: the information state's or the observation's");
        return NULL;
    }
    GETP(p, 0);
    GETGAMES(g, n, 1);
    GET(actions, const i64 *, 2, 'i', n, 0, "actions");
    float *obs = NULL, *final_obs = NULL;
    if (args[3] != Py_None) {
        obs = (float *)get(&bs, args[3], 'g', n * obs_size, 1, "obs", NULL);
        if (!obs) goto fail;
        final_obs = (float *)get(&bs, args[9], 'g', n * obs_size, 1, "final_obs", NULL);
        if (!final_obs) goto fail;
    }
    GET(masks, uint8_t *, 4, 'b', n * N_IDS, 1, "masks");
    GET(rewards, double *, 5, 'f', n, 1, "rewards");
    GET(term, uint8_t *, 6, 'b', n, 1, "term");
    GET(trunc, uint8_t *, 7, 'b', n, 1, "trunc");
    GET(ended, uint8_t *, 8, 'b', n, 1, "ended");
    GET(returns, double *, 10, 'f', 2 * n, 1, "returns");
    GET(status, i64 *, 11, 'i', n, 1, "status");
    GET(last_mover, i64 *, 12, 'i', n, 1, "last_mover");
    GET(facts, i64 *, 15, 'i', 4 * n, 1, "facts");
    NUM(stepping, 13);
    LOHI(16);
    WEnv e = {.p = p, .g = g, .actions = actions, .obs = obs, .obs_size = obs_size, .masks = masks,
              .rewards = rewards, .term = term, .trunc = trunc, .ended = ended,
              .final_obs = final_obs, .returns = returns, .status = status,
              .last_mover = last_mover, .facts = facts};
    Py_BEGIN_ALLOW_THREADS
    w_env_rows(&e, lo, hi, stepping != 0);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_game_random(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (games, rng (1) uint64, out (n), lo, hi): a uniformly drawn legal id of each row (-1
     * where the game is over) */
    ARGS(5, "game_random");
    GETGAMES(g, n, 0);
    GET(rng, u64 *, 1, 'u', 1, 1, "rng");
    GET(out, i64 *, 2, 'i', n, 1, "out");
    LOHI(3);
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = lo; i < hi; i++) out[i] = w_random_legal(&g[i], rng);
    Py_END_ALLOW_THREADS
    RETURN(Py_NewRef(Py_None));
}

static PyObject *py_game_deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (p, games, i, pack (36), dealer): row i's deal in play dealt from pack by dealer (-1:
     * the same); returns 1, or 0 if that cannot be (game.h's w_deal_pack) */
    ARGS(5, "game_deal");
    GETP(p, 0);
    GETGAMES(g, n, 1);
    NUM(i, 2);
    Py_buffer *packv;
    const i64 *pack = (const i64 *)get(&bs, args[3], 'i', 36, 0, "pack", &packv);
    if (!pack) goto fail;
    NUM(dealer, 4);
    if (i < 0 || i >= n || dealer < -1 || dealer > 1) {
        PyErr_SetString(PyExc_ValueError, "i: a row of games; dealer: -1, 0 or 1");
        goto fail;
    }
    if (!deck_ok(pack, p[P_DECK_SIZE])) goto fail;
    int done = w_deal_pack(p, &g[i], pack, dealer);
    RETURN(PyLong_FromLong(done));
}

/* ------------------------------------------------------------------ the layout */
static PyObject *layout(void) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
#define SET(name, value) \
    do { \
        PyObject *v_ = PyLong_FromLongLong((long long)(value)); \
        if (!v_ || PyDict_SetItemString(d, name, v_) < 0) { Py_XDECREF(v_); Py_DECREF(d); return NULL; } \
        Py_DECREF(v_); \
    } while (0)
    SET("MAX_CLAIMS", MAX_CLAIMS); SET("MAX_EVENTS", MAX_EVENTS); SET("MAX_TRACE", MAX_TRACE);
    SET("MAX_HELD", MAX_HELD); SET("T_SIZE", T_SIZE); SET("I_SIZE", I_SIZE);
    SET("PS_SIZE", PS_SIZE); SET("FLAT_SIZE", FLAT_SIZE); SET("OBS_SIZE", OBS_SIZE);
    SET("G_SIZE", G_SIZE); SET("T_NTR", T_NTR); SET("T_FI", T_FI); SET("T_STOP", T_STOP);
    SET("T_NEV", T_NEV); SET("T_REACHED", T_REACHED); SET("T_OPEN", T_OPEN);
    SET("I_STATUS", I_STATUS); SET("I_SCORE1", I_SCORE1); SET("PS_FULL", PS_FULL);
    SET("PS_WON0", PS_WON0); SET("A_PLAY", A_PLAY); SET("K_PIQUE", K_PIQUE);
#define WOFF(field) SET("WG_" #field, offsetof(WGame, field) / sizeof(i64))
    SET("WG_SIZE", WG_SIZE); SET("WG_OBS_SIZE", O_SIZE); SET("WG_OBSERVATION_SIZE", O_TRICKS); WOFF(rng); WOFF(format); WOFF(max_deals); WOFF(dealer);
    WOFF(score); WOFF(ndeals); WOFF(extra); WOFF(over); WOFF(truncated); WOFF(winner);
    WOFF(settled); WOFF(to_move); WOFF(role); WOFF(kind); WOFF(lo); WOFF(hi); WOFF(sel);
    WOFF(nch); WOFF(steps); WOFF(deal_pts); WOFF(reached); WOFF(legal); WOFF(deck); WOFF(ch);
    WOFF(flat);
#undef WOFF
    SET("F_FIELDS", F_FIELDS); SET("S_DEPTH", S_DEPTH); SET("G_TO_PLAY", G_TO_PLAY);
#undef SET
    return d;
}

static PyMethodDef methods[] = {
    {"play_deal", (PyCFunction)(void (*)(void))py_play_deal, METH_FASTCALL, "One deal by a policy."},
    {"run_deal", (PyCFunction)(void (*)(void))py_run_deal, METH_FASTCALL, "A deal on a kept board."},
    {"resume", (PyCFunction)(void (*)(void))py_resume, METH_FASTCALL, "Go on from a stopped board."},
    {"shuffle_pack", (PyCFunction)(void (*)(void))py_shuffle_pack, METH_FASTCALL, "A random pack."},
    {"play_deals", (PyCFunction)(void (*)(void))py_play_deals, METH_FASTCALL, "Many random deals."},
    {"playouts", (PyCFunction)(void (*)(void))py_playouts, METH_FASTCALL, "Play-outs of a world."},
    {"flat_start", (PyCFunction)(void (*)(void))py_flat_start, METH_FASTCALL, "Deal on a flat board."},
    {"flat_resume", (PyCFunction)(void (*)(void))py_flat_resume, METH_FASTCALL, "A card on a flat board."},
    {"rollout_matrix", (PyCFunction)(void (*)(void))py_rollout_matrix, METH_FASTCALL, "Discards by worlds."},
    {"rollout_points", (PyCFunction)(void (*)(void))py_rollout_points, METH_FASTCALL, "Discards by worlds, both points."},
    {"solver_matrix", (PyCFunction)(void (*)(void))py_solver_matrix, METH_FASTCALL, "Discards by worlds, solved."},
    {"s_root", (PyCFunction)(void (*)(void))py_s_root, METH_FASTCALL, "Each move's exact value."},
    {"s_mtdf", (PyCFunction)(void (*)(void))py_s_mtdf, METH_FASTCALL, "A position's exact value."},
    {"s_root_estimate", (PyCFunction)(void (*)(void))py_s_root_estimate, METH_FASTCALL, "Each move, greedy."},
    {"s_greedy", (PyCFunction)(void (*)(void))py_s_greedy, METH_FASTCALL, "A greedy play-out's value."},
    {"s_step", (PyCFunction)(void (*)(void))py_s_step, METH_FASTCALL, "One card of the play."},
    {"s_terminal", (PyCFunction)(void (*)(void))py_s_terminal, METH_FASTCALL, "The objective's end value."},
    {"greedy_card", (PyCFunction)(void (*)(void))py_greedy_card, METH_FASTCALL, "The greedy player's card."},
    {"reset_rows", (PyCFunction)(void (*)(void))py_reset_rows, METH_FASTCALL, "New games in rows."},
    {"step_rows", (PyCFunction)(void (*)(void))py_step_rows, METH_FASTCALL, "A card in each row."},
    {"game_reset", (PyCFunction)(void (*)(void))py_game_reset, METH_FASTCALL, "New whole games in rows."},
    {"game_deal", (PyCFunction)(void (*)(void))py_game_deal, METH_FASTCALL, "A row's deal from a pack."},
    {"game_obs", (PyCFunction)(void (*)(void))py_game_obs, METH_FASTCALL, "Each row's observation."},
    {"game_env", (PyCFunction)(void (*)(void))py_game_env, METH_FASTCALL, "The environment's step."},
    {"game_random", (PyCFunction)(void (*)(void))py_game_random, METH_FASTCALL, "Random legal ids."},
    {"game_step", (PyCFunction)(void (*)(void))py_game_step, METH_FASTCALL, "An action id in each row."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_native",
                                       "piquet's compiled core (see piquet/native/*.c).", -1,
                                       methods};

PyMODINIT_FUNC PyInit__native(void) {
    bit_tables(); /* filled once, under the import lock */
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    PyObject *names = PyTuple_New(P_COUNT);
    if (!names) goto fail;
#define PQ_NAME(name) PyTuple_SET_ITEM(names, P_##name, PyUnicode_FromString(#name));
    PQ_PARAMS(PQ_NAME)
#undef PQ_NAME
    if (PyModule_AddObject(m, "PARAM_NAMES", names) < 0) {
        Py_DECREF(names);
        goto fail;
    }
    PyObject *lay = layout();
    if (!lay || PyModule_AddObject(m, "LAYOUT", lay) < 0) {
        Py_XDECREF(lay);
        goto fail;
    }
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", PQ_SOURCE_DIGEST) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
