/* colour_theme.c - reading themes/NAME.json and the colour arithmetic behind the
 * 8-colour fallback. */
#include "colour_theme.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "installed_data_directory.h"

const char *const sm_element_keys[SM_EL_COUNT] = {
#define X(id, key, help) key,
    SM_ELEMENTS(X)
#undef X
};

static const char *const basic[8] = {"black", "red", "green", "yellow",
                                     "blue", "magenta", "cyan", "white"};

/* xterm's default 16 colours. */
static const int ansi16[16][3] = {
    {0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205},
    {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0}, {0, 255, 0},
    {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255}};

void sm_color_rgb(int c, int rgb[3])
{
    if (c < 0) c = 0;
    if (c < 16) {
        memcpy(rgb, ansi16[c], sizeof ansi16[c]);
    } else if (c < 232) {
        static const int lvl[6] = {0, 95, 135, 175, 215, 255};
        c -= 16;
        rgb[0] = lvl[c / 36];
        rgb[1] = lvl[(c / 6) % 6];
        rgb[2] = lvl[c % 6];
    } else {
        int g = 8 + 10 * (c - 232);
        rgb[0] = rgb[1] = rgb[2] = g;
    }
}

/* Nearest basic colour by hue class rather than raw distance: on an
 * 8-colour terminal a dark orange should stay "yellow", not "black". */
int sm_color_nearest8(int c)
{
    if (c < 0) return -1;
    if (c < 8) return c;
    if (c < 16) return c - 8;
    int rgb[3];
    sm_color_rgb(c, rgb);
    int mx = rgb[0], mn = rgb[0];
    for (int i = 1; i < 3; i++) {
        if (rgb[i] > mx) mx = rgb[i];
        if (rgb[i] < mn) mn = rgb[i];
    }
    if (mx - mn < 40) return mx < 100 ? 0 : 7;   /* greys */
    int bits = 0;
    for (int i = 0; i < 3; i++)
        if (rgb[i] * 2 >= mx + mn && rgb[i] > mn) bits |= 1 << i;
    if (bits == 0) bits = 7;
    return bits;   /* red=1, green=2, yellow=3, blue=4, magenta=5, cyan=6 */
}

int sm_color_contrast(int c)
{
    int rgb[3];
    sm_color_rgb(c < 0 ? 0 : c, rgb);
    int lum = (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2]) / 1000;
    return lum > 140 ? 0 : 15;
}

int sm_color_for(int c, int colours)
{
    if (c < 0) return -1;
    if (colours >= 256) return c;
    if (colours >= 16 && c < 16) return c;
    return sm_color_nearest8(c);
}

/* Squared RGB distance under which two colours read as one in a block. */
#define SM_NEAR_RGB2 (80 * 80)

static int looks_like(int a, int b, int colours)
{
    if (a < 0 || b < 0) return a == b;
    if (colours < 256) return a == b;   /* both already mapped to few colours */
    int x[3], y[3];
    sm_color_rgb(a, x);
    sm_color_rgb(b, y);
    int d = 0;
    for (int i = 0; i < 3; i++) d += (x[i] - y[i]) * (x[i] - y[i]);
    return d < SM_NEAR_RGB2;
}

int sm_theme_palette(const sm_theme *t, int colours, short *out)
{
    /* The blocks' own colours must never be mistaken for the cursor or
     * the highlighted pair / last move. */
    int marks[2] = {sm_color_for(t->el[SM_EL_CURSOR].bg, colours),
                    sm_color_for(t->el[SM_EL_HIGHLIGHT].bg, colours)};
    int n = 0;
    for (int i = 0; i < t->nproc && n < SM_THEME_MAX_PROCS; i++) {
        int c = sm_color_for(t->proc[i], colours);
        int keep = c >= 0;
        for (int m = 0; m < 2 && keep; m++) keep = !looks_like(c, marks[m], colours);
        for (int j = 0; j < n && keep; j++) keep = c != out[j];   /* the designer's palette: only exact repeats go */
        if (keep) out[n++] = (short)c;
    }
    /* A palette of fine shades can collapse to two or three of the basic
     * colours: the other basic colours (never black or white, the usual
     * backgrounds) fill in. */
    static const short basic[] = {4, 1, 2, 5, 6, 3};
    for (int i = 0; colours < 256 && i < 6 && n < SM_THEME_MAX_PROCS; i++) {
        int keep = basic[i] != marks[0] && basic[i] != marks[1];
        for (int j = 0; j < n && keep; j++) keep = basic[i] != out[j];
        if (keep) out[n++] = basic[i];
    }
    if (n == 0) out[n++] = (short)sm_color_for(t->proc[0], colours);
    return n;
}

