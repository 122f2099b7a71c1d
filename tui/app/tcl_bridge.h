/* tcl_bridge.h - how the TUI runs Tcl without including tcl.h: evaluate a
 * command line (logged to the console as the command it ran), and
 * complete the word being typed. */
#ifndef SM_TCL_BRIDGE_H
#define SM_TCL_BRIDGE_H

#include "app.h"
#include "command_word_list.h"

enum {
    SM_SHELL_ECHO = 1,     /* log the command before running it */
    SM_SHELL_RESULT = 2,   /* log a non-empty result */
    SM_SHELL_HISTORY = 4,  /* add it to the console history */
    SM_SHELL_SAFE = 8      /* run it in the safe interpreter (a binding a safe script made) */
};

/* Runs script in the global scope; errors are always logged. Returns 0,
 * or -1 on error. Under -safe (and inside a command a safe script
 * called, such as screen keys) every evaluation here runs in the safe
 * interpreter. */
int sm_shell_eval(sm_app *app, const char *script, int flags);
/* Runs a command given as words: each word is one element of a Tcl list,
 * evaluated as that list (never re-parsed), and echoed as the list's text.
 * This is how every key and click runs its command. */
int sm_shell_run(sm_app *app, const sm_words *cmd, int flags);
/* The last result or error message. */
const char *sm_shell_result(sm_app *app);
/* Candidates for the word that ends line: command names, subcommands,
 * then processor, solver, option or theme names as the command takes
 * them. *start is where that word begins. Caller frees with
 * sm_shell_free_list. Each candidate is quoted as one Tcl word (a name
 * that holds braces, brackets or spaces never goes in as code). */
char **sm_shell_complete(sm_app *app, const char *line, int *n, int *start);
void sm_shell_free_list(char **l, int n);

#endif
