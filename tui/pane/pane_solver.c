/* pane_solver.c - pick a solver (Up/Down, Enter or S starts it with its
 * options), then watch it: status, iteration, current and best objective
 * with a sparkline of their history, the timeline of its steps, the last
 * move explained (pane_solver_history.c) and the statistics. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/solver_registry.h"
#include "pane.h"
#include "solvers/stepper/step_history_record_seek_back.h"
#include "tui/app/solver_start_on_worker_thread.h"

/* The solver's statistic named key, or NULL. */
static const double *stat_of(const sm_solver *s, const char *key)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) return &s->stats[i].value;
    return NULL;
}

/* Where the solver is: the status `solver state` gives (running until it
 * ends, then done, optimal, stopped...), and while it runs its phase
 * (sm_app_solver_phase: ready, stepping, paused), the words solver state's
 * phase key, the status line and the Console use. After n, N, } or a seek
 * it read "running, paused", "running" or "running, ready" for the same
 * state (a frame drawn inside the step was never redrawn after it). */
static const char *shown_status(const sm_app *app, const sm_solver *s, char *buf, size_t n)
{
    if (s->done) return s->status;
    snprintf(buf, n, "%s, %s", s->status[0] ? s->status : "running", sm_app_solver_phase(app, s));
    return buf;
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_solver *s = app->solver;
    WINDOW *w = p->win;
    werase(w);
    sm_ui_frame(p, app, "Solver");
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 16 || ih < 3) return;
    const sm_solver_ops *pick = sm_solver_list()[v->solver_row];
    sm_ui_words(w, 1, 1, iw, v->focus == SM_PANE_SOLVER ? sm_ui_attr(SM_EL_CURSOR) : sm_ui_attr(SM_EL_HEADER),
               "< %s >  %s", pick->name, pick->summary);
    int y = 2;
    if (app->starting) {
        /* Its init runs in the background (seconds at a million blocks). */
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_TEXT), "%s starting  %.1f s", sm_solver_start_name(app->starting),
                   sm_solver_start_elapsed(app->starting));
        if (y <= ih)
            sm_ui_words(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "keys keep working; n waits for it, Space runs it when ready");
        return;
    }
    if (!s) {
        /* The picked solver's options with their defaults. */
        for (int i = 0; pick->opts[i].name && y <= ih; i++, y++)
            sm_ui_words(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "-%s %s  %s", pick->opts[i].name,
                       pick->opts[i].def ? pick->opts[i].def : "-", pick->opts[i].help ? pick->opts[i].help : "");
        if (y <= ih) sm_ui_words(w, y, 1, iw, sm_ui_attr(SM_EL_TEXT), "Enter/S start, n step, Space run");
        return;
    }
    char b1[32], b2[32], sb[96];
    /* The whole line, or (narrow, 80x24) without the seconds, then without
     * the name the picker above shows: never cut inside a word. */
    {
        const char *word = shown_status(app, s, sb, sizeof sb);
        char line[160];
        int n = snprintf(line, sizeof line, "%s %s  it %lld  %.1f s", s->ops->name, word, s->iteration,
                         sm_solver_seconds_now(s));
        if (n > iw) n = snprintf(line, sizeof line, "%s %s  it %lld", s->ops->name, word, s->iteration);
        if (n > iw) n = snprintf(line, sizeof line, "%s  it %lld", word, s->iteration);
        /* 80x24 in compare mode (19 columns): the phase alone ("paused",
         * "running, paused" being the status line's too), never "it"
         * without its number. */
        if (n > iw) n = snprintf(line, sizeof line, "%s  it %lld", s->done ? s->status : sm_app_solver_phase(app, s),
                                 s->iteration);
        if (n > iw) snprintf(line, sizeof line, "it %lld", s->iteration);
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(s->done ? SM_EL_GOOD : SM_EL_TEXT), "%s", line);
    }
    if (y > ih) return;
    if (s->has_current || s->has_best) {
        /* The objective it optimises (the sparkline's), then energy when
         * that is another metric: hops, congestion... show here. */
        double oc, ob;
        const char *obj = sm_solver_objective(s, &oc, &ob);
        char b3[32], b4[32];
        /* None yet (the ILP before its first incumbent): "-", as solver
         * state's empty best, not "nan J". */
        if (s->has_current && !isnan(oc)) sm_ui_stat(obj, oc, b1, sizeof b1);
        else snprintf(b1, sizeof b1, "-");
        if (s->has_best && !isnan(ob)) sm_ui_stat(obj, ob, b2, sizeof b2);
        else snprintf(b2, sizeof b2, "-");
        if (strcmp(obj, "energy") == 0) {
            /* Whole figures: 80x24 cut "best 2.695 J" to "best 2" (then,
             * cut at words, to a bare "best"): narrower, the tighter form,
             * then cur alone. */
            char cb[96];
            int n = snprintf(cb, sizeof cb, "cur %s  best %s", b1, b2);
            if (n > iw) n = snprintf(cb, sizeof cb, "cur %s best %s", b1, b2);
            if (n > iw) snprintf(cb, sizeof cb, "cur %s", b1);
            sm_ui_words(w, y++, 1, iw, sm_ui_attr(SM_EL_TEXT), "%s", cb);
        } else
            sm_ui_words(w, y++, 1, iw, sm_ui_attr(SM_EL_TEXT), "%s cur %s  best %s  (energy %s, best %s)", obj, b1,
                       b2, s->has_current ? sm_ui_joules(s->current.energy, b3, sizeof b3) : "-",
                       s->has_best ? sm_ui_joules(s->best.energy, b4, sizeof b4) : "-");
    }
    if (y > ih) return;
    /* cur and best sparklines: one point per step up to the step shown,
     * read from the history (a point per command, back and forward
     * included, said nothing about the search). */
    double spc[SM_SPARK_MAX], spb[SM_SPARK_MAX];
    int spn = 0;
    if (s->hist) {
        long long to = sm_history_cursor(s->hist), from = to - SM_SPARK_MAX + 1;
        if (from < sm_history_first(s->hist)) from = sm_history_first(s->hist);
        for (long long k = from; k <= to; k++) {
            const sm_hist_step *st = sm_history_step(s->hist, k);
            if (!st || isnan(st->best_objective)) continue;
            spc[spn] = isnan(st->objective) ? st->best_objective : st->objective;
            spb[spn++] = st->best_objective;
        }
    } else {
        spn = v->spark_n;
        memcpy(spc, v->spark_cur, sizeof(double) * (size_t)spn);
        memcpy(spb, v->spark_best, sizeof(double) * (size_t)spn);
    }
    /* A Pareto front keeps its rows for the plot (the timeline above it
     * shows the steps). */
    if (spn > 1 && !(s->partition && s->partition->time >= 0 && s->partition->has_front)) {
        double lo = spb[0], hi = spc[0];
        for (int i = 0; i < spn; i++) {
            if (spb[i] < lo) lo = spb[i];
            if (spc[i] > hi) hi = spc[i];
            if (spc[i] < lo) lo = spc[i];
        }
        int half = iw / 2 - 1;
        /* The newest points that fit. */
        int nc = spn > half ? half : spn, nb = spn > iw - half - 1 ? iw - half - 1 : spn;
        sm_ui_sparkline(w, y, 1, half, spc + spn - nc, nc, lo, hi, SM_EL_SPARK_CUR, f->utf8);
        sm_ui_sparkline(w, y, 2 + half, iw - half - 1, spb + spn - nb, nb, lo, hi, SM_EL_SPARK_BEST, f->utf8);
        y++;
    }
    /* Its branches (solver branch): a row per run, up to a third of
     * the rows left. */
    if (app->nruns > 1 && y <= ih) {
        int room = (ih - y + 1) / 3;
        y += sm_runs_timeline(p, y, 1, iw, room < 2 ? 2 : room > 6 ? 6 : room, app, f->utf8);
    }
    /* Comparing with another run at another step than the one shown (it
     * has fewer steps): say so, as the status line and view compare do. */
    if (f->cmp && f->cmp->run_note[0] && f->cmp->run && y <= ih) {
        /* Narrower, shorter forms of the same facts: never "main has 12
         * steps;" without the step compared. */
        const sm_compare *c = f->cmp;
        long long has = c->run->hist ? sm_history_head(c->run->hist) : c->run_step;
        char nb[96];
        int n = snprintf(nb, sizeof nb, "%s", c->run_note);
        if (n > iw) n = snprintf(nb, sizeof nb, "%s has %lld steps: @%lld", c->run_name, has, c->run_step);
        if (n > iw) n = snprintf(nb, sizeof nb, "%s: %lld steps, @%lld", c->run_name, has, c->run_step);
        if (n > iw) n = snprintf(nb, sizeof nb, "vs @%lld, its last", c->run_step);
        sm_ui_words(w, y++, 1, iw, sm_ui_attr(SM_EL_HIGHLIGHT), "%s", nb);
    }
    /* A bounding solver (the ILP): incumbent, bound and gap, the bound
     * and gap `solver state` gives (sm_app_solver_bound); "optimal" only
     * when the bound meets the incumbent. No feasible incumbent is "-"
     * (not "nan J"), a bound proving that nothing meets the deadline
     * "infeasible" (not "0 J", the raw statistic's). */
    const double *inc = stat_of(s, "incumbent"), *own_bound = stat_of(s, "bound");
    int drew_bound = 0;
    if (y <= ih && (inc || own_bound)) {
        drew_bound = 1;
        double g, bnd = sm_app_solver_bound(app, s, s->has_best ? &s->best : NULL, &g, NULL);
        int has_inc = s->has_best && s->best.feasible;
        int optimal = has_inc && isfinite(g) && g == 0;
        char gp[32] = "";
        if (optimal) snprintf(gp, sizeof gp, "optimal");
        else if (isfinite(g)) snprintf(gp, sizeof gp, "gap %.3g%%", 100 * g);
        const char *bt = isfinite(bnd) ? sm_ui_joules(bnd, b2, sizeof b2) : bnd > 0 ? "infeasible" : "-";
        const char *it = has_inc ? sm_ui_joules(s->best.energy, b1, sizeof b1) : "-";
        /* Narrow (80x24): shorter labels, then the gap alone goes; never
         * a label without its figure ("bound "). */
        char bl[128];
        int n = snprintf(bl, sizeof bl, "incumbent %s  bound %s  ", it, bt);
        if (n + (int)strlen(gp) > iw) n = snprintf(bl, sizeof bl, "inc %s  bound %s  ", it, bt);
        if (n + (int)strlen(gp) > iw) n = snprintf(bl, sizeof bl, "inc %s bound %s ", it, bt);
        if (n - 1 > iw) n = snprintf(bl, sizeof bl, "bound %s ", bt);
        sm_ui_words(w, y, 1, iw, sm_ui_attr(optimal ? SM_EL_GOOD : SM_EL_TEXT), "%s", bl);
        if (gp[0] && n + (int)strlen(gp) <= iw)
            sm_ui_text(w, y, 1 + n, iw - n, sm_ui_attr(optimal ? SM_EL_GOOD : SM_EL_DIM), "%s", gp);
        y++;
    }
    /* The history: a timeline of the steps and the step shown explained,
     * above the statistics. A Pareto front that fits keeps the rows for
     * its plot (at least 4, under the last move and a line of
     * statistics) with a one-row timeline; one that does not fit leaves
     * them to the full timeline and the explanation. */
    int has_front = s->partition && s->partition->time >= 0;
    int front_fits = has_front && ih - y + 1 >= 1 + 1 + 1 + 4;
    if (front_fits) y += sm_steps_timeline(p, y, 1, iw, 1, app, f->utf8);
    else if (y + 1 <= ih) y += sm_steps_timeline(p, y, 1, iw, ih - y + 1, app, f->utf8);
    if (y <= ih && s->last_move[0]) {
        char mv[256];
        sm_ui_words(w, y++, 1, iw, sm_ui_attr(SM_EL_HIGHLIGHT), "%s", sm_ui_fit_names(s->last_move, iw, mv, sizeof mv));
    }
    if (!front_fits && y <= ih) y += sm_steps_explain(p, y, 1, iw, ih - y + 1, app, f->utf8);
    char line[256];
    int len = 0;
    line[0] = '\0';
    /* A front takes the rows below, the statistics on one line above it. */
    int front = front_fits && ih - y >= 5;
    int stat_end = front ? y : ih;
    for (int i = 0; i < s->nstats && y <= stat_end; i++) {
        char item[80], val[32];
        /* Shown above, as solver state gives them. */
        if (drew_bound && (!strcmp(s->stats[i].key, "bound") || !strcmp(s->stats[i].key, "gap") ||
                           !strcmp(s->stats[i].key, "incumbent")))
            continue;
        /* A deadline the solver chose itself says where it came from. */
        int own = s->deadline_from && strcmp(s->stats[i].key, "deadline") == 0;
        int n = snprintf(item, sizeof item, "%s %s%s%.40s%s  ", s->stats[i].key,
                         sm_ui_stat(s->stats[i].key, s->stats[i].value, val, sizeof val), own ? " (" : "",
                         own ? s->deadline_from : "", own ? ")" : "");
        if (len + n > iw) {
            sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_DIM), "%s", line);
            len = 0;
            line[0] = '\0';
        }
        len += snprintf(line + len, sizeof line - (size_t)len, "%s", item);
    }
    if (len && y <= stat_end) sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_DIM), "%s", line);
    if (front && ih - y + 1 >= 4) sm_front_draw(p, y, 1, ih - y + 1, iw, app, s);
}

