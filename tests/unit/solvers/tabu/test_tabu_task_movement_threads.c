/* test_tabu_task_movement_threads.c - tabu gives the same mapping, step by step, for
 * any -threads (issue 38): flat and multilevel, with and without a
 * deadline, with DVFS states; the start heuristics and whole-grid
 * passes that run side by side are read in a fixed order. Every step's
 * current and best mappings, evaluations, last move and statistics are
 * compared with one thread's, bit for bit; and the default (no -threads)
 * follows STENCILMAP_THREADS. */
#include "tests/unit/testutil.h"
#include "core/lib/threads.h"
#include "solvers/solver_registry.h"

#define STEPS_MAX 400

typedef struct {
    long long steps;
    sm_eval best[STEPS_MAX + 1], cur[STEPS_MAX + 1];
    char move[STEPS_MAX + 1][160];
    int *maps;   /* (STEPS_MAX + 1) x n best, then current */
    double deadline;
    double step_threads; /* the workers that scored each step's candidates */
} trace;

static void take(const sm_solver *s, trace *tr, int k, int n)
{
    tr->best[k] = s->best;
    tr->cur[k] = s->current;
    snprintf(tr->move[k], sizeof tr->move[k], "%s", s->last_move);
    memcpy(tr->maps + (size_t)k * 2 * n, s->best_map, sizeof(int) * (size_t)n);
    if (s->current_map) memcpy(tr->maps + ((size_t)k * 2 + 1) * n, s->current_map, sizeof(int) * (size_t)n);
}

/* The rounds model of the runs (the colouring case sets it). */
static sm_rounds_model rounds_model = SM_ROUNDS_MAXDEG;

static trace *run(const sm_grid *g, const sm_topo *t, double deadline, const char *threads, int argc,
                  const char *const *argv)
{
    int n = g->ntasks;
    trace *tr = calloc(1, sizeof *tr);
    tr->maps = calloc((size_t)(STEPS_MAX + 1) * 2 * (size_t)n, sizeof(int));
    const char *args[24];
    int na = 0;
    for (int i = 0; i < argc; i++) args[na++] = argv[i];
    if (threads) {
        args[na++] = "-threads";
        args[na++] = threads;
    }
    int *start = calloc((size_t)n, sizeof(int));
    for (int b = 0; b < n; b++) start[b] = b % t->nprocs;
    sm_model m;
    sm_model_default(&m);
    m.rounds = rounds_model;
    m.has_deadline = deadline > 0;
    m.deadline = deadline;
    sm_err e;
    sm_solver *s = sm_solver_new(sm_solver_find("tabu"), g, t, &m, start, na, args, &e);
    if (!s) fail_msg("tabu: %s", e.msg);
    tr->deadline = s->model.deadline;
    int k = 0;
    take(s, tr, 0, n);
    while (!s->done && k < STEPS_MAX) {
        sm_solver_step(s, 1);
        take(s, tr, ++k, n);
    }
    tr->steps = k;
    /* Flat: the search's own; multilevel: its coarse search's (not
     * shown by the driver), so -1 there. */
    tr->step_threads = -1;
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "step_threads") == 0) tr->step_threads = s->stats[i].value;
    sm_solver_free(s);
    free(start);
    return tr;
}

static void same(const trace *a, const trace *b, int n, const char *what)
{
    if (a->steps != b->steps) fail_msg("%s: %lld steps, want %lld", what, b->steps, a->steps);
    assert_true(a->deadline == b->deadline);
    for (long long k = 0; k <= a->steps; k++) {
        if (memcmp(&a->best[k], &b->best[k], sizeof a->best[k]))
            fail_msg("%s: best evaluation differs at step %lld", what, k);
        if (memcmp(&a->cur[k], &b->cur[k], sizeof a->cur[k]))
            fail_msg("%s: current evaluation differs at step %lld", what, k);
        if (strcmp(a->move[k], b->move[k]))
            fail_msg("%s: step %lld moved \"%s\", want \"%s\"", what, k, b->move[k], a->move[k]);
        if (memcmp(a->maps + (size_t)k * 2 * n, b->maps + (size_t)k * 2 * n, sizeof(int) * 2 * (size_t)n))
            fail_msg("%s: mappings differ at step %lld", what, k);
    }
}

static void free_trace(trace *t)
{
    free(t->maps);
    free(t);
}

/* 1, 2 and 3 threads, and the default under STENCILMAP_THREADS=2;
 * returns the deadline the search held itself to. */
