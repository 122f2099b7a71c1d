/* grid.c - block sizes and the task edges of a stencil (SPEC 2.1). */
#include "grid.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/huge_pages.h"

static const char *stencil_names[] = {"5pt", "9pt", "7pt", "27pt"};

const char *sm_stencil_name(sm_stencil s) { return stencil_names[s]; }

int sm_stencil_parse(const char *name, sm_stencil *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, stencil_names[i]) == 0) {
            *out = (sm_stencil)i;
            return 0;
        }
    return -1;
}

void sm_grid_spec_default(sm_grid_spec *s)
{
    memset(s, 0, sizeof *s);
    for (int a = 0; a < 3; a++) s->blocks[a] = 1;
    s->halo = 1;
    s->stencil = SM_ST_7PT;
}

static int is_2d(sm_stencil s) { return s == SM_ST_5PT || s == SM_ST_9PT; }

int sm_grid_spec_check(const sm_grid_spec *s, sm_err *e)
{
    static const char axis[] = "XYZ";
    int64_t tasks = 1;
    for (int a = 0; a < 3; a++) {
        if (s->blocks[a] < 1) {
            sm_err_set(e, "blocks[%d]: expected a positive count, got %d", a,
                       s->blocks[a]);
            return -1;
        }
        if (s->cells[a] < s->blocks[a] || s->cells[a] > SM_MAX_CELLS_AXIS) {
            sm_err_set(e,
                       "cells[%d]: expected between %d (one cell per block) "
                       "and %lld cells along %c, got %lld",
                       a, s->blocks[a], (long long)SM_MAX_CELLS_AXIS, axis[a],
                       (long long)s->cells[a]);
            return -1;
        }
        tasks *= s->blocks[a];
        if (tasks > SM_MAX_TASKS) {
            sm_err_set(e, "blocks: expected at most %d blocks in all",
                       SM_MAX_TASKS);
            return -1;
        }
        if (s->periodic[a] != 0 && s->periodic[a] != 1) {
            sm_err_set(e, "periodic[%d]: expected 0 or 1", a);
            return -1;
        }
    }
    /* The product of the three axes, checked before it is formed. */
    int64_t total = 1;
    for (int a = 0; a < 3; a++) {
        if (total > SM_MAX_CELLS / s->cells[a]) {
            sm_err_set(e, "cells: %lld x %lld x %lld cells in all is more than the %lld a grid may have",
                       (long long)s->cells[0], (long long)s->cells[1], (long long)s->cells[2],
                       (long long)SM_MAX_CELLS);
            return -1;
        }
        total *= s->cells[a];
    }
    if (is_2d(s->stencil) && (s->blocks[2] != 1 || s->cells[2] != 1)) {
        sm_err_set(e, "stencil: %s is a 2-D stencil; expected one block and "
                      "one cell along Z",
                   sm_stencil_name(s->stencil));
        return -1;
    }
    if (s->halo < 1) {
        sm_err_set(e, "halo: expected a positive width, got %d", s->halo);
        return -1;
    }
    for (int a = 0; a < 3; a++) {
        if (s->blocks[a] < 2) continue;
        int64_t smallest = s->cells[a] / s->blocks[a];
        if (s->halo > smallest) {
            sm_err_set(e,
                       "halo: width %d is larger than the smallest block "
                       "(%lld cells along %c)",
                       s->halo, (long long)smallest, axis[a]);
            return -1;
        }
    }
    if (sm_grid_max_edge_cells(s) > SM_MAX_EDGE_CELLS) {
        int64_t x[3];
        for (int a = 0; a < 3; a++) x[a] = sm_grid_extent(s, a, 0);
        sm_err_set(e,
                   "blocks: blocks of %lld x %lld x %lld cells (halo %d) send one neighbour more than "
                   "%lld halo cells; expected more blocks along the longer axes",
                   (long long)x[0], (long long)x[1], (long long)x[2], s->halo,
                   (long long)SM_MAX_EDGE_CELLS);
        return -1;
    }
    return 0;
}

/* a x b, or SM_MAX_EDGE_CELLS + 1 when that is more (a, b >= 1). */
static int64_t edge_cells_times(int64_t a, int64_t b)
{
    return a > SM_MAX_EDGE_CELLS / b ? SM_MAX_EDGE_CELLS + 1 : a * b;
}

static int in_stencil(sm_stencil st, const int o[3]);

