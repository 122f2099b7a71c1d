/* test_jacobi_stencil_kernel.c - the stencil kernel: a grid cut into blocks gives the
 * same bits as the grid in one block, for every stencil, periodic or not;
 * one sweep equals a cell-by-cell reference; the checksum adds up. */
#include "tests/unit/testutil.h"
#include "core/kernel/jacobi_stencil_kernel.h"

typedef struct {
    sm_kstencil st;
    int64_t cells[3];
    int blocks[3];
    int periodic[3];
    int halo;
} kcase;

static const kcase cases[] = {
    {SM_K_5PT, {13, 11, 1}, {3, 2, 1}, {0, 0, 0}, 1},
    {SM_K_5PT, {13, 11, 1}, {3, 2, 1}, {1, 1, 0}, 1},
    {SM_K_5PT, {12, 9, 1}, {2, 3, 1}, {1, 0, 0}, 2},
    {SM_K_9PT, {13, 11, 1}, {3, 2, 1}, {0, 0, 0}, 1},
    {SM_K_9PT, {13, 11, 1}, {3, 2, 1}, {1, 1, 0}, 1},
    {SM_K_9PT, {10, 11, 1}, {2, 1, 1}, {1, 1, 0}, 2},
    {SM_K_7PT, {9, 7, 6}, {3, 2, 2}, {0, 0, 0}, 1},
    {SM_K_7PT, {9, 7, 6}, {3, 2, 2}, {1, 1, 1}, 1},
    {SM_K_7PT, {9, 8, 7}, {2, 2, 1}, {0, 1, 1}, 2},
    {SM_K_27PT, {9, 7, 6}, {3, 2, 2}, {0, 0, 0}, 1},
    {SM_K_27PT, {9, 7, 6}, {3, 2, 2}, {1, 1, 1}, 1},
    {SM_K_27PT, {8, 7, 6}, {2, 3, 1}, {1, 0, 1}, 2},
};

static sm_kgrid grid_of(const kcase *c, int split)
{
    sm_kgrid g;
    g.stencil = c->st;
    g.halo = c->halo;
    for (int a = 0; a < 3; a++) {
        g.cells[a] = c->cells[a];
        g.blocks[a] = split ? c->blocks[a] : 1;
        g.periodic[a] = c->periodic[a];
    }
    return g;
}

static sm_kblock *make_blocks(const sm_kgrid *g)
{
    char why[256];
    assert_int_equal(sm_kgrid_check(g, why, sizeof why), 0);
    int nb = sm_kgrid_nblocks(g);
    sm_kblock *b = calloc((size_t)nb, sizeof *b);
    for (int id = 0; id < nb; id++) assert_int_equal(sm_kblock_init(&b[id], g, id), 0);
    return b;
}

static void run(const sm_kgrid *g, sm_kblock *b, int sweeps)
{
    int nb = sm_kgrid_nblocks(g);
    for (int s = 0; s < sweeps; s++) {
        sm_kgrid_exchange(g, b);
        for (int id = 0; id < nb; id++) {
            /* Two ranges, as two threads would sweep them. */
            int64_t rows = sm_kblock_rows(&b[id]);
            sm_kblock_sweep(&b[id], rows / 2, rows);
            sm_kblock_sweep(&b[id], 0, rows / 2);
        }
        for (int id = 0; id < nb; id++) sm_kblock_swap(&b[id]);
    }
}

static void free_blocks(const sm_kgrid *g, sm_kblock *b)
{
    for (int id = 0; id < sm_kgrid_nblocks(g); id++) sm_kblock_free(&b[id]);
    free(b);
}

static double at(const sm_kblock *b, int64_t gx, int64_t gy, int64_t gz)
{
    return sm_kblock_cur(b)[sm_kblock_index(b, gx - b->lo[0], gy - b->lo[1], gz - b->lo[2])];
}

