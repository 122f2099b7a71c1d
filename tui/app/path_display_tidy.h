/* path_display_tidy.h - file names as the workbench shows and offers them: a path
 * tidied for the status line, and whether a file is one the program
 * ships (a sample, which `w` must not offer to overwrite). No curses and
 * no Tcl. */
#ifndef SM_PATH_DISPLAY_TIDY_H
#define SM_PATH_DISPLAY_TIDY_H

#include <stddef.h>

/* path as typed when it is already plain; with "." or ".." parts or
 * doubled slashes, the file it names relative to the current directory
 * when it is below it, else absolute ("scripts/../samples/x.json" ->
 * "samples/x.json"). Caller frees. */
char *sm_path_tidy(const char *path);
/* Is path a file the program ships: below samples/ of the data directory
 * found at run time (installed_data_directory.h: a source tree, an install), or of the one
 * compiled in? */
int sm_path_shipped(const char *path);
/* Where `w` offers to save what was loaded from path: path itself, or
 * for a shipped sample its name in the current directory (NAME-2.json
 * and so on when that exists), into out. */
void sm_path_save_offer(const char *path, char *out, size_t n);

#endif
