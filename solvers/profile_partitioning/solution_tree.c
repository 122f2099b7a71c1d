/* solution_tree.c - the explicit-stack solution tree (see solution_tree.h). */
#include "solution_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

static int cmp_cost(const void *a, const void *b)
{
    const sm_pt_point *x = a, *y = b;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    return x->size - y->size;
}

static int cmp_size(const void *a, const void *b)
{
    const sm_pt_point *x = a, *y = b;
    return x->size - y->size;
}

void sm_pt_proc_init(sm_pt_proc *p, const sm_pt_point *pts, int n)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    size_t sz = sizeof(sm_pt_point) * (size_t)(n ? n : 1);
    p->by_cost = sm_xmalloc(sz);
    p->by_size = sm_xmalloc(sz);
    p->max_size_upto = sm_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    memcpy(p->by_cost, pts, sizeof(sm_pt_point) * (size_t)n);
    memcpy(p->by_size, pts, sizeof(sm_pt_point) * (size_t)n);
    qsort(p->by_cost, (size_t)n, sizeof(sm_pt_point), cmp_cost);
    qsort(p->by_size, (size_t)n, sizeof(sm_pt_point), cmp_size);
    double m = -1;
    for (int k = 0; k < n; k++) {
        if (p->by_cost[k].size > m) m = p->by_cost[k].size;
        p->max_size_upto[k] = m;
    }
    p->min_cost = n ? p->by_cost[0].cost : INFINITY;
    p->min_rate = INFINITY;
    for (int k = 0; k < n; k++) {
        if (pts[k].cost < 0) p->min_rate = -INFINITY;
        if (pts[k].size > 0 && pts[k].cost / pts[k].size < p->min_rate)
            p->min_rate = pts[k].cost / pts[k].size;
    }
}

void sm_pt_proc_free(sm_pt_proc *p)
{
    free(p->by_cost);
    free(p->by_size);
    free(p->max_size_upto);
    memset(p, 0, sizeof *p);
}

/* The most blocks processor p can take at a cost strictly below c. */
static double max_size_below(const sm_pt_proc *p, double c)
{
    int lo = 0, hi = p->n; /* first index with cost >= c */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->by_cost[mid].cost < c) lo = mid + 1;
        else hi = mid;
    }
    return lo ? p->max_size_upto[lo - 1] : -1;
}

/* The size threshold: the most blocks levels i.. can hold while the
 * value stays below `bound`. */
static double size_threshold(const sm_pt_tree *t, int i, double bound)
{
    if (!isfinite(bound)) return t->reach[i];
    double s = 0;
    for (int j = i; j < t->P; j++) {
        const sm_pt_proc *p = &t->procs[j];
        double c = t->op == SM_PT_MAX ? bound
                                      : bound - (t->rest_min[i] - p->min_cost);
        double m = max_size_below(p, c);
        if (m < 0) return -1; /* this processor cannot even stay empty */
        s += m;
    }
    return s;
}

static size_t at(const sm_pt_tree *t, int i, int rem)
{
    return (size_t)i * (size_t)(t->n + 1) + (size_t)rem;
}

void sm_pt_start(sm_pt_tree *t, const sm_pt_proc *procs, int P, int n,
                 sm_pt_op op, double bound)
{
    memset(t, 0, sizeof *t);
    t->P = P;
    t->n = n;
    t->op = op;
    t->procs = procs;
    size_t cells = (size_t)(P ? P : 1) * (size_t)(n + 1);
    t->exact = sm_xmalloc(sizeof(double) * cells);
    t->lower = sm_xmalloc(sizeof(double) * cells);
    t->choice = sm_xmalloc(sizeof(int) * cells);
    for (size_t k = 0; k < cells; k++) {
        t->exact[k] = NAN;
        t->lower[k] = -INFINITY;
        t->choice[k] = -1;
    }
    t->reach = sm_xcalloc((size_t)P + 1, sizeof(int));
    t->rest_min = sm_xcalloc((size_t)P + 1, sizeof(double));
    t->rate_min = sm_xmalloc(sizeof(double) * ((size_t)P + 1));
    t->rate_min[P] = INFINITY;
    for (int i = P - 1; i >= 0; i--) {
        int m = procs[i].n ? procs[i].by_size[procs[i].n - 1].size : 0;
        t->reach[i] = t->reach[i + 1] + m;
        if (t->reach[i] > n) t->reach[i] = n;
        t->rate_min[i] = fmin(t->rate_min[i + 1], procs[i].min_rate);
        t->rest_min[i] = op == SM_PT_SUM ? t->rest_min[i + 1] + procs[i].min_cost
                                         : fmax(t->rest_min[i + 1], procs[i].min_cost);
    }
    t->stack = sm_xmalloc(sizeof(sm_pt_frame) * (size_t)(P + 1));
    t->stack[0] = (sm_pt_frame){0, n, bound, -1, INFINITY, 0, -1, -1};
    t->depth = 1;
    t->result = INFINITY;
    t->threshold = bound;
}