int sm_color_parse(const char *s, short *out)
{
    if (strcmp(s, "default") == 0) { *out = -1; return 0; }
    for (int i = 0; i < 8; i++) {
        if (strcmp(s, basic[i]) == 0) { *out = (short)i; return 0; }
        if (strncmp(s, "bright-", 7) == 0 && strcmp(s + 7, basic[i]) == 0) {
            *out = (short)(i + 8);
            return 0;
        }
    }
    if (s[0] == '#' && strlen(s) == 7) {
        char *end;
        long v = strtol(s + 1, &end, 16);
        if (*end) return -1;
        int r = (int)(v >> 16) & 255, g = (int)(v >> 8) & 255, b = (int)v & 255;
        /* Nearest entry of the 6x6x6 cube or the grey ramp. */
        int best = 16, bestd = 1 << 30;
        for (int c = 16; c < 256; c++) {
            int rgb[3];
            sm_color_rgb(c, rgb);
            int d = (rgb[0] - r) * (rgb[0] - r) + (rgb[1] - g) * (rgb[1] - g) + (rgb[2] - b) * (rgb[2] - b);
            if (d < bestd) { bestd = d; best = c; }
        }
        *out = (short)best;
        return 0;
    }
    char *end;
    long v = strtol(s, &end, 10);
    if (*s && !*end && v >= 0 && v <= 255) { *out = (short)v; return 0; }
    return -1;
}

static int color_item(const cJSON *j, const char *path, short *out, sm_err *e)
{
    if (cJSON_IsNumber(j)) {
        int64_t c;
        if (sm_json_whole(j, 0, 255, &c)) {
            sm_err_set(e, "%s: expected a colour number 0-255, got %g", path,
                       j->valuedouble);
            return -1;
        }
        *out = (short)c;
        return 0;
    }
    if (!cJSON_IsString(j) || sm_color_parse(j->valuestring, out)) {
        sm_err_set(e, "%s: expected a colour (a name such as \"red\" or \"bright-blue\", "
                   "\"default\", \"#rrggbb\" or 0-255)", path);
        return -1;
    }
    return 0;
}

static int style_item(const cJSON *j, const char *path, sm_style *st, sm_err *e)
{
    static const char *const keys[] = {"fg", "bg", "attrs", NULL};
    if (sm_json_expect_object(j, path, e) || sm_json_only_keys(j, path, keys, e)) return -1;
    char p[256];
    const cJSON *c;
    if ((c = cJSON_GetObjectItemCaseSensitive(j, "fg")) &&
        color_item(c, sm_jpath_key(p, sizeof p, path, "fg"), &st->fg, e))
        return -1;
    if ((c = cJSON_GetObjectItemCaseSensitive(j, "bg")) &&
        color_item(c, sm_jpath_key(p, sizeof p, path, "bg"), &st->bg, e))
        return -1;
    if ((c = cJSON_GetObjectItemCaseSensitive(j, "attrs"))) {
        static const char *const names[] = {"bold", "underline", "reverse", "dim"};
        st->attrs = 0;
        if (!cJSON_IsArray(c)) {
            sm_err_set(e, "%s: expected an array of bold|underline|reverse|dim",
                       sm_jpath_key(p, sizeof p, path, "attrs"));
            return -1;
        }
        int i = 0;
        const cJSON *a;
        cJSON_ArrayForEach(a, c) {
            int k = 0;
            while (k < 4 && !(cJSON_IsString(a) && strcmp(a->valuestring, names[k]) == 0)) k++;
            if (k == 4) {
                char q[256];
                sm_jpath_idx(q, sizeof q, sm_jpath_key(p, sizeof p, path, "attrs"), i);
                sm_err_set(e, "%s: expected bold, underline, reverse or dim", q);
                return -1;
            }
            st->attrs |= 1 << k;
            i++;
        }
    }
    return 0;
}

