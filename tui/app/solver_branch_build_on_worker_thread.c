/* solver_branch_build_on_worker_thread.c - `solver branch` on a worker thread (see
 * solver_branch_build_on_worker_thread.h). The worker touches only the new solver
 * and reads what sm_branch_new reads of the run it branches from (its
 * grid, machine, start mapping, first model and options, branch points:
 * fixed while that run lives); everything that frees that run waits for
 * it first (sm_app_branch_cancel). The check against the recorded step
 * and the option change run on the workbench's thread, when it is in:
 * the run branched from may have stepped meanwhile. */
#include "solver_branch_build_on_worker_thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "compare_mode.h"
#include "solvers/stepper/solver_branch.h"

struct sm_branch_build {
    pthread_t thread;
    int threaded;
    atomic_int finished;
    const sm_solver *from;
    int parent;
    long long k;
    sm_solver *b;
    int rc;
    sm_err err;
    volatile int cancel;
    atomic_llong at;          /* the step replayed so far */
    struct timespec t0;
    double seconds;
    char name[32];
    int argc;
    char **argv;
    /* V compares the branch with its parent next, most likely: compare
     * mode's buffers for it, their pages touched here, not on the key. */
    int *cmp_map;
    unsigned char *cmp_differs;
    int cmp_n;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void *work(void *arg)
{
    struct sm_branch_build *j = arg;
    /* At the workbench's own priority, as a background start: the
     * solver's step workers are made here and keep it for the run's
     * life (a nice value would slow every step of the branch). */
    j->b = sm_branch_new(j->from, j->k, &j->cancel, &j->err);
    j->rc = j->b ? 0 : -1;
    while (j->rc == 0) {
        int r = sm_branch_replay(j->b, j->k, &j->err);
        atomic_store(&j->at, j->b->iteration);
        if (r <= 0) {
            j->rc = r;
            break;
        }
        if (j->cancel) {
            sm_err_set(&j->err, "given up while replaying (at step %lld of %lld)", j->b->iteration, j->k);
            j->rc = -1;
        }
    }
    if (j->rc && j->b) {
        sm_solver_free(j->b);
        j->b = NULL;
    }
    int n = j->b ? j->b->grid->ntasks : 0;
    if (n >= sm_compare_background_blocks && n > 0) {
        j->cmp_map = sm_xmalloc(sizeof(int) * (size_t)n);
        j->cmp_differs = sm_xmalloc((size_t)n);
        memset(j->cmp_map, 0, sizeof(int) * (size_t)n);
        memset(j->cmp_differs, 0, (size_t)n);
        j->cmp_n = n;
    }
    j->seconds = since(&j->t0);
    atomic_store(&j->finished, 1);
    return NULL;
}

void sm_app_branch_begin(sm_app *app, int parent, long long k, int argc, const char *const *argv, const char *name)
{
    sm_app_branch_settle(app);
    app->branch_poll = sm_app_branch_poll;
    app->branch_settle = sm_app_branch_settle;
    app->branch_cancel = sm_app_branch_cancel;
    struct sm_branch_build *j = sm_xcalloc(1, sizeof *j);
    j->from = app->runs[parent].s;
    j->parent = parent;
    j->k = k;
    snprintf(j->name, sizeof j->name, "%s", name);
    j->argc = argc;
    j->argv = sm_xmalloc(sizeof(char *) * (size_t)(argc + 1));
    for (int i = 0; i < argc; i++) j->argv[i] = sm_xstrdup(argv[i]);
    atomic_init(&j->finished, 0);
    atomic_init(&j->at, 0);
    clock_gettime(CLOCK_MONOTONIC, &j->t0);
    app->branching = j;
    j->threaded = pthread_create(&j->thread, NULL, work, j) == 0;
    if (!j->threaded) work(j);   /* no thread to be had: built here */
}

static void job_free(struct sm_branch_build *j)
{
    free(j->cmp_map);
    free(j->cmp_differs);
    for (int i = 0; i < j->argc; i++) free(j->argv[i]);
    free(j->argv);
    sm_solver_free(j->b);
    free(j);
}

/* The finished build, joined and taken off the app. */
static struct sm_branch_build *take(sm_app *app)
{
    struct sm_branch_build *j = app->branching;
    if (j->threaded) pthread_join(j->thread, NULL);
    app->branching = NULL;
    return j;
}

static void finish(sm_app *app)
{
    struct sm_branch_build *j = take(app);
    char pname[32];   /* a copy: adding the run moves app->runs */
    snprintf(pname, sizeof pname, "%s", app->runs[j->parent].name);
    char what[160] = "";
    int rc = j->rc;
    if (rc == 0)
        rc = sm_branch_change(j->b, j->from, j->k, j->argc, (const char *const *)j->argv, what, sizeof what, &j->err);
    if (rc) {
        sm_view_log(app->view, SM_LOG_ERROR, "solver branch %s: %s", j->name, j->err.msg);
        job_free(j);
        return;
    }
    sm_solver *b = j->b;
    j->b = NULL;
    b->interrupt = NULL;
    sm_compare *c = app->compare;
    if (c && !c->map && !(c->spare_map && c->spare_n == j->cmp_n) && j->cmp_map) {
        sm_compare_give_buffers(c, j->cmp_map, j->cmp_differs, j->cmp_n);
        j->cmp_map = NULL;
        j->cmp_differs = NULL;
    }
    int i = sm_app_run_add(app, b, j->parent, j->k, what, j->name);
    sm_view_log(app->view, SM_LOG_NOTE, "%s: %s from %s at step %lld%s%s (built in the background in %.2f s); "
                "solver switch %s goes back", app->runs[i].name, b->ops->name, pname, j->k, what[0] ? " with " : "",
                what, j->seconds, pname);
    sm_view_touch(app->view);
    job_free(j);
}

int sm_app_branch_poll(sm_app *app)
{
    if (!app->branching || !atomic_load(&app->branching->finished)) return 0;
    finish(app);
    return 1;
}

void sm_app_branch_settle(sm_app *app)
{
    if (!app->branching) return;
    /* The workbench keeps drawing (the status line counts the seconds)
     * and queues the keys typed meanwhile; Esc or C-c gives it up. */
    struct timespec nap = {0, 20 * 1000 * 1000};
    double last = 0;
    while (app->branching && !atomic_load(&app->branching->finished)) {
        if (app->interrupt) app->branching->cancel = 1;
        if (app->screen && since(&app->branching->t0) - last >= 0.05) {
            sm_app_progress(app);
            last = app->branching ? since(&app->branching->t0) : 0;
        } else {
            nanosleep(&nap, NULL);
        }
    }
    if (!app->branching) return;
    if (app->branching->cancel) app->interrupt = 0;
    finish(app);
}

void sm_app_branch_cancel(sm_app *app)
{
    if (!app->branching) return;
    app->branching->cancel = 1;
    struct sm_branch_build *j = take(app);
    sm_view_log(app->view, SM_LOG_NOTE, "solver branch %s: given up (its runs went)", j->name);
    job_free(j);
}

int sm_app_branch_progress(const sm_app *app, char *out, size_t n)
{
    const struct sm_branch_build *j = app->branching;
    if (!j) return 0;
    long long at = atomic_load(&((struct sm_branch_build *)j)->at);
    if (at > 0)
        snprintf(out, n, "%s building: step %lld of %lld, %.1f s", j->name, at, j->k, since(&j->t0));
    else
        snprintf(out, n, "%s building: its start, %.1f s", j->name, since(&j->t0));
    return 1;
}
