/* solver_pause_and_stop_on_esc.c - pausing a running solver and ending a
 * paused one (solver_pause_and_stop_on_esc.h). */
#include "solver_pause_and_stop_on_esc.h"

/* Esc and C-c: a running solver pauses (Space stops); one paused by an
 * interrupt ends (solver stop), as a second interrupt does (SPEC 5:
 * interrupt is pause). */
const char *sm_solver_esc_command(const sm_app *app)
{
    const sm_solver *s = app->solver;
    if (s && !s->done && app->view->running) return "solver pause";
    else if (s && !s->done && app->paused_by_interrupt) return "solver stop";
    return NULL;
}

void sm_solver_pause(sm_app *app)
{
    if (app->solver_depth > 0) app->pause_request = 1;
    /* Paused by the user: Esc (or C-c) once more ends it. */
    if (!app->solver->done && (app->view->running || app->solver_depth > 0)) app->paused_by_interrupt = 1;
    app->view->running = 0;
}

int sm_solver_pause_or_stop_on_interrupt(sm_app *app, sm_solver *s)
{
    /* Interrupt is pause (SPEC 5): the solver keeps its state and
     * steps on with n or Space; a second Esc or `solver stop`
     * ends it. `solve`, and a study's job, end at once. */
    if (app->stop_on_interrupt || app->in_study) {
        sm_solver_stop(s);
        return 0;
    }
    app->paused_by_interrupt = 1;
    app->view->running = 0;
    if (!s->done)
        sm_view_log(app->view, SM_LOG_NOTE, "%s paused at step %lld%s; n or Space goes on, "
                    "%s ends it", s->ops->name, s->iteration,
                    app->interrupt ? " (interrupted)" : " (solver pause)",
                    app->screen ? "Esc again or X" : "solver stop");
    app->interrupt = 0;
    app->pause_request = 0;
    return 1;
}
