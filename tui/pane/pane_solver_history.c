/* pane_solver_history.c - the Solver pane's history of steps: a timeline
 * (the objective per step, the best marked, the step shown under a
 * cursor that [ ] { } and the mouse move) and the step shown explained
 * (why, what it changed, its best candidates, the tabu list; the ILP's
 * incumbent and bound over the solve, ga's best/mean/worst per
 * generation). Reads the solver's history (solvers/stepper/step_history_record_seek_back.h) only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pane.h"
#include "solvers/stepper/step_history_record_seek_back.h"

/* Where the timeline was drawn, for clicks (one Solver pane). */
static struct {
    int y, x, width;   /* pane coordinates; width 0: not drawn */
    long long first, per; /* step of column 0, steps per column */
    long long head;
} geo;

static const sm_eval *step_eval(const sm_history *h, const sm_hist_step *st)
{
    return st->has_current ? &st->current : st->has_best ? sm_history_best(h, st) : NULL;
}

/* The best as of step k (what solver state says after seek k): the first
 * step up to k whose objective is step k's best; -1 when there is none
 * yet. Never a later step's best: the pane agrees with solver state. */
static long long best_step(const sm_history *h, long long k)
{
    long long first = sm_history_first(h);
    double want = sm_history_step(h, k)->best_objective;
    if (!isfinite(want)) return -1;
    double tol = 1e-12 * (1 + fabs(want));
    for (long long j = first; j <= k; j++) {
        double o = sm_history_step(h, j)->objective;
        if (isfinite(o) && fabs(o - want) <= tol) return j;
    }
    return -1;
}

int sm_steps_timeline(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8)
{
    geo.width = 0;
    const sm_solver *s = app->solver;
    if (!s || !s->hist || maxrows < 1 || width < 12) return 0;
    const sm_history *h = s->hist;
    WINDOW *w = p->win;
    long long first = sm_history_first(h), head = sm_history_head(h), cur = sm_history_cursor(h);
    long long n = head - first + 1, kb = best_step(h, cur);
    const sm_hist_step *bs = kb >= 0 ? sm_history_step(h, kb) : NULL;
    int rows = 2;
    if (maxrows == 1) {
        /* Compact, one row (beside a Pareto front): "step 14/34" and the
         * line after it. */
        char lab[48];
        int l = snprintf(lab, sizeof lab, "step %lld/%lld ", cur, head);
        if (width - l < 8) return 0;
        sm_ui_text(w, y, x, l, sm_ui_attr(SM_EL_TEXT), "%s", lab);
        x += l;
        width -= l;
        rows = 1;
    } else {
        char best[64] = "", bv[32];
        double oc, ob;
        if (bs)
            snprintf(best, sizeof best, "  best %s at %lld",
                     sm_ui_stat(sm_solver_objective(s, &oc, &ob), bs->objective, bv, sizeof bv), kb);
        /* Narrow: "best X at K" whole or not at all (it read "best 2.533
         * J at" at 80x24). */
        char sl[128];
        int sn = snprintf(sl, sizeof sl, "step %lld/%lld%s", cur, head, best);
        if (sn > width && bs) {
            snprintf(best, sizeof best, " best %s@%lld", sm_ui_stat(sm_solver_objective(s, &oc, &ob), bs->objective, bv,
                                                                     sizeof bv), kb);
            sn = snprintf(sl, sizeof sl, "step %lld/%lld%s", cur, head, best);
        }
        if (sn > width) snprintf(sl, sizeof sl, "step %lld/%lld", cur, head);
        sm_ui_words(w, y, x, width, sm_ui_attr(SM_EL_TEXT), "%s", sl);
        /* The keys, right-aligned when there is room. */
        int used = (int)strlen(best) + 24;
        if (width - used >= 22) sm_ui_text(w, y, x + width - 22, 22, sm_ui_attr(SM_EL_DIM), "[ ] { } step  B break");
        y++;
    }
    /* One column per step, or per run of steps (their lowest objective). */
    long long per = (n + width - 1) / width;
    int cols = (int)((n + per - 1) / per);
    double *v = sm_xmalloc(sizeof(double) * (size_t)cols);
    double lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < cols; c++) {
        double m = NAN;
        for (long long k = first + c * per; k < first + (c + 1) * per && k <= head; k++) {
            double o = sm_history_step(h, k)->objective;
            if (isfinite(o) && !(m <= o)) m = o;
        }
        v[c] = m;
        if (isfinite(m)) {
            if (m < lo) lo = m;
            if (m > hi) hi = m;
        }
    }
    for (int c = 0; c < cols; c++)
        if (!isfinite(v[c])) v[c] = isfinite(lo) ? lo : 0;
    sm_ui_sparkline(w, y, x, cols, v, cols, lo, hi, SM_EL_SPARK_CUR, utf8);
    free(v);
    /* The best's column in the best's colour, the step shown reversed. */
    if (kb >= 0) {
        int c = (int)((kb - first) / per);
        mvwchgat(w, y, x + c, 1, sm_ui_attr(SM_EL_GOOD) | A_BOLD, PAIR_NUMBER(sm_ui_attr(SM_EL_GOOD)), NULL);
    }
    int cc = (int)((cur - first) / per);
    mvwchgat(w, y, x + cc, 1, A_REVERSE, PAIR_NUMBER(sm_ui_attr(SM_EL_CURSOR)), NULL);
    geo.y = y;
    geo.x = x;
    geo.width = cols;
    geo.first = first;
    geo.per = per;
    geo.head = head;
    return rows;
}

