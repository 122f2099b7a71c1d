/* test_step_history_record_seek_back.c - every solver's steps recorded (solvers/stepper/step_history_record_seek_back.h):
 * seeking to step K shows exactly what the solver showed after step K
 * (iteration, current and best mappings and evaluations, last move,
 * statistics), stepping on from K repeats the same steps, and recording
 * does not change what the solver does. */
#include "tests/unit/testutil.h"
#include "solvers/solver_registry.h"
#include "solvers/stepper/step_history_record_seek_back.h"
#include "core/io/topology_file.h"

typedef struct {
    long long iteration;
    int done, has_current, has_best, shown;
    sm_eval current, best;
    char last_move[160];
    int nstats;
    double stats[16];
    int *cur, *best_map;
} snap;

static void take(const sm_solver *s, int n, snap *o)
{
    o->iteration = s->iteration;
    o->done = s->done;
    o->has_current = s->has_current;
    o->has_best = s->has_best;
    o->current = s->current;
    o->best = s->best;
    snprintf(o->last_move, sizeof o->last_move, "%s", s->last_move);
    o->nstats = s->nstats;
    for (int i = 0; i < s->nstats; i++) o->stats[i] = s->stats[i].value;
    o->shown = s->current_map != NULL;
    o->cur = malloc(sizeof(int) * (size_t)n);
    o->best_map = malloc(sizeof(int) * (size_t)n);
    if (s->current_map) memcpy(o->cur, s->current_map, sizeof(int) * (size_t)n);
    memcpy(o->best_map, s->best_map, sizeof(int) * (size_t)n);
}

/* check_current 0: a solver stepped without the history has no current
 * evaluation where the solver itself makes none (the stepper adds it). */
static void same_as(const sm_solver *s, int n, const snap *o, const char *what, int check_current)
{
    if (s->iteration != o->iteration) fail_msg("%s: iteration %lld, want %lld", what, s->iteration, o->iteration);
    assert_int_equal(s->done, o->done);
    assert_int_equal(s->has_best, o->has_best);
    if (check_current) assert_int_equal(s->has_current, o->has_current);
    if (s->has_current && o->has_current && memcmp(&s->current, &o->current, sizeof o->current))
        fail_msg("%s: current evaluation differs at step %lld", what, o->iteration);
    if (o->has_best && memcmp(&s->best, &o->best, sizeof o->best))
        fail_msg("%s: best evaluation differs at step %lld", what, o->iteration);
    if (strcmp(s->last_move, o->last_move))
        fail_msg("%s: last move \"%s\", want \"%s\" at step %lld", what, s->last_move, o->last_move, o->iteration);
    assert_int_equal(s->nstats, o->nstats);
    for (int i = 0; i < o->nstats; i++)
        /* A clock reading differs between two runs, never within one. */
        if (!(strcmp(s->stats[i].key, "elapsed") == 0 && !check_current) && memcmp(&s->stats[i].value, &o->stats[i], sizeof(double)))
            fail_msg("%s: stat %s %.17g, want %.17g at step %lld", what, s->stats[i].key, s->stats[i].value,
                     o->stats[i], o->iteration);
    assert_int_equal(s->current_map != NULL, o->shown);
    if (o->shown && memcmp(s->current_map, o->cur, sizeof(int) * (size_t)n))
        fail_msg("%s: current mapping differs at step %lld", what, o->iteration);
    if (o->has_best && memcmp(s->best_map, o->best_map, sizeof(int) * (size_t)n))
        fail_msg("%s: best mapping differs at step %lld", what, o->iteration);
}

static void same(const sm_solver *s, int n, const snap *o, const char *what) { same_as(s, n, o, what, 1); }

#define MAXSTEPS 48

/* A deadline for the solvers start() starts (0: none). */
static double start_deadline;

