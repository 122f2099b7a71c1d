/* app_screen_dump_progress_view_fit.c - the app's three small calls that need neither Tcl nor
 * curses: the screen's text (dump) and progress, the two doors to the screen, and fitting
 * the view to the session. The command layer
 * (cmd/) creates and frees the app, since it owns the Tcl hooks. */
#include "app.h"

#include <stdlib.h>
#include <string.h>

void sm_app_sync_view(sm_app *app)
{
    const sm_grid *g = app->session->grid;
    sm_view *v = app->view;
    if (memcmp(v->dims, g->spec.blocks, sizeof v->dims) != 0 || v->ntasks != g->ntasks ||
        v->proc >= app->session->topo->nprocs)
        sm_view_resize(v, g->spec.blocks, app->session->topo->nprocs);
}


void sm_app_progress(sm_app *app)
{
    if (app->screen && app->screen->progress) app->screen->progress(app);
}

char *sm_app_screen_dump(sm_app *app)
{
    return app->screen && app->screen->dump ? app->screen->dump(app) : NULL;
}