/* Value of a finished child for its parent: INFINITY if none below. */
static void deliver(sm_pt_tree *t, double v)
{
    t->depth--;
    if (t->depth == 0) {
        t->result = v;
        t->done = 1;
        return;
    }
    sm_pt_frame *f = &t->stack[t->depth - 1];
    if (isfinite(v)) {
        double tot = t->op == SM_PT_MAX ? fmax(f->cur_cost, v) : f->cur_cost + v;
        if (tot < f->best) {
            f->best = tot;
            f->best_x = f->cur_x;
            if (t->depth == 1) t->threshold = tot;
        }
    }
}

/* Close the top frame: memoise and hand the value up. */
static void finish(sm_pt_tree *t)
{
    sm_pt_frame *f = &t->stack[t->depth - 1];
    size_t k = at(t, f->level, f->rem);
    if (isfinite(f->best) && f->best < f->bound) {
        t->exact[k] = f->best;
        t->choice[k] = f->best_x;
        deliver(t, f->best);
    } else {
        if (f->bound > t->lower[k]) t->lower[k] = f->bound;
        deliver(t, INFINITY);
    }
}

/* Enter the top frame: leaves, memo and size threshold. Returns 1 when
 * the frame was answered without expansion. */
static int enter(sm_pt_tree *t)
{
    sm_pt_frame *f = &t->stack[t->depth - 1];
    if (f->level == t->P) {
        deliver(t, f->rem == 0 && 0 < f->bound ? 0 : INFINITY);
        return 1;
    }
    size_t k = at(t, f->level, f->rem);
    if (!isnan(t->exact[k])) {
        t->memo_hits++;
        deliver(t, t->exact[k] < f->bound ? t->exact[k] : INFINITY);
        return 1;
    }
    if (t->lower[k] >= f->bound) {
        t->memo_hits++;
        deliver(t, INFINITY);
        return 1;
    }
    /* Sum of non-negative costs: rem blocks cost at least rem x the
     * cheapest rate of the levels left. */
    if (t->op == SM_PT_SUM && f->rem > 0 && t->rate_min[f->level] > 0 &&
        f->rem * t->rate_min[f->level] >= f->bound) {
        t->pruned++;
        if (f->bound > t->lower[k]) t->lower[k] = f->bound;
        deliver(t, INFINITY);
        return 1;
    }
    double sigma = size_threshold(t, f->level, f->bound);
    t->sigma = sigma;
    if (f->rem > sigma || f->rem > t->reach[f->level]) {
        t->pruned++;
        if (f->bound > t->lower[k]) t->lower[k] = f->bound;
        deliver(t, INFINITY);
        return 1;
    }
    f->k = 0;
    t->nodes++;
    return 0;
}

int sm_pt_step(sm_pt_tree *t)
{
    while (!t->done) {
        sm_pt_frame *f = &t->stack[t->depth - 1];
        if (f->k < 0) {
            if (enter(t)) continue;
            return t->done;
        }
        const sm_pt_proc *p = &t->procs[f->level];
        double limit = f->best < f->bound ? f->best : f->bound;
        /* Sum: whatever this processor takes, the levels after it hold at
         * least rem - (its largest size) blocks at their cheapest rate. */
        double rest_floor = t->rest_min[f->level + 1];
        if (t->op == SM_PT_SUM && t->rate_min[f->level + 1] > 0) {
            int most = p->n ? p->by_size[p->n - 1].size : 0;
            if (f->rem > most) rest_floor = fmax(rest_floor, (f->rem - most) * t->rate_min[f->level + 1]);
        }
        int pushed = 0;
        while (f->k < p->n) {
            const sm_pt_point *c = &p->by_cost[f->k];
            /* Objective-sorted: once a child cannot beat the threshold,
             * none after it can. */
            double floor_after = t->op == SM_PT_MAX ? c->cost : c->cost + rest_floor;
            if (floor_after >= limit) {
                t->pruned += p->n - f->k;
                f->k = p->n;
                break;
            }
            f->k++;
            int left = f->rem - c->size;
            if (left < 0 || left > t->reach[f->level + 1]) continue;
            if (t->op == SM_PT_SUM && left > 0 && t->rate_min[f->level + 1] > 0 &&
                c->cost + left * t->rate_min[f->level + 1] >= limit) {
                t->pruned++;
                continue;
            }
            f->cur_x = c->size;
            f->cur_cost = c->cost;
            double sub = t->op == SM_PT_MAX ? limit : limit - c->cost;
            t->stack[t->depth++] = (sm_pt_frame){f->level + 1, left, sub, -1, INFINITY, 0, -1, -1};
            pushed = 1;
            break;
        }
        if (pushed) continue; /* the child is entered (expanded) next */
        finish(t);
    }
    return 1;
}

void sm_pt_run(sm_pt_tree *t)
{
    while (!sm_pt_step(t)) {}
}

void sm_pt_counts(const sm_pt_tree *t, int *counts)
{
    int rem = t->n;
    for (int i = 0; i < t->P; i++) {
        int x = t->choice[at(t, i, rem)];
        counts[i] = x < 0 ? 0 : x;
        rem -= counts[i];
    }
}

void sm_pt_free(sm_pt_tree *t)
{
    free(t->exact);
    free(t->lower);
    free(t->choice);
    free(t->reach);
    free(t->rest_min);
    free(t->rate_min);
    free(t->stack);
    memset(t, 0, sizeof *t);
}
