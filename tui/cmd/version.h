/* version.h - the program's version and the versions of the libraries it
 * runs with (--version, and the provenance a study directory records). */
#ifndef SM_VERSION_H
#define SM_VERSION_H

#include <stdio.h>

#ifndef SM_VERSION
#define SM_VERSION "0.0-unknown"
#endif

/* "stencilmap X.Y.Z". */
const char *sm_version_program(void);
/* One line: "Tcl 8.6.13, ncurses 6.4.20221231, cJSON 1.7.15, ..." with the
 * versions of the libraries loaded (not those compiled against), into buf. */
const char *sm_version_libraries(char *buf, size_t n);

#endif
