/* app_scenario_path_and_after_save.c - the scenario file the session is,
 * as the app's journal (core/session/crash_recovery_journal.h) must know
 * it: what a save tells the journal, and the journal a script recovered
 * (held until its work is saved). Neither Tcl nor curses. */
#include "app.h"

#include <stdlib.h>
#include "core/session/crash_recovery_journal.h"

void sm_app_set_scenario_path(sm_app *app, const char *path)
{
    char *copy = path ? sm_xstrdup(path) : NULL;
    free(app->scenario_path);
    app->scenario_path = copy;
    sm_err e;
    if (app->journal && sm_journal_set_scenario(app->journal, path, &e))
        sm_view_log(app->view, SM_LOG_ERROR, "journal: %s (edits are not protected)", e.msg);
}

void sm_app_after_save(sm_app *app)
{
    /* The journal learns what is on disk now (its D record). */
    sm_err e;
    if (app->journal && sm_journal_sync(app->journal, app->session, &e))
        sm_view_log(app->view, SM_LOG_ERROR, "journal: %s (edits are not protected)", e.msg);
    if (app->recovered && !app->session->dirty) {
        sm_journal_close(app->recovered, 1);
        app->recovered = NULL;
    }
}

void sm_app_release_recovered(sm_app *app)
{
    sm_journal_close(app->recovered, 0);
    app->recovered = NULL;
}
