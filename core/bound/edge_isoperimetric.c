/* edge_isoperimetric.c - the edge-isoperimetric profile of a block grid: for every
 * b, the fewest neighbouring block pairs between a set of b blocks and the
 * rest. The ILP's count decomposition and the energy bound (energy_bound.c)
 * bound the cut of a mapping with it.
 *
 * Exact by a profile ("broken line") dynamic programme: blocks are taken
 * one by one with one axis slowest; the state is the membership of the
 * last W blocks (W = the largest backward neighbour offset, one slice for
 * a 7-point stencil) and the number chosen so far. A neighbour pair
 * further apart than W (the wrap of a periodic slowest axis) is dropped,
 * which keeps a lower bound but no longer an exact one. */
#include "edge_isoperimetric.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ISO_MAX_WINDOW 18

/* Position of every block when axis a is slowest and the other two keep
 * their id order. */
static void order_by_axis(const sm_grid *g, int a, int *pos)
{
    const int *B = g->spec.blocks;
    int b1 = a == 0 ? 1 : 0, b2 = a == 2 ? 1 : 2;
    for (int u = 0; u < g->ntasks; u++) {
        int c[3];
        sm_grid_coords(g, u, c);
        pos[u] = c[b1] + B[b1] * (c[b2] + B[b2] * c[a]);
    }
}

/* Largest backward offset among the pairs kept (at most limit), and how
 * many pairs are further apart than limit. */
static int window(const sm_grid *g, const int *pos, int limit, int *dropped)
{
    int w = 0;
    *dropped = 0;
    for (int u = 0; u < g->ntasks; u++)
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int v = g->nbr[k];
            if (v <= u) continue;
            int d = abs(pos[u] - pos[v]);
            if (d > limit) (*dropped)++;
            else if (d > w) w = d;
        }
    return w;
}

/* A second bound where the slowest axis a wraps: a set with b_i blocks in
 * slice i has at least g(b_i) pairs cut inside each slice (g: the slice's
 * own exact profile, by enumeration) and at least |b_i - b_i+1| between
 * neighbouring slices, around the cycle. The least such sum over the ways
 * to share b blocks among the slices bounds f(b); f keeps the larger. */
static void cyclic_bound(const sm_grid *g, const int *pos, int a, int *f)
{
    int n = g->ntasks, L = g->spec.blocks[a], S = n / L;
    if (L < 3 || S > ISO_MAX_WINDOW) return; /* two slices: merged pairs */
    /* The pairs inside slice 0, as slice-local positions. */
    int npair = 0, cap = 64;
    int *pa = malloc(sizeof(int) * (size_t)cap), *pb = malloc(sizeof(int) * (size_t)cap);
    int *gs = malloc(sizeof(int) * (size_t)(S + 1));
    int width = n / 2 + 1;
    int *dp = malloc(sizeof(int) * (size_t)(S + 1) * (size_t)width);
    int *nx = malloc(sizeof(int) * (size_t)(S + 1) * (size_t)width);
    if (!pa || !pb || !gs || !dp || !nx) goto out;
    for (int u = 0; u < n; u++)
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int v = g->nbr[k];
            if (v <= u || pos[u] / S != 0 || pos[v] / S != 0) continue;
            if (npair == cap) {
                cap *= 2;
                int *x = realloc(pa, sizeof(int) * (size_t)cap), *y = x ? realloc(pb, sizeof(int) * (size_t)cap) : NULL;
                if (x) pa = x;
                if (y) pb = y;
                if (!x || !y) goto out;
            }
            pa[npair] = pos[u];
            pb[npair++] = pos[v];
        }
    for (int b = 0; b <= S; b++) gs[b] = 1 << 29;
    for (uint32_t m = 0; m < (1u << S); m++) {
        int cut = 0;
        for (int i = 0; i < npair; i++) cut += ((m >> pa[i]) ^ (m >> pb[i])) & 1;
        int b = __builtin_popcount(m);
        if (cut < gs[b]) gs[b] = cut;
    }
    const int INF = 1 << 29;
    int *best = malloc(sizeof(int) * (size_t)width);
    if (!best) goto out;
    for (int t = 0; t < width; t++) best[t] = INF;
    for (int b0 = 0; b0 <= S && b0 < width; b0++) {
        for (int i = 0; i < (S + 1) * width; i++) dp[i] = INF;
        dp[b0 * width + b0] = gs[b0];
        for (int sl = 1; sl < L; sl++) {
            for (int i = 0; i < (S + 1) * width; i++) nx[i] = INF;
            for (int x = 0; x <= S; x++)
                for (int t = 0; t < width; t++) {
                    int v = dp[x * width + t];
                    if (v >= INF) continue;
                    for (int y = 0; y <= S && t + y < width; y++) {
                        int c = v + gs[y] + abs(x - y);
                        if (c < nx[y * width + t + y]) nx[y * width + t + y] = c;
                    }
                }
            int *tmp = dp; dp = nx; nx = tmp;
        }
        for (int x = 0; x <= S; x++)
            for (int t = 0; t < width; t++) {
                int v = dp[x * width + t];
                if (v < INF && v + abs(x - b0) < best[t]) best[t] = v + abs(x - b0);
            }
    }
    for (int b = 0; b < width; b++)
        if (best[b] < INF && best[b] > f[b]) {
            f[b] = best[b];
            f[n - b] = best[b];
        }
    free(best);
