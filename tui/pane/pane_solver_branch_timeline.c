/* pane_solver_branch_timeline.c - the Solver pane's timeline of runs (SPEC 5
 * "Breakpoints and branches"): once `solver branch` made one, a row per
 * run on one step scale: where it branched from its parent (the shared
 * steps dotted), how far it has gone, the step it shows, its best, and
 * the options it changed when they fit whole. */
#include <stdio.h>
#include <string.h>
#include "pane.h"
#include "solvers/stepper/step_history_record_seek_back.h"

static long long steps_of(const sm_solver *s) { return s->hist ? sm_history_head(s->hist) : s->iteration; }

int sm_runs_timeline(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8)
{
    if (app->nruns < 2 || maxrows < 1 || width < 8) return 0;
    WINDOW *w = p->win;
    if (width < 30) {
        /* Narrow (80x24): the runs' names on one line, the shown one
         * marked, as many as fit whole. */
        char line[128];
        int n = snprintf(line, sizeof line, "runs");
        for (int i = 0; i < app->nruns; i++) {
            char word[40];
            int l = snprintf(word, sizeof word, " %s%s", i == app->run_shown ? ">" : "", app->runs[i].name);
            if (n + l > width || n + l >= (int)sizeof line) break;
            memcpy(line + n, word, (size_t)l + 1);
            n += l;
        }
        sm_ui_text(w, y, x, width, sm_ui_attr(SM_EL_TEXT), "%s", line);
        return 1;
    }
    long long scale = 1;
    int namew = 4;
    for (int i = 0; i < app->nruns; i++) {
        if (steps_of(app->runs[i].s) > scale) scale = steps_of(app->runs[i].s);
        int l = (int)strlen(app->runs[i].name);
        if (l > namew) namew = l;
    }
    /* The runs that fit: the shown one always, then the newest. */
    int rows = app->nruns < maxrows ? app->nruns : maxrows;
    int drawn = 0, others = rows - 1;
    for (int i = 0; i < app->nruns && drawn < rows; i++) {
        int newest = i != app->run_shown && i >= app->nruns - others - (app->run_shown >= app->nruns - others);
        if (i != app->run_shown && !newest) continue;
        const sm_solver_run *r = &app->runs[i];
        const sm_solver *s = r->s;
        int shown = i == app->run_shown;
        char fig[64], bj[32];
        int fl = snprintf(fig, sizeof fig, " %lld/%lld %s", s->iteration, steps_of(s),
                          s->has_best ? sm_ui_joules(s->best.energy, bj, sizeof bj) : "-");
        int bw = width - namew - 2 - fl;
        if (bw < 8) return drawn;
        int cy = y + drawn;
        sm_ui_text(w, cy, x, namew + 2, sm_ui_attr(shown ? SM_EL_CURSOR : SM_EL_TEXT), "%c%-*s ", shown ? '>' : ' ',
                   namew, r->name);
        int bx = x + namew + 2;
        long long at = r->parent >= 0 ? r->at : 0, head = steps_of(s);
        int cat = (int)(at * (bw - 1) / scale), chead = (int)(head * (bw - 1) / scale),
            ccur = (int)(s->iteration * (bw - 1) / scale);
        for (int c = 0; c < bw; c++) {
            const char *g;
            sm_element el = SM_EL_TEXT;
            if (c > chead) g = " ";
            else if (r->parent >= 0 && c < cat) { g = utf8 ? "\xc2\xb7" : "."; el = SM_EL_DIM; }
            else if (r->parent >= 0 && c == cat) g = utf8 ? "\xe2\x94\x94" : "`";
            else g = utf8 ? "\xe2\x94\x81" : "=";
            wattrset(w, c == ccur ? (attr_t)A_REVERSE : sm_ui_attr(el));
            mvwaddstr(w, cy, bx + c, g);
        }
        wattrset(w, A_NORMAL);
        sm_ui_text(w, cy, bx + bw, fl, sm_ui_attr(SM_EL_TEXT), "%s", fig);
        drawn++;
    }
    /* What each branch changed, on a line of its own when it fits whole. */
    if (drawn < maxrows) {
        const sm_solver_run *r = &app->runs[app->run_shown];
        char line[256];
        int n = r->parent >= 0 ? snprintf(line, sizeof line, "%s: from %s at %lld%s%s", r->name,
                                          app->runs[r->parent].name, r->at, r->change[0] ? ", " : "", r->change)
                               : snprintf(line, sizeof line, "main: as started; solver switch NAME shows a branch");
        if (n <= width) sm_ui_text(w, y + drawn++, x, width, sm_ui_attr(SM_EL_DIM), "%s", line);
    }
    /* Whether the options it changed mattered: the first step it took
     * differently from its parent, or that it has made the same moves so
     * far (b1 with -tenure-add 30 made main's moves, and nothing said). */
    if (drawn < maxrows && app->runs[app->run_shown].parent >= 0) {
        const sm_solver_run *r = &app->runs[app->run_shown];
        const char *pn = app->runs[r->parent].name;
        long long upto, dv = sm_app_run_diverged_at(app, app->run_shown, &upto);
        char line[160];
        int n;
        if (dv >= 0) n = snprintf(line, sizeof line, "%s differs from %s from step %lld", r->name, pn, dv);
        else if (upto >= 0) n = snprintf(line, sizeof line, "%s made %s's moves so far (to step %lld)", r->name, pn, upto);
        else n = snprintf(line, sizeof line, "%s: no step after %lld in both yet", r->name, r->at);
        if (n > width && dv >= 0) n = snprintf(line, sizeof line, "differs from step %lld", dv);
        else if (n > width && upto >= 0) n = snprintf(line, sizeof line, "same moves to %lld", upto);
        if (n <= width) sm_ui_text(w, y + drawn++, x, width, sm_ui_attr(SM_EL_DIM), "%s", line);
    }
    return drawn;
}
