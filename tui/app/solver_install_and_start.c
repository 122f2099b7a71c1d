/* solver_install_and_start.c - the workbench's solver: installing one, the cost state
 * the panes take over from it, and a `solver start` that runs on in the
 * background (solver_start_on_worker_thread.c) until it is installed, abandoned or waited
 * for. No Tcl: the command layer (cmd_solve.c) and every command that
 * changes what a solver reads call these. */
#include "solvers/solver_registry.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "solver_start_on_worker_thread.h"
#include "compare_mode.h"
#include "solvers/stepper/step_history_record_seek_back.h"

void sm_app_set_solver_view(sm_app *app, struct sm_cost *view, const sm_solver *of)
{
    sm_cost_free(app->solver_view);
    app->solver_view = view;
    app->solver_view_of = view ? of : NULL;
}

/* Every run's solver freed (the one shown among them). */
static void free_runs(sm_app *app)
{
    /* A branch being built reads one of them. */
    if (app->branch_cancel) app->branch_cancel(app);
    /* Compare mode's other run goes with them. */
    if (app->compare && app->compare->source == SM_CMP_RUN) sm_compare_off(app->compare);
    if (app->compare) {
        app->compare->run = NULL;
        app->compare->kept_run = NULL;
    }
    for (int i = 0; i < app->nruns; i++)
        if (app->runs[i].s != app->solver) sm_solver_free(app->runs[i].s);
    free(app->runs);
    app->runs = NULL;
    app->nruns = app->run_shown = app->run_serial = 0;
    sm_solver_free(app->solver);
    app->solver = NULL;
}

void sm_app_drop_solver(sm_app *app)
{
    sm_app_solver_abandon(app);
    free_runs(app);
    sm_app_set_solver_view(app, NULL, NULL);
    app->view->show_solver = 0;
    app->view->running = 0;
}

const char *sm_app_solver_phase(const sm_app *app, const sm_solver *s)
{
    if (s->done) return "ended";
    if (s->step_began > 0 || (app->solver == s && (app->view->running || app->solver_depth > 0))) return "stepping";
    return s->iteration == 0 ? "ready" : "paused";
}

/* Progress inside a long step (the ILP): the TUI redraws; a batch run on a
 * terminal gets one status line on stderr. */
static void solver_progress(sm_solver *s, void *ctx)
{
    sm_app *app = ctx;
    if (app->screen) {
        sm_app_progress(app);
        return;
    }
    if (!isatty(2)) return;
    fprintf(stderr, "\r%s: %s", s->ops->name, s->status);
    for (int i = 0; i < s->nstats; i++)
        fprintf(stderr, "  %s %.6g", s->stats[i].key, s->stats[i].value);
    fprintf(stderr, "\033[K");
    fflush(stderr);
}

/* A started solver becomes the app's: interrupts and progress reach it
 * from here on, and the panes follow it when show (its current mapping's
 * cost state view, if the start built one, is theirs to take). */
void sm_app_solver_install(sm_app *app, sm_solver *s, sm_cost *view, int show)
{
    s->interrupt = &app->interrupt;
    s->progress = solver_progress;
    s->progress_ctx = app;
    /* A new start: its run is main, the old runs go. */
    free_runs(app);
    app->solver = s;
    app->runs = sm_xcalloc(1, sizeof *app->runs);
    app->runs[0] = (sm_solver_run){"main", s, -1, 0, ""};
    app->nruns = 1;
    sm_app_set_solver_view(app, view, s);
    sm_view_spark_reset(app->view);
    app->view->show_solver = show && s->current_map != NULL;
    /* Every step from here on is recorded: back, seek, explain. */
    sm_solver_history_on(s);
}

void sm_app_run_new_name(sm_app *app, char *out, size_t n)
{
    /* b1, b2...: never a name used before in this start. */
    do snprintf(out, n, "b%d", ++app->run_serial);
    while (sm_app_run_find(app, out) >= 0);
}

int sm_app_run_add(sm_app *app, sm_solver *b, int parent, long long at, const char *change, const char *name)
{
    app->runs = sm_xrealloc(app->runs, sizeof *app->runs * (size_t)(app->nruns + 1));
    sm_solver_run *r = &app->runs[app->nruns];
    memset(r, 0, sizeof *r);
    if (name) snprintf(r->name, sizeof r->name, "%s", name);
    else sm_app_run_new_name(app, r->name, sizeof r->name);
    r->s = b;
    r->parent = parent;
    r->at = at;
    snprintf(r->change, sizeof r->change, "%s", change);
    app->nruns++;
    sm_app_run_show(app, app->nruns - 1);
    return app->nruns - 1;
}

