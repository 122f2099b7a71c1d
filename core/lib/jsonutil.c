/* jsonutil.c - strict JSON readers; every error names the path. */
#include "jsonutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Text no string of ours can come from: empty, a NUL byte, or an
 * escaped NUL (cJSON would end a string there and read "cpu\u0000x" as
 * "cpu"). */
static int check_text(const char *text, size_t len, sm_err *e)
{
    if (len == 0) {
        sm_err_set(e, "(root): expected a JSON object, the file is empty");
        return -1;
    }
    if (memchr(text, '\0', len)) {
        sm_err_set(e, "(root): expected JSON text, found a NUL byte "
                      "(binary file?)");
        return -1;
    }
    /* cJSON would end a string at an escaped NUL (\u0000) and read
     * "cpu\u0000x" as "cpu": no string of ours may hold one. */
    /* cJSON stops at CJSON_NESTING_LIMIT levels and says only "malformed":
     * tell what is wrong, and where. */
    int line = 1, in_str = 0, depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n') line++;
        if (!in_str) {
            if (c == '"') in_str = 1;
            else if (c == '[' || c == '{') {
                if (++depth > CJSON_NESTING_LIMIT) {
                    sm_err_set(e, "(root): line %d: arrays and objects nested deeper than %d levels",
                               line, CJSON_NESTING_LIMIT);
                    return -1;
                }
            } else if ((c == ']' || c == '}') && depth > 0) {
                depth--;
            }
            continue;
        }
        if (c == '"') in_str = 0;
        else if (c == '\\' && i + 1 < len) {
            if (text[i + 1] == 'u' && i + 5 < len && memcmp(text + i + 2, "0000", 4) == 0) {
                sm_err_set(e, "(root): line %d: a string holds a NUL character (\\u0000)", line);
                return -1;
            }
            i++;
        }
    }
    return 0;
}

/* cJSON's parse of a text check_text passed; errors give line and column. */
static cJSON *parse_checked(const char *text, size_t len, sm_err *e)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (j && end) {
        /* Only white space may follow the value. */
        const char *p = end;
        while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
        if (p < text + len) {
            cJSON_Delete(j);
            j = NULL;
            end = p;
        }
    }
    if (!j) {
        const char *at = end;
        if (!at || at < text || at > text + len) at = cJSON_GetErrorPtr();
        int line = 1, col = 1;
        if (at && at >= text && at <= text + len)
            for (const char *p = text; p < at; p++) {
                if (*p == '\n') { line++; col = 1; }
                else col++;
            }
        sm_err_set(e, "(root): malformed or truncated JSON near line %d, "
                      "column %d",
                   line, col);
        return NULL;
    }
    return j;
}

cJSON *sm_json_parse(const char *text, size_t len, sm_err *e)
{
    return check_text(text, len, e) ? NULL : parse_checked(text, len, e);
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The end of the JSON value at text[i] (its structure only: strings,
 * brackets; the tokens' own syntax is checked by whoever reads them), or
 * the place it breaks, with *ok = 0. */
static size_t skip_value(const char *text, size_t len, size_t i, int *ok)
{
    int depth = 0;
    *ok = 0;
    while (i < len) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\') i++;
            if (i >= len) return len;
            i++;
            if (depth == 0) break;
        } else if (c == '[' || c == '{') {
            depth++;
            i++;
        } else if (c == ']' || c == '}') {
            if (depth == 0) break;
            i++;
            if (--depth == 0) break;
        } else if (depth == 0 && (c == ',' || c == ':' || is_ws(c))) {
            break;
        } else {
            i++;
        }
    }
    *ok = depth == 0;
    return i;
}