int sm_steps_click(const sm_pane *p, const sm_app *app, int y, int x, sm_words *cmd)
{
    (void)p;
    if (!geo.width || !app->solver || !app->solver->hist || y != geo.y || x < geo.x || x >= geo.x + geo.width)
        return 0;
    long long k = geo.first + (long long)(x - geo.x) * geo.per;
    if (k > geo.head) k = geo.head;
    sm_words_lit(cmd, "solver seek");
    sm_words_addf(cmd, "%lld", k);
    return 1;
}

/* "+1.2 mJ" style change of an energy; "" when zero. */
static const char *dj(double d, char *buf, size_t n)
{
    char t[32];
    if (d == 0) snprintf(buf, n, "0");
    else snprintf(buf, n, "%s%s", d > 0 ? "+" : "-", sm_ui_joules(fabs(d), t, sizeof t));
    return buf;
}

/* A difference within rounding of the figures it is taken from is none
 * ("static -1.11e-16 J" after an ILP step). */
static double tidy(double d, double scale) { return fabs(d) <= 1e-9 * scale ? 0 : d; }

static const char *ds(double d, char *buf, size_t n)
{
    char t[32];
    if (d == 0) snprintf(buf, n, "0");
    else snprintf(buf, n, "%s%s", d > 0 ? "+" : "-", sm_ui_seconds(fabs(d), t, sizeof t));
    return buf;
}

/* A change of the objective (key) with its sign and unit: "+21.29 mJ",
 * "-4" for hops; "0 J" when none. */
static const char *signed_stat(const char *key, double d, char *buf, size_t n)
{
    char t[32];
    if (d == 0) return sm_ui_stat(key, 0, buf, n);
    if (!isfinite(d)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%s%s", d > 0 ? "+" : "-", sm_ui_stat(key, fabs(d), t, sizeof t));
    return buf;
}

/* A sparkline of n values labelled, at (y, x) in width columns. */
static int series(WINDOW *w, int y, int x, int width, const char *label, const double *v, int n, double lo,
                  double hi, sm_element el, int utf8)
{
    int l = (int)strlen(label);
    if (width < l + 4) return 0;
    sm_ui_text(w, y, x, l + 1, sm_ui_attr(SM_EL_DIM), "%s", label);
    sm_ui_sparkline(w, y, x + l + 1, width - l - 1, v, n, lo, hi, el, utf8);
    return 1;
}

/* The solver's statistic key's index, or -1. */
static int stat_index(const sm_solver *s, const char *key)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) return i;
    return -1;
}

