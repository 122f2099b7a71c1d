/* mapping_file.c - mapping files: JSON and METIS/Scotch partition vectors. */
#include "mapping_file.h"
#include "core/lib/atomic_file_write.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"

int sm_mapping_parse_text(const char *text, size_t len, const char *name,
                          const sm_topo *t, int nblocks, int *map, sm_err *e)
{
    static const char *const keys[] = {"format", "version", "name", "comment",
                                       "blocks", "mapping", NULL};
    const char *mtext;
    size_t mlen;
    cJSON *j = sm_json_parse_lift(text, len, "mapping", &mtext, &mlen, e);
    int rc = -1;
    int *tmp = NULL;
    if (!j) goto out;
    if (sm_json_check_format(j, "stencilmap/mapping", e) ||
        sm_json_only_keys(j, "", keys, e))
        goto out;
    int64_t nb;
    int r = sm_json_integer(j, "", "blocks", 0, 0, SM_MAX_TASKS, &nb, e);
    if (r < 0) goto out;
    if (r == 1 && nb != nblocks) {
        sm_err_set(e, "blocks: expected %d (the grid's blocks), got %lld",
                   nblocks, (long long)nb);
        goto out;
    }
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "mapping");
    if (!m) {
        sm_err_set(e, "mapping: missing (required)");
        goto out;
    }
    tmp = sm_xmalloc(sizeof(int) * (size_t)(nblocks ? nblocks : 1));
    if (sm_mapping_read_member(m, mtext, mlen, "mapping", t, nblocks, tmp, e)) goto out;
    memcpy(map, tmp, sizeof(int) * (size_t)nblocks);
    rc = 0;
out:
    free(tmp);
    cJSON_Delete(j);
    if (rc) sm_err_prefix(e, "%s: ", name);
    return rc;
}

int sm_mapping_load(const char *file, const sm_topo *t, int nblocks, int *map,
                    sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, e);
    if (!text) return -1;
    int rc = sm_mapping_parse_text(text, len, file, t, nblocks, map, e);
    free(text);
    return rc;
}

int sm_mapping_save(const char *file, const sm_topo *t, const int *map,
                    int nblocks, sm_mapping_form form, sm_err *e)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/mapping");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON_AddNumberToObject(j, "blocks", nblocks);
    size_t vn, n;
    char *v = sm_mapping_value_text(t, map, nblocks, form, 1, &vn);
    char *s = sm_json_print_with(j, 1, "mapping", v, vn, &n);
    free(v);
    cJSON_Delete(j);
    int rc = sm_write_file_atomic(file, s, n, e);
    free(s);
    return rc;
}

/* The whole numbers of one line (at most 3), -1 on anything else. */
static int line_numbers(const char *s, const char *end, long v[3])
{
    int n = 0;
    while (s < end) {
        while (s < end && isspace((unsigned char)*s)) s++;
        if (s == end) break;
        if (n == 3 || !isdigit((unsigned char)*s)) return -1;
        long x = 0;
        for (; s < end && isdigit((unsigned char)*s); s++) {
            if (x > 100000000) return -1;
            x = x * 10 + (*s - '0');
        }
        if (s < end && !isspace((unsigned char)*s)) return -1;
        v[n++] = x;
    }
    return n;
}

/* Next data line (blank and '%' / '#' comment lines skipped) into
 * [*s, *end); 0 at the end of the text. */
static int next_line(const char *text, size_t len, size_t *i, int *line, const char **s,
                     const char **end)
{
    while (*i < len) {
        size_t a = *i;
        while (*i < len && text[*i] != '\n') (*i)++;
        size_t b = *i;
        if (*i < len) (*i)++;
        (*line)++;
        while (a < b && isspace((unsigned char)text[a])) a++;
        if (a == b || text[a] == '%' || text[a] == '#') continue;
        *s = text + a;
        *end = text + b;
        return 1;
    }
    return 0;
}

