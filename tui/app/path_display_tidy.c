/* path_display_tidy.c - tidy paths for display and the shipped-sample check. */
#include "path_display_tidy.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/lib/util.h"
#include "installed_data_directory.h"

#ifndef SM_DATADIR
#define SM_DATADIR "/usr/local/share/stencilmap"
#endif

static int plain(const char *p)
{
    if (strstr(p, "//")) return 0;
    for (const char *s = p; *s; s = strchr(s, '/') ? strchr(s, '/') + 1 : s + strlen(s)) {
        size_t len = strcspn(s, "/");
        if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) return 0;
        if (!s[len]) break;
    }
    return 1;
}

/* dir/ is a prefix of path (both resolved). */
static const char *below(const char *path, const char *dir)
{
    size_t l = strlen(dir);
    if (l == 0 || strncmp(path, dir, l) != 0) return NULL;
    if (dir[l - 1] == '/') return path + l;
    return path[l] == '/' ? path + l + 1 : NULL;
}

char *sm_path_tidy(const char *path)
{
    if (plain(path)) return sm_xstrdup(path);
    char real[PATH_MAX], cwd[PATH_MAX];
    if (!realpath(path, real)) return sm_xstrdup(path);
    const char *rel = getcwd(cwd, sizeof cwd) ? below(real, cwd) : NULL;
    return sm_xstrdup(rel && *rel ? rel : real);
}

int sm_path_shipped(const char *path)
{
    char real[PATH_MAX], dir[PATH_MAX + 64], rdir[PATH_MAX];
    if (!realpath(path, real)) return 0;
    const char *bases[] = {sm_datadir(), SM_DATADIR, NULL};
    for (int i = 0; bases[i]; i++) {
        if (!*bases[i]) continue;
        snprintf(dir, sizeof dir, "%s/samples", bases[i]);
        if (realpath(dir, rdir) && below(real, rdir)) return 1;
    }
    return 0;
}

void sm_path_save_offer(const char *path, char *out, size_t n)
{
    if (!sm_path_shipped(path)) {
        snprintf(out, n, "%s", path);
        return;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t stem = strlen(base);
    if (stem > 5 && strcmp(base + stem - 5, ".json") == 0) stem -= 5;
    snprintf(out, n, "%.*s.json", (int)stem, base);
    /* Never the sample itself (the current directory may be samples/), nor
     * a file that is there already. */
    for (int k = 2; (access(out, F_OK) == 0 || sm_path_shipped(out)) && k < 1000; k++)
        snprintf(out, n, "%.*s-%d.json", (int)stem, base, k);
}
