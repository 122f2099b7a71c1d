/* journal.h - no lost edit (SPEC 6): the workbench appends every change
 * of its session to a journal under ${XDG_STATE_HOME:-~/.local/state}/
 * stencilmap/, synced to disk, and removes it on a clean exit. After a
 * kill -9, SIGTERM or SIGHUP the journal stays, and `session recover`
 * rebuilds the session from it: the last snapshot of grid, machine and
 * model, then every complete group of mapping changes after it.
 *
 * Format (text, append-only):
 *     stencilmap-journal 1
 *     S <bytes>\n<scenario JSON>\n      a snapshot (first, and after any
 *                                       change of grid, machine or model)
 *     M <block> <proc>\n ...            mapping changes since the last group
 *     C <n>\n                           end of a group of n changes
 * A torn tail (a crash mid-write) is ignored: only complete groups count. */
#ifndef SM_JOURNAL_H
#define SM_JOURNAL_H

#include "core/io/scenario.h"
#include "session.h"

typedef struct sm_journal sm_journal;

/* The directory journals live in (created on open), newly allocated. */
char *sm_journal_dir(void);
/* A new journal for this process in dir (NULL: sm_journal_dir()). */
sm_journal *sm_journal_open(const char *dir, sm_err *e);
const char *sm_journal_path(const sm_journal *j);
/* Append what changed in s since the last sync. -1 on a write error. */
int sm_journal_sync(sm_journal *j, const sm_session *s, sm_err *e);
/* Close; remove_file after a clean exit (nothing to recover). */
void sm_journal_close(sm_journal *j, int remove_file);
/* The newest journal in dir left by a process that is no longer running,
 * or NULL. Newly allocated. */
char *sm_journal_find_orphan(const char *dir);
/* Rebuild the session a journal describes. */
int sm_journal_read(const char *path, sm_scenario *out, sm_err *e);

#endif
