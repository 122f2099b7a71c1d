/* test_multilevel_tabu.c - 2x2x2 coarsening keeps work and halo cells exactly,
 * and multilevel tabu refines to a mapping that the full evaluation
 * agrees with, better than its start, with the flat path untouched below
 * the threshold; refinement's screen never changes the moves it takes. */
#include "tests/unit/testutil.h"
#include "solvers/tabu/multilevel_block_grid_coarsening.h"
#include "core/model/speed_proportional_quota.h"
#include "solvers/tabu/multilevel_tabu.h"
#include "solvers/tabu/multilevel_boundary_refinement.h"
#include "solvers/stepper/solver_stepper.h"
#include <math.h>

static double stat_of(const sm_solver *s, const char *key)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) return s->stats[i].value;
    fail_msg("no statistic %s", key);
    return 0;
}

/* Tabu, multilevel on, 300 coarse iterations, from map. */
static sm_solver *multilevel_tabu(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map)
{
    const char *argv[4] = {"-multilevel", "on", "-iters", "300"};
    sm_err e;
    sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, m, map, 4, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    return s;
}

/* Odd block counts, periodic axes, 2-D and 3-D stencils. */
static void coarsen_keeps_work_and_halo(void **st)
{
    (void)st;
    struct { int b[3], p[3]; sm_stencil s; int cb[3]; } cases[] = {
        {{7, 5, 3}, {0, 0, 0}, SM_ST_7PT, {4, 3, 2}},
        {{6, 6, 4}, {1, 0, 1}, SM_ST_27PT, {3, 3, 2}},
        {{9, 4, 1}, {0, 1, 0}, SM_ST_9PT, {5, 2, 1}},
        {{4, 2, 2}, {1, 1, 1}, SM_ST_7PT, {2, 1, 1}},
    };
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    unsigned long long rs = 99;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_grid *g = tu_grid(cases[i].b[0], cases[i].b[1], cases[i].b[2], cases[i].p[0], cases[i].p[1],
                             cases[i].p[2], cases[i].s);
        int *up = malloc(sizeof(int) * (size_t)g->ntasks);
        sm_grid *c = sm_grid_coarsen(g, up);
        assert_non_null(c);
        for (int a = 0; a < 3; a++) assert_int_equal(c->spec.blocks[a], cases[i].cb[a]);
        /* Every coarse block's cells are its fine blocks' cells. */
        int64_t *sum = calloc((size_t)c->ntasks, sizeof(int64_t));
        for (int u = 0; u < g->ntasks; u++) {
            assert_true(up[u] >= 0 && up[u] < c->ntasks);
            sum[up[u]] += g->task_cells[u];
        }
        for (int v = 0; v < c->ntasks; v++) assert_int_equal(sum[v], c->task_cells[v]);
        free(sum);
        /* The same aggregation from the block counts alone (the search
         * keeps no up array): counts, each coarse block's fine blocks in
         * ascending order, the projection. */
        int cc[3], kids[8], seen = 0;
        sm_grid_coarse_counts(g->spec.blocks, cc);
        for (int a = 0; a < 3; a++) assert_int_equal(cc[a], cases[i].cb[a]);
        for (int v = 0; v < c->ntasks; v++) {
            int nk = sm_grid_fine_blocks(g->spec.blocks, v, kids), k = 0;
            for (int u = 0; u < g->ntasks; u++)
                if (up[u] == v) {
                    assert_true(k < nk);
                    assert_int_equal(kids[k++], u);
                }
            assert_int_equal(k, nk);
            seen += nk;
        }
        assert_int_equal(seen, g->ntasks);
        {
            int *cm = malloc(sizeof(int) * (size_t)c->ntasks), *f1 = malloc(sizeof(int) * (size_t)g->ntasks),
                *f2 = malloc(sizeof(int) * (size_t)g->ntasks);
            for (int v = 0; v < c->ntasks; v++) cm[v] = (int)(sm_rand_next(&rs) % 1000);
            sm_grid_project(g, up, cm, f1);
            sm_grid_project_counts(g->spec.blocks, cm, f2);
            assert_memory_equal(f1, f2, sizeof(int) * (size_t)g->ntasks);
            /* And back: each coarse block where its first fine block is
             * (a fine mapping with every block apart). */
            for (int u = 0; u < g->ntasks; u++) f1[u] = 1000 + u;
            int *back = malloc(sizeof(int) * (size_t)c->ntasks);
            sm_grid_restrict_first(g->spec.blocks, f1, back);
            for (int v = 0; v < c->ntasks; v++) {
                sm_grid_fine_blocks(g->spec.blocks, v, kids);
                assert_int_equal(back[v], 1000 + kids[0]);
            }
            free(back);
            free(cm);
            free(f1);
            free(f2);
        }
        /* The halo between coarse blocks is the fine halo crossing them. */
        int64_t fine_cut = 0, coarse_all = 0;
        for (int e = 0; e < g->nedges; e++)
            if (up[g->edges[e].src] != up[g->edges[e].dst]) fine_cut += g->edges[e].cells;
        for (int e = 0; e < c->nedges; e++) coarse_all += c->edges[e].cells;
        assert_int_equal(fine_cut, coarse_all);
        /* So any coarse mapping and its projection cost the same work
         * and communication energy. */
        int *cm = malloc(sizeof(int) * (size_t)c->ntasks), *fm = malloc(sizeof(int) * (size_t)g->ntasks);
        for (int r = 0; r < 5; r++) {
            for (int v = 0; v < c->ntasks; v++) cm[v] = (int)(sm_rand_next(&rs) % 4);
            sm_grid_project(g, up, cm, fm);
            sm_eval ec, ef;
            sm_eval_reference(c, t, &m, cm, &ec);
            sm_eval_reference(g, t, &m, fm, &ef);
            tu_assert_close(ef.comp_time, ec.comp_time, 1e-12, "comp time");
            tu_assert_close(ef.energy_dynamic, ec.energy_dynamic, 1e-12, "dynamic energy");
            tu_assert_close(ef.energy_static, ec.energy_static, 1e-12, "static energy");
            tu_assert_close(ef.energy_comm, ec.energy_comm, 1e-12, "communication energy");
        }
        free(cm);
        free(fm);
        free(up);
        sm_grid_free(c);
        sm_grid_free(g);
    }
    /* One block: nothing to halve. */
    sm_grid *one = tu_grid(1, 1, 1, 0, 0, 0, SM_ST_7PT);
    int up1[1];
    assert_null(sm_grid_coarsen(one, up1));
    sm_grid_free(one);
    sm_topo_free(t);
}