void sm_theme_builtin(sm_theme *t)
{
    sm_err e;
    if (sm_theme_parse(sm_default_theme, strlen(sm_default_theme), "(built-in theme)", t, &e)) {
        /* Only reachable if themes/default.json is broken at build time;
         * the tests load it, so keep a plain monochrome theme. */
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "plain");
        for (int i = 0; i < SM_EL_COUNT; i++) t->el[i].fg = t->el[i].bg = -1;
        t->nproc = 8;
        for (int i = 0; i < 8; i++) t->proc[i] = (short)i;
        t->nheat = 3;
        t->heat[0] = 2, t->heat[1] = 3, t->heat[2] = 1;
    }
}

int sm_theme_parse(const char *text, size_t len, const char *file, sm_theme *out, sm_err *e)
{
    cJSON *root = sm_json_parse(text, len, e);
    if (!root) {
        sm_err_prefix(e, "%s: ", file);
        return -1;
    }
    static const char *const keys[] = {"format", "version", "name", "description",
                                       "elements", "processors", "heat", NULL};
    sm_theme t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < SM_EL_COUNT; i++) t.el[i].fg = t.el[i].bg = -1;
    int rc = -1;
    const char *name = NULL;
    if (sm_json_check_format(root, "stencilmap/theme", e) || sm_json_only_keys(root, "", keys, e) ||
        sm_json_string(root, "", "name", 1, &name, e) < 0)
        goto out;
    snprintf(t.name, sizeof t.name, "%s", name);
    const cJSON *els = cJSON_GetObjectItemCaseSensitive(root, "elements");
    if (!els) {
        sm_err_set(e, "elements: expected an object of colour elements");
        goto out;
    }
    if (sm_json_expect_object(els, "elements", e)) goto out;
    const cJSON *it;
    cJSON_ArrayForEach(it, els) {
        int k = 0;
        while (k < SM_EL_COUNT && strcmp(sm_element_keys[k], it->string) != 0) k++;
        char p[256];
        sm_jpath_key(p, sizeof p, "elements", it->string);
        if (k == SM_EL_COUNT) {
            sm_err_set(e, "%s: unknown colour element (see stencilmap(1), THEMES)", p);
            goto out;
        }
        if (style_item(it, p, &t.el[k], e)) goto out;
    }
    const cJSON *procs = cJSON_GetObjectItemCaseSensitive(root, "processors");
    if (!cJSON_IsArray(procs) || cJSON_GetArraySize(procs) < 8 ||
        cJSON_GetArraySize(procs) > SM_THEME_MAX_PROCS) {
        sm_err_set(e, "processors: expected an array of 8 to %d colours", SM_THEME_MAX_PROCS);
        goto out;
    }
    cJSON_ArrayForEach(it, procs) {
        char p[64];
        if (color_item(it, sm_jpath_idx(p, sizeof p, "processors", t.nproc), &t.proc[t.nproc], e))
            goto out;
        t.nproc++;
    }
    /* The load ramp is optional: themes written before it get one. */
    static const short heat_default[] = {22, 28, 70, 142, 178, 208, 202, 196, 160};
    const cJSON *heat = cJSON_GetObjectItemCaseSensitive(root, "heat");
    if (!heat) {
        t.nheat = SM_THEME_MAX_HEAT;
        memcpy(t.heat, heat_default, sizeof heat_default);
    } else if (!cJSON_IsArray(heat) || cJSON_GetArraySize(heat) < 2 || cJSON_GetArraySize(heat) > SM_THEME_MAX_HEAT) {
        sm_err_set(e, "heat: expected an array of 2 to %d colours, coolest first", SM_THEME_MAX_HEAT);
        goto out;
    } else {
        cJSON_ArrayForEach(it, heat) {
            char p[64];
            if (color_item(it, sm_jpath_idx(p, sizeof p, "heat", t.nheat), &t.heat[t.nheat], e)) goto out;
            t.nheat++;
        }
    }
    *out = t;
    rc = 0;
out:
    if (rc) sm_err_prefix(e, "%s: ", file);
    cJSON_Delete(root);
    return rc;
}

/* Where themes are looked for, first found wins: $STENCILMAP_THEMES; the
 * user's ($XDG_DATA_HOME, default ~/.local/share, /stencilmap/themes);
 * ./themes; the data directory found at run time (installed_data_directory.h: beside the
 * program, a source tree or an install under any prefix); then
 * $XDG_DATA_DIRS (default /usr/local/share:/usr/share), each
 * /stencilmap/themes. So `t` finds the shipped themes, and the user's,
 * whatever the current directory. */