/* ga: best, mean and worst per generation up to the step shown. */
static int generations(WINDOW *w, int y, int x, int width, int maxrows, const sm_solver *s, int utf8)
{
    const sm_history *h = s->hist;
    int ib = stat_index(s, "generation_best"), im = stat_index(s, "generation_mean"),
        iw = stat_index(s, "generation_worst");
    if (ib < 0 || im < 0 || iw < 0 || maxrows < 1) return 0;
    long long first = sm_history_first(h), cur = sm_history_cursor(h);
    int n = (int)(cur - first + 1), third = (width - 2) / 3;
    if (n < 2 || third < 10) return 0;
    int keep = n > third ? third : n;
    double *v[3];
    int idx[3] = {ib, im, iw};
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < 3; j++) {
        v[j] = sm_xmalloc(sizeof(double) * (size_t)keep);
        for (int i = 0; i < keep; i++) {
            const sm_hist_step *st = sm_history_step(h, cur - keep + 1 + i);
            double x1 = st->nstats > idx[j] ? sm_history_stats(h, st)[idx[j]] : NAN;
            v[j][i] = x1;
            if (isfinite(x1)) lo = fmin(lo, x1), hi = fmax(hi, x1);
        }
    }
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < keep; i++)
            if (!isfinite(v[j][i])) v[j][i] = lo;
    series(w, y, x, third, "best", v[0], keep, lo, hi, SM_EL_SPARK_BEST, utf8);
    series(w, y, x + third + 1, third, "mean", v[1], keep, lo, hi, SM_EL_SPARK_CUR, utf8);
    series(w, y, x + 2 * third + 2, third, "worst", v[2], keep, lo, hi, SM_EL_BAD, utf8);
    for (int j = 0; j < 3; j++) free(v[j]);
    return 1;
}

/* The ILP: incumbent and bound over the solve of the step shown. */
static int ilp_trace(WINDOW *w, int y, int x, int width, int maxrows, const sm_history *h, const sm_hist_step *st,
                     int utf8)
{
    if (st->ntrace < 2 || maxrows < 1 || !st->trace_a) return 0;
    const sm_explain_point *pt = sm_history_trace(h, st);
    int n = st->ntrace, half = (width - 1) / 2;
    double *a = sm_xmalloc(sizeof(double) * (size_t)n), *b = sm_xmalloc(sizeof(double) * (size_t)n);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        a[i] = pt[i].a, b[i] = pt[i].b;
        if (isfinite(a[i])) lo = fmin(lo, a[i]), hi = fmax(hi, a[i]);
        if (isfinite(b[i])) lo = fmin(lo, b[i]), hi = fmax(hi, b[i]);
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(a[i])) a[i] = hi;
        if (!isfinite(b[i])) b[i] = lo;
    }
    series(w, y, x, half, st->trace_a, a, n, lo, hi, SM_EL_SPARK_CUR, utf8);
    series(w, y, x + half + 1, width - half - 1, st->trace_b, b, n, lo, hi, SM_EL_SPARK_BEST, utf8);
    free(a);
    free(b);
    return 1;
}

