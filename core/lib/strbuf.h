/* strbuf.h - a growing text buffer for the writers (reports, exports). */
#ifndef SM_STRBUF_H
#define SM_STRBUF_H

#include <stddef.h>

typedef struct sm_strbuf {
    char *s;
    size_t n, cap;
} sm_strbuf;

void sm_strbuf_init(sm_strbuf *b);
void sm_strbuf_put(sm_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
