/* solver.c - the stepper every solver runs behind: option parsing,
 * stepping, and best-so-far bookkeeping (the solvers by name are
 * solvers/registry.c). */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int opt_index(const sm_solver_ops *ops, const char *name)
{
    for (int i = 0; ops->opts[i].name; i++)
        if (strcmp(ops->opts[i].name, name) == 0) return i;
    return -1;
}

static int enum_has(const char *choices, const char *v)
{
    size_t n = strlen(v);
    const char *p = choices;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, v, n) == 0) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

static int parse_value(const sm_solver_ops *ops, const sm_opt_spec *sp,
                       const char *v, sm_opt_value *out, sm_err *e)
{
    char *end;
    memset(out, 0, sizeof *out);
    switch (sp->kind) {
    case SM_OPT_INT: {
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || x < sp->lo || x > sp->hi) {
            sm_err_set(e, "%s: -%s expects a whole number in [%.0f, %.0f], got \"%s\"",
                       ops->name, sp->name, sp->lo, sp->hi, v);
            return -1;
        }
        out->i = x;
        out->d = (double)x;
        break;
    }
    case SM_OPT_DOUBLE: {
        double x = strtod(v, &end);
        if (!*v || *end || !isfinite(x) || x < sp->lo || x > sp->hi) {
            sm_err_set(e, "%s: -%s expects a number in [%g, %g], got \"%s\"",
                       ops->name, sp->name, sp->lo, sp->hi, v);
            return -1;
        }
        out->d = x;
        break;
    }
    case SM_OPT_ENUM:
        if (!enum_has(sp->choices, v)) {
            sm_err_set(e, "%s: -%s expects one of %s, got \"%s\"", ops->name,
                       sp->name, sp->choices, v);
            return -1;
        }
        break;
    case SM_OPT_STRING:
        break;
    }
    if (strlen(v) >= sizeof out->s) {
        sm_err_set(e, "%s: -%s: value too long", ops->name, sp->name);
        return -1;
    }
    snprintf(out->s, sizeof out->s, "%s", v);
    out->set = 1;
    return 0;
}

sm_solver *sm_solver_prepare(const sm_solver_ops *ops, const sm_grid *g,
                             const sm_topo *t, const sm_model *m,
                             const int *start_map, int argc, const char *const *argv,
                             sm_err *e)
{
    sm_solver *s = sm_xcalloc(1, sizeof *s);
    s->ops = ops;
    s->grid = g;
    s->topo = t;
    s->model = *m;
    /* A copy: the session's array may move or be freed while we run. */
    s->start_copy = sm_xmalloc(sizeof(int) * (size_t)(g->ntasks ? g->ntasks : 1));
    if (start_map) memcpy(s->start_copy, start_map, sizeof(int) * (size_t)g->ntasks);
    else memset(s->start_copy, 0, sizeof(int) * (size_t)(g->ntasks ? g->ntasks : 1));
    s->start_map = s->start_copy;
    for (int i = 0; ops->opts[i].name; i++)
        if (ops->opts[i].def &&
            parse_value(ops, &ops->opts[i], ops->opts[i].def, &s->opt[i], e)) {
            free(s->start_copy);
            free(s);
            return NULL;
        }
    for (int i = 0; i < argc; i += 2) {
        const char *k = argv[i];
        int idx = k[0] == '-' ? opt_index(ops, k + 1) : -1;
        if (idx < 0) {
            char list[512] = "";
            for (int j = 0; ops->opts[j].name; j++) {
                strncat(list, j ? ", -" : "-", sizeof list - strlen(list) - 1);
                strncat(list, ops->opts[j].name, sizeof list - strlen(list) - 1);
            }
            sm_err_set(e, "%s: unknown option \"%s\" (expected %s)", ops->name, k,
                       list[0] ? list : "no options");
            free(s->start_copy);
            free(s);
            return NULL;
        }
        if (i + 1 >= argc) {
            sm_err_set(e, "%s: option %s needs a value", ops->name, k);
            free(s->start_copy);
            free(s);
            return NULL;
        }
        if (parse_value(ops, &ops->opts[idx], argv[i + 1], &s->opt[idx], e)) {
            free(s->start_copy);
            free(s);
            return NULL;
        }
    }
    s->best_map = sm_xmalloc(sizeof(int) * (size_t)(g->ntasks ? g->ntasks : 1));
    snprintf(s->status, sizeof s->status, "running");
    return s;
}

int sm_solver_init(sm_solver *s, sm_err *e)
{
    if (s->ops->init(s, e) == 0) return 0;
    if (s->ops->release) s->ops->release(s);
    s->priv = NULL;
    s->detached = 1;   /* released: sm_solver_free only frees */
    return -1;
}

sm_solver *sm_solver_new(const sm_solver_ops *ops, const sm_grid *g,
                         const sm_topo *t, const sm_model *m,
                         const int *start_map, int argc, const char *const *argv,
                         sm_err *e)
{
    sm_solver *s = sm_solver_prepare(ops, g, t, m, start_map, argc, argv, e);
    if (s && sm_solver_init(s, e)) {
        sm_solver_free(s);
        return NULL;
    }
    return s;
}