int sm_steps_explain(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8)
{
    const sm_solver *s = app->solver;
    if (!s || !s->hist || maxrows < 1) return 0;
    const sm_history *h = s->hist;
    WINDOW *w = p->win;
    long long k = sm_history_cursor(h);
    const sm_hist_step *st = sm_history_step(h, k), *prev = sm_history_step(h, k - 1);
    int r = 0;
    const char *why = sm_history_why(h, st);
    if (why[0]) sm_ui_words(w, y + r++, x, width, sm_ui_attr(SM_EL_TEXT), "why: %s", why);
    const sm_eval *a = prev ? step_eval(h, prev) : NULL, *b = step_eval(h, st);
    if (r < maxrows && a && b) {
        char e[32], dy[32], sc[32], id[32], cm[32], t[32];
        double es = fmax(fabs(a->energy), fabs(b->energy)), ts = fmax(fabs(a->time), fabs(b->time));
        char cl[256];
        dj(tidy(b->energy - a->energy, es), e, sizeof e);
        ds(tidy(b->time - a->time, ts), t, sizeof t);
        int cn = snprintf(cl, sizeof cl, "change: E %s (dyn %s, static %s, idle %s, comm %s)  T %s  rounds %+lld", e,
                          dj(tidy(b->energy_dynamic - a->energy_dynamic, es), dy, sizeof dy),
                          dj(tidy(b->energy_static - a->energy_static, es), sc, sizeof sc),
                          dj(tidy(b->energy_idle - a->energy_idle, es), id, sizeof id),
                          dj(tidy(b->energy_comm - a->energy_comm, es), cm, sizeof cm), t,
                          (long long)(b->rounds - a->rounds));
        /* Narrow: the parts go first, then rounds; never a bare "T". */
        if (cn > width) cn = snprintf(cl, sizeof cl, "change: E %s  T %s  rounds %+lld", e, t, (long long)(b->rounds - a->rounds));
        if (cn > width) cn = snprintf(cl, sizeof cl, "change: E %s  T %s", e, t);
        if (cn > width) snprintf(cl, sizeof cl, "E %s  T %s", e, t);
        sm_ui_words(w, y + r++, x, width, sm_ui_attr(SM_EL_DIM), "%s", cl);
    }
    /* The candidates, best first; > marks the one the step took, T a tabu
     * one (in front, so a long move never cuts it off); the change of the
     * objective by the number rule, in its unit. */
    const char *taken = sm_history_move(h, st);
    double oc, ob;
    const char *obj = sm_solver_objective(s, &oc, &ob);
    for (int i = 0; i < st->ncand && r < maxrows; i++) {
        sm_explain_cand c;
        sm_history_cand(h, st, i, &c);
        int was = strcmp(c.move, taken) == 0;
        char dv[40];
        /* The move whole, its names elided in the middle if need be
         * (block, source and target all stay). */
        char mv[256], pre[64];
        int pl = snprintf(pre, sizeof pre, "%c %c %9s  ", was ? '>' : ' ', c.tabu ? 'T' : ' ',
                          signed_stat(obj, c.delta, dv, sizeof dv));
        sm_ui_fit_names(c.move, width - pl, mv, sizeof mv);
        sm_ui_words(w, y + r++, x, width, sm_ui_attr(was ? SM_EL_TEXT : SM_EL_DIM), "%s%s", pre, mv);
    }
    if (st->ntabu && r < maxrows) {
        char line[512];
        int len = snprintf(line, sizeof line, "tabu (steps left):");
        const sm_explain_tabu *tb = sm_history_tabu(h, st);
        /* Longest-lasting first: what blocks the search for longest. */
        for (int left = 64; left > 0 && len < (int)sizeof line - 40; left--)
            for (int i = 0; i < st->ntabu && len < (int)sizeof line - 40; i++)
                if (tb[i].remaining == left || (left == 64 && tb[i].remaining > 64))
                    len += snprintf(line + len, sizeof line - (size_t)len, " %d%s%s %lld", tb[i].block,
                                    tb[i].join ? "->" : "<-",
                                    s->topo && tb[i].proc < s->topo->nprocs ? s->topo->procs[tb[i].proc].name : "?",
                                    tb[i].remaining);
        sm_ui_words(w, y + r++, x, width, sm_ui_attr(SM_EL_DIM), "%s", line);
    }
    if (r < maxrows) r += ilp_trace(w, y + r, x, width, maxrows - r, h, st, utf8);
    if (r < maxrows) r += generations(w, y + r, x, width, maxrows - r, s, utf8);
    return r;
}
