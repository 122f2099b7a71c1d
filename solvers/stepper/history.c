/* history.c - the solver's step records: see history.h. */
#include "history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past this many bytes the oldest half of the steps is dropped (a
 * debugger's record buffer: the recent steps stay seekable). */
size_t sm_history_limit = (size_t)512 << 20;

/* Stepper-evaluated current mappings stop here: a full evaluation per
 * step would cost more than the step at this size. */
#define AUTO_EVAL_MAX 262144

/* A growable array of fixed-size items. */
typedef struct arena {
    char *p;
    size_t len, cap, item; /* len and cap in items */
} arena;

struct sm_history {
    int n;
    int *cur;               /* the current mapping at the cursor */
    int *best_seen;         /* the best mapping at the head, to diff the next step against */
    const int *solver_map;  /* the solver's own current mapping (at the head) */
    unsigned long long best_version; /* the solver's, at the last record */
    sm_hist_step *steps;    /* steps[i] is step first + i */
    long long nsteps, cap, first, cursor;
    arena moves, cands, tabu, stats, text, trace;
};

static void arena_init(arena *a, size_t item)
{
    memset(a, 0, sizeof *a);
    a->item = item;
}

static size_t arena_push(arena *a, const void *src, size_t count)
{
    if (a->len + count > a->cap) {
        size_t c = a->cap ? a->cap : 256;
        while (c < a->len + count) c *= 2;
        a->p = sm_xrealloc(a->p, c * a->item);
        a->cap = c;
    }
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

/* Blocks where a and b differ, as moves (b[i] ^ a[i]); a becomes b. */
static int diff_into(arena *moves, int *a, const int *b, int n)
{
    int count = 0;
    const int chunk = 512;
    for (int lo = 0; lo < n; lo += chunk) {
        int hi = lo + chunk < n ? lo + chunk : n;
        if (memcmp(a + lo, b + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        for (int i = lo; i < hi; i++)
            if (a[i] != b[i]) {
                sm_hist_move m = {i, a[i] ^ b[i]};
                arena_push(moves, &m, 1);
                a[i] = b[i];
                count++;
            }
    }
    return count;
}

static void xor_moves(int *map, const sm_hist_move *m, int count)
{
    for (int i = 0; i < count; i++) map[m[i].block] ^= m[i].x;
}

static sm_hist_step *at(const sm_history *h, long long k) { return &h->steps[k - h->first]; }

static size_t push_text(arena *t, const char *s) { return arena_push(t, s, strlen(s) + 1); }

static void drop_oldest(sm_history *h)
{
    long long keep = h->nsteps / 2;
    if (keep < 2 || h->cursor != h->first + h->nsteps - 1) return;
    long long drop = h->nsteps - keep;
    sm_hist_step *nf = &h->steps[drop];
    size_t dm = nf->cur_off, dc = nf->cand_off, dt = nf->tabu_off, ds = nf->stat_off, dx = nf->text_off,
           dp = nf->trace_off;
    /* Step first's moves: the oldest kept step's own records begin at its offsets. */
    arena_drop(&h->moves, dm);
    arena_drop(&h->cands, dc);
    arena_drop(&h->tabu, dt);
    arena_drop(&h->stats, ds);
    arena_drop(&h->text, dx);
    arena_drop(&h->trace, dp);
    memmove(h->steps, nf, sizeof *h->steps * (size_t)keep);
    for (long long i = 0; i < keep; i++) {
        sm_hist_step *st = &h->steps[i];
        st->cur_off -= dm;
        st->best_off -= dm;
        st->cand_off -= dc;
        st->tabu_off -= dt;
        st->stat_off -= ds;
        st->text_off -= dx;
        st->trace_off -= dp;
    }
    h->nsteps = keep;
    h->first += drop;
}

/* The figures of s now, and the blocks moved since the last record. */
static void record(sm_history *h, sm_solver *s)
{
    if (h->nsteps == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->steps = sm_xrealloc(h->steps, sizeof *h->steps * (size_t)h->cap);
    }
    sm_hist_step st;
    memset(&st, 0, sizeof st);
    st.iteration = s->iteration;
    st.cur_off = h->moves.len;
    if (s->current_map) {
        if (s->moves_known && s->current_map == h->solver_map && h->nsteps) {
            /* Only the blocks the step says it moved (each once). */
            for (int i = 0; i < s->nmoved; i++) {
                int b = s->moved[i];
                if (h->cur[b] == s->current_map[b]) continue;
                sm_hist_move m = {b, h->cur[b] ^ s->current_map[b]};
                arena_push(&h->moves, &m, 1);
                h->cur[b] = s->current_map[b];
                st.ncur++;
            }
        } else {
            st.ncur = diff_into(&h->moves, h->cur, s->current_map, h->n);
        }
        st.current_shown = 1;
        /* A solver that shows a mapping without evaluating it: the
         * stepper does, so every solver's state has a current. */
        if ((!s->has_current || s->current_auto) && h->n <= AUTO_EVAL_MAX &&
            (st.ncur || !s->has_current)) {
            sm_solver_evaluate(s, s->current_map, &s->current);
            s->has_current = 1;
            s->current_auto = 1;
        }
    }
    h->solver_map = s->current_map;
    st.best_off = h->moves.len;
    if (s->has_best && (s->best_version != h->best_version || !h->nsteps))
        st.nbest = diff_into(&h->moves, h->best_seen, s->best_map, h->n);
    h->best_version = s->best_version;
    st.has_current = s->has_current;
    st.has_best = s->has_best;
    st.current = s->current;
    st.best = s->best;
    st.done = s->done;
    st.objective = sm_solver_objective_now(s);
    st.best_objective = sm_solver_objective_best(s);
    st.ncand = s->explain.ncand;
    st.cand_off = arena_push(&h->cands, s->explain.cand, (size_t)s->explain.ncand);
    st.ntabu = s->explain.ntabu;
    st.tabu_off = arena_push(&h->tabu, s->explain.tabu, (size_t)s->explain.ntabu);
    st.ntrace = s->explain.ntrace;
    st.trace_a = s->explain.trace_a;
    st.trace_b = s->explain.trace_b;
    st.trace_off = arena_push(&h->trace, s->explain.trace, (size_t)s->explain.ntrace);
    st.nstats = s->nstats;
    st.stat_off = h->stats.len;
    for (int i = 0; i < s->nstats; i++) arena_push(&h->stats, &s->stats[i].value, 1);
    st.text_off = push_text(&h->text, s->last_move);
    push_text(&h->text, s->explain.why);
    push_text(&h->text, s->status);
    h->steps[h->nsteps++] = st;
    h->cursor = st.iteration;
    if (sm_history_bytes(h) > sm_history_limit) drop_oldest(h);
}

sm_history *sm_history_new(sm_solver *s)
{
    sm_history *h = sm_xcalloc(1, sizeof *h);
    h->n = s->grid->ntasks;
    size_t bytes = sizeof(int) * (size_t)(h->n ? h->n : 1);
    h->cur = sm_xmalloc(bytes);
    h->best_seen = sm_xmalloc(bytes);
    /* Step 0 moves the blocks from the start mapping to the solver's first. */
    memcpy(h->cur, s->start_map, sizeof(int) * (size_t)h->n);
    memcpy(h->best_seen, s->start_map, sizeof(int) * (size_t)h->n);
    arena_init(&h->moves, sizeof(sm_hist_move));
    arena_init(&h->cands, sizeof(sm_explain_cand));
    arena_init(&h->tabu, sizeof(sm_explain_tabu));
    arena_init(&h->stats, sizeof(double));
    arena_init(&h->text, 1);
    arena_init(&h->trace, sizeof(sm_explain_point));
    h->first = s->iteration;
    record(h, s);
    return h;
}

void sm_history_free(sm_history *h)
{
    if (!h) return;
    free(h->cur);
    free(h->best_seen);
    free(h->steps);
    free(h->moves.p);
    free(h->cands.p);
    free(h->tabu.p);
    free(h->stats.p);
    free(h->text.p);
    free(h->trace.p);
    free(h);
}

void sm_history_record(sm_history *h, sm_solver *s) { record(h, s); }

long long sm_history_first(const sm_history *h) { return h->first; }
long long sm_history_head(const sm_history *h) { return h->first + h->nsteps - 1; }
long long sm_history_cursor(const sm_history *h) { return h->cursor; }
const int *sm_history_solver_map(const sm_history *h) { return h->solver_map; }

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

static const char *status_of(const sm_history *h, const sm_hist_step *st)
{
    const char *w = sm_history_why(h, st);
    return w + strlen(w) + 1;
}

const sm_explain_cand *sm_history_cands(const sm_history *h, const sm_hist_step *st)
{
    return (const sm_explain_cand *)h->cands.p + st->cand_off;
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

int sm_history_moved(const sm_history *h, long long k, const sm_hist_move **moves)
{
    const sm_hist_step *st = sm_history_step(h, k);
    if (!st) return 0;
    *moves = (const sm_hist_move *)h->moves.p + st->cur_off;
    return st->ncur;
}

size_t sm_history_bytes(const sm_history *h)
{
    return sizeof *h->steps * (size_t)h->nsteps + h->moves.len * h->moves.item + h->cands.len * h->cands.item +
           h->tabu.len * h->tabu.item + h->stats.len * h->stats.item + h->text.len +
           h->trace.len * h->trace.item;
}

void sm_history_seek(sm_history *h, sm_solver *s, long long k)
{
    if (k < h->first) k = h->first;
    if (k > sm_history_head(h)) k = sm_history_head(h);
    const sm_hist_move *mv = (const sm_hist_move *)h->moves.p;
    for (; h->cursor > k; h->cursor--) {
        const sm_hist_step *st = at(h, h->cursor);
        xor_moves(h->cur, mv + st->cur_off, st->ncur);
        xor_moves(s->best_map, mv + st->best_off, st->nbest);
    }
    for (; h->cursor < k; h->cursor++) {
        const sm_hist_step *st = at(h, h->cursor + 1);
        xor_moves(h->cur, mv + st->cur_off, st->ncur);
        xor_moves(s->best_map, mv + st->best_off, st->nbest);
    }
    const sm_hist_step *st = at(h, k);
    s->iteration = st->iteration;
    s->has_current = st->has_current;
    s->current = st->current;
    s->has_best = st->has_best;
    s->best = st->best;
    s->done = st->done || s->stopped;
    snprintf(s->last_move, sizeof s->last_move, "%s", sm_history_move(h, st));
    snprintf(s->status, sizeof s->status, "%s", s->stopped ? "stopped" : status_of(h, st));
    s->nstats = st->nstats;
    const double *v = (const double *)h->stats.p + st->stat_off;
    for (int i = 0; i < st->nstats; i++) s->stats[i].value = v[i];
    if (k == sm_history_head(h)) s->current_map = h->solver_map;
    else s->current_map = st->current_shown ? h->cur : NULL;
}