static int scotch_map(const char *text, size_t len, const char *name, int nprocs,
                      int nblocks, int *map, sm_err *e)
{
    size_t i = 0;
    int line = 0, count_line;
    const char *s, *end;
    long v[3];
    next_line(text, len, &i, &line, &s, &end);
    line_numbers(s, end, v);
    count_line = line;
    if (v[0] != nblocks) {
        sm_err_set(e, "%s: line %d: Scotch map of %ld vertices, expected the %d blocks", name,
                   count_line, v[0], nblocks);
        return -1;
    }
    long *vert = sm_xmalloc(sizeof(long) * (size_t)(nblocks ? nblocks : 1));
    int *part = sm_xmalloc(sizeof(int) * (size_t)(nblocks ? nblocks : 1));
    int n = 0, rc = -1;
    long lo = -1;
    while (next_line(text, len, &i, &line, &s, &end)) {
        if (line_numbers(s, end, v) != 2) {
            sm_err_set(e, "%s: line %d: expected \"vertex part\" (two whole numbers)", name, line);
            goto out;
        }
        if (n == nblocks) {
            sm_err_set(e, "%s: line %d: more lines than the %d vertices the first line says", name,
                       line, nblocks);
            goto out;
        }
        if (v[1] >= nprocs) {
            sm_err_set(e, "%s: line %d: part %ld, expected a processor index in [0, %d)", name, line,
                       v[1], nprocs);
            goto out;
        }
        vert[n] = v[0];
        part[n++] = (int)v[1];
        if (lo < 0 || v[0] < lo) lo = v[0];
    }
    if (n != nblocks) {
        sm_err_set(e, "%s: %d vertex lines, the first line says %d", name, n, nblocks);
        goto out;
    }
    /* Vertices from the graph's base value: 0 (ours) or 1. */
    long base = lo == 1 ? 1 : 0;
    char *seen = sm_xcalloc((size_t)(nblocks ? nblocks : 1), 1);
    for (int k = 0; k < n; k++) {
        long b = vert[k] - base;
        if (b < 0 || b >= nblocks || seen[b]) {
            sm_err_set(e, "%s: vertex %ld: %s", name, vert[k],
                       b < 0 || b >= nblocks ? "not a block of the grid" : "given twice");
            free(seen);
            goto out;
        }
        seen[b] = 1;
        map[b] = part[k];
    }
    free(seen);
    rc = 0;
out:
    free(vert);
    free(part);
    return rc;
}

int sm_part_parse_text(const char *text, size_t len, const char *name,
                       int nprocs, int nblocks, int *map, sm_err *e)
{
    {
        /* Scotch's .map: a count line, then two numbers a line. */
        size_t i = 0;
        int line = 0;
        const char *s, *end;
        long v[3];
        if (next_line(text, len, &i, &line, &s, &end) && line_numbers(s, end, v) == 1 &&
            next_line(text, len, &i, &line, &s, &end) && line_numbers(s, end, v) == 2) {
            int *tmp = sm_xmalloc(sizeof(int) * (size_t)(nblocks ? nblocks : 1));
            int rc = scotch_map(text, len, name, nprocs, nblocks, tmp, e);
            if (rc == 0) memcpy(map, tmp, sizeof(int) * (size_t)nblocks);
            free(tmp);
            return rc;
        }
    }
    int *tmp = sm_xmalloc(sizeof(int) * (size_t)(nblocks ? nblocks : 1));
    int n = 0, line = 1;
    size_t i = 0;
    while (i < len) {
        /* One integer per line; blank lines and '%' comments are skipped. */
        size_t s = i;
        while (i < len && text[i] != '\n') i++;
        size_t end = i;
        if (i < len) i++;
        while (s < end && isspace((unsigned char)text[s])) s++;
        while (end > s && isspace((unsigned char)text[end - 1])) end--;
        if (s == end || text[s] == '%') { line++; continue; }
        long v = 0;
        size_t k = s;
        for (; k < end && isdigit((unsigned char)text[k]) && v < 100000000; k++)
            v = v * 10 + (text[k] - '0');
        if (k != end || v >= nprocs) {
            sm_err_set(e, "%s: line %d: expected a processor index in [0, %d)",
                       name, line, nprocs);
            free(tmp);
            return -1;
        }
        if (n == nblocks) {
            sm_err_set(e, "%s: line %d: more lines than the %d blocks", name,
                       line, nblocks);
            free(tmp);
            return -1;
        }
        tmp[n++] = (int)v;
        line++;
    }
    if (n != nblocks) {
        sm_err_set(e, "%s: expected %d lines (one per block), got %d", name,
                   nblocks, n);
        free(tmp);
        return -1;
    }
    memcpy(map, tmp, sizeof(int) * (size_t)nblocks);
    free(tmp);
    return 0;
}

int sm_part_load(const char *file, int nprocs, int nblocks, int *map,
                 sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, e);
    if (!text) return -1;
    int rc = sm_part_parse_text(text, len, file, nprocs, nblocks, map, e);
    free(text);
    return rc;
}

int sm_part_save(const char *file, const int *map, int nblocks, sm_err *e)
{
    size_t cap = (size_t)nblocks * 8 + 16, n = 0;
    char *s = sm_xmalloc(cap);
    for (int i = 0; i < nblocks; i++)
        n += (size_t)snprintf(s + n, cap - n, "%d\n", map[i]);
    int rc = sm_write_file_atomic(file, s, n, e);
    free(s);
    return rc;
}
