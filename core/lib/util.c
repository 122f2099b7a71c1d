/* util.c - allocation that never returns NULL, errors, paths, sorting.
 * Reading and writing files: atomic_file_write.c. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sm_err_set(sm_err *e, const char *fmt, ...)
{
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code[0] = 0;
}

void sm_err_set_code(sm_err *e, const char *code, const char *fmt, ...)
{
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    snprintf(e->code, sizeof e->code, "%s", code);
}

void sm_err_prefix(sm_err *e, const char *fmt, ...)
{
    if (!e) return;
    char pre[512], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    size_t n = strlen(pre);
    if (n >= sizeof e->msg) n = sizeof e->msg - 1;
    memcpy(e->msg, pre, n);
    size_t m = strlen(old);
    if (n + m >= sizeof e->msg) m = sizeof e->msg - 1 - n;
    memcpy(e->msg + n, old, m);
    e->msg[n + m] = '\0';
}

static void oom(void)
{
    fputs("stencilmap: out of memory\n", stderr);
    abort();
}

static _Thread_local size_t alloc_bytes;

size_t sm_alloc_bytes(void) { return alloc_bytes; }

void *sm_xmalloc(size_t n)
{
    alloc_bytes += n;
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *sm_xcalloc(size_t n, size_t size)
{
    alloc_bytes += n * size;
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return p;
}

void *sm_xrealloc(void *p, size_t n)
{
    alloc_bytes += n;
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

char *sm_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = sm_xmalloc(n);
    memcpy(d, s, n);
    return d;
}


char *sm_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return sm_xstrdup(".");
    if (slash == path) return sm_xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = sm_xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

char *sm_path_join(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir || !dir[0]) return sm_xstrdup(rel);
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = sm_xmalloc(n);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}


/* Bottom-up merge sort through one scratch buffer: stable, O(n log n),
 * and reentrant because the comparator's state travels in ctx. */
void sm_sort_r(void *base, size_t n, size_t size, sm_cmp_fn cmp, void *ctx)
{
    if (n < 2) return;
    char *a = base, *b = sm_xmalloc(n * size), *src = a, *dst = b;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0) memcpy(dst + k++ * size, src + j++ * size, size);
                else memcpy(dst + k++ * size, src + i++ * size, size);
            }
            memcpy(dst + k * size, src + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        char *t = src; src = dst; dst = t;
    }
    if (src != a) memcpy(a, src, n * size);
    free(b);
}

static int digits_in(const char *s, const char *set)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr(set, *s)) return 0;
    return 1;
}

const char *sm_name_problem(const char *name)
{
    size_t n = strlen(name);
    if (n == 0) return "a name must not be empty";
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return "a name must not hold control characters (newline, tab, escape...)";
    /* The integer forms Tcl_GetInt accepts: white space around, a sign,
     * then decimal, or 0x/0b/0o/0d with their digits. */
    const char *s = name;
    while (*s == ' ') s++;
    size_t len = strlen(s);
    while (len > 0 && s[len - 1] == ' ') len--;
    if (len > 64) return NULL; /* longer than any integer Tcl reads */
    char buf[72];
    memcpy(buf, s, len);
    buf[len] = '\0';
    s = buf;
    if (*s == '+' || *s == '-') s++;
    int number = digits_in(s, "0123456789");
    if (!number && s[0] == '0' && s[1]) {
        const char *r = s + 2;
        switch (s[1]) {
        case 'x': case 'X': number = digits_in(r, "0123456789abcdefABCDEF"); break;
        case 'b': case 'B': number = digits_in(r, "01"); break;
        case 'o': case 'O': number = digits_in(r, "01234567"); break;
        case 'd': case 'D': number = digits_in(r, "0123456789"); break;
        default: break;
        }
    }
    return number ? "a name must not be a whole number (whole numbers are processor indices)" : NULL;
}
