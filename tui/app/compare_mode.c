/* compare_mode.c - the other mapping of compare mode, kept evaluated (see
 * compare_mode.h). */
#include "compare_mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/stepper/step_history.h"

const char *const sm_compare_source_names[SM_CMP_COUNT] = {"off", "solver", "file", "undo", "run"};

sm_compare *sm_compare_new(void)
{
    return sm_xcalloc(1, sizeof(sm_compare));
}

static void release(sm_compare *c)
{
    sm_cost_free(c->cost);
    free(c->map);
    c->cost = NULL;
    c->map = NULL;
    c->n = 0;
}

void sm_compare_free(sm_compare *c)
{
    if (!c) return;
    release(c);
    free(c);
}

/* FNV-1a over the block grid's shape and the processors' names in
 * order: what a block -> processor mapping refers to. */
static unsigned long long layout_of(const sm_session *s)
{
    unsigned long long h = 1469598103934665603ull;
#define MIX(byte) (h = (h ^ (unsigned char)(byte)) * 1099511628211ull)
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 4; k++) MIX((unsigned)s->grid->spec.blocks[a] >> (8 * k));
    for (int p = 0; p < s->topo->nprocs; p++) {
        for (const char *n = s->topo->procs[p].name; *n; n++) MIX(*n);
        MIX(0);
    }
#undef MIX
    return h;
}

static void stamp(sm_compare *c, const sm_session *s)
{
    c->session = s;
    c->structure = s->structure;
    c->rebuilt = s->rebuilt;
    c->layout = layout_of(s);
    c->ntasks = s->grid->ntasks;
}

int sm_compare_fits(const sm_compare *c, const sm_session *s)
{
    if (c->session != s || c->ntasks != s->grid->ntasks) return 0;
    return c->rebuilt == s->rebuilt || c->layout == layout_of(s);
}

void sm_compare_set(sm_compare *c, const sm_session *s, sm_compare_source src, const int *map,
                    const char *label)
{
    release(c);
    c->n = s->grid->ntasks;
    c->map = sm_xmalloc(sizeof(int) * (size_t)(c->n ? c->n : 1));
    memcpy(c->map, map, sizeof(int) * (size_t)c->n);
    c->cost = sm_cost_new(s->grid, s->topo, &s->model, c->map);
    sm_cost_eval(c->cost, &c->ev);
    c->source = c->last = src;
    snprintf(c->label, sizeof c->label, "%s", label);
    c->solver = NULL;
    c->solver_iter = -1;
    c->run = NULL;
    stamp(c, s);
    c->version++;
}

/* The other run's mapping at its step shown. */
static const int *run_map(const sm_solver *r)
{
    return r->current_map ? r->current_map : r->has_best ? r->best_map : NULL;
}

/* The other run to step k of the run shown (its last when it has fewer,
 * its first kept when k is before it). */
static void run_to(sm_solver *r, long long k)
{
    if (!r->hist) return;
    if (k > sm_history_head(r->hist)) k = sm_history_head(r->hist);
    if (k < sm_history_first(r->hist)) k = sm_history_first(r->hist);
    if (sm_history_cursor(r->hist) != k) sm_solver_seek(r, k);
}

void sm_compare_set_run(sm_compare *c, const sm_session *s, sm_solver *run, const char *name, const sm_solver *shown)
{
    run_to(run, shown->iteration);
    const int *m = run_map(run);
    sm_compare_set(c, s, SM_CMP_RUN, m ? m : sm_session_map(s), name);
    c->run = run;
    snprintf(c->run_name, sizeof c->run_name, "%s", name);
    c->run_step = run->iteration;
    c->solver = shown;
    c->solver_iter = shown->iteration;
    snprintf(c->label, sizeof c->label, "%s @%lld", name, run->iteration);
}

void sm_compare_off(sm_compare *c)
{
    if (c->source == SM_CMP_OFF) return;
    release(c);
    c->source = SM_CMP_OFF;
    c->version++;
}

/* The solver's best is there to follow (not stopped for good). */
static int solver_best(const sm_solver *sv)
{
    return sv && !sv->detached && sv->has_best && sv->best_map;
}

int sm_compare_refresh(sm_compare *c, const sm_session *s, const sm_solver *sv)
{
    if (c->source == SM_CMP_OFF) return 0;
    /* Another grid or machine: the mapping means nothing there. */
    if (!sm_compare_fits(c, s)) {
        sm_compare_off(c);
        c->last = SM_CMP_SOLVER;   /* nor would its source again (key c) */
        return -1;
    }
    int changed = 0;
    /* A new model, or new grid or machine objects of the same shape and
     * names (a DVFS state): the old cost points into what was freed. */
    if (c->structure != s->structure || c->rebuilt != s->rebuilt) {
        sm_cost_free(c->cost);
        c->cost = sm_cost_new(s->grid, s->topo, &s->model, c->map);
        stamp(c, s);
        changed = 1;
    }
    if (c->source == SM_CMP_SOLVER && solver_best(sv) && (sv != c->solver || sv->iteration != c->solver_iter)) {
        int moved = 0, fresh = sv != c->solver;
        for (int b = 0; b < c->n; b++)
            if (sv->best_map[b] != c->map[b]) {
                c->map[b] = sv->best_map[b];
                sm_cost_move(c->cost, b, sv->best_map[b]);
                moved = 1;
            }
        snprintf(c->label, sizeof c->label, "%s best", sv->ops->name); /* a new solver may reuse the address */
        c->solver = sv;
        c->solver_iter = sv->iteration;
        changed |= moved || fresh;
    }
    if (c->source == SM_CMP_RUN && c->run && sv && !c->run->detached &&
        (sv != c->solver || sv->iteration != c->solver_iter || c->run->iteration != c->run_step)) {
        /* At equal steps: the other run follows the one shown. */
        run_to(c->run, sv->iteration);
        const int *m = run_map(c->run);
        for (int b = 0; m && b < c->n; b++)
            if (m[b] != c->map[b]) {
                c->map[b] = m[b];
                sm_cost_move(c->cost, b, m[b]);
            }
        c->solver = sv;
        c->solver_iter = sv->iteration;
        c->run_step = c->run->iteration;
        snprintf(c->label, sizeof c->label, "%s @%lld", c->run_name, c->run->iteration);
        changed = 1;
    }
    if (changed) {
        sm_cost_eval(c->cost, &c->ev);
        c->version++;
    }
    return changed;
}

int sm_compare_differ(const sm_compare *c, const int *map)
{
    int d = 0;
    for (int b = 0; b < c->n; b++) d += c->map[b] != map[b];
    return d;
}
