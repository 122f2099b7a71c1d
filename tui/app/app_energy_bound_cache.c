/* app_energy_bound_cache.c - the session's energy lower bound (core/bound/energy_bound.c),
 * kept while the grid, machine and model stay: the Energy pane, solve and
 * solver state all read it. */
#include <math.h>
#include <pthread.h>
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

/* Which of the three cached bounds sm_app_solver_bound_with reads for s. */
enum { AHEAD_PLAIN, AHEAD_DVFS, AHEAD_AT };

struct sm_app_bound_ahead {
    pthread_t thread;
    int which, dvfs;
    double deadline;
    const sm_grid *g;
    const sm_topo *t;
    sm_model m;
    const int *iso;            /* the cache's, when it is the grid's */
    int *own_iso;              /* else made by the thread, kept by _end */
    const sm_session *session;
    unsigned long long structure;
    sm_bound b;
};

static void *ahead_work(void *arg)
{
    sm_app_bound_ahead *a = arg;
    const int *iso = a->iso;
    if (!iso) iso = a->own_iso = sm_bound_profile(a->g);
    sm_bound_compute_with(a->g, a->t, &a->m, iso, a->dvfs ? SM_BOUND_DVFS : 0, &a->b);
    return NULL;
}

/* Above this many blocks the bound waits for the apply, as before: the
 * apply holds two cost states of the session's grid at once, and the
 * bound's own memory on top would raise the peak (a whole Summit's
 * 16.7 M blocks run within 4 GB with little to spare). */
#define BOUND_BESIDE_MAX (1 << 21)

sm_app_bound_ahead *sm_app_solver_bound_begin(sm_app *app, const sm_solver *s, int threads)
{
    sm_session *ss = app->session;
    if (threads < 2 || !ss || ss->grid->ntasks > BOUND_BESIDE_MAX) return NULL;
    /* The same choice as sm_app_solver_bound_with's, and its cache test. */
    int own = s->deadline_from && s->model.has_deadline && !ss->model.has_deadline;
    int which = own ? AHEAD_AT : s->best_states ? AHEAD_DVFS : AHEAD_PLAIN;
    int dvfs = own ? s->best_states != NULL : which == AHEAD_DVFS;
    if ((which == AHEAD_PLAIN && app->has_bound && app->bound_session == ss &&
         app->bound_structure == ss->structure) ||
        (which == AHEAD_DVFS && app->has_bound_dvfs && app->bound_dvfs_structure == ss->structure) ||
        (which == AHEAD_AT && app->has_bound_at && app->bound_at_session == ss &&
         app->bound_at_structure == ss->structure && app->bound_at_deadline == s->model.deadline &&
         app->bound_at_dvfs == dvfs))
        return NULL;
    sm_app_bound_ahead *a = sm_xcalloc(1, sizeof *a);
    a->which = which;
    a->dvfs = dvfs;
    a->deadline = s->model.deadline;
    a->g = ss->grid;
    a->t = ss->topo;
    a->m = ss->model;
    if (which == AHEAD_AT) {
        a->m.has_deadline = 1;
        a->m.deadline = a->deadline;
    }
    a->iso = app->bound_iso && same_spec(&app->bound_iso_spec, &ss->grid->spec) ? app->bound_iso : NULL;
    a->session = ss;
    a->structure = ss->structure;
    if (pthread_create(&a->thread, NULL, ahead_work, a) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

void sm_app_solver_bound_end(sm_app *app, sm_app_bound_ahead *a)
{
    if (!a) return;
    pthread_join(a->thread, NULL);
    sm_session *ss = app->session;
    if (a->own_iso) {
        free(app->bound_iso);
        app->bound_iso = a->own_iso;
        app->bound_iso_spec = a->g->spec;
    }
    /* Kept as the cache would have kept it computed now: for the session
     * and structure it was computed for (a later test still checks). */
    if (ss != a->session) {
        sm_bound_free(&a->b);
    } else if (a->which == AHEAD_PLAIN) {
        sm_bound_free(&app->bound);
        app->bound = a->b;
        app->has_bound = 1;
        app->bound_session = a->session;
        app->bound_structure = a->structure;
    } else if (a->which == AHEAD_DVFS) {
        app->bound_dvfs = a->b.energy;
        sm_bound_free(&a->b);
        app->bound_dvfs_structure = a->structure;
        app->has_bound_dvfs = 1;
    } else {
        app->bound_at = a->b.energy;
        sm_bound_free(&a->b);
        app->bound_at_deadline = a->deadline;
        app->bound_at_dvfs = a->dvfs;
        app->bound_at_structure = a->structure;
        app->bound_at_session = a->session;
        app->has_bound_at = 1;
    }
    free(a);
}
