/* command_word_list.c - commands as words (see command_word_list.h). */
#include "command_word_list.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

void sm_words_init(sm_words *c)
{
    memset(c, 0, sizeof *c);
}

void sm_words_clear(sm_words *c)
{
    for (int i = 0; i < c->n; i++) free(c->w[i]);
    c->n = 0;
}

void sm_words_free(sm_words *c)
{
    sm_words_clear(c);
    free(c->w);
    sm_words_init(c);
}

static void push(sm_words *c, char *s)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->w = sm_xrealloc(c->w, sizeof(char *) * (size_t)c->cap);
    }
    c->w[c->n++] = s;
}

void sm_words_add(sm_words *c, const char *word)
{
    push(c, sm_xstrdup(word));
}

void sm_words_addf(sm_words *c, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sm_words_add(c, buf);
}

void sm_words_lit(sm_words *c, const char *words)
{
    const char *p = words;
    while (*p) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if (e > p) {
            char *w = sm_xmalloc((size_t)(e - p) + 1);
            memcpy(w, p, (size_t)(e - p));
            w[e - p] = '\0';
            push(c, w);
        }
        p = e;
    }
}

void sm_words_copy(sm_words *c, const sm_words *o)
{
    sm_words_clear(c);
    for (int i = 0; i < o->n; i++) sm_words_add(c, o->w[i]);
}
