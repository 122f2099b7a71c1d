/* app_mpi_run_state.c - the app's run: the launched job and the imported RUN.json,
 * whether the session still holds what ran, and the comparison the
 * Processors and Energy panes draw (app.h). */
#include "app.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/run_results/run_vs_model.h"
#include "core/run_results/run_json_file.h"
#include "mpi_run_launch_job.h"

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

static void drop_cmp(sm_app *app)
{
    if (app->run_cmp) {
        sm_run_cmp_free(app->run_cmp);
        free(app->run_cmp);
    }
    free(app->run_row_of_proc);
    app->run_cmp = NULL;
    app->run_row_of_proc = NULL;
    app->run_cmp_version = 0;
}

void sm_app_run_set(sm_app *app, struct sm_run *r)
{
    if (app->run) {
        sm_run_free(app->run);
        free(app->run);
    }
    app->run = r;
    app->run_checked = 0;
    drop_cmp(app);
    app->run_version++;
    /* The panes that show the run redraw when the session's version moves. */
    if (app->session) app->session->version++;
}

struct sm_run *sm_app_run_read(sm_app *app, const char *path, sm_err *e)
{
    sm_run *r = sm_xcalloc(1, sizeof *r);
    if (sm_run_load(path, r, e) != 0) {
        free(r);
        return NULL;
    }
    char sh[65], mh[65];
    const sm_session *s = app->session;
    sm_run_scenario_sha256(s->grid, s->topo, sh);
    sm_run_mapping_sha256(sm_session_map(s), s->grid->ntasks, mh);
    int other_scenario = strcmp(sh, r->scenario_sha256) != 0;
    int other_mapping = !other_scenario && strcmp(mh, r->mapping_sha256) != 0;
    int bad = -1;
    for (int k = 0; k < r->nranks && bad < 0 && !other_scenario && !other_mapping; k++)
        if (sm_topo_find_proc(s->topo, r->ranks[k].processor) < 0) bad = k;
    if (other_scenario || other_mapping)
        sm_err_set_code(e, "RUN MISMATCH",
                        "run import: %s ran another %s than the session's (its %s_sha256 is %.12s..., the "
                        "session's %.12s...): load the scenario and mapping it ran (scenario.json and "
                        "mapping.json beside it)",
                        path, other_scenario ? "scenario (grid or machine)" : "mapping",
                        other_scenario ? "scenario" : "mapping",
                        other_scenario ? r->scenario_sha256 : r->mapping_sha256, other_scenario ? sh : mh);
    else if (bad >= 0)
        sm_err_set_code(e, "RUN MISMATCH",
                        "run import: %s: rank %d ran processor \"%s\", which the session's machine does not have",
                        path, bad, r->ranks[bad].processor);
    if (other_scenario || other_mapping || bad >= 0) {
        sm_run_free(r);
        free(r);
        return NULL;
    }
    return r;
}

int sm_app_run_poll(sm_app *app)
{
    sm_run_job *j = app->run_job;
    if (!j) return 0;
    int was = j->state;
    if (j->state == SM_JOB_RUNNING) sm_run_job_poll(j);
    int changed = j->iteration != app->run_seen_iteration || (int)j->state != app->run_seen_state;
    app->run_seen_iteration = j->iteration;
    app->run_seen_state = (int)j->state;
    if (was == SM_JOB_RUNNING && j->state == SM_JOB_DONE) {
        sm_err e;
        e.code[0] = '\0';
        sm_run *r = sm_app_run_read(app, j->result, &e);
        if (r) {
            sm_app_run_set(app, r);
            sm_view_log(app->view, SM_LOG_NOTE, "run done: %s imported (run compare; the Processors and Energy panes "
                                                "show measured beside predicted)", j->result);
        } else {
            sm_view_log(app->view, SM_LOG_ERROR, "run done, not imported: %s", e.msg);
        }
    } else if (was == SM_JOB_RUNNING && j->state == SM_JOB_FAILED) {
        sm_view_log(app->view, SM_LOG_ERROR, "run failed: %s (%s)", j->why, j->dir);
    }
    if (changed) {
        app->run_version++;
        app->session->version++; /* the Energy pane's title counts the iterations */
    }
    return changed;
}

const struct sm_run_cmp *sm_app_run_cmp(sm_app *app, const int **row_of_proc)
{
    if (!sm_app_run_matches(app)) return NULL;
    unsigned long long v = app->session->version + 1;
    if (!app->run_cmp || app->run_cmp_version != v || app->run_cmp_session != app->session) {
        drop_cmp(app);
        sm_run_cmp *c = sm_xcalloc(1, sizeof *c);
        sm_err e;
        if (sm_run_compare(app->session->cost, app->run, c, &e) != 0) {
            free(c);
            return NULL;
        }
        int P = app->session->topo->nprocs;
        app->run_row_of_proc = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        for (int p = 0; p < P; p++) app->run_row_of_proc[p] = -1;
        for (int k = 0; k < c->nrows; k++) app->run_row_of_proc[c->rows[k].proc] = k;
        app->run_cmp = c;
        app->run_cmp_version = v;
        app->run_cmp_session = app->session;
    }
    if (row_of_proc) *row_of_proc = app->run_row_of_proc;
    return app->run_cmp;
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
