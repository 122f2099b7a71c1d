/* register_commands_create_app.c - the app's life (the session starts on the built-in
 * scenario; the Tcl hooks are released here) and command registration. */
#include "cmd_common.h"
#include "tui/app/compare_mode.h"
#include "core/session/crash_recovery_journal.h"

#include <stdlib.h>
#include <string.h>

sm_app *sm_app_new(Tcl_Interp *interp, sm_err *e)
{
    sm_scenario sc;
    if (sm_scenario_parse_text(sm_default_scenario, strlen(sm_default_scenario),
                               "(built-in scenario)", ".", &sc, e))
        return NULL;
    sm_app *app = sm_xcalloc(1, sizeof *app);
    app->interp = interp;
    app->session = sm_session_new(sc.grid, sc.topo, &sc.model, sc.map);
    free(sc.map);
    app->view = sm_view_new();
    app->compare = sm_compare_new();
    sm_app_sync_view(app);
    return app;
}

void sm_app_free(sm_app *app)
{
    if (!app) return;
    sm_compare_free(app->compare);
    app->compare = NULL;   /* dropping the solver's runs looks at it */
    sm_app_run_free(app);
    sm_app_drop_solver(app);
    sm_app_solver_quiesce(app);   /* no start runs on in the background */
    if (app->background_stop) app->background_stop(app); /* nor a measurement */
    /* A recovered journal whose work the script did not save stays. */
    if (app->recovered) sm_journal_close(app->recovered, !app->session->dirty);
    sm_session_free(app->session);
    if (app->hook_step) Tcl_DecrRefCount(app->hook_step);
    if (app->hook_solved) Tcl_DecrRefCount(app->hook_solved);
    if (app->hook_changed) Tcl_DecrRefCount(app->hook_changed);
    if (app->record) fclose(app->record);
    free(app->record_path);
    free(app->record_error);
    free(app->scenario_path);
    sm_safe_free(app);
    sm_view_free(app->view);
    sm_bound_free(&app->bound);
    free(app->bound_iso);
    free(app);
}

void sm_cmd_register_all(sm_app *app)
{
    sm_register_scenario_cmds(app);
    sm_register_model_cmds(app);
    sm_register_map_cmds(app);
    sm_register_solve_cmds(app);
    sm_register_report_cmd(app);
    sm_register_session_cmds(app);
    sm_register_view_cmds(app);
    sm_register_study_cmds(app);
    sm_register_units_cmds(app);
    sm_register_run_cmds(app);
}
