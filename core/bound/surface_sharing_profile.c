/* surface_sharing_profile.c - the groups of a partition share the grid's
 * surface: a lower bound, for one set S of b blocks, on its cut plus
 * lambda times its faces on the grid's surface, from which the bound
 * prices the cut of all groups at once (energy_bound.c, "surface").
 *
 * The argument. For a set S let cut_a(S) be its neighbouring pairs along
 * axis a with one block in S, and s_a(S) its block faces on the grid's two
 * end planes across a (open axes only). The blocks of any partition own
 * every surface face once, so sum_G s_a(S_G) = Surf_a = 2 L_a (L_a the
 * grid lines along a) and, for every lambda >= 0,
 *     sum_G sum_a w_a cut_a(S_G) >= sum_G H_lambda(|S_G|) - lambda sum_a w_a Surf_a
 * whenever H_lambda(b) <= sum_a w_a (cut_a(S) + lambda s_a(S)) for every
 * S of b blocks (w_a the least cells of a pair's edge along a). Every cut
 * pair carries an edge each way, so dw(S) >= 2 sum_a w_a cut_a(S) and the
 * bound reads 2 H_lambda with the constant 2 lambda sum_a w_a Surf_a. A
 * group that would take the grid's corner (few cut pairs for its blocks)
 * takes surface the others then lack: lambda prices that, where the
 * ideal shapes of every group at once (a corner each) cannot tile.
 *
 * H_lambda slice by slice (axes a_0 innermost .. a_{d-1} outermost). A
 * line along a_0 holding r of its m blocks (0 < r < m): if it holds both
 * end blocks it holds two runs or more, so cut 2; one end: cut >= 1 and
 * one face on the surface; neither: cut >= 2. So cut + lambda s >=
 * min(2, 1 + lambda); r = m: no cut, two end faces (2 lambda); r = 0: 0.
 * A wrapping axis has no surface: cut >= 2 (>= 1 merged pair over two
 * blocks), 0 full or empty. A set in a slab of k axes is its slices
 * along a_k: the pairs inside each slice (bounded by the lower level's
 * H for the slice's count r_j), the pairs between slices j and j+1, at
 * least |r_j - r_j+1| (a pair per block of one slice whose neighbour is
 * not in the set), and on an open axis the end slices' faces lambda
 * (r_0 + r_last). The least over the counts (r_j) with sum r_j = b is a
 * dynamic programme over slices; the min over r_j of D(r_j) + w |r_j -
 * r_j+1| is an L1 distance transform (two passes). A wrapping outer axis
 * drops its wrap pair (a lower bound still). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"
#include "core/bound/surface_sharing_profile.h"
#include "energy_bound_context.h"

/* The work the profiles may take (state updates per lambda): 16^3 blocks
 * is 1.7e7; 32^3 would be 1.1e9, left out. */
#define SURFACE_MAX_WORK 4e7

/* The smaller of two costs (no NaN here; inlined, unlike fmin). */
static inline double least(double a, double b) { return b < a ? b : a; }

/* One level: cost of r blocks in a slice (r = 0..R) -> cost of t blocks
 * in m slices of it along an axis of weight w (t = 0..R m). D and N hold
 * (R + 1) rows of R m + 1 totals: row r, the least cost with r blocks in
 * the slice reached so far. The distance transform runs down the rows,
 * every row a contiguous pass over the totals. */
static void slices(const double *in, int R, int m, int open, double w, double lambda, double *out,
                   double *D, double *N)
{
    int T = R * m;
    size_t width = (size_t)T + 1;
    for (size_t i = 0; i < (size_t)(R + 1) * width; i++) D[i] = INFINITY;
    for (int r = 0; r <= R; r++) D[(size_t)r * width + r] = in[r] + (open ? lambda * w * r : 0);
    for (int j = 1; j < m; j++) {
        size_t tn = (size_t)R * j + 1; /* totals reachable through slice j-1 */
        /* D[r][t] <- min_r' D[r'][t] + w |r - r'| */
        for (int r = 1; r <= R; r++) {
            double *row = D + (size_t)r * width, *up = row - width;
            for (size_t t = 0; t < tn; t++) row[t] = least(row[t], up[t] + w);
        }
        for (int r = R - 1; r >= 0; r--) {
            double *row = D + (size_t)r * width, *dn = row + width;
            for (size_t t = 0; t < tn; t++) row[t] = least(row[t], dn[t] + w);
        }
        /* The next slice holds r blocks: N[r][t + r] = D[r][t] + in[r]. */
        for (int r = 0; r <= R; r++) {
            double *row = N + (size_t)r * width, *src = D + (size_t)r * width;
            for (size_t t = 0; t < (size_t)r; t++) row[t] = INFINITY;
            for (size_t t = 0; t < tn; t++) row[t + (size_t)r] = src[t] + in[r];
            for (size_t t = tn + (size_t)r; t < width; t++) row[t] = INFINITY;
        }
        double *tmp = D; D = N; N = tmp; /* local swap: the caller frees both */
    }
    /* The last slice's end faces (m >= 2: active axes hold two blocks or more). */
    for (int t = 0; t <= T; t++) out[t] = INFINITY;
    for (int r = 0; r <= R; r++) {
        const double *row = D + (size_t)r * width;
        double end = open ? lambda * w * r : 0;
        for (int t = 0; t <= T; t++) out[t] = least(out[t], row[t] + end);
    }
}

