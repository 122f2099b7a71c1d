/* optimal_partitioning.c - exact data partitioning over discrete profiles (SPEC 4, "From
 * the data-partitioning work"; Khaleghzadeh 2019): HPOPTA (-objective
 * time), HEOPTA (energy), HEPOPTA (pareto: the front of makespan and
 * dynamic energy) and HTPOPTA (total: dynamic + static + idle), and with
 * -levels 2 HiPOPTA's hierarchy: nodes first, then the processors inside
 * each node. The single-objective searches are the solution tree of
 * solution_tree.c; a step expands one node. pareto and total build HEPOPTA's
 * front of makespan and dynamic energy by one sweep over the profiles'
 * points in time order (pareto_front_sweep.c; with -levels 2, a tree search per
 * time threshold); total derives HTPOPTA's front of makespan and total
 * energy (dynamic + base power x makespan) from it. Profiles come from the types' measured points
 * (only the measured sizes are admissible, so a processor with missing
 * sizes cannot take them) or, without one, from the cost model at every
 * block count. The mapping applied gives each processor its count as a
 * contiguous run in block-id order. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/processor_time_energy.h"
#include "pareto_front_sweep.h"
#include "solution_tree.h"
#include "solvers/stepper/solver_stepper.h"

enum { OBJ_TIME, OBJ_ENERGY, OBJ_PARETO, OBJ_TOTAL };
enum { KIND_TIME, KIND_ENERGY };
enum { PH_FASTEST, PH_LEAST, PH_SWEEP, PH_POINTS, PH_END };

typedef struct { int size; double time, energy; } raw_pt;

typedef struct {
    int n, P, objective, levels;
    raw_pt **raw;          /* per processor, sizes ascending, 0 first */
    int *nraw;
    /* Units of the tree: processors, or nodes (levels 2). */
    int nunits;
    int *unit_first, *unit_procs; /* processors of unit u: unit_procs[first[u]..first[u+1]) */
    sm_pt_proc *units;
    int *inner;            /* levels 2: per processor, (n+1) inner choices */
    int tree_live;
    sm_pt_tree tree;
    double bound;
    int phase;
    double tstar, emin;
    sm_ps sweep;           /* PH_POINTS: the sweep over the points (levels 1) */
    int sweep_live, imported;
    double base_power;     /* HTPOPTA's P_S: the processors' p0 */
    double applied_at;     /* when the best mapping was last evaluated */
    int applied_pick;
    struct sweep_pt { double T; int proc; } *Ts; /* thresholds and who sets them */
    int nT, iT;
    int force;             /* processor held to a point of time T, or -1 */
    int *order;            /* tree level -> unit: the held one first */
    double lastE;
    int64_t pruned, nodes, memo;
    int *counts, *map, *fastest;
    sm_partition part;
    int front_cap, dyn_cap;
} popta_state;

