/* solver_start_on_worker_thread.c - a solver's start on a worker thread (see
 * solver_start_on_worker_thread.h). The worker touches only the solver it was given, the
 * cost state it builds, and the grid and machine read-only; the command
 * layer waits for it (sm_solver_start_end) before anything replaces them.
 * One mutex and condition say "finished"; everything else is handed over
 * by the join. */
#include "solver_start_on_worker_thread.h"
#include "list_pane_rows.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sm_solver_start {
    pthread_t thread;
    int threaded;          /* else it ran in begin */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished;          /* under mu */
    sm_solver *s;
    int has_view_model;
    sm_model view_model;
    sm_cost *view;
    int rc;
    sm_err err;
    volatile int cancel;   /* the solver's interrupt while its init runs */
    struct timespec t0;
    double seconds;
    char name[32];
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void *work(void *arg)
{
    sm_solver_start *st = arg;
    st->rc = sm_solver_init(st->s, &st->err);
    if (st->rc == 0 && st->has_view_model && st->s->current_map && !st->cancel) {
        /* What the panes' first frame of the solver would build: the cost
         * state of its mapping and the rounds schedule the Communication
         * pane lists. */
        st->view = sm_cost_new(st->s->grid, st->s->topo, &st->view_model, st->s->current_map);
        if (sm_schedule_drawable(st->view)) {
            sm_schedule sched;
            sm_cost_schedule(st->view, &sched);
            sm_schedule_free(&sched);
        }
    }
    st->seconds = since(&st->t0);
    pthread_mutex_lock(&st->mu);
    st->finished = 1;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
    return NULL;
}

sm_solver_start *sm_solver_start_begin(sm_solver *s, const sm_model *view_model)
{
    sm_solver_start *st = sm_xcalloc(1, sizeof *st);
    st->s = s;
    s->interrupt = &st->cancel;
    if (view_model) {
        st->has_view_model = 1;
        st->view_model = *view_model;
    }
    snprintf(st->name, sizeof st->name, "%s", s->ops->name);
    clock_gettime(CLOCK_MONOTONIC, &st->t0);
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->cv, NULL);
    st->threaded = pthread_create(&st->thread, NULL, work, st) == 0;
    if (!st->threaded) work(st);   /* no thread to be had: start here, as sm_solver_new would */
    return st;
}

int sm_solver_start_wait(sm_solver_start *st, double seconds)
{
    pthread_mutex_lock(&st->mu);
    if (!st->finished && seconds > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = (long long)until.tv_nsec + (long long)(seconds * 1e9);
        until.tv_sec += (time_t)(ns / 1000000000LL);
        until.tv_nsec = (long)(ns % 1000000000LL);
        while (!st->finished && pthread_cond_timedwait(&st->cv, &st->mu, &until) != ETIMEDOUT) {}
    }
    int done = st->finished;
    pthread_mutex_unlock(&st->mu);
    return done;
}

void sm_solver_start_cancel(sm_solver_start *st) { st->cancel = 1; }

double sm_solver_start_elapsed(const sm_solver_start *st) { return since(&st->t0); }

const char *sm_solver_start_name(const sm_solver_start *st) { return st->name; }

sm_solver *sm_solver_start_end(sm_solver_start *st, sm_cost **view, double *seconds, sm_err *e)
{
    pthread_mutex_lock(&st->mu);
    while (!st->finished) pthread_cond_wait(&st->cv, &st->mu);
    pthread_mutex_unlock(&st->mu);
    if (st->threaded) pthread_join(st->thread, NULL);
    pthread_mutex_destroy(&st->mu);
    pthread_cond_destroy(&st->cv);
    sm_solver *s = st->s;
    s->interrupt = NULL;
    if (seconds) *seconds = st->seconds;
    if (view) *view = NULL;
    if (st->rc) {
        if (e) *e = st->err;
        sm_cost_free(st->view);
        sm_solver_free(s);
        s = NULL;
    } else if (view) {
        *view = st->view;
    } else {
        sm_cost_free(st->view);
    }
    free(st);
    return s;
}
