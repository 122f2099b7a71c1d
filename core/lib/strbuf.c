/* strbuf.c - printf into a buffer that grows as needed. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include "util.h"

void sm_strbuf_init(sm_strbuf *b)
{
    b->cap = 4096;
    b->n = 0;
    b->s = sm_xmalloc(b->cap);
    b->s[0] = '\0';
}

void sm_strbuf_put(sm_strbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (size_t)(k > 0 ? k : 64) + 64;
        b->s = sm_xrealloc(b->s, b->cap);
    }
}