/* 8192 blocks on four processors: one coarsening to 1024. */
static void refines_to_a_checked_better_mapping(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(32, 16, 16, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int *map = calloc((size_t)g->ntasks, sizeof(int));
    sm_solver *s = multilevel_tabu(g, t, &m, map);
    assert_int_equal((int)stat_of(s, "levels"), 2);
    assert_int_equal((int)stat_of(s, "coarse_blocks"), 1024);
    /* The deadline it holds itself to: the fastest lb order plus slack. */
    double deadline = stat_of(s, "deadline");
    sm_model lbm = m;
    sm_err e;
    sm_solver *lb = sm_solver_new(&sm_solver_lb, g, t, &lbm, map, 0, NULL, &e);
    sm_solver_step(lb, g->ntasks + 1);
    assert_true(deadline <= lb->best.time * (1 + SM_MULTILEVEL_SLACK) * (1 + 1e-12));
    sm_model held = m;
    held.has_deadline = 1;
    held.deadline = deadline;
    sm_eval lb_ev;
    sm_eval_reference(g, t, &held, lb->best_map, &lb_ev);
    double prev = INFINITY;
    while (!s->done) {
        sm_solver_step(s, 1);
        assert_true(s->has_best);
        assert_true(s->best.energy <= prev * (1 + 1e-12) || !isfinite(prev));
        prev = s->best.energy;
    }
    sm_eval ref;
    sm_eval_reference(g, t, &held, s->best_map, &ref);
    tu_assert_close(s->best.energy, ref.energy, 1e-9, "best energy");
    tu_assert_close(s->best.time, ref.time, 1e-12, "best time");
    assert_true(ref.feasible);
    /* Refinement must have done real work beyond the lb start. */
    assert_true(ref.energy < lb_ev.energy * (1 - 1e-3));
    assert_true(stat_of(s, "moves") > 0);
    sm_solver_free(lb);
    sm_solver_free(s);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* While a coarser level is searched, the current mapping shown on the
 * session's grid is that level's current mapping projected, after every
 * step: it changes while the coarse search moves, and it is always a
 * whole-coarse-block projection (each fine block where its coarse block
 * is). */
static void current_follows_every_step(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(32, 16, 16, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int *map = calloc((size_t)g->ntasks, sizeof(int));
    sm_solver *s = multilevel_tabu(g, t, &m, map);
    int *up = malloc(sizeof(int) * (size_t)g->ntasks);
    sm_grid *c = sm_grid_coarsen(g, up);
    int *owner = malloc(sizeof(int) * (size_t)c->ntasks);
    int *prev = malloc(sizeof(int) * (size_t)g->ntasks);
    memcpy(prev, s->current_map, sizeof(int) * (size_t)g->ntasks);
    int coarse_steps = 0, changed = 0;
    for (;;) {
        sm_solver_step(s, 1);
        if (s->done || (int)stat_of(s, "level") != 1) break;
        coarse_steps++;
        assert_non_null(s->current_map);
        for (int v = 0; v < c->ntasks; v++) owner[v] = -1;
        for (int u = 0; u < g->ntasks; u++) {
            int v = up[u], p = s->current_map[u];
            assert_true(p >= 0 && p < t->nprocs);
            if (owner[v] < 0) owner[v] = p;
            assert_int_equal(owner[v], p);
        }
        changed += memcmp(prev, s->current_map, sizeof(int) * (size_t)g->ntasks) != 0;
        memcpy(prev, s->current_map, sizeof(int) * (size_t)g->ntasks);
    }
    assert_true(coarse_steps >= 5);
    assert_true(changed >= coarse_steps / 2);
    free(prev);
    free(owner);
    free(up);
    sm_grid_free(c);
    sm_solver_free(s);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Stopped early, it keeps a complete, correctly evaluated best. */
static void interrupt_keeps_best(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(32, 16, 16, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 0.5;
    int *map = calloc((size_t)g->ntasks, sizeof(int));
    const char *argv[2] = {"-multilevel", "on"};
    sm_err e;
    sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, &m, map, 2, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    sm_solver_step(s, 3);
    sm_solver_stop(s);
    assert_true(s->has_best);
    for (int u = 0; u < g->ntasks; u++) assert_true(s->best_map[u] >= 0 && s->best_map[u] < 4);
    sm_eval ref;
    sm_eval_reference(g, t, &m, s->best_map, &ref);
    tu_assert_close(s->best.energy, ref.energy, 1e-9, "best energy");
    sm_solver_free(s);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Below the threshold, auto is the flat search, move for move. */
static void auto_below_threshold_is_flat(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 3.22e-3;
    int map[128] = {0};
    const char *a1[4] = {"-iters", "200", "-multilevel", "auto"};
    const char *a2[4] = {"-iters", "200", "-multilevel", "off"};
    sm_err e;
    sm_solver *s1 = sm_solver_new(&sm_solver_tabu, g, t, &m, map, 4, a1, &e);
    sm_solver *s2 = sm_solver_new(&sm_solver_tabu, g, t, &m, map, 4, a2, &e);
    assert_non_null(s1);
    assert_non_null(s2);
    sm_solver_step(s1, 1000);
    sm_solver_step(s2, 1000);
    assert_memory_equal(s1->best_map, s2->best_map, sizeof map);
    assert_true(s1->best.energy == s2->best.energy);
    assert_int_equal(s1->iteration, 200);
    sm_solver_free(s1);
    sm_solver_free(s2);
    sm_topo_free(t);
    sm_grid_free(g);
}


/* Four nodes of a CPU and two GPUs on a two-level tree, links priced
 * apart (intra, near, far), so moves change link classes. */
static sm_topo *hetero_tree(void)
{
    char procs[2048] = "";
    for (int n = 0; n < 4; n++) {
        char b[256];
        snprintf(b, sizeof b,
                 "%s{\"name\":\"c%d\",\"type\":\"cpu\",\"node\":%d},{\"name\":\"g%da\",\"type\":\"gpu\",\"node\":%d},"
                 "{\"name\":\"g%db\",\"type\":\"gpu\",\"node\":%d}",
                 n ? "," : "", n, n, n, n, n, n);
        strcat(procs, b);
    }
    char text[8192];
    snprintf(text, sizeof text,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"cpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":90,\"p_idle\":10},"
             "\"gpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":74,\"p_idle\":30}},"
             "\"processors\":[%s],\"network\":{\"kind\":\"tree\",\"group_sizes\":[2]},"
             "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-6}},"
             "\"inter\":[{\"time_per_cell\":2e-9,\"energy_per_cell\":4e-6},"
             "{\"time_per_cell\":4e-9,\"energy_per_cell\":9e-6}]}}",
             218e-6 / BLOCK_CELLS, 7645e-6 / BLOCK_CELLS, 28e-6 / BLOCK_CELLS, 1443e-6 / BLOCK_CELLS, procs);
    return tu_topo_text(text);
}

/* Refines map to the end on `threads` workers; returns the refined
 * mapping (caller frees). */
static int *refine_threads(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                           long long *moves, long long *screened, int threads)
{
    unsigned long long rng = 5;
    sm_refine r;
    sm_refine_init(&r, g, t, m, map, 8, &rng);
    sm_refine_set_threads(&r, threads);
    while (sm_refine_step(&r, 256)) {}
    /* The workers really scored apart: replicas beside c. */
    if (threads > 1) assert_true(r.nrep >= threads - 1);
    int *out = malloc(sizeof(int) * (size_t)g->ntasks);
    memcpy(out, r.c->map, sizeof(int) * (size_t)g->ntasks);
    *moves = r.moves;
    *screened = r.screened;
    sm_refine_release(&r);
    return out;
}

static int *refine_all(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                       long long *moves, long long *screened)
{
    return refine_threads(g, t, m, map, moves, screened, 1);
}

/* The screen only skips moves the full evaluation would not take: with
 * it and without, refinement makes the same moves to the same mapping,
 * over link classes, stencils, the idle rule, a deadline that the rounds
 * bind (a long round) and starts that break the deadline at first. */
static void screen_takes_the_same_moves(void **st)
{
    (void)st;
    struct { int b[3], per; sm_stencil s; int unused_idle; double round_time, slack; int scramble; } cases[] = {
        {{16, 16, 8}, 0, SM_ST_7PT, 1, 1e-6, 0.03, 0},
        {{16, 16, 8}, 0, SM_ST_7PT, 0, 1e-6, 0.10, 40},
        {{8, 8, 8}, 1, SM_ST_27PT, 1, 1e-6, 0.03, 10},
        {{12, 12, 12}, 0, SM_ST_7PT, 1, 2e-5, 0.05, 0},
        {{12, 12, 12}, 0, SM_ST_7PT, 0, 1e-6, 0.00, 200},
    };
    sm_topo *t = hetero_tree();
    unsigned long long rs = 17;
    long long screened_all = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_grid *g = tu_grid(cases[i].b[0], cases[i].b[1], cases[i].b[2], cases[i].per, cases[i].per,
                             cases[i].per, cases[i].s);
        sm_model m;
        sm_model_default(&m);
        m.unused_idle = cases[i].unused_idle;
        m.round_time = cases[i].round_time;
        int *map = malloc(sizeof(int) * (size_t)g->ntasks);
        sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_KIJ, 1, map);
        sm_eval lb;
        sm_eval_reference(g, t, &m, map, &lb);
        m.has_deadline = 1;
        m.deadline = lb.time * (1 + cases[i].slack);
        for (int k = 0; k < cases[i].scramble; k++)
            map[sm_rand_next(&rs) % (unsigned)g->ntasks] = (int)(sm_rand_next(&rs) % (unsigned)t->nprocs);
        long long mv_on, mv_off, sc_on, sc_off;
        sm_refine_screen = 1;
        int *on = refine_all(g, t, &m, map, &mv_on, &sc_on);
        sm_refine_screen = 0;
        int *off = refine_all(g, t, &m, map, &mv_off, &sc_off);
        sm_refine_screen = 1;
        assert_true(mv_on > 0);
        assert_int_equal(mv_on, mv_off);
        assert_int_equal(sc_off, 0);
        assert_memory_equal(on, off, sizeof(int) * (size_t)g->ntasks);
        screened_all += sc_on;
        free(on);
        free(off);
        free(map);
        sm_grid_free(g);
    }
    /* And it did screen: most tried moves lose. */
    assert_true(screened_all > 0);
    sm_topo_free(t);
}

/* The thesis's cpu cpu gpu gpu with gpu_blocks 64^3-cell blocks of
 * memory on each GPU (8 bytes a cell). A GPU's speed share is 44 % of
 * the blocks. */
static sm_topo *small_gpus(int gpu_blocks)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"cpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":90,\"p_idle\":10},"
             "\"gpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":74,\"p_idle\":30,"
             "\"memory\":%.17g,\"bytes_per_cell\":8}},"
             "\"processors\":[{\"name\":\"cpu0\",\"type\":\"cpu\",\"node\":0},{\"name\":\"cpu1\",\"type\":\"cpu\",\"node\":0},"
             "{\"name\":\"gpu0\",\"type\":\"gpu\",\"node\":0},{\"name\":\"gpu1\",\"type\":\"gpu\",\"node\":0}],"
             "\"network\":{\"kind\":\"single\"},"
             "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g}}}}",
             218e-6 / BLOCK_CELLS, 7645e-6 / BLOCK_CELLS, 28e-6 / BLOCK_CELLS, 1443e-6 / BLOCK_CELLS,
             gpu_blocks * BLOCK_CELLS * 8, 4e-6 / MSG_CELLS, 55768e-6 / MSG_CELLS);
    return tu_topo_text(text);
}

/* Without a deadline, tabu holds itself to a deadline of its own. When
 * lb's speed shares pass the GPUs' memory, that deadline must be one a
 * mapping within memory reaches: it was the (memory-infeasible) lb's
 * time, and every result, multilevel or flat, ended infeasible. */
/* Each chunk's proposals are scored side by side and taken in queue
 * order: 1, 2 and 3 workers make the same moves to the same mapping, with
 * the maxdeg and the colouring rounds models (the latter scores on
 * replicas only). */
static void refinement_same_for_any_threads(void **st)
{
    (void)st;
    sm_topo *t = hetero_tree();
    for (int colouring = 0; colouring < 2; colouring++) {
        sm_grid *g = tu_grid(16, 12, 8, 0, 0, 0, SM_ST_7PT);
        sm_model m;
        sm_model_default(&m);
        if (colouring) m.rounds = SM_ROUNDS_COLOURING;
        int *map = malloc(sizeof(int) * (size_t)g->ntasks);
        sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_KIJ, 1, map);
        sm_eval lb;
        sm_eval_reference(g, t, &m, map, &lb);
        m.has_deadline = 1;
        m.deadline = lb.time * 1.05;
        unsigned long long rs = 23;
        for (int k = 0; k < 60; k++)
            map[sm_rand_next(&rs) % (unsigned)g->ntasks] = (int)(sm_rand_next(&rs) % (unsigned)t->nprocs);
        long long mv1, sc1;
        int *one = refine_threads(g, t, &m, map, &mv1, &sc1, 1);
        assert_true(mv1 > 0);
        for (int n = 2; n <= 3; n++) {
            long long mv, sc;
            int *x = refine_threads(g, t, &m, map, &mv, &sc, n);
            assert_int_equal(mv, mv1);
            assert_int_equal(sc, sc1);
            assert_memory_equal(one, x, sizeof(int) * (size_t)g->ntasks);
            free(x);
        }
        free(one);
        free(map);
        sm_grid_free(g);
    }
    sm_topo_free(t);
}

static void own_deadline_fits_memory(void **st)
{
    (void)st;
    sm_model m;
    sm_model_default(&m);
    struct { int b[3]; const char *ml; int gpu_cap; } cases[] = {{{32, 16, 16}, "on", 2000}, {{16, 8, 8}, "off", 250}};
    for (int k = 0; k < 2; k++) {
        int gpu_cap = cases[k].gpu_cap;
        sm_topo *t = small_gpus(gpu_cap);
        sm_grid *g = tu_grid(cases[k].b[0], cases[k].b[1], cases[k].b[2], 0, 0, 0, SM_ST_7PT);
        int n = g->ntasks;
        int *map = calloc((size_t)n, sizeof(int));
        const char *argv[4] = {"-multilevel", cases[k].ml, "-iters", "200"};
        sm_err e;
        sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, &m, map, 4, argv, &e);
        if (!s) fail_msg("%s", e.msg);
        double deadline = stat_of(s, "deadline");
        /* lb itself passes the GPUs' memory here. */
        sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_IJK, 1, map);
        sm_eval lb;
        sm_eval_reference(g, t, &m, map, &lb);
        assert_false(lb.memory_ok);
        /* No mapping within memory is faster than the GPUs full and the
         * rest shared by the CPUs: the deadline is at least that. */
        double least = ceil((n - 2.0 * gpu_cap) / 2) * 218e-6;
        assert_true(deadline >= least * (1 - 1e-9));
        /* ... and not looser than lb held to memory (plus slack). */
        sm_fill_memory(g, t, SM_SPEEDS_EXACT, SM_ORDER_IJK, 1, map);
        sm_eval fits;
        sm_eval_reference(g, t, &m, map, &fits);
        assert_true(fits.memory_ok);
        assert_true(deadline <= fits.time * (1 + SM_MULTILEVEL_SLACK) * (1 + 1e-9));
        for (int i = 0; i < 100000 && !s->done; i++) sm_solver_step(s, 1);
        assert_true(s->done);
        sm_model held = m;
        held.has_deadline = 1;
        held.deadline = deadline;
        sm_eval ref;
        sm_eval_reference(g, t, &held, s->best_map, &ref);
        tu_assert_close(s->best.energy, ref.energy, 1e-9, "best energy");
        assert_true(ref.memory_ok);
        assert_true(ref.feasible);
        assert_true(s->best.feasible);
        sm_solver_free(s);
        free(map);
        sm_grid_free(g);
        sm_topo_free(t);
    }
}


