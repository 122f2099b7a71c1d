/* test_surface_sharing_profile.c - the surface-sharing profile
 * (core/bound/surface_sharing_profile.c) the energy bound prices groups
 * with: never above any set's cut plus lambda times its surface faces
 * (every set of small grids enumerated: open, periodic, 2-block wraps,
 * 5/7/9/27-point stencils, uneven blocks), its partition form (the sum
 * over groups less lambda times the whole surface) never above any
 * partition's cut (every 3-colouring), and exact where the least set is
 * a box. */
#include "tests/unit/testutil.h"
#include "core/bound/surface_sharing_profile.h"

/* dw(S): cells of the directed edges with one end in S; ws(S): sum over
 * open active axes of w_a times S's blocks on the two end planes. */
static void set_figures(const sm_grid *g, const int *colour, int c, const double w[3], double *dw, double *ws)
{
    *dw = 0;
    *ws = 0;
    for (int e = 0; e < g->nedges; e++)
        if ((colour[g->edges[e].src] == c) != (colour[g->edges[e].dst] == c)) *dw += g->edges[e].cells;
    for (int u = 0; u < g->ntasks; u++) {
        if (colour[u] != c) continue;
        int xyz[3];
        sm_grid_coords(g, u, xyz);
        for (int a = 0; a < 3; a++) {
            if (g->spec.blocks[a] < 2 || g->spec.periodic[a]) continue;
            if (xyz[a] == 0) *ws += w[a];
            if (xyz[a] == g->spec.blocks[a] - 1) *ws += w[a];
        }
    }
}

static sm_grid *grid_of(int bx, int by, int bz, int px, int py, int pz, sm_stencil st, int uneven)
{
    sm_grid_spec s = tu_grid_spec(bx, by, bz, px, py, pz, st);
    if (uneven)
        for (int a = 0; a < 3; a++)
            if (s.blocks[a] > 1) s.cells[a] += s.blocks[a] - 1; /* blocks differ by one cell */
    sm_err e;
    sm_grid *g = sm_grid_build(&s, &e);
    if (!g) fail_msg("grid: %s", e.msg);
    return g;
}

static const struct { int b[3], p[3]; sm_stencil st; int uneven; } grids[] = {
    {{3, 3, 2}, {0, 0, 0}, SM_ST_7PT, 0},  {{4, 2, 2}, {0, 0, 0}, SM_ST_27PT, 0},
    {{4, 4, 1}, {0, 0, 0}, SM_ST_5PT, 0},  {{4, 3, 1}, {1, 0, 0}, SM_ST_9PT, 1},
    {{3, 2, 2}, {0, 0, 1}, SM_ST_7PT, 0},  {{5, 3, 1}, {1, 1, 0}, SM_ST_5PT, 0},
    {{3, 3, 2}, {1, 0, 0}, SM_ST_27PT, 1}, {{2, 2, 2}, {1, 1, 1}, SM_ST_7PT, 0},
    {{6, 3, 1}, {0, 0, 0}, SM_ST_5PT, 1},
};
static const double lambdas[] = {0, 0.25, 0.5, 0.75, 1, 2};

/* Every set: h[b] <= dw(S) + 2 lambda ws(S); and equal at some b. */
static void never_above_any_set(void **st)
{
    (void)st;
    int checked = 0, exact_sizes = 0;
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) {
        sm_grid *g = grid_of(grids[k].b[0], grids[k].b[1], grids[k].b[2], grids[k].p[0], grids[k].p[1],
                             grids[k].p[2], grids[k].st, grids[k].uneven);
        int n = g->ntasks;
        int *colour = calloc((size_t)n, sizeof(int));
        double *h = calloc((size_t)n + 1, sizeof(double)), *least = calloc((size_t)n + 1, sizeof(double));
        for (size_t l = 0; l < sizeof lambdas / sizeof lambdas[0]; l++) {
            double w[3];
            assert_int_equal(sm_surface_profile(g, lambdas[l], h, w), 1);
            for (int b = 0; b <= n; b++) least[b] = INFINITY;
            for (unsigned mask = 0; mask < (1u << n); mask++) {
                for (int u = 0; u < n; u++) colour[u] = (int)(mask >> u & 1);
                double dw, ws;
                set_figures(g, colour, 1, w, &dw, &ws);
                int b = __builtin_popcount(mask);
                double v = dw + 2 * lambdas[l] * ws;
                if (v < least[b]) least[b] = v;
            }
            int tight = 0;
            for (int b = 0; b <= n; b++) {
                if (h[b] > least[b] * (1 + 1e-12) + 1e-9)
                    fail_msg("grid %zu lambda %g: h[%d] = %.17g above the least set's %.17g", k, lambdas[l], b,
                             h[b], least[b]);
                tight += b > 0 && b < n && h[b] >= least[b] * (1 - 1e-12);
            }
            /* The profile bites: with face neighbours only (5 and 7
             * points; the profile counts no diagonal edge) and equal
             * blocks (it prices each edge at the least cells) some proper
             * set sizes are met exactly. */
            int faces_only = (grids[k].st == SM_ST_5PT || grids[k].st == SM_ST_7PT) && !grids[k].uneven;
            if (faces_only && tight < 1) fail_msg("grid %zu lambda %g: exact at no size", k, lambdas[l]);
            exact_sizes += tight;
            checked++;
        }
        free(colour); free(h); free(least);
        sm_grid_free(g);
    }
    print_message("%d grid x lambda profiles, exact at %d set sizes\n", checked, exact_sizes);
    assert_int_equal(checked, (int)(sizeof grids / sizeof grids[0] * sizeof lambdas / sizeof lambdas[0]));
}

