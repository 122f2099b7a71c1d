/* processor_profile_csv_file.c - reading a processor type's measured
 * profile from CSV (processor_profile_csv_file.h): rows sorted by size,
 * errors naming the file, the line and the column. */
#include "processor_profile_csv_file.h"

#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

/* Orders row indices by size, then file order. */
static int cmp_row(const void *a, const void *b, void *ctx)
{
    const sm_profile_pt *rows = ctx;
    int i = *(const int *)a, j = *(const int *)b;
    int x = rows[i].blocks, y = rows[j].blocks;
    if (x != y) return (x > y) - (x < y);
    return (i > j) - (i < j);
}

/* Split a line at commas in place; returns the field count (at most max). */
static int split_csv(char *line, char **f, int max)
{
    int k = 0;
    char *p = line;
    while (k < max) {
        while (*p == ' ' || *p == '\t') p++;
        f[k++] = p;
        char *c = strchr(p, ',');
        char *end = c ? c : p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n')) end--;
        if (!c) { *end = 0; break; }
        *end = 0;
        p = c + 1;
        if (k == max) return max + 1;
    }
    return k;
}

int sm_profile_read_csv(const char *file, sm_profile_pt **out, int *n, sm_err *e)
{
    *out = NULL;
    *n = 0;
    size_t flen;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &flen, e); /* regular files only */
    if (!text) return -1;
    int rc = sm_profile_parse_csv(text, flen, file, out, n, e);
    free(text);
    return rc;
}

int sm_profile_parse_csv(const char *text, size_t flen, const char *file, sm_profile_pt **out,
                         int *n, sm_err *e)
{
    int no_energy = 0;
    if (sm_profile_parse_csv_opt(text, flen, file, out, n, &no_energy, e)) return -1;
    if (no_energy) {
        free(*out);
        *out = NULL;
        *n = 0;
        sm_err_set(e, "%s: the energy column is empty (measured without an energy counter); "
                      "expected blocks,time,energy with energy in joules", file);
        return -1;
    }
    return 0;
}

int sm_profile_parse_csv_opt(const char *text, size_t flen, const char *file, sm_profile_pt **out,
                             int *n, int *no_energy, sm_err *e)
{
    int empties = 0;
    *no_energy = 0;
    static const char *const names[3] = {"blocks", "time", "energy"};
    static const double hi[3] = {SM_MAX_PROCS * 64.0, SM_PROFILE_MAX_TIME, SM_PROFILE_MAX_ENERGY};
    *out = NULL;
    *n = 0;
    const char *cur = text, *endp = text + flen;
    int col[3] = {0, 1, 2}; /* field index of blocks, time, energy */
    int cap = 64, cnt = 0, lineno = 0, seen_data = 0;
    sm_profile_pt *v = sm_xmalloc(sizeof *v * (size_t)cap);
    int *lines = sm_xmalloc(sizeof(int) * (size_t)cap);
    char buf[4096];
    int rc = -1;
    while (cur < endp) {
        const char *nl = memchr(cur, '\n', (size_t)(endp - cur));
        size_t ll = nl ? (size_t)(nl - cur) : (size_t)(endp - cur);
        lineno++;
        if (ll >= sizeof buf - 1) {
            sm_err_set(e, "%s: line %d: longer than %d characters", file, lineno, (int)sizeof buf - 2);
            goto out;
        }
        memcpy(buf, cur, ll);
        buf[ll] = 0;
        cur = nl ? nl + 1 : endp;
        if (memchr(buf, 0, ll)) {
            sm_err_set(e, "%s: line %d: expected text, found a NUL byte", file, lineno);
            goto out;
        }
        char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '#' || *s == '\n' || *s == '\r' || !*s) continue;
        char *f[4];
        int nf = split_csv(s, f, 3);
        /* A header starts with a name; "-1,..." is a row with a bad number. */
        if (!seen_data && nf == 3 && isalpha((unsigned char)f[0][0])) {
            /* A header: the three names in some order. */
            for (int c = 0; c < 3; c++) {
                int found = -1;
                for (int k = 0; k < 3; k++)
                    if (strcmp(f[k], names[c]) == 0) found = k;
                if (found < 0) {
                    sm_err_set(e, "%s: line %d: expected a header naming blocks,time,energy, or numbers",
                               file, lineno);
                    goto out;
                }
                col[c] = found;
            }
            seen_data = 1;
            continue;
        }
        seen_data = 1;
        if (nf != 3) {
            sm_err_set(e, "%s: line %d: expected 3 columns (blocks,time,energy), got %d", file, lineno,
                       nf > 3 ? 4 : nf);
            goto out;
        }
        double val[3];
        for (int c = 0; c < 3; c++) {
            char *end;
            const char *txt = f[col[c]];
            if (c == 2 && !*txt) { /* not measured: every row or none */
                val[c] = 0;
                empties++;
                continue;
            }
            val[c] = strtod(txt, &end);
            if (!*txt || *end || !isfinite(val[c]) || val[c] < 0 || val[c] > hi[c] ||
                (c == 0 && val[c] != floor(val[c]))) {
                sm_err_set(e, "%s: line %d, column %d (%s): expected %s in [0, %.15g], got \"%s\"", file,
                           lineno, col[c] + 1, names[c],
                           c == 0 ? "a whole number of blocks" : "a number", hi[c], txt);
                goto out;
            }
        }
        /* Blocks computed in no time would make every energy that comes
         * of time (static, idle) meaningless, even negative. */
        if (val[0] > 0 && val[1] == 0) {
            sm_err_set(e, "%s: line %d: %d blocks in time 0: a profile's time must be above 0 "
                       "wherever blocks are above 0", file, lineno, (int)val[0]);
            goto out;
        }
        if (cnt == cap) {
            cap *= 2;
            v = sm_xrealloc(v, sizeof *v * (size_t)cap);
            lines = sm_xrealloc(lines, sizeof(int) * (size_t)cap);
        }
        if (cnt >= 1000000) {
            sm_err_set(e, "%s: line %d: more than 1000000 rows", file, lineno);
            goto out;
        }
        lines[cnt] = lineno;
        v[cnt++] = (sm_profile_pt){(int)val[0], val[1], val[2]};
    }
    if (cnt == 0) {
        sm_err_set(e, "%s: expected at least one row blocks,time,energy", file);
        goto out;
    }
    if (empties && empties != cnt) {
        sm_err_set(e, "%s: the energy column is empty on %d of %d rows; expected it on every row or none",
                   file, empties, cnt);
        goto out;
    }
    *no_energy = empties > 0;
    /* Sort by size, the file lines alongside, to name both duplicates. */
    int *ord = sm_xmalloc(sizeof(int) * (size_t)cnt);
    for (int i = 0; i < cnt; i++) ord[i] = i;
    sm_sort_r(ord, (size_t)cnt, sizeof(int), cmp_row, v);
    sm_profile_pt *sorted = sm_xmalloc(sizeof *v * (size_t)cnt);
    for (int i = 0; i < cnt; i++) sorted[i] = v[ord[i]];
    for (int i = 1; i < cnt; i++)
        if (sorted[i].blocks == sorted[i - 1].blocks) {
            sm_err_set(e, "%s: line %d: size %d was already given on line %d", file,
                       lines[ord[i]], sorted[i].blocks, lines[ord[i - 1]]);
            free(ord);
            free(sorted);
            goto out;
        }
    free(ord);
    free(v);
    v = sorted;
    *out = v;
    *n = cnt;
    v = NULL;
    rc = 0;
out:
    free(v);
    free(lines);
    return rc;
}