int64_t sm_grid_max_edge_cells(const sm_grid_spec *s)
{
    const int *B = s->blocks;
    int64_t most = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int o[3] = {dx, dy, dz};
                if (!in_stencil(s->stencil, o)) continue;
                /* As sm_grid_build makes it: halo per axis stepped along,
                 * the (first, largest) extent of the others; two blocks on
                 * a periodic axis meet by both offsets (merged, added). */
                int64_t c = 1;
                for (int a = 0; a < 3; a++) {
                    if (o[a] != 0 && B[a] == 1) c = 0;
                    if (c == 0) break;
                    c = edge_cells_times(c, o[a] == 0 ? sm_grid_extent(s, a, 0) : s->halo);
                    if (o[a] != 0 && s->periodic[a] && B[a] == 2) c = edge_cells_times(c, 2);
                }
                if (c > most) most = c;
            }
    return most;
}

int64_t sm_grid_extent(const sm_grid_spec *s, int axis, int b)
{
    int64_t base = s->cells[axis] / s->blocks[axis];
    int64_t rem = s->cells[axis] % s->blocks[axis];
    return base + (b < rem ? 1 : 0);
}

void sm_grid_coords(const sm_grid *g, int id, int c[3])
{
    const int *B = g->spec.blocks;
    c[0] = id % B[0];
    c[1] = (id / B[0]) % B[1];
    c[2] = id / (B[0] * B[1]);
}

/* Is offset o (each -1..1) part of the stencil? */
static int in_stencil(sm_stencil st, const int o[3])
{
    int nz = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (nz == 0) return 0;
    switch (st) {
    case SM_ST_5PT: return o[2] == 0 && nz == 1;
    case SM_ST_9PT: return o[2] == 0;
    case SM_ST_7PT: return nz == 1;
    case SM_ST_27PT: return 1;
    }
    return 0;
}

/* A stencil offset that can reach another block (no step along an axis
 * of one block), and the halo cells it carries per unit of the extents
 * of the axes it does not step along. */
typedef struct {
    int o[3];
    int64_t halo_cells;
} offset;

/* The task graph is built arithmetically from the block coordinates, in
 * the order SPEC 2.1's definition lists it (the order every solver and
 * the cost model's sums follow): for each block u in id order, its
 * incoming edges v -> u for the stencil offsets in (dz, dy, dx) order.
 * Two offsets reach the same block only along a periodic axis of two
 * blocks; those edges are merged (cells added), found among the few
 * edges of u so far. At 2^24 blocks this is most of `scenario load`:
 * no division, no search and no per-block allocation in the loops. */
