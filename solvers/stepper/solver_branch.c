/* solver_branch.c - a branch of a solver's run: replayed to its step K,
 * checked against the run it branches from, options changed (see
 * solver_branch.h). */
#include "solver_branch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "step_history_record_seek_back.h"

/* A branch never writes the files its options name (ilp -export): the
 * run it branches from was the one allowed to. */
static void drop_files(sm_solver *b)
{
    int i = sm_solver_opt_index(b->ops, "export");
    if (i >= 0) b->opt[i].set = 0;
}

static int apply_point(sm_solver *b, const sm_branch_point *bp, sm_err *e)
{
    memcpy(b->opt, bp->opt, sizeof b->opt);
    drop_files(b);
    if (bp->changed & SM_BRANCH_DEADLINE) {
        b->model.has_deadline = bp->has_deadline;
        b->model.deadline = bp->deadline;
        b->deadline_from = NULL;
    }
    if (!bp->changed) return 0;
    if (!b->ops->rebranch) {
        sm_err_set(e, "%s: a branch cannot change its options", b->ops->name);
        return -1;
    }
    if (b->ops->rebranch(b, bp->changed, e)) return -1;
    if (!b->done && strcmp(b->status, "done") == 0) snprintf(b->status, sizeof b->status, "running");
    sm_solver_amend_head(b);
    return 0;
}

sm_solver *sm_branch_new(const sm_solver *from, long long k, volatile int *interrupt, sm_err *e)
{
    if (from->detached || !from->grid) {
        sm_err_set(e, "%s was stopped: %s", from->ops->name, from->reason);
        return NULL;
    }
    sm_solver *b = sm_solver_prepare(from->ops, from->grid, from->topo, &from->model0, from->start_map, 0, NULL, e);
    if (!b) return NULL;
    memcpy(b->opt, from->opt0, sizeof b->opt);
    memcpy(b->opt0, from->opt0, sizeof b->opt0);
    drop_files(b);
    for (int i = 0; i < from->nbranch; i++)
        if (from->branch[i].at <= k) b->nbranch = i + 1;
    if (b->nbranch) {
        b->branch = sm_xmalloc(sizeof *b->branch * (size_t)b->nbranch);
        memcpy(b->branch, from->branch, sizeof *b->branch * (size_t)b->nbranch);
    }
    b->interrupt = interrupt;
    if (sm_solver_init(b, e)) {
        sm_solver_free(b);
        return NULL;
    }
    sm_solver_history_on(b);
    return b;
}

int sm_branch_replay(sm_solver *b, long long k, sm_err *e)
{
    while (b->nbranch_done < b->nbranch && b->branch[b->nbranch_done].at == b->iteration) {
        if (apply_point(b, &b->branch[b->nbranch_done], e)) return -1;
        b->nbranch_done++;
    }
    if (b->iteration >= k) return 0;
    if (b->done) {
        sm_err_set(e, "%s ended at step %lld, before step %lld (%s)", b->ops->name, b->iteration, k, b->status);
        return -1;
    }
    sm_solver_step(b, 1);
    return 1;
}

static int same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* b's step k against from's record of it: the same figures, or why not. */
static int check_replay(const sm_solver *b, const sm_solver *from, long long k, sm_err *e)
{
    const sm_hist_step *r = from->hist ? sm_history_step(from->hist, k) : NULL;
    const sm_hist_step *m = sm_history_step(b->hist, k);
    if (!r || !m) return 0;   /* no longer kept there: nothing to check against */
    const char *what = NULL;
    sm_eval rb = *sm_history_best(from->hist, r), mb = *sm_history_best(b->hist, m);
    if (r->has_current != m->has_current ||
        (r->has_current && (!same(r->current.energy, m->current.energy) || !same(r->current.time, m->current.time))))
        what = "current";
    else if (r->has_best != m->has_best ||
             (r->has_best && (!same(rb.energy, mb.energy) || !same(rb.time, mb.time))))
        what = "best";
    else if (!same(r->objective, m->objective) || !same(r->best_objective, m->best_objective))
        what = "objective";
    if (!what) return 0;
    sm_err_set(e, "%s: replayed to step %lld, its %s mapping differs from the one recorded (energy %.9g J, "
               "recorded %.9g J): the solver did not repeat its steps", b->ops->name, k, what,
               strcmp(what, "best") == 0 ? mb.energy : m->current.energy,
               strcmp(what, "best") == 0 ? rb.energy : r->current.energy);
    return -1;
}

/* argv (alternating -name value) read into bp for solver b: b->opt set
 * as they say, bp->changed which; *what the change as text. */
static int parse_change(sm_solver *b, long long k, int argc, const char *const *argv, sm_branch_point *bp,
                        char *what, size_t what_len, sm_err *e)
{
    if (argc % 2) {
        sm_err_set(e, "%s: options come in pairs: -option value", b->ops->name);
        return -1;
    }
    memset(bp, 0, sizeof *bp);
    bp->at = k;
    size_t len = 0;
    if (what_len) what[0] = 0;
    for (int i = 0; i < argc; i += 2) {
        const char *name = argv[i], *value = argv[i + 1];
        if (name[0] != '-') {
            sm_err_set(e, "%s: expected an option (-name value), got \"%s\"", b->ops->name, name);
            return -1;
        }
        if (strcmp(name, "-deadline") == 0) {
            char *end;
            double d = strtod(value, &end);
            if (!*value || *end || !isfinite(d) || d <= 0) {
                sm_err_set(e, "%s: -deadline expects seconds above 0, got \"%s\"", b->ops->name, value);
                return -1;
            }
            bp->changed |= SM_BRANCH_DEADLINE;
            bp->has_deadline = 1;
            bp->deadline = d;
        } else if (strcmp(name, "-export") == 0) {
            sm_err_set(e, "%s: a branch writes no files (-export)", b->ops->name);
            return -1;
        } else {
            int idx;
            if (sm_solver_set_opt(b, name + 1, value, &idx, e)) return -1;
            bp->changed |= SM_OPT_BIT(idx);
        }
        if (what_len > len)
            len += (size_t)snprintf(what + len, what_len - len, "%s%s %s", i ? " " : "", name, value);
        if (len >= what_len) len = what_len;
    }
    memcpy(bp->opt, b->opt, sizeof bp->opt);
    return 0;
}

int sm_branch_check(const sm_solver *from, int argc, const char *const *argv, sm_err *e)
{
    sm_solver *t = sm_xcalloc(1, sizeof *t);
    t->ops = from->ops;
    memcpy(t->opt, from->opt0, sizeof t->opt);
    sm_branch_point bp;
    int rc = parse_change(t, 0, argc, argv, &bp, NULL, 0, e);
    if (rc == 0 && bp.changed && !from->ops->rebranch) {
        sm_err_set(e, "%s: a branch cannot change its options", from->ops->name);
        rc = -1;
    }
    free(t);
    return rc;
}

int sm_branch_change(sm_solver *b, const sm_solver *from, long long k, int argc, const char *const *argv,
                     char *what, size_t what_len, sm_err *e)
{
    if (check_replay(b, from, k, e)) return -1;
    sm_branch_point bp;
    if (parse_change(b, k, argc, argv, &bp, what, what_len, e)) return -1;
    if (apply_point(b, &bp, e)) return -1;
    b->branch = sm_xrealloc(b->branch, sizeof *b->branch * (size_t)(b->nbranch + 1));
    b->branch[b->nbranch++] = bp;
    b->nbranch_done = b->nbranch;
    return 0;
}