/* Every step's record of a run with history: figures, objective,
 * statistics, and the mappings sought to. */
typedef struct {
    long long first, head;
    sm_eval *cur, *best;
    double *obj, *stats;
    int nstats;
    int skip;     /* step_threads: the workers there were, not a figure */
    unsigned long long *hash;
} step_records;

static unsigned long long map_hash(const int *map, int n)
{
    unsigned long long h = 1469598103934665603ull;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned)(map ? map[i] : -1)) * 1099511628211ull;
    return h;
}

/* Tabu with -multilevel ml and -threads threads, history on, stepped
 * `per` steps a call to the end; then every step read back. */
static step_records run_records(const sm_grid *g, const sm_topo *t, const sm_model *m, const char *ml,
                                const char *threads, int per)
{
    int *map = calloc((size_t)g->ntasks, sizeof(int));
    const char *argv[6] = {"-multilevel", ml, "-iters", "300", "-threads", threads};
    sm_err e;
    sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, m, map, 6, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    sm_solver_history_on(s);
    while (!s->done) sm_solver_step(s, per);
    step_records r;
    memset(&r, 0, sizeof r);
    r.first = sm_history_first(s->hist);
    r.head = sm_history_head(s->hist);
    size_t n = (size_t)(r.head - r.first + 1);
    r.cur = calloc(n, sizeof *r.cur);
    r.best = calloc(n, sizeof *r.best);
    r.obj = calloc(2 * n, sizeof *r.obj);
    r.nstats = s->nstats;
    r.skip = -1;
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "step_threads") == 0) r.skip = i;
    r.stats = calloc(n * (size_t)r.nstats + 1, sizeof *r.stats);
    r.hash = calloc(2 * n, sizeof *r.hash);
    for (long long k = r.first; k <= r.head; k++) {
        size_t i = (size_t)(k - r.first);
        const sm_hist_step *st = sm_history_step(s->hist, k);
        r.cur[i] = st->current;
        r.best[i] = *sm_history_best(s->hist, st);
        r.obj[2 * i] = st->objective;
        r.obj[2 * i + 1] = st->best_objective;
        assert_true(st->nstats <= r.nstats);
        memcpy(r.stats + i * (size_t)r.nstats, sm_history_stats(s->hist, st), sizeof(double) * (size_t)st->nstats);
        sm_solver_seek(s, k);
        r.hash[2 * i] = map_hash(s->current_map, g->ntasks);
        r.hash[2 * i + 1] = map_hash(s->best_map, g->ntasks);
        /* The step's own figures, not the step before's: its current
         * mapping evaluated afresh agrees (to rounding; bit for bit is
         * the followed state's, compared below). */
        if (s->current_map && st->has_current) {
            sm_eval ref;
            sm_eval_reference(g, t, &s->model, s->current_map, &ref);
            assert_true(fabs(ref.energy - st->current.energy) <= 1e-9 * ref.energy);
            assert_true(fabs(ref.time - st->current.time) <= 1e-9 * ref.time);
        }
    }
    sm_solver_free(s);
    free(map);
    return r;
}

