/* compare.c - the other mapping of compare mode, kept evaluated (see
 * compare.h). */
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sm_compare_source_names[SM_CMP_COUNT] = {"off", "solver", "file", "undo"};

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

static void stamp(sm_compare *c, const sm_session *s)
{
    c->session = s;
    c->structure = s->structure;
    c->rebuilt = s->rebuilt;
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
    stamp(c, s);
    c->version++;
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
    /* Another session, grid or machine: the mapping means nothing there,
     * and its cost points into what was freed. */
    if (c->session != s || c->rebuilt != s->rebuilt || c->n != s->grid->ntasks) {
        sm_compare_off(c);
        return -1;
    }
    int changed = 0;
    if (c->structure != s->structure) {  /* the model or a type's state */
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
