/* crash_recovery_journal.h - no lost edit (SPEC 6): the workbench appends every change
 * of its session to a journal under ${XDG_STATE_HOME:-~/.local/state}/
 * stencilmap/, synced to disk, and removes it on a clean exit. After a
 * kill -9, SIGTERM or SIGHUP the journal stays, and `session recover`
 * rebuilds the session from it: the last snapshot of grid, machine and
 * model, then every complete group of mapping changes after it.
 *
 * Journals behave like an editor's swap files: each belongs to one
 * scenario file (the F record; empty for the built-in default) and holds
 * an exclusive flock(2) while its workbench runs, so "live" is what the
 * kernel says (a killed process drops its lock; a reused pid means
 * nothing). Nothing here deletes a live journal.
 *
 * Format (text, append-only):
 *     stencilmap-journal 2
 *     F <bytes>\n<scenario path>\n      the scenario file the session is
 *                                       (first, and after a load or save as)
 *     D <parts>\n                       SM_PART_* not saved to disk (after
 *                                       every change of it)
 *     S <bytes>\n<scenario JSON>\n      a snapshot (first, and after any
 *                                       change of grid, machine or model)
 *     M <block> <proc>\n ...            mapping changes since the last group
 *     C <n>\n                           end of a group of n changes
 * A torn tail (a crash mid-write) is ignored: only complete groups count.
 * Version 1 journals (no F, no D, no lock) are still read. */
#ifndef SM_CRASH_RECOVERY_JOURNAL_H
#define SM_CRASH_RECOVERY_JOURNAL_H

#include <time.h>
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "session_edits_undo_redo.h"

typedef struct sm_journal sm_journal;

/* The directory journals live in (created on open), newly allocated. */
char *sm_journal_dir(void);
/* The name a scenario file goes by in journals: its resolved absolute
 * path, "" for none (the built-in default). Newly allocated. */
char *sm_journal_key(const char *scenario_file);
/* A new journal in dir (NULL: sm_journal_dir()) for a session of the
 * scenario file given (NULL: the built-in default), locked until closed. */
sm_journal *sm_journal_open(const char *dir, const char *scenario_file, sm_err *e);
/* Take over a stopped workbench's journal: locked (refused while its
 * workbench runs), and the session goes on in it. */
sm_journal *sm_journal_adopt(const char *path, sm_err *e);
const char *sm_journal_path(const sm_journal *j);
/* The session is now the scenario file given (loaded or saved as). */
int sm_journal_set_scenario(sm_journal *j, const char *scenario_file, sm_err *e);
/* Append what changed in s since the last sync. -1 on a write error. */
int sm_journal_sync(sm_journal *j, const sm_session *s, sm_err *e);
/* Close (dropping the lock); remove_file after a clean exit or once its
 * work is saved or discarded. */
void sm_journal_close(sm_journal *j, int remove_file);

/* What a journal on disk holds, as listed. */
typedef struct sm_journal_info {
    char *path;
    char *scenario;   /* resolved path, "" for the built-in default */
    int live;         /* its workbench still runs (holds the lock) */
    unsigned unsaved; /* SM_PART_* its session had not saved */
    long long bytes;
    time_t modified;
} sm_journal_info;

/* Every journal in dir (NULL: sm_journal_dir()), newest first. */
int sm_journal_list(const char *dir, sm_journal_info **out);
void sm_journal_list_free(sm_journal_info *v, int n);
/* Remove a journal whose workbench is gone; a live one is refused. */
int sm_journal_discard(const char *path, sm_err *e);

/* Rebuild the session a journal describes; *scenario (when not NULL)
 * gets its scenario file ("" for the default or unknown), *unsaved its
 * unsaved parts (all of them for a version 1 journal). */
int sm_journal_read(const char *path, sm_scenario *out, char **scenario, unsigned *unsaved,
                    sm_err *e);
/* The same from text already read (name for errors). */
int sm_journal_parse(char *text, size_t len, const char *name, sm_scenario *out,
                     char **scenario, unsigned *unsaved, sm_err *e);

#endif