long long sm_solver_step(sm_solver *s, long long n)
{
    long long k = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    while (k < n && !s->done) {
        s->ops->step(s);
        s->iteration++;
        k++;
    }
    if (s->sync) s->sync(s);
    clock_gettime(CLOCK_MONOTONIC, &b);
    s->seconds += (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    if (s->done && strcmp(s->status, "running") == 0)
        snprintf(s->status, sizeof s->status, "done");
    return k;
}

void sm_solver_stop(sm_solver *s)
{
    if (s->done) return;
    s->done = 1;
    s->stopped = 1;
    snprintf(s->status, sizeof s->status, "stopped");
}

void sm_solver_detach(sm_solver *s, const char *reason)
{
    if (s->detached) return;
    if (s->ops->release) s->ops->release(s);
    s->priv = NULL;
    s->detached = 1;
    s->grid = NULL;
    s->topo = NULL;
    s->current_map = NULL;
    s->has_current = 0;
    s->done = 1;
    s->stopped = 1;
    snprintf(s->status, sizeof s->status, "stopped");
    snprintf(s->reason, sizeof s->reason, "%s", reason);
}

void sm_solver_free(sm_solver *s)
{
    if (!s) return;
    if (s->ops->release && !s->detached) s->ops->release(s);
    free(s->best_map);
    free(s->start_copy);
    free(s);
}

const sm_opt_value *sm_solver_opt(const sm_solver *s, const char *name)
{
    int i = opt_index(s->ops, name);
    return i >= 0 ? &s->opt[i] : NULL;
}

long long sm_opt_int(const sm_solver *s, const char *name)
{
    const sm_opt_value *v = sm_solver_opt(s, name);
    return v && v->set ? v->i : 0;
}

double sm_opt_double(const sm_solver *s, const char *name)
{
    const sm_opt_value *v = sm_solver_opt(s, name);
    return v && v->set ? v->d : 0;
}

const char *sm_opt_str(const sm_solver *s, const char *name)
{
    const sm_opt_value *v = sm_solver_opt(s, name);
    return v && v->set ? v->s : NULL;
}

int sm_solver_offer(sm_solver *s, const int *map, const sm_eval *ev)
{
    if (s->has_best && sm_eval_compare(ev, &s->best) >= 0) return 0;
    s->best = *ev;
    s->has_best = 1;
    memcpy(s->best_map, map, sizeof(int) * (size_t)s->grid->ntasks);
    return 1;
}

void sm_solver_set_best(sm_solver *s, const int *map)
{
    sm_solver_evaluate(s, map, &s->best);
    s->has_best = 1;
    memcpy(s->best_map, map, sizeof(int) * (size_t)s->grid->ntasks);
}

void sm_solver_set_stat(sm_solver *s, const char *key, double v)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) {
            s->stats[i].value = v;
            return;
        }
    if (s->nstats < (int)(sizeof s->stats / sizeof s->stats[0])) {
        snprintf(s->stats[s->nstats].key, sizeof s->stats[0].key, "%s", key);
        s->stats[s->nstats++].value = v;
    }
}

void sm_solver_evaluate(const sm_solver *s, const int *map, sm_eval *ev)
{
    sm_cost *c = sm_cost_new(s->grid, s->topo, &s->model, map);
    sm_cost_eval(c, ev);
    sm_cost_free(c);
}

void sm_solver_finish_with(sm_solver *s, const int *map)
{
    sm_solver_evaluate(s, map, &s->current);
    s->has_current = 1;
    sm_solver_offer(s, map, &s->current);
    s->done = 1;
}

sm_solver *sm_solver_run_sub(const sm_solver *s, const sm_solver_ops *ops, const sm_model *m,
                             int argc, const char *const *argv)
{
    sm_err e;
    sm_solver *h = sm_solver_new(ops, s->grid, s->topo, m ? m : &s->model, s->start_map, argc, argv, &e);
    if (h) sm_solver_step(h, (long long)s->grid->ntasks + 1);
    return h;
}

static double stat_value(const sm_solver *s, const char *key)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) return s->stats[i].value;
    return NAN;
}

const char *sm_solver_objective(const sm_solver *s, double *cur, double *best)
{
    static const char *const metrics[] = {"hops", "hop_cells", "congestion", "cardinality", NULL};
    const char *name = sm_opt_str(s, "objective");
    for (int i = 0; name && metrics[i]; i++)
        if (strcmp(name, metrics[i]) == 0) {
            *best = stat_value(s, "best_value");
            *cur = stat_value(s, "objective_value");
            if (isnan(*cur)) *cur = *best;
            return metrics[i];
        }
    int time = name && strcmp(name, "time") == 0;
    *cur = s->has_current ? (time ? s->current.time : s->current.energy) : NAN;
    *best = s->has_best ? (time ? s->best.time : s->best.energy) : NAN;
    if (isnan(*cur)) *cur = *best;
    return time ? "time" : "energy";
}
