/* mapping_value_text.c - a mapping value's text, plain or compact (see
 * mapping_value_text.h). */
#include "mapping_value_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/lib/base64.h"
#include "core/model/grid.h"
#include "core/lib/jsonutil.h"

/* ---- names ------------------------------------------------------------ */

/* Processor indices in name order (ties by index): a name is found in
 * log P steps. */
static int by_name(const void *a, const void *b, void *ctx)
{
    const sm_topo *t = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(t->procs[x].name, t->procs[y].name);
    return c ? c : (x > y) - (x < y);
}

/* name against the n bytes at s, as strcmp would order them. */
static int cmp_span(const char *name, const char *s, size_t n)
{
    int c = strncmp(name, s, n);
    return c ? c : name[n] != '\0';
}

/* The first processor named by the n bytes at s, or -1. */
static int find_span(const sm_topo *t, const int *order, const char *s, size_t n)
{
    int lo = 0, hi = t->nprocs;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cmp_span(t->procs[order[mid]].name, s, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->nprocs && cmp_span(t->procs[order[lo]].name, s, n) == 0 ? order[lo] : -1;
}

/* ---- plain: [name or index, ...] -------------------------------------- */

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

typedef struct {
    const char *s, *end;
    const char *path;
    const sm_topo *t;
    int *order;
    int last; /* the processor of the last name: neighbours mostly share it */
    sm_err *e;
} reader;

static const char *entry_path(const reader *r, int i, char *buf, size_t n)
{
    return sm_jpath_idx(buf, n, r->path, i);
}

/* One entry at r->s: a string (a name) or a number (an index). */
static int read_entry(reader *r, int i, int *q)
{
    char p[600];
    const char *s = r->s;
    if (*s == '"') {
        const char *a = s + 1, *b = a;
        int escaped = 0;
        while (b < r->end && *b != '"') {
            if (*b == '\\') {
                escaped = 1;
                b++;
            }
            b++;
        }
        if (b >= r->end) {
            sm_err_set(r->e, "%s: malformed JSON: a string that does not end", entry_path(r, i, p, sizeof p));
            return -1;
        }
        r->s = b + 1;
        if (!escaped) {
            size_t n = (size_t)(b - a);
            if (r->last >= 0 && cmp_span(r->t->procs[r->last].name, a, n) == 0) {
                *q = r->last;
                return 0;
            }
            *q = find_span(r->t, r->order, a, n);
            if (*q < 0) {
                sm_err_set(r->e, "%s: unknown processor \"%.*s\"", entry_path(r, i, p, sizeof p),
                           n > 200 ? 200 : (int)n, a);
                return -1;
            }
            r->last = *q;
            return 0;
        }
        /* Escapes: cJSON decodes the one string. */
        cJSON *str = cJSON_ParseWithLength(s, (size_t)(b + 1 - s));
        if (!cJSON_IsString(str)) {
            cJSON_Delete(str);
            sm_err_set(r->e, "%s: malformed JSON string", entry_path(r, i, p, sizeof p));
            return -1;
        }
        *q = sm_topo_find_proc(r->t, str->valuestring);
        if (*q < 0)
            sm_err_set(r->e, "%s: unknown processor \"%.200s\"", entry_path(r, i, p, sizeof p),
                       str->valuestring);
        cJSON_Delete(str);
        return *q < 0 ? -1 : 0;
    }
    const char *b = s;
    while (b < r->end && *b && strchr("0123456789+-.eE", *b)) b++;
    if (b == s) {
        sm_err_set(r->e, "%s: expected a processor name or index", entry_path(r, i, p, sizeof p));
        return -1;
    }
    r->s = b;
    int64_t v = 0;
    int plain = 1;
    for (const char *c = s; c < b; c++)
        if (*c < '0' || *c > '9' || c - s > 9) plain = 0;
    if (plain) {
        for (const char *c = s; c < b; c++) v = v * 10 + (*c - '0');
        if (v < r->t->nprocs) {
            *q = (int)v;
            return 0;
        }
    }
    cJSON *num = cJSON_ParseWithLength(s, (size_t)(b - s));
    int ok = cJSON_IsNumber(num) && sm_json_whole(num, 0, r->t->nprocs - 1, &v) == 0;
    if (!ok)
        sm_err_set(r->e, "%s: expected a processor index in [0, %d), got %.*s",
                   entry_path(r, i, p, sizeof p), r->t->nprocs, b - s > 40 ? 40 : (int)(b - s), s);
    cJSON_Delete(num);
    if (!ok) return -1;
    *q = (int)v;
    return 0;
}

static int parse_plain(reader *r, int nblocks, int *map)
{
    char p[600];
    r->s++; /* '[' */
    int i = 0;
    while (r->s < r->end && is_ws(*r->s)) r->s++;
    if (r->s < r->end && *r->s == ']') r->s++;
    else
        for (;;) {
            while (r->s < r->end && is_ws(*r->s)) r->s++;
            if (r->s >= r->end) {
                sm_err_set(r->e, "%s: malformed JSON: the array does not end", entry_path(r, i, p, sizeof p));
                return -1;
            }
            int q;
            if (read_entry(r, i, &q)) return -1;
            if (i < nblocks) map[i] = q;
            i++;
            while (r->s < r->end && is_ws(*r->s)) r->s++;
            if (r->s < r->end && *r->s == ',') {
                r->s++;
                continue;
            }
            if (r->s < r->end && *r->s == ']') {
                r->s++;
                break;
            }
            sm_err_set(r->e, "%s: malformed JSON: expected ',' or ']' after the entry",
                       entry_path(r, i - 1, p, sizeof p));
            return -1;
        }
    while (r->s < r->end && is_ws(*r->s)) r->s++;
    if (r->s != r->end) {
        sm_err_set(r->e, "%s: malformed JSON: text after the array", r->path);
        return -1;
    }
    if (i != nblocks) {
        sm_err_set(r->e, "%s: expected %d entries (one per block), got %d", r->path, nblocks, i);
        return -1;
    }
    return 0;
}

/* ---- compact: {"encoding": "zlib-u16", ...} --------------------------- */

static int parse_compact(const cJSON *o, const char *path, const sm_topo *t, int nblocks, int *map,
                         sm_err *e)
{
    static const char *const keys[] = {"encoding", "blocks", "crc32", "data", NULL};
    char p[600];
    if (sm_json_only_keys(o, path, keys, e)) return -1;
    const char *enc, *crc_text, *data;
    if (sm_json_string(o, path, "encoding", 1, &enc, e) < 0) return -1;
    if (strcmp(enc, "zlib-u16") != 0) {
        sm_err_set(e, "%s: expected \"zlib-u16\", got \"%.100s\"", sm_jpath_key(p, sizeof p, path, "encoding"),
                   enc);
        return -1;
    }
    int64_t nb;
    if (sm_json_integer(o, path, "blocks", 1, 0, SM_MAX_TASKS, &nb, e) < 0) return -1;
    if (nb != nblocks) {
        sm_err_set(e, "%s: expected %d (the grid's blocks), got %lld", sm_jpath_key(p, sizeof p, path, "blocks"),
                   nblocks, (long long)nb);
        return -1;
    }
    if (sm_json_string(o, path, "crc32", 1, &crc_text, e) < 0) return -1;
    char *cend;
    unsigned long crc_file = strtoul(crc_text, &cend, 16);
    if (strlen(crc_text) != 8 || *cend || strspn(crc_text, "0123456789abcdefABCDEF") != 8) {
        sm_err_set(e, "%s: expected 8 hexadecimal digits, got \"%.40s\"",
                   sm_jpath_key(p, sizeof p, path, "crc32"), crc_text);
        return -1;
    }
    if (sm_json_string(o, path, "data", 1, &data, e) < 0) return -1;
    unsigned char *z;
    size_t zn, bad;
    if (sm_base64_decode(data, strlen(data), &z, &zn, &bad)) {
        if (bad == strlen(data))
            sm_err_set(e, "%s: expected base64, got %zu characters (not a multiple of 4)",
                       sm_jpath_key(p, sizeof p, path, "data"), bad);
        else
            sm_err_set(e, "%s: expected base64, got '%c' at character %zu", sm_jpath_key(p, sizeof p, path, "data"),
                       data[bad] >= 32 && data[bad] < 127 ? data[bad] : '?', bad);
        return -1;
    }
    size_t want = (size_t)nblocks * 2;
    unsigned char *raw = sm_xmalloc(want ? want : 1);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int rc = -1, zr = inflateInit(&zs);
    if (zr == Z_OK) {
        /* uInt counts: fed and drained in pieces below 4 GB. */
        size_t in_off = 0, out_off = 0;
        do {
            size_t in_n = zn - in_off, out_n = want - out_off;
            zs.next_in = z + in_off;
            zs.avail_in = (uInt)(in_n > (1u << 30) ? 1u << 30 : in_n);
            zs.next_out = raw + out_off;
            zs.avail_out = (uInt)(out_n > (1u << 30) ? 1u << 30 : out_n);
            uInt ai = zs.avail_in, ao = zs.avail_out;
            zr = inflate(&zs, Z_NO_FLUSH);
            in_off += ai - zs.avail_in;
            out_off += ao - zs.avail_out;
            if (zr == Z_OK && ai == zs.avail_in && ao == zs.avail_out) zr = Z_BUF_ERROR;
        } while (zr == Z_OK);
        size_t got = out_off;
        if (zr == Z_STREAM_END && got == want && in_off == zn) rc = 0;
        else if (zr == Z_STREAM_END || (zr == Z_BUF_ERROR && got == want && in_off < zn))
            sm_err_set(e, "%s: decodes to %s bytes than the %zu of %d blocks (2 a block)",
                       sm_jpath_key(p, sizeof p, path, "data"), got < want ? "fewer" : "more", want, nblocks);
        else
            sm_err_set(e, "%s: damaged or truncated zlib stream (%s)", sm_jpath_key(p, sizeof p, path, "data"),
                       zs.msg ? zs.msg : zr == Z_BUF_ERROR ? "it ends early" : "bad data");
        inflateEnd(&zs);
    } else {
        sm_err_set(e, "%s: cannot start zlib", sm_jpath_key(p, sizeof p, path, "data"));
    }
    free(z);
    if (rc == 0) {
        unsigned long crc = crc32(0L, Z_NULL, 0);
        for (size_t off = 0; off < want; off += 1u << 30)
            crc = crc32(crc, raw + off, (uInt)(want - off > (1u << 30) ? 1u << 30 : want - off));
        if (crc != crc_file) {
            sm_err_set(e, "%s: checksum mismatch: the data decode to %08lx, the file says %08lx (damaged file?)",
                       sm_jpath_key(p, sizeof p, path, "crc32"), crc, crc_file);
            rc = -1;
        }
    }
    for (int i = 0; rc == 0 && i < nblocks; i++) {
        int q = raw[2 * (size_t)i] | raw[2 * (size_t)i + 1] << 8;
        if (q >= t->nprocs) {
            sm_err_set(e, "%s: block %d: processor index %d, expected one in [0, %d)",
                       sm_jpath_key(p, sizeof p, path, "data"), i, q, t->nprocs);
            rc = -1;
        }
        map[i] = q;
    }
    free(raw);
    return rc;
}

/* ---- reading ---------------------------------------------------------- */

int sm_mapping_parse_value(const char *text, size_t n, const char *path, const sm_topo *t,
                           int nblocks, int *map, sm_err *e)
{
    const char *s = text, *end = text + n;
    while (s < end && is_ws(*s)) s++;
    if (s < end && *s == '{') {
        cJSON *o = cJSON_ParseWithLength(s, (size_t)(end - s));
        if (!cJSON_IsObject(o)) {
            cJSON_Delete(o);
            sm_err_set(e, "%s: malformed JSON object", path);
            return -1;
        }
        int rc = parse_compact(o, path, t, nblocks, map, e);
        cJSON_Delete(o);
        return rc;
    }
    if (s >= end || *s != '[') {
        sm_err_set(e, "%s: expected an array of processor names or indices, or a compact mapping "
                      "{\"encoding\": \"zlib-u16\", ...}", path);
        return -1;
    }
    int *order = sm_xmalloc(sizeof(int) * (size_t)(t->nprocs + 1));
    for (int q = 0; q < t->nprocs; q++) order[q] = q;
    sm_sort_r(order, (size_t)t->nprocs, sizeof(int), by_name, (void *)t);
    reader r = {s, end, path, t, order, -1, e};
    int rc = parse_plain(&r, nblocks, map);
    free(order);
    return rc;
}

int sm_mapping_read_member(const cJSON *node, const char *text, size_t n, const char *path,
                           const sm_topo *t, int nblocks, int *map, sm_err *e)
{
    if (text) return sm_mapping_parse_value(text, n, path, t, nblocks, map, e);
    /* Not lifted (a key written with escapes): the tree's node, as text. */
    char *s = cJSON_PrintUnformatted(node);
    if (!s) {
        sm_err_set(e, "%s: out of memory", path);
        return -1;
    }
    int rc = sm_mapping_parse_value(s, strlen(s), path, t, nblocks, map, e);
    cJSON_free(s);
    return rc;
}

/* ---- writing ---------------------------------------------------------- */

static char *plain_text(const sm_topo *t, const int *map, int nblocks, int formatted, size_t *len)
{
    /* Each name as JSON once (quotes, escapes), then copied per block. */
    char **name = sm_xmalloc(sizeof(char *) * (size_t)(t->nprocs ? t->nprocs : 1));
    size_t *nl = sm_xmalloc(sizeof(size_t) * (size_t)(t->nprocs ? t->nprocs : 1));
    size_t total = 3, sep = formatted ? 2 : 1;
    for (int q = 0; q < t->nprocs; q++) {
        cJSON *str = cJSON_CreateString(t->procs[q].name);
        name[q] = cJSON_PrintUnformatted(str);
        cJSON_Delete(str);
        nl[q] = strlen(name[q]);
    }
    for (int i = 0; i < nblocks; i++) total += nl[map[i]] + sep;
    char *s = sm_xmalloc(total), *w = s;
    *w++ = '[';
    for (int i = 0; i < nblocks; i++) {
        if (i) {
            *w++ = ',';
            if (formatted) *w++ = ' ';
        }
        memcpy(w, name[map[i]], nl[map[i]]);
        w += nl[map[i]];
    }
    *w++ = ']';
    *w = '\0';
    for (int q = 0; q < t->nprocs; q++) cJSON_free(name[q]);
    free(name);
    free(nl);
    *len = (size_t)(w - s);
    return s;
}

static char *compact_text(const int *map, int nblocks, int formatted, size_t *len)
{
    size_t n = (size_t)nblocks * 2;
    unsigned char *raw = sm_xmalloc(n ? n : 1);
    for (int i = 0; i < nblocks; i++) {
        raw[2 * (size_t)i] = (unsigned char)(map[i] & 0xff);
        raw[2 * (size_t)i + 1] = (unsigned char)(map[i] >> 8 & 0xff);
    }
    unsigned long crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < n; off += 1u << 30)
        crc = crc32(crc, raw + off, (uInt)(n - off > (1u << 30) ? 1u << 30 : n - off));
    /* Level 1: a whole Summit (16.7 M blocks) in well under a second;
     * its long runs of equal processors compress almost as well as at 9. */
    uLong cap = compressBound((uLong)n);
    unsigned char *z = sm_xmalloc(cap);
    uLongf zn = cap;
    if (compress2(z, &zn, raw, (uLong)n, 1) != Z_OK) abort(); /* only on a bug: cap is the bound */
    free(raw);
    size_t bn;
    char *b64 = sm_base64_encode(z, zn, &bn);
    free(z);
    char head[160];
    int hn = snprintf(head, sizeof head, "{\"encoding\":%s\"zlib-u16\",%s\"blocks\":%s%d,%s\"crc32\":%s\"%08lx\",%s\"data\":%s\"",
                      formatted ? " " : "", formatted ? " " : "", formatted ? " " : "", nblocks,
                      formatted ? " " : "", formatted ? " " : "", crc, formatted ? " " : "",
                      formatted ? " " : "");
    char *s = sm_xmalloc((size_t)hn + bn + 3);
    memcpy(s, head, (size_t)hn);
    memcpy(s + hn, b64, bn);
    memcpy(s + hn + bn, "\"}", 3);
    free(b64);
    *len = (size_t)hn + bn + 2;
    return s;
}

char *sm_mapping_value_text(const sm_topo *t, const int *map, int nblocks, sm_mapping_form form,
                            int formatted, size_t *len)
{
    if (form == SM_MAPPING_AUTO) form = nblocks > SM_MAPPING_PLAIN_MAX ? SM_MAPPING_COMPACT : SM_MAPPING_PLAIN;
    return form == SM_MAPPING_COMPACT ? compact_text(map, nblocks, formatted, len)
                                      : plain_text(t, map, nblocks, formatted, len);
}

int sm_mapping_form_parse(const char *word, sm_mapping_form *form)
{
    if (strcmp(word, "plain") == 0) *form = SM_MAPPING_PLAIN;
    else if (strcmp(word, "compact") == 0) *form = SM_MAPPING_COMPACT;
    else if (strcmp(word, "auto") == 0) *form = SM_MAPPING_AUTO;
    else return -1;
    return 0;
}