static const sm_opt_spec opts[] = {
    {"objective", SM_OPT_ENUM, "time", "time|energy|pareto|total", 0, 0,
     "time (HPOPTA), energy (HEOPTA), pareto front (HEPOPTA), total energy (HTPOPTA)"},
    {"levels", SM_OPT_INT, "1", NULL, 1, 2, "2: nodes first, then the processors of each node (HiPOPTA)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

/* The profile point of processor p at size x, or NULL if inadmissible. */
static const raw_pt *point_at(const popta_state *st, int p, int x)
{
    int lo = 0, hi = st->nraw[p] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (st->raw[p][mid].size == x) return &st->raw[p][mid];
        if (st->raw[p][mid].size < x) lo = mid + 1;
        else hi = mid - 1;
    }
    return NULL;
}

static void build_raw(sm_solver *s, popta_state *st)
{
    const sm_topo *t = s->topo;
    const sm_grid *g = s->grid;
    int n = st->n, P = st->P;
    double cells = 0;
    for (int u = 0; u < g->ntasks; u++) cells += (double)g->task_cells[u];
    double avg = n ? cells / n : 0;
    st->raw = sm_xcalloc((size_t)P, sizeof(raw_pt *));
    st->nraw = sm_xcalloc((size_t)P, sizeof(int));
    for (int p = 0; p < P; p++) {
        const sm_type *ty = &t->types[t->procs[p].type];
        raw_pt *v = sm_xmalloc(sizeof(raw_pt) * (size_t)(n + 2));
        int k = 0;
        v[k++] = (raw_pt){0, 0, 0}; /* an unused processor costs nothing */
        if (ty->nprofile) {
            for (int i = 0; i < ty->nprofile && ty->profile[i].blocks <= n; i++)
                if (ty->profile[i].blocks > 0)
                    v[k++] = (raw_pt){ty->profile[i].blocks, ty->profile[i].time,
                                      ty->profile[i].energy};
        } else {
            for (int x = 1; x <= n; x++) {
                double tm, en;
                sm_proc_work(t, p, x, llround(x * avg), &tm, &en);
                v[k++] = (raw_pt){x, tm, en};
            }
        }
        st->raw[p] = v;
        st->nraw[p] = k;
    }
}

/* OR into dst the bitset src shifted up by s bits (words of 64). */
static void or_shifted(uint64_t *dst, const uint64_t *src, int words, int s)
{
    int w = s / 64, b = s % 64;
    for (int i = words - 1; i >= w; i--) {
        uint64_t v = src[i - w] << b;
        if (b && i - w - 1 >= 0) v |= src[i - w - 1] >> (64 - b);
        dst[i] |= v;
    }
}

/* Can the profiles place exactly n blocks? Every processor at its
 * largest size places the most; with sizes missing, a subset-sum over
 * the admissible sizes (a bitset) says which totals below it exist. When
 * n cannot be placed, the error names n and the largest n that can. */
static int check_placeable(const popta_state *st, sm_err *e)
{
    int n = st->n, gaps = 0;
    long long most = 0;
    for (int p = 0; p < st->P; p++) {
        int top = st->raw[p][st->nraw[p] - 1].size;
        most += top;
        if (st->nraw[p] - 1 != top) gaps = 1; /* sizes 0..top not all there */
    }
    if (most >= n && !gaps) return 0;
    int largest = (int)(most < n ? most : -1);
    if (most >= n) {
        int words = n / 64 + 1;
        uint64_t *cur = sm_xcalloc((size_t)words, sizeof(uint64_t));
        uint64_t *nxt = sm_xmalloc(sizeof(uint64_t) * (size_t)words);
        cur[0] = 1;
        for (int p = 0; p < st->P; p++) {
            memcpy(nxt, cur, sizeof(uint64_t) * (size_t)words);
            for (int i = 1; i < st->nraw[p]; i++) or_shifted(nxt, cur, words, st->raw[p][i].size);
            uint64_t *t = cur; cur = nxt; nxt = t;
        }
        for (int r = n; r >= 0 && largest < 0; r--)
            if (cur[r / 64] >> (r % 64) & 1) largest = r;
        free(cur);
        free(nxt);
        if (largest == n) return 0;
        sm_err_set_code(e, "POPTA INFEASIBLE",
                        "popta: no distribution of %d blocks exists: the profiles' sizes place at most %lld "
                        "blocks, and below %d the largest n they can place is %d",
                        n, most, n, largest);
        return -1;
    }
    sm_err_set_code(e, "POPTA INFEASIBLE",
                    "popta: no distribution of %d blocks exists: the largest n the profiles can place is %d "
                    "(every processor at its largest size)", n, largest);
    return -1;
}

/* Cost of processor p's point under a kind of objective. */
static double point_cost(const raw_pt *q, int kind)
{
    return kind == KIND_TIME ? q->time : q->energy;
}

/* The units' points for one search: only points of time <= T. With
 * levels 2 a node's cost at size r is the best its processors reach for r
 * blocks (a dynamic programme over them, choices kept to expand later). */
static void build_units(popta_state *st, int kind, double T, sm_pt_op op)
{
    int n = st->n;
    sm_pt_point *buf = sm_xmalloc(sizeof(sm_pt_point) * (size_t)(n + 2));
    double *f = sm_xmalloc(sizeof(double) * (size_t)(n + 1));
    double *g = sm_xmalloc(sizeof(double) * (size_t)(n + 1));
    for (int u = 0; u < st->nunits; u++) {
        int a = st->unit_first[st->order[u]], b = st->unit_first[st->order[u] + 1];
        int k = 0;
        if (st->levels == 1) {
            int p = st->unit_procs[a];
            for (int i = 0; i < st->nraw[p]; i++)
                if (st->raw[p][i].time <= T && (p != st->force || st->raw[p][i].time == T))
                    buf[k++] = (sm_pt_point){st->raw[p][i].size, point_cost(&st->raw[p][i], kind)};
        } else {
            /* f(r): best over the node's processors handled so far. */
            for (int r = 0; r <= n; r++) f[r] = r == 0 ? (op == SM_PT_MAX ? -INFINITY : 0) : INFINITY;
            for (int j = a; j < b; j++) {
                int p = st->unit_procs[j];
                int *ch = &st->inner[(size_t)p * (size_t)(n + 1)];
                for (int r = 0; r <= n; r++) { g[r] = INFINITY; ch[r] = -1; }
                for (int i = 0; i < st->nraw[p]; i++) {
                    const raw_pt *q = &st->raw[p][i];
                    if (q->time > T || (p == st->force && q->time != T)) continue;
                    double c = point_cost(q, kind);
                    for (int r = q->size; r <= n; r++) {
                        if (!isfinite(f[r - q->size]) && f[r - q->size] > 0) continue;
                        double v = op == SM_PT_MAX ? fmax(c, f[r - q->size]) : c + f[r - q->size];
                        if (v < g[r]) { g[r] = v; ch[r] = q->size; }
                    }
                }
                memcpy(f, g, sizeof(double) * (size_t)(n + 1));
            }
            for (int r = 0; r <= n; r++)
                if (f[r] < INFINITY) buf[k++] = (sm_pt_point){r, f[r]};
        }
        sm_pt_proc_free(&st->units[u]);
        sm_pt_proc_init(&st->units[u], buf, k);
    }
    free(buf);
    free(f);
    free(g);
}

/* Counts per processor from the finished tree. */
static void tree_counts(popta_state *st, int *counts)
{
    int *uc = sm_xmalloc(sizeof(int) * (size_t)st->nunits);
    sm_pt_counts(&st->tree, uc);
    for (int u = 0; u < st->nunits; u++) {
        int a = st->unit_first[st->order[u]], b = st->unit_first[st->order[u] + 1];
        if (st->levels == 1) { counts[st->unit_procs[a]] = uc[u]; continue; }
        int r = uc[u];
        for (int j = b - 1; j >= a; j--) {
            int p = st->unit_procs[j];
            int x = st->inner[(size_t)p * (size_t)(st->n + 1) + (size_t)r];
            counts[p] = x < 0 ? 0 : x;
            r -= counts[p];
        }
    }
    free(uc);
}

static void profile_of(const popta_state *st, const int *counts, double *time, double *energy)
{
    *time = *energy = 0;
    for (int p = 0; p < st->P; p++) {
        const raw_pt *q = point_at(st, p, counts[p]);
        if (!q) continue;
        if (q->time > *time) *time = q->time;
        *energy += q->energy;
    }
}

static void set_result(popta_state *st, const int *counts)
{
    memcpy(st->part.counts, counts, sizeof(int) * (size_t)st->P);
    profile_of(st, counts, &st->part.time, &st->part.energy);
    st->part.total = st->part.energy + st->base_power * st->part.time;
}

static void push_point(sm_part_point **list, int *n, int *cap, int P, const int *counts, double T, double E,
                       double total)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *list = sm_xrealloc(*list, sizeof(sm_part_point) * (size_t)*cap);
    }
    sm_part_point *f = &(*list)[(*n)++];
    f->counts = sm_xmalloc(sizeof(int) * (size_t)P);
    memcpy(f->counts, counts, sizeof(int) * (size_t)P);
    f->time = T;
    f->energy = E;
    f->total = total;
}