cJSON *sm_json_parse_lift(const char *text, size_t len, const char *key, const char **value,
                          size_t *value_len, sm_err *e)
{
    *value = NULL;
    *value_len = 0;
    if (check_text(text, len, e)) return NULL;
    size_t kl = strlen(key), i = 0, a = 0, b = 0;
    int found = 0, ok = 1;
    /* The top-level object's keys, each value skipped whole. */
    while (i < len && is_ws(text[i])) i++;
    if (i < len && text[i] == '{') {
        i++;
        for (;;) {
            while (i < len && is_ws(text[i])) i++;
            if (i >= len || text[i] != '"') break;
            size_t ks = i + 1;
            i = skip_value(text, len, i, &ok);
            if (!ok) break;
            int match = i - ks - 1 == kl && memcmp(text + ks, key, kl) == 0;
            while (i < len && is_ws(text[i])) i++;
            if (i >= len || text[i] != ':') break;
            for (i++; i < len && is_ws(text[i]); i++) {}
            size_t vs = i;
            i = skip_value(text, len, i, &ok);
            if (!ok || i == vs) break;
            if (match && !found) {
                found = 1;
                a = vs;
                b = i;
            }
            while (i < len && is_ws(text[i])) i++;
            if (i >= len || text[i] != ',') break;
            i++;
        }
    }
    if (!found || !ok) return parse_checked(text, len, e);
    /* The rest, with a 0 in the value's place and its line breaks kept,
     * so that cJSON's line numbers stay those of the file. */
    size_t lines = 0;
    for (const char *p = text + a; (p = memchr(p, '\n', (size_t)(text + b - p))) != NULL; p++) lines++;
    size_t n = a + 1 + lines + (len - b);
    char *rest = sm_xmalloc(n + 1);
    memcpy(rest, text, a);
    rest[a] = '0';
    memset(rest + a + 1, '\n', lines);
    memcpy(rest + a + 1 + lines, text + b, len - b);
    rest[n] = '\0';
    cJSON *j = parse_checked(rest, n, e);
    free(rest);
    if (j) {
        *value = text + a;
        *value_len = b - a;
    }
    return j;
}

char *sm_json_print_with(const cJSON *j, int formatted, const char *key, const char *value,
                         size_t value_len, size_t *len)
{
    char *s = formatted ? cJSON_Print(j) : cJSON_PrintUnformatted(j);
    if (!s) return NULL;
    size_t n = strlen(s);
    /* The object's closing brace, and the last byte before it. */
    size_t close = n;
    while (close > 0 && s[close - 1] != '}') close--;
    if (close == 0) {
        cJSON_free(s);
        return NULL;
    }
    close--;
    size_t last = close;
    while (last > 0 && is_ws(s[last - 1])) last--;
    int empty = last > 0 && s[last - 1] == '{';
    char head[300];
    int hn = snprintf(head, sizeof head, "%s%s\"%s\":%s", empty ? "" : ",", formatted ? "\n\t" : "",
                      key, formatted ? " " : "");
    size_t total = last + (size_t)hn + value_len + (formatted ? 1 : 0) + (n - close) + 1;
    char *t = sm_xmalloc(total + 1);
    size_t k = 0;
    memcpy(t + k, s, last);
    k += last;
    memcpy(t + k, head, (size_t)hn);
    k += (size_t)hn;
    memcpy(t + k, value, value_len);
    k += value_len;
    if (formatted) t[k++] = '\n';
    memcpy(t + k, s + close, n - close);
    k += n - close;
    t[k++] = '\n';
    t[k] = '\0';
    cJSON_free(s);
    if (len) *len = k;
    return t;
}

char *sm_json_print(const cJSON *j)
{
    char *s = cJSON_Print(j);
    if (!s) return NULL;
    size_t n = strlen(s);
    char *t = sm_xmalloc(n + 2);
    memcpy(t, s, n);
    t[n] = '\n';
    t[n + 1] = '\0';
    cJSON_free(s);
    return t;
}

const char *sm_jpath_key(char *buf, size_t n, const char *parent,
                         const char *key)
{
    if (!parent || !parent[0]) snprintf(buf, n, "%s", key);
    else snprintf(buf, n, "%s.%s", parent, key);
    return buf;
}

