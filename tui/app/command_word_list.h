/* command_word_list.h - a command as its words, never as text to be parsed: the TUI
 * builds every command it runs this way and the shell layer turns the
 * words into a Tcl list (tcl_bridge.h), so a processor, theme or file name is
 * always one word, whatever characters it holds. No Tcl here. */
#ifndef SM_COMMAND_WORD_LIST_H
#define SM_COMMAND_WORD_LIST_H

#include <stddef.h>

typedef struct sm_words {
    int n, cap;
    char **w;
} sm_words;

/* Empty; sm_words_free releases. A zeroed struct is empty too. */
void sm_words_init(sm_words *c);
void sm_words_free(sm_words *c);
void sm_words_clear(sm_words *c);
void sm_words_add(sm_words *c, const char *word);
/* One word formatted from numbers and fixed text. */
void sm_words_addf(sm_words *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Several fixed words split at blanks: "view cursor left". Only for
 * literals written in the program, never for data. */
void sm_words_lit(sm_words *c, const char *words);
/* c := a copy of o. */
void sm_words_copy(sm_words *c, const sm_words *o);

#endif
