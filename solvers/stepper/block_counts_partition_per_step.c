/* block_counts_partition_per_step.c - partitions by counts per step: see block_counts_partition_per_step.h. */
#include "block_counts_partition_per_step.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

typedef struct point {
    size_t counts;            /* offset into ints */
    double time, energy, total;
} point;

/* One link of a front: a point and the link of the point before it. */
typedef struct cell {
    int point, prev;          /* prev -1: the front's first point */
} cell;

/* A front: its last link (-1: empty) and length. */
typedef struct front {
    int last, n;
} front;

typedef struct snap {
    point part;               /* counts, time, energy, total */
    double base_power;
    int has_front, has_total;
    front f, dyn;
} snap;

struct sm_part_history {
    int P;
    int *ints;
    size_t nints, ints_cap;
    point *points;
    int npoints, points_cap;
    cell *cells;
    int ncells, cells_cap;
    snap *snaps;
    int nsnaps, snaps_cap;
    /* What get() builds. */
    sm_partition shown;
    int shown_cap, shown_dyn_cap;
};

sm_part_history *sm_part_history_new(int nprocs)
{
    sm_part_history *ph = sm_xcalloc(1, sizeof *ph);
    ph->P = nprocs;
    return ph;
}

void sm_part_history_free(sm_part_history *ph)
{
    if (!ph) return;
    free(ph->ints);
    free(ph->points);
    free(ph->cells);
    free(ph->snaps);
    free(ph->shown.front);
    free(ph->shown.dyn);
    free(ph);
}

static size_t push_counts(sm_part_history *ph, const int *counts)
{
    if (ph->nints + (size_t)ph->P > ph->ints_cap) {
        size_t c = ph->ints_cap ? ph->ints_cap : 1024;
        while (c < ph->nints + (size_t)ph->P) c *= 2;
        ph->ints = sm_xrealloc(ph->ints, sizeof(int) * c);
        ph->ints_cap = c;
    }
    size_t off = ph->nints;
    if (ph->P) memcpy(ph->ints + off, counts, sizeof(int) * (size_t)ph->P);
    ph->nints += (size_t)ph->P;
    return off;
}

static point make_point(sm_part_history *ph, const int *counts, double time, double energy, double total)
{
    point p = {push_counts(ph, counts), time, energy, total};
    return p;
}

static int same_point(const sm_part_history *ph, const point *a, const int *counts, double time, double energy,
                      double total)
{
    return a->time == time && a->energy == energy && a->total == total &&
           memcmp(ph->ints + a->counts, counts, sizeof(int) * (size_t)ph->P) == 0;
}

static int push_cell(sm_part_history *ph, const sm_part_point *pp, int prev)
{
    if (ph->npoints == ph->points_cap) {
        ph->points_cap = ph->points_cap ? 2 * ph->points_cap : 64;
        ph->points = sm_xrealloc(ph->points, sizeof *ph->points * (size_t)ph->points_cap);
    }
    ph->points[ph->npoints++] = make_point(ph, pp->counts, pp->time, pp->energy, pp->total);
    if (ph->ncells == ph->cells_cap) {
        ph->cells_cap = ph->cells_cap ? 2 * ph->cells_cap : 64;
        ph->cells = sm_xrealloc(ph->cells, sizeof *ph->cells * (size_t)ph->cells_cap);
    }
    ph->cells[ph->ncells] = (cell){ph->npoints - 1, prev};
    return ph->ncells++;
}

/* The front pts[0..n) as a list sharing what it has in common with old:
 * since fronts change only at their end, walk old back from the shorter
 * length to the last point both hold, then add the rest. */