/* A new point of HEPOPTA's front (the sweep finds them fastest first, each
 * of less energy). For total it also joins HTPOPTA's front when its total
 * energy is below that of every faster point: E + P_S T of a distribution
 * off the dynamic front is beaten by the front point of its makespan, so
 * these are all of HTPOPTA's front. */
static void add_front(popta_state *st, const int *counts)
{
    double T, E;
    profile_of(st, counts, &T, &E);
    double total = E + st->base_power * T;
    sm_partition *pt = &st->part;
    /* Same makespan, less energy (the tree sweep holds each processor in
     * turn at a threshold): the earlier point is dominated. */
    sm_part_point *list = st->objective == OBJ_PARETO ? pt->front : pt->dyn;
    int *nl = st->objective == OBJ_PARETO ? &pt->nfront : &pt->ndyn;
    if (*nl && list[*nl - 1].time == T) {
        free(list[--*nl].counts);
        if (st->objective == OBJ_TOTAL && pt->nfront && pt->front[pt->nfront - 1].time == T)
            free(pt->front[--pt->nfront].counts);
    }
    if (st->objective == OBJ_PARETO) {
        push_point(&pt->front, &pt->nfront, &st->front_cap, st->P, counts, T, E, total);
        return;
    }
    push_point(&pt->dyn, &pt->ndyn, &st->dyn_cap, st->P, counts, T, E, total);
    if (pt->nfront == 0 || total < pt->front[pt->nfront - 1].total * (1 - 1e-12))
        push_point(&pt->front, &pt->nfront, &st->front_cap, st->P, counts, T, E, total);
}

