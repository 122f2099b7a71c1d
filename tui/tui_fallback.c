/* tui_fallback.c - until the ncurses workbench lands, the program prints
 * the scenario's report. */
#include <stdio.h>
#include <stdlib.h>
#include "../core/report.h"
#include "tui.h"

int sm_tui_run(sm_app *app)
{
    char *r = sm_report(app->session, SM_REPORT_TEXT);
    fputs(r, stdout);
    free(r);
    return 0;
}
