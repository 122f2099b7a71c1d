/* app_run.c - the app's run: the launched job and the imported RUN.json,
 * and whether the session still holds what ran (app.h). */
#include "app.h"
#include <stdlib.h>
#include <string.h>
#include "core/run/runfile.h"
#include "run_job.h"

int sm_app_run_matches(sm_app *app)
{
    if (!app->run) return 0;
    unsigned long long v = app->session->version + 1;
    if (app->run_checked == v && app->run_checked_session == app->session) return app->run_matches;
    char sh[65], mh[65];
    sm_run_scenario_sha256(app->session->grid, app->session->topo, sh);
    sm_run_mapping_sha256(sm_session_map(app->session), app->session->grid->ntasks, mh);
    app->run_matches = strcmp(sh, app->run->scenario_sha256) == 0 && strcmp(mh, app->run->mapping_sha256) == 0;
    app->run_checked = v;
    app->run_checked_session = app->session;
    return app->run_matches;
}

void sm_app_run_set(sm_app *app, struct sm_run *r)
{
    if (app->run) {
        sm_run_free(app->run);
        free(app->run);
    }
    app->run = r;
    app->run_checked = 0;
}

void sm_app_run_free(sm_app *app)
{
    if (app->run_job) {
        sm_run_job_stop(app->run_job);
        sm_run_job_free(app->run_job);
        free(app->run_job);
        app->run_job = NULL;
    }
    sm_app_run_set(app, NULL);
}