/* Blocks equal the single block bit for bit, and checksums add up. */
static void decomposed_equals_whole(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const kcase *c = &cases[i];
        sm_kgrid whole = grid_of(c, 0), cut = grid_of(c, 1);
        sm_kblock *one = make_blocks(&whole), *many = make_blocks(&cut);
        uint64_t before = sm_kblock_checksum(&one[0], &whole);
        run(&whole, one, 4);
        run(&cut, many, 4);
        int64_t differ = 0, changed = 0;
        uint64_t sum = 0;
        for (int id = 0; id < sm_kgrid_nblocks(&cut); id++) {
            const sm_kblock *b = &many[id];
            sum += sm_kblock_checksum(b, &cut);
            for (int64_t z = 0; z < b->n[2]; z++)
                for (int64_t y = 0; y < b->n[1]; y++)
                    for (int64_t x = 0; x < b->n[0]; x++) {
                        int64_t g[3] = {b->lo[0] + x, b->lo[1] + y, b->lo[2] + z};
                        double u = at(b, g[0], g[1], g[2]), v = at(&one[0], g[0], g[1], g[2]);
                        if (memcmp(&u, &v, sizeof u) != 0) differ++;
                        if (u != sm_kernel_initial(g[0], g[1], g[2])) changed++;
                    }
        }
        if (differ) fail_msg("case %zu: %lld cells differ", i, (long long)differ);
        int64_t all = c->cells[0] * c->cells[1] * c->cells[2];
        assert_int_equal(changed, all);
        assert_true(sum == sm_kblock_checksum(&one[0], &whole));
        assert_true(sum != before);
        free_blocks(&whole, one);
        free_blocks(&cut, many);
    }
}

/* The value of a cell after one sweep, computed from the definition:
 * the mean of the stencil's points, centre first, then z, y, x ascending;
 * wrapped on periodic axes, the boundary value outside the others. */
static double value0(const kcase *c, int64_t g[3])
{
    int outside = 0;
    int64_t w[3];
    for (int a = 0; a < 3; a++) {
        w[a] = g[a];
        if (w[a] < 0 || w[a] >= c->cells[a]) {
            if (c->periodic[a]) w[a] = (w[a] + c->cells[a]) % c->cells[a];
            else outside = 1;
        }
    }
    return outside ? sm_kernel_boundary(w[0], w[1], w[2]) : sm_kernel_initial(w[0], w[1], w[2]);
}

static double reference(const kcase *c, int64_t x, int64_t y, int64_t z)
{
    int H = c->halo, three = sm_kernel_dims(c->st) == 3;
    int box = c->st == SM_K_9PT || c->st == SM_K_27PT;
    int64_t p[3] = {x, y, z};
    double s = value0(c, p);
    int n = 1;
    for (int dz = three ? -H : 0; dz <= (three ? H : 0); dz++)
        for (int dy = -H; dy <= H; dy++)
            for (int dx = -H; dx <= H; dx++) {
                int nz = (dx != 0) + (dy != 0) + (dz != 0);
                if (nz == 0 || (!box && nz != 1)) continue;
                int64_t q[3] = {x + dx, y + dy, z + dz};
                s += value0(c, q);
                n++;
            }
    assert_int_equal(n, sm_kernel_points(c->st, H));
    return s * (1.0 / n);
}

static void one_sweep_is_the_definition(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const kcase *c = &cases[i];
        sm_kgrid cut = grid_of(c, 1);
        sm_kblock *many = make_blocks(&cut);
        run(&cut, many, 1);
        for (int id = 0; id < sm_kgrid_nblocks(&cut); id++) {
            const sm_kblock *b = &many[id];
            for (int64_t z = 0; z < b->n[2]; z++)
                for (int64_t y = 0; y < b->n[1]; y++)
                    for (int64_t x = 0; x < b->n[0]; x++) {
                        int64_t g[3] = {b->lo[0] + x, b->lo[1] + y, b->lo[2] + z};
                        double want = reference(c, g[0], g[1], g[2]);
                        double got = at(b, g[0], g[1], g[2]);
                        if (memcmp(&want, &got, sizeof got) != 0)
                            fail_msg("case %zu cell %lld,%lld,%lld: %.17g, expected %.17g", i,
                                     (long long)g[0], (long long)g[1], (long long)g[2], got, want);
                    }
        }
        free_blocks(&cut, many);
    }
}

/* Packing a send box and unpacking it into the neighbour's receive box
 * (what ranks do with MPI) equals the direct copy. */