out:
    free(pa); free(pb); free(gs); free(dp); free(nx);
}

int *sm_iso_profile(const sm_grid *g, int *exact)
{
    int n = g->ntasks;
    if (n < 1) return NULL;
    int *pos = malloc(sizeof(int) * (size_t)n), *bestpos = malloc(sizeof(int) * (size_t)n);
    int bestw = ISO_MAX_WINDOW + 1, bestdrop = 0, besta = 0;
    if (!pos || !bestpos) goto fail;
    /* The slowest axis: no dropped pairs if possible, then the narrowest
     * window. Only the wrap of a periodic slowest axis is ever dropped. */
    for (int a = 0; a < 3; a++) {
        const int *B = g->spec.blocks;
        int b1 = a == 0 ? 1 : 0;
        int limit = n / B[a] + B[b1] + 1;
        order_by_axis(g, a, pos);
        int drop, w = window(g, pos, limit, &drop);
        if (w > ISO_MAX_WINDOW || (drop && !g->spec.periodic[a])) continue;
        if (bestw > ISO_MAX_WINDOW || drop < bestdrop || (drop == bestdrop && w < bestw)) {
            bestw = w;
            bestdrop = drop;
            besta = a;
            memcpy(bestpos, pos, sizeof(int) * (size_t)n);
        }
    }
    if (bestw > ISO_MAX_WINDOW) goto fail;
    int W = bestw < 1 ? 1 : bestw;
    int cap = n / 2;
    /* Memory and work (about a second per 1e9 state updates) stay bounded. */
    if (((size_t)1 << W) * (size_t)(cap + 1) > ((size_t)1 << 25) ||
        (double)n * (double)((size_t)1 << W) * (double)(cap + 1) > 2e9)
        goto fail;
    /* Backward-neighbour mask of each position: bit d-1 = the block d back. */
    uint32_t *nm = calloc((size_t)n, sizeof(uint32_t));
    size_t states = (size_t)1 << W, width = (size_t)cap + 1;
    uint16_t *dp = malloc(sizeof(uint16_t) * states * width);
    uint16_t *nx = malloc(sizeof(uint16_t) * states * width);
    int *f = malloc(sizeof(int) * (size_t)(n + 1));
    if (!nm || !dp || !nx || !f) {
        free(nm); free(dp); free(nx); free(f);
        goto fail;
    }
    for (int u = 0; u < n; u++)
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int v = g->nbr[k];
            int d = bestpos[u] - bestpos[v];
            if (d >= 1 && d <= W) nm[bestpos[u]] |= 1u << (d - 1);
        }
    const uint16_t INF = UINT16_MAX;
    memset(dp, 0xff, sizeof(uint16_t) * states * width);
    dp[0] = 0;
    uint32_t mask = (uint32_t)(states - 1);
    for (int i = 0; i < n; i++) {
        memset(nx, 0xff, sizeof(uint16_t) * states * width);
        int kmax = i < cap ? i : cap; /* counts reachable so far */
        for (uint32_t pr = 0; pr < states; pr++) {
            const uint16_t *row = dp + (size_t)pr * width;
            int any = 0; /* skip profiles never reached */
            for (int k = 0; k <= kmax && !any; k++) any = row[k] != INF;
            if (!any) continue;
            for (int b = 0; b < 2; b++) {
                uint32_t diff = (b ? ~pr : pr) & nm[i];
                uint16_t c = (uint16_t)__builtin_popcount(diff);
                uint16_t *out = nx + (size_t)(((pr << 1) | (uint32_t)b) & mask) * width + b;
                int top = b ? (kmax < cap ? kmax : cap - 1) : kmax;
                for (int k = 0; k <= top; k++) {
                    uint16_t v = row[k] == INF ? INF : (uint16_t)(row[k] + c);
                    if (v < out[k]) out[k] = v;
                }
            }
        }
        uint16_t *tmp = dp;
        dp = nx;
        nx = tmp;
    }
    for (int b = 0; b <= cap; b++) {
        uint16_t best = INF;
        for (uint32_t pr = 0; pr < states; pr++)
            if (dp[(size_t)pr * width + (size_t)b] < best) best = dp[(size_t)pr * width + (size_t)b];
        f[b] = best;
        f[n - b] = best; /* a set and its complement share their boundary */
    }
    free(nm); free(dp); free(nx);
    if (bestdrop) cyclic_bound(g, bestpos, besta, f);
    free(pos); free(bestpos);
    *exact = bestdrop == 0;
    return f;
fail:
    free(pos);
    free(bestpos);
    return NULL;
}