/* 2 H_lambda(b), b = 0..n, into h (n + 1 values; nax >= 1). */
static void surface_profile(const bctx *x, double lambda, double *h)
{
    int d = x->nax;
    /* Level 0: one line along a_0. */
    int R = x->len[0];
    double *cur = sm_xmalloc(sizeof(double) * (size_t)(x->n + 1));
    double *nxt = sm_xmalloc(sizeof(double) * (size_t)(x->n + 1));
    double w0 = x->w[0];
    int open0 = !x->wraps[0];
    cur[0] = 0;
    for (int r = 1; r < R; r++)
        cur[r] = w0 * (open0 ? fmin(2, 1 + lambda) : (R >= 3 ? 2 : 1));
    cur[R] = open0 ? 2 * lambda * w0 : 0;
    for (int k = 1; k < d; k++) {
        int m = x->len[k], T = R * m;
        size_t cells = (size_t)(R + 1) * (size_t)(T + 1);
        double *D = sm_xmalloc(sizeof(double) * cells), *N = sm_xmalloc(sizeof(double) * cells);
        slices(cur, R, m, !x->wraps[k], x->w[k], lambda, nxt, D, N);
        free(D); free(N);
        double *tmp = cur; cur = nxt; nxt = tmp;
        R = T;
    }
    memcpy(h, cur, sizeof(double) * (size_t)(x->n + 1));
    free(cur); free(nxt);
    for (int b = 0; b <= x->n; b++) h[b] *= 2; /* directed edges: dw >= 2 sum_a w_a cut_a */
}

/* The work of the profiles for one lambda (the outer level dominates);
 * past SURFACE_MAX_CELLS states in one level's table (2 x 32 MB) as if
 * past the work too: a long thin grid (4000 x 2 x 2) would need 2 x 64 MB
 * for little work. */
#define SURFACE_MAX_CELLS 4e6

static double surface_work(const bctx *x)
{
    double work = 0, R = x->nax ? x->len[0] : 0;
    for (int k = 1; k < x->nax; k++) {
        double cells = (R + 1) * (R * x->len[k] + 1);
        if (cells > SURFACE_MAX_CELLS) return INFINITY;
        work += cells * x->len[k];
        R *= x->len[k];
    }
    return work;
}

/* The last grid's profiles: a pure function of the active axes (lengths,
 * wraps, edge cells), kept because a session bounds one grid under many
 * models (every solve, every deadline of a bench row). */
static struct {
    int valid, nax, len[3], wraps[3], n;
    double w[3];
    double *h[BOUND_SURFACE_LAMBDAS];
} cache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int cache_matches(const bctx *x)
{
    if (!cache.valid || cache.nax != x->nax || cache.n != x->n) return 0;
    for (int a = 0; a < x->nax; a++)
        if (cache.len[a] != x->len[a] || cache.wraps[a] != x->wraps[a] || cache.w[a] != x->w[a]) return 0;
    return 1;
}

static const double lambdas[BOUND_SURFACE_LAMBDAS] = {0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1};

void bound_setup_surface(bctx *x, int enable)
{
    x->nsurf = 0;
    if (!enable || !x->has_edges || x->nax < 2 || x->n < 2) return;
    /* Only a grid whose blocks are its whole box (the slices' counts add
     * up to the grid): n = product of the active lengths. */
    double prod = 1;
    for (int a = 0; a < x->nax; a++) prod *= x->len[a];
    if (prod != x->n || surface_work(x) > SURFACE_MAX_WORK) return;
    double surf = 0; /* sum_a w_a Surf_a over open axes */
    for (int a = 0; a < x->nax; a++)
        if (!x->wraps[a]) surf += x->w[a] * 2 * x->lines[a];
    size_t bytes = sizeof(double) * (size_t)(x->n + 1);
    pthread_mutex_lock(&cache_lock);
    if (!cache_matches(x)) {
        cache.valid = 0;
        for (int k = 0; k < BOUND_SURFACE_LAMBDAS; k++) {
            free(cache.h[k]);
            cache.h[k] = sm_xmalloc(bytes);
            surface_profile(x, lambdas[k], cache.h[k]);
        }
        cache.nax = x->nax;
        cache.n = x->n;
        for (int a = 0; a < x->nax; a++) {
            cache.len[a] = x->len[a];
            cache.wraps[a] = x->wraps[a];
            cache.w[a] = x->w[a];
        }
        cache.valid = 1;
    }
    for (int k = 0; k < BOUND_SURFACE_LAMBDAS; k++) {
        double *h = sm_xmalloc(bytes);
        memcpy(h, cache.h[k], bytes);
        double *rho = sm_xmalloc(bytes);
        rho[0] = 0;
        double r = INFINITY;
        for (int b = 1; b <= x->n; b++) {
            r = fmin(r, h[b] / b);
            rho[b] = r;
        }
        int i = x->nsurf++;
        x->slam[i] = lambdas[k];
        x->sprof[i] = h;
        x->srho[i] = rho;
        x->sconst[i] = 2 * lambdas[k] * surf;
    }
    pthread_mutex_unlock(&cache_lock);
}

void bound_free_surface(bctx *x)
{
    for (int i = 0; i < x->nsurf; i++) {
        free(x->sprof[i]);
        free(x->srho[i]);
    }
    x->nsurf = 0;
}

int sm_surface_profile(const sm_grid *g, double lambda, double *h, double w[3])
{
    bctx x;
    memset(&x, 0, sizeof x);
    x.g = g;
    x.n = g->ntasks;
    bound_setup_grid(&x);
    if (!x.has_edges || x.nax < 2 || surface_work(&x) > SURFACE_MAX_WORK) return 0;
    double prod = 1;
    for (int a = 0; a < x.nax; a++) prod *= x.len[a];
    if (prod != x.n) return 0;
    /* bound_setup_grid lists the active axes in grid order. */
    for (int a = 0, k = 0; a < 3; a++) w[a] = g->spec.blocks[a] >= 2 ? x.w[k++] : 0;
    surface_profile(&x, lambda, h);
    return 1;
}