sm_grid *sm_grid_build(const sm_grid_spec *s, sm_err *e)
{
    if (sm_grid_spec_check(s, e) != 0) return NULL;
    sm_grid *g = sm_xcalloc(1, sizeof *g);
    g->spec = *s;
    const int *B = s->blocks;
    int n = B[0] * B[1] * B[2];
    g->ntasks = n;
    g->task_cells = sm_xmalloc(sizeof(int64_t) * (size_t)n);
    sm_advise_huge(g->task_cells, sizeof(int64_t) * (size_t)n);

    int64_t *ext[3];
    for (int a = 0; a < 3; a++) {
        ext[a] = sm_xmalloc(sizeof(int64_t) * (size_t)B[a]);
        for (int b = 0; b < B[a]; b++) ext[a][b] = sm_grid_extent(s, a, b);
    }
    offset ofs[26];
    int nofs = 0, merge = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int o[3] = {dx, dy, dz};
                if (!in_stencil(s->stencil, o)) continue;
                int ok = 1;
                int64_t h = 1;
                for (int a = 0; a < 3; a++) {
                    if (o[a] == 0) continue;
                    if (B[a] == 1) ok = 0;
                    h *= s->halo;
                }
                if (!ok) continue;
                offset *f = &ofs[nofs++];
                memcpy(f->o, o, sizeof o);
                f->halo_cells = h;
            }
    for (int a = 0; a < 3; a++)
        if (s->periodic[a] && B[a] == 2) merge = 1;

    /* At most nofs edges per block; pages past the last edge are never
     * touched and the array is cut to size at the end. */
    size_t cap = (size_t)n * (size_t)nofs, ne = 0;
    sm_edge *edges = sm_xmalloc(sizeof(sm_edge) * (cap ? cap : 1));
    sm_advise_huge(edges, sizeof(sm_edge) * cap);
    const int stride[3] = {1, B[0], B[0] * B[1]};
    /* Counted as the edges are made: each task's degree (in inc_off,
     * shifted by one for the sums below) and where its incoming edges
     * start (in nbr_off: without merged edges a task has as many
     * distinct neighbours as incoming edges, so that is its place among
     * the neighbour lists too). */
    g->inc_off = sm_xcalloc((size_t)n + 1, sizeof(int));
    g->nbr_off = sm_xmalloc(sizeof(int) * ((size_t)n + 1));
    sm_advise_huge(g->inc_off, sizeof(int) * ((size_t)n + 1));
    sm_advise_huge(g->nbr_off, sizeof(int) * ((size_t)n + 1));
    int u = 0;
    for (int k = 0; k < B[2]; k++)
        for (int j = 0; j < B[1]; j++)
            for (int i = 0; i < B[0]; i++, u++) {
                const int c[3] = {i, j, k};
                const int64_t x[3] = {ext[0][i], ext[1][j], ext[2][k]};
                g->task_cells[u] = x[0] * x[1] * x[2];
                size_t first = ne;
                g->nbr_off[u] = (int)ne;
                for (int f = 0; f < nofs; f++) {
                    const int *o = ofs[f].o;
                    int64_t cells = ofs[f].halo_cells;
                    int vid = u, ok = 1;
                    for (int a = 0; a < 3; a++) {
                        if (o[a] == 0) {
                            cells *= x[a];
                            continue;
                        }
                        int v = c[a] + o[a];
                        if (v < 0 || v >= B[a]) {
                            if (!s->periodic[a]) { ok = 0; break; }
                            v = v < 0 ? B[a] - 1 : 0;
                        }
                        vid += (v - c[a]) * stride[a];
                    }
                    if (!ok) continue;
                    if (merge) {
                        size_t q;
                        for (q = first; q < ne; q++)
                            if (edges[q].src == vid) break;
                        if (q < ne) {
                            edges[q].cells = (int32_t)(edges[q].cells + cells);
                            continue;
                        }
                    }
                    edges[ne++] = (sm_edge){vid, u, (int32_t)cells};
                    g->inc_off[vid + 1]++;
                }
                g->inc_off[u + 1] += (int)(ne - first);
            }
    g->nbr_off[n] = (int)ne;
    for (int a = 0; a < 3; a++) free(ext[a]);
    g->nedges = (int)ne;
    g->edges = sm_xrealloc(edges, sizeof(sm_edge) * (ne ? ne : 1));

    /* Incidence lists: each task's edges in edge order. One pass over
     * the edges, task by task along their incoming edges, also makes the
     * distinct neighbours, in the order the incidence list first meets
     * them. Without merged edges every edge v -> u has its u -> v (the
     * stencils are symmetric): the list meets a neighbour w < u first by
     * u -> w, which lies among w's incoming edges, before u's own, so
     * those come in ascending order; a neighbour w > u first by w -> u,
     * in the order of u's incoming edges. */
    for (int t = 0; t < n; t++) g->inc_off[t + 1] += g->inc_off[t];
    g->inc = sm_xmalloc(sizeof(int) * (2 * ne + 1));
    g->nbr = sm_xmalloc(sizeof(int) * (ne + 1));
    sm_advise_huge(g->inc, sizeof(int) * (2 * ne + 1));
    sm_advise_huge(g->nbr, sizeof(int) * (ne + 1));
    int *fill = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    memcpy(fill, g->inc_off, sizeof(int) * (size_t)n);
    int nn = 0;
    for (int t = 0; t < n; t++) {
        int i0 = g->nbr_off[t], i1 = g->nbr_off[t + 1], below = nn;
        for (int q = i0; q < i1; q++) {
            int w = g->edges[q].src;
            g->inc[fill[w]++] = q;
            g->inc[fill[t]++] = q;
            if (merge || w > t) continue;
            int k = nn++;
            while (k > below && g->nbr[k - 1] > w) {
                g->nbr[k] = g->nbr[k - 1];
                k--;
            }
            g->nbr[k] = w;
        }
        if (merge) continue;
        for (int q = i0; q < i1; q++)
            if (g->edges[q].src > t) g->nbr[nn++] = g->edges[q].src;
    }
    if (merge) {
        /* Two blocks on a periodic axis: found by a scan of each task's
         * incidences; fill[w] == t + 1 marks w as met for task t. */
        g->nbr = sm_xrealloc(g->nbr, sizeof(int) * (2 * ne + 1));
        memset(fill, 0, sizeof(int) * (size_t)n);
        for (int t = 0; t < n; t++) {
            g->nbr_off[t] = nn;
            for (int q = g->inc_off[t]; q < g->inc_off[t + 1]; q++) {
                const sm_edge *ed = &g->edges[g->inc[q]];
                int w = ed->src == t ? ed->dst : ed->src;
                if (fill[w] == t + 1) continue;
                fill[w] = t + 1;
                g->nbr[nn++] = w;
            }
        }
    }
    g->nbr_off[n] = nn;
    g->nbr = sm_xrealloc(g->nbr, sizeof(int) * ((size_t)nn + 1));
    free(fill);
    return g;
}

void sm_grid_free(sm_grid *g)
{
    if (!g) return;
    free(g->task_cells);
    free(g->edges);
    free(g->inc_off);
    free(g->inc);
    free(g->nbr_off);
    free(g->nbr);
    free(g);
}