static front note_front(sm_part_history *ph, front old, const sm_part_point *pts, int n)
{
    int k = old.n < n ? old.n : n, c = old.last;
    for (int i = old.n; i > k; i--) c = ph->cells[c].prev;
    while (k > 0) {
        const sm_part_point *q = &pts[k - 1];
        if (same_point(ph, &ph->points[ph->cells[c].point], q->counts, q->time, q->energy, q->total)) break;
        c = ph->cells[c].prev;
        k--;
    }
    if (k == 0) c = -1;
    for (int i = k; i < n; i++) c = push_cell(ph, &pts[i], c);
    return (front){c, n};
}

/* Whether p's front ends as f does (the cheap test for "unchanged"). */
static int same_front(const sm_part_history *ph, front f, const sm_part_point *pts, int n)
{
    if (f.n != n) return 0;
    if (!n) return 1;
    const sm_part_point *q = &pts[n - 1];
    return same_point(ph, &ph->points[ph->cells[f.last].point], q->counts, q->time, q->energy, q->total);
}

int sm_part_history_note(sm_part_history *ph, const sm_partition *p)
{
    if (ph->nsnaps) {
        const snap *l = &ph->snaps[ph->nsnaps - 1];
        if (same_point(ph, &l->part, p->counts, p->time, p->energy, p->total) && l->base_power == p->base_power &&
            l->has_front == p->has_front && l->has_total == p->has_total &&
            same_front(ph, l->f, p->front, p->nfront) && same_front(ph, l->dyn, p->dyn, p->ndyn))
            return ph->nsnaps - 1;
    }
    front f0 = {-1, 0}, d0 = {-1, 0};
    if (ph->nsnaps) {
        f0 = ph->snaps[ph->nsnaps - 1].f;
        d0 = ph->snaps[ph->nsnaps - 1].dyn;
    }
    snap s;
    s.part = make_point(ph, p->counts, p->time, p->energy, p->total);
    s.base_power = p->base_power;
    s.has_front = p->has_front;
    s.has_total = p->has_total;
    s.f = note_front(ph, f0, p->front, p->nfront);
    s.dyn = note_front(ph, d0, p->dyn, p->ndyn);
    if (ph->nsnaps == ph->snaps_cap) {
        ph->snaps_cap = ph->snaps_cap ? 2 * ph->snaps_cap : 16;
        ph->snaps = sm_xrealloc(ph->snaps, sizeof *ph->snaps * (size_t)ph->snaps_cap);
    }
    ph->snaps[ph->nsnaps] = s;
    return ph->nsnaps++;
}

/* Front f into out[0..f.n), first point first. */
static void build_front(sm_part_history *ph, front f, sm_part_point *out)
{
    int c = f.last;
    for (int i = f.n - 1; i >= 0; i--, c = ph->cells[c].prev) {
        const point *q = &ph->points[ph->cells[c].point];
        out[i] = (sm_part_point){ph->ints + q->counts, q->time, q->energy, q->total};
    }
}

const sm_partition *sm_part_history_get(sm_part_history *ph, int i)
{
    if (i < 0 || i >= ph->nsnaps) return NULL;
    const snap *s = &ph->snaps[i];
    sm_partition *o = &ph->shown;
    if (s->f.n > ph->shown_cap) {
        ph->shown_cap = s->f.n;
        o->front = sm_xrealloc(o->front, sizeof *o->front * (size_t)ph->shown_cap);
    }
    if (s->dyn.n > ph->shown_dyn_cap) {
        ph->shown_dyn_cap = s->dyn.n;
        o->dyn = sm_xrealloc(o->dyn, sizeof *o->dyn * (size_t)ph->shown_dyn_cap);
    }
    o->nprocs = ph->P;
    o->counts = ph->ints + s->part.counts;
    o->time = s->part.time;
    o->energy = s->part.energy;
    o->total = s->part.total;
    o->base_power = s->base_power;
    o->has_front = s->has_front;
    o->has_total = s->has_total;
    o->nfront = s->f.n;
    o->ndyn = s->dyn.n;
    build_front(ph, s->f, o->front);
    build_front(ph, s->dyn, o->dyn);
    return o;
}