static double check(const sm_grid *g, const sm_topo *t, double deadline, int argc, const char *const *argv,
                    const char *what)
{
    trace *one = run(g, t, deadline, "1", argc, argv);
    assert_true(one->steps > 0);
    assert_true(one->step_threads == 1 || one->step_threads == -1);
    static const char *const counts[] = {"2", "3"};
    for (int i = 0; i < 2; i++) {
        trace *x = run(g, t, deadline, counts[i], argc, argv);
        char w[128];
        snprintf(w, sizeof w, "%s, %s threads", what, counts[i]);
        /* The steps really ran on that many workers (flat searches). */
        if (one->step_threads == 1 && x->step_threads != atoi(counts[i]))
            fail_msg("%s: steps scored on %g workers", w, x->step_threads);
        same(one, x, g->ntasks, w);
        free_trace(x);
    }
    setenv("STENCILMAP_THREADS", "2", 1);
    assert_int_equal(sm_threads_default(), 2);
    trace *d = run(g, t, deadline, NULL, argc, argv);
    unsetenv("STENCILMAP_THREADS");
    same(one, d, g->ntasks, what);
    free_trace(d);
    double held = one->deadline;
    free_trace(one);
    return held;
}

/* An instance under its own deadline (the fastest start's), then under
 * one `looser` times that: a search that may trade time for energy. */
static void check_both_deadlines(const sm_grid *g, const sm_topo *t, double looser, int argc,
                                 const char *const *argv, const char *what)
{
    char w[128];
    snprintf(w, sizeof w, "%s, own deadline", what);
    double own = check(g, t, 0, argc, argv, w);
    snprintf(w, sizeof w, "%s, deadline x%g", what, looser);
    check(g, t, own * looser, argc, argv, w);
}

static void flat(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 6, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    static const char *const argv[] = {"-multilevel", "off", "-iters", "120", "-seed", "3"};
    check_both_deadlines(g, t, 1.4, 6, argv, "flat");
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Under colouring rounds the search scores with the incremental lower
 * bound on the replicas and evaluates the accepted mapping's schedule on
 * its own state: the same path still. */
static void colouring(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 6, 4, 1, 0, 0, SM_ST_27PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[2,3]}", 6);
    static const char *const argv[] = {"-multilevel", "off", "-iters", "80", "-seed", "5"};
    rounds_model = SM_ROUNDS_COLOURING;
    check(g, t, 0, 6, argv, "flat, colouring rounds");
    rounds_model = SM_ROUNDS_MAXDEG;
    sm_topo_free(t);
    sm_grid_free(g);
}

static void multilevel(void **st)
{
    (void)st;
    /* 4096 blocks coarsen (above 2048) */
    sm_grid *g = tu_grid(64, 64, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[4,4]}", 16);
    static const char *const argv[] = {"-multilevel", "on", "-iters", "40", "-seed", "2"};
    check_both_deadlines(g, t, 1.2, 6, argv, "multilevel");
    sm_topo_free(t);
    sm_grid_free(g);
}

static const char dvfs_topo[] =
    "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
    "\"gpu\":{\"time_per_cell\":1.068115234375e-10,\"energy_per_cell\":5.504608154296875e-09,\"p0\":74,\"p_idle\":30,"
    "\"states\":{\"low\":{\"time_per_cell\":1.52587890625e-10,\"energy_per_cell\":3.814697265625e-09,\"p0\":45}}},"
    "\"cpu\":{\"time_per_cell\":8.3160400390625e-10,\"energy_per_cell\":2.9163360595703125e-08,\"p0\":90,\"p_idle\":10,"
    "\"states\":{\"low\":{\"time_per_cell\":1.1444091796875e-09,\"energy_per_cell\":2.288818359375e-08,\"p0\":60}}}},"
    "\"processors\":[{\"name\":\"cpu0\",\"type\":\"cpu\",\"node\":0},{\"name\":\"cpu1\",\"type\":\"cpu\",\"node\":0},"
    "{\"name\":\"gpu0\",\"type\":\"gpu\",\"node\":0},{\"name\":\"gpu1\",\"type\":\"gpu\",\"node\":0}],"
    "\"network\":{\"kind\":\"single\"},"
    "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":9.765625e-10,\"energy_per_cell\":1.3615234375e-05}}}}";

static void dvfs(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 6, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_topo_text(dvfs_topo);
    static const char *const argv[] = {"-dvfs", "on", "-iters", "150", "-seed", "4"};
    check_both_deadlines(g, t, 2, 6, argv, "dvfs");
    sm_topo_free(t);
    sm_grid_free(g);
}

static void counts(void **st)
{
    (void)st;
    assert_int_equal(sm_threads_resolve(3), 3);
    assert_int_equal(sm_threads_resolve(100000), SM_THREADS_MAX);
    setenv("STENCILMAP_THREADS", "5", 1);
    assert_int_equal(sm_threads_resolve(0), 5);
    /* Not a count: the cores, never 0. */
    setenv("STENCILMAP_THREADS", "many", 1);
    assert_true(sm_threads_default() >= 1);
    unsetenv("STENCILMAP_THREADS");
    assert_true(sm_threads_default() >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts),
        cmocka_unit_test(flat),
        cmocka_unit_test(colouring),
        cmocka_unit_test(multilevel),
        cmocka_unit_test(dvfs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
