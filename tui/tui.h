/* tui.h - the interactive workbench entry point. */
#ifndef SM_TUI_H
#define SM_TUI_H

#include "app.h"

/* Runs the workbench until the user quits; returns the exit status. */
int sm_tui_run(sm_app *app);

#endif
