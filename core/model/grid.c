/* grid.c - block sizes and the task edges of a stencil (SPEC 2.1). */
#include "grid.h"

#include <stdlib.h>
#include <string.h>

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
    return 0;
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

typedef struct { int nb; int64_t cells; } pending;

sm_grid *sm_grid_build(const sm_grid_spec *s, sm_err *e)
{
    if (sm_grid_spec_check(s, e) != 0) return NULL;
    sm_grid *g = sm_xcalloc(1, sizeof *g);
    g->spec = *s;
    const int *B = s->blocks;
    int n = B[0] * B[1] * B[2];
    g->ntasks = n;
    g->task_cells = sm_xmalloc(sizeof(int64_t) * (size_t)n);

    size_t cap = (size_t)n * 8, ne = 0;
    sm_edge *edges = sm_xmalloc(sizeof(sm_edge) * cap);
    for (int u = 0; u < n; u++) {
        int c[3] = {u % B[0], (u / B[0]) % B[1], u / (B[0] * B[1])};
        int64_t ext[3];
        for (int a = 0; a < 3; a++) ext[a] = sm_grid_extent(s, a, c[a]);
        g->task_cells[u] = ext[0] * ext[1] * ext[2];
        /* Incoming edges v -> u for each stencil offset; duplicates
         * (two blocks on a periodic axis) are merged by adding cells. */
        pending in[26];
        int nin = 0;
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int o[3] = {dx, dy, dz};
                    if (!in_stencil(s->stencil, o)) continue;
                    int v[3], ok = 1;
                    int64_t cells = 1;
                    for (int a = 0; a < 3 && ok; a++) {
                        if (o[a] == 0) {
                            v[a] = c[a];
                            cells *= ext[a];
                            continue;
                        }
                        if (B[a] == 1) { ok = 0; break; }
                        v[a] = c[a] + o[a];
                        if (v[a] < 0 || v[a] >= B[a]) {
                            if (!s->periodic[a]) { ok = 0; break; }
                            v[a] = (v[a] + B[a]) % B[a];
                        }
                        cells *= s->halo;
                    }
                    if (!ok) continue;
                    int vid = v[0] + v[1] * B[0] + v[2] * B[0] * B[1];
                    if (vid == u) continue;
                    int k;
                    for (k = 0; k < nin; k++)
                        if (in[k].nb == vid) break;
                    if (k < nin) in[k].cells += cells;
                    else in[nin++] = (pending){vid, cells};
                }
        for (int k = 0; k < nin; k++) {
            if (ne == cap) {
                cap *= 2;
                edges = sm_xrealloc(edges, sizeof(sm_edge) * cap);
            }
            edges[ne++] = (sm_edge){in[k].nb, u, in[k].cells};
        }
    }
    g->nedges = (int)ne;
    g->edges = sm_xrealloc(edges, sizeof(sm_edge) * (ne ? ne : 1));

    /* Incidence lists, counting sort by endpoint. */
    g->inc_off = sm_xcalloc((size_t)n + 1, sizeof(int));
    for (size_t i = 0; i < ne; i++) {
        g->inc_off[g->edges[i].src + 1]++;
        g->inc_off[g->edges[i].dst + 1]++;
    }
    for (int u = 0; u < n; u++) g->inc_off[u + 1] += g->inc_off[u];
    g->inc = sm_xmalloc(sizeof(int) * (2 * ne + 1));
    int *fill = sm_xmalloc(sizeof(int) * (size_t)n);
    memcpy(fill, g->inc_off, sizeof(int) * (size_t)n);
    for (size_t i = 0; i < ne; i++) {
        g->inc[fill[g->edges[i].src]++] = (int)i;
        g->inc[fill[g->edges[i].dst]++] = (int)i;
    }
    /* Distinct neighbours: in-neighbours already are distinct per task;
     * union with out-neighbours. */
    g->nbr_off = sm_xcalloc((size_t)n + 1, sizeof(int));
    g->nbr = sm_xmalloc(sizeof(int) * (2 * ne + 1));
    int nn = 0;
    for (int u = 0; u < n; u++) {
        g->nbr_off[u] = nn;
        for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
            const sm_edge *ed = &g->edges[g->inc[k]];
            int w = ed->src == u ? ed->dst : ed->src;
            int seen = 0;
            for (int t = g->nbr_off[u]; t < nn; t++)
                if (g->nbr[t] == w) { seen = 1; break; }
            if (!seen) g->nbr[nn++] = w;
        }
    }
    g->nbr_off[n] = nn;
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
