/* best_of_random_mappings.c - `random` (SPEC 4): the best of -samples random mappings.
 * A sample permutes the blocks over the slots of the sweep curve mapping,
 * so every sample fills the processors exactly as lb sizes them. One step
 * is one sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfc_mapping.h"
#include "core/model/speed_proportional_quota.h"
#include "core/traffic/solver_objectives.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    sm_objective_kind kind;
    unsigned long long rng;
    int *slots, *map;
    double best_score;
    long long samples;
} random_state;

static const sm_opt_spec random_opts[] = {
    {"samples", SM_OPT_INT, "10000", NULL, 1, 1e12, "random mappings tried"},
    {"objective", SM_OPT_ENUM, "hops", SM_OBJ_NAMES, 0, 0,
     "what the best mapping minimises (cardinality: maximises)"},
    {"seed", SM_OPT_INT, "1", NULL, 0, 9.2e18, "random seed"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int random_init(sm_solver *s, sm_err *e)
{
    random_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    int n = s->grid->ntasks;
    sm_objective_parse(sm_opt_str(s, "objective"), &st->kind);
    if (sm_objective_memory_check(s->grid, s->topo, st->kind, 1, "random", e)) return -1;
    st->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 1;
    st->slots = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    if (sm_curve_map(s->grid, s->topo, SM_CURVE_SWEEP, 1, SM_CURVE_SWEEP, SM_SPEEDS_EXACT,
                     st->slots, e))
        return -1;
    if (n == 0) sm_solver_finish_with(s, st->slots);
    return 0;
}

static void random_step(sm_solver *s)
{
    random_state *st = s->priv;
    int n = s->grid->ntasks;
    memcpy(st->map, st->slots, sizeof(int) * (size_t)n);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(sm_rand_next(&st->rng) % (unsigned)(i + 1));
        int t = st->map[i];
        st->map[i] = st->map[j];
        st->map[j] = t;
    }
    sm_objective *o = sm_objective_new(s->grid, s->topo, &s->model, st->kind, st->map);
    double sc = sm_objective_score(o), v = sm_objective_value(o);
    sm_objective_free(o);
    st->samples++;
    if (st->samples == 1 || sc < st->best_score) {
        st->best_score = sc;
        sm_solver_set_best(s, st->map);
        sm_solver_set_stat(s, "best_value", v);
        snprintf(s->last_move, sizeof s->last_move, "sample %lld: new best %g", st->samples, v);
        sm_solver_why(s, "random sample: better than every earlier one, kept as the best");
    } else {
        snprintf(s->last_move, sizeof s->last_move, "sample %lld: %g", st->samples, v);
        sm_solver_why(s, "random sample: not better than the best, dropped");
    }
    sm_solver_set_stat(s, "objective_value", v);
    sm_solver_set_stat(s, "samples", (double)st->samples);
    s->current_map = st->map;
    if (st->samples >= sm_opt_int(s, "samples")) {
        memcpy(st->map, s->best_map, sizeof(int) * (size_t)n);
        sm_solver_finish_with(s, st->map);
    }
}

static void random_release(sm_solver *s)
{
    random_state *st = s->priv;
    if (!st) return;
    free(st->slots);
    free(st->map);
    free(st);
}

const sm_solver_ops sm_solver_random = {
    "random", "the best of -samples random mappings (one step, one sample)",
    random_opts, random_init, random_step, random_release, NULL,
};
