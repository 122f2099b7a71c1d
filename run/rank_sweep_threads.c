/* rank_sweep_threads.c - a rank's sweep on its threads (rank_sweep_threads.h). */
#define _GNU_SOURCE
#include "rank_sweep_threads.h"
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

typedef struct piece {
    int block;
    int64_t r0, r1;
} piece;

typedef struct worker {
    struct smr_sweep *s;
    int index;
    int cpu;
    pthread_t thread;
} worker;

struct smr_sweep {
    sm_kblock *blocks;
    const int *mine;
    int nmine;
    int nthreads;
    piece *pieces;
    int npieces;
    worker *w;
    pthread_barrier_t start, done;
    pthread_mutex_t ready;   /* held while the threads are made */
    int synced;              /* the barriers and the mutex exist */
    int quit;
};

static void pin(int cpu)
{
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Thread t's pieces: t, t + T, t + 2T ... */
static void share(struct smr_sweep *s, int t)
{
    for (int i = t; i < s->npieces; i += s->nthreads)
        sm_kblock_sweep(&s->blocks[s->pieces[i].block], s->pieces[i].r0, s->pieces[i].r1);
}

static void *work(void *arg)
{
    worker *w = arg;
    pin(w->cpu);
    /* The barriers exist, for as many threads as could be made. */
    pthread_mutex_lock(&w->s->ready);
    pthread_mutex_unlock(&w->s->ready);
    for (;;) {
        pthread_barrier_wait(&w->s->start);
        if (w->s->quit) break;
        share(w->s, w->index);
        pthread_barrier_wait(&w->s->done);
    }
    return NULL;
}

smr_sweep *smr_sweep_new(sm_kblock *blocks, const int *mine, int nmine, int nthreads, const int *cpus)
{
    struct smr_sweep *s = sm_xcalloc(1, sizeof *s);
    s->blocks = blocks;
    s->mine = mine;
    s->nmine = nmine;
    s->nthreads = nthreads < 1 ? 1 : nthreads;
    /* Pieces: each block cut into enough row ranges that every thread has
     * work when blocks are fewer than threads. */
    int cuts = nmine >= s->nthreads || nmine == 0 ? 1 : (s->nthreads + nmine - 1) / nmine;
    s->pieces = sm_xmalloc(sizeof(piece) * (size_t)(nmine ? nmine : 1) * (size_t)cuts);
    for (int i = 0; i < nmine; i++) {
        sm_kblock *b = &blocks[mine[i]];
        int64_t rows = sm_kblock_rows(b);
        int c = cuts > rows ? (int)rows : cuts;
        for (int k = 0; k < c; k++)
            s->pieces[s->npieces++] = (piece){mine[i], rows * k / c, rows * (k + 1) / c};
    }
    s->w = sm_xcalloc((size_t)s->nthreads, sizeof(worker));
    pin(cpus ? cpus[0] : -1);
    if (s->nthreads > 1) {
        pthread_mutex_init(&s->ready, NULL);
        pthread_mutex_lock(&s->ready);
        int made = 1;
        for (int t = 1; t < s->nthreads; t++) {
            s->w[t] = (worker){s, t, cpus ? cpus[t] : -1, 0};
            if (pthread_create(&s->w[t].thread, NULL, work, &s->w[t]) != 0) break;
            made++;
        }
        s->nthreads = made; /* fewer than asked when threads ran out: still right */
        pthread_barrier_init(&s->start, NULL, (unsigned)made);
        pthread_barrier_init(&s->done, NULL, (unsigned)made);
        pthread_mutex_unlock(&s->ready);
        s->synced = 1;
    }
    return s;
}

void smr_sweep_run(smr_sweep *s)
{
    if (s->nthreads > 1) {
        pthread_barrier_wait(&s->start);
        share(s, 0);
        pthread_barrier_wait(&s->done);
    } else {
        share(s, 0);
    }
    for (int i = 0; i < s->nmine; i++) sm_kblock_swap(&s->blocks[s->mine[i]]);
}

void smr_sweep_free(smr_sweep *s)
{
    if (!s) return;
    if (s->synced) {
        s->quit = 1;
        if (s->nthreads > 1) pthread_barrier_wait(&s->start);
        for (int t = 1; t < s->nthreads; t++) pthread_join(s->w[t].thread, NULL);
        pthread_barrier_destroy(&s->start);
        pthread_barrier_destroy(&s->done);
        pthread_mutex_destroy(&s->ready);
    }
    free(s->w);
    free(s->pieces);
    free(s);
}