static void records_equal(const step_records *a, const step_records *b)
{
    assert_int_equal(a->first, b->first);
    assert_int_equal(a->head, b->head);
    assert_int_equal(a->nstats, b->nstats);
    size_t n = (size_t)(a->head - a->first + 1);
    assert_memory_equal(a->cur, b->cur, n * sizeof *a->cur);
    assert_memory_equal(a->best, b->best, n * sizeof *a->best);
    assert_memory_equal(a->obj, b->obj, 2 * n * sizeof *a->obj);
    assert_int_equal(a->skip, b->skip);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < a->nstats; j++)
            if (j != a->skip)
                assert_memory_equal(&a->stats[i * (size_t)a->nstats + (size_t)j],
                                    &b->stats[i * (size_t)b->nstats + (size_t)j], sizeof(double));
    assert_memory_equal(a->hash, b->hash, 2 * n * sizeof *a->hash);
}

static void records_free(step_records *r)
{
    free(r->cur);
    free(r->best);
    free(r->obj);
    free(r->stats);
    free(r->hash);
}

/* With threads the shown mapping's figures of a coarse step are
 * evaluated on a worker beside the next step and handed to the history
 * later (sm_multilevel_follow_beside): every step's figures, objective,
 * statistics (current_energy) and mappings are those of the same run
 * evaluated in the step, on one thread or two, stepped one step a call
 * or seven (a step's figures then arrive during the next step). Flat
 * (no show) and multilevel. */