static double lastE_of(const popta_state *st)
{
    const sm_partition *pt = &st->part;
    if (st->objective == OBJ_PARETO) return pt->nfront ? pt->front[pt->nfront - 1].energy : INFINITY;
    return pt->ndyn ? pt->dyn[pt->ndyn - 1].energy : INFINITY;
}

static int cmp_sweep(const void *a, const void *b)
{
    const struct sweep_pt *x = a, *y = b;
    if (x->T != y->T) return x->T < y->T ? -1 : 1;
    return x->proc - y->proc;
}

/* The thresholds of the sweep: every distinct (time, processor) at or
 * above t*. A solution of makespan T has a processor at a point of time
 * exactly T, so each search holds that processor to such points: a new
 * front point (or a better total) at T must use one of them. */
static void collect_thresholds(popta_state *st)
{
    size_t cap = 0;
    for (int p = 0; p < st->P; p++) cap += (size_t)st->nraw[p];
    st->Ts = sm_xmalloc(sizeof *st->Ts * (cap ? cap : 1));
    int k = 0;
    for (int p = 0; p < st->P; p++)
        for (int i = 0; i < st->nraw[p]; i++)
            if (st->raw[p][i].time >= st->tstar && st->raw[p][i].size > 0)
                st->Ts[k++] = (struct sweep_pt){st->raw[p][i].time, p};
    qsort(st->Ts, (size_t)k, sizeof *st->Ts, cmp_sweep);
    int m = 0;
    for (int i = 0; i < k; i++)
        if (m == 0 || cmp_sweep(&st->Ts[i], &st->Ts[m - 1]) != 0) st->Ts[m++] = st->Ts[i];
    st->nT = m;
    st->iT = 0;
}

static void start_tree(popta_state *st, int kind, double T, sm_pt_op op, double bound)
{
    /* The held processor's unit at the root: its few admissible points
     * fix the blocks left for all the others from the first level on. */
    int held = -1;
    for (int u = 0; u < st->nunits && st->force >= 0; u++)
        for (int j = st->unit_first[u]; j < st->unit_first[u + 1]; j++)
            if (st->unit_procs[j] == st->force) held = u;
    int k = 0;
    if (held >= 0) st->order[k++] = held;
    for (int u = 0; u < st->nunits; u++)
        if (u != held) st->order[k++] = u;
    build_units(st, kind, T, op);
    sm_pt_start(&st->tree, st->units, st->nunits, st->n, op, bound);
    st->tree_live = 1;
}

/* A bound strictly below v by more than summation-order noise. */
static double below(double v)
{
    return isfinite(v) ? v - 1e-12 * fabs(v) : v;
}

static void start_points(popta_state *st);

/* Begin the next search of the current phase, or advance the phase. */
static void next_search(sm_solver *s, popta_state *st)
{
    for (;;) {
        switch (st->phase) {
        case PH_FASTEST:
            if (st->objective == OBJ_ENERGY) { st->phase = PH_LEAST; continue; }
            start_tree(st, KIND_TIME, INFINITY, SM_PT_MAX, INFINITY);
            return;
        case PH_LEAST:
            if (st->objective == OBJ_TIME) { st->phase = PH_END; continue; }
            if (st->levels == 1 && st->objective != OBJ_ENERGY) { st->phase = PH_POINTS; continue; }
            start_tree(st, KIND_ENERGY, INFINITY, SM_PT_SUM, INFINITY);
            return;
        case PH_SWEEP:
            if (st->iT >= st->nT) { st->phase = PH_END; continue; }
            {
                double T = st->Ts[st->iT].T;
                st->force = st->Ts[st->iT++].proc;
                sm_solver_set_stat(s, "T", T);
                if (st->lastE <= st->emin * (1 + 1e-12)) { st->phase = PH_END; continue; }
                /* Strictly less energy; the margin keeps summation order
                 * from passing a point off as new. */
                start_tree(st, KIND_ENERGY, T, SM_PT_SUM, below(st->lastE));
            }
            return;
        case PH_POINTS:
            if (!st->sweep_live) start_points(st);
            return;
        default:
            return;
        }
    }
}

