/* step_history_record_seek_back.c - the solver's step records: see step_history_record_seek_back.h. */
#include "step_history_record_seek_back.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

/* Past this many bytes the oldest half of the steps is dropped (a
 * debugger's record buffer: the recent steps stay seekable). */
size_t sm_history_limit = (size_t)512 << 20;

/* A step's candidate as kept: its text in the text arena unless it is an
 * exchange (pa >= 0), made from the numbers when read. */
typedef struct hist_cand {
    double objective, delta;
    int tabu, a, pa, b, pb;
} hist_cand;

/* A growable array of fixed-size items. */
typedef struct arena {
    char *p;
    size_t len, cap, item; /* len and cap in items */
} arena;

struct sm_history {
    int n;
    int *cur;               /* the current mapping at the cursor */
    int *best_seen;         /* the best mapping at the head, to diff the next step against */
    sm_hist_step *steps;    /* steps[i] is step first + i */
    long long nsteps, cap, first, cursor;
    arena moves, cands, tabu, stats, text, trace;
    arena evals;            /* the best's evaluations, each kept once while it stays */
    const sm_topo *topo;    /* names of exchange candidates' processors */
    /* the step being recorded: its current-mapping moves so far */
    size_t pending_off;
    int pending_n, pending_shown;
    /* DVFS states, when on: at the cursor, and the best at the head; the
     * step being recorded's (sm_history_note_states, diffed in add). */
    int nprocs;
    int *scur, *sbest_seen;
    const int *pending_cs, *pending_bs;
};

static void arena_init(arena *a, size_t item)
{
    memset(a, 0, sizeof *a);
    a->item = item;
}

/* Room for count more items. */
static void arena_reserve(arena *a, size_t count)
{
    if (a->len + count > a->cap) {
        size_t c = a->cap ? a->cap : 256;
        while (c < a->len + count) c *= 2;
        a->p = sm_xrealloc(a->p, c * a->item);
        a->cap = c;
    }
}

static size_t arena_push(arena *a, const void *src, size_t count)
{
    arena_reserve(a, count);
    size_t off = a->len;
    if (count) memcpy(a->p + off * a->item, src, count * a->item);
    a->len += count;
    return off;
}

static void arena_drop(arena *a, size_t count)
{
    if (!count) return;
    memmove(a->p, a->p + count * a->item, (a->len - count) * a->item);
    a->len -= count;
}

static int push_move(arena *moves, int *a, int i, int to)
{
    if (a[i] == to) return 0;
    sm_hist_move m = {i, a[i] ^ to};
    arena_push(moves, &m, 1);
    a[i] = to;
    return 1;
}

/* Blocks where a and b differ, as moves (b[i] ^ a[i]); a becomes b. A
 * chunk that differs gets its room once and its moves written in place
 * (the same moves as push_move's, without a call and a copy each). */