static int nsolvers(void)
{
    int n = 0;
    while (sm_solver_list()[n]) n++;
    return n;
}

static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)p; (void)f;
    *cursor = app->view->solver_row;
    return nsolvers();
}

static int move_row(sm_pane *p, sm_app *app, const sm_frame *f, int delta, sm_words *cmd)
{
    (void)p; (void)f;
    sm_words_lit(cmd, "view row solver");
    sm_words_addf(cmd, "%d", sm_pane_step(app->view->solver_row, delta, nsolvers()));
    return 1;
}

/* No activate: Enter on a solver opens the start prompt (key_action_to_tcl_command.c). */
/* Pareto mode: a click on a front point or row applies it. */
static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f;
    if (sm_steps_click(p, app, y, x, &cmds[0])) return 1;
    return sm_front_click(p, app, y, x, &cmds[0]);
}

static void release(sm_pane *p)
{
    free(p->priv);
    p->priv = NULL;
}

/* The mapping and the model too: the front marks the point the mapping
 * is, and draws the deadline. */
const sm_pane_ops sm_pane_solver = {
    .deps = SM_DEP_SOLVER | SM_DEP_VIEW | SM_DEP_MAPPING | SM_DEP_SESSION, .draw = draw, .rows = rows,
    .move_cursor = move_row, .click = click, .release = release,
};
