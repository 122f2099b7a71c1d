/* app_energy_bound_cache.c - the session's energy lower bound (core/bound/energy_bound.c),
 * kept while the grid, machine and model stay: the Energy pane, solve and
 * solver state all read it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"

static int same_spec(const sm_grid_spec *a, const sm_grid_spec *b)
{
    for (int i = 0; i < 3; i++)
        if (a->cells[i] != b->cells[i] || a->blocks[i] != b->blocks[i] || a->periodic[i] != b->periodic[i])
            return 0;
    return a->halo == b->halo && a->stencil == b->stencil;
}

/* The grid's boundary profile, which every bound reads, for the
 * session's grid (a grid is its spec's). The bounds at a deadline and
 * over DVFS states need only it, not the bound without a deadline: solve
 * at tabu's own deadline computed that one for nothing (a bound at 262 K
 * blocks is ~1.5 % of tabu's time on 2 threads). */
static void iso_for_grid(sm_app *app)
{
    sm_session *s = app->session;
    if (app->bound_iso && same_spec(&app->bound_iso_spec, &s->grid->spec)) return;
    free(app->bound_iso);
    app->bound_iso = sm_bound_profile(s->grid);
    app->bound_iso_spec = s->grid->spec;
}

const sm_bound *sm_app_bound(sm_app *app)
{
    sm_session *s = app->session;
    if (!app->has_bound || app->bound_session != s || app->bound_structure != s->structure) {
        iso_for_grid(app);
        sm_bound_free(&app->bound);
        sm_bound_compute_with(s->grid, s->topo, &s->model, app->bound_iso, 0, &app->bound);
        app->has_bound = 1;
        app->bound_session = s;
        app->bound_structure = s->structure;
    }
    return &app->bound;
}

double sm_app_bound_dvfs(sm_app *app)
{
    sm_session *s = app->session;
    iso_for_grid(app);
    if (!app->has_bound_dvfs || app->bound_dvfs_structure != s->structure) {
        sm_bound b;
        sm_bound_compute_with(s->grid, s->topo, &s->model, app->bound_iso, SM_BOUND_DVFS, &b);
        app->bound_dvfs = b.energy;
        sm_bound_free(&b);
        app->bound_dvfs_structure = s->structure;
        app->has_bound_dvfs = 1;
    }
    return app->bound_dvfs;
}

double sm_app_bound_at(sm_app *app, double deadline, int dvfs)
{
    sm_session *s = app->session;
    iso_for_grid(app);
    if (!app->has_bound_at || app->bound_at_session != s || app->bound_at_structure != s->structure ||
        app->bound_at_deadline != deadline || app->bound_at_dvfs != dvfs) {
        sm_model m = s->model;
        m.has_deadline = 1;
        m.deadline = deadline;
        sm_bound b;
        sm_bound_compute_with(s->grid, s->topo, &m, app->bound_iso, dvfs ? SM_BOUND_DVFS : 0, &b);
        app->bound_at = b.energy;
        sm_bound_free(&b);
        app->bound_at_deadline = deadline;
        app->bound_at_dvfs = dvfs;
        app->bound_at_structure = s->structure;
        app->bound_at_session = s;
        app->has_bound_at = 1;
    }
    return app->bound_at;
}

double sm_app_solver_bound(sm_app *app, const sm_solver *s, const sm_eval *ev, double *gap, int *own_deadline)
{
    double proved = NAN;
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "bound") == 0) proved = s->stats[i].value;
    return sm_app_solver_bound_with(app, s, proved, ev, gap, own_deadline);
}

double sm_app_solver_bound_with(sm_app *app, const sm_solver *s, double proved, const sm_eval *ev, double *gap,
                                int *own_deadline)
{
    /* A solver that picks DVFS states is measured against the bound over
     * every state: the session's states alone do not bound it. */
    /* A solver that held itself to a deadline of its own (the scenario
     * has none: tabu takes its fastest start's time) is measured at that
     * deadline, as it searched; `model bound`, with no deadline, bounds
     * mappings of any makespan and is lower. */
    int own = s->deadline_from && s->model.has_deadline && !app->session->model.has_deadline;
    double b = own ? sm_app_bound_at(app, s->model.deadline, s->best_states != NULL)
               : s->best_states ? sm_app_bound_dvfs(app) : sm_app_bound(app)->energy;
    if (own_deadline) *own_deadline = own;
    /* The larger of it and a bound the solver proved itself (the ILP's;
     * +inf when it proved that nothing meets the deadline). */
    if (proved > b && isfinite(b)) b = proved;
    *gap = NAN;
    if (ev && ev->feasible && isfinite(b) && ev->energy > 0) {
        /* Rounding of a proven optimum's sums is no gap. */
        double g = (ev->energy - b) / ev->energy;
        *gap = g < 1e-12 ? 0 : g;
    }
    return b;
}