#define MAX_DIRS 16
static int ndirs = -1;
static char dirs[MAX_DIRS][1024];

static void add_dir(const char *fmt, const char *a, const char *b)
{
    if (ndirs >= MAX_DIRS || !a || !*a) return;
    char d[1024];
    snprintf(d, sizeof d, fmt, a, b ? b : "");
    for (int i = 0; i < ndirs; i++)
        if (strcmp(dirs[i], d) == 0) return;
    snprintf(dirs[ndirs++], sizeof dirs[0], "%s", d);
}

static void find_dirs(void)
{
    ndirs = 0;
    add_dir("%s%s", getenv("STENCILMAP_THEMES"), NULL);
    const char *xdh = getenv("XDG_DATA_HOME");
    if (xdh && *xdh == '/') add_dir("%s%s/stencilmap/themes", xdh, NULL);
    else add_dir("%s%s/.local/share/stencilmap/themes", getenv("HOME"), NULL);
    add_dir("%s%s", "themes", NULL);
    add_dir("%s%s/themes", sm_datadir(), NULL);
    const char *xdd = getenv("XDG_DATA_DIRS");
    char list[2048];
    snprintf(list, sizeof list, "%s", xdd && *xdd ? xdd : "/usr/local/share:/usr/share");
    for (char *save = NULL, *d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save))
        if (*d == '/') add_dir("%s%s/stencilmap/themes", d, NULL);
}

static const char *search_dirs(int i)
{
    if (ndirs < 0) find_dirs();
    return i < ndirs ? dirs[i] : NULL;
}

const char *sm_theme_dir(int i) { return search_dirs(i); }

static int load_file(const char *path, sm_theme *t, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(path, 1 << 20, &len, e);
    if (!text) return -1;
    int rc = sm_theme_parse(text, len, path, t, e);
    free(text);
    return rc;
}

int sm_theme_load(const char *name, sm_theme *t, sm_err *e)
{
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 5 && strcmp(name + n - 5, ".json") == 0))
        return load_file(name, t, e);
    for (const char *c = name; *c; c++)
        if (!(*c == '-' || *c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9'))) {
            sm_err_set(e, "theme \"%s\": expected a theme name or a path to a .json file", name);
            return -1;
        }
    for (int i = 0; search_dirs(i); i++) {
        const char *d = search_dirs(i);
        if (!*d) continue;
        char path[1400];
        snprintf(path, sizeof path, "%.1023s/%.300s.json", d, name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        fclose(f);
        /* Found by name in the program's own search path: not a file a
         * (safe) script named, so the path guard does not apply. */
        sm_path_guard_suspend();
        int rc = load_file(path, t, e);
        sm_path_guard_resume();
        return rc;
    }
    if (strcmp(name, "default") == 0) {
        sm_theme_builtin(t);
        return 0;
    }
    char where[1024] = "";
    for (int i = 0; search_dirs(i); i++) {
        size_t l = strlen(where);
        snprintf(where + l, sizeof where - l, "%s%.200s", l ? ", " : "", search_dirs(i));
    }
    sm_err_set(e, "theme \"%s\": not found in %s", name, where);
    return -1;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **sm_theme_list(int *n)
{
    char **out = sm_xmalloc(sizeof *out * 8);
    int cap = 8;
    out[0] = sm_xstrdup("default");   /* always there: it is built in */
    *n = 1;
    for (int i = 0; search_dirs(i); i++) {
        const char *d = search_dirs(i);
        DIR *dir = *d ? opendir(d) : NULL;
        if (!dir) continue;
        struct dirent *de;
        while ((de = readdir(dir))) {
            size_t len = strlen(de->d_name);
            if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
            int dup = 0;
            for (int k = 0; k < *n; k++) dup |= strcmp(out[k], name) == 0;
            if (dup) continue;
            if (*n == cap) out = sm_xrealloc(out, sizeof *out * (size_t)(cap = cap ? 2 * cap : 8));
            out[(*n)++] = sm_xstrdup(name);
        }
        closedir(dir);
    }
    qsort(out, (size_t)*n, sizeof *out, name_cmp);
    return out;
}