/* Contiguous runs in block-id order, processors in list order. */
static void apply_counts(sm_solver *s, popta_state *st, const int *counts)
{
    int u = 0;
    for (int p = 0; p < st->P; p++)
        for (int k = 0; k < counts[p] && u < st->n; k++) st->map[u++] = p;
    while (u < st->n) st->map[u++] = st->P - 1;
    sm_solver_evaluate(s, st->map, &s->current);
    s->has_current = 1;
    s->best = s->current;
    s->has_best = 1;
    memcpy(s->best_map, st->map, sizeof(int) * (size_t)st->n);
    s->best_version++;
}

/* Pareto: the least energy meeting the deadline (fronts fall in energy
 * as time grows: the slowest that meets it), else the fastest. Total:
 * the least total energy meeting the deadline (with none, the least), else
 * the fastest. */
static int pick_front(sm_solver *s, popta_state *st)
{
    const sm_partition *pt = &st->part;
    int pick = 0;
    double lim = s->model.has_deadline ? s->model.deadline * (1 + 1e-9) : INFINITY;
    if (st->objective == OBJ_PARETO) {
        if (s->model.has_deadline)
            for (int i = 0; i < pt->nfront; i++)
                if (pt->front[i].time <= lim) pick = i;
    } else {
        for (int i = 1; i < pt->nfront; i++)
            if (pt->front[i].time <= lim && pt->front[i].total < pt->front[pick].total) pick = i;
    }
    set_result(st, pt->front[pick].counts);
    sm_solver_set_stat(s, "front_index", pick);
    return pick;
}

static double clock_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* New front points: the picked one becomes the solver's best (evaluated
 * on the grid at most every 0.2 s, and at the end), so an interrupted run
 * keeps it. */
static void front_grew(sm_solver *s, popta_state *st)
{
    sm_solver_set_stat(s, "front", st->part.nfront);
    sm_solver_set_stat(s, "best", st->objective == OBJ_PARETO ? lastE_of(st) : st->part.total);
    int pick = pick_front(s, st);
    double now = clock_now();
    if (pick != st->applied_pick && now - st->applied_at >= 0.2) {
        apply_counts(s, st, st->part.counts);
        st->applied_pick = pick;
        st->applied_at = now;
    }
}

/* The sweep over the points starts from the fastest distribution. */
static void start_points(popta_state *st)
{
    sm_ps_pt **pts = sm_xmalloc(sizeof(sm_ps_pt *) * (size_t)(st->P ? st->P : 1));
    for (int p = 0; p < st->P; p++) {
        pts[p] = sm_xmalloc(sizeof(sm_ps_pt) * (size_t)st->nraw[p]);
        for (int i = 0; i < st->nraw[p]; i++)
            pts[p][i] = (sm_ps_pt){st->raw[p][i].size, st->raw[p][i].time, st->raw[p][i].energy};
    }
    sm_ps_init(&st->sweep, st->P, st->n, (const sm_ps_pt *const *)pts, st->nraw);
    for (int p = 0; p < st->P; p++) free(pts[p]);
    free(pts);
    sm_ps_begin(&st->sweep, st->tstar, st->fastest);
    st->sweep_live = 1;
}

/* One step of the sweep; its new front points join the result. */
static void step_points(sm_solver *s, popta_state *st)
{
    int done = sm_ps_step(&st->sweep);
    sm_solver_set_stat(s, "T", st->sweep.T);
    int grew = 0;
    for (; st->imported < st->sweep.nfront; st->imported++, grew = 1)
        add_front(st, &st->sweep.fc[(size_t)st->imported * (size_t)st->P]);
    if (grew) front_grew(s, st);
    if (done) st->phase = PH_END;
}

/* A search finished: take its result and move on. What is complete so
 * far becomes the solver's best, so an interrupted run keeps it. */