/* Every partition into three groups (grids of up to 12 blocks): the sum
 * over the groups of h less 2 lambda times the grid's weighted surface is
 * at most the groups' dw summed; with lambda > 0 above the lambda = 0 sum
 * on some partitions (the shared surface is what it prices). */
static void partitions_share_the_surface(void **st)
{
    (void)st;
    int raised = 0, parts = 0;
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) {
        sm_grid *g = grid_of(grids[k].b[0], grids[k].b[1], grids[k].b[2], grids[k].p[0], grids[k].p[1],
                             grids[k].p[2], grids[k].st, grids[k].uneven);
        int n = g->ntasks;
        if (n > 12) { sm_grid_free(g); continue; }
        double *h[6], *h0 = calloc((size_t)n + 1, sizeof(double)), w[3];
        assert_int_equal(sm_surface_profile(g, 0, h0, w), 1);
        double surf = 0; /* sum_a w_a x end faces across a */
        for (int a = 0; a < 3; a++)
            if (g->spec.blocks[a] >= 2 && !g->spec.periodic[a]) surf += w[a] * 2.0 * n / g->spec.blocks[a];
        size_t nl = sizeof lambdas / sizeof lambdas[0];
        for (size_t l = 0; l < nl; l++) {
            h[l] = calloc((size_t)n + 1, sizeof(double));
            assert_int_equal(sm_surface_profile(g, lambdas[l], h[l], w), 1);
        }
        int *colour = calloc((size_t)n, sizeof(int));
        long total = 1;
        for (int u = 0; u < n; u++) total *= 3;
        for (long code = 0; code < total; code++) {
            long c = code;
            int cnt[3] = {0, 0, 0};
            for (int u = 0; u < n; u++) {
                colour[u] = (int)(c % 3);
                c /= 3;
                cnt[colour[u]]++;
            }
            double cut = 0, dw, ws;
            for (int q = 0; q < 3; q++) {
                set_figures(g, colour, q, w, &dw, &ws);
                cut += dw;
            }
            double base = h0[cnt[0]] + h0[cnt[1]] + h0[cnt[2]];
            int up = 0;
            for (size_t l = 0; l < nl; l++) {
                double v = h[l][cnt[0]] + h[l][cnt[1]] + h[l][cnt[2]] - 2 * lambdas[l] * surf;
                if (v > cut * (1 + 1e-12) + 1e-9)
                    fail_msg("grid %zu lambda %g: partition (%d %d %d) priced %.17g above its cut %.17g", k,
                             lambdas[l], cnt[0], cnt[1], cnt[2], v, cut);
                up |= v > base * 1.01;
            }
            raised += up;
            parts++;
        }
        for (size_t l = 0; l < nl; l++) free(h[l]);
        free(h0); free(colour);
        sm_grid_free(g);
    }
    print_message("%d partitions, priced above the lambda = 0 sum by the shared surface on %d\n", parts, raised);
    assert_true(parts > 100000);
    assert_true(raised > 0);
}

/* Where it does not apply: no edges, too large a grid, too large a table. */
static void declines_where_it_does_not_apply(void **st)
{
    (void)st;
    double w[3], h[2] = {-1, -1};
    sm_grid *g = tu_grid(64, 64, 64, 0, 0, 0, SM_ST_7PT); /* 262 144 blocks: too much work */
    double *big = calloc((size_t)g->ntasks + 1, sizeof(double));
    assert_int_equal(sm_surface_profile(g, 0.5, big, w), 0);
    free(big);
    sm_grid_free(g);
    g = tu_grid(2000, 2, 1, 0, 0, 0, SM_ST_5PT); /* little work (1.6e7), a 64 MB table: declined */
    big = calloc((size_t)g->ntasks + 1, sizeof(double));
    assert_int_equal(sm_surface_profile(g, 0.5, big, w), 0);
    free(big);
    sm_grid_free(g);
    g = tu_grid(1, 1, 1, 0, 0, 0, SM_ST_7PT);
    assert_int_equal(sm_surface_profile(g, 0.5, h, w), 0);
    assert_true(h[0] == -1);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_above_any_set),
        cmocka_unit_test(partitions_share_the_surface),
        cmocka_unit_test(declines_where_it_does_not_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