static void pack_unpack_equals_copy(void **st)
{
    (void)st;
    const kcase *c = &cases[10]; /* 27pt, periodic everywhere */
    sm_kgrid cut = grid_of(c, 1);
    sm_kblock *a = make_blocks(&cut), *b = make_blocks(&cut);
    run(&cut, a, 1);
    run(&cut, b, 1);
    int d[SM_K_MAX_DIRS][3];
    int nd = sm_kernel_directions(c->st, d);
    assert_int_equal(nd, 26);
    int nb = sm_kgrid_nblocks(&cut);
    sm_kgrid_exchange(&cut, a);
    for (int id = 0; id < nb; id++)
        for (int k = 0; k < nd; k++) {
            int from = sm_kgrid_neighbour(&cut, id, d[k]);
            int back[3] = {-d[k][0], -d[k][1], -d[k][2]};
            sm_kbox sbox, rbox;
            sm_kblock_send_box(&b[from], back, &sbox);
            sm_kblock_recv_box(&b[id], d[k], &rbox);
            assert_true(sm_kbox_cells(&sbox) == sm_kbox_cells(&rbox));
            double *buf = malloc((size_t)sm_kbox_cells(&sbox) * sizeof *buf);
            sm_kblock_pack(&b[from], &sbox, buf);
            sm_kblock_unpack(&b[id], &rbox, buf);
            free(buf);
        }
    for (int id = 0; id < nb; id++)
        assert_memory_equal(sm_kblock_cur(&a[id]), sm_kblock_cur(&b[id]),
                            (size_t)a[id].size * sizeof(double));
    free_blocks(&cut, a);
    free_blocks(&cut, b);
}

static void geometry_and_checks(void **st)
{
    (void)st;
    int d[SM_K_MAX_DIRS][3];
    assert_int_equal(sm_kernel_directions(SM_K_5PT, d), 4);
    assert_int_equal(sm_kernel_directions(SM_K_9PT, d), 8);
    assert_int_equal(sm_kernel_directions(SM_K_7PT, d), 6);
    assert_int_equal(sm_kernel_directions(SM_K_27PT, d), 26);
    assert_int_equal(sm_kernel_points(SM_K_7PT, 2), 13);
    assert_int_equal(sm_kernel_points(SM_K_27PT, 1), 27);
    sm_kstencil s;
    assert_int_equal(sm_kernel_stencil_parse("9pt", &s), 0);
    assert_int_equal(s, SM_K_9PT);
    assert_int_equal(sm_kernel_stencil_parse("11pt", &s), -1);
    /* Remainders go to the first blocks, as SPEC 2.1 cuts them. */
    sm_kgrid g = {SM_K_7PT, 1, {10, 4, 4}, {3, 1, 1}, {0, 0, 0}};
    int64_t lo, n;
    sm_kgrid_range(&g, 0, 0, &lo, &n);
    assert_true(lo == 0 && n == 4);
    sm_kgrid_range(&g, 0, 2, &lo, &n);
    assert_true(lo == 7 && n == 3);
    int right[3] = {1, 0, 0}, left[3] = {-1, 0, 0};
    assert_int_equal(sm_kgrid_neighbour(&g, 2, right), -1);
    g.periodic[0] = 1;
    assert_int_equal(sm_kgrid_neighbour(&g, 2, right), 0);
    assert_int_equal(sm_kgrid_neighbour(&g, 0, left), 2);
    char why[256];
    g.halo = 4; /* blocks of 3 cells cannot give a halo of 4 */
    assert_int_equal(sm_kgrid_check(&g, why, sizeof why), -1);
    assert_non_null(strstr(why, "thinner than the halo"));
    sm_kgrid flat = {SM_K_5PT, 1, {8, 8, 2}, {2, 2, 1}, {0, 0, 0}};
    assert_int_equal(sm_kgrid_check(&flat, why, sizeof why), -1);
    assert_non_null(strstr(why, "2-D"));
    flat.cells[2] = 1;
    assert_int_equal(sm_kgrid_check(&flat, why, sizeof why), 0);
    assert_true(sm_kgrid_block_bytes(&flat, 0) == 2 * 6 * 6 * sizeof(double) + 5 * sizeof(int64_t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decomposed_equals_whole),
        cmocka_unit_test(one_sweep_is_the_definition),
        cmocka_unit_test(pack_unpack_equals_copy),
        cmocka_unit_test(geometry_and_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
