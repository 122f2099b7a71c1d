/* test_tabu_rounds_descent.c - where the rounds set the makespan, tabu's
 * compound step (solvers/tabu/tabu_rounds_descent.c) leaves a mapping no
 * single move, swap or edge move improves: checked by trying every one. */
#include "tests/unit/testutil.h"
#include "core/model/cost_incremental.h"
#include "solvers/stepper/solver_stepper.h"

/* Two nodes of four GPUs; messages slow against compute (the rounds set
 * the makespan), inter-node links slower than intra-node ones. */
static sm_topo *two_nodes(void)
{
    char procs[1024] = "", buf[96];
    for (int p = 0; p < 8; p++) {
        snprintf(buf, sizeof buf, "%s{\"name\":\"n%d.g%d\",\"type\":\"gpu\",\"node\":%d}", p ? "," : "", p / 4,
                 p % 4, p / 4);
        strcat(procs, buf);
    }
    char text[4096];
    snprintf(text, sizeof text,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"gpu\":{\"time_per_cell\":5e-11,\"energy_per_cell\":1e-9,\"p0\":74,\"p_idle\":30}},"
             "\"processors\":[%s],\"network\":{\"kind\":\"tree\",\"group_sizes\":[18]},"
             "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":2.5e-9,\"energy_per_cell\":1e-9}},"
             "\"inter\":[{\"time_per_cell\":5e-9,\"energy_per_cell\":2e-9},"
             "{\"time_per_cell\":5e-9,\"energy_per_cell\":2e-9}]}}",
             procs);
    return tu_topo_text(text);
}

static void eval_on(sm_cost *c, sm_eval *ev) { sm_cost_eval_fast(c, ev); }

/* The best single move, swap or edge move from c's mapping, tried one by
 * one: 1 and into *best when one improves on *now (sm_eval_compare). */
static int best_neighbour(sm_cost *c, const sm_eval *now, int *kind, int *a, int *b, int *q, sm_eval *best)
{
    const sm_grid *g = c->grid;
    int n = g->ntasks, P = c->nprocs, found = 0;
    *best = *now;
    for (int u = 0; u < n; u++)
        for (int p = 0; p < P; p++) {
            int was = c->map[u];
            if (p == was) continue;
            sm_eval ev;
            sm_cost_move(c, u, p);
            eval_on(c, &ev);
            sm_cost_move(c, u, was);
            if (sm_eval_compare(&ev, best) < 0) *best = ev, *kind = 0, *a = u, *q = p, found = 1;
        }
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++) {
            if (c->map[u] == c->map[v]) continue;
            sm_eval ev;
            sm_cost_swap(c, u, v);
            eval_on(c, &ev);
            sm_cost_swap(c, u, v);
            if (sm_eval_compare(&ev, best) < 0) *best = ev, *kind = 1, *a = u, *b = v, found = 1;
        }
    for (int e = 0; e < g->nedges; e++)
        for (int p = 0; p < P; p++) {
            int u = g->edges[e].src, v = g->edges[e].dst, pu = c->map[u], pv = c->map[v];
            if (pu == p && pv == p) continue;
            sm_eval ev;
            sm_cost_move(c, u, p);
            sm_cost_move(c, v, p);
            eval_on(c, &ev);
            sm_cost_move(c, v, pv);
            sm_cost_move(c, u, pu);
            if (sm_eval_compare(&ev, best) < 0) *best = ev, *kind = 2, *a = u, *b = v, *q = p, found = 1;
        }
    return found;
}

/* Steepest descent over moves, swaps and edge moves from map, in place:
 * a mapping none of them improves. */
static void descend(const sm_grid *g, const sm_topo *t, const sm_model *m, int *map)
{
    sm_cost *c = sm_cost_new(g, t, m, map);
    sm_eval now, best;
    eval_on(c, &now);
    int kind = 0, a = 0, b = 0, q = 0;
    while (best_neighbour(c, &now, &kind, &a, &b, &q, &best)) {
        if (kind == 0) sm_cost_move(c, a, q);
        else if (kind == 1) sm_cost_swap(c, a, b);
        else { sm_cost_move(c, a, q); sm_cost_move(c, b, q); }
        eval_on(c, &now);
    }
    memcpy(map, c->map, sizeof(int) * (size_t)g->ntasks);
    sm_cost_free(c);
}

/* A mapping no move, swap or edge move improves (descend: every one
 * tried), where the rounds set the makespan: tabu's first step still
 * lowers the rounds and the energy (evaluated from scratch), by one
 * block off each processor at the busiest degree, the same for 1, 2 and
 * 3 threads. Before the compound step the first step could only be a
 * single move, none of which improves here. */
static void lowers_rounds_where_no_single_move_improves(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = two_nodes();
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 1e-3;
    int n = g->ntasks, map[64], first[64];
    unsigned long long rs = 11;
    for (int u = 0; u < n; u++) map[u] = (int)(sm_rand_next(&rs) % 8);
    descend(g, t, &m, map);
    sm_eval at;
    sm_eval_reference(g, t, &m, map, &at);
    assert_true(at.comm_time > at.comp_time);
    for (int threads = 1; threads <= 3; threads++) {
        char th[8];
        snprintf(th, sizeof th, "%d", threads);
        const char *argv[] = {"-from", "current", "-iters", "1", "-threads", th};
        sm_err e;
        sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, &m, map, 6, argv, &e);
        if (!s) fail_msg("%s", e.msg);
        sm_solver_step(s, 1);
        sm_eval ref;
        sm_eval_reference(g, t, &m, s->current_map, &ref);
        if (!(ref.rounds < at.rounds && ref.energy < at.energy))
            fail_msg("%d threads: %s: %lld rounds, %.9g J from %lld, %.9g J", threads, s->last_move,
                     (long long)ref.rounds, ref.energy, (long long)at.rounds, at.energy);
        tu_assert_close(s->current.energy, ref.energy, 1e-9, "step energy");
        assert_true(strncmp(s->last_move, "rounds:", 7) == 0);
        assert_non_null(strstr(s->explain.why, "busiest degree"));
        /* Every processor that was at the busiest degree is below it. */
        sm_cost *before = sm_cost_new(g, t, &m, map), *after = sm_cost_new(g, t, &m, s->current_map);
        for (int p = 0; p < t->nprocs; p++)
            if (before->deg[p] == at.rounds) assert_true(after->deg[p] < at.rounds);
        sm_cost_free(before);
        sm_cost_free(after);
        if (threads == 1) memcpy(first, s->current_map, sizeof first);
        else assert_memory_equal(first, s->current_map, sizeof first);
        sm_solver_free(s);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lowers_rounds_where_no_single_move_improves),
    };
    return cmocka_run_group_tests_name("tabu_rounds_descent", tests, NULL, NULL);
}