static void search_done(sm_solver *s, popta_state *st)
{
    st->pruned += st->tree.pruned;
    st->nodes += st->tree.nodes;
    st->memo += st->tree.memo_hits;
    int found = isfinite(st->tree.result);
    if (found) tree_counts(st, st->counts);
    double v = st->tree.result;
    sm_pt_free(&st->tree);
    st->tree_live = 0;
    switch (st->phase) {
    case PH_FASTEST:
        if (!found) { st->phase = PH_END; return; }
        st->tstar = v;
        memcpy(st->fastest, st->counts, sizeof(int) * (size_t)st->P);
        set_result(st, st->counts);
        sm_solver_set_stat(s, "best", v);
        if (st->objective != OBJ_ENERGY) apply_counts(s, st, st->part.counts);
        st->phase = PH_LEAST;
        break;
    case PH_LEAST:
        if (!found) { st->phase = PH_END; return; }
        st->emin = v;
        if (st->objective == OBJ_ENERGY) {
            set_result(st, st->counts);
            sm_solver_set_stat(s, "best", v);
            st->phase = PH_END;
            return;
        }
        collect_thresholds(st);
        st->lastE = INFINITY;
        st->phase = PH_SWEEP;
        break;
    case PH_SWEEP:
        if (!found) break;
        add_front(st, st->counts);
        st->lastE = lastE_of(st);
        front_grew(s, st);
        break;
    }
}

static void finish_solver(sm_solver *s, popta_state *st)
{
    s->done = 1;
    if ((st->objective == OBJ_PARETO || st->objective == OBJ_TOTAL) && st->part.nfront) pick_front(s, st);
    if (st->part.time < 0) {
        snprintf(s->status, sizeof s->status, "infeasible");
        return;
    }
    apply_counts(s, st, st->part.counts);
    if (st->objective == OBJ_TOTAL) sm_solver_set_stat(s, "profile_total", st->part.total);
    snprintf(s->status, sizeof s->status, s->stopped ? "stopped" : "optimal");
}

static void sync(sm_solver *s);

static int init(sm_solver *s, sm_err *e)
{
    popta_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    const char *obj = sm_opt_str(s, "objective");
    st->objective = !strcmp(obj, "energy") ? OBJ_ENERGY : !strcmp(obj, "pareto") ? OBJ_PARETO
                    : !strcmp(obj, "total") ? OBJ_TOTAL : OBJ_TIME;
    st->levels = (int)sm_opt_int(s, "levels");
    if (st->levels < 1) st->levels = 1;
    st->n = s->grid->ntasks;
    st->P = s->topo->nprocs;
    if ((double)st->P * (st->n + 1.0) > 2e7) { /* memo: 20 bytes a state */
        sm_err_set(e, "popta: %d processors x %d blocks is too large for the memo tables", st->P, st->n);
        return -1;
    }
    build_raw(s, st);
    if (check_placeable(st, e)) return -1;
    int P = st->P;
    st->unit_first = sm_xcalloc((size_t)P + 1, sizeof(int));
    st->unit_procs = sm_xmalloc(sizeof(int) * (size_t)P);
    if (st->levels == 1) {
        st->nunits = P;
        for (int p = 0; p <= P; p++) st->unit_first[p] = p;
        for (int p = 0; p < P; p++) st->unit_procs[p] = p;
    } else {
        /* Nodes in index order, processors in list order inside. */
        int k = 0;
        for (int nd = 0; nd < s->topo->nnodes; nd++) {
            int a = k;
            for (int p = 0; p < P; p++)
                if (s->topo->procs[p].node == nd) st->unit_procs[k++] = p;
            if (k > a) st->unit_first[++st->nunits] = k;
        }
        st->inner = sm_xmalloc(sizeof(int) * (size_t)P * (size_t)(st->n + 1));
    }
    st->units = sm_xcalloc((size_t)st->nunits, sizeof(sm_pt_proc));
    st->order = sm_xmalloc(sizeof(int) * (size_t)(st->nunits ? st->nunits : 1));
    st->counts = sm_xcalloc((size_t)P, sizeof(int));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(st->n ? st->n : 1));
    st->part.nprocs = P;
    st->part.counts = sm_xcalloc((size_t)P, sizeof(int));
    st->part.time = -1;
    st->part.has_front = st->objective == OBJ_PARETO || st->objective == OBJ_TOTAL;
    st->part.has_total = st->objective == OBJ_TOTAL;
    for (int p = 0; p < P; p++)
        st->base_power += sm_topo_proc_params(s->topo, p)->p0;
    st->part.base_power = st->base_power;
    st->fastest = sm_xcalloc((size_t)P, sizeof(int));
    st->applied_pick = -1;
    st->tstar = INFINITY;
    s->partition = &st->part;
    st->phase = PH_FASTEST;
    st->force = -1;
    s->sync = sync;
    return 0;
}

