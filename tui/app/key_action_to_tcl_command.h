/* key_action_to_tcl_command.h - what each key action does, as the Tcl command it runs (or
 * the prompt that collects the rest of one). No curses: the TUI loop
 * shows prompts and runs the commands through tcl_bridge.h. */
#ifndef SM_KEY_ACTION_TO_TCL_COMMAND_H
#define SM_KEY_ACTION_TO_TCL_COMMAND_H

#include "app.h"
#include "key_action_table.h"
#include "command_word_list.h"

typedef enum {
    SM_DO_NOTHING,
    SM_DO_RUN,          /* run cmd, echoed in the log */
    SM_DO_PROMPT,       /* ask for a line; tmpl "%s" takes it (empty: raw Tcl) */
    SM_DO_CONFIRM_QUIT, /* unsaved changes: ask before "view quit -force" */
    SM_DO_MESSAGE,      /* tell the user why nothing happened (cmd) */
    SM_DO_PANE_MOVE,    /* ask the focused pane to move its cursor by
                           delta rows; panes without rows run cmd */
    SM_DO_PANE_ACTIVATE /* ask the focused pane for the command on the
                           object under its cursor; else run cmd */
} sm_do_kind;

/* What a prompt completes. */
typedef enum { SM_COMPLETE_TCL, SM_COMPLETE_PROCS, SM_COMPLETE_FILES } sm_complete_kind;

typedef struct sm_do {
    sm_do_kind kind;
    sm_words run;         /* RUN: the command, as words */
    char text[4096];      /* PROMPT: the initial input; MESSAGE: the message */
    char label[128];      /* PROMPT: shown before the input */
    sm_words tmpl;        /* PROMPT: the command; the answer becomes the word
                           * at index hole. Empty: the answer is raw Tcl. */
    int hole;
    int empty_ok;         /* PROMPT: an empty answer is a value (clears) */
    sm_complete_kind complete;
    int delta;            /* PANE_MOVE: rows, +-1, +-SM_DO_PAGE or first/last */
    int quiet;            /* navigation: recorded, but not echoed in the log */
    int result;           /* its result goes to the log (e: solver explain) */
    int history;          /* RUN: into the prompt history too (B, R: the
                           * command is worth editing and running again) */
} sm_do;

/* PANE_MOVE deltas the pane resolves against its own height and length. */
#define SM_DO_PAGE 1000000
#define SM_DO_FIRST (-(1 << 30))
#define SM_DO_LAST (1 << 30)

/* Fills out (which the caller releases with sm_do_free). */
void sm_action_plan(sm_app *app, sm_action a, sm_do *out);
void sm_do_free(sm_do *d);
/* The command a prompt's answer makes: 1 with out filled (words), 0 when
 * the answer is a raw Tcl script to run as typed, -1 when there is
 * nothing to run. */
int sm_action_finish(const sm_do *d, const char *input, sm_words *out);

#endif
