/* solver_stepper.c - the stepper every solver runs behind: option parsing,
 * stepping, and best-so-far bookkeeping (the solvers by name are
 * solvers/solver_registry.c). */
#include "solver_stepper.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/lib/threads.h"
#include "step_history_record_seek_back.h"
#include "block_counts_partition_per_step.h"

static int opt_index(const sm_solver_ops *ops, const char *name)
{
    for (int i = 0; ops->opts[i].name; i++)
        if (strcmp(ops->opts[i].name, name) == 0) return i;
    return -1;
}

int sm_solver_opt_index(const sm_solver_ops *ops, const char *name) { return opt_index(ops, name); }

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
    s->best_map = sm_xcalloc((size_t)(g->ntasks ? g->ntasks : 1), sizeof(int));
    snprintf(s->status, sizeof s->status, "running");
    s->model0 = *m;
    memcpy(s->opt0, s->opt, sizeof s->opt);
    return s;
}

int sm_solver_set_opt(sm_solver *s, const char *name, const char *value, int *idx, sm_err *e)
{
    int i = opt_index(s->ops, name);
    if (i < 0) {
        sm_err_set(e, "%s: unknown option \"-%s\"", s->ops->name, name);
        return -1;
    }
    sm_opt_value v;
    if (parse_value(s->ops, &s->ops->opts[i], value, &v, e)) return -1;
    s->opt[i] = v;
    *idx = i;
    return 0;
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

/* Stepper-evaluated current mappings stop here: a full evaluation per
 * step would cost more than the step at this size. */
#define AUTO_EVAL_MAX 262144

static int same_model(const sm_model *a, const sm_model *b)
{
    return a->rounds == b->rounds && a->overlap == b->overlap && a->round_time == b->round_time &&
           a->has_deadline == b->has_deadline && a->deadline == b->deadline && a->unused_idle == b->unused_idle;
}

/* The stepper's cost state to the recorded current mapping: the blocks
 * the history found moved since the last record. */
static void auto_cost_follow(sm_solver *s)
{
    int n;
    const sm_hist_move *m = sm_history_pending(s->hist, &n);
    if (!s->auto_cost || !n) return;
    /* A cost state keeps a slot for every processor pair that ever carried
     * a cut edge: a search exchanging blocks all over the machine leaves
     * most of them empty (bokhari at 4096 blocks: 650 k slots for 16 k
     * live edges), and following a move then walks memory far beyond the
     * cache. When the empty ones are most, they are given back (the
     * same figures bit for bit, unlike a new state from the mapping,
     * whose sums round otherwise): at most one compaction per live slot
     * made since the last. */
    sm_cost *c = s->auto_cost;
    if (c->pairs.n > 2 * (c->messages + 1024)) sm_cost_compact_pairs(c);
    if (n > s->auto_blocks_cap) {
        s->auto_blocks_cap = n;
        s->auto_blocks = sm_xrealloc(s->auto_blocks, sizeof(int) * (size_t)n);
    }
    for (int i = 0; i < n; i++) s->auto_blocks[i] = m[i].block;
    sm_cost_move_set(s->auto_cost, s->auto_blocks, n, s->current_map);
}

static void figures(sm_solver *s, sm_hist_figures *fig_out, double *v);

/* The step just taken (or the start), into the history. */
static void record(sm_solver *s)
{
    sm_history *h = s->hist;
    int known = s->moves_known && s->current_map == s->own_map;
    int changed = sm_history_diff_current(h, s->current_map, known, s->moved, s->nmoved);
    if (s->current_map) auto_cost_follow(s);
    /* A current the solver evaluated itself this step (it differs from
     * what the stepper left) is the solver's, exactly as it made it. */
    int solver_wrote = s->has_current && memcmp(&s->current, &s->auto_last, sizeof s->current) != 0;
    /* A solver that shows a mapping without evaluating it: the stepper
     * does, so every solver's state has a current. */
    if (s->current_map && (!s->has_current || (s->current_auto && !solver_wrote)) &&
        s->grid->ntasks <= AUTO_EVAL_MAX && (changed || !s->has_current)) {
        if (!s->auto_cost) s->auto_cost = sm_cost_new(s->grid, s->topo, &s->model, s->current_map);
        else if (!same_model(&s->auto_cost->model, &s->model))
            sm_cost_set_model(s->auto_cost, &s->model);
        /* Only figures are read from it: no per-pair counts where the
         * rounds model reads none (maxdeg; a no-op otherwise). */
        sm_cost_pairs_off(s->auto_cost);
        sm_cost_follow_only(s->auto_cost);
        sm_cost_eval(s->auto_cost, &s->current);
        s->has_current = 1;
        s->current_auto = 1;
    }
    s->auto_last = s->current;
    s->own_map = s->current_map;
    s->own_partition = s->partition;
    s->own_states = s->current_states;
    sm_history_note_states(h, s->current_states, s->best_states);
    sm_hist_figures fig;
    double v[sizeof s->stats / sizeof s->stats[0]];
    figures(s, &fig, v);
    /* One best write since the last record, and a patch: its blocks. */
    int patched = s->best_version == s->hist_best_version + 1 && s->best_patch_version == s->best_version;
    sm_history_add(h, &fig, s->best_map, s->best_version != s->hist_best_version, patched ? s->best_patched : NULL,
                   patched ? s->nbest_patched : 0, s->last_move, s->status, v, s->nstats, &s->explain);
    s->hist_best_version = s->best_version;
}

/* The step's figures as the history keeps them, and the statistics'
 * values into v. */
static void figures(sm_solver *s, sm_hist_figures *fig_out, double *v)
{
    sm_hist_figures fig;
    memset(&fig, 0, sizeof fig);
    fig.part = -1;
    if (s->partition) {
        if (!s->part_hist) s->part_hist = sm_part_history_new(s->partition->nprocs);
        fig.part = sm_part_history_note(s->part_hist, s->partition);
    }
    fig.iteration = s->iteration;
    fig.has_current = s->has_current;
    fig.has_best = s->has_best;
    fig.current = s->current;
    fig.best = s->best;
    fig.done = s->done;
    fig.objective = sm_solver_objective_now(s);
    fig.best_objective = sm_solver_objective_best(s);
    for (int i = 0; i < s->nstats; i++) v[i] = s->stats[i].value;
    *fig_out = fig;
}

void sm_solver_amend_head(sm_solver *s)
{
    if (!s->hist) return;
    sm_hist_figures fig;
    double v[sizeof s->stats / sizeof s->stats[0]];
    figures(s, &fig, v);
    sm_history_amend_head(s->hist, &fig, s->status, v, s->nstats);
}

void sm_solver_seek(sm_solver *s, long long k)
{
    sm_history *h = s->hist;
    if (!h) return;
    const sm_hist_step *st = sm_history_seek_states(h, k, s->best_map, s->best_states);
    s->iteration = st->iteration;
    s->has_current = st->has_current;
    s->current = st->current;
    s->has_best = st->has_best;
    s->best = *sm_history_best(h, st);
    s->done = st->done || s->stopped;
    snprintf(s->last_move, sizeof s->last_move, "%s", sm_history_move(h, st));
    snprintf(s->status, sizeof s->status, "%s", s->stopped ? "stopped" : sm_history_status(h, st));
    s->nstats = st->nstats;
    const double *v = sm_history_stats(h, st);
    for (int i = 0; i < st->nstats; i++) s->stats[i].value = v[i];
    s->stats_version++;
    if (st->iteration == sm_history_head(h)) {
        s->current_map = s->own_map;
        s->partition = s->own_partition;
        s->current_states = s->own_states;
    } else {
        s->current_map = st->current_shown ? sm_history_current(h) : NULL;
        s->current_states = s->own_states ? sm_history_current_states(h) : NULL;
        s->partition = st->part >= 0 ? sm_part_history_get(s->part_hist, st->part) : NULL;
    }
}

long long sm_solver_step(sm_solver *s, long long n)
{
    long long k = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    s->step_began = (double)a.tv_sec + 1e-9 * (double)a.tv_nsec;
    sm_history *h = s->hist;
    while (k < n && !s->done) {
        /* Behind the head: the next step is the recorded one (step_history_record_seek_back.h). */
        if (h && sm_history_cursor(h) < sm_history_head(h)) {
            long long to = sm_history_cursor(h) + (n - k);
            if (to > sm_history_head(h)) to = sm_history_head(h);
            k += to - sm_history_cursor(h);
            sm_solver_seek(s, to);
            continue;
        }
        s->explain.why[0] = 0;
        s->explain.ncand = 0;
        s->explain.ntabu = 0;
        s->explain.ntrace = 0;
        s->nmoved = 0;
        s->explain_skip = s->explain_last_only && k + 1 < n;
        if (h) {
            s->current_map = s->own_map;
            s->partition = s->own_partition;
            s->current_states = s->own_states;
        }
        s->ops->step(s);
        s->iteration++;
        k++;
        if (h) {
            if (s->sync) s->sync(s);
            if (s->done && strcmp(s->status, "running") == 0) snprintf(s->status, sizeof s->status, "done");
            record(s);
        }
    }
    if (s->settle) s->settle(s);
    if (s->sync && !h) s->sync(s);
    clock_gettime(CLOCK_MONOTONIC, &b);
    s->seconds += (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    s->step_began = 0;
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
    sm_history_free(s->hist);
    s->hist = NULL;
    sm_cost_free(s->auto_cost);
    s->auto_cost = NULL;
    sm_part_history_free(s->part_hist);
    s->part_hist = NULL;
    s->partition = s->own_partition = NULL;
    s->current_states = s->own_states = NULL;
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
    sm_history_free(s->hist);
    sm_cost_free(s->auto_cost);
    free(s->auto_blocks);
    sm_part_history_free(s->part_hist);
    free(s->explain.tabu);
    free(s->explain.trace);
    free(s->moved);
    free(s->best_patched);
    free(s->best_map);
    free(s->best_states);
    free(s->start_copy);
    free(s->branch);
    if (s->export_to) {
        sm_save_close(s->export_to);
        free(s->export_to);
    }
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

int sm_solver_threads(const sm_solver *s)
{
    return sm_threads_resolve(sm_opt_int(s, "threads"));
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
    s->best_version++;
    memcpy(s->best_map, map, sizeof(int) * (size_t)s->grid->ntasks);
    return 1;
}

int sm_solver_offer_patch(sm_solver *s, const int *map, const sm_eval *ev, const int *blocks, int n)
{
    if (!s->has_best) return sm_solver_offer(s, map, ev);
    if (sm_eval_compare(ev, &s->best) >= 0) return 0;
    s->best = *ev;
    s->best_version++;
    if (n > s->best_patched_cap) {
        s->best_patched_cap = n;
        s->best_patched = sm_xrealloc(s->best_patched, sizeof(int) * (size_t)n);
    }
    for (int i = 0; i < n; i++) {
        s->best_map[blocks[i]] = map[blocks[i]];
        s->best_patched[i] = blocks[i];
    }
    s->nbest_patched = n;
    s->best_patch_version = s->best_version;
    return 1;
}

void sm_solver_set_best(sm_solver *s, const int *map)
{
    sm_solver_evaluate(s, map, &s->best);
    s->has_best = 1;
    s->best_version++;
    memcpy(s->best_map, map, sizeof(int) * (size_t)s->grid->ntasks);
}

void sm_solver_current_ready(sm_solver *s, long long k, const sm_eval *ev)
{
    int stat = -1;
    double objective;
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "current_energy") == 0) stat = i;
    if (s->hist && sm_history_step(s->hist, k)) {
        /* As record() would have had it: sm_solver_objective_now. */
        const sm_hist_step *st = sm_history_step(s->hist, k);
        const double *v = sm_history_stats(s->hist, st);
        objective = ev->energy;
        for (int i = 0; i < st->nstats && i < s->nstats; i++)
            if (strcmp(s->stats[i].key, "objective_value") == 0) objective = v[i];
        sm_history_set_current(s->hist, k, ev, objective, stat < st->nstats ? stat : -1, ev->energy);
    }
    if (k != s->iteration) return;
    s->current = *ev;
    s->has_current = 1;
    if (stat >= 0) sm_solver_set_stat(s, "current_energy", ev->energy);
}

void sm_solver_set_stat(sm_solver *s, const char *key, double v)
{
    /* First letters first: a solver sets a few statistics every step. */
    for (int i = 0; i < s->nstats; i++)
        if (s->stats[i].key[0] == key[0] && strcmp(s->stats[i].key, key) == 0) {
            /* NaN to NaN is no change. */
            if (s->stats[i].value != v && (v == v || s->stats[i].value == s->stats[i].value)) s->stats_version++;
            s->stats[i].value = v;
            return;
        }
    if (s->nstats < (int)(sizeof s->stats / sizeof s->stats[0])) {
        snprintf(s->stats[s->nstats].key, sizeof s->stats[0].key, "%s", key);
        s->stats[s->nstats++].value = v;
        s->stats_version++;
    }
}

double sm_solver_seconds_now(const sm_solver *s)
{
    if (s->step_began <= 0) return s->seconds;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double now = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    return s->seconds + (now > s->step_began ? now - s->step_began : 0);
}

void sm_solver_evaluate(const sm_solver *s, const int *map, sm_eval *ev)
{
    sm_cost *c = sm_cost_new_figures(s->grid, s->topo, &s->model, map);
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

void sm_solver_history_on(sm_solver *s)
{
    if (s->hist || s->detached || !s->grid) return;
    s->hist = sm_history_new(s->grid->ntasks, s->start_map);
    sm_history_set_topo(s->hist, s->topo);
    if (s->best_states) sm_history_states_on(s->hist, s->topo->nprocs, s->best_states);
    record(s);
}

static int stat_of(const sm_solver *s, const char *key, double *v)
{
    for (int i = 0; i < s->nstats; i++)
        if (s->stats[i].key[0] == key[0] && strcmp(s->stats[i].key, key) == 0) {
            *v = s->stats[i].value;
            return 1;
        }
    return 0;
}

double sm_solver_objective_now(const sm_solver *s)
{
    double v;
    if (stat_of(s, "objective_value", &v)) return v;
    if (s->has_current) return s->current.energy;
    return sm_solver_objective_best(s);
}

double sm_solver_objective_best(const sm_solver *s)
{
    double v;
    if (stat_of(s, "best_value", &v)) return v;
    return s->has_best ? s->best.energy : NAN;
}

void sm_solver_why(sm_solver *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->explain.why, sizeof s->explain.why, fmt, ap);
    va_end(ap);
}

void sm_solver_candidate(sm_solver *s, const char *move, double objective, double delta, int tabu)
{
    sm_explain *x = &s->explain;
    if (x->ncand >= SM_EXPLAIN_CANDS) return;
    sm_explain_cand *c = &x->cand[x->ncand++];
    /* Cut to the field, as snprintf would, without its cost per step. */
    size_t n = strnlen(move, sizeof c->move - 1);
    memcpy(c->move, move, n);
    c->move[n] = 0;
    c->objective = objective;
    c->delta = delta;
    c->tabu = tabu;
    c->pa = -1;
}

void sm_solver_candidate_exchange(sm_solver *s, int a, int pa, int b, int pb, double objective, double delta,
                                  int tabu)
{
    sm_explain *x = &s->explain;
    if (x->ncand >= SM_EXPLAIN_CANDS) return;
    sm_explain_cand *c = &x->cand[x->ncand++];
    c->move[0] = 0;
    c->objective = objective;
    c->delta = delta;
    c->tabu = tabu;
    c->a = a;
    c->pa = pa;
    c->b = b;
    c->pb = pb;
}

void sm_solver_moved(sm_solver *s, int block)
{
    if (s->nmoved == s->moved_cap) {
        s->moved_cap = s->moved_cap ? 2 * s->moved_cap : 16;
        s->moved = sm_xrealloc(s->moved, sizeof *s->moved * (size_t)s->moved_cap);
    }
    s->moved[s->nmoved++] = block;
}

void sm_solver_trace(sm_solver *s, const char *a_name, const char *b_name, double seconds, double a, double b)
{
    sm_explain *x = &s->explain;
    if (x->ntrace == x->trace_cap) {
        x->trace_cap = x->trace_cap ? 2 * x->trace_cap : 32;
        x->trace = sm_xrealloc(x->trace, sizeof *x->trace * (size_t)x->trace_cap);
    }
    x->trace_a = a_name;
    x->trace_b = b_name;
    x->trace[x->ntrace++] = (sm_explain_point){seconds, a, b};
}

void sm_solver_tabu_attr(sm_solver *s, int block, int proc, int join, long long remaining)
{
    sm_explain *x = &s->explain;
    if (x->ntabu == x->tabu_cap) {
        x->tabu_cap = x->tabu_cap ? 2 * x->tabu_cap : 32;
        x->tabu = sm_xrealloc(x->tabu, sizeof *x->tabu * (size_t)x->tabu_cap);
    }
    x->tabu[x->ntabu++] = (sm_explain_tabu){block, proc, join, remaining};
}

const char *sm_solver_objective(const sm_solver *s, double *cur, double *best)
{
    static const char *const metrics[] = {"hops", "hop_cells", "congestion", "cardinality", NULL};
    const char *name = sm_opt_str(s, "objective");
    for (int i = 0; name && metrics[i]; i++)
        if (strcmp(name, metrics[i]) == 0) {
            if (!stat_of(s, "best_value", best)) *best = NAN;
            if (!stat_of(s, "objective_value", cur)) *cur = *best;
            return metrics[i];
        }
    int time = name && strcmp(name, "time") == 0;
    *cur = s->has_current ? (time ? s->current.time : s->current.energy) : NAN;
    *best = s->has_best ? (time ? s->best.time : s->best.energy) : NAN;
    if (isnan(*cur)) *cur = *best;
    return time ? "time" : "energy";
}