static sm_solver *start(const char *name, const sm_grid *g, const sm_topo *t, const int *startmap, int argc,
                        const char *const *argv)
{
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = start_deadline > 0;
    m.deadline = start_deadline;
    sm_err e;
    sm_solver *s = sm_solver_new(sm_solver_find(name), g, t, &m, startmap, argc, argv, &e);
    if (!s) fail_msg("%s: %s", name, e.msg);
    return s;
}

/* Steps name one at a time with and without the history, then seeks
 * around and checks every step it lands on. */
static void check_solver(const char *name, const sm_grid *g, const sm_topo *t, int argc, const char *const *argv)
{
    int n = g->ntasks;
    int *startmap = calloc((size_t)n, sizeof(int));
    for (int b = 0; b < n; b++) startmap[b] = b % t->nprocs;
    sm_solver *s = start(name, g, t, startmap, argc, argv);
    sm_solver *plain = start(name, g, t, startmap, argc, argv);
    sm_solver_history_on(s);
    assert_non_null(s->hist);
    snap sn[MAXSTEPS + 1];
    int k = 0;
    take(s, n, &sn[k]);
    while (!s->done && k < MAXSTEPS) {
        assert_int_equal(sm_solver_step(s, 1), 1);
        sm_solver_step(plain, 1);
        take(s, n, &sn[++k]);
        /* Recording changes nothing the solver does. */
        same_as(plain, n, &sn[k], "without history", 0);
    }
    assert_int_equal(sm_history_head(s->hist), k);
    /* Back and forth, far and near. */
    long long order[] = {0, k, k / 2, 1, k, k - 1, 0, k / 3, 2 * k / 3, k};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        long long to = order[i] < 0 ? 0 : order[i] > k ? k : order[i];
        sm_solver_seek(s, to);
        same(s, n, &sn[to], name);
    }
    /* From the middle, stepping on repeats the same steps... */
    sm_solver_seek(s, k / 2);
    for (int j = k / 2 + 1; j <= k; j++) {
        assert_int_equal(sm_solver_step(s, 1), 1);
        same(s, n, &sn[j], "stepping on");
    }
    /* ...and past the last step the solver itself goes on exactly as one
     * that was never sent back. */
    if (!s->done) {
        sm_solver_seek(s, 0);
        sm_solver_step(s, k + 3);
        sm_solver_step(plain, 3);
        snap p;
        take(plain, n, &p);
        same_as(s, n, &p, "past the head", 0);
        free(p.cur);
        free(p.best_map);
    }
    for (int j = 0; j <= k; j++) {
        free(sn[j].cur);
        free(sn[j].best_map);
    }
    sm_solver_free(s);
    sm_solver_free(plain);
    free(startmap);
}

static void every_solver(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[2,2,2]}", 8);
    static const char *const tabu[] = {"-iters", "40", "-seed", "5"};
    /* Threads change nothing a seek or a replay sees. */
    static const char *const tabu3[] = {"-iters", "40", "-seed", "5", "-threads", "3"};
    static const char *const bok[] = {"-seed", "3"};
    static const char *const ga[] = {"-population", "8", "-generations", "12", "-seed", "2"};
    static const char *const rnd[] = {"-samples", "30", "-seed", "4"};
    static const char *const sfc[] = {"-curve", "hilbert"};
    static const char *const popta[] = {"-objective", "energy"};
    struct {
        const char *name;
        int argc;
        const char *const *argv;
    } runs[] = {
        {"tabu", 4, tabu}, {"tabu", 6, tabu3}, {"bokhari", 2, bok}, {"ga", 6, ga}, {"random", 4, rnd}, {"minmd", 0, NULL},
        {"sfc", 2, sfc},   {"lb", 0, NULL},     {"dm", 0, NULL}, {"mm", 0, NULL}, {"na", 0, NULL},
        {"proportional", 0, NULL}, {"rcb", 0, NULL}, {"popta", 2, popta}, {"ilp", 0, NULL},
    };
    const sm_solver_ops *const *all = sm_solver_list();
    int covered = 0;
    for (int i = 0; all[i]; i++) {
        int hit = 0;
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) hit |= strcmp(runs[r].name, all[i]->name) == 0;
        covered += hit;
    }
    /* A solver added later gets checked here too. */
    for (int i = 0; all[i]; i++) assert_true(i < covered);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        if (strcmp(runs[r].name, "ilp") != 0) check_solver(runs[r].name, g, t, runs[r].argc, runs[r].argv);
    sm_topo_free(t);
    sm_grid_free(g);
    /* The ILP to optimality (a time limit would make two runs differ). */
    g = tu_grid(2, 2, 2, 0, 0, 0, SM_ST_7PT);
    t = tu_thesis("cpu gpu");
    check_solver("ilp", g, t, 0, NULL);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* The multilevel tabu: coarse steps move many fine blocks at once, and
 * refinement steps on the session's grid list their moves and patch the
 * best mapping with them (sm_solver_offer_patch) rather than copy it:
 * 32x32x16 blocks on the summit-like machine (256 processors), coarsened
 * once, from a scattered mapping (-from current), so the finest level
 * takes many steps that each improve the best. */
