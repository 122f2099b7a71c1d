/* installed_data_directory.h - where the installed data (themes, samples, scripts) is,
 * decided when the program runs, not when it was compiled: a binary built
 * with one PREFIX and installed under another still finds its data. */
#ifndef SM_INSTALLED_DATA_DIRECTORY_H
#define SM_INSTALLED_DATA_DIRECTORY_H

/* In order: $STENCILMAP_DATADIR; BINDIR/../share/stencilmap next to the
 * running program (an installed tree, whatever its prefix); the program's
 * directory, or one up to two levels above it, when it holds themes/ and
 * samples/ (a build in the source tree, build/san/ included); else the
 * directory compiled in (SM_DATADIR). */
const char *sm_datadir(void);

/* A relative path that does not exist here but does below the data
 * directory (as given, or under samples/): that path, newly allocated;
 * else NULL. So `stencilmap summit-like.json` or
 * `scenario load samples/cuboid-cpu-gpu.json` work from any directory. */
char *sm_datadir_find(const char *path);

#endif