static void figures_beside_the_same(void **st)
{
    (void)st;
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    struct { int b[3]; const char *ml; } cases[] = {{{32, 16, 16}, "on"}, {{16, 8, 8}, "off"}};
    for (int c = 0; c < 2; c++) {
        sm_grid *g = tu_grid(cases[c].b[0], cases[c].b[1], cases[c].b[2], 0, 0, 0, SM_ST_7PT);
        sm_model m;
        sm_model_default(&m);
        sm_multilevel_follow_beside = 0;
        step_records ref = run_records(g, t, &m, cases[c].ml, "1", 1);
        assert_true(ref.head - ref.first >= 10);
        long long before = sm_multilevel_followed_beside;
        step_records in_step = run_records(g, t, &m, cases[c].ml, "2", 7);
        assert_int_equal(sm_multilevel_followed_beside, before);
        records_equal(&ref, &in_step);
        records_free(&in_step);
        sm_multilevel_follow_beside = 1;
        const char *threads[] = {"1", "2", "2"};
        int per[] = {7, 1, 7};
        for (int k = 0; k < 3; k++) {
            before = sm_multilevel_followed_beside;
            step_records x = run_records(g, t, &m, cases[c].ml, threads[k], per[k]);
            /* Two threads, multilevel: the coarse steps were followed beside. */
            if (k > 0 && c == 0) assert_true(sm_multilevel_followed_beside - before >= 5);
            else assert_int_equal(sm_multilevel_followed_beside, before);
            records_equal(&ref, &x);
            records_free(&x);
        }
        records_free(&ref);
        sm_grid_free(g);
    }
    sm_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(coarsen_keeps_work_and_halo),
        cmocka_unit_test(refines_to_a_checked_better_mapping),
        cmocka_unit_test(current_follows_every_step),
        cmocka_unit_test(interrupt_keeps_best),
        cmocka_unit_test(auto_below_threshold_is_flat),
        cmocka_unit_test(screen_takes_the_same_moves),
        cmocka_unit_test(own_deadline_fits_memory),
        cmocka_unit_test(refinement_same_for_any_threads),
        cmocka_unit_test(figures_beside_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
