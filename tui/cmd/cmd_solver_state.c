/* cmd_solver_state.c - a solver's state as Tcl dicts: figures of its
 * current and best mappings, the partition by counts or Pareto front, DVFS
 * states, statistics and the energy bound beside them. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "solvers/solver_registry.h"
#include "cmd_common.h"
#include "core/lib/units.h"
#include "core/model/result_keys.h"
#include "solvers/stepper/step_history_record_seek_back.h"
#include "tui/app/solver_start_on_worker_thread.h"
#include "cmd_solve.h"

double sm_solve_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A number, or {} when unknown (NaN has no Tcl form). */
Tcl_Obj *sm_solve_num(double v) { return v == v ? Tcl_NewDoubleObj(v) : Tcl_NewObj(); }

/* A solver statistic: a count as a Tcl integer (examined 144, not 144.0),
 * any other figure as a double. */
Tcl_Obj *sm_solve_stat_obj(const char *key, double v)
{
    if (sm_is_count(key) && isfinite(v) && v == floor(v) && fabs(v) < 9e15) return Tcl_NewWideIntObj((Tcl_WideInt)v);
    return sm_solve_num(v);
}

/* `current` and `best` of solver state: the same keys for every solver,
 * empty values while there is no such mapping yet. */
static Tcl_Obj *objective_dict(const sm_eval *ev, double objective)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("energy", -1), ev ? Tcl_NewDoubleObj(ev->energy) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("time", -1), ev ? Tcl_NewDoubleObj(ev->time) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("feasible", -1), ev ? Tcl_NewIntObj(ev->feasible) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("objective", -1), sm_solve_num(objective));
    return d;
}

/* counts, profile_time, profile_energy (and for total profile_total) of
 * a partition by counts. */
static Tcl_Obj *partition_point(int P, const int *counts, double time, double energy, const double *total,
                                Tcl_Obj *d)
{
    Tcl_Obj *c = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < P; p++) Tcl_ListObjAppendElement(NULL, c, Tcl_NewIntObj(counts[p]));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("counts", -1), c);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_time", -1), Tcl_NewDoubleObj(time));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_energy", -1), Tcl_NewDoubleObj(energy));
    if (total) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_total", -1), Tcl_NewDoubleObj(*total));
    return d;
}

static void put_partition(Tcl_Obj *d, const sm_partition *pt)
{
    if (!pt || pt->time < 0) return;
    partition_point(pt->nprocs, pt->counts, pt->time, pt->energy, pt->has_total ? &pt->total : NULL, d);
    if (!pt->has_front) return;
    Tcl_Obj *f = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < pt->nfront; i++)
        Tcl_ListObjAppendElement(NULL, f, partition_point(pt->nprocs, pt->front[i].counts, pt->front[i].time,
                                                          pt->front[i].energy,
                                                          pt->has_total ? &pt->front[i].total : NULL,
                                                          Tcl_NewDictObj()));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("front", -1), f);
}

/* The DVFS states of a solver that chooses them, a state name per
 * processor ("base": its type's own parameters). */
static Tcl_Obj *state_names(const sm_topo *t, const int *states)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < t->nprocs; p++) {
        const sm_type *T = &t->types[t->procs[p].type];
        int k = states[p];
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(k >= 0 && k < T->nstates ? T->state_names[k] : "base", -1));
    }
    return l;
}

static void put_states(Tcl_Obj *d, const sm_solver *s)
{
    if (!s->topo || !s->best_states) return;
    if (s->current_states)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("states", -1), state_names(s->topo, s->current_states));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("best_states", -1), state_names(s->topo, s->best_states));
}

void sm_solve_put_stats(Tcl_Obj *d, const sm_solver *s)
{
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("solver", -1), Tcl_NewStringObj(s->ops->name, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("status", -1), Tcl_NewStringObj(s->status, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("iterations", -1), Tcl_NewWideIntObj(s->iteration));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("seconds", -1), Tcl_NewDoubleObj(s->seconds));
    /* Unknown (NaN: the ILP's incumbent before any) is {}, as in history
     * and in current/best: state said NaN where history said {}. */
    for (int i = 0; i < s->nstats; i++)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(s->stats[i].key, -1),
                       sm_solve_stat_obj(s->stats[i].key, s->stats[i].value));
    put_partition(d, s->partition);
    put_states(d, s);
}

/* bound and gap: the model's lower bound (the larger of it and a bound
 * the solver proved itself, the ILP's) and how far the energy e of a
 * feasible mapping is above it, (e - bound) / e; no gap without a
 * feasible mapping. */
void sm_solve_put_bound(sm_app *app, Tcl_Obj *d, const sm_solver *s, const sm_eval *ev)
{
    /* The same figures the Solver and Energy panes show (one truth). */
    double g;
    int own;
    double b = sm_app_solver_bound(app, s, ev, &g, &own);
    if (own) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("deadline_from", -1), Tcl_NewStringObj(s->deadline_from, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("bound", -1), Tcl_NewDoubleObj(b));
    Tcl_Obj *gap = Tcl_NewStringObj("gap", -1);
    Tcl_IncrRefCount(gap);
    if (isfinite(g)) Tcl_DictObjPut(NULL, d, gap, Tcl_NewDoubleObj(g));
    else Tcl_DictObjRemove(NULL, d, gap);
    Tcl_DecrRefCount(gap);
}

Tcl_Obj *sm_solve_state_dict(sm_app *app, const sm_solver *s)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    sm_solve_put_stats(d, s);
    sm_solve_put_bound(app, d, s, s->has_best ? &s->best : NULL);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("done", -1), Tcl_NewIntObj(s->done));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("last_move", -1), Tcl_NewStringObj(s->last_move, -1));
    /* A solver with no current mapping of its own (the constructive
     * ones) is at its best. */
    int cur = s->has_current || s->has_best;
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("current", -1),
                   objective_dict(cur ? (s->has_current ? &s->current : &s->best) : NULL,
                                  cur ? sm_solver_objective_now(s) : NAN));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("best", -1),
                   objective_dict(s->has_best ? &s->best : NULL, sm_solver_objective_best(s)));
    if (s->hist) {
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("steps", -1), Tcl_NewWideIntObj(sm_history_head(s->hist)));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("first_step", -1), Tcl_NewWideIntObj(sm_history_first(s->hist)));
    }
    if (s->reason[0])
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("reason", -1), Tcl_NewStringObj(s->reason, -1));
    /* Once there are branches: which run this is (solver runs). */
    for (int i = 0; app->nruns > 1 && i < app->nruns; i++)
        if (app->runs[i].s == s) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("run", -1), Tcl_NewStringObj(app->runs[i].name, -1));
    /* Where a running solver is (ready, stepping, paused; ended once its
     * status says how): the Solver pane's words. Last, so that no key
     * before it moves. */
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("phase", -1), Tcl_NewStringObj(sm_app_solver_phase(app, s), -1));
    return d;
}
