/* workbench.h - the interactive workbench entry point. */
#ifndef SM_WORKBENCH_H
#define SM_WORKBENCH_H

#include "tui/app/app.h"

/* Runs the workbench until the user quits; returns the exit status. */
int sm_tui_run(sm_app *app);

/* Headless: the workbench on a TERM terminal of cols x lines that writes
 * to /dev/null. Each key (a name as `key bind` takes it) is handled and
 * the next frame drawn and written out; seconds[i] gets how long that
 * took for keys[i] (what a user waits for). Batch mode only; -1 and e on
 * an unknown key or terminal. */
int sm_tui_keys(sm_app *app, const char *term, int cols, int lines, const char *const *keys, int n,
                double *seconds, sm_err *e);

/* The ncurses library's own version string (curses_version()). */
const char *sm_tui_curses_version(void);

#endif