const char *sm_jpath_idx(char *buf, size_t n, const char *parent, int i)
{
    snprintf(buf, n, "%s[%d]", parent && parent[0] ? parent : "", i);
    return buf;
}

static const char *kind_of(const cJSON *j)
{
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    return "something else";
}

int sm_json_expect_object(const cJSON *j, const char *path, sm_err *e)
{
    if (cJSON_IsObject(j)) return 0;
    sm_err_set(e, "%s: expected an object, got %s", path[0] ? path : "(root)",
               kind_of(j));
    return -1;
}

static const cJSON *child(const cJSON *obj, const char *path, const char *key,
                          int required, char *p, size_t pn, sm_err *e,
                          int *rc)
{
    sm_jpath_key(p, pn, path, key);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!c) {
        if (required) {
            sm_err_set(e, "%s: missing (required)", p);
            *rc = -1;
        } else *rc = 0;
        return NULL;
    }
    *rc = 1;
    return c;
}

static int check_number(const cJSON *c, const char *p, double lo, double hi,
                        double *out, sm_err *e)
{
    if (!cJSON_IsNumber(c)) {
        sm_err_set(e, "%s: expected a number, got %s", p, kind_of(c));
        return -1;
    }
    double v = c->valuedouble;
    if (!isfinite(v)) {
        sm_err_set(e, "%s: expected a finite number", p);
        return -1;
    }
    if (v < lo || v > hi) {
        sm_err_set(e, "%s: expected a number in [%g, %g], got %g", p, lo, hi,
                   v);
        return -1;
    }
    *out = v;
    return 0;
}

int sm_json_number(const cJSON *obj, const char *path, const char *key,
                   int required, double lo, double hi, double *out, sm_err *e)
{
    char p[512];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    return check_number(c, p, lo, hi, out, e) ? -1 : 1;
}

