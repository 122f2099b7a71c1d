/* coordinate_bisection.c - rcb, recursive coordinate bisection weighted by speed: split the
 * processors into two halves, cut the blocks across the longest axis of
 * their bounding box in proportion to the halves' speeds, recurse. The
 * classic geometric partitioner; with -types it maps onto processors of the
 * named types only (e.g. GPUs alone when CPUs cost more than they save).
 * With -nodes K it maps onto the processors of the first K nodes only and
 * cuts the processor list at the node boundary nearest its middle while it
 * spans several nodes, so every node holds one compact piece of the grid
 * (a box where the speed shares fall on whole planes): the natural domain
 * decomposition on K nodes (what tabu starts from where
 * inter-node links are expensive, issue 38). Computed at start; one step
 * places one block. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/processor_time_energy.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    int *map, *procs, nprocs, next;
} rcb_state;

static const sm_opt_spec opts[] = {
    {"types", SM_OPT_STRING, NULL, NULL, 0, 0, "comma-separated processor types to use (default all)"},
    {"nodes", SM_OPT_INT, "0", NULL, 0, 1e9,
     "use the processors of the first K nodes only, node boundaries cut first (0: all, cuts by count)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

/* Blocks ordered along axis, then the next axes: a total order (coords
 * are unique), so every sort gives the same result. Coordinates read
 * from a table built once (computing them in every comparison was most
 * of rcb's time). */
typedef struct axis_order {
    const int *xyz; /* 3 coordinates a block */
    int axis;
} axis_order;

static int cmp_axis(const void *a, const void *b, void *ctx)
{
    const axis_order *o = ctx;
    const int *ca = o->xyz + 3 * (size_t)*(const int *)a, *cb = o->xyz + 3 * (size_t)*(const int *)b;
    for (int k = 0; k < 3; k++) {
        int ax = (o->axis + k) % 3;
        if (ca[ax] != cb[ax]) return ca[ax] - cb[ax];
    }
    return 0;
}

/* Every processor's speed per average block, so profiled and per-cell
 * types compare; computed once (per bisection it made rcb O(n P)). */
static double *speeds(const sm_solver *s)
{
    double cells = 0;
    for (int u = 0; u < s->grid->ntasks; u++) cells += (double)s->grid->task_cells[u];
    double avg = s->grid->ntasks ? cells / s->grid->ntasks : 1;
    double *v = sm_xmalloc(sizeof(double) * (size_t)s->topo->nprocs);
    for (int p = 0; p < s->topo->nprocs; p++) v[p] = 1.0 / sm_proc_block_time(s->topo, p, avg);
    return v;
}

/* by_node: cut the processors (sorted by node) at the node boundary
 * nearest the middle while they span more than one node. */
static void bisect(const sm_solver *s, const double *speed, const int *xyz, int *blocks, int nb, const int *procs,
                   int np, int by_node, int *map)
{
    if (np == 1 || nb == 0) {
        for (int i = 0; i < nb; i++) map[blocks[i]] = procs[0];
        return;
    }
    int h = np / 2;
    if (by_node) {
        const sm_proc *pr = s->topo->procs;
        int best = -1;
        for (int i = 1; i < np; i++)
            if (pr[procs[i]].node != pr[procs[i - 1]].node && (best < 0 || abs(i - np / 2) < abs(best - np / 2)))
                best = i;
        if (best > 0) h = best;
    }
    double s1 = 0, all = 0;
    for (int i = 0; i < np; i++) {
        all += speed[procs[i]];
        if (i < h) s1 += speed[procs[i]];
    }
    int lo[3] = {1 << 30, 1 << 30, 1 << 30}, hi[3] = {-1, -1, -1};
    for (int i = 0; i < nb; i++) {
        const int *c = xyz + 3 * (size_t)blocks[i];
        for (int a = 0; a < 3; a++) {
            if (c[a] < lo[a]) lo[a] = c[a];
            if (c[a] > hi[a]) hi[a] = c[a];
        }
    }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    axis_order o = {xyz, axis};
    sm_sort_r(blocks, (size_t)nb, sizeof(int), cmp_axis, &o);
    int k = (int)lround(nb * s1 / all);
    bisect(s, speed, xyz, blocks, k, procs, h, by_node, map);
    bisect(s, speed, xyz, blocks + k, nb - k, procs + h, np - h, by_node, map);
}

static int init(sm_solver *s, sm_err *e)
{
    rcb_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    int n = s->grid->ntasks, P = s->topo->nprocs;
    st->procs = sm_xmalloc(sizeof(int) * (size_t)P);
    const char *types = sm_opt_str(s, "types");
    long long nodes = sm_opt_int(s, "nodes");
    for (int p = 0; p < P; p++) {
        if (nodes > 0 && s->topo->procs[p].node >= nodes) continue;
        const char *tn = s->topo->types[s->topo->procs[p].type].name;
        int ok = !types;
        if (types) {
            size_t len = strlen(tn);
            for (const char *q = types; *q;) {
                const char *comma = strchr(q, ',');
                size_t l = comma ? (size_t)(comma - q) : strlen(q);
                if (l == len && strncmp(q, tn, l) == 0) ok = 1;
                if (!comma) break;
                q = comma + 1;
            }
        }
        if (ok) st->procs[st->nprocs++] = p;
    }
    if (st->nprocs == 0) {
        if (nodes > 0) sm_err_set(e, "rcb: no processor of the first %lld nodes is of the types \"%s\"", nodes, types ? types : "");
        else sm_err_set(e, "rcb: -types \"%s\" names no processor type of this machine", types);
        return -1;
    }
    /* Node order, so that node boundaries are cuts (stable: list order
     * within a node). */
    if (nodes > 0)
        for (int i = 1; i < st->nprocs; i++)
            for (int j = i; j > 0 && s->topo->procs[st->procs[j - 1]].node > s->topo->procs[st->procs[j]].node; j--) {
                int tmp = st->procs[j]; st->procs[j] = st->procs[j - 1]; st->procs[j - 1] = tmp;
            }
    int *blocks = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int u = 0; u < n; u++) blocks[u] = u;
    double *speed = speeds(s);
    int *xyz = sm_xmalloc(sizeof(int) * 3 * (size_t)(n ? n : 1));
    for (int u = 0; u < n; u++) sm_grid_coords(s->grid, u, xyz + 3 * (size_t)u);
    bisect(s, speed, xyz, blocks, n, st->procs, st->nprocs, nodes > 0, st->map);
    free(xyz);
    free(speed);
    free(blocks);
    if (n == 0) s->done = 1;
    return 0;
}

static void step(sm_solver *s)
{
    rcb_state *st = s->priv;
    int u = st->next++;
    sm_solver_why(s, "recursive coordinate bisection: the part on the block's side of every cut");
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s", u,
             s->topo->procs[st->map[u]].name);
    if (st->next == s->grid->ntasks) sm_solver_finish_with(s, st->map);
}

static void release(sm_solver *s)
{
    rcb_state *st = s->priv;
    if (!st) return;
    free(st->map);
    free(st->procs);
    free(st);
}

const sm_solver_ops sm_solver_rcb = {
    "rcb", "Recursive coordinate bisection weighted by speed",
    opts, init, step, release, NULL,
};