static void multilevel_tabu(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(32, 32, 16, 0, 0, 0, SM_ST_7PT);
    sm_err e;
    sm_topo *t = sm_topo_load("samples/topologies/summit-like-topology.json", &e);
    if (!t) fail_msg("%s", e.msg);
    static const char *const ml[] = {"-multilevel", "on", "-iters", "64", "-seed", "7", "-from", "current"};
    /* Held to a deadline of its own, so the best is the search's, not
     * one of the lb mappings it offers when it sets its own. */
    start_deadline = 2e-3;
    check_solver("tabu", g, t, 8, ml);
    /* What it covered: patched bests on the session's grid. */
    int *scattered = malloc(sizeof(int) * (size_t)g->ntasks);
    for (int b = 0; b < g->ntasks; b++) scattered[b] = b % t->nprocs;
    sm_solver *s = start("tabu", g, t, scattered, 8, ml);
    free(scattered);
    sm_solver_history_on(s);
    int patches = 0;
    while (!s->done) {
        unsigned long long v = s->best_version;
        sm_solver_step(s, 1);
        patches += s->best_version != v && s->best_patch_version == s->best_version;
        /* The patched best is the mapping its figures say it is. */
        sm_eval ref;
        sm_eval_reference(g, t, &s->model, s->best_map, &ref);
        tu_assert_close(ref.energy, s->best.energy, 1e-9, "patched best energy");
        tu_assert_close(ref.time, s->best.time, 1e-12, "patched best time");
    }
    assert_true(patches >= 2);
    start_deadline = 0;
    sm_solver_free(s);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* explain: the tabu search names its move, why, its best candidates
 * (best first, the chosen one among them unless aspiration... ) and the
 * running tabu attributes, whose tenures count down step by step. */
static void tabu_explains(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu");
    static const char *const a[] = {"-iters", "30", "-seed", "9", "-tenure-add", "7", "-tenure-remove", "3"};
    sm_solver *s = start("tabu", g, t, NULL, 8, a);
    sm_solver_history_on(s);
    sm_solver_step(s, 30);
    const sm_history *h = s->hist;
    for (long long k = 1; k <= 30; k++) {
        const sm_hist_step *hs = sm_history_step(h, k);
        assert_non_null(hs);
        const char *why = sm_history_why(h, hs);
        assert_true(strstr(why, "best admissible") || strstr(why, "aspiration") || strstr(why, "tabu"));
        assert_true(hs->ncand >= 1 && hs->ncand <= SM_EXPLAIN_CANDS);
        sm_explain_cand c[SM_EXPLAIN_CANDS];
        for (int i = 0; i < hs->ncand; i++) {
            sm_history_cand(h, hs, i, &c[i]);
            assert_true(c[i].pa < 0 && strlen(c[i].move) > 0);
        }
        for (int i = 1; i < hs->ncand; i++) assert_true(c[i - 1].objective <= c[i].objective + 1e-12);
        /* Every attribute's tenure is within what was asked. */
        const sm_explain_tabu *tb = sm_history_tabu(h, hs);
        assert_true(hs->ntabu > 0);
        for (int i = 0; i < hs->ntabu; i++) {
            assert_true(tb[i].remaining >= 1);
            /* tabu for at most the next -tenure-add (-remove) steps: the
             * options' counts (issue 37: it was one more) */
            assert_true(tb[i].remaining <= (tb[i].join ? 7 : 3));
        }
    }
    /* The move of step 1 made "its block joins where it came from" tabu
     * for the tenure-add steps after it. */
    const sm_hist_step *h1 = sm_history_step(h, 1);
    const sm_explain_tabu *tb = sm_history_tabu(h, h1);
    int joins = 0;
    for (int i = 0; i < h1->ntabu; i++) joins += tb[i].join && tb[i].remaining == 7;
    assert_true(joins >= 1);
    sm_solver_free(s);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* What the workbench's frame follows a step or a seek with instead of
 * comparing whole mappings (sm_history_moved_between): between any two
 * kept steps, every block whose current (best) processor differs is
 * listed. Multilevel tabu's coarse steps name the fine blocks they moved
 * (the history no longer compares the session's grid each step: 16.7 M
 * blocks at a whole Summit), and their current mapping is the projection
 * its figures say it is. */
static void moved_between(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(32, 32, 16, 0, 0, 0, SM_ST_7PT);
    sm_err e;
    sm_topo *t = sm_topo_load("samples/topologies/summit-like-topology.json", &e);
    if (!t) fail_msg("%s", e.msg);
    static const char *const ml[] = {"-multilevel", "on", "-iters", "400", "-seed", "3"};
    sm_solver *s = start("tabu", g, t, NULL, 6, ml);
    sm_solver_history_on(s);
    enum { K = 24 };
    int n = g->ntasks;
    int *cur[K + 1], *best[K + 1];
    for (int k = 0; k <= K; k++) {
        if (k) {
            sm_solver_step(s, 1);
            /* Still on the coarse level: the step listed its fine blocks. */
            assert_true(s->moves_known);
            sm_eval ref;
            sm_eval_reference(g, t, &s->model, s->current_map, &ref);
            tu_assert_close(ref.energy, s->current.energy, 1e-9, "coarse step's current energy");
        }
        cur[k] = malloc(sizeof(int) * (size_t)n);
        best[k] = malloc(sizeof(int) * (size_t)n);
        memcpy(cur[k], s->current_map, sizeof(int) * (size_t)n);
        memcpy(best[k], s->best_map, sizeof(int) * (size_t)n);
    }
    int *list = NULL, cap = 0;
    unsigned char *in = calloc((size_t)n, 1);
    int moved_any = 0;
    for (int a = 0; a <= K; a += 3)
        for (int b = 0; b <= K; b += 5)
            for (int which = 0; which < 2; which++) {
                int **m = which ? best : cur;
                int k = sm_history_moved_between(s->hist, a, b, which, n, &list, &cap);
                assert_true(k >= 0);
                for (int i = 0; i < k; i++) in[list[i]] = 1;
                for (int u = 0; u < n; u++)
                    if (m[a][u] != m[b][u]) {
                        assert_true(in[u]);
                        moved_any = 1;
                    }
                for (int i = 0; i < k; i++) in[list[i]] = 0;
            }
    assert_true(moved_any);
    /* Over the limit: -1, compare whole mappings. */
    assert_int_equal(sm_history_moved_between(s->hist, 0, K, 0, 0, &list, &cap), -1);
    assert_int_equal(sm_history_moved_between(s->hist, 0, K + 1, 0, n, &list, &cap), -1);
    free(in);
    free(list);
    for (int k = 0; k <= K; k++) {
        free(cur[k]);
        free(best[k]);
    }
    sm_solver_free(s);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Past the history's limit the oldest steps go; the rest stay exact. */
static void oldest_dropped(void **st)
{
    (void)st;
    size_t keep = sm_history_limit;
    sm_history_limit = 64 << 10;
    sm_grid *g = tu_grid(4, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu");
    static const char *const a[] = {"-iters", "400", "-seed", "1"};
    sm_solver *s = start("tabu", g, t, NULL, 4, a);
    sm_solver *plain = start("tabu", g, t, NULL, 4, a);
    sm_solver_history_on(s);
    sm_solver_step(s, 400);
    long long first = sm_history_first(s->hist);
    assert_true(first > 0);
    assert_int_equal(sm_history_head(s->hist), 400);
    assert_true(sm_history_bytes(s->hist) <= sm_history_limit);
    sm_solver_step(plain, first + 5);
    snap p;
    take(plain, g->ntasks, &p);
    sm_solver_seek(s, first + 5);
    same(s, g->ntasks, &p, "after dropping");
    free(p.cur);
    free(p.best_map);
    sm_solver_free(s);
    sm_solver_free(plain);
    sm_topo_free(t);
    sm_grid_free(g);
    sm_history_limit = keep;
}

/* bokhari names its candidates as numbers (sm_solver_candidate_exchange):
 * read back, each is the text it wrote before, naming the processors the
 * two blocks were on before the step; the best's evaluation, kept once
 * while it stays the same, reads back right after the oldest steps are
 * dropped (a kept step's best made before the first kept step). */
static void exchange_candidates(void **st)
{
    (void)st;
    size_t keep = sm_history_limit;
    sm_history_limit = 96 << 10;
    sm_grid *g = tu_grid(6, 6, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[4,4]}", 16);
    static const char *const a[] = {"-seed", "2", "-stall", "4"};
    sm_solver *s = start("bokhari", g, t, NULL, 4, a);
    sm_solver_history_on(s);
    int n = g->ntasks, before[36], cands = 0;
    enum { MAXK = 4000 };
    sm_eval *best = calloc(MAXK + 1, sizeof *best);
    best[0] = s->best;
    long long k = 0;
    while (!s->done && k < MAXK) {
        memcpy(before, s->current_map, sizeof(int) * (size_t)n);
        sm_solver_step(s, 1);
        best[++k] = s->best;
        const sm_hist_step *hs = sm_history_step(s->hist, k);
        for (int i = 0; i < hs->ncand; i++) {
            sm_explain_cand c;
            sm_history_cand(s->hist, hs, i, &c);
            char want[96];
            snprintf(want, sizeof want, "exchange blocks %d (%s) and %d (%s)", c.a, t->procs[before[c.a]].name, c.b,
                     t->procs[before[c.b]].name);
            assert_string_equal(c.move, want);
            assert_int_equal(c.pa, before[c.a]);
            assert_int_equal(c.pb, before[c.b]);
            cands++;
        }
    }
    assert_true(cands > 100);
    long long first = sm_history_first(s->hist);
    assert_true(first > 1);
    /* Some kept step's best is older than the first kept step. */
    int shared = 0;
    for (long long j = first; j <= k; j++) {
        sm_solver_seek(s, j);
        if (memcmp(&s->best, &best[j], sizeof best[j])) fail_msg("best evaluation differs at step %lld", j);
        shared += j > first && memcmp(&best[j], &best[first - 1], sizeof best[j]) == 0;
    }
    assert_true(shared > 0);
    free(best);
    sm_solver_free(s);
    sm_topo_free(t);
    sm_grid_free(g);
    sm_history_limit = keep;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_solver),
        cmocka_unit_test(multilevel_tabu),
        cmocka_unit_test(tabu_explains),
        cmocka_unit_test(oldest_dropped),
        cmocka_unit_test(exchange_candidates),
        cmocka_unit_test(moved_between),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
