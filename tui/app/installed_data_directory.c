/* installed_data_directory.c - the data directory, found at run time. */
#include "installed_data_directory.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/lib/util.h"

#ifndef SM_DATADIR
#define SM_DATADIR "/usr/local/share/stencilmap"
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has(const char *dir, const char *sub)
{
    char p[2 * PATH_MAX + 128];
    snprintf(p, sizeof p, "%s/%s", dir, sub);
    return is_dir(p);
}

const char *sm_datadir(void)
{
    static char found[PATH_MAX + 64];
    static int done;
    if (done) return found;
    done = 1;
    const char *env = getenv("STENCILMAP_DATADIR");
    if (env && *env) {
        snprintf(found, sizeof found, "%s", env);
        return found;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char cand[PATH_MAX + 64];
            snprintf(cand, sizeof cand, "%s/../share/stencilmap", exe);
            char real[PATH_MAX];
            if (has(cand, "themes") || has(cand, "samples")) {
                snprintf(found, sizeof found, "%s", realpath(cand, real) ? real : cand);
                return found;
            }
            /* A build in the source tree: the program in it or in build/... */
            for (int up = 0; up < 3; up++) {
                if (has(exe, "themes") && has(exe, "samples")) {
                    snprintf(found, sizeof found, "%s", exe);
                    return found;
                }
                char *s = strrchr(exe, '/');
                if (!s || s == exe) break;
                *s = '\0';
            }
        }
    }
    snprintf(found, sizeof found, "%s", SM_DATADIR);
    return found;
}

char *sm_datadir_find(const char *path)
{
    if (!*path || path[0] == '/' || strcmp(path, "-") == 0 || access(path, F_OK) == 0) return NULL;
    static const char *const under[] = {"", "samples/", NULL};
    for (int i = 0; under[i]; i++) {
        size_t len = strlen(sm_datadir()) + strlen(under[i]) + strlen(path) + 2;
        char *p = sm_xmalloc(len);
        snprintf(p, len, "%s/%s%s", sm_datadir(), under[i], path);
        if (access(p, R_OK) == 0) return p;
        free(p);
    }
    return NULL;
}