static int check_int(const cJSON *c, const char *p, int64_t lo, int64_t hi,
                     int64_t *out, sm_err *e)
{
    double v;
    if (check_number(c, p, -9.2e18, 9.2e18, &v, e)) return -1;
    if (v != floor(v)) {
        sm_err_set(e, "%s: expected a whole number, got %g", p, v);
        return -1;
    }
    if (v < (double)lo || v > (double)hi) {
        sm_err_set(e, "%s: expected a whole number in [%lld, %lld], got %.17g",
                   p, (long long)lo, (long long)hi, v);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

int sm_json_integer(const cJSON *obj, const char *path, const char *key,
                    int required, int64_t lo, int64_t hi, int64_t *out,
                    sm_err *e)
{
    char p[512];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    return check_int(c, p, lo, hi, out, e) ? -1 : 1;
}

int sm_json_string(const cJSON *obj, const char *path, const char *key,
                   int required, const char **out, sm_err *e)
{
    char p[512];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    if (!cJSON_IsString(c)) {
        sm_err_set(e, "%s: expected a string, got %s", p, kind_of(c));
        return -1;
    }
    if (c->valuestring[0] == '\0') {
        sm_err_set(e, "%s: expected a non-empty string", p);
        return -1;
    }
    *out = c->valuestring;
    return 1;
}

static int check_flag(const cJSON *c, const char *p, int *out, sm_err *e)
{
    if (cJSON_IsBool(c)) {
        *out = cJSON_IsTrue(c) ? 1 : 0;
        return 0;
    }
    if (cJSON_IsNumber(c) && (c->valuedouble == 0 || c->valuedouble == 1)) {
        *out = (int)c->valuedouble;
        return 0;
    }
    if (cJSON_IsNumber(c))
        sm_err_set(e, "%s: expected true, false, 0 or 1, got %g", p, c->valuedouble);
    else
        sm_err_set(e, "%s: expected true, false, 0 or 1, got %s", p, kind_of(c));
    return -1;
}

int sm_json_flag(const cJSON *obj, const char *path, const char *key,
                 int required, int *out, sm_err *e)
{
    char p[512];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    return check_flag(c, p, out, e) ? -1 : 1;
}

int sm_json_flag_array(const cJSON *obj, const char *path, const char *key,
                       int required, int len, int *out, sm_err *e)
{
    char p[512], q[560];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    if (!cJSON_IsArray(c)) {
        sm_err_set(e, "%s: expected an array of %d flags, got %s", p, len, kind_of(c));
        return -1;
    }
    int n = cJSON_GetArraySize(c);
    if (n != len) {
        sm_err_set(e, "%s: expected %d flags (true/false or 0/1), got %d", p, len, n);
        return -1;
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, c) {
        sm_jpath_idx(q, sizeof q, p, i);
        if (check_flag(it, q, &out[i], e)) return -1;
        i++;
    }
    return 1;
}

int sm_json_whole(const cJSON *j, double lo, double hi, int64_t *out)
{
    if (!cJSON_IsNumber(j)) return -1;
    double v = j->valuedouble;
    /* Range first: converting an out-of-range double to an integer is UB. */
    if (!isfinite(v) || v < lo || v > hi || v != floor(v)) return -1;
    *out = (int64_t)v;
    return 0;
}

int sm_json_int_array(const cJSON *obj, const char *path, const char *key,
                      int required, int minlen, int maxlen, int64_t lo,
                      int64_t hi, int64_t *out, int *len, sm_err *e)
{
    char p[512], q[560];
    int rc;
    const cJSON *c = child(obj, path, key, required, p, sizeof p, e, &rc);
    if (rc <= 0) return rc;
    if (!cJSON_IsArray(c)) {
        sm_err_set(e, "%s: expected an array, got %s", p, kind_of(c));
        return -1;
    }
    int n = cJSON_GetArraySize(c);
    if (n < minlen || n > maxlen) {
        if (minlen == maxlen)
            sm_err_set(e, "%s: expected %d numbers, got %d", p, minlen, n);
        else
            sm_err_set(e, "%s: expected %d to %d numbers, got %d", p, minlen,
                       maxlen, n);
        return -1;
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, c) {
        sm_jpath_idx(q, sizeof q, p, i);
        if (check_int(it, q, lo, hi, &out[i], e)) return -1;
        i++;
    }
    if (len) *len = n;
    return 1;
}

int sm_json_only_keys(const cJSON *obj, const char *path,
                      const char *const *allowed, sm_err *e)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (it->string && strcmp(it->string, *a) == 0) { ok = 1; break; }
        if (!ok) {
            char p[512];
            sm_jpath_key(p, sizeof p, path, it->string ? it->string : "?");
            sm_err_set(e, "%s: unknown key", p);
            return -1;
        }
        /* Descriptive keys are text wherever a format allows them: a
         * number or object there is a mistake, not a label. */
        if ((strcmp(it->string, "name") == 0 ||
             strcmp(it->string, "comment") == 0 ||
             strcmp(it->string, "description") == 0) &&
            !cJSON_IsString(it)) {
            char p[512];
            sm_jpath_key(p, sizeof p, path, it->string);
            sm_err_set(e, "%s: expected a string, got %s", p, kind_of(it));
            return -1;
        }
        /* Duplicate keys: cJSON keeps both; the second would be ignored. */
        for (const cJSON *o = obj->child; o && o != it; o = o->next)
            if (o->string && it->string && strcmp(o->string, it->string) == 0) {
                char p[512];
                sm_jpath_key(p, sizeof p, path, it->string);
                sm_err_set(e, "%s: duplicate key", p);
                return -1;
            }
    }
    return 0;
}

int sm_json_check_format(const cJSON *root, const char *format, sm_err *e)
{
    if (sm_json_expect_object(root, "", e)) return -1;
    const char *f = NULL;
    if (sm_json_string(root, "", "format", 1, &f, e) < 0) return -1;
    if (strcmp(f, format) != 0) {
        sm_err_set(e, "format: expected \"%s\", got \"%s\"", format, f);
        return -1;
    }
    int64_t v;
    if (sm_json_integer(root, "", "version", 1, 1, 1, &v, e) < 0) return -1;
    return 0;
}
