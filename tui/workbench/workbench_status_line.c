/* workbench_status_line.c - the status line at the top of the workbench:
 * the scenario file, [modified], which mapping the panes show (session,
 * the solver and its step, a run, a compared mapping, a branch being
 * built), the solver's phase, E and T against the deadline, the theme;
 * what gives way first when the terminal is narrow. */
#include <math.h>
#include <string.h>
#include "tui/app/mpi_run_launch_job.h"
#include "tui/app/solver_branch_build_on_worker_thread.h"
#include "workbench_internal.h"

void wb_draw_status(tui *t, const sm_frame *f)
{
    sm_app *app = t->app;
    WINDOW *w = t->status;
    werase(w);
    wbkgd(w, sm_ui_attr(SM_EL_STATUS));
    char e[32], ts[32], d[48] = "";
    const sm_model *m = &app->session->model;
    /* Following a solver that held itself to a deadline of its own (the
     * scenario has none): T against that one, as the Energy pane and
     * solver state judge it ("T 5.097 ms" alone hid "> 4.752 ms"). */
    if (f->source && app->solver && app->solver->deadline_from && !m->has_deadline) m = &app->solver->model;
    if (m->has_deadline) {
        char b[32];
        snprintf(d, sizeof d, " %s %s", sm_model_meets_deadline(m, f->ev.time) ? "<=" : "> ",
                 sm_ui_seconds(m->deadline, b, sizeof b));
    }
    const char *name = app->scenario_path ? app->scenario_path : "(built-in scenario)";
    /* Which mapping every pane shows: v switches. */
    char src[160] = "session", uneq[48] = "";
    if (app->starting)
        snprintf(src, sizeof src, "session, %s starting %.1f s", sm_solver_start_name(app->starting),
                 sm_solver_start_elapsed(app->starting));
    else if (f->source)
        snprintf(src, sizeof src, "SOLVER %s%s%s it %lld", app->solver->ops->name, app->nruns > 1 ? " " : "",
                 app->nruns > 1 ? app->runs[app->run_shown].name : "", app->solver->iteration);
    /* A run going on: how far it has come. */
    if (app->run_job && app->run_job->state == SM_JOB_RUNNING) {
        size_t l = strlen(src);
        snprintf(src + l, sizeof src - l, ", run %d/%d", app->run_job->iteration, app->run_job->iters);
    }
    if (f->cmp && f->cmp->pending) {   /* its cost state still building */
        size_t l = strlen(src);
        snprintf(src + l, sizeof src - l, " vs %.40s pending %.0f s", f->cmp->label,
                 sm_compare_pending_seconds(f->cmp));
    } else if (f->cmp) {   /* compare mode: against what, and the energy apart */
        char dj[32];
        size_t l = strlen(src);
        /* A difference within rounding of the totals is none (two runs at
         * 39.42 kJ read "-174.6 pJ"), as in the Energy pane. */
        double d = f->cmp->ev.energy - f->ev.energy;
        if (fabs(d) <= 1e-9 * fmax(fabs(f->cmp->ev.energy), fabs(f->ev.energy))) d = 0;
        /* At unequal steps (the other run has fewer): how many it has
         * (given up first when the line is narrow, below). */
        if (f->cmp->run_note[0] && f->cmp->run && f->cmp->run->hist)
            snprintf(uneq, sizeof uneq, " (has %lld steps)", sm_history_head(f->cmp->run->hist));
        snprintf(src + l, sizeof src - l, " vs %.40s%s %s%s", f->cmp->label, uneq, d > 0 ? "+" : "",
                 sm_ui_joules(d, dj, sizeof dj));
    }
    /* A branch being built in the background: how far it has come. */
    char br[96];
    if (sm_app_branch_progress(app, br, sizeof br)) {
        size_t l = strlen(src);
        snprintf(src + l, sizeof src - l, ", %s", br);
    }
    char right[256], shown[512];
    /* Comparing, time and theme give their room to what is compared
     * (Energy shows both times and the deadline). */
    char tt[96] = "";
    if (!f->cmp)
        snprintf(tt, sizeof tt, "  T %s%s  theme %s", sm_ui_seconds(f->ev.time, ts, sizeof ts), d,
                 app->view->theme.name);
    /* The solver's phase beside what it shows, in the Solver pane's
     * words (ready, stepping, paused; its status once ended). */
    char ph[72] = "";
    if (f->source && !app->starting)
        snprintf(ph, sizeof ph, " %.60s",
                 app->solver->done ? app->solver->status : sm_app_solver_phase(app, app->solver));
    int rn = snprintf(right, sizeof right, "%s  [%s]%s  E %s%s", app->session->dirty ? " [modified]" : "", src, ph,
                      sm_ui_joules(f->ev.energy, e, sizeof e), tt);
    /* Narrow: the theme's name goes whole before the line is cut inside
     * it ("theme defaul" at 80x24). */
    if (!f->cmp && COLS - 1 - rn < 12) {
        snprintf(tt, sizeof tt, "  T %s%s", sm_ui_seconds(f->ev.time, ts, sizeof ts), d);
        rn = snprintf(right, sizeof right, "%s  [%s]%s  E %s%s", app->session->dirty ? " [modified]" : "", src, ph,
                      sm_ui_joules(f->ev.energy, e, sizeof e), tt);
    }
    /* Still too wide (comparing two runs at 80x24 cut "E 2.972 J" to
     * "E 2"): the steps count of the other run goes (the Solver pane says
     * it), then the phase word (the Solver pane's first line has it). */
    if (COLS - 1 - rn < 12 && uneq[0]) {
        char *u = strstr(src, uneq);
        if (u) memmove(u, u + strlen(uneq), strlen(u + strlen(uneq)) + 1);
        rn = snprintf(right, sizeof right, "%s  [%s]%s  E %s%s", app->session->dirty ? " [modified]" : "", src, ph,
                      sm_ui_joules(f->ev.energy, e, sizeof e), tt);
    }
    if (COLS - 1 - rn < 12 && ph[0]) {
        ph[0] = '\0';
        rn = snprintf(right, sizeof right, "%s  [%s]  E %s%s", app->session->dirty ? " [modified]" : "", src,
                      sm_ui_joules(f->ev.energy, e, sizeof e), tt);
    }
    /* A long path gives way in the middle: the figures stay readable. */
    const char *title = " stencilmap  ";
    int room = COLS - (int)strlen(title) - rn;
    const char *base = strrchr(name, '/');
    if ((int)strlen(name) > room && base) name = base + 1;
    if ((int)strlen(name) > room) title = " ", room = COLS - 1 - rn;
    sm_ui_elide(name, room < 12 ? 12 : room, shown, sizeof shown);
    sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_STATUS), "%s%s%s", title, shown, right);
    wnoutrefresh(w);
}