void sm_app_run_show(sm_app *app, int i)
{
    sm_solver *s = app->runs[i].s;
    s->interrupt = &app->interrupt;
    s->progress = solver_progress;
    s->progress_ctx = app;
    int was = app->run_shown;
    app->run_shown = i;
    if (app->solver == s) return;
    /* Comparing with the run now shown: the other side is the one left. */
    if (app->compare && app->compare->source == SM_CMP_RUN && app->compare->run == s) {
        /* At the step the run left showed: equal steps across a switch. */
        long long k = app->runs[was].s->iteration;
        if (s->hist && !s->detached) {
            if (k > sm_history_head(s->hist)) k = sm_history_head(s->hist);
            if (k < sm_history_first(s->hist)) k = sm_history_first(s->hist);
            sm_solver_seek(s, k);
        }
        sm_compare_set_run(app->compare, app->session, app->runs[was].s, app->runs[was].name, s);
    }
    app->solver = s;
    sm_app_set_solver_view(app, NULL, NULL);
    sm_view_spark_reset(app->view);
    app->view->show_solver = s->current_map != NULL || s->has_best;
    app->view->running = 0;
    app->paused_by_interrupt = 0;
}

int sm_app_run_find(const sm_app *app, const char *name)
{
    for (int i = 0; i < app->nruns; i++)
        if (strcmp(app->runs[i].name, name) == 0) return i;
    return -1;
}

/* After `solver start`, the Solver pane's picker names the solver started
 * (Enter starts it again), not the one last picked by hand. */
void sm_app_solver_pick(sm_app *app, const sm_solver_ops *ops)
{
    const sm_solver_ops *const *all = sm_solver_list();
    for (int i = 0; all[i]; i++)
        if (all[i] == ops) app->view->solver_row = i;
}

static void finish_start(sm_app *app)
{
    sm_solver_start *st = app->starting;
    app->starting = NULL;
    char name[32];
    snprintf(name, sizeof name, "%s", sm_solver_start_name(st));
    sm_cost *view;
    double sec;
    sm_err e;
    sm_solver *s = sm_solver_start_end(st, &view, &sec, &e);
    if (!s) {
        sm_view_log(app->view, SM_LOG_ERROR, "solver start %s: %s", name, e.msg);
        app->view->show_solver = 0;
        app->view->running = 0;
        return;
    }
    sm_app_solver_install(app, s, view, app->view->show_solver);
    sm_view_log(app->view, SM_LOG_NOTE, "%s started (%.2f s in the background)", name, sec);
}

/* Ends the i-th abandoned start (waiting for it) and forgets it. */
static void end_abandoned(sm_app *app, int i)
{
    sm_solver_free(sm_solver_start_end(app->abandoned[i], NULL, NULL, NULL));
    app->abandoned[i] = app->abandoned[--app->nabandoned];
}

void sm_app_solver_abandon(sm_app *app)
{
    if (!app->starting) return;
    if (app->nabandoned == (int)(sizeof app->abandoned / sizeof app->abandoned[0])) end_abandoned(app, 0);
    sm_solver_start_cancel(app->starting);
    app->abandoned[app->nabandoned++] = app->starting;
    app->starting = NULL;
}

void sm_app_solver_poll(sm_app *app)
{
    if (app->compare) sm_compare_poll(app->compare);
    if (app->branch_poll) app->branch_poll(app);
    for (int i = app->nabandoned - 1; i >= 0; i--)
        if (sm_solver_start_wait(app->abandoned[i], 0)) end_abandoned(app, i);
    if (app->starting && sm_solver_start_wait(app->starting, 0)) finish_start(app);
    if (app->background_poll) app->background_poll(app);
}

void sm_app_solver_quiesce(sm_app *app)
{
    sm_app_solver_settle(app);   /* a branch being built is in after it */
    while (app->nabandoned) end_abandoned(app, app->nabandoned - 1);
    /* Compare mode's build reads the grid and machine too; the cost
     * state kept after V off goes (it points into what may change). */
    if (app->compare) sm_compare_drop_kept(app->compare);
}

void sm_app_solver_settle(sm_app *app)
{
    /* A branch being built: what acts on the solver acts on it once in
     * (solver branch 10; solver step 5 steps the branch). */
    if (app->branch_settle) app->branch_settle(app);
    if (!app->starting) return;
    /* The workbench keeps drawing (the Solver pane counts the seconds) and
     * queues the keys typed meanwhile. */
    while (app->screen && !sm_solver_start_wait(app->starting, 0.05)) sm_app_progress(app);
    finish_start(app);
}
