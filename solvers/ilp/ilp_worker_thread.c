/* ilp_worker_thread.c - a solve on a worker thread, handed over event by event
 * (ilp_worker_thread.h): a mutex, a condition and whose turn it is. */
#include "ilp_worker_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "core/lib/util.h"

struct ilp_run {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, finished, cancel;
    int worker_turn;        /* 1 while the worker runs, 0 while the stepper does */
    ilp_event ev;
    void (*body)(void *);
    void *arg;
    double active, resumed_at;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The worker's turn ends: hand ev to the stepper. Called with mu held. */
static void hand_over(ilp_run *r, ilp_event ev)
{
    r->active += now() - r->resumed_at;
    r->ev = ev;
    r->worker_turn = 0;
    pthread_cond_broadcast(&r->cv);
}

static void *worker(void *p)
{
    ilp_run *r = p;
    pthread_mutex_lock(&r->mu);
    while (!r->worker_turn) pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    r->body(r->arg);
    pthread_mutex_lock(&r->mu);
    r->finished = 1;
    hand_over(r, ILP_EV_DONE);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

ilp_run *ilp_run_new(void (*body)(void *arg), void *arg)
{
    ilp_run *r = sm_xcalloc(1, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    r->body = body;
    r->arg = arg;
    return r;
}

ilp_event ilp_run_resume(ilp_run *r)
{
    pthread_mutex_lock(&r->mu);
    if (r->finished) {
        pthread_mutex_unlock(&r->mu);
        return ILP_EV_DONE;
    }
    r->resumed_at = now();
    r->worker_turn = 1;
    if (!r->started) {
        r->started = 1;
        /* lp_solve's branch and bound recurses: give it room. */
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 64u << 20);
        if (pthread_create(&r->th, &at, worker, r) != 0) {
            pthread_attr_destroy(&at);
            /* No thread: run the body here, to the end, as one step. */
            r->started = 0;
            pthread_mutex_unlock(&r->mu);
            r->cancel = -1;   /* ilp_run_yield returns at once */
            r->body(r->arg);
            pthread_mutex_lock(&r->mu);
            r->finished = 1;
            r->worker_turn = 0;
            pthread_mutex_unlock(&r->mu);
            return ILP_EV_DONE;
        }
        pthread_attr_destroy(&at);
    }
    pthread_cond_broadcast(&r->cv);
    while (r->worker_turn) pthread_cond_wait(&r->cv, &r->mu);
    ilp_event ev = r->ev;
    pthread_mutex_unlock(&r->mu);
    return ev;
}

int ilp_run_yield(ilp_run *r, ilp_event ev)
{
    if (r->cancel) return r->cancel > 0;
    pthread_mutex_lock(&r->mu);
    hand_over(r, ev);
    while (!r->worker_turn) pthread_cond_wait(&r->cv, &r->mu);
    int c = r->cancel;
    pthread_mutex_unlock(&r->mu);
    return c;
}

int ilp_run_cancelled(const ilp_run *r) { return r->cancel > 0; }

double ilp_run_active(const ilp_run *r) { return r->active + (r->worker_turn ? now() - r->resumed_at : 0); }

int ilp_run_finished(const ilp_run *r) { return r->finished; }

void ilp_run_free(ilp_run *r)
{
    if (!r) return;
    if (r->started) {
        pthread_mutex_lock(&r->mu);
        r->cancel = 1;
        /* Resume until the body has unwound (each yield now returns 1). */
        while (!r->finished) {
            r->worker_turn = 1;
            pthread_cond_broadcast(&r->cv);
            while (r->worker_turn) pthread_cond_wait(&r->cv, &r->mu);
        }
        pthread_mutex_unlock(&r->mu);
        pthread_join(r->th, NULL);
    }
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}