static int diff_into(arena *moves, int *a, const int *b, int n)
{
    int count = 0;
    const int chunk = 512;
    for (int lo = 0; lo < n; lo += chunk) {
        int hi = lo + chunk < n ? lo + chunk : n;
        if (memcmp(a + lo, b + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        arena_reserve(moves, (size_t)(hi - lo));
        sm_hist_move *m = (sm_hist_move *)(void *)(moves->p + moves->len * moves->item);
        int k = 0;
        for (int i = lo; i < hi; i++)
            if (a[i] != b[i]) {
                m[k++] = (sm_hist_move){i, a[i] ^ b[i]};
                a[i] = b[i];
            }
        moves->len += (size_t)k;
        count += k;
    }
    return count;
}

/* The first step's mapping taken whole into a (it becomes b): its moves
 * are never read (a seek goes back no further than the first step, and
 * sm_history_moved_between reads the steps after its first), and from
 * the session's mapping a search's first one differs nearly everywhere:
 * at a million blocks two million moves written for nothing. Returns the
 * blocks that differed. */
static int take_whole(int *a, const int *b, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) count += a[i] != b[i];
    memcpy(a, b, sizeof(int) * (size_t)n);
    return count;
}

static void xor_moves(int *map, const sm_hist_move *m, int count)
{
    for (int i = 0; i < count; i++) map[m[i].block] ^= m[i].x;
}

static sm_hist_step *at(const sm_history *h, long long k) { return &h->steps[k - h->first]; }

static void push_text(arena *t, const char *s) { arena_push(t, s, strlen(s) + 1); }

static void drop_oldest(sm_history *h)
{
    long long keep = h->nsteps / 2;
    if (keep < 2 || h->cursor != h->first + h->nsteps - 1) return;
    long long drop = h->nsteps - keep;
    sm_hist_step *nf = &h->steps[drop];
    /* The oldest kept step's own records begin at its offsets; evaluations
     * are shared forward only, so none before its best's is still read. */
    size_t dm = nf->move_off, dc = nf->cand_off, dt = nf->tabu_off, ds = nf->stat_off, dx = nf->text_off,
           dp = nf->trace_off, de = nf->best_ev;
    arena_drop(&h->moves, dm);
    arena_drop(&h->evals, de);
    arena_drop(&h->cands, dc);
    arena_drop(&h->tabu, dt);
    arena_drop(&h->stats, ds);
    arena_drop(&h->text, dx);
    arena_drop(&h->trace, dp);
    memmove(h->steps, nf, sizeof *h->steps * (size_t)keep);
    for (long long i = 0; i < keep; i++) {
        sm_hist_step *st = &h->steps[i];
        st->move_off -= dm;
        st->best_ev -= de;
        st->cand_off -= dc;
        st->tabu_off -= dt;
        st->stat_off -= ds;
        st->text_off -= dx;
        st->trace_off -= dp;
    }
    h->nsteps = keep;
    h->first += drop;
}

sm_history *sm_history_new(int n, const int *start)
{
    sm_history *h = sm_xcalloc(1, sizeof *h);
    h->n = n;
    size_t bytes = sizeof(int) * (size_t)(n ? n : 1);
    h->cur = sm_xcalloc(1, bytes);
    h->best_seen = sm_xcalloc(1, bytes);
    if (start) {
        memcpy(h->cur, start, sizeof(int) * (size_t)n);
        memcpy(h->best_seen, start, sizeof(int) * (size_t)n);
    }
    arena_init(&h->moves, sizeof(sm_hist_move));
    arena_init(&h->evals, sizeof(sm_eval));
    arena_init(&h->cands, sizeof(hist_cand));
    arena_init(&h->tabu, sizeof(sm_explain_tabu));
    arena_init(&h->stats, sizeof(double));
    arena_init(&h->text, 1);
    arena_init(&h->trace, sizeof(sm_explain_point));
    h->pending_off = 0;
    return h;
}

void sm_history_free(sm_history *h)
{
    if (!h) return;
    free(h->cur);
    free(h->best_seen);
    free(h->scur);
    free(h->sbest_seen);
    free(h->steps);
    free(h->moves.p);
    free(h->evals.p);
    free(h->cands.p);
    free(h->tabu.p);
    free(h->stats.p);
    free(h->text.p);
    free(h->trace.p);
    free(h);
}

void sm_history_set_topo(sm_history *h, const sm_topo *t) { h->topo = t; }

void sm_history_states_on(sm_history *h, int nprocs, const int *start)
{
    if (h->scur || h->nsteps) return;
    h->nprocs = nprocs;
    size_t bytes = sizeof(int) * (size_t)(nprocs ? nprocs : 1);
    h->scur = sm_xcalloc(1, bytes);
    h->sbest_seen = sm_xcalloc(1, bytes);
    if (start) {
        memcpy(h->scur, start, sizeof(int) * (size_t)nprocs);
        memcpy(h->sbest_seen, start, sizeof(int) * (size_t)nprocs);
    }
}

void sm_history_note_states(sm_history *h, const int *current_states, const int *best_states)
{
    if (!h->scur) return;
    h->pending_cs = current_states;
    h->pending_bs = best_states;
}

const int *sm_history_current_states(const sm_history *h) { return h->scur; }

int sm_history_diff_current(sm_history *h, const int *current_map, int moves_known, const int *moved,
                            int nmoved)
{
    h->pending_off = h->moves.len;
    h->pending_n = 0;
    h->pending_shown = current_map != NULL;
    if (!current_map) return 0;
    if (!h->nsteps) return take_whole(h->cur, current_map, h->n);
    if (moves_known) {
        /* Room for them all at once: a coarse step of the multilevel
         * search lists thousands of fine blocks. */
        arena_reserve(&h->moves, (size_t)nmoved);
        sm_hist_move *m = (sm_hist_move *)(void *)(h->moves.p + h->moves.len * h->moves.item);
        int *cur = h->cur, k = 0;
        for (int i = 0; i < nmoved; i++) {
            int b = moved[i], to = current_map[b];
            if (cur[b] == to) continue;
            m[k++] = (sm_hist_move){b, cur[b] ^ to};
            cur[b] = to;
        }
        h->moves.len += (size_t)k;
        h->pending_n = k;
    } else {
        h->pending_n = diff_into(&h->moves, h->cur, current_map, h->n);
    }
    return h->pending_n;
}

const sm_hist_move *sm_history_pending(const sm_history *h, int *n)
{
    *n = h->pending_n;
    return (const sm_hist_move *)(void *)(h->moves.p + h->pending_off * h->moves.item);
}

/* The best's evaluation for a step: the last one kept when the same. */
static size_t keep_best(sm_history *h, const sm_hist_figures *fig)
{
    size_t n = h->evals.len;
    const sm_eval *last = n ? (const sm_eval *)(void *)h->evals.p + (n - 1) : NULL;
    if (!fig->has_best) return n ? n - 1 : 0;
    if (last && memcmp(last, &fig->best, sizeof *last) == 0) return n - 1;
    return arena_push(&h->evals, &fig->best, 1);
}

/* The candidates' records and the texts of those that are not exchanges
 * (after last_move, why and status). */
static void push_cands(sm_history *h, const sm_explain *x)
{
    for (int i = 0; i < x->ncand; i++) {
        const sm_explain_cand *c = &x->cand[i];
        hist_cand k = {c->objective, c->delta, c->tabu, c->a, c->pa, c->b, c->pb};
        arena_push(&h->cands, &k, 1);
    }
}

static void push_cand_texts(sm_history *h, const sm_explain *x)
{
    for (int i = 0; i < x->ncand; i++)
        if (x->cand[i].pa < 0) push_text(&h->text, x->cand[i].move);
}

void sm_history_add(sm_history *h, const sm_hist_figures *fig, const int *best_map, int best_written,
                    const int *best_blocks, int nbest_blocks, const char *last_move, const char *status,
                    const double *stats, int nstats, const sm_explain *x)
{
    if (h->nsteps == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->steps = sm_xrealloc(h->steps, sizeof *h->steps * (size_t)h->cap);
    }
    sm_hist_step st;
    st.iteration = fig->iteration;
    st.has_current = fig->has_current;
    st.has_best = fig->has_best;
    st.done = fig->done;
    st.current = fig->current;
    st.objective = fig->objective;
    st.best_objective = fig->best_objective;
    st.part = fig->part;
    st.best_ev = keep_best(h, fig);
    st.move_off = h->pending_off;
    st.ncur = h->pending_n;
    st.current_shown = h->pending_shown;
    st.nbest = 0;
    if (fig->has_best && best_written && best_blocks && h->nsteps) {
        for (int i = 0; i < nbest_blocks; i++)
            st.nbest += push_move(&h->moves, h->best_seen, best_blocks[i], best_map[best_blocks[i]]);
    } else if (fig->has_best && !h->nsteps) {
        take_whole(h->best_seen, best_map, h->n);
    } else if (fig->has_best && best_written) {
        st.nbest = diff_into(&h->moves, h->best_seen, best_map, h->n);
    }
    /* The state moves after the best's (a step's records start at
     * move_off: drop_oldest relies on it). */
    st.nscur = h->pending_cs ? diff_into(&h->moves, h->scur, h->pending_cs, h->nprocs) : 0;
    st.nsbest = h->pending_bs ? diff_into(&h->moves, h->sbest_seen, h->pending_bs, h->nprocs) : 0;
    h->pending_cs = h->pending_bs = NULL;
    st.ncand = x->ncand;
    st.cand_off = h->cands.len;
    push_cands(h, x);
    st.ntabu = x->ntabu;
    st.tabu_off = arena_push(&h->tabu, x->tabu, (size_t)x->ntabu);
    st.ntrace = x->ntrace;
    st.trace_a = x->trace_a;
    st.trace_b = x->trace_b;
    st.trace_off = arena_push(&h->trace, x->trace, (size_t)x->ntrace);
    st.nstats = nstats;
    st.stat_off = arena_push(&h->stats, stats, (size_t)nstats);
    st.text_off = h->text.len;
    push_text(&h->text, last_move);
    push_text(&h->text, x->why);
    push_text(&h->text, status);
    push_cand_texts(h, x);
    if (!h->nsteps) h->first = st.iteration;
    h->steps[h->nsteps++] = st;
    h->cursor = st.iteration;
    h->pending_off = h->moves.len;
    h->pending_n = 0;
    if (sm_history_bytes(h) > sm_history_limit) drop_oldest(h);
}

void sm_history_amend_head(sm_history *h, const sm_hist_figures *fig, const char *status, const double *stats,
                           int nstats)
{
    if (!h->nsteps) return;
    sm_hist_step *st = at(h, sm_history_head(h));
    st->has_current = fig->has_current;
    st->has_best = fig->has_best;
    st->current = fig->current;
    /* The head's best may be shared with the steps before: a new one. */
    st->best_ev = keep_best(h, fig);
    st->done = fig->done;
    st->objective = fig->objective;
    st->best_objective = fig->best_objective;
    /* The head's statistics and texts are the last in their arenas. */
    h->stats.len = st->stat_off;
    st->nstats = nstats;
    arena_push(&h->stats, stats, (size_t)nstats);
    const char *m = h->text.p + st->text_off;
    size_t lm = strlen(m) + 1, lw = strlen(m + lm) + 1, ls = strlen(m + lm + lw) + 1;
    size_t lc = h->text.len - st->text_off - lm - lw - ls; /* candidates' texts */
    char *keep = sm_xmalloc(lm + lw + lc + 1);
    memcpy(keep, m, lm + lw);
    memcpy(keep + lm + lw, m + lm + lw + ls, lc);
    h->text.len = st->text_off;
    arena_push(&h->text, keep, lm + lw);
    push_text(&h->text, status);
    arena_push(&h->text, keep + lm + lw, lc);
    free(keep);
}

void sm_history_set_current(sm_history *h, long long k, const sm_eval *current, double objective, int stat,
                            double value)
{
    if (!h->nsteps || k < h->first || k > sm_history_head(h)) return;
    sm_hist_step *st = at(h, k);
    st->has_current = 1;
    st->current = *current;
    st->objective = objective;
    if (stat >= 0 && stat < st->nstats) ((double *)(void *)h->stats.p)[st->stat_off + (size_t)stat] = value;
}

long long sm_history_first(const sm_history *h) { return h->first; }
long long sm_history_head(const sm_history *h) { return h->first + h->nsteps - 1; }
long long sm_history_cursor(const sm_history *h) { return h->cursor; }
const int *sm_history_current(const sm_history *h) { return h->cur; }

const sm_hist_step *sm_history_step(const sm_history *h, long long k)
{
    if (k < h->first || k > sm_history_head(h)) return NULL;
    return at(h, k);
}

const char *sm_history_move(const sm_history *h, const sm_hist_step *st) { return h->text.p + st->text_off; }

const char *sm_history_why(const sm_history *h, const sm_hist_step *st)
{
    const char *m = sm_history_move(h, st);
    return m + strlen(m) + 1;
}

const char *sm_history_status(const sm_history *h, const sm_hist_step *st)
{
    const char *w = sm_history_why(h, st);
    return w + strlen(w) + 1;
}

const sm_eval *sm_history_best(const sm_history *h, const sm_hist_step *st)
{
    static const sm_eval none;
    if (!h->evals.len) return &none;
    return (const sm_eval *)(void *)h->evals.p + st->best_ev;
}

/* What sm_solver_candidate would have kept of the text bokhari wrote:
 * "exchange blocks A (PA) and B (PB)", cut to the field. */
static void exchange_text(const sm_history *h, const hist_cand *k, char *out, size_t cap)
{
    const char *na = h->topo && k->pa < h->topo->nprocs ? h->topo->procs[k->pa].name : "?";
    const char *nb = h->topo && k->pb >= 0 && k->pb < h->topo->nprocs ? h->topo->procs[k->pb].name : "?";
    snprintf(out, cap, "exchange blocks %d (%s) and %d (%s)", k->a, na, k->b, nb);
}

void sm_history_cand(const sm_history *h, const sm_hist_step *st, int i, sm_explain_cand *out)
{
    const hist_cand *k = (const hist_cand *)(void *)h->cands.p + st->cand_off;
    memset(out, 0, sizeof *out);
    out->objective = k[i].objective;
    out->delta = k[i].delta;
    out->tabu = k[i].tabu;
    out->a = k[i].a;
    out->pa = k[i].pa;
    out->b = k[i].b;
    out->pb = k[i].pb;
    if (k[i].pa >= 0) {
        exchange_text(h, &k[i], out->move, sizeof out->move);
        return;
    }
    /* The text ones follow the status, in order. */
    const char *t = sm_history_status(h, st);
    t += strlen(t) + 1;
    for (int j = 0; j < i; j++)
        if (k[j].pa < 0) t += strlen(t) + 1;
    snprintf(out->move, sizeof out->move, "%s", t);
}

const sm_explain_tabu *sm_history_tabu(const sm_history *h, const sm_hist_step *st)
{
    return (const sm_explain_tabu *)h->tabu.p + st->tabu_off;
}

const sm_explain_point *sm_history_trace(const sm_history *h, const sm_hist_step *st)
{
    return (const sm_explain_point *)h->trace.p + st->trace_off;
}

const double *sm_history_stats(const sm_history *h, const sm_hist_step *st)
{
    return (const double *)h->stats.p + st->stat_off;
}

size_t sm_history_bytes(const sm_history *h)
{
    return sizeof *h->steps * (size_t)h->nsteps + h->moves.len * h->moves.item + h->cands.len * h->cands.item +
           h->evals.len * h->evals.item +
           h->tabu.len * h->tabu.item + h->stats.len * h->stats.item + h->text.len +
           h->trace.len * h->trace.item;
}

int sm_history_moved_between(const sm_history *h, long long a, long long b, int best, long long limit, int **out,
                             int *cap)
{
    if (a > b) {
        long long t = a;
        a = b;
        b = t;
    }
    if (!h->nsteps || a < h->first || b > sm_history_head(h)) return -1;
    long long count = 0;
    for (long long k = a + 1; k <= b; k++) {
        count += best ? at(h, k)->nbest : at(h, k)->ncur;
        if (count > limit) return -1;
    }
    if (count > *cap) {
        *cap = (int)count;
        *out = sm_xrealloc(*out, sizeof(int) * (size_t)(count ? count : 1));
    }
    const sm_hist_move *mv = (const sm_hist_move *)(void *)h->moves.p;
    int k = 0;
    for (long long i = a + 1; i <= b; i++) {
        const sm_hist_step *st = at(h, i);
        size_t off = st->move_off + (best ? (size_t)st->ncur : 0);
        int cnt = best ? st->nbest : st->ncur;
        for (int j = 0; j < cnt; j++) (*out)[k++] = mv[off + (size_t)j].block;
    }
    return k;
}

/* A step's moves applied, or undone (the same: from XOR to). */
static void step_moves(sm_history *h, const sm_hist_step *st, int *best_map, int *best_states)
{
    const sm_hist_move *mv = (const sm_hist_move *)(void *)h->moves.p + st->move_off;
    xor_moves(h->cur, mv, st->ncur);
    mv += st->ncur;
    xor_moves(best_map, mv, st->nbest);
    mv += st->nbest;
    if (h->scur) xor_moves(h->scur, mv, st->nscur);
    mv += st->nscur;
    if (best_states) xor_moves(best_states, mv, st->nsbest);
}

const sm_hist_step *sm_history_seek(sm_history *h, long long k, int *best_map)
{
    return sm_history_seek_states(h, k, best_map, NULL);
}

const sm_hist_step *sm_history_seek_states(sm_history *h, long long k, int *best_map, int *best_states)
{
    if (k < h->first) k = h->first;
    if (k > sm_history_head(h)) k = sm_history_head(h);
    for (; h->cursor > k; h->cursor--) step_moves(h, at(h, h->cursor), best_map, best_states);
    for (; h->cursor < k; h->cursor++) step_moves(h, at(h, h->cursor + 1), best_map, best_states);
    return at(h, k);
}