static void step(sm_solver *s)
{
    popta_state *st = s->priv;
    if (st->phase == PH_POINTS && st->sweep_live) {
        step_points(s, st);
        if (st->phase == PH_END) finish_solver(s, st);
        return;
    }
    if (!st->tree_live) {
        next_search(s, st);
        if (st->phase == PH_POINTS && st->sweep_live) return;
        if (!st->tree_live) {
            finish_solver(s, st);
            sm_solver_why(s, "branch and bound over the profiles: every search done, the best distribution applied");
            return;
        }
    }
    if (sm_pt_step(&st->tree)) search_done(s, st);
    sm_solver_why(s, "branch and bound over the profiles: a search ended, its best kept as the bound for the next");
    if (st->phase == PH_END && !st->tree_live) {
        finish_solver(s, st);
        sm_solver_why(s, "branch and bound over the profiles: every search done, the best distribution applied");
    }
}

/* The solver's statistics: the root threshold (best so far in this
 * search), sigma (the size threshold at the last node), pruned and
 * expanded nodes, memo hits. */
static void sync(sm_solver *s)
{
    popta_state *st = s->priv;
    sm_pt_tree *t = &st->tree;
    int live = st->tree_live;
    if (live && isfinite(t->threshold)) sm_solver_set_stat(s, "threshold", t->threshold);
    if (live && t->sigma >= 0) sm_solver_set_stat(s, "sigma", t->sigma);
    sm_solver_set_stat(s, "pruned", (double)(st->pruned + (live ? t->pruned : 0)));
    sm_solver_set_stat(s, "nodes", (double)(st->nodes + (live ? t->nodes : 0)));
    sm_solver_set_stat(s, "memo_hits", (double)(st->memo + (live ? t->memo_hits : 0)));
    if (st->sweep_live) {
        sm_solver_set_stat(s, "checks", (double)st->sweep.checks);
        sm_solver_set_stat(s, "bound_cuts", (double)st->sweep.bound_cuts);
        sm_solver_set_stat(s, "states", (double)st->sweep.states);
        sm_solver_set_stat(s, "points_swept", (double)st->sweep.iev);
        snprintf(s->last_move, sizeof s->last_move, "threshold %.6g: %d of %d points admitted, %d on the dynamic front",
                 st->sweep.T, st->sweep.iev, st->sweep.nev, st->sweep.nfront);
        sm_solver_why(s, "threshold sweep: admit the profile points under the threshold, keep the dynamic front "
                         "(%.0f bound cuts so far)", (double)st->sweep.bound_cuts);
    }
    if (live && t->depth) {
        snprintf(s->last_move, sizeof s->last_move, "expand level %d, %d blocks left, threshold %.6g",
                 t->stack[t->depth - 1].level, t->stack[t->depth - 1].rem, t->threshold);
        sm_solver_why(s, "branch and bound: expand the next node under the threshold (%.0f expanded, %.0f cut so far)",
                      (double)(st->nodes + t->nodes), (double)(st->pruned + t->pruned));
    }
}

static void release(sm_solver *s)
{
    popta_state *st = s->priv;
    if (!st) return;
    if (st->tree_live) sm_pt_free(&st->tree);
    if (st->sweep_live) sm_ps_free(&st->sweep);
    free(st->fastest);
    for (int i = 0; i < st->part.ndyn; i++) free(st->part.dyn[i].counts);
    free(st->part.dyn);
    for (int p = 0; p < st->P && st->raw; p++) free(st->raw[p]);
    free(st->raw);
    free(st->nraw);
    for (int u = 0; u < st->nunits && st->units; u++) sm_pt_proc_free(&st->units[u]);
    free(st->units);
    free(st->unit_first);
    free(st->unit_procs);
    free(st->order);
    free(st->inner);
    free(st->Ts);
    free(st->counts);
    free(st->map);
    free(st->part.counts);
    for (int i = 0; i < st->part.nfront; i++) free(st->part.front[i].counts);
    free(st->part.front);
    free(st);
    s->partition = NULL;
}

const sm_solver_ops sm_solver_popta = {
    "popta", "Exact partitioning over time/energy profiles (HPOPTA, HEOPTA, HEPOPTA, HTPOPTA, HiPOPTA)",
    opts, init, step, release, NULL,
};
